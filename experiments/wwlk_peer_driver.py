"""Run the WWLK reference on file pairs, inside the reference's own environment.

Not part of smatchpp: ``experiments/compare_wwlk.py`` and ``bench_wwlk.py`` start it with
the reference's interpreter (a venv under ``~/.cache`` with PyPI smatchpp 1.5.1,
networkx, numpy, scipy and pyemd) and the directory the reference was extracted to.

    PYTHON wwlk_peer_driver.py REF_DIR VECTORS.txt [-k 2] [--init ones] [--e2n]
                               [--stability 0] A1 B1 [A2 B2 ...]

``main_wlk_wasser.py``'s path is followed (``data_helpers.read_graph_file``,
``graph_helpers.GraphParser(edge_to_node_transform=...).parse``,
``amr_similarity.AmrWasserPreProcessor`` and ``WasserWLK(...).predict``), without its
rounding.  The one change: the reference loads its vectors with gensim's downloader
(``AmrWasserPreProcessor.__init__``, ``api.load(w2v_uri)``), which cannot download
here; ``gensim.downloader`` is replaced by a module whose ``load`` reads VECTORS.txt (a
GloVe text file) into a dict of float64 arrays, which ``_get_vec`` looks words up in
(``key in self.wordvecs``, ``self.wordvecs[key]``) as it would in gensim's vectors.
Each pair of files prints one JSON line with the pair scores and the seconds taken
(vector loading included, once per run), and the relation weights the reference drew, with
the relations in the order it met them (its ``param_keys``).
"""

import argparse
import json
import sys
import time
import types

import numpy as np


def main(argv):
    p = argparse.ArgumentParser()
    p.add_argument("ref")
    p.add_argument("vectors")
    p.add_argument("-k", type=int, default=2)
    p.add_argument("--init", default="min_entropy")
    p.add_argument("--e2n", action="store_true")
    p.add_argument("--stability", type=int, default=0)
    p.add_argument("files", nargs="+")
    args = p.parse_args(argv)
    began = time.perf_counter()

    def load(name):
        vecs = {}
        with open(args.vectors, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split(" ")
                vecs[parts[0]] = np.array([float(x) for x in parts[1:]])
        return vecs

    gensim = types.ModuleType("gensim")
    downloader = types.ModuleType("gensim.downloader")
    downloader.load = load
    gensim.downloader = downloader
    sys.modules["gensim"], sys.modules["gensim.downloader"] = gensim, downloader
    sys.path.insert(0, args.ref + "/src")
    import data_helpers as dh
    import graph_helpers as gh
    import amr_similarity as amrsim

    prepro = amrsim.AmrWasserPreProcessor(w2v_uri="from-file", init=args.init)
    loaded = time.perf_counter() - began
    files = list(zip(args.files[0::2], args.files[1::2]))
    for a, b in files:
        t = time.perf_counter()
        grapa = gh.GraphParser(input_format="penman", edge_to_node_transform=args.e2n)
        g1, _ = grapa.parse(dh.read_graph_file(a))
        g2, _ = grapa.parse(dh.read_graph_file(b))
        predictor = amrsim.WasserWLK(preprocessor=prepro, iters=args.k, stability=args.stability,
                                     communication_direction="both", prs="s")
        preds = predictor.predict(g1, g2)
        keys = prepro.param_keys or {}
        weights = {label: float(np.ravel(prepro.params[i])[0]) for label, i in keys.items()}
        print(json.dumps({"a": a, "b": b, "scores": [float(x) for x in preds],
                          "seconds": time.perf_counter() - t, "load_seconds": loaded,
                          "relation_order": sorted(keys, key=keys.get), "weights": weights}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])

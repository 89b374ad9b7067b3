"""Run the WLK or REMATCH reference on file pairs, inside the reference's own environment.

Not part of smatchpp: ``experiments/compare_wlk.py``, ``compare_rematch.py`` and
``bench_wlk_rematch.py`` start it with the reference's interpreter (a venv under
``~/.cache``) and the directory the reference was extracted to.  Each pair of files
prints one JSON line: the file names and the reference's pair values, read and scored
by the reference's own functions.

    PYTHON wlk_rematch_peer_driver.py wlk REF_DIR [-k 2] A1 B1 [A2 B2 ...]
    PYTHON wlk_rematch_peer_driver.py rematch REF_DIR [--va pb2va.json] A1 B1 [A2 B2 ...]

WLK: ``REF_DIR/src`` is the reference's ``src``; ``main_wlk.py``'s path is followed
(``data_helpers.read_graph_file``, ``graph_helpers.GraphParser().parse``,
``amr_similarity.WLK(iters=k).predict``), without its rounding.  ``amr_similarity``
imports ``pyemd`` and ``gensim.downloader`` at the top for its Wasserstein variant
only; they are replaced by empty modules here, so that the venv needs only PyPI
smatchpp 1.5.1, networkx, numpy and scipy.

REMATCH: ``REF_DIR/methods/rematch`` is imported; ``rematch.generate_amr_lines`` and
``rematch.get_amr_match`` are called as ``score_amr_pairs`` calls them, and the
numerator and denominator of every pair are printed.  ``--va`` is a VerbAtlas map
(default: an empty map).
"""

import json
import sys
import time
import types


def run_wlk(ref, k, files):
    sys.path.insert(0, ref + "/src")
    for name in ("pyemd", "gensim", "gensim.downloader"):
        sys.modules[name] = types.ModuleType(name)
    sys.modules["pyemd"].emd_with_flow = None
    sys.modules["gensim"].downloader = sys.modules["gensim.downloader"]
    import data_helpers as dh
    import graph_helpers as gh
    import amr_similarity as amrsim

    for a, b in files:
        began = time.perf_counter()
        grapa = gh.GraphParser(input_format="penman", edge_to_node_transform=False)
        g1, _ = grapa.parse(dh.read_graph_file(a))
        g2, _ = grapa.parse(dh.read_graph_file(b))
        preds = amrsim.WLK(iters=k, communication_direction="both").predict(g1, g2)
        print(json.dumps({"a": a, "b": b, "n_a": len(g1), "n_b": len(g2),
                          "scores": [float(x) for x in preds],
                          "seconds": time.perf_counter() - began}), flush=True)


def run_rematch(ref, va, files):
    sys.path.insert(0, ref + "/methods/rematch")
    import rematch

    pb2va = {}
    if va:
        with open(va) as f:
            pb2va = json.load(f)
    for a, b in files:
        began = time.perf_counter()
        pairs = []
        with open(a) as f0, open(b) as f1:
            for sent_num, (x, y) in enumerate(rematch.generate_amr_lines(f0, f1), start=1):
                num, den = rematch.get_amr_match(x, y, set(), pb2va, sent_num)[:2]
                pairs.append([num, den])
        print(json.dumps({"a": a, "b": b, "pairs": pairs, "seconds": time.perf_counter() - began}),
              flush=True)


def main(argv):
    tool, ref, rest = argv[0], argv[1], argv[2:]
    option = None
    if rest and rest[0] in ("-k", "--va"):
        option, rest = rest[1], rest[2:]
    files = list(zip(rest[0::2], rest[1::2]))
    if tool == "wlk":
        run_wlk(ref, int(option) if option else 2, files)
    elif tool == "rematch":
        run_rematch(ref, option, files)
    else:
        raise SystemExit(f"unknown tool {tool!r}")


if __name__ == "__main__":
    main(sys.argv[1:])

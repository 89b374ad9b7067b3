"""Peer driver: smatchpp 1.8.0's aspect scores (``-score_dimension all-multialign``), per pair.

Run with the PEER venv's python (see ``experiments/setup_peers.sh``)::

    $VENV/bin/python experiments/peer_smatchpp18_aspects.py A.amr B.amr --out per_pair.jsonl \
        [--mode all-multialign|all-onealign] [--max-seconds 240] [--start 0] [--stop N]

It assembles what ``python -m smatchpp -graph_type amr -solver ilp -score_dimension
all-multialign -score_type pairwise`` assembles, and repeats ``Smatchpp.process_pair``'s
aspect loop so that each aspect's solver status is kept (``process_pair`` keeps the
last one only).  Output per pair::

    {"index": i, "aspects": {NAME: [match_a, match_b, size_a, size_b, lower, upper, f1]}}

(with ``all-onealign`` also ``"full_matched"``: the full graphs' triples its alignment matches)

``f1`` is 1.8's ``eval_statistics.f1_score`` of the first four (1.0 when both
subgraphs are empty), ``lower``/``upper`` the ILP's objective and bound (``null`` when
an aspect's subgraph has no variable on one side, where 1.8 does not solve).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _REPO]

from smatchpp import align, data_helpers, eval_statistics, model_factory, preprocess, score, solvers  # noqa: E402
import smatchpp as _pkg  # noqa: E402

if "site-packages" not in os.path.abspath(_pkg.__file__):
    raise SystemExit("not the PyPI smatchpp: %s" % _pkg.__file__)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--out", required=True)
    ap.add_argument("--mode", default="all-multialign", choices=["all-multialign", "all-onealign"])
    ap.add_argument("--max-seconds", type=int, default=240, help="ILP time limit per solve (1.8's default)")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--stop", type=int, default=None)
    args = ap.parse_args()

    reader = model_factory.GraphReaderFactory.get_reader("penman")
    standardizer = model_factory.StandardizerFactory.get_standardizer("amr")
    preparer = preprocess.BasicGraphPairPreparer(lossless_graph_compression=False)
    matcher = score.IDTripleMatcher()
    aligner = align.GraphAligner(matcher, solvers.ILP(max_seconds=args.max_seconds))
    scorer = score.TripleScorer(triplematcher=matcher)
    extractor = model_factory.SubgraphExtractorFactory.get_extractor("amr")

    graphs_a = data_helpers.read_graphstrings_from_file(args.a)
    graphs_b = data_helpers.read_graphstrings_from_file(args.b)
    if len(graphs_a) != len(graphs_b):
        raise SystemExit("different number of graphs")
    stop = len(graphs_a) if args.stop is None else min(args.stop, len(graphs_a))
    t0 = time.perf_counter()
    with open(args.out, "w", buffering=1) as out:
        for index in range(args.start, stop):
            try:
                g1 = standardizer.standardize(reader.string2graph(graphs_a[index]))
                g2 = standardizer.standardize(reader.string2graph(graphs_b[index]))
                if args.mode == "all-onealign":
                    # as Smatchpp.process_pair: align the prepared (renamed) full graphs and
                    # cut the subgraphs out of those
                    g1, g2, v1, v2 = preparer.prepare_get_vars(g1, g2)
                    full = aligner.align(g1, g2, v1, v2)
                sub1 = extractor.all_subgraphs_by_name(g1)
                sub2 = extractor.all_subgraphs_by_name(g2)
                rec = {}
                for name in sub1:
                    if args.mode == "all-multialign":
                        t1, t2, v1, v2 = preparer.prepare_get_vars(sub1[name], sub2[name])
                        alignment, varindex, status = aligner.align(t1, t2, v1, v2)
                        m = scorer.score(t1, t2, alignment, varindex)
                    else:
                        alignment, varindex, status = full
                        m = scorer.score(sub1[name], sub2[name], alignment, varindex)
                    lower, upper = (None, None) if not v1 or not v2 else (float(status[0]), float(status[1]))
                    rec[name] = [float(m[0]), float(m[1]), int(m[2]), int(m[3]), lower, upper,
                                 float(eval_statistics.f1_score(m))]
                line = {"index": index, "aspects": rec}
                if args.mode == "all-onealign":
                    # the full graphs' triples that the one alignment matches (1.8's "main" count;
                    # its ILP objective can differ: it counts a self-loop twice)
                    alignment, varindex, _ = full
                    line["full_matched"] = float(scorer.score(g1, g2, alignment, varindex)[0])
            except Exception as e:  # noqa: BLE001
                line = {"index": index, "error": "%s: %s" % (type(e).__name__, e)}
            out.write(json.dumps(line) + "\n")
    print(json.dumps({"tool": "smatchpp-1.8.0", "mode": args.mode, "pairs": stop - args.start,
                      "seconds": time.perf_counter() - t0,
                      "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Peer driver: score AMR pairs with PyPI ``smatchpp`` 1.8.0 (Opitz), per pair.

Run with the PEER venv's python (see ``experiments/setup_peers.sh``)::

    $VENV/bin/python experiments/peer_smatchpp18.py A.amr B.amr --out per_pair.jsonl \
        [--solver ilp|hillclimber|ilp_backed|lp] [--graph-type generic|amr|none] \
        [--lossless-graph-compression] [--max-seconds 240] [--seed S]

It builds exactly the pipeline of ``python -m smatchpp`` (its ``__main__``) and
calls ``Smatchpp.process_pair`` per pair, so per-pair numbers are available.
The corpus result equals the CLI's micro score, i.e. this command line::

    $VENV/bin/python -P -m smatchpp -a A.amr -b B.amr -solver ilp -graph_type generic \
        -score_dimension main -score_type micro -output_format json \
        [--lossless_graph_compression]        # no --bootstrap; -P: keep cwd off sys.path

Notes on 1.8.0's CLI: there is no ``-edges`` flag; ``--remove_duplicates`` is
parsed but unused (``-graph_type amr`` removes duplicates itself); the default
``-graph_type`` is None (no standardisation at all, case-sensitive).  We default
to ``generic`` (lower-casing, quote removal, var relabelling, ``-of`` inversion),
the setting its README recommends and the one closest to smatch's triples;
``amr`` additionally applies domain->mod, concept-as-root, dereification and
duplicate removal.  Graph files are read by ``data_helpers.read_graphstrings_from_file``
(split on blank lines, drops only ``# ::`` lines), as the CLI does.

Output: per pair ``{"index", "matched", "matched_b", "test_triples", "gold_triples",
"f1", "lower", "upper"}`` (``lower``/``upper`` = solver objective value / bound;
``{"index", "error"}`` if the pair raised), and one summary JSON line on stdout.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import random
import resource
import sys
import time
from typing import Any, Optional

# Never let this repo's own `smatchpp` (or anything else in it) shadow the peer packages.
_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _REPO]

import numpy as np
from smatchpp import align, data_helpers, eval_statistics, model_factory, preprocess, score, solvers
from smatchpp.bindings import Smatchpp
import smatchpp as _smatchpp_pkg

if "site-packages" not in os.path.abspath(_smatchpp_pkg.__file__):
    raise SystemExit("not the PyPI smatchpp: %s" % _smatchpp_pkg.__file__)


def build(solver: str, graph_type: Optional[str], compression: bool,
          max_seconds: Optional[int]) -> Smatchpp:
    """Assemble the same objects ``smatchpp.__main__`` does for ``-score_dimension main``."""
    reader = model_factory.GraphReaderFactory.get_reader("penman")
    standardizer = model_factory.StandardizerFactory.get_standardizer(graph_type)
    preparer = preprocess.BasicGraphPairPreparer(lossless_graph_compression=compression)
    matcher = score.IDTripleMatcher()
    if max_seconds is not None and solver in ("ilp", "lp"):
        alignsolver = (solvers.ILP if solver == "ilp" else solvers.LP)(max_seconds=max_seconds)
    else:
        alignsolver = solvers.get_solver(solver)
    printer = eval_statistics.ResultPrinter(score_type="micro", do_bootstrap=False, output_format="json")
    return Smatchpp(graph_reader=reader, graph_standardizer=standardizer, graph_pair_preparer=preparer,
                    triplematcher=matcher, alignmentsolver=alignsolver,
                    graph_aligner=align.GraphAligner(matcher, alignsolver),
                    graph_scorer=score.TripleScorer(triplematcher=matcher), printer=printer,
                    score_dimension="main")


def main(argv: Optional[list[str]] = None) -> int:
    """Score all pairs of two graph files; see module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="first file (smatchpp -a; 'candidate'/test)")
    ap.add_argument("b", help="second file (smatchpp -b; 'reference'/gold)")
    ap.add_argument("--out", required=True, help="per-pair JSONL output path")
    ap.add_argument("--solver", default="ilp", choices=["ilp", "ilp_backed", "lp", "hillclimber"])
    ap.add_argument("--graph-type", default="generic", choices=["generic", "amr", "none"])
    ap.add_argument("--lossless-graph-compression", action="store_true",
                    help="smatchpp's --lossless_graph_compression")
    ap.add_argument("--max-seconds", type=int, default=None, help="ILP/LP per-pair time limit (lib default 240)")
    ap.add_argument("--seed", type=int, default=None, help="seed random/np.random (hill-climber restarts)")
    ap.add_argument("--log-level", type=int, default=30)
    args = ap.parse_args(argv)

    logging.basicConfig(level=args.log_level, stream=sys.stderr)
    if args.seed is not None:  # the hill-climber shuffles with stdlib random
        random.seed(args.seed)
        np.random.seed(args.seed)
    graph_type = None if args.graph_type == "none" else args.graph_type
    measure = build(args.solver, graph_type, args.lossless_graph_compression, args.max_seconds)
    graphs_a = data_helpers.read_graphstrings_from_file(args.a)
    graphs_b = data_helpers.read_graphstrings_from_file(args.b)
    if len(graphs_a) != len(graphs_b):
        raise SystemExit("different number of graphs: %d vs %d" % (len(graphs_a), len(graphs_b)))

    stats: list[np.ndarray] = []
    n_err = n_nonopt = 0
    t0 = time.perf_counter()
    with open(args.out, "w", buffering=1) as out:
        for index, (ga, gb) in enumerate(zip(graphs_a, graphs_b)):
            try:
                match, status, _ = measure.process_pair(ga, gb)
                m = np.asarray(match["main"], dtype=float)  # [match_a, match_b, |A|, |B|]
                stats.append(m)
                n_nonopt += int(status[1] - status[0] > 1)  # the CLI's "not ensured optimal" criterion
                rec: dict[str, Any] = {"index": index, "matched": float(m[0]), "matched_b": float(m[1]),
                                       "test_triples": int(m[2]), "gold_triples": int(m[3]),
                                       "f1": float(eval_statistics.f1_score(m)),
                                       "lower": float(status[0]), "upper": float(status[1])}
            except MemoryError:
                raise
            except Exception as e:
                n_err += 1
                rec = {"index": index, "error": "%s: %s" % (type(e).__name__, e)}
            out.write(json.dumps(rec) + "\n")
    seconds = time.perf_counter() - t0
    total = np.sum(stats, axis=0) if stats else np.zeros(4)
    cli = measure.printer.get_final_result({"main": stats})["main"] if stats else None
    summary = {"tool": "smatchpp-1.8.0", "solver": args.solver, "graph_type": args.graph_type,
               "lossless_graph_compression": args.lossless_graph_compression,
               "pairs": len(graphs_a), "errors": n_err, "not_ensured_optimal": n_nonopt,
               "matched": float(total[0]), "test_triples": int(total[2]), "gold_triples": int(total[3]),
               "precision": float(eval_statistics.precision(total)), "recall": float(eval_statistics.recall(total)),
               "f1": float(eval_statistics.f1_score(total)),
               "cli_f1_percent": None if cli is None else float(cli["F1"]["result"]),
               "seconds": seconds, "seed": args.seed,
               "self_maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}
    print("scoring wall seconds: %.3f" % seconds, file=sys.stderr)
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except MemoryError:
        print("MemoryError", file=sys.stderr)
        sys.exit(3)

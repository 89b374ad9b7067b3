"""``smatchpp search QUERIES CORPUS --top K``: the K corpus graphs of highest exact F1 per query.

Pairs are solved in decreasing order of their label-count F1 bound, and a pair
whose bound cannot enter the top K is never solved; once there are K hits, a pair
whose star bound cannot enter is not solved either (:func:`smatchpp.matrix.top_k`).
Ties rank the lower corpus index first.  Each query's line says how many pairs
were ``solved``, kept out by the star bound (``bounded``) and by the label bound
(``pruned``).  Each line names its query and every hit by ``id`` (the graph's
``# ::id``, else its 0-based index) besides its ``index``, and carries the
run's ``signature``.
"""

from __future__ import annotations

import argparse
import sys
import time

from ..core.exceptions import UsageError
from ..matrix import search
from .app import collect, interrupted_message
from .common import (EXIT_INTERRUPTED, EXIT_OK, add_dask_option, add_scoring_options, check_outputs,
                     config_from_args, name_inputs, one_stdin, plural, workers_from_args)
from .matrix import read_graphs
from .metric import add_metric_options, metric_from_args, run_search as run_metric_search

__all__ = ["add_parser", "run", "uses_stdout"]


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("search", help="for each query graph, the K most similar corpus graphs "
                                      "by exact F1 (bounds prune the rest)")
    add_scoring_options(p)
    name_inputs(p, "query graphs", "corpus graphs to search")
    p.add_argument("--top", type=int, default=10, metavar="K", help="hits per query (default 10)")
    add_dask_option(p)
    p.add_argument("-o", "--output", "--out", dest="out", metavar="FILE.jsonl",
                   help="one JSON object per query (default: stdout); --out: its old spelling")
    add_metric_options(p)
    return p


def uses_stdout(args: argparse.Namespace) -> bool:
    """The hits go to stdout unless ``--out FILE`` (the summary goes to stderr)."""
    return not args.out or args.out == "-"


def run(args: argparse.Namespace) -> int:
    metric = metric_from_args(args)
    if metric is not None:
        return run_metric_search(args, metric)
    config = config_from_args(args)
    if args.top < 1:
        raise UsageError(f"--top must be at least 1, got {args.top}")
    check_outputs({"--output": args.out}, [args.test, args.gold])
    one_stdin(args.test, args.gold)
    queries, query_ids = read_graphs(args.test, args, config)
    corpus, corpus_ids = read_graphs(args.gold, args, config)
    signature = config.signature()
    began = time.perf_counter()
    workers = workers_from_args(args)

    def line(r) -> dict:
        return {"query": r.query, "id": query_ids[r.query], "solved": r.solved, "bounded": r.bounded,
                "pruned": r.pruned, "certified": r.certified,
                "hits": [{"index": h.index, "id": corpus_ids[h.index], "f1": h.f1, "matched": h.matched,
                          "upper": h.upper, "status": h.status} for h in r.hits],
                "signature": signature}

    # each query's line is written as soon as it and every query before it are done
    run = collect(args, lambda client: search(queries, corpus, args.top, config, workers, client), workers,
                  len(queries), line, progress=True, unit="query", to=args.out or "-")
    counts = {key: sum(getattr(r, key) for r in run.results) for key in ("solved", "bounded", "pruned", "certified")}
    seconds = time.perf_counter() - began
    solved, bounded, pruned = counts["solved"], counts["bounded"], counts["pruned"]
    print(f"{signature}\n{plural(len(queries), 'query', 'queries')} x {plural(len(corpus), 'graph')}: "
          f"{solved} pairs solved ({counts['certified']} certified), {bounded + pruned} pruned by bounds "
          f"({pruned} by label counts, {bounded} by the star bound); {seconds:.2f} s", file=sys.stderr)
    if run.interrupted:
        interrupted_message(run, written=False)
        return EXIT_INTERRUPTED
    return EXIT_OK


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
from ..running.runs import metric_graphs
from .app import by_engine, collect, interrupted_message, read_graph_files
from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, add_dask_option, add_scoring_options, check_outputs,
                     name_inputs, one_stdin, plural, warn_unreadable, workers_from_args)
from .matrix import read_graphs
from .metric import add_metric_options, run_from_args

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
    """One template for every metric: the inputs read, each query's hits found and written (a
    line a query, as it and every query before it are done), one summary on standard error.
    The reading and the search itself are the family's (:func:`_read`, :func:`_hits`): the
    alignment family standardizes the graphs once and prunes exact solves by bounds
    (:func:`smatchpp.matrix.search`), another metric computes each graph's features once and
    ranks by :meth:`Metric.top_k`."""
    metric, settings = run_from_args(args)
    if args.top < 1:
        raise UsageError(f"--top must be at least 1, got {args.top}")
    check_outputs({"--output": args.out}, [args.test, args.gold])
    one_stdin(args.test, args.gold)
    found = _read(metric, args, settings.on_error)
    if found is None:
        return EXIT_USAGE
    queries, corpus, ids, errors = found
    signature = settings.signature(metric)
    began = time.perf_counter()
    workers = workers_from_args(args)
    # each query's line is written as soon as it and every query before it are done
    run = collect(args, lambda client: _hits(metric, queries, corpus, args.top, workers, client), workers,
                  len(queries), lambda r: metric.search_line(r, ids, signature), progress=True, unit="query",
                  to=args.out or "-")
    print(f"{signature}\n{plural(len(queries), 'query', 'queries')} x {plural(len(corpus), 'graph')}"
          + metric.search_summary(run.results, time.perf_counter() - began), file=sys.stderr)
    warn_unreadable(errors, settings.on_error)
    if run.interrupted:
        interrupted_message(run, written=False)
        return EXIT_INTERRUPTED
    return EXIT_OK


def _read(metric, args: argparse.Namespace, on_error: str):
    """``(queries, corpus, (query ids, corpus ids), read errors to recall)``, the graphs as the
    metric compares them; ``None`` when unreadable graphs stop the run (printed)."""
    return by_engine(metric, _read_aligned, _read_features)(metric, args, on_error)


def _read_aligned(metric, args: argparse.Namespace, on_error: str):
    """The alignment family's graphs, standardized once (an unreadable graph is reported here)."""
    config = metric.run_config(on_error)
    queries, query_ids = read_graphs(args.test, args, config)
    corpus, corpus_ids = read_graphs(args.gold, args, config)
    return queries, corpus, (query_ids, corpus_ids), []


def _read_features(metric, args: argparse.Namespace, on_error: str):
    """Every other metric's features of each graph, computed once (the files read at once, as
    ``matrix --metric`` reads them: :func:`smatchpp.cli.app.read_graph_files`)."""
    read = read_graph_files(args, (args.test, args.gold), on_error, metric_graphs)
    if read is None:
        return None
    queries, corpus = read.graphs
    metric.prepare(queries + corpus)
    return [metric.features(g) for g in queries], [metric.features(g) for g in corpus], read.ids, read.errors


def _hits(metric, queries, corpus, top: int, workers: int, client):
    """Each query's result, in query order (:meth:`Metric.search_line` writes it)."""
    return by_engine(metric, _hits_aligned, _hits_ranked)(metric, queries, corpus, top, workers, client)


def _hits_aligned(metric, queries, corpus, top: int, workers: int, client):
    """The alignment family's exact solves, pruned by bounds (:func:`smatchpp.matrix.search`)."""
    yield from search(queries, corpus, top, metric.run_config(), workers, client)


def _hits_ranked(metric, queries, corpus, top: int, workers: int, client):
    """Every other metric's ranking by :meth:`Metric.top_k`."""
    for q, query in enumerate(queries):
        order, scores, _pruned = metric.top_k(query, corpus, top, prune=metric.prune_search)
        yield q, scores, order

"""``smatchpp matrix FILE [FILE2] -o OUT``: exact F1 of every pair of graphs.

Without FILE2 the matrix is of FILE against itself: only ``i < j`` is solved,
the lower triangle mirrors it (P and R swap) and the diagonal is self-match
(1, or 0 for an empty graph).  OUT is ``.npz`` (dense arrays: ``f1`` and, with
``--all``, ``precision``, ``recall``, ``matched``, ``upper``, ``certified``) or
``.parquet`` (one row per solved pair, streamed as chunks finish).  Pairs that a
limit left uncertified also go to ``OUT.intervals.jsonl``.

With ``--aspects damonte|smatchpp18|thesis`` (npz only) every aspect of the set gets
its arrays too, ``aspect:NAME:f1`` (and with ``--all`` the others): each graph's
subgraphs (labels, chosen node) are cut once, and each aspect is a matrix of its
own (each pair aligned on its own: ``--aspects-mode separate``); Damonte's
``smatch`` aspect is the main matrix.  Subgraph aspects are solved like the main
score; set aspects and graph statistics need no alignment and are counted in this
process.  A pair whose two subgraphs are empty scores 1 (vacuous agreement: the
smatchpp18 and thesis sets), or NaN (n/a: Damonte's set).

Every output names its graphs and settings: the ``.npz`` holds ``ids_a`` and
``ids_b`` (each graph's ``# ::id``, else its 0-based index) and ``signature``;
the Parquet rows carry ``id_i`` and ``id_j``, and its schema metadata the
``signature``; the intervals name ``id_i`` and ``id_j`` too (as ``--metric`` does).
"""

from __future__ import annotations

import argparse
from dataclasses import replace as dataclass_replace

from ..core.exceptions import UsageError
from ..reporting.matrix_files import AlignmentMatrix, aligned_graphs, graph_ids
from .app import fill_matrix, read_graph_files
from .common import add_dask_option, check_outputs, config_from_args, one_stdin, workers_from_args
from .metric import add_metric_options, metric_from_args, run_matrix

__all__ = ["add_parser", "run", "read_graphs", "graph_ids"]


def add_parser(sub) -> argparse.ArgumentParser:
    from .common import add_scoring_options, name_inputs

    p = sub.add_parser("matrix", help="F1 of every graph of FILE against every graph of FILE2 "
                                      "(or of FILE against itself)")
    add_scoring_options(p)
    name_inputs(p, "graphs (rows of the matrix)",
                "graphs of the columns (default: FILE against itself)", gold_optional=True)
    p.add_argument("-o", "--output", required=True, metavar="OUT.npz|OUT.parquet",
                   help="where to write the matrix")
    p.add_argument("--all", action="store_true",
                   help="also precision, recall, matched, upper and certified (npz)")
    add_dask_option(p)
    from .common import add_aspect_options

    add_aspect_options(p, "also compute one matrix per aspect of")
    p.add_argument("--chunk", type=int, default=None, metavar="PAIRS",
                   help="pairs per task sent to a worker (default: about a 16th of a worker's share, "
                        "256 to 8192); results do not depend on it")
    add_metric_options(p, ("A", "-o", "A.npz"))
    return p


def read_graphs(path: str, args: argparse.Namespace, config) -> tuple:
    """Every graph of ``path``, standardized once (unreadable ones: by ``--on-error``), and
    their ids; with ``--aspects`` each aspect's features too (``search``'s reading:
    :func:`smatchpp.cli.app.read_graph_files`, file by file)."""
    read = read_graph_files(args, (path,), config.on_error, lambda entries: aligned_graphs(entries, config),
                            at_once=False)
    (graphs, aspects), ids = read.graphs[0], read.ids[0]
    return (graphs, ids, aspects) if config.aspects != "none" else (graphs, ids)


def run(args: argparse.Namespace) -> int:
    """One road for every metric: the output's name and the inputs checked, then the metric's
    all-pairs engine (:func:`smatchpp.cli.app.all_pairs`: the alignment family's
    :func:`alignment_matrix`, the others' :func:`smatchpp.cli.metric.run_matrix`); a metric whose
    pairs a limit can leave uncertified (:meth:`Metric.certifies`) writes their intervals beside
    the matrix (``OUT.intervals.jsonl``)."""
    from .app import all_pairs

    metric = metric_from_args(args)
    out = args.output
    if not (out.endswith(".npz") or out.endswith(".parquet")):
        raise UsageError(f"--output {out}: the name must end in .npz or .parquet")
    intervals = out.rsplit(".", 1)[0] + ".intervals.jsonl" if metric.certifies() else None
    inputs = [args.test] + ([args.gold] if args.gold else [])
    one_stdin(args.test, args.gold)
    check_outputs({"--output": out, **({"intervals": intervals} if intervals else {})}, inputs)
    return all_pairs(args, metric, intervals, alignment_matrix, run_matrix)


def alignment_matrix(args: argparse.Namespace, metric, intervals: str) -> int:
    """The alignment family's matrix (:class:`smatchpp.reporting.matrix_files.AlignmentMatrix`:
    chunks of pairs on the backends, certificates, intervals, aspects, Parquet rows) through
    the template (:func:`~.app.read_graph_files`, :func:`~.app.fill_matrix`)."""
    config = config_from_args(args)
    if args.chunk is not None and args.chunk < 1:
        raise UsageError(f"--chunk must be at least 1, got {args.chunk}")
    workers = workers_from_args(args)
    solve_config = config
    if config.aspects != "none":
        if config.aspects != "separate":
            raise UsageError("matrix computes aspects with --aspects-mode separate only (each aspect a "
                             "matrix of its own; joint mode needs each pair's full alignment)")
        if not args.output.endswith(".npz"):
            raise UsageError("matrix --aspects writes .npz only")
        # the subgraphs are standardized already: each aspect is plain Smatch on them
        solve_config = dataclass_replace(config, aspects="none", aspect_set="damonte", propbank_frames=None,
                                         vectors=None)
    paths = [args.test] + ([args.gold] if args.gold else [])
    read = read_graph_files(args, paths, config.on_error, lambda entries: aligned_graphs(entries, config),
                            at_once=False)
    (rows, aspect_rows), (cols, aspect_cols) = read.graphs[0], read.graphs[-1]
    engine = AlignmentMatrix(rows, cols, read.square, read.ids[0], read.ids[-1], solve_config, config.signature(),
                             args.output, intervals, everything=args.all, chunk=args.chunk,
                             aspects={k: (aspect, a, aspect_cols[k][1]) for k, (aspect, a) in aspect_rows.items()},
                             progress=not args.quiet)
    return fill_matrix(args, read, engine, workers)

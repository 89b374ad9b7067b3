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
import json
import os
import sys
from dataclasses import replace as dataclass_replace

import numpy as np

from ..reporting import present
from ..core.exceptions import UsageError
from ..matrix import PairChunk, pair_chunks, score_pairs
from ..graphs.read import read_file
from ..presets import Options
from ..presets import standardize
from ..graphs.triples import EMPTY
from .common import (EXIT_INTERRUPTED, EXIT_OK, Interrupted, add_dask_option, check_outputs, dask_client,
                     config_from_args, interrupts, one_stdin, open_output, plural, warn, workers_from_args)
from .metric import add_metric_options, metric_from_args, run_matrix
from .common import report_unreadable

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


def graph_ids(entries) -> list[str]:
    """Each graph's name in the outputs: its ``# ::id``, else its 0-based index."""
    return [e.id if e.id is not None else str(e.index) for e in entries]


def read_graphs(path: str, args: argparse.Namespace, config) -> tuple[list, list[str]]:
    """Every graph of ``path``, standardized once (unreadable ones: by ``--on-error``), and
    their ids (:func:`graph_ids`)."""
    entries = read_file(path, args.input_format)
    if not entries:
        warn(f"{path} holds no graph: is it the right file? (no pair with its graphs is scored)")
    errors = [e.error for e in entries if e.error is not None]
    if report_unreadable(errors, config.on_error):
        raise UsageError(f"{plural(len(errors), 'unreadable graph')} in {path}")
    if errors:
        warn(f"{plural(len(errors), 'unreadable graph')} in {path} scored as empty graphs")
    options = Options.of(config)
    graphs = [standardize(e.graph, config.preset, options) if e.graph else EMPTY for e in entries]
    if config.aspects != "none":
        return graphs, graph_ids(entries), aspect_features(entries, config)
    return graphs, graph_ids(entries)


def aspect_features(entries, config) -> dict:
    """Each aspect of the run's set (but the run's own score, the main matrix): ``(aspect,
    [per graph])`` (:func:`smatchpp.aspects.features.set_features`)."""
    from ..aspects.features import set_features
    from ..aspects.registry import aspect_list

    aspects = aspect_list(config.aspect_set, None, config.propbank_frames, config.vectors)
    return set_features(aspects, [e.graph for e in entries],
                        lambda raw: standardize(raw, config.preset, Options.of(config)))


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
    """The alignment family's matrix (:func:`smatchpp.matrix.score_pairs`, chunks of pairs on the
    backends): certificates, intervals of the uncertified pairs, aspects, Parquet rows."""
    config = config_from_args(args)
    out = args.output
    if args.chunk is not None and args.chunk < 1:
        raise UsageError(f"--chunk must be at least 1, got {args.chunk}")
    workers = workers_from_args(args)
    aspect_rows: dict = {}
    aspect_cols: dict = {}
    solve_config = config
    if config.aspects != "none":
        if config.aspects != "separate":
            raise UsageError("matrix computes aspects with --aspects-mode separate only (each aspect a "
                             "matrix of its own; joint mode needs each pair's full alignment)")
        if not out.endswith(".npz"):
            raise UsageError("matrix --aspects writes .npz only")
        # the subgraphs are standardized already: each aspect is plain Smatch on them
        solve_config = dataclass_replace(config, aspects="none", aspect_set="damonte", propbank_frames=None,
                                         vectors=None)
        rows, ids_rows, aspect_rows = read_graphs(args.test, args, config)
        cols, ids_cols, aspect_cols = (read_graphs(args.gold, args, config) if args.gold
                                       else (rows, ids_rows, aspect_rows))
    else:
        rows, ids_rows = read_graphs(args.test, args, config)
        cols, ids_cols = read_graphs(args.gold, args, config) if args.gold else (rows, ids_rows)
    square = args.gold is None
    n, m = len(rows), len(cols)
    total = n * (n - 1) // 2 if square else n * m
    signature = config.signature()
    sink = (_Parquet(out, ids_rows, ids_cols, signature) if out.endswith(".parquet")
            else _Dense(out, rows, cols, square, ids_rows, ids_cols, everything=args.all))
    sinks = {name: _Dense(out, _sizes(aspect, aspect_rows[name][1]), _sizes(aspect, aspect_cols[name][1]),
                          square, ids_rows, ids_cols, everything=args.all,
                          vacuous=np.nan if aspect.vacuous is None else aspect.vacuous)
             for name, (aspect, _) in aspect_rows.items()}
    done = 0
    interrupted = False
    bar = _bar(total * (1 + len(sinks)), not args.quiet)
    with interrupts(), open_output(intervals) as uncertified, dask_client(args, workers) as client:
        try:
            chunk = args.chunk or default_chunk(total, client, workers)
            for name, target, a, b in [(None, sink, rows, cols)] + [
                    (k, sinks[k], aspect_rows[k][1], aspect_cols[k][1]) for k in sinks]:
                chunks = pair_chunks(n, None if square else m, chunk, _slots(client, workers))
                if name is not None and not aspect_rows[name][0].aligned:
                    stream = _unaligned(aspect_rows[name][0], a, b, chunks)  # no alignment: counted here
                else:
                    stream = score_pairs(a, b, chunks, solve_config, workers, client)
                for results in stream:
                    target.add(results)
                    for k in np.flatnonzero(~results.certified):
                        i, j = int(results.i[k]), int(results.j[k])
                        named = {"aspect": name} if name else {}
                        uncertified.write(json.dumps({**named, "i": i, "j": j, "id_i": ids_rows[i],
                                                      "id_j": ids_cols[j],
                                                      "lower": float(results.matched[k]),
                                                      "upper": float(results.upper[k]),
                                                      "status": str(results.status[k])}) + "\n")
                    if name is None:
                        done += len(results)
                    bar.update(len(results))
        except (KeyboardInterrupt, Interrupted):
            interrupted = True
    if os.path.isfile(intervals) and os.path.getsize(intervals) == 0:
        os.remove(intervals)  # every pair certified: no intervals file (not an empty one)
    bar.close()
    if sinks:
        sink.extra = {f"aspect:{k}:{field}": v for k, d in sinks.items()
                      for field, v in d.outputs(args.all).items()}
    sink.close(args.all, signature)
    certified = sink.certified
    cells = present.matrix_cells(n, m, square)
    print(f"{signature}\n{done} of {plural(total, 'pair')} scored ({cells}), {certified} certified optimal; "
          f"matrix written to {out}" + (f", {done - certified} intervals to {intervals}"
                                        if done > certified else ""), file=sys.stdout)
    if sinks:
        uncertain = sum(d.solved - d.certified for d in sinks.values())
        print(f"aspects: {len(sinks)} matrices, {sum(d.certified for d in sinks.values())} of "
              f"{plural(sum(d.solved for d in sinks.values()), 'aspect pair')} certified optimal"
              + (f", {uncertain} intervals to {intervals}" if uncertain else ""), file=sys.stdout)
    if interrupted:
        print(f"smatchpp: interrupted: {done} of {plural(total, 'pair')} finished", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK


def _sizes(aspect, features: list) -> list:
    """What the diagonal needs of each graph: its subgraph, or its number of items."""
    from ..aspects.features import diagonal

    return diagonal(aspect, features)


def _unaligned(aspect, features_a: list, features_b: list, chunks):
    """The :class:`PairChunk` of each chunk of an aspect counted without an alignment."""
    from ..aspects.features import count_rows

    for chunk in chunks:
        yield PairChunk.of_rows(count_rows(aspect, features_a, features_b, chunk.tolist()))


def default_chunk(total: int, client, workers: int = 1) -> int:
    """Pairs per task: about a 16th of each worker's share, 256 to 8192 (a sentence pair
    takes about 0.06 ms, so at most about half a second of work a chunk).

    Every chunk costs the client a round trip: a Dask task milliseconds to schedule and
    ship, a pool task about 0.6 ms of the client's CPU, which shares the cores with the
    workers. Measured on the first 500 Little Prince graphs, 2 Dask workers: chunks of
    256 pairs 10.4 s, of 1024 9.1 s, of 3898 (this default there) 8.0 s; 2 pool
    workers: 4.99, 4.84 and 4.81 s (the client's CPU 0.82 s with chunks of 256, 0.53 s
    with 4096)."""
    return int(min(max(total // (16 * _slots(client, workers)), 256), 8192))


def _slots(client, workers: int) -> int:
    """How many chunks run at once: the Dask cluster's threads, else the pool's workers."""
    return max(sum(client.nthreads().values()) if client is not None else workers, 1)


def _bar(total: int, enabled: bool):
    from ..api import progress_bar

    return progress_bar(total, enabled)


class _Dense:
    """The matrix in memory (it is the output); unsolved cells stay NaN."""

    def __init__(self, path: str, rows, cols, square: bool, ids_a=None, ids_b=None,
                 vacuous: float = 0.0, everything: bool = True) -> None:
        n, m = len(rows), len(cols)
        self.path = path
        #: the scores of a pair of two empty graphs (1.0: vacuous agreement, for aspects)
        self.vacuous = vacuous
        self.extra: dict = {}
        self.solved = 0
        self.ids_a = _ids(ids_a, n)
        self.ids_b = _ids(ids_b, m)
        # without --all only f1 is written: the other arrays are not kept (5x less memory)
        self.arrays = {k: np.full((n, m), np.nan) for k in
                       (("f1", "precision", "recall", "matched", "upper") if everything else ("f1",))}
        self.certified_mask = np.zeros((n, m), dtype=bool)
        self.square = square
        self.certified = 0
        if square:
            for i, g in enumerate(rows):
                t = g.n_triples
                one = 1.0 if t else vacuous
                for k, v in (("f1", one), ("precision", one), ("recall", one),
                             ("matched", t), ("upper", t)):
                    if k in self.arrays:
                        self.arrays[k][i, i] = v
                self.certified_mask[i, i] = True

    def add(self, results: PairChunk) -> None:
        if not len(results):
            return
        i, j, matched, upper = results.i, results.j, results.matched, results.upper
        test, gold = results.test.astype(np.float64), results.gold.astype(np.float64)
        ok = results.certified
        self.certified += int(ok.sum())
        self.solved += len(results)
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where((test > 0) & (gold > 0), matched / np.maximum(test, 1), 0.0)
            r = np.where((test > 0) & (gold > 0), matched / np.maximum(gold, 1), 0.0)
            f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1), 0.0)
            if self.vacuous:
                empty = (test == 0) & (gold == 0)
                p, r, f = (np.where(empty, self.vacuous, x) for x in (p, r, f))
        a = self.arrays
        for (x, y, pp, rr) in ((i, j, p, r), (j, i, r, p)) if self.square else ((i, j, p, r),):
            a["f1"][x, y] = f
            if "upper" in a:
                a["precision"][x, y] = pp
                a["recall"][x, y] = rr
                a["matched"][x, y] = matched
                a["upper"][x, y] = upper
            self.certified_mask[x, y] = ok

    def outputs(self, everything: bool) -> dict:
        return dict(self.arrays, certified=self.certified_mask) if everything else {"f1": self.arrays["f1"]}

    def close(self, everything: bool, signature: str) -> None:
        # the headline score is ``score`` in every matrix file (``matrix --metric`` too); ``f1``
        # is the same array under its old name
        _savez(self.path, dict(signature=np.array(signature), ids_a=np.array(self.ids_a, dtype=str),
                               ids_b=np.array(self.ids_b, dtype=str), score=self.arrays["f1"],
                               **self.outputs(everything), **self.extra))


def _ids(ids, n: int) -> list[str]:
    """The graphs' ids (:func:`graph_ids`), or their indices when none were given."""
    return list(ids) if ids is not None else [str(k) for k in range(n)]


def _savez(path: str, arrays: dict, level: int = 1) -> None:
    """``np.savez_compressed`` at deflate level ``level`` (numpy's is 6; ``np.load`` reads both).

    On 500 graphs the six ``--all`` arrays took 0.20 s at level 6 and 0.04 s at level 1
    (1.2 MB against 1.6 MB): time that no worker can share, 7% of a 2-worker run."""
    import zipfile

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=level) as z:
        for name, array in arrays.items():
            with z.open(name + ".npy", "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.asanyarray(array), allow_pickle=False)


class _Parquet:
    """Rows ``(i, j, id_i, id_j, matched, upper, test, gold, f1, status)`` streamed as chunks
    finish; the schema's metadata holds the ``signature``.

    Chunks are written in row groups of at least :attr:`ROW_GROUP` rows: the writer
    keeps every row group's metadata until it closes: with one group per chunk of 256
    pairs the client grew from 109 to 163 MB between 800 and 1,562 graphs.
    """

    ROW_GROUP = 1 << 16

    def __init__(self, path: str, ids_a=None, ids_b=None, signature: str = "") -> None:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise UsageError("Parquet output needs pyarrow: pip install 'smatchpp[matrix]', "
                             "or write .npz") from None
        self.path = path
        self.ids_a = None if ids_a is None else np.array(ids_a, dtype=object)
        self.ids_b = None if ids_b is None else np.array(ids_b, dtype=object)
        self.signature = signature
        self.writer = None
        self.certified = 0
        self.pending: list = []
        self.rows = 0

    def add(self, results: PairChunk) -> None:
        if not len(results):
            return
        self.pending.append(self._table(results))
        self.rows += len(results)
        self.certified += int(results.certified.sum())
        if self.rows >= self.ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self.pending:
            return
        table = pa.concat_tables(self.pending).replace_schema_metadata({"signature": self.signature})
        self.pending, self.rows = [], 0
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.path, table.schema)
        self.writer.write_table(table, row_group_size=max(len(table), 1))

    def _table(self, results: PairChunk):
        import pyarrow as pa

        def named(ids, index):
            return pa.array(index.astype(str) if ids is None else ids[index], type=pa.string())

        return pa.table({
            "i": results.i, "j": results.j,
            "id_i": named(self.ids_a, results.i), "id_j": named(self.ids_b, results.j),
            "matched": results.matched, "upper": results.upper,
            "test_triples": results.test, "gold_triples": results.gold,
            "f1": results.f1, "status": results.status})

    def close(self, everything: bool, signature: str) -> None:
        self.signature = signature
        if self.writer is None and not self.pending:  # no pair at all: still a file, with no rows
            self.pending.append(self._table(PairChunk.of([])))
        self._flush()
        if self.writer is not None:
            self.writer.close()

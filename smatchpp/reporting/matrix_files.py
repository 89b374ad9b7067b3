"""The files of ``matrix``, for every metric, and the two engines that fill them.

Every matrix file names its graphs and its settings: the ``.npz`` holds ``ids_a``
and ``ids_b`` (:func:`graph_ids`: each graph's ``# ::id``, else its 0-based index),
``signature`` and the headline score as ``score``; the Parquet rows carry ``id_i``
and ``id_j`` and the schema's metadata the ``signature``.  A pair not scored (an
interrupted run) is NaN.  One ``.npz`` writer (:func:`write_npz`) and one Parquet
writer (:class:`ParquetFile`) write both engines' files:

- :class:`AlignmentMatrix`, the alignment family's: chunks of pairs solved on the
  backends (:func:`smatchpp.matrix.score_pairs`), each chunk into the dense arrays
  (:class:`DenseMatrix`, ``--all``: precision, recall, matched, upper, certified; with
  ``--aspects`` a matrix an aspect) or streamed as Parquet rows (:func:`pair_table`),
  the uncertified pairs' intervals to ``OUT.intervals.jsonl`` (:class:`IntervalsFile`);
- :class:`MetricMatrix`, every other metric's: each pair's statistics
  (:func:`smatchpp.running.runs.metric_matrix`), then the metric's scores
  (:func:`metric_arrays`: the headline as ``score``, ``--all`` every score and statistic),
  written as ``.npz`` or as one Parquet row a cell (:func:`grid_table`).

Both keep the arrays they were given; the command's template (:mod:`smatchpp.cli.app`)
reads the inputs, runs an engine under the interrupt handlers, then asks it to write.

>>> import numpy as np, tempfile, os
>>> from smatchpp.graphs.read import read_text
>>> graph_ids(read_text("# ::id a1\\n(d / dog)\\n\\n(c / cat)"))
['a1', '1']
>>> path = os.path.join(tempfile.mkdtemp(), "m.npz")
>>> write_npz(path, {"signature": np.array("s"), "score": np.array([[1.0, np.nan]])})
>>> sorted(np.load(path).files)
['score', 'signature']
"""

from __future__ import annotations

import json
import os
import zipfile
from typing import TYPE_CHECKING, Any, Iterator, Sequence

import numpy as np

from ..core.exceptions import SmatchppError
from ..running.runs import metric_graphs, metric_matrix

if TYPE_CHECKING:  # the alignment family's engine, imported on use: another metric's matrix never loads it
    from ..matrix import PairChunk

__all__ = ["graph_ids", "aligned_graphs", "write_npz", "ParquetFile", "ParquetPairs", "pair_table", "grid_table", "DenseMatrix", "IntervalsFile",
           "metric_arrays", "AlignmentMatrix", "MetricMatrix", "default_chunk", "slots"]


def graph_ids(entries) -> list[str]:
    """Each graph's name in the outputs: its ``# ::id``, else its 0-based index."""
    return [e.id if e.id is not None else str(e.index) for e in entries]


def aligned_graphs(entries, config) -> tuple[list, dict]:
    """The alignment family's graphs of ``entries``, standardized once under ``config`` (an
    unreadable one: the empty graph), and with ``--aspects`` each aspect's features of them
    (:func:`smatchpp.aspects.features.aspect_features`; else ``{}``)."""
    from ..aspects.features import aspect_features
    from ..graphs.triples import EMPTY
    from ..presets import Options, standardize

    options = Options.of(config)
    graphs = [standardize(e.graph, config.preset, options) if e.graph else EMPTY for e in entries]
    if config.aspects != "none":
        return graphs, aspect_features([e.graph for e in entries], config)
    return graphs, {}


def _ids(ids, n: int) -> list[str]:
    """The graphs' ids (:func:`graph_ids`), or their indices when none were given."""
    return list(ids) if ids is not None else [str(k) for k in range(n)]


def write_npz(path: str, arrays: dict, level: int = 1) -> None:
    """``np.savez_compressed`` at deflate level ``level`` (``np.load`` reads every level).

    The alignment family's matrix is written at level 1: on 500 graphs the six ``--all``
    arrays took 0.20 s at numpy's level 6 and 0.04 s at level 1 (1.2 MB against 1.6 MB),
    time that no worker can share, 7% of a 2-worker run.  The other metrics' matrix keeps
    numpy's level, 6 (what ``np.savez_compressed`` writes: the same entries, the same bytes)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=level) as z:
        for name, array in arrays.items():
            with z.open(name + ".npy", "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.asanyarray(array), allow_pickle=False)


#: numpy's deflate level (``np.savez_compressed``), at which the other metrics' matrices are written
NUMPY_LEVEL = 6


class ParquetFile:
    """A matrix as Parquet: tables of rows added in order, the ``signature`` in the schema's
    metadata.

    ``grouped`` (the alignment family's rows, streamed as chunks finish): written in row
    groups of at least :attr:`ROW_GROUP` rows: the writer keeps every row group's metadata
    until it closes: with one group per chunk of 256 pairs the client grew from 109 to 163 MB
    between 800 and 1,562 graphs.  Else (a whole grid at once) in pyarrow's default row groups,
    as ``pyarrow.parquet.write_table`` writes them.
    """

    ROW_GROUP = 1 << 16

    def __init__(self, path: str, signature: str = "", grouped: bool = True) -> None:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise SmatchppError("Parquet output needs pyarrow: pip install 'smatchpp[matrix]', "
                                "or write .npz") from None
        self.path = path
        self.signature = signature
        self.grouped = grouped
        self.writer = None
        self.pending: list = []
        self.rows = 0

    def add(self, table) -> None:
        """Add a table of rows (written once :attr:`ROW_GROUP` rows wait, or at :meth:`close`)."""
        self.pending.append(table)
        self.rows += len(table)
        if self.grouped and self.rows >= self.ROW_GROUP:
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
        self.writer.write_table(table, row_group_size=max(len(table), 1) if self.grouped else None)

    def close(self, empty=None) -> None:
        """Write the rest; ``empty``: the table written when no row was (still a file, with the schema)."""
        if self.writer is None and not self.pending and empty is not None:
            self.pending.append(empty)
        self._flush()
        if self.writer is not None:
            self.writer.close()


def pair_table(results: PairChunk, ids_a=None, ids_b=None):
    """The Parquet rows ``(i, j, id_i, id_j, matched, upper, test_triples, gold_triples, f1,
    status)`` of a chunk of the alignment family's pairs (``ids_a``, ``ids_b``: object arrays
    of the graphs' ids; ``None``: the indices)."""
    import pyarrow as pa

    def named(ids, index):
        return pa.array(index.astype(str) if ids is None else ids[index], type=pa.string())

    return pa.table({
        "i": results.i, "j": results.j,
        "id_i": named(ids_a, results.i), "id_j": named(ids_b, results.j),
        "matched": results.matched, "upper": results.upper,
        "test_triples": results.test, "gold_triples": results.gold,
        "f1": results.f1, "status": results.status})


def grid_table(arrays: dict):
    """One Parquet row a cell ``(i, j, id_i, id_j, then each array's value)`` of a matrix file's
    ``arrays`` (``ids_a``, ``ids_b`` and ``n x m`` arrays; the ``signature`` is not a column)."""
    import pyarrow as pa

    grid = [a for k, a in arrays.items() if k not in ("signature", "ids_a", "ids_b")]
    n, m = grid[0].shape
    i, j = np.divmod(np.arange(n * m), m)
    columns = {"i": i, "j": j, "id_i": arrays["ids_a"][i], "id_j": arrays["ids_b"][j]}
    columns.update((k, a.ravel()) for k, a in arrays.items() if k not in ("signature", "ids_a", "ids_b"))
    return pa.table(columns)


class DenseMatrix:
    """The alignment family's matrix in memory (it is the output); unsolved cells stay NaN.

    ``square`` (a file against itself): only ``i < j`` is added, the lower triangle mirrors
    it (P and R swap) and the diagonal is self-match (1, or ``vacuous`` for an empty graph)."""

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
        write_npz(self.path, dict(signature=np.array(signature), ids_a=np.array(self.ids_a, dtype=str),
                                  ids_b=np.array(self.ids_b, dtype=str), score=self.arrays["f1"],
                                  **self.outputs(everything), **self.extra))


class ParquetPairs:
    """The alignment family's pairs as Parquet rows, streamed as chunks finish (:func:`pair_table`)."""

    def __init__(self, path: str, ids_a=None, ids_b=None, signature: str = "") -> None:
        self.file = ParquetFile(path, signature)
        self.ids_a = None if ids_a is None else np.array(ids_a, dtype=object)
        self.ids_b = None if ids_b is None else np.array(ids_b, dtype=object)
        self.certified = 0

    def add(self, results: PairChunk) -> None:
        if not len(results):
            return
        self.file.add(pair_table(results, self.ids_a, self.ids_b))
        self.certified += int(results.certified.sum())

    def close(self, everything: bool, signature: str) -> None:
        from ..matrix import PairChunk

        self.file.signature = signature
        # no pair at all: still a file, with no rows
        self.file.close(empty=pair_table(PairChunk.of([]), self.ids_a, self.ids_b))


class IntervalsFile:
    """``OUT.intervals.jsonl``: a line ``{"aspect"?, i, j, id_i, id_j, lower, upper, status}`` for
    each pair a limit left uncertified; removed at the end when every pair was certified (no
    intervals file rather than an empty one).  A context manager."""

    def __init__(self, path: str, ids_a: Sequence[str], ids_b: Sequence[str]) -> None:
        self.path = path
        self.ids_a, self.ids_b = ids_a, ids_b
        self.handle = None

    def __enter__(self) -> "IntervalsFile":
        try:
            self.handle = open(self.path, "w", encoding="utf-8")
        except OSError as exc:
            raise OSError(exc.errno, f"cannot write {self.path}: {exc.strerror}") from None
        return self

    def __exit__(self, *exc) -> None:
        self.handle.close()
        if os.path.isfile(self.path) and os.path.getsize(self.path) == 0:
            os.remove(self.path)  # every pair certified: no intervals file (not an empty one)

    def add(self, results: PairChunk, aspect: str | None = None) -> None:
        for k in np.flatnonzero(~results.certified):
            i, j = int(results.i[k]), int(results.j[k])
            named = {"aspect": aspect} if aspect else {}
            self.handle.write(json.dumps({**named, "i": i, "j": j, "id_i": self.ids_a[i], "id_j": self.ids_b[j],
                                          "lower": float(results.matched[k]), "upper": float(results.upper[k]),
                                          "status": str(results.status[k])}) + "\n")


def default_chunk(total: int, client, workers: int = 1) -> int:
    """Pairs per task: about a 16th of each worker's share, 256 to 8192 (a sentence pair
    takes about 0.06 ms, so at most about half a second of work a chunk).

    Every chunk costs the client a round trip: a Dask task milliseconds to schedule and
    ship, a pool task about 0.6 ms of the client's CPU, which shares the cores with the
    workers. Measured on the first 500 Little Prince graphs, 2 Dask workers: chunks of
    256 pairs 10.4 s, of 1024 9.1 s, of 3898 (this default there) 8.0 s; 2 pool
    workers: 4.99, 4.84 and 4.81 s (the client's CPU 0.82 s with chunks of 256, 0.53 s
    with 4096)."""
    return int(min(max(total // (16 * slots(client, workers)), 256), 8192))


def slots(client, workers: int) -> int:
    """How many chunks run at once: the Dask cluster's threads, else the pool's workers."""
    return max(sum(client.nthreads().values()) if client is not None else workers, 1)


def _unaligned(aspect, features_a: list, features_b: list, chunks) -> Iterator[PairChunk]:
    """The :class:`PairChunk` of each chunk of an aspect counted without an alignment."""
    from ..aspects.features import count_rows
    from ..matrix import PairChunk

    for chunk in chunks:
        yield PairChunk.of_rows(count_rows(aspect, features_a, features_b, chunk.tolist()))


class AlignmentMatrix:
    """The alignment family's all-pairs engine: ``rows`` against ``cols`` (standardized graphs;
    ``square``: a file against itself, ``i < j`` solved) under ``config``, in chunks of
    ``chunk`` pairs (``None``: :func:`default_chunk`) into ``out`` (``.npz``:
    :class:`DenseMatrix`, ``.parquet``: :class:`ParquetPairs`); the uncertified pairs'
    intervals to ``intervals`` (:class:`IntervalsFile`).  ``aspects``: ``name -> (aspect, rows' features, cols'
    features)`` (:func:`smatchpp.aspects.features.aspect_features`), a matrix each, written
    into the ``.npz`` as ``aspect:NAME:FIELD``.

    Enter it (the intervals file opens), :meth:`run` (interruptible: what finished stays),
    leave it, then :meth:`write`."""

    #: said of the unscored pairs after an interrupt (nothing: the summary counts them)
    rest = ""

    def __init__(self, rows, cols, square: bool, ids_rows, ids_cols, config, signature: str, out: str,
                 intervals: str, everything: bool = False, chunk: int | None = None,
                 aspects: dict | None = None, progress: bool = False) -> None:
        from ..api import progress_bar
        from ..aspects.features import diagonal  # what the diagonal needs of each graph

        self.rows, self.cols, self.square = rows, cols, square
        self.config, self.signature, self.out, self.intervals = config, signature, out, intervals
        self.everything, self.chunk = everything, chunk
        self.aspects = aspects or {}
        self.n, self.m = len(rows), len(cols)
        self.total = self.n * (self.n - 1) // 2 if square else self.n * self.m
        self.sink = (ParquetPairs(out, ids_rows, ids_cols, signature) if out.endswith(".parquet")
                     else DenseMatrix(out, rows, cols, square, ids_rows, ids_cols, everything=everything))
        self.sinks = {name: DenseMatrix(out, diagonal(aspect, a), diagonal(aspect, b), square, ids_rows, ids_cols,
                                        everything=everything, vacuous=np.nan if aspect.vacuous is None else aspect.vacuous)
                      for name, (aspect, a, b) in self.aspects.items()}
        self.uncertified = IntervalsFile(intervals, ids_rows, ids_cols)
        self.done = 0
        self.bar = progress_bar(self.total * (1 + len(self.sinks)), progress)

    def __enter__(self) -> "AlignmentMatrix":
        self.uncertified.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.uncertified.__exit__(*exc)

    def run(self, workers: int = 1, client: Any = None) -> None:
        """Every pair of the main matrix, then of each aspect's, as chunks finish, on ``workers``
        processes or the Dask ``client``."""
        from ..matrix import pair_chunks, score_pairs

        chunk = self.chunk or default_chunk(self.total, client, workers)
        targets = [(None, self.sink, None, self.rows, self.cols)] + [
            (name, self.sinks[name], aspect, a, b) for name, (aspect, a, b) in self.aspects.items()]
        for name, target, aspect, a, b in targets:
            chunks = pair_chunks(self.n, None if self.square else self.m, chunk, slots(client, workers))
            if aspect is not None and not aspect.aligned:
                stream = _unaligned(aspect, a, b, chunks)  # no alignment: counted here
            else:
                stream = score_pairs(a, b, chunks, self.config, workers, client)
            for results in stream:
                target.add(results)
                self.uncertified.add(results, name)
                if name is None:
                    self.done += len(results)
                self.bar.update(len(results))

    @property
    def certified(self) -> int:
        return self.sink.certified

    def write(self) -> None:
        """The matrix file (and the aspects' arrays in it)."""
        self.bar.close()
        if self.sinks:
            self.sink.extra = {f"aspect:{k}:{field}": v for k, d in self.sinks.items()
                               for field, v in d.outputs(self.everything).items()}
        self.sink.close(self.everything, self.signature)

    def aspect_counts(self) -> tuple[int, int, int] | None:
        """``(matrices, pairs solved, pairs certified)`` of the aspects; ``None`` without them."""
        if not self.sinks:
            return None
        return (len(self.sinks), sum(d.solved for d in self.sinks.values()),
                sum(d.certified for d in self.sinks.values()))


def metric_arrays(metric, stats: np.ndarray, ids_a: Sequence[str], ids_b: Sequence[str], signature: str,
                  everything: bool = False) -> dict:
    """A metric's matrix file's arrays from its statistics ``stats`` (``n x m x k``, NaN where not
    scored): ``signature``, ``ids_a``, ``ids_b``, the headline score under its name and as
    ``score``, the counter metric's aspects, and with ``everything`` (``--all``) every score and
    statistic; a pair not scored is NaN in each."""
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = {k: np.array(v, dtype=float) for k, v in metric.scores(stats).items()}
    unscored = ~np.isfinite(stats).all(axis=-1)
    for values in scores.values():
        values[unscored] = np.nan
    arrays = {"signature": np.array(signature), "ids_a": np.array(ids_a, dtype=str),
              "ids_b": np.array(ids_b, dtype=str), metric.headline: scores[metric.headline]}
    # the headline score is ``score`` in every matrix file; a metric whose headline is another key
    # (``f1``) keeps that name too, for the scripts that read it
    arrays["score"] = scores[metric.headline]
    aspect_arrays = getattr(metric, "aspect_arrays", None)  # the counter metric's --aspects counter
    if aspect_arrays is not None:
        for name, values in aspect_arrays(stats, everything).items():
            values[unscored] = np.nan
            arrays[name] = values
    if everything:
        arrays.update((k, v) for k, v in scores.items() if k != metric.headline)
        arrays.update((name, stats[..., k]) for k, name in enumerate(metric.stat_names))
    return arrays


class MetricMatrix:
    """Every other metric's all-pairs engine: each graph's features once, then every pair's
    statistics (:func:`smatchpp.running.runs.metric_matrix`, on ``workers`` processes or a
    Dask client), NaN until scored: interrupted, the finished pairs are written and the rest
    stay NaN.  ``rows``, ``cols``: the graphs' entries (``cols`` ``None``: the rows against
    themselves).  Enter it, :meth:`run`, leave it, then :meth:`write`."""

    #: said of the unscored pairs after an interrupt
    rest = " (the rest NaN)"
    #: no certificates, no intervals: every pair's statistics are exact
    certified = None
    intervals = None

    def __init__(self, metric, rows, cols, signature: str, out: str, ids_rows, ids_cols,
                 everything: bool = False) -> None:
        self.metric, self.signature, self.out, self.everything = metric, signature, out, everything
        self.ids_rows, self.ids_cols = ids_rows, ids_cols
        graphs_a = metric_graphs(rows)
        graphs_b = metric_graphs(cols) if cols is not None else graphs_a
        metric.prepare(graphs_a + (graphs_b if cols is not None else []))
        self.fa = [metric.features(g) for g in graphs_a]
        self.fb = [metric.features(g) for g in graphs_b] if cols is not None else self.fa
        self.n, self.m = len(self.fa), len(self.fb)
        self.square = False  # every cell is scored
        self.total = self.n * self.m
        self.stats = np.full((self.n, self.m, len(metric.stat_names)), np.nan)
        self.interrupted = True  # until run returns

    def __enter__(self) -> "MetricMatrix":
        return self

    def __exit__(self, *exc) -> None:
        pass

    def run(self, workers: int = 1, client: Any = None) -> None:
        """Every pair's statistics, row blocks as they finish."""
        metric_matrix(self.metric, self.fa, self.fb, workers, client, out=self.stats)
        self.interrupted = False

    @property
    def done(self) -> int:
        """The pairs scored (every one, unless interrupted)."""
        return self.total if not self.interrupted else int(np.isfinite(self.stats).all(axis=-1).sum())

    def aspect_counts(self) -> None:
        return None  # the counter metric's aspects are arrays of the one matrix (metric_arrays)

    def write(self) -> None:
        """The matrix file (``.npz`` at numpy's level, or a Parquet row a cell)."""
        arrays = metric_arrays(self.metric, self.stats, self.ids_rows, self.ids_cols, self.signature,
                               self.everything)
        if self.out.endswith(".npz"):
            write_npz(self.out, arrays, NUMPY_LEVEL)
        else:
            parquet = ParquetFile(self.out, self.signature, grouped=False)
            parquet.add(grid_table(arrays))
            parquet.close()

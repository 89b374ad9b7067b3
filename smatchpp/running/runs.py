"""A metric over paired inputs, on every backend: this process, a pool of workers, or Dask.

:func:`metric_pairs` scores the ``k``-th graph of one list against the ``k``-th
of the other under any registered :class:`~smatchpp.metrics.Metric`, through
:func:`smatchpp.running.executor.stream`, the road Smatch's pairs take too: results come
in index order, each as soon as it and every pair before it are done, and do not
depend on the backend or the number of workers.  The graphs go to the workers
once (a forked pool inherits them; Dask scatters them); a task is a pair's index,
and a result a :class:`~smatchpp.metrics.MetricPair` (with the metric's
explanation when asked), so nothing large crosses a process boundary per pair.
:class:`FileRun` goes further for ``score --metric`` on files: the workers read the files
too, a part each, so that the reading, half the work of a cheap metric, runs in parallel.

>>> from smatchpp.metrics import get_metric
>>> from smatchpp.graphs.read import read_text
>>> a = read_text("(d / dog :ARG0-of (b / bark-01))\\n\\n(c / cat)")
>>> b = read_text("(d / dog)\\n\\n(c / cat)")
>>> one = [p for p, _ in metric_pairs(get_metric("jaccard"), a, b)]
>>> two = [p for p, _ in metric_pairs(get_metric("jaccard"), a, b, workers=2)]
>>> one == two, [p.stats for p in one]
(True, [(1.0, 3.0), (1.0, 1.0)])
"""

from __future__ import annotations

from typing import Any, Iterator, Sequence

import numpy as np

from ..core.bulk import no_cycle_collection
from .executor import DaskTeam, Team, Work, stream
from ..metrics import Metric, MetricPair
from ..graphs.pairing import IdCheck
from ..graphs.read import Entry, RawGraph, graph_offsets, read_bytes

__all__ = ["metric_pairs", "metric_rows", "metric_matrix", "metric_graphs", "auto_workers", "PAIRS_PER_WORKER",
           "EMPTY_GRAPH", "FileRun", "PART_PAIRS"]

#: the graph an unreadable entry is scored as (``--on-error empty``)
EMPTY_GRAPH = RawGraph(top=None, triples=(), variables=())
#: pairs a worker should have before another is worth its start: the metrics without an
#: alignment take 2-100 microseconds a pair, a pool's start about 0.1 s
PAIRS_PER_WORKER = 5000


def auto_workers(pairs: int, cores: int) -> int:
    """Workers for ``pairs`` pairs of a metric when ``--workers`` is not given: one per
    :data:`PAIRS_PER_WORKER` pairs, at least one, at most ``cores``.

    >>> auto_workers(10, 8), auto_workers(12000, 8), auto_workers(10 ** 6, 2)
    (1, 2, 2)
    """
    return max(1, min(cores, pairs // PAIRS_PER_WORKER))


def metric_graphs(entries: Sequence[Entry]) -> list[RawGraph]:
    """The graphs of ``entries``, an unreadable one as the empty graph."""
    return [e.graph if e.graph is not None else EMPTY_GRAPH for e in entries]


def metric_pairs(metric: Metric, entries_a: Sequence[Entry], entries_b: Sequence[Entry],
                 on_error: str = "raise", workers: int = 1, client: Any = None,
                 chunk: int | None = None, explain: bool = False,
                 prepared: bool = False) -> Iterator[tuple[MetricPair, dict | None]]:
    """Each pair's :class:`MetricPair` and explanation (``None`` unless ``explain`` and the
    metric has one), in index order.

    A pair with an unreadable graph is skipped (``stats`` ``None``) under ``on_error``
    ``skip``, else scored with the empty graph in its place, and carries its error
    text.  ``metric.prepare`` sees every graph first, unless ``prepared``.  ``chunk``:
    pairs a worker gets at a time (default: eight batches a worker, 1 to 256).
    """
    return metric_rows(metric, [entries_a], entries_b, on_error, workers, client, chunk, explain, prepared)


def metric_rows(metric: "Metric | Sequence[Metric]", systems: Sequence[Sequence[Entry]], gold: Sequence[Entry],
                on_error: str = "raise", workers: int = 1, client: Any = None,
                chunk: int | None = None, explain: bool = False,
                prepared: bool = False) -> Iterator:
    """Row ``k``: every system's ``(pair, explanation)`` of its ``k``-th graph against the
    ``k``-th gold graph (``compare``: several systems, one gold; the gold graph's features
    are computed once a row for each metric); see :func:`metric_pairs`.  ``metric``: one
    metric, or one for each system (``gap``: the exact and the heuristic solver of one
    metric on the same files).  With one system, the rows are its ``(pair, explanation)``
    themselves (:func:`metric_pairs`)."""
    graphs = [metric_graphs(entries) for entries in systems]
    gold_graphs = metric_graphs(gold)
    if isinstance(metric, Metric):
        metric = [metric] * len(systems)
    elif len(metric) != len(systems):
        raise ValueError(f"{len(metric)} metrics for {len(systems)} systems")
    if not prepared:
        for m in {id(m): m for m in metric}.values():
            m.prepare([g for got in graphs for g in got] + gold_graphs)
    ids = [[ea.id if ea.id is not None else eb.id for ea, eb in zip(entries, gold)] for entries in systems]
    errors = [[_error(ea, eb) for ea, eb in zip(entries, gold)] for entries in systems]
    n = len(gold_graphs)
    if chunk is None:
        slots = workers if client is None else sum(client.nthreads().values())
        chunk = max(1, min(256, n // (max(slots, 1) * 8)))
    # one system (score): its pairs themselves, not rows of one
    work = Work(run=_score_row if len(systems) > 1 else _score_one, setup=_State,
                args=(metric[0] if all(m is metric[0] for m in metric) else tuple(metric),
                      graphs, gold_graphs, ids, errors, on_error == "skip", explain))
    return stream(work, range(n), workers, chunk, client)


def _error(ea: Entry, eb: Entry) -> str | None:
    bad = ea.error or eb.error
    return str(bad) if bad is not None else None


class _State:
    """A worker's run: the metric, the systems' graphs and the gold graphs (made once per worker)."""

    def __init__(self, metric: Metric, graphs: list, gold: list, ids: list, errors: list,
                 skip: bool, explain: bool) -> None:
        self.metric, self.graphs, self.gold = metric, graphs, gold
        self.ids, self.errors, self.skip, self.explain = ids, errors, skip, explain


def pair_stats(metric: Metric, fa: Any, fb: Any, explain: bool) -> tuple[tuple[float, ...], dict | None]:
    """A pair's statistics as floats, and its explanation when ``explain`` (from the same
    computation: :meth:`~smatchpp.metrics.base.Metric.stats_explained`), else ``None``."""
    stats, why = metric.stats_explained(fa, fb) if explain else (metric.stats(fa, fb), None)
    return tuple([float(x) for x in stats]), why


def _score_one(state: _State, k: int) -> tuple[MetricPair, dict | None]:
    """Pair ``k`` of the only system: its statistics (and explanation)."""
    error = state.errors[0][k]
    if error is not None and state.skip:
        return MetricPair(k, state.ids[0][k], None, error), None
    metric = state.metric
    fa, fb = metric.features(state.graphs[0][k]), metric.features(state.gold[k])
    stats, why = pair_stats(metric, fa, fb, state.explain)
    return MetricPair(k, state.ids[0][k], stats, error), why


def _score_row(state: _State, k: int) -> tuple[tuple[MetricPair, dict | None], ...]:
    """Row ``k``: every system's statistics (and explanation) of pair ``k``."""
    golds: dict[int, Any] = {}  # the gold graph's features, once for each metric
    row = []
    for j, graphs in enumerate(state.graphs):
        error = state.errors[j][k]
        if error is not None and state.skip:
            row.append((MetricPair(k, state.ids[j][k], None, error), None))
            continue
        metric = state.metric[j] if isinstance(state.metric, tuple) else state.metric
        fa = metric.features(graphs[k])
        if id(metric) not in golds:
            golds[id(metric)] = metric.features(state.gold[k])
        gold = golds[id(metric)]
        stats, why = pair_stats(metric, fa, gold, state.explain)
        row.append((MetricPair(k, state.ids[j][k], stats, error), why))
    return tuple(row)


#: pairs a worker reads and scores at a time in a :class:`FileRun` (the parts of the files), at most
PART_PAIRS = 2500


class FileRun:
    """A metric over files whose graphs the workers read themselves, a part each: the first
    against the last (``score``), or each system against the last, the gold (``compare``:
    rows, as :func:`metric_rows` gives).

    :func:`metric_pairs` needs the graphs read: the parent reads both files, and the
    workers score.  Reading is half the work of a metric without an alignment, and a
    parsed graph costs as much to send to a process as to parse, so with several workers
    this run splits the reading too, in three steps on a :class:`~smatchpp.running.executor.Team`:

    1. the workers scan windows of the files' bytes for the blocks' offsets
       (:func:`~smatchpp.graphs.read.graph_offsets`); the parent cuts the pairs into parts of at
       most :data:`PART_PAIRS` pairs, the same graphs of each file;
    2. each worker reads its parts (part ``p`` is worker ``p mod workers``'s) with the
       reader, as the whole file would be read (the lines and the graphs' indices are the
       file's), keeps the graphs, and sends back what the parent must know before any pair
       is scored: each part's graph counts, read errors and id checks
       (:class:`~smatchpp.graphs.pairing.IdCheck`, each system against the gold);
    3. each worker scores its parts, in order, and sends back each pair's statistics.

    :meth:`read` runs steps 1 and 2 (a worker goes on to step 3 without waiting); it returns
    ``False`` when the scan and the reader disagree on a part's graphs, or the files' graph
    counts differ: the caller then reads the files itself, as with one worker, which says
    what is wrong.  After it, :attr:`errors` (every read error, file by file, as reading
    the files gives them), :meth:`warnings`, :attr:`checks` and :attr:`total` are known, and :meth:`results`
    gives each pair's ``(MetricPair, explanation)`` in index order, as :func:`metric_pairs`
    does, with the same numbers.  A metric that prepares on every graph (``prepare``) cannot
    run in parts (:meth:`possible`).  Leaving the ``with`` block ends the workers.  With a
    Dask ``client``, the cluster's workers are the team (:class:`~.executor.DaskTeam`: the
    files' bytes are scattered to them once), and ``workers`` is ignored.

    >>> from smatchpp.metrics import get_metric
    >>> a = b"(a / dog)\\n\\n(b / cat :mod (c / big))\\n\\n(d / dog :ARG0 (e / bark-01))\\n"
    >>> b = b"(a / dog)\\n\\n(b / cat)\\n\\n(d / dog :ARG0 (e / bark-01))\\n"
    >>> m = get_metric("jaccard")
    >>> with FileRun(m, [(a, "a.amr", "penman"), (b, "b.amr", "penman")], "raise", workers=2, part=1) as run:
    ...     run.read(), run.total, run.errors
    ...     got = [p for p, _ in run.results()]
    (True, 3, [])
    >>> got == [p for p, _ in metric_pairs(m, read_bytes(a, "a.amr"), read_bytes(b, "b.amr"))]
    True
    """

    def __init__(self, metric: Metric, sources: Sequence[tuple[bytes, str, str]], on_error: str, workers: int,
                 explain: bool = False, part: int | None = None, client: Any = None) -> None:
        self.sources = list(sources)
        self.part = part or PART_PAIRS
        args = (metric, [d for d, _, _ in sources], [p for _, p, _ in sources], [f for _, _, f in sources],
                on_error == "skip", explain)
        self.team: Team | DaskTeam = (Team(workers, _part_task, _Parts, args) if client is None
                                      else DaskTeam(client, _part_task, _Parts, args))
        self.total = 0
        self.errors: list = []
        #: each system's id check against the gold (the last source)
        self.checks = [IdCheck() for _ in self.sources[:-1]]
        self._parts: list[tuple[int, int]] = []
        self._early: dict = {}

    @staticmethod
    def possible(metric: Metric) -> bool:
        """Whether ``metric`` can score in parts: it does not prepare on every graph of the run."""
        return type(metric).prepare is Metric.prepare

    def read(self) -> bool:
        """Steps 1 and 2 (see the class); ``False``: the caller must read the files itself."""
        team, workers = self.team, self.team.size
        datas = [d for d, _, _ in self.sources]
        # 1. the offsets of the graphs, a window of each file per worker
        for f, data in enumerate(datas):
            cuts = [len(data) * w // workers for w in range(workers + 1)]
            for w in range(workers):
                team.send(w, ("scan", f, cuts[w], cuts[w + 1]), ("scan", f, w))
        found = self._wait({("scan", f, w) for f in range(len(datas)) for w in range(workers)})
        offsets = []
        for f in range(len(datas)):
            windows = [found[("scan", f, w)] for w in range(workers)]
            if any(x is None for x in windows):
                return False
            offsets.append([k for x in windows for k in x])
        total = len(offsets[-1])
        if any(len(x) != total for x in offsets) or total == 0:
            return False
        # 2. the parts, read by their workers; each part's line and graph index start where the
        # file's do
        parts = max(workers, -(-total // self.part))
        bounds = [total * p // parts for p in range(parts + 1)]
        self._parts = list(zip(bounds, bounds[1:]))
        spans: list[list] = [[] for _ in self._parts]
        for f, data in enumerate(datas):
            line, at = 1, 0
            for p, (lo, hi) in enumerate(self._parts):
                start = offsets[f][lo] if lo > 0 else 0
                stop = offsets[f][hi] if hi < total else len(data)
                line += data.count(b"\n", at, start)
                at = start
                spans[p].append((start, stop, line, lo))
        for p, span in enumerate(spans):
            team.send(p % workers, ("read", p, span), ("read", p))
        for p in range(len(spans)):  # a worker scores its parts as soon as it has read them
            team.send(p % workers, ("score", p), ("score", p))
        infos = self._wait({("read", p) for p in range(len(spans))})
        errors: list[list] = [[] for _ in datas]
        for p, (lo, hi) in enumerate(self._parts):
            counts, part_errors, checks = infos[("read", p)]
            if any(c != hi - lo for c in counts):
                return False
            for f, got in enumerate(part_errors):
                errors[f] += got
            self.checks = [mine + theirs for mine, theirs in zip(self.checks, checks)]
        self.total = total
        self.errors = [e for got in errors for e in got]
        return True

    @property
    def ids(self) -> IdCheck:
        """The first system's id check against the gold (of two files: the only one)."""
        return self.checks[0]

    def warnings(self) -> list[str]:
        """The id warnings of every system against the gold, each once, as reading the files
        and checking each system's pairing with the gold gives them."""
        out: list[str] = []
        for check in self.checks:
            out += [m for m in check.warnings() if m not in out]
        return out

    def _wait(self, tags: set) -> dict:
        """The results of ``tags``; other results that come meanwhile are kept for later."""
        got = {t: self._early.pop(t) for t in list(tags) if t in self._early}
        while len(got) < len(tags):
            tag, result = self.team.receive()
            if tag in tags:
                got[tag] = result
            else:
                self._early[tag] = result
        return got

    def results(self) -> Iterator:
        """Every pair's ``(MetricPair, explanation)``, in index order, as each part is done; with
        several systems (more than two sources), rows of them, as :func:`metric_rows` gives."""
        one = len(self.sources) == 2
        for p, (lo, hi) in enumerate(self._parts):
            rows = self._wait({("score", p)})[("score", p)]
            for k, row in enumerate(rows, start=lo):
                pairs = tuple((MetricPair(k, id, stats, error), explanation)
                              for id, stats, error, explanation in row)
                yield pairs[0] if one else pairs
        self.team.finish()

    def __enter__(self) -> "FileRun":
        return self

    def __exit__(self, *exc) -> None:
        self.team.__exit__(*exc)


class _Parts:
    """A :class:`FileRun` worker's state: the files' bytes, the metric, and the parts it has
    read and not yet scored."""

    def __init__(self, metric: Metric, datas: list, paths: list, fmts: list, skip: bool, explain: bool) -> None:
        self.metric, self.datas, self.paths, self.fmts = metric, datas, paths, fmts
        self.skip, self.explain = skip, explain
        self.read: dict[int, list[list[Entry]]] = {}


def _part_task(state: _Parts, task: tuple) -> Any:
    """One step of a :class:`FileRun` in a worker: ``scan``, ``read`` or ``score``."""
    if task[0] == "scan":
        _, f, begin, end = task
        return graph_offsets(state.datas[f], begin, end)
    if task[0] == "read":
        _, p, spans = task
        entries = [read_bytes(state.datas[f][start:stop], state.paths[f], state.fmts[f], line, index)
                   for f, (start, stop, line, index) in enumerate(spans)]
        state.read[p] = entries
        errors = [[e.error for e in got if e.error is not None] for got in entries]
        return ([len(got) for got in entries], errors,
                [IdCheck.of(system, entries[-1]) for system in entries[:-1]])
    _, p = task
    *systems, gold = state.read.pop(p)
    metric, explain, skip = state.metric, state.explain, state.skip
    rows = []
    with no_cycle_collection():
        for k, eb in enumerate(gold):
            fb = None  # the gold graph's features, once a row
            row = []
            for entries in systems:
                ea = entries[k]
                id = ea.id if ea.id is not None else eb.id
                bad = ea.error or eb.error
                error = str(bad) if bad is not None else None
                if error is not None and skip:
                    row.append((id, None, error, None))
                    continue
                fa = metric.features(ea.graph if ea.graph is not None else EMPTY_GRAPH)
                if fb is None:
                    fb = metric.features(eb.graph if eb.graph is not None else EMPTY_GRAPH)
                stats, why = pair_stats(metric, fa, fb, explain)
                row.append((id, stats, error, why))
            rows.append(row)
    return rows


def metric_matrix(metric: Metric, feats_a: Sequence[Any], feats_b: Sequence[Any], workers: int = 1,
                  client: Any = None, rows: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
    """:meth:`Metric.stats_matrix` of ``feats_a`` against ``feats_b``, shape ``(n, m, k)``.

    A metric that scores all pairs at once (a sparse product: overrides ``stats_matrix``)
    does so here; the others, pair by pair, run ``rows`` rows of the matrix a task on
    ``workers`` processes or ``client``'s Dask cluster, with the same numbers.  ``out``: the
    array to fill, row block by row block as they finish (an interrupt leaves the rest as it
    was, e.g. NaN); it is returned.

    >>> from smatchpp.metrics import get_metric
    >>> from smatchpp.graphs.read import read_text
    >>> m = get_metric("sema")
    >>> f = [m.features(e.graph) for e in read_text("(d / dog)\\n\\n(c / cat :mod (b / big))\\n\\n(d / dog)")]
    >>> bool((metric_matrix(m, f, f, workers=2, rows=1) == m.stats_matrix(f, f)).all())
    True
    """
    pooled = workers > 1 or client is not None
    if type(metric).stats_matrix is not Metric.stats_matrix or not pooled or len(feats_a) < 2:
        return metric.stats_matrix(feats_a, feats_b) if out is None else metric.stats_matrix(feats_a, feats_b, out=out)
    n = len(feats_a)
    if rows is None:
        slots = workers if client is None else sum(client.nthreads().values())
        rows = max(1, min(64, n // (max(slots, 1) * 8)))
    work = Work(run=_matrix_rows, setup=_matrix_state, args=(metric, list(feats_a), list(feats_b)))
    spans = [(i, min(i + rows, n)) for i in range(0, n, rows)]
    if out is None:
        blocks = list(stream(work, spans, workers, 1, client))
        return np.concatenate(blocks, axis=0).reshape(n, len(feats_b), len(metric.stat_names))
    for (start, stop), block in zip(spans, stream(work, spans, workers, 1, client)):
        out[start:stop] = np.asarray(block).reshape(stop - start, len(feats_b), len(metric.stat_names))
    return out


def _matrix_state(metric: Metric, feats_a: list, feats_b: list) -> tuple:
    return metric, feats_a, feats_b


def _matrix_rows(state: tuple, span: tuple[int, int]) -> np.ndarray:
    """Rows ``span`` of the statistics matrix."""
    metric, feats_a, feats_b = state
    return metric.stats_matrix(feats_a[span[0]:span[1]], feats_b)

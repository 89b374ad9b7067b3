"""A metric over paired inputs, on every backend: this process, a pool of workers, or Dask.

:func:`metric_pairs` scores the ``k``-th graph of one list against the ``k``-th
of the other under any registered :class:`~smatchpp.metrics.Metric`, through
:func:`smatchpp.running.executor.stream`, the road Smatch's pairs take too: results come
in index order, each as soon as it and every pair before it are done, and do not
depend on the backend or the number of workers.  The graphs go to the workers
once (a forked pool inherits them; Dask scatters them); a task is a pair's index,
and a result a :class:`~smatchpp.metrics.MetricPair` (with the metric's
explanation when asked), so nothing large crosses a process boundary per pair.

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

from .executor import Work, stream
from ..metrics import Metric, MetricPair
from ..graphs.read import Entry, RawGraph

__all__ = ["metric_pairs", "metric_rows", "metric_matrix", "metric_graphs", "auto_workers", "PAIRS_PER_WORKER", "EMPTY_GRAPH"]

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


def metric_rows(metric: Metric, systems: Sequence[Sequence[Entry]], gold: Sequence[Entry],
                on_error: str = "raise", workers: int = 1, client: Any = None,
                chunk: int | None = None, explain: bool = False,
                prepared: bool = False) -> Iterator:
    """Row ``k``: every system's ``(pair, explanation)`` of its ``k``-th graph against the
    ``k``-th gold graph (``compare``: several systems, one gold; the gold graph's features
    are computed once a row); see :func:`metric_pairs`.  With one system, the rows are its
    ``(pair, explanation)`` themselves (:func:`metric_pairs`)."""
    graphs = [metric_graphs(entries) for entries in systems]
    gold_graphs = metric_graphs(gold)
    if not prepared:
        metric.prepare([g for got in graphs for g in got] + gold_graphs)
    ids = [[ea.id if ea.id is not None else eb.id for ea, eb in zip(entries, gold)] for entries in systems]
    errors = [[_error(ea, eb) for ea, eb in zip(entries, gold)] for entries in systems]
    n = len(gold_graphs)
    if chunk is None:
        slots = workers if client is None else sum(client.nthreads().values())
        chunk = max(1, min(256, n // (max(slots, 1) * 8)))
    # one system (score): its pairs themselves, not rows of one
    work = Work(run=_score_row if len(systems) > 1 else _score_one, setup=_State,
                args=(metric, graphs, gold_graphs, ids, errors, on_error == "skip", explain))
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


def _score_one(state: _State, k: int) -> tuple[MetricPair, dict | None]:
    """Pair ``k`` of the only system: its statistics (and explanation)."""
    error = state.errors[0][k]
    if error is not None and state.skip:
        return MetricPair(k, state.ids[0][k], None, error), None
    metric = state.metric
    fa, fb = metric.features(state.graphs[0][k]), metric.features(state.gold[k])
    pair = MetricPair(k, state.ids[0][k], tuple([float(x) for x in metric.stats(fa, fb)]), error)
    return pair, (metric.explain(fa, fb) if state.explain else None)


def _score_row(state: _State, k: int) -> tuple[tuple[MetricPair, dict | None], ...]:
    """Row ``k``: every system's statistics (and explanation) of pair ``k``."""
    metric = state.metric
    gold = None
    row = []
    for j, graphs in enumerate(state.graphs):
        error = state.errors[j][k]
        if error is not None and state.skip:
            row.append((MetricPair(k, state.ids[j][k], None, error), None))
            continue
        fa = metric.features(graphs[k])
        if gold is None:
            gold = metric.features(state.gold[k])
        pair = MetricPair(k, state.ids[j][k], tuple(float(x) for x in metric.stats(fa, gold)), error)
        row.append((pair, metric.explain(fa, gold) if state.explain else None))
    return tuple(row)


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

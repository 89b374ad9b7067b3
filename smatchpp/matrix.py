"""All-pairs scores and exact top-k search over collections of graphs.

Every graph is read and standardized once; pairs are scored in chunks (by a
process pool when ``workers > 1``, or on Dask, the graphs shipped once per
worker: :func:`smatchpp.running.executor.stream`) and streamed back in a fixed order,
so results never depend on the worker count.

Cheap bounds for whole collections: the label-count bound of every pair at
once is a sparse product.  A label that a graph has ``c`` times becomes the
``c`` indicator columns ``(label, 1) .. (label, c)``; then
``sum_label min(c_A, c_B)`` is the dot product of two graphs' indicator rows.
Since the F1 of ``m`` matches is ``2m / (|A| + |B|)``, increasing in ``m``, the
bound on matches bounds F1, and :func:`top_k` never solves a pair whose bound
cannot enter the top ``k``.

>>> from smatchpp.api import parse_graph
>>> gs = [parse_graph(s) for s in ("(a / dog)", "(a / dog :ARG0 (b / cat))", "(a / cat)")]
>>> label_bound_matrix(gs, gs).toarray().astype(int).tolist()
[[2, 2, 1], [2, 4, 2], [1, 2, 2]]
>>> [(r.index, round(r.f1, 3)) for r in top_k(gs[:1], gs, 2)[0].hits]
[(0, 1.0), (1, 0.667)]
"""

from __future__ import annotations

import heapq
import threading
import time
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

import numpy as np

from .api import Scorer
from .alignment.matchers import build_matcher
from .alignment.matchers.exact import label_multiset
from .alignment.config import Config
from .running.executor import Work, stream
from .presets import get_preset
from .alignment.solvers.bounds import star_bound
from .alignment.solvers.portfolio import BIG_PAIRS
from .graphs.triples import TripleGraph

__all__ = ["LabelIndex", "label_bound_matrix", "f1_bound", "PairResult", "PairChunk", "score_pairs", "chunk_sizes",
           "pair_chunks", "Hit", "QueryResult", "top_k", "iter_top_k",
           "top_k_chunk", "search"]


def _indicators(graphs: Sequence[TripleGraph], vocabulary: dict,
                grow: bool = True) -> tuple[list[int], list[int]]:
    """Rows and columns of the label indicator matrix (see the module docstring); with
    ``grow=False`` only the columns ``vocabulary`` has (the others meet no column)."""
    rows: list[int] = []
    cols: list[int] = []
    for r, g in enumerate(graphs):
        labels = label_multiset(g)
        # triples without a variable (``TripleGraph.free``) match by themselves (compile_pair)
        labels.update(("free",) + t for t in g.free)
        for label, count in labels.items():
            for t in range(1, count + 1):
                col = vocabulary.setdefault((label, t), len(vocabulary)) if grow else vocabulary.get((label, t))
                if col is None:  # (label, t) is absent, and so is every higher t
                    break
                cols.append(col)
                rows.append(r)
    return rows, cols


class LabelIndex:
    """A collection's label indicator rows, built once: the columns of the label bounds of
    any graphs against it (:meth:`bounds`).  A worker that searches one corpus chunk after
    chunk builds it once (1,562 graphs: 11 ms a build)."""

    def __init__(self, graphs: Sequence[TripleGraph]) -> None:
        from scipy.sparse import csr_matrix

        self.vocabulary: dict = {}
        rows, cols = _indicators(graphs, self.vocabulary)
        self.matrix = csr_matrix((np.ones(len(rows)), (rows, cols)),
                                 shape=(len(graphs), max(len(self.vocabulary), 1)))

    def bounds(self, graphs: Sequence[TripleGraph]):
        """Sparse ``len(graphs) x len(collection)`` matrix of every pair's label-count bound."""
        from scipy.sparse import csr_matrix

        rows, cols = _indicators(graphs, self.vocabulary, grow=False)
        x = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(graphs), self.matrix.shape[1]))
        return (x @ self.matrix.T).tocsr()


def label_bound_matrix(graphs_a: Sequence[TripleGraph], graphs_b: Sequence[TripleGraph]):
    """Sparse ``len(a) x len(b)`` matrix of every pair's label-count bound on matches."""
    return LabelIndex(graphs_b).bounds(graphs_a)


def f1_bound(matches: np.ndarray, size_a: np.ndarray, size_b: np.ndarray) -> np.ndarray:
    """F1 of ``matches`` between graphs of ``size_a`` and ``size_b`` triples (0 if either is empty)."""
    total = size_a + size_b
    with np.errstate(divide="ignore", invalid="ignore"):
        f1 = np.where((size_a > 0) & (size_b > 0), 2.0 * matches / np.maximum(total, 1), 0.0)
    return f1


@dataclass(frozen=True)
class PairResult:
    """One scored pair of a matrix (compact: no alignment, no stats)."""

    i: int
    j: int
    matched: float
    upper: float
    #: precision's and recall's denominators: triple counts, or total weights under a weighted matcher
    test: float
    gold: float
    status: str

    @property
    def f1(self) -> float:
        return float(f1_bound(np.float64(self.matched), self.test, self.gold))

    @property
    def f1_upper(self) -> float:
        return float(f1_bound(np.float64(self.upper), self.test, self.gold))


@dataclass(frozen=True, eq=False)
class PairChunk:
    """The results of a chunk of pairs, one numpy array per field of :class:`PairResult`.

    A chunk travels from a worker to the client as these few arrays.  With a
    list of one object per pair as each task's result, 2 Dask workers took
    11.3 s instead of 7.4 s to score 124,750 pairs (measured before
    the Dask backend scattered its shared objects as one future each,
    :mod:`smatchpp.running.executor`).  Iterating gives the :class:`PairResult` of each pair,
    in chunk order.
    """

    i: np.ndarray
    j: np.ndarray
    matched: np.ndarray
    upper: np.ndarray
    test: np.ndarray
    gold: np.ndarray
    status: np.ndarray

    @classmethod
    def of(cls, results: Sequence[PairResult]) -> "PairChunk":
        return cls.of_rows([(r.i, r.j, r.matched, r.upper, r.test, r.gold, r.status) for r in results])

    @classmethod
    def of_rows(cls, rows: Sequence[tuple]) -> "PairChunk":
        """From ``(i, j, matched, upper, test, gold, status)`` tuples; no rows give empty
        arrays of the right dtypes (``test`` and ``gold`` keep theirs: counts or weights)."""
        i, j, matched, upper, test, gold, status = zip(*rows) if rows else ((),) * 7
        return cls(np.array(i, dtype=np.int64), np.array(j, dtype=np.int64),
                   np.array(matched, dtype=np.float64), np.array(upper, dtype=np.float64),
                   np.array(test, dtype=None if rows else np.float64),
                   np.array(gold, dtype=None if rows else np.float64), np.array(status, dtype=str))

    def __len__(self) -> int:
        return len(self.i)

    def __iter__(self) -> Iterator[PairResult]:
        for k in range(len(self)):
            yield PairResult(int(self.i[k]), int(self.j[k]), float(self.matched[k]), float(self.upper[k]),
                             self.test[k].item(), self.gold[k].item(), str(self.status[k]))

    @property
    def certified(self) -> np.ndarray:
        return self.status == "optimal"

    @property
    def f1(self) -> np.ndarray:
        return f1_bound(self.matched, self.test, self.gold)


def _init(config: Config, graphs_a, graphs_b, matcher=None) -> tuple:
    """A worker's state (:class:`~smatchpp.running.executor.Work`): its scorer and the two collections."""
    return Scorer(config, matcher), graphs_a, graphs_b


def prepared_matcher(config: Config, graphs_a, graphs_b):
    """A soft matcher with every similarity the collections need (workers get this table only)."""
    matcher = build_matcher(config)
    similarity = getattr(matcher, "similarity", None)
    if similarity is None or not hasattr(similarity, "prepare"):
        return None
    concepts_a = sorted({c for g in graphs_a for c in g.concepts})
    concepts_b = sorted({c for g in graphs_b for c in g.concepts})
    similarity.prepare([(concepts_a, concepts_b)])
    return matcher


def score_chunk(scorer: Scorer, graphs_a, graphs_b, chunk) -> PairChunk:
    """Score the index pairs ``(i, j)`` of ``chunk`` (a worker's task)."""
    rows = []
    for i, j in (tuple(map(int, p)) for p in chunk):
        s = scorer.score_pair(graphs_a[i], graphs_b[j])
        rows.append((i, j, s.matched, s.upper, s.test_weight, s.gold_weight, s.status))
    return PairChunk.of_rows(rows)


def _score_chunk(state: tuple, chunk: np.ndarray) -> PairChunk:
    return score_chunk(*state, chunk)


def chunk_sizes(total: int, chunk: int, workers: int = 1) -> Iterator[int]:
    """Sizes of the chunks that cover ``total`` pairs: ``chunk`` at a time, and with
    several workers a shrinking tail (what is left over twice the workers: a quarter
    with 2; down to 64 pairs), so that the workers finish together instead of one
    waiting on another's last chunk."""
    left = total
    while left > 0:
        size = chunk if workers <= 1 else min(chunk, max(-(-left // (2 * workers)), min(chunk, 64)))
        size = min(size, left)
        yield size
        left -= size


def pair_chunks(n_a: int, n_b: int | None, chunk: int, workers: int = 1) -> Iterator[np.ndarray]:
    """Index pairs in row-major order, in chunks of :func:`chunk_sizes`; ``n_b=None``:
    ``i < j`` of one collection."""
    total = n_a * (n_a - 1) // 2 if n_b is None else n_a * n_b
    sizes = chunk_sizes(total, chunk, workers)
    want = next(sizes, 0)
    buffer: list[np.ndarray] = []
    size = 0
    for i in range(n_a):
        cols = np.arange(i + 1, n_a) if n_b is None else np.arange(n_b)
        rows = np.column_stack([np.full(len(cols), i), cols])
        while len(rows):
            take = rows[: want - size]
            rows = rows[len(take):]
            buffer.append(take)
            size += len(take)
            if size == want:
                yield np.concatenate(buffer)
                buffer, size = [], 0
                want = next(sizes, 0)


def score_pairs(graphs_a: Sequence[TripleGraph], graphs_b: Sequence[TripleGraph],
                chunks: Iterator[np.ndarray], config: Config | None = None,
                workers: int = 1, client=None) -> Iterator[PairChunk]:
    """Score chunks of index pairs ``(i, j)``; yields one :class:`PairChunk` per chunk, in chunk
    order (in this process, by a pool of ``workers``, or on a Dask ``client``)."""
    config = config or Config()
    yield from _stream(_score_chunk, chunks, config, graphs_a, graphs_b, workers, client)


def _stream(func, tasks: Iterable, config: Config, graphs_a, graphs_b, workers: int,
            client) -> Iterator:
    """``func(state, task)`` for every task, results in task order, by workers that hold the
    graphs and a :class:`Scorer` (:func:`_init`; shipped once per worker): in this process,
    by a pool of ``workers`` or on a Dask ``client`` (:func:`smatchpp.running.executor.stream`).
    A soft matcher goes to the workers with the similarity table the collections need."""
    if workers <= 1 and client is None:
        matcher = None  # this process computes what it needs as it goes
    else:
        matcher = prepared_matcher(config, graphs_a, graphs_b)
    work = Work(run=func, setup=_init, args=(config, graphs_a, graphs_b, matcher))
    yield from stream(work, tasks, workers, 1, client)


@dataclass(frozen=True)
class Hit:
    index: int
    f1: float
    matched: float
    upper: float
    status: str


@dataclass
class QueryResult:
    """The top hits of one query, and what it took to prove them."""

    query: int
    hits: list[Hit] = field(default_factory=list)
    #: pairs solved, ``pruned`` (the label bound kept them out: never compiled) and ``bounded``
    #: (compiled, then the star bound kept them out: never solved) cover the corpus
    solved: int = 0
    pruned: int = 0
    #: solved pairs whose optimum is proven
    certified: int = 0
    bounded: int = 0


def top_k(queries: Sequence[TripleGraph], corpus: Sequence[TripleGraph], k: int,
          config: Config | None = None, matcher=None) -> list[QueryResult]:
    """For each query, the ``k`` corpus graphs of highest exact F1 (ties: lower corpus index first).

    Pairs are solved in decreasing order of their label-bound F1; the search
    stops as soon as no unsolved pair's bound can beat the current ``k``-th hit
    (``f1 > kth`` or ``f1 == kth`` with a lower index).  Once there are ``k``
    hits, a pair is compiled and its star bound (an assignment bound,
    :func:`~smatchpp.alignment.solvers.bounds.star_bound`) tried before it is solved; a
    pair it keeps out is counted as ``bounded``.  Under soft or weighted
    matchers (no label bound) the star bound is the only one.  Both bounds are upper bounds
    on the optimum, and a pair's score never exceeds its optimum, so the hits are
    those of solving every pair.  A pair that a time or work limit leaves
    uncertified ranks by its lower bound (its status says so).
    """
    return list(iter_top_k(queries, corpus, k, config, matcher))


def iter_top_k(queries: Sequence[TripleGraph], corpus: Sequence[TripleGraph], k: int,
               config: Config | None = None, matcher=None,
               index: LabelIndex | None = None) -> Iterator[QueryResult]:
    """:func:`top_k`, each query's result as soon as it is done (``index``: the corpus's
    :class:`LabelIndex`, if one is at hand)."""
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    config = config or Config()
    scorer = Scorer(config, matcher)
    if _label_bounded(config):
        bounds = (index or LabelIndex(corpus)).bounds(queries).toarray()
    else:  # soft or weighted matches, or a pair rewrite (smatchpp18-lossy) that changes the
        # triples after standardization: the label counts bound nothing; the star bound is left
        bounds = np.full((len(queries), len(corpus)), np.inf)
    size_q = np.array([g.n_triples for g in queries], dtype=np.float64)
    size_c = np.array([g.n_triples for g in corpus], dtype=np.float64)
    for q, query in enumerate(queries):
        ub = f1_bound(bounds[q], size_q[q], size_c)
        order = np.lexsort((np.arange(len(corpus)), -ub))
        best: list[tuple[float, int, Hit]] = []  # min-heap on (f1, -index): the k-th is best[0]
        result = QueryResult(q)
        for position, j in enumerate(order.tolist()):
            if len(best) == k and _kept_out(ub[j], j, best[0]):
                result.pruned = len(order) - position
                break
            began = time.perf_counter()
            a, b, problem = scorer.aligner.compile(query, corpus[j])
            if len(best) == k and _kept_out(_star_f1(problem, scorer.matcher, a, b), j, best[0]):
                result.bounded += 1
                continue
            s = scorer.aligner.solve(a, b, problem, began, config.time_limit)
            result.solved += 1
            result.certified += s.status == "optimal"
            f1 = float(f1_bound(np.float64(s.matched), s.test_weight, s.gold_weight))
            item = (f1, -j, Hit(j, s.f1, s.matched, s.upper, s.status))
            if len(best) < k:
                heapq.heappush(best, item)
            elif item[:2] > best[0][:2]:
                heapq.heapreplace(best, item)
        result.hits = [h for _, _, h in sorted(best, key=lambda x: (-x[0], -x[1]))]
        yield result


def top_k_chunk(queries: Sequence[int], config: Config, query_graphs: Sequence[TripleGraph],
                corpus: Sequence[TripleGraph], matcher=None, *, k: int) -> list[QueryResult]:
    """:func:`top_k` of the query indices ``queries`` (a task of the process pool and of Dask;
    ``matcher``: prepared by the client, :func:`prepared_matcher`)."""
    index = _corpus_index(corpus) if _label_bounded(config) else None
    results = list(iter_top_k([query_graphs[q] for q in queries], corpus, k, config, matcher, index))
    for q, r in zip(queries, results):
        r.query = q
    return results


def _label_bounded(config: Config) -> bool:
    """Whether the label counts bound the matches: exact matching of the standardized
    triples (not soft or weighted, repeated triples as multisets, no pair rewrite such as
    smatchpp18-lossy's)."""
    return (config.match == "exact" and config.role_weights is None
            and config.duplicates == "multiset"
            and get_preset(config.preset).pair_rewrite is None)


_WORKER = threading.local()


def _corpus_index(corpus: Sequence[TripleGraph]) -> LabelIndex:
    """This thread's :class:`LabelIndex` of ``corpus``: a pool or Dask worker gets the same
    corpus object task after task (shipped or scattered once), so it is built once."""
    held = getattr(_WORKER, "index", None)
    if held is None or held[0] is not corpus:
        held = _WORKER.index = (corpus, LabelIndex(corpus))  # the reference keeps the identity
    return held[1]


def _search_chunk(state: tuple, task: tuple[list[int], int]) -> list[QueryResult]:
    scorer, query_graphs, corpus = state
    queries, k = task
    return top_k_chunk(queries, scorer.config, query_graphs, corpus, scorer.matcher, k=k)


def search(queries: Sequence[TripleGraph], corpus: Sequence[TripleGraph], k: int,
           config: Config | None = None, workers: int = 1, client=None) -> Iterator[QueryResult]:
    """:func:`top_k` of every query, in query order; with ``workers > 1`` by a process pool
    (with a Dask ``client``, on its cluster, ``workers`` its threads), chunks of queries at
    a time (the graphs shipped once per worker).  The results do not depend on the number
    of workers."""
    config = config or Config()
    if client is None and (workers <= 1 or len(queries) < 2):
        yield from iter_top_k(queries, corpus, k, config)
        return
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    if client is not None:
        workers = sum(client.nthreads().values())
    size = max(len(queries) // (8 * max(workers, 1)), 1)  # eight chunks a worker: they finish together
    chunks = [(list(range(start, min(start + size, len(queries)))), k)
              for start in range(0, len(queries), size)]
    for results in _stream(_search_chunk, chunks, config, queries, corpus, workers, client):
        yield from results


def _star_f1(problem, matcher, a: TripleGraph, b: TripleGraph) -> float:
    """An upper bound on the F1 of the pair ``(a, b)`` (compiled to ``problem``): its star
    bound over the totals that the pair's F1 divides by (the triple counts, or the total
    weights under a soft or weighted matcher).  A fractional bound gets a margin of 1e-9 of
    its value, so that rounding in its sum cannot put it below the solver's optimum.  On a
    big problem (document graphs) the row/column bound, one linear pass, as the solver's
    first step there: the assignment could take longer than a time limit allows."""
    star = star_bound(problem, assignment=problem.n_pairs < BIG_PAIRS)
    if not problem.integral:
        star += 1e-9 * max(1.0, abs(star))
    return float(f1_bound(np.float64(star), matcher.total(a), matcher.total(b)))


def _kept_out(f1_upper: float, index: int, kth: tuple) -> bool:
    """Whether a pair whose F1 is at most ``f1_upper`` cannot displace the ``k``-th hit
    ``kth`` (``(f1, -index, hit)``): a lower F1, or the same F1 with a higher index."""
    kth_f1, kth_neg_index, _ = kth
    return f1_upper < kth_f1 or (f1_upper == kth_f1 and index > -kth_neg_index)

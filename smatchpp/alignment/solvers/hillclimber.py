"""Seeded hill-climber: a fast lower bound, the warm start of the exact solvers.

Steepest ascent over two kinds of move, evaluated for all candidate pairs at
once with numpy:

* *assign*: map ``i`` to a free ``j`` (dropping ``i``'s old pair);
* *swap*: ``i`` takes ``j`` from ``i2``, and ``i2`` takes ``i``'s old target.

Ternary terms (none in AMR, where none of their steps runs) are kept exact:
each pair's gain counts the ternary terms whose other two pairs are chosen,
and a move's gain adds the terms it completes between its own pairs (see
:meth:`_State.best_move`).

Restarts: one greedy start from the strongest unary matches (concepts and
attributes), then ``restarts`` random starts from a ``numpy`` generator seeded
with ``seed``, so the result depends on nothing but the problem and the seed.
Stops early once the objective reaches ``target`` (a known upper bound).

>>> from smatchpp.api import compile_strings
>>> p = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> HillClimber(seed=1).solve(p).objective
3.0
"""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np

from ..problem import Alignment, Problem
from .base import Limits, SolveResult, certified, empty_alignment

__all__ = ["HillClimber", "climb"]

_EPS = 1e-9
#: above this many cells the pair lookup is a sorted search, not a dense table
DENSE_LIMIT = 4_000_000
#: a move costs a few linear passes over the pairs: under limits that measured the
#: rate of one (:attr:`~smatchpp.alignment.solvers.base.Limits.seconds_per_pair`), a move
#: starts only if this many fit
MOVE_PASSES = 4


class _Tables:
    """Lookups the moves need, built on first use (a certified greedy start needs none)."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem

    @cached_property
    def pid(self) -> np.ndarray | None:
        """Pair index of ``(i, j)`` (``-1`` if none); row ``n_a`` and column ``n_b`` stay ``-1``.

        ``None`` above :data:`DENSE_LIMIT` cells: :meth:`pair_id` then searches sorted keys.
        """
        pr = self.problem
        if (pr.n_a + 1) * (pr.n_b + 1) > DENSE_LIMIT:
            return None
        pid = np.full((pr.n_a + 1, pr.n_b + 1), -1, dtype=np.int64)
        pid[pr.pair_a, pr.pair_b] = np.arange(pr.n_pairs)
        return pid

    @cached_property
    def keys(self) -> tuple[np.ndarray, np.ndarray]:
        """Sorted keys ``i * (n_b + 1) + j`` of the pairs, and their pair indices."""
        pr = self.problem
        keys = pr.pair_a * (pr.n_b + 1) + pr.pair_b
        order = np.argsort(keys)
        return keys[order], order

    def pair_id(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Pair index of each ``(i[k], j[k])``, ``-1`` where it is not a candidate."""
        if self.pid is not None:
            return self.pid[i, j]
        keys, index = self.keys
        if not len(keys):
            return np.full(len(i), -1, dtype=np.int64)
        key = i * (self.problem.n_b + 1) + j
        pos = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
        return np.where(keys[pos] == key, index[pos], -1)

    @cached_property
    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """Binary terms as sorted keys ``p * n_pairs + q`` and their weights."""
        pr = self.problem
        keys = pr.edge_p * pr.n_pairs + pr.edge_q
        order = np.argsort(keys)
        return keys[order], pr.weight[order]

    @cached_property
    def ternary(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each ternary term three times, keyed by two of its pairs: sorted keys
        ``lo * n_pairs + hi``, the third pair and the weight."""
        pr = self.problem
        t = (pr.tri_p, pr.tri_q, pr.tri_r)
        keys = np.concatenate([t[0] * pr.n_pairs + t[1], t[0] * pr.n_pairs + t[2],
                               t[1] * pr.n_pairs + t[2]])
        third = np.concatenate([t[2], t[1], t[0]])
        order = np.argsort(keys, kind="stable")
        return keys[order], third[order], np.concatenate([pr.tri_weight] * 3)[order]


class _State:
    """Current selection with each pair's gain ``unary + weights to chosen neighbours``."""

    def __init__(self, problem: Problem, tables: _Tables) -> None:
        self.problem = problem
        self.tables = tables
        self.start, self.other, self.w = problem.neighbours
        self.gain = np.append(problem.unary, 0.0)
        self.index = np.arange(problem.n_pairs)
        self.cur_a = np.full(problem.n_a + 1, -1, dtype=np.int64)  # last slot: "none"
        self.cur_b = np.full(problem.n_b + 1, -1, dtype=np.int64)
        self.value = problem.constant
        self.ternary = problem.n_ternary > 0
        if self.ternary:
            self.chosen = np.zeros(problem.n_pairs + 1, dtype=bool)  # last slot: "no pair"
            self.tstart, self.tsecond, self.tthird, self.tw = problem.ternary_incidence

    def weight(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Binary weight between pair arrays ``p`` and ``q`` (0 where none or -1)."""
        ekeys, ew = self.tables.edges
        if not len(ekeys):
            return np.zeros(np.shape(p))
        lo, hi = np.minimum(p, q), np.maximum(p, q)
        key = lo * self.problem.n_pairs + hi
        pos = np.minimum(np.searchsorted(ekeys, key), len(ekeys) - 1)
        return np.where((lo >= 0) & (ekeys[pos] == key), ew[pos], 0.0)

    def start_with(self, order: np.ndarray) -> None:
        """Take pairs greedily in ``order``, each if both its variables are still free."""
        pr = self.problem
        pa, pb = pr.pair_a.tolist(), pr.pair_b.tolist()
        used_a: set[int] = set()
        used_b: set[int] = set()
        chosen = []
        for p in order.tolist():
            if pa[p] not in used_a and pb[p] not in used_b:
                used_a.add(pa[p])
                used_b.add(pb[p])
                chosen.append(p)
        mask = np.zeros(pr.n_pairs, dtype=bool)
        mask[chosen] = True
        source = np.repeat(self.index, np.diff(self.start))
        hit = mask[source]
        self.gain[:-1] = pr.unary + np.bincount(self.other[hit], weights=self.w[hit],
                                                minlength=pr.n_pairs)
        self.cur_a[pr.pair_a[mask]] = self.index[mask]
        self.cur_b[pr.pair_b[mask]] = self.index[mask]
        both = mask[pr.edge_p] & mask[pr.edge_q]
        self.value = pr.constant + float(pr.unary[mask].sum() + pr.weight[both].sum())
        if self.ternary:
            self.chosen[:-1] = mask
            owner = np.repeat(self.index, np.diff(self.tstart))
            paid = self.tw * (mask[self.tsecond] & mask[self.tthird])
            self.gain[:-1] += np.bincount(owner, weights=paid, minlength=pr.n_pairs)
            self.value += float(pr.ternary_values(mask).sum())

    def add(self, p: int) -> None:
        s, e = self.start[p], self.start[p + 1]
        self.value += self.gain[p]
        self.gain[self.other[s:e]] += self.w[s:e]
        self.cur_a[self.problem.pair_a[p]] = p
        self.cur_b[self.problem.pair_b[p]] = p
        if self.ternary:
            self._ternary_gains(p, 1.0)
            self.chosen[p] = True

    def remove(self, p: int) -> None:
        s, e = self.start[p], self.start[p + 1]
        self.gain[self.other[s:e]] -= self.w[s:e]
        if self.ternary:
            self._ternary_gains(p, -1.0)
            self.chosen[p] = False
        self.value -= self.gain[p]
        self.cur_a[self.problem.pair_a[p]] = -1
        self.cur_b[self.problem.pair_b[p]] = -1

    def _ternary_gains(self, p: int, sign: float) -> None:
        """``p`` enters (``sign`` 1) or leaves (-1): each term ``{p, q, r}`` changes the
        gain of ``q`` if ``r`` is chosen, and of ``r`` if ``q`` is."""
        s, e = self.tstart[p], self.tstart[p + 1]
        q, r, w = self.tsecond[s:e], self.tthird[s:e], sign * self.tw[s:e]
        np.add.at(self.gain, q, np.where(self.chosen[r], w, 0.0))
        np.add.at(self.gain, r, np.where(self.chosen[q], w, 0.0))

    def completed(self, p: np.ndarray, q: np.ndarray) -> np.ndarray:
        """Per ``(p[k], q[k])``: the weight of the ternary terms of both whose third pair
        is chosen (0 where ``p`` or ``q`` is -1)."""
        keys, third, w = self.tables.ternary
        paid = np.concatenate([[0.0], np.cumsum(np.where(self.chosen[third], w, 0.0))])
        lo, hi = np.minimum(p, q), np.maximum(p, q)
        key = lo * self.problem.n_pairs + hi
        total = paid[np.searchsorted(keys, key, "right")] - paid[np.searchsorted(keys, key, "left")]
        return np.where(lo >= 0, total, 0.0)

    def best_move(self) -> tuple[float, int, int, int, int]:
        """(gain, p, p3, p0, p2) of the best move: add p (and p3), drop p0 (and p2)."""
        pr = self.problem
        g = self.gain  # g[-1] is a constant 0, read for "no pair"
        p0 = self.cur_a[pr.pair_a]
        p2 = self.cur_b[pr.pair_b]
        gain = g[:-1] - g[p0] - g[p2]
        swaps = np.flatnonzero(p2 >= 0)
        p3 = np.full(pr.n_pairs, -1, dtype=np.int64)
        if len(swaps):
            p0s, p2s = p0[swaps], p2[swaps]
            j0 = np.where(p0s >= 0, pr.pair_b[p0s], pr.n_b)  # column n_b of pid is all -1
            p3s = self.tables.pair_id(pr.pair_a[p2s], j0)
            p3[swaps] = p3s
            gain[swaps] += (np.where(p3s >= 0, g[p3s], 0.0) + self.weight(swaps, p3s)
                            + self.weight(p0s, p2s))
            if self.ternary:
                # exact with ternary terms: of the four pairs only p-p3 and p0-p2 share
                # no variable, so only their terms are miscounted by the gains: a term of
                # p and p3 whose third pair stays chosen is new (neither gain has it), and
                # one of p0 and p2 was subtracted twice
                gain[swaps] += self.completed(swaps, p3s) + self.completed(p0s, p2s)
        gain[p0 == self.index] = -np.inf  # already chosen
        best = int(np.argmax(gain))
        return float(gain[best]), best, int(p3[best]), int(p0[best]), int(p2[best])

    def climb(self, limits: Limits | None = None) -> None:
        while True:
            if limits is not None and not limits.affords(MOVE_PASSES * self.problem.n_pairs):
                return  # every state is a valid alignment: stop with this one
            gain, p, p3, p0, p2 = self.best_move()
            if gain <= _EPS:
                return
            for old in (p0, p2):
                if old >= 0:
                    self.remove(old)
            self.add(p)
            if p3 >= 0:
                self.add(p3)

    def alignment(self) -> Alignment:
        chosen = np.zeros(self.problem.n_pairs, dtype=bool)
        sel = self.cur_a[:-1]
        chosen[sel[sel >= 0]] = True
        return self.problem.alignment_from_pairs(chosen)


def climb(problem: Problem, seed: int = 1, restarts: int = 4,
          target: float = math.inf, warm_start: Alignment | None = None,
          priority: np.ndarray | None = None,
          limits: Limits | None = None, greedy: bool = True) -> tuple[Alignment, float]:
    """Best alignment found and its objective; see the module docstring.

    ``warm_start`` is climbed from first; ``priority`` (one number per pair,
    e.g. an LP solution) adds a greedy start that takes pairs in decreasing order.
    ``limits``: once they expire, the climb in progress stops at its current
    alignment and no further start is tried (the first start is always taken
    greedily, so there is always an alignment; without limits nothing changes).
    ``greedy=False`` leaves out the greedy start when another start is given.
    """
    if problem.n_pairs == 0:
        return empty_alignment(problem), problem.constant
    tables = _Tables(problem)
    rng: np.random.Generator | None = None  # made on first use, from ``seed``
    best: tuple[Alignment, float] | None = None
    starts: list[np.ndarray] = []
    if warm_start is not None:
        starts.append(np.flatnonzero(problem.selected(warm_start)))
    if priority is not None:
        starts.append(np.lexsort((np.arange(problem.n_pairs), -np.asarray(priority))))
    # greedy start: strongest unary + half the potential binary gain first
    if greedy or not starts:
        start, _, w = problem.neighbours
        potential = (problem.unary
                     + 0.5 * np.add.reduceat(np.append(w, 0.0), start[:-1]) * (np.diff(start) > 0))
        if problem.n_ternary:
            tstart, _, _, tw = problem.ternary_incidence
            potential = potential + (np.add.reduceat(np.append(tw, 0.0), tstart[:-1])
                                     * (np.diff(tstart) > 0)) / 3.0
        starts.append(np.lexsort((np.arange(problem.n_pairs), -potential)))
    for attempt in range(len(starts) + restarts):
        state = _State(problem, tables)
        if attempt < len(starts):
            order = starts[attempt]
        else:
            rng = rng or np.random.default_rng(seed)
            order = rng.permutation(problem.n_pairs)
        state.start_with(order)
        if not certified(problem, state.value, target):
            state.climb(limits)
        value = state.value
        if best is None or value > best[1] + _EPS:
            best = (state.alignment(), value)
        if certified(problem, best[1], target) or (limits is not None and limits.expired()):
            break
    assert best is not None
    return best[0], problem.objective(best[0])


class HillClimber:
    """The hill-climber as a :class:`~smatchpp.alignment.solvers.base.Solver` (status ``heuristic``)."""

    name = "hillclimber"

    def __init__(self, seed: int = 1, restarts: int = 4) -> None:
        self.seed = seed
        self.restarts = restarts

    def solve(self, problem: Problem, time_limit: float | None = None,
              warm_start: Alignment | None = None) -> SolveResult:
        upper = problem.label_bound  # free, and lets a lucky climb be certified
        alignment, value = climb(problem, self.seed, self.restarts, upper, warm_start)
        status = "optimal" if certified(problem, value, upper) else "heuristic"
        return SolveResult(alignment, value, upper if status != "optimal" else value,
                           status, "label_bound" if status == "optimal" else "")

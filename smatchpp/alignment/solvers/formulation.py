"""The integer linear program of a :class:`~smatchpp.alignment.problem.Problem`, as sparse arrays.

Columns: ``x_p`` (binary, one per candidate pair) then ``y_e`` (continuous in
[0, 1], one per binary term).  Maximize ``unary . x + weight . y`` subject to

* each variable of A (and of B) in at most one chosen pair: ``sum_p x_p <= 1``;
* *aggregated linking*: for every pair ``p`` and every variable ``k`` of A
  other than ``p``'s own, ``sum_{e = (p, q), a(q) = k} y_e <= x_p``; the same
  for every variable ``l`` of B.  At integer ``x`` at most one such ``q`` is
  chosen, so the rows are valid; each ``y_e`` sits in a row of each of its
  pairs, so ``y_e <= min(x_p, x_q)`` and the model is exact.  These rows are
  much stronger than the pairwise ``y_e <= x_p, y_e <= x_q`` (kept as an
  option for comparison).

*Ternary terms* (none in AMR: the model is then exactly as above) get columns
``z_t`` (continuous in [0, 1]) after the ``y``'s, with the linearisation
``z_t <= x_p, x_q, x_r``, aggregated the same way: for every pair ``p`` and
every two variables ``{k, m}`` of A, ``sum_{t = {p, q, r}, {a(q), a(r)} =
{k, m}} z_t <= x_p``; the same for B.  Valid: at integer ``x`` with ``p``
chosen, the chosen pairs at ``k`` and ``m`` are one each, so at most one term
of the row has all its pairs chosen (terms have distinct pairs).  Exact: each
``z_t`` sits in a row of each of its three pairs, so ``z_t <= min(x_p, x_q,
x_r)``, and a maximization takes ``z_t = x_p x_q x_r``.

Both MIP backends (HiGHS and CBC) build their model from :func:`build`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from .symmetry import Symmetry, canonical, interchangeable, ordering_rows
from ..problem import Alignment, Problem
from .base import Budget, SolveResult, certified, empty_alignment

__all__ = ["Model", "build", "with_rows", "linking_keys", "ternary_linking_keys", "link_key", "Linking", "start_values", "MipSolver"]

Linking = Literal["aggregated", "pairwise"]


@dataclass
class Model:
    """A maximization MIP in row-wise sparse form."""

    n_x: int
    n_y: int
    cost: np.ndarray
    row_start: np.ndarray
    row_index: np.ndarray
    row_value: np.ndarray
    row_upper: np.ndarray

    @property
    def n_cols(self) -> int:
        return self.n_x + self.n_y

    @property
    def n_rows(self) -> int:
        return len(self.row_upper)


def _rows_from_groups(group: np.ndarray, cols: np.ndarray, vals: np.ndarray):
    """Group (row key, column, value) triplets into consecutive CSR rows."""
    order = np.argsort(group, kind="stable")
    group, cols, vals = group[order], cols[order], vals[order]
    _, counts = np.unique(group, return_counts=True)
    return counts, cols, vals


def linking_keys(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """Owner pair and row key of each edge's four places in the aggregated linking rows.

    Edge ``e = (p, q)`` sits in the rows ``(p, A, a(q))``, ``(p, B, b(q))``,
    ``(q, A, a(p))`` and ``(q, B, b(p))``, in that order of blocks of length
    ``n_edges``; the key of row ``(owner, side, variable)`` is ``(owner * 2 +
    side) * width + variable`` with ``width = max(n_a, n_b) + 1``
    (:func:`link_key`), and :func:`build` makes one row per distinct key, in
    increasing key order.
    """
    p, q = problem.edge_p, problem.edge_q
    pa, pb = problem.pair_a, problem.pair_b
    owner = np.concatenate([p, p, q, q])
    side_b = np.repeat(np.array([0, 1, 0, 1], dtype=np.int64), len(p))
    other = np.concatenate([pa[q], pb[q], pa[p], pb[p]])
    return owner, link_key(problem, owner, side_b, other)


def ternary_linking_keys(problem: Problem) -> tuple[np.ndarray, np.ndarray]:
    """Owner pair and row key of each ternary term's six places in its linking rows.

    Term ``t = {p, q, r}`` sits in the rows ``(p, A, {a(q), a(r)})``, ``(p, B,
    {b(q), b(r)})``, then the same for ``q`` and for ``r``, in blocks of length
    ``n_ternary``; the key of row ``(owner, side, {k, m})`` with ``k < m`` is
    ``((owner * 2 + side) * width + k) * width + m`` (``width = max(n_a, n_b) +
    1``).  The keys do not meet the binary rows' keys: :func:`build` numbers the
    two families' rows apart.
    """
    t = (problem.tri_p, problem.tri_q, problem.tri_r)
    width = max(problem.n_a, problem.n_b) + 1
    owners, keys = [], []
    for own, one, two in ((0, 1, 2), (1, 0, 2), (2, 0, 1)):
        for side_b, side in ((0, problem.pair_a), (1, problem.pair_b)):
            k, m = side[t[one]], side[t[two]]
            lo, hi = np.minimum(k, m), np.maximum(k, m)
            owners.append(t[own])
            keys.append(((t[own] * 2 + side_b) * width + lo) * width + hi)
    return np.concatenate(owners), np.concatenate(keys)


def link_key(problem: Problem, owner: np.ndarray, side_b: np.ndarray,
             other: np.ndarray) -> np.ndarray:
    """The row key of linking row ``(owner pair, side (0: A, 1: B), other variable)``."""
    width = max(problem.n_a, problem.n_b) + 1
    return (np.asarray(owner, dtype=np.int64) * 2 + side_b) * width + other


def build(problem: Problem, linking: Linking = "aggregated",
          symmetry: Symmetry | None = None) -> Model:
    """Build the MIP of ``problem`` (see module docstring).

    With ``symmetry``, the ordering rows of
    :func:`~smatchpp.alignment.solvers.symmetry.ordering_rows` are added.
    """
    P, Q, T = problem.n_pairs, problem.n_edges, problem.n_ternary
    pa, pb = problem.pair_a, problem.pair_b
    counts_list, cols_list, vals_list, upper_list = [], [], [], []
    x = np.arange(P, dtype=np.int64)
    for side in (pa, pb):  # assignment rows
        c, cols, vals = _rows_from_groups(side, x, np.ones(P))
        counts_list.append(c)
        cols_list.append(cols)
        vals_list.append(vals)
        upper_list.append(np.ones(len(c)))
    if Q:
        e = np.arange(Q, dtype=np.int64) + P
        p, q = problem.edge_p, problem.edge_q
        if linking == "aggregated":
            owner, key = linking_keys(problem)
        else:
            owner = np.concatenate([p, q])
            key = np.arange(2 * Q, dtype=np.int64)
        _linking_rows(np.tile(e, len(owner) // Q), owner, key,
                      counts_list, cols_list, vals_list, upper_list)
    if T:
        z = np.arange(T, dtype=np.int64) + P + Q
        if linking == "aggregated":
            owner, key = ternary_linking_keys(problem)
        else:
            owner = np.concatenate([problem.tri_p, problem.tri_q, problem.tri_r])
            key = np.arange(3 * T, dtype=np.int64)
        _linking_rows(np.tile(z, len(owner) // T), owner, key,
                      counts_list, cols_list, vals_list, upper_list)
    for cols, vals in ordering_rows(problem, symmetry) if symmetry else ():
        counts_list.append(np.array([len(cols)]))
        cols_list.append(cols)
        vals_list.append(vals)
        upper_list.append(np.zeros(1))
    counts = np.concatenate(counts_list) if counts_list else np.zeros(0, dtype=np.int64)
    start = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=start[1:])
    cost = [problem.unary, problem.weight] + ([problem.tri_weight] if T else [])
    return Model(P, Q + T, np.concatenate(cost), start,
                 np.concatenate(cols_list).astype(np.int32),
                 np.concatenate(vals_list), np.concatenate(upper_list))


def with_rows(model: Model, start: np.ndarray, cols: np.ndarray, vals: np.ndarray,
              upper: np.ndarray | None = None) -> Model:
    """``model`` with more rows (CSR ``start``, ``cols``, ``vals``; right-hand sides ``upper``,
    1 by default) after its own."""
    n = len(start) - 1
    row_start = np.concatenate([model.row_start, model.row_start[-1] + np.asarray(start[1:])])
    return Model(model.n_x, model.n_y, model.cost, row_start,
                 np.concatenate([model.row_index, np.asarray(cols, dtype=np.int32)]),
                 np.concatenate([model.row_value, vals]),
                 np.concatenate([model.row_upper, np.ones(n) if upper is None else upper]))


def _linking_rows(cols_y: np.ndarray, owner: np.ndarray, key: np.ndarray, counts_list: list,
                  cols_list: list, vals_list: list, upper_list: list) -> None:
    """Append one ``<= 0`` row per distinct ``key``: its term columns, minus its owner's ``x``."""
    uniq, inverse = np.unique(key, return_inverse=True)
    inverse = inverse.ravel()
    row_owner = np.empty(len(uniq), dtype=np.int64)
    row_owner[inverse] = owner
    # each row: the y's of its group with +1, then its owner x with -1
    group = np.concatenate([inverse, np.arange(len(uniq))])
    cols = np.concatenate([cols_y, row_owner])
    vals = np.concatenate([np.ones(len(cols_y)), -np.ones(len(uniq))])
    c, cols, vals = _rows_from_groups(group, cols, vals)
    counts_list.append(c)
    cols_list.append(cols)
    vals_list.append(vals)
    upper_list.append(np.zeros(len(c)))


def start_values(problem: Problem, alignment: Alignment) -> np.ndarray:
    """Column values of ``alignment`` (a feasible MIP start: ``y_e = x_p x_q``, ``z_t = x_p x_q x_r``)."""
    chosen = problem.selected(alignment).astype(np.float64)
    y = chosen[problem.edge_p] * chosen[problem.edge_q]
    if not problem.n_ternary:
        return np.concatenate([chosen, y])
    z = chosen[problem.tri_p] * chosen[problem.tri_q] * chosen[problem.tri_r]
    return np.concatenate([chosen, y, z])


class MipSolver:
    """Base of the MIP backends: the linking choice, symmetry, the empty problem, the warm start.

    With ``symmetry`` (the default), interchangeable variables get ordering
    rows (:mod:`smatchpp.alignment.solvers.symmetry`) and the warm start is moved
    into the ordered region; the result's ``stats`` count the variables in a
    class (``symmetric_vars``).
    """

    name = "mip"

    def __init__(self, linking: Linking = "aggregated", symmetry: bool = True,
                 work_limit: int | None = None) -> None:
        self.linking = linking
        self.symmetry = symmetry
        self.work_limit = work_limit

    def solve(self, problem: Problem, time_limit: float | None = None,
              warm_start: Alignment | None = None, budget: Budget | None = None) -> SolveResult:
        """Solve :func:`build`'s model of ``problem`` (see :class:`~.base.Solver`).

        ``budget``: the work budget to draw from (by default a fresh one of ``work_limit``).
        """
        budget = budget or Budget(self.work_limit)
        if problem.n_pairs == 0:
            return SolveResult(empty_alignment(problem), problem.constant, problem.constant,
                               "optimal", "mip")
        symmetry = interchangeable(problem) if self.symmetry else Symmetry()
        if warm_start is not None and symmetry:
            warm_start = canonical(problem, warm_start, symmetry)
        alignment, upper = self._solve(build(problem, self.linking, symmetry), problem,
                                       time_limit, warm_start, budget)
        objective = problem.objective(alignment)
        # a backend stopped by its limit may hold a worse solution than the one it was given
        start_value = -np.inf if warm_start is None else problem.objective(warm_start)
        if start_value > objective:
            alignment, objective = np.asarray(warm_start), start_value
        upper = max(upper, objective)
        done = certified(problem, objective, upper)
        if done and problem.integral:
            upper = objective
        return SolveResult(alignment, objective, upper, "optimal" if done else "time_limit",
                           "mip", stats={"symmetric_vars": symmetry.n_vars})

    def _solve(self, model: Model, problem: Problem, time_limit: float | None,
               warm_start: Alignment | None, budget: Budget) -> tuple[Alignment, float]:
        """The backend's best alignment and its proven upper bound (``inf`` if none)."""
        raise NotImplementedError

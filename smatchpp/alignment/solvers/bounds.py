"""Cheap upper bounds on a problem's optimum, in increasing cost.

* ``problem.label_bound``: the matcher's label-count bound (set by the compiler);
* :func:`star_bound`: every chosen pair ``p`` earns at most its unary term plus
  half of its best binary term towards each other variable, ``v_p = u_p + 1/2
  min(sum_k max_{q: a(q)=k} w_pq, sum_l max_{q: b(q)=l} w_pq)``; since the
  objective equals ``sum_{p chosen} (u_p + 1/2 sum_{q chosen} w_pq)`` and a
  matching uses each variable once, the best assignment under ``v`` bounds the
  optimum (solved with scipy's ``linear_sum_assignment``).  On small problems
  the weaker ``min(sum of row maxima, sum of column maxima)`` of ``v`` is used
  instead: the LP that follows is cheap there, and a process that scores small
  graphs never pays scipy.optimize's 0.4 s import;
* :func:`~smatchpp.alignment.solvers.highs.lp_bound`: the LP relaxation of the MIP.

Ternary terms (none in AMR, where nothing below changes): every bound here is
computed on :meth:`~smatchpp.alignment.problem.Problem.binary_relaxation`, which splits
each ternary term ``w`` into three binary terms of ``w / 3``.  It is a valid
upper bound: for 0/1 values ``x_p x_q x_r <= (x_p x_q + x_p x_r + x_q x_r) / 3``,
so every alignment is worth at least as much in the relaxation, whose optimum
therefore bounds the problem's, and each bound below bounds that optimum.

>>> from smatchpp.api import compile_strings
>>> p = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> p.label_bound, star_bound(p)  # the labels allow 4 matches, the structure 3
(4.0, 3.0)
"""

from __future__ import annotations

import numpy as np

from ..problem import Problem
from .base import Limits, certified

__all__ = ["star_bound", "pair_potential", "sparse_assignment", "branch_star_bound", "fix_pair",
           "dense_assignment", "lagrangian_star_bound"]

#: up to this many cells (128 MB of float64) the star assignment is solved on a dense
#: matrix (scipy's ``linear_sum_assignment``), above it on the sparse pairs
#: (:func:`sparse_assignment`).  On a 150-sentence Bio pair (3,650 x 3,650 variables,
#: 3,039,331 pairs) the dense solve took 1.1 s and the sparse one 16.8 s, same value
_DENSE_LIMIT = 16_000_000
#: below this many candidate pairs, too (measured on BAMBOO: of 2335 pairs the
#: assignment certified, the row/column bound certified 1915; the LP takes the
#: rest at about 0.4 ms each, less than importing scipy.optimize once)
ASSIGNMENT_MIN_PAIRS = 500


def group_max_sum(owner: np.ndarray, other: np.ndarray, w: np.ndarray, n_pairs: int,
                   width: int) -> np.ndarray:
    """For each pair: sum over other variables of the max weight towards that variable.

    One sort on the group key and a segmented maximum (``np.maximum.reduceat``);
    the groups' maxima are added per owner in key order, as sorting on the key
    and the weight together did, so the sums are the same to the last bit (3.2
    times faster on the 3.6 M binary terms of a 150-sentence Bio pair).

    >>> group_max_sum(np.array([0, 0, 0, 1]), np.array([5, 5, 6, 5]),
    ...               np.array([1.0, 3.0, 2.0, 4.0]), 3, 10).tolist()
    [5.0, 4.0, 0.0]
    """
    if not len(owner):
        return np.zeros(n_pairs)
    key = owner * width + other
    order = np.argsort(key, kind="stable")
    key = key[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    best = np.maximum.reduceat(w[order], starts)
    return np.bincount(owner[order[starts]], weights=best, minlength=n_pairs).astype(np.float64)


def pair_potential(problem: Problem) -> np.ndarray:
    """``v_p`` of the star bound for every candidate pair (of the binary relaxation)."""
    problem = problem.binary_relaxation()
    p, q, w = problem.edge_p, problem.edge_q, problem.weight
    owner = np.concatenate([p, q])
    other = np.concatenate([q, p])
    ww = np.concatenate([w, w])
    width = max(problem.n_a, problem.n_b) + 1
    side_a = group_max_sum(owner, problem.pair_a[other], ww, problem.n_pairs, width)
    side_b = group_max_sum(owner, problem.pair_b[other], ww, problem.n_pairs, width)
    return problem.unary + 0.5 * np.minimum(side_a, side_b)


def star_bound(problem: Problem, assignment: bool | None = None,
               limits: Limits | None = None) -> float:
    """Assignment bound on pair potentials (see module docstring).

    ``assignment``: solve the assignment (``True``) or take the row/column
    bound (``False``); by default the assignment is solved from
    :data:`ASSIGNMENT_MIN_PAIRS` pairs up, on a dense matrix while it has at
    most :data:`_DENSE_LIMIT` cells and on the sparse pairs above that.
    ``limits``: if they have expired, the row/column bound (linear time) is
    returned instead of solving the assignment.
    """
    if problem.n_pairs == 0:
        return problem.constant
    integral = problem.integral  # the optimum bounded is this problem's, not the relaxation's
    problem = problem.binary_relaxation()  # valid with ternary terms: see the module docstring
    v = pair_potential(problem)
    if assignment is None:
        assignment = problem.n_pairs >= ASSIGNMENT_MIN_PAIRS
    if limits is not None and limits.expired():
        assignment = False
    if not assignment:
        rows = np.zeros(problem.n_a)
        cols = np.zeros(problem.n_b)
        np.maximum.at(rows, problem.pair_a, v)
        np.maximum.at(cols, problem.pair_b, v)
        value = min(rows.sum(), cols.sum())
    elif not dense_assignment(problem.n_a, problem.n_b):
        value = sparse_assignment(problem.n_a, problem.n_b, problem.pair_a, problem.pair_b, v)
    else:
        from scipy.optimize import linear_sum_assignment  # slow import: only when needed
        dense = np.zeros((problem.n_a, problem.n_b))
        dense[problem.pair_a, problem.pair_b] = v
        r, c = linear_sum_assignment(dense, maximize=True)
        value = dense[r, c].sum()
    value += problem.constant
    if integral:
        value = np.floor(value + 1e-6)
    return float(value)


def dense_assignment(n_a: int, n_b: int) -> bool:
    """True if the star assignment of ``n_a x n_b`` variables is solved on a dense matrix.

    >>> dense_assignment(3650, 3656), dense_assignment(5000, 5000)
    (True, False)
    """
    return n_a * n_b <= _DENSE_LIMIT


def sparse_assignment(n_a: int, n_b: int, pair_a: np.ndarray, pair_b: np.ndarray,
                      value: np.ndarray) -> float:
    """Value of a maximum-weight matching on the candidate pairs, in memory linear in them.

    The matching may leave variables unmatched; scipy's sparse solver wants a
    *full* matching, so each side gets a copy of the other side's variables:
    ``i`` may stay unmatched by taking its own dummy ``i'`` (cost 0), and for
    every pair ``(i, j)`` the two dummies ``j'`` and ``i'`` may match each
    other (cost 0) exactly when the real pair is not used.  Every maximum
    matching of the pairs extends to a full matching of cost ``-value`` and
    back, so the minimum full matching is minus the maximum matching.  Costs
    are shifted by a constant ``c`` (every full matching has ``n_a + n_b``
    edges), because the sparse solver drops explicit zeros.

    >>> sparse_assignment(2, 2, np.array([0, 0, 1]), np.array([0, 1, 0]),
    ...                   np.array([3.0, 2.0, 2.0]))
    4.0
    >>> sparse_assignment(2, 1, np.array([0, 1]), np.array([0, 0]), np.array([1.0, 5.0]))
    5.0
    """
    from scipy.sparse import csr_matrix  # slow imports: only when needed
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching
    value = np.maximum(np.asarray(value, dtype=np.float64), 0.0)
    n = n_a + n_b
    shift = float(value.max(initial=0.0)) + 1.0
    a_dummy, b_dummy = np.arange(n_a), np.arange(n_b)
    # rows: A variables, then B's dummies; columns: B variables, then A's dummies
    rows = np.concatenate([pair_a, a_dummy, n_a + pair_b])
    cols = np.concatenate([pair_b, n_b + a_dummy, n_b + pair_a])
    cost = np.concatenate([shift - value, np.full(n_a, shift), np.full(len(pair_a), shift)])
    # variables without a candidate pair still need their dummy edge: B variable j
    # is matched to B dummy row n_a + j, and A dummy column n_b + i to A variable i
    rows = np.concatenate([rows, n_a + b_dummy])
    cols = np.concatenate([cols, b_dummy])
    cost = np.concatenate([cost, np.full(n_b, shift)])
    graph = csr_matrix((cost, (rows, cols)), shape=(n, n))
    r, c = min_weight_full_bipartite_matching(graph)
    real = (r < n_a) & (c < n_b)
    total = float(np.asarray(graph[r[real], c[real]]).sum()) if real.any() else 0.0
    return float(real.sum()) * shift - total


def fix_pair(problem: Problem, p: int | None, variable: int) -> Problem:
    """The problem left once A variable ``variable`` is mapped by pair ``p`` (``None``: unmatched).

    Pairs that share a variable with ``p`` are gone; ``p``'s unary term goes
    to the constant and each binary term ``w_pq`` into ``q``'s unary term
    (``q`` earns it exactly when chosen, since ``p`` is).  Its optimum is the
    best value of the solutions that map ``variable`` that way.

    >>> from smatchpp.api import compile_strings
    >>> pr = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
    >>> pr.pair_a.tolist(), pr.pair_b.tolist()
    ([0, 0, 1], [0, 1, 0])
    >>> fixed = fix_pair(pr, 1, 0)  # a -> y: only b -> x is left, and it earns the ARG0 match too
    >>> fixed.constant, fixed.pair_a.tolist(), fixed.pair_b.tolist(), fixed.unary.tolist()
    (1.0, [1], [0], [2.0])
    """
    pa, pb = problem.pair_a, problem.pair_b
    unary = problem.unary.copy()
    constant = problem.constant
    if p is None:
        keep = pa != variable
    else:
        keep = (pa != pa[p]) & (pb != pb[p])
        constant += float(unary[p])
        ep, eq, w = problem.edge_p, problem.edge_q, problem.weight
        np.add.at(unary, eq[ep == p], w[ep == p])
        np.add.at(unary, ep[eq == p], w[eq == p])
    if problem.n_ternary:
        return _fix_ternary(problem, p, keep, unary, constant)
    index = np.flatnonzero(keep)
    local = np.full(problem.n_pairs, -1, dtype=np.int64)
    local[index] = np.arange(len(index))
    alive = keep[problem.edge_p] & keep[problem.edge_q]
    return Problem(problem.n_a, problem.n_b, pa[index], pb[index], unary[index],
                   local[problem.edge_p[alive]], local[problem.edge_q[alive]],
                   problem.weight[alive], constant=constant, tolerance=problem.tolerance)


def _fix_ternary(problem: Problem, p: int | None, keep: np.ndarray, unary: np.ndarray,
                 constant: float) -> Problem:
    """:func:`fix_pair` with ternary terms: a term of ``p`` becomes a binary term of its
    other two pairs (earned exactly when both are chosen), the others stay if all their
    pairs do; ``unary`` and ``constant`` already hold ``p``'s unary and binary terms."""
    pa, pb = problem.pair_a, problem.pair_b
    t = np.stack([problem.tri_p, problem.tri_q, problem.tri_r], axis=1)
    w = problem.tri_weight
    alive = keep[t].all(axis=1)
    if p is None:
        first = second = np.zeros(0, dtype=np.int64)
        tw = np.zeros(0)
    else:
        own = (t == p).any(axis=1)
        others = np.sort(np.where(t[own] == p, -1, t[own]), axis=1)[:, 1:]
        first, second, tw = others[:, 0], others[:, 1], w[own]
    edges = keep[problem.edge_p] & keep[problem.edge_q]
    ep = np.concatenate([problem.edge_p[edges], first])
    eq = np.concatenate([problem.edge_q[edges], second])
    index = np.flatnonzero(keep)
    t = t[alive]
    return Problem.from_terms(
        problem.n_a, problem.n_b, unary=(pa[index], pb[index], unary[index]),
        binary=(pa[ep], pb[ep], pa[eq], pb[eq], np.concatenate([problem.weight[edges], tw])),
        ternary=(pa[t[:, 0]], pb[t[:, 0]], pa[t[:, 1]], pb[t[:, 1]], pa[t[:, 2]], pb[t[:, 2]],
                 w[alive]),
        constant=constant, tolerance=problem.tolerance)


#: :func:`branch_star_bound` branches on a variable with at most this many candidate pairs
MAX_BRANCHES = 4


def branch_star_bound(problem: Problem, limits: Limits | None = None) -> float:
    """The star bound, branched on the A variable with the largest pair potential.

    Every solution leaves that variable unmatched or maps it by exactly one of
    its candidate pairs; the star bound of each branch's problem
    (:func:`fix_pair`) bounds that branch, so their maximum bounds the optimum.
    It is tighter where one variable's binary terms are counted by halves
    that cannot all be earned together: the root of a document, whose
    ``:sntN`` terms give the star potential about half a match per sentence
    (on a 70-sentence Bio pair, shifted by one sentence, most of the star
    bound's slack).  Returns ``inf`` if that variable has more than
    :data:`MAX_BRANCHES` pairs; branches run under ``limits`` (when they
    expire, a branch gets the row/column bound, still valid).

    >>> from smatchpp.api import compile_strings
    >>> pr = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
    >>> branch_star_bound(pr)
    3.0
    """
    if problem.n_pairs == 0:
        return problem.constant
    original = problem
    problem = problem.binary_relaxation()  # valid with ternary terms: see the module docstring
    v = pair_potential(problem)
    best = np.zeros(problem.n_a)
    np.maximum.at(best, problem.pair_a, v)
    variable = int(np.argmax(best))
    pairs = np.flatnonzero(problem.pair_a == variable)
    if len(pairs) > MAX_BRANCHES:
        return float("inf")
    branches = [None, *pairs.tolist()]
    value = max(star_bound(fix_pair(problem, p, variable), limits=limits) for p in branches)
    if original.n_ternary and original.integral:  # the relaxation's branches are fractional
        value = float(np.floor(value + 1e-6))
    return value


#: the subgradient step of :func:`lagrangian_star_bound` when no lower bound is known
#: (``STEP / sqrt(1 + iteration)``, in units of each binary term's weight)
LAGRANGE_STEP = 0.5


def lagrangian_star_bound(problem: Problem, limits: Limits | None = None, iterations: int = 50,
                          lower: float | None = None) -> float:
    """The star bound with each binary term split unevenly, the split improved by subgradient steps.

    The star bound gives each end of a binary term ``e = (p, q)`` half of its
    weight.  Any split ``lam_p + lam_q = w_e`` with ``lam >= 0`` gives a valid
    bound the same way: a solution's value is ``sum_{p chosen} (u_p + sum_{e =
    (p, q), q chosen} lam_p(e))``; the chosen ``q`` of one ``p`` use distinct A
    and distinct B variables, so that sum is at most ``v_p = u_p + min(sum_k
    max_{a(q)=k} lam_p, sum_l max_{b(q)=l} lam_p)``, and a matching's sum of
    ``v`` is at most the assignment on ``v``.  Each iteration solves that
    assignment (dense: :func:`dense_assignment` must hold, else ``inf`` is
    returned) and moves weight, on every term that an assigned pair counts and
    its other end does not, towards the other end (a subgradient step of the
    bound in the split; Polyak's step towards ``lower`` when it is given).
    Returns the smallest bound met (floored for integral problems); it stops
    after ``iterations`` or when ``limits`` expire (every iterate is valid).

    >>> from smatchpp.api import compile_strings
    >>> pr = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
    >>> lagrangian_star_bound(pr)
    3.0
    """
    if problem.n_pairs == 0:
        return problem.constant
    if not dense_assignment(problem.n_a, problem.n_b):
        return float("inf")
    original = problem  # whose optimum is bounded: its integrality, its tolerance
    problem = problem.binary_relaxation()  # valid with ternary terms: see the module docstring
    from scipy.optimize import linear_sum_assignment  # slow import: only when needed
    n_pairs, n_edges = problem.n_pairs, problem.n_edges
    ep, eq, w = problem.edge_p, problem.edge_q, problem.weight
    owner = np.concatenate([ep, eq])
    other = np.concatenate([eq, ep])
    width = max(problem.n_a, problem.n_b) + 1
    sides = [_Groups(owner, owner * width + side[other], n_pairs)
             for side in (problem.pair_a, problem.pair_b)]
    share = np.concatenate([0.5 * w, 0.5 * w])  # slot e: p's share, slot n_edges + e: q's
    dense = np.zeros((problem.n_a, problem.n_b))
    best = float("inf")
    for iteration in range(iterations):
        (sum_a, max_a), (sum_b, max_b) = (g.evaluate(share) for g in sides)
        value = problem.unary + np.minimum(sum_a, sum_b)
        dense[problem.pair_a, problem.pair_b] = value
        rows, cols = linear_sum_assignment(dense, maximize=True)
        total = float(dense[rows, cols].sum()) + problem.constant
        bound = float(np.floor(total + 1e-6)) if original.integral else total
        best = min(best, bound)
        if (lower is not None and certified(original, lower, best)) or iteration == iterations - 1 \
                or (limits is not None and limits.expired()):
            break
        target = np.full(problem.n_a, -1, dtype=np.int64)
        target[rows] = cols
        chosen = target[problem.pair_a] == problem.pair_b
        # the slots a chosen pair counts: the maxima of its binding side
        counted = chosen[owner] & np.where((sum_a <= sum_b)[owner], max_a, max_b)
        direction = counted[:n_edges].astype(np.float64) - counted[n_edges:]
        if not direction.any():
            break  # no term is counted by one end only: the split cannot improve
        if lower is not None and total > lower:
            step = min((total - lower) / float(np.sum((direction * w) ** 2)), 1.0)
        else:
            step = LAGRANGE_STEP / np.sqrt(1.0 + iteration)
        first = np.clip(share[:n_edges] - step * w * direction, 0.0, w)
        share = np.concatenate([first, w - first])
    return best


class _Groups:
    """The slots (one per end of a binary term) grouped by owner pair and other variable."""

    def __init__(self, owner: np.ndarray, key: np.ndarray, n_pairs: int) -> None:
        self.order = np.argsort(key, kind="stable")
        key = key[self.order]
        self.starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]) if len(key) else key
        self.owner = owner[self.order[self.starts]]
        self.size = np.diff(np.r_[self.starts, len(key)])
        self.n_pairs = n_pairs

    def evaluate(self, share: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per pair the sum of its groups' maxima; and a mask of one maximal slot per group."""
        values = share[self.order]
        if not len(values):
            return np.zeros(self.n_pairs), np.zeros(0, dtype=bool)
        best = np.maximum.reduceat(values, self.starts)
        sums = np.bincount(self.owner, weights=best, minlength=self.n_pairs).astype(np.float64)
        at_max = np.flatnonzero(values == np.repeat(best, self.size))
        group = np.searchsorted(self.starts, at_max, side="right") - 1
        first = at_max[np.r_[True, group[1:] != group[:-1]]]
        mask = np.zeros(len(values), dtype=bool)
        mask[self.order[first]] = True
        return sums, mask

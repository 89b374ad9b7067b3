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
* :func:`~smatchpp.solvers.highs.lp_bound`: the LP relaxation of the MIP.

>>> from smatchpp.api import compile_strings
>>> p = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> p.label_bound, star_bound(p)  # the labels allow 4 matches, the structure 3
(4.0, 3.0)
"""

from __future__ import annotations

import numpy as np

from ..problem import Problem
from .base import Limits

__all__ = ["star_bound", "pair_potential", "sparse_assignment", "branch_star_bound", "fix_pair"]

#: above this many cells the assignment is replaced by the cheaper row/column bound
_DENSE_LIMIT = 4_000_000
#: below this many candidate pairs, too (measured on BAMBOO: of 2335 pairs the
#: assignment certified, the row/column bound certified 1915; the LP takes the
#: rest at about 0.4 ms each, less than importing scipy.optimize once)
ASSIGNMENT_MIN_PAIRS = 500


def group_max_sum(owner: np.ndarray, other: np.ndarray, w: np.ndarray, n_pairs: int,
                   width: int) -> np.ndarray:
    """For each pair: sum over other variables of the max weight towards that variable."""
    out = np.zeros(n_pairs)
    if not len(owner):
        return out
    key = owner * width + other
    order = np.lexsort((-w, key))
    key, w, owner = key[order], w[order], owner[order]
    first = np.ones(len(key), dtype=bool)
    first[1:] = key[1:] != key[:-1]
    np.add.at(out, owner[first], w[first])
    return out


def pair_potential(problem: Problem) -> np.ndarray:
    """``v_p`` of the star bound for every candidate pair."""
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
    elif problem.n_a * problem.n_b > _DENSE_LIMIT:
        value = sparse_assignment(problem.n_a, problem.n_b, problem.pair_a, problem.pair_b, v)
    else:
        from scipy.optimize import linear_sum_assignment  # slow import: only when needed
        dense = np.zeros((problem.n_a, problem.n_b))
        dense[problem.pair_a, problem.pair_b] = v
        r, c = linear_sum_assignment(dense, maximize=True)
        value = dense[r, c].sum()
    value += problem.constant
    if problem.integral:
        value = np.floor(value + 1e-6)
    return float(value)


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
    index = np.flatnonzero(keep)
    local = np.full(problem.n_pairs, -1, dtype=np.int64)
    local[index] = np.arange(len(index))
    alive = keep[problem.edge_p] & keep[problem.edge_q]
    return Problem(problem.n_a, problem.n_b, pa[index], pb[index], unary[index],
                   local[problem.edge_p[alive]], local[problem.edge_q[alive]],
                   problem.weight[alive], constant=constant, tolerance=problem.tolerance)


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
    v = pair_potential(problem)
    best = np.zeros(problem.n_a)
    np.maximum.at(best, problem.pair_a, v)
    variable = int(np.argmax(best))
    pairs = np.flatnonzero(problem.pair_a == variable)
    if len(pairs) > MAX_BRANCHES:
        return float("inf")
    branches = [None, *pairs.tolist()]
    return max(star_bound(fix_pair(problem, p, variable), limits=limits) for p in branches)

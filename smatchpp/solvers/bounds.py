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

__all__ = ["star_bound", "pair_potential"]

#: above this many cells the assignment is replaced by the cheaper row/column bound
_DENSE_LIMIT = 4_000_000
#: below this many candidate pairs, too (measured on BAMBOO: of 2335 pairs the
#: assignment certified, the row/column bound certified 1915; the LP takes the
#: rest at about 0.4 ms each, less than importing scipy.optimize once)
ASSIGNMENT_MIN_PAIRS = 500


def _group_max_sum(owner: np.ndarray, other: np.ndarray, w: np.ndarray, n_pairs: int,
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
    side_a = _group_max_sum(owner, problem.pair_a[other], ww, problem.n_pairs, width)
    side_b = _group_max_sum(owner, problem.pair_b[other], ww, problem.n_pairs, width)
    return problem.unary + 0.5 * np.minimum(side_a, side_b)


def star_bound(problem: Problem, assignment: bool | None = None) -> float:
    """Assignment bound on pair potentials (see module docstring).

    ``assignment``: solve the assignment (``True``) or take the row/column
    bound (``False``); by default the assignment is solved from
    :data:`ASSIGNMENT_MIN_PAIRS` pairs up while the dense matrix stays small.
    """
    if problem.n_pairs == 0:
        return problem.constant
    v = pair_potential(problem)
    if assignment is None:
        assignment = problem.n_pairs >= ASSIGNMENT_MIN_PAIRS
    if not assignment or problem.n_a * problem.n_b > _DENSE_LIMIT:
        rows = np.zeros(problem.n_a)
        cols = np.zeros(problem.n_b)
        np.maximum.at(rows, problem.pair_a, v)
        np.maximum.at(cols, problem.pair_b, v)
        value = min(rows.sum(), cols.sum())
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

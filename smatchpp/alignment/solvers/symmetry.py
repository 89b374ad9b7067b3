"""Symmetry breaking: ordering constraints between interchangeable variables.

Two variables ``i, i'`` of A are *interchangeable* when swapping them maps the
problem onto itself: they have the same candidate partners with the same
unary terms, and the same binary terms (own partner, other pair, weight) and
ternary terms (own partner, the two other pairs, weight).
Such a swap turns every solution into one of the same value.  The same holds
for variables of B.  In AMR this is, e.g., two leaves with the same concept
hanging off the same node by the same role, which happens rarely
(``experiments/count_symmetry.py``: at most 1% of the variables).

**Why ordering them keeps the optimum.**  Write a solution as a 0/1 matrix
``X`` (rows: variables of A, columns: variables of B) and read it row by row
as one long 0/1 string.  The swaps generate a group that permutes rows within
each class of A and columns within each class of B, and leaves the objective
unchanged, so the lexicographically largest solution in the orbit of an
optimal solution is optimal too.  In it,

* rows ``i < i'`` of one class satisfy ``row_i >= row_i'`` (else swapping them
  makes the string larger at row ``i``); with at most one 1 per row, that is
  ``pos(i) <= pos(i')`` where ``pos(i)`` is the index of ``i``'s partner, or
  ``n_b`` if ``i`` is unmatched;
* columns ``j < j'`` of one class satisfy ``col_j >= col_j'``: at the first row
  where they differ, ``col_j`` must hold the 1 (else swapping the columns puts
  a 1 earlier in that row and nothing before it changes); that is
  ``pre(j) <= pre(j')``, ``pre`` being the partner's index or ``n_a``.

Both families hold at once, so the rows ``pos(i) <= pos(i')`` and ``pre(j) <=
pre(j')`` for consecutive members of each class cut off symmetric solutions
but never every optimum.  They are linear in the pair variables:
``pos(i) = n_b + sum_{p = (i, j)} (j - n_b) x_p``.

:func:`canonical` moves a start (e.g. the hill-climber's alignment) into the
ordered region without changing its value, so it stays a valid MIP start.

>>> from smatchpp.api import compile_strings
>>> p = compile_strings("(a / dog :mod (b / big) :mod (c / big))",
...                     "(x / dog :mod (y / big) :mod (z / big))")
>>> s = interchangeable(p)
>>> [c.tolist() for c in s.a], [c.tolist() for c in s.b]
([[1, 2]], [[1, 2]])
>>> canonical(p, np.array([0, 2, 1]), s).tolist()
[0, 1, 2]
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

from ..problem import Alignment, Problem

__all__ = ["Symmetry", "interchangeable", "ordering_rows", "canonical"]


@dataclass
class Symmetry:
    """Classes (sorted variable indices, size >= 2) of interchangeable variables of A and of B."""

    a: list[np.ndarray] = field(default_factory=list)
    b: list[np.ndarray] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.a or self.b)

    @property
    def n_vars(self) -> int:
        """How many variables are in a class (A and B)."""
        return sum(len(c) for c in self.a + self.b)


def _classes(problem: Problem, own: np.ndarray, partner: np.ndarray,
             other_own: np.ndarray) -> list[np.ndarray]:
    """Variables (on the ``own`` side) with equal signatures.

    A signature lists the variable's candidate partners with their unary
    terms, and every binary term of its pairs as (own partner, other pair,
    weight).  Two variables with a term between them never have equal
    signatures (each names the other, and variables that name themselves
    are left out), so equal signatures make the swap an automorphism.
    """
    signature: dict[int, list[tuple]] = defaultdict(list)
    for var, part, u in zip(own.tolist(), partner.tolist(), problem.unary.tolist()):
        signature[var].append((0, part, u, -1, -1))
    p, q = problem.edge_p, problem.edge_q
    for x, y in ((p, q), (q, p)):
        for var, part, w, k, l in zip(own[x].tolist(), partner[x].tolist(), problem.weight.tolist(),
                                      other_own[y].tolist(), partner[y].tolist()):
            signature[var].append((1, part, w, k, l))
    # a term between two pairs of one variable would name the variable itself: keep it out
    self_named = set(own[p][own[p] == own[q]].tolist())
    if problem.n_ternary:
        # a ternary term names its other two pairs as an unordered set; the swap of
        # ``var`` and ``var'`` maps a term of ``var``'s pairs whose other pairs use
        # neither (a term never holds two pairs of one variable, nor could an equal
        # signature name the other: see above) onto a term of ``var'``'s, weight kept
        t = (problem.tri_p, problem.tri_q, problem.tri_r)
        for x, y, z in ((0, 1, 2), (1, 0, 2), (2, 0, 1)):
            for var, part, w, k1, l1, k2, l2 in zip(
                    own[t[x]].tolist(), partner[t[x]].tolist(), problem.tri_weight.tolist(),
                    other_own[t[y]].tolist(), partner[t[y]].tolist(),
                    other_own[t[z]].tolist(), partner[t[z]].tolist()):
                signature[var].append((2, part, w) + tuple(sorted([(k1, l1), (k2, l2)])))
                if k1 == var or k2 == var:
                    self_named.add(var)
    groups: dict[tuple, list[int]] = defaultdict(list)
    for var in sorted(signature):
        if var not in self_named:
            groups[tuple(sorted(signature[var]))].append(var)
    classes = [np.array(g, dtype=np.int64) for g in groups.values() if len(g) > 1]
    return sorted(classes, key=lambda c: int(c[0]))


def interchangeable(problem: Problem) -> Symmetry:
    """The classes of interchangeable variables of ``problem`` (see the module docstring)."""
    pa, pb = problem.pair_a, problem.pair_b
    return Symmetry(_classes(problem, pa, pb, pa), _classes(problem, pb, pa, pb))


def ordering_rows(problem: Problem, symmetry: Symmetry) -> list[tuple[np.ndarray, np.ndarray]]:
    """One ``<= 0`` row (pair columns, coefficients) per consecutive pair of a class.

    For A: ``pos(i) - pos(i') <= 0`` with ``pos(i) = n_b + sum_{p=(i,j)} (j - n_b) x_p``
    (the constants cancel); for B the same with the roles swapped.
    """
    rows = []
    for own, partner, n_other, classes in (
            (problem.pair_a, problem.pair_b, problem.n_b, symmetry.a),
            (problem.pair_b, problem.pair_a, problem.n_a, symmetry.b)):
        if not classes:
            continue
        by_var = np.argsort(own, kind="stable")
        starts = np.searchsorted(own[by_var], np.arange(max(problem.n_a, problem.n_b) + 1))
        for cls in classes:
            for first, second in zip(cls[:-1].tolist(), cls[1:].tolist()):
                p1 = by_var[starts[first]:starts[first + 1]]
                p2 = by_var[starts[second]:starts[second + 1]]
                cols = np.concatenate([p1, p2])
                vals = np.concatenate([partner[p1] - n_other, n_other - partner[p2]]).astype(np.float64)
                rows.append((cols, vals))
    return rows


def _sorted_partners(partners: np.ndarray) -> np.ndarray:
    """Matched partners ascending, then the unmatched (``-1``)."""
    matched = np.sort(partners[partners >= 0])
    return np.concatenate([matched, np.full(len(partners) - len(matched), -1, dtype=np.int64)])


def canonical(problem: Problem, alignment: Alignment, symmetry: Symmetry) -> Alignment:
    """An alignment of the same value that satisfies :func:`ordering_rows`.

    Sorts the partners within each class of A, then the partners within each
    class of B, and repeats until nothing moves.  Each sort only undoes
    inversions, and undoing one makes the row-by-row string of the solution
    matrix lexicographically larger, so this ends.  Members of a class have
    the same candidates, so every new pair is a candidate pair.
    """
    result = np.array(alignment, dtype=np.int64)
    changed = bool(symmetry)
    while changed:
        changed = False
        for cls in symmetry.a:
            new = _sorted_partners(result[cls])
            if not np.array_equal(new, result[cls]):
                result[cls] = new
                changed = True
        inverse = np.full(problem.n_b, -1, dtype=np.int64)
        mapped = np.flatnonzero(result >= 0)
        inverse[result[mapped]] = mapped
        for cls in symmetry.b:  # classes are disjoint: each sort leaves the others' entries
            new = _sorted_partners(inverse[cls])
            if not np.array_equal(new, inverse[cls]):
                inverse[cls] = new
                result[new[new >= 0]] = cls[new >= 0]
                changed = True
    return result

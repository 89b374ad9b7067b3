"""Compiling two lists of *clauses* (terms over one to three variables) into a :class:`Problem`.

A clause is ``(label, variables)``: ``label`` is anything hashable that says
what the clause is apart from its variables (a DRS clause ``b2 Theme e1 x1``
is ``(("Theme",), (b2, e1, x1))``; ``b1 Name x1 "john"`` is ``(("Name",
'"john"'), (b1, x1))``: put the constants and, where they can differ, the
positions of the variables into the label), and ``variables`` is a tuple of
0 to 3 variable indices of its graph.  A clause of A and a clause of B match
under an alignment when their labels are equal, they have as many variables,
and the alignment maps A's variable at each position to B's at the same
position.  A clause that occurs ``c_A`` times in A and ``c_B`` times in B
matches ``min(c_A, c_B)`` times (multiset matching: a self-match is complete
even with repeated clauses), the rule relations follow in
:mod:`smatchpp.alignment.compile`.  So a clause over three distinct variables is a
ternary term, over two a binary term, over one a unary term, and over none a
constant.

*Symmetric* labels (optional): the last two variables of a clause with such a
label match either way round (Counter's ``EQU``, ``NEQ``, ``APX``, ``TAB``):
``b EQU x y`` matches ``b' EQU u v`` when ``x -> u, y -> v`` or ``x -> v, y -> u``,
and clauses that are equal up to that order count as one clause repeated.

Variable *kinds* (optional, one hashable per variable, e.g. ``"b"`` for DRS
boxes and ``"x"`` for discourse referents): a variable is only ever aligned
to one of its own kind; terms that would need a pair of two kinds are left
out, so no candidate pair mixes kinds.

Example: ``b1 REF x1; b1 dog "n.01" x1; b1 Agent e1 x1`` against the same with
other names; every clause matches under the identity alignment:

>>> a = [(("REF",), (0, 1)), (("dog", '"n.01"'), (0, 1)), (("Agent",), (0, 2, 1))]
>>> p = compile_clauses(a, a, 3, 3, kind_a="bxe", kind_b="bxe")
>>> p.n_pairs, p.n_edges, p.n_ternary, p.label_bound
(3, 1, 1, 3.0)
>>> p.objective(np.array([0, 1, 2])), p.objective(np.array([0, 1, -1]))
(3.0, 2.0)
"""

from __future__ import annotations

from collections import Counter
from typing import Collection, Hashable, Iterable, Sequence

import numpy as np

from .problem import CERTIFY_TOLERANCE, Problem

__all__ = ["Clause", "compile_clauses", "MAX_CLAUSE_VARIABLES"]

#: a clause: its label and the indices of its variables (see the module docstring)
Clause = tuple[Hashable, tuple[int, ...]]
#: a clause may have at most this many variables
MAX_CLAUSE_VARIABLES = 3


def _grouped(clauses: Iterable[Clause], n: int, side: str,
             symmetric: Collection[Hashable]) -> dict[tuple, Counter]:
    """``(label, arity) -> Counter(variables)``, every variable index checked; the last two
    variables of a symmetric label in increasing order."""
    groups: dict[tuple, Counter] = {}
    for number, clause in enumerate(clauses):
        try:
            label, variables = clause
            variables = tuple(int(v) for v in variables)
        except (TypeError, ValueError):
            raise ValueError(f"clause {number} of {side} is not (label, variables): {clause!r}") from None
        if len(variables) > MAX_CLAUSE_VARIABLES:
            raise ValueError(f"clause {number} of {side} has {len(variables)} variables; "
                             f"at most {MAX_CLAUSE_VARIABLES} are supported: {clause!r}")
        if any(v < 0 or v >= n for v in variables):
            raise ValueError(f"clause {number} of {side} names a variable outside 0..{n - 1}: "
                             f"{clause!r}")
        if len(variables) >= 2 and label in symmetric:
            variables = variables[:-2] + tuple(sorted(variables[-2:]))
        groups.setdefault((label, len(variables)), Counter())[variables] += 1
    return groups


def compile_clauses(clauses_a: Iterable[Clause], clauses_b: Iterable[Clause], n_a: int, n_b: int,
                    kind_a: Sequence[Hashable] | None = None,
                    kind_b: Sequence[Hashable] | None = None,
                    symmetric: Collection[Hashable] = (),
                    tolerance: float = CERTIFY_TOLERANCE) -> Problem:
    """The :class:`Problem` of aligning clause list ``clauses_a`` (over variables
    ``0..n_a-1``) to ``clauses_b`` (see the module docstring).

    Its optimum is the largest number of matched clauses over all alignments
    (each of at most ``min(c_A, c_B)`` copies), and ``label_bound`` the
    clause-label count bound ``sum min(count_A, count_B)`` over (label,
    arity).  ``kind_a`` / ``kind_b``: each variable's kind (both or neither);
    pairs of different kinds are never candidates.  ``symmetric``: the labels whose
    last two variables match either way round.  The problem is solved like
    any other (``Portfolio().solve(problem)``, certified); problems with
    ternary terms skip the compiled branch and bound and end in HiGHS.

    Cost: for each label, every A clause meets every B clause of that label
    (as relations with one role do in :mod:`smatchpp.alignment.compile`).

    >>> compile_clauses([("p", (0, 1, 2)), ("p", (0, 1, 2))], [("p", (2, 1, 0))], 3, 3).tri_weight
    array([1.])
    >>> sym = compile_clauses([("EQU", (0, 1, 2))], [("EQU", (0, 1, 2))], 3, 3, symmetric={"EQU"})
    >>> sym.n_ternary, sym.objective(np.array([0, 2, 1])), sym.objective(np.array([0, 1, 2]))
    (2, 1.0, 1.0)
    """
    if (kind_a is None) != (kind_b is None):
        raise ValueError("give the kinds of both sides' variables, or of neither")
    if kind_a is not None and (len(kind_a) != n_a or len(kind_b) != n_b):
        raise ValueError(f"kinds: {len(kind_a)} for {n_a} A variables, {len(kind_b)} for {n_b} B variables")
    symmetric = frozenset(symmetric)
    groups_a = _grouped(clauses_a, n_a, "A", symmetric)
    groups_b = _grouped(clauses_b, n_b, "B", symmetric)
    if kind_a is not None:
        ids: dict[Hashable, int] = {}
        kinds_a = np.array([ids.setdefault(k, len(ids)) for k in kind_a], dtype=np.int64)
        kinds_b = np.array([ids.setdefault(k, len(ids)) for k in kind_b], dtype=np.int64)
    constant = 0.0
    label_bound = 0.0
    terms: dict[int, list[tuple[np.ndarray, np.ndarray, np.ndarray]]] = {1: [], 2: [], 3: []}
    for key, found_a in groups_a.items():
        found_b = groups_b.get(key)
        if not found_b:
            continue
        arity = key[1]
        label_bound += min(sum(found_a.values()), sum(found_b.values()))
        if arity == 0:
            constant += min(found_a[()], found_b[()])
            continue
        va = np.array(list(found_a), dtype=np.int64).reshape(-1, arity)
        vb = np.array(list(found_b), dtype=np.int64).reshape(-1, arity)
        ca = np.array(list(found_a.values()), dtype=np.float64)
        cb = np.array(list(found_b.values()), dtype=np.float64)
        # every A clause against every B clause of the label
        ia = np.repeat(np.arange(len(va)), len(vb))
        ib = np.tile(np.arange(len(vb)), len(va))
        ways = [(ia, ib, vb[ib])]
        if arity >= 2 and key[0] in symmetric:
            # the other way round, where it is another alignment: both sides' last two differ
            # (else the two ways are one term, or neither is possible)
            other = (va[ia, -1] != va[ia, -2]) & (vb[ib, -1] != vb[ib, -2])
            swapped = vb[ib[other]]
            swapped[:, [-2, -1]] = swapped[:, [-1, -2]]
            ways.append((ia[other], ib[other], swapped))
        for ja, jb, vb_way in ways:
            if kind_a is not None:
                same = (kinds_a[va[ja]] == kinds_b[vb_way]).all(axis=1)
                ja, jb, vb_way = ja[same], jb[same], vb_way[same]
            terms[arity].append((va[ja], vb_way, np.minimum(ca[ja], cb[jb])))
    arrays = {}
    for arity, found in terms.items():
        if not found:
            continue
        va = np.concatenate([f[0] for f in found])
        vb = np.concatenate([f[1] for f in found])
        w = np.concatenate([f[2] for f in found])
        cols = []
        for position in range(arity):
            cols += [va[:, position], vb[:, position]]
        arrays[arity] = tuple(cols) + (w,)
    # from_terms merges terms of the same pairs, and rewrites or drops terms that repeat a
    # variable (a clause ``b1 EQU x1 x1`` matches ``b2 EQU x2 x2``, never ``b2 EQU x2 x3``)
    return Problem.from_terms(n_a, n_b, unary=arrays.get(1), binary=arrays.get(2),
                              ternary=arrays.get(3), constant=constant, label_bound=label_bound,
                              tolerance=tolerance)

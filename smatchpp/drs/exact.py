"""Counter's objective solved exactly: the most clauses two DRSs share under one mapping of
their variables.

The ``counter`` metric does not use :func:`solve`: it compiles the clauses into the shared
problem (:func:`smatchpp.alignment.clauses.compile_clauses`) and solves it with the registered
solvers (``--solver``).  :func:`solve`, a MIP written from Counter's rules alone, is kept as
the independent cross-check of that road (``tests/test_drs_counter.py``,
``experiments/check_counter_ternary.py``); :func:`count_matched` and :func:`matched_clauses`
count what a mapping matches (Counter's ``-prin`` division).

A mapping sends each test variable to at most one gold variable of the same type (a box to a
box, a referent to a referent), injectively.  Under it a test clause matches a gold clause with
the same label whose variables are the images of its own (a symmetric operator's last two
either way round); each clause matches at most once.  This is the number Counter's
hill-climber maximises (``hill_climbing.py``: a gold and a test clause count once, with weight
1; three-variable clauses need all three pairs, and are skipped when two of their pairs are the
same).

The problem is a small mixed-integer program, solved by HiGHS: a binary ``y[i, j]`` per
candidate variable pair (at most one per row and per column), a ``z[c, d, o]`` per test clause
``c``, gold clause ``d`` and orientation ``o`` that could match, at most each pair it needs
(``z <= y``), at most one per clause on either side.  ``z`` may be continuous: for integral
``y`` what is left is a bipartite matching, whose polytope is integral.  The mapping HiGHS
returns is counted again here (:func:`count_matched`, a maximum bipartite matching of the
clauses it matches), and the bound is HiGHS's dual bound rounded down, so that
``matched <= optimum <= upper`` holds whatever HiGHS reports; ``matched == upper`` certifies.

>>> from smatchpp.drs.clauses import counter_clauses
>>> a = counter_clauses([("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1"), ("b1", "Agent", "x1", "x2"),
...                      ("b1", "cat", '"n.01"', "x2")], include_ref=True)
>>> b = counter_clauses([("b2", "REF", "y1"), ("b2", "cat", '"n.01"', "y2"), ("b2", "dog", '"n.01"', "y1"),
...                      ("b2", "Agent", "y2", "y1")], include_ref=True)
>>> r = solve(a, b)
>>> (r.matched, r.upper, r.certified)
(3, 3, True)
>>> count_matched(a, b, r.mapping)
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from .clauses import Clause, CounterDrs, clause_id, detail_row

__all__ = ["CounterSolve", "solve", "count_matched", "matched_clauses", "clause_matches", "label_bound", "by_name",
           "detailed_counts", "clause_counts"]

def _highs():
    """A silent HiGHS instance (:func:`smatchpp.alignment.solvers.highs.new_highs`) for these models."""
    import highspy

    from ..alignment.solvers.highs import new_highs  # here: reading DRSs loads no solver

    h = new_highs()
    # presolve on: 4x faster on these small models (no MIP start is given, and the mapping
    # HiGHS returns is counted again, so its objective is never taken on trust)
    for name, value in (("output_flag", False), ("threads", 1), ("mip_rel_gap", 0.0), ("mip_abs_gap", 0.5),
                        ("presolve", "on")):
        if h.setOptionValue(name, value) != highspy.HighsStatus.kOk:
            raise RuntimeError(f"HiGHS refused option {name}={value!r}")
    return h


@dataclass(frozen=True)
class CounterSolve:
    """A pair's result: ``matched`` (reached by ``mapping``) <= optimum <= ``upper``."""

    matched: int
    upper: int
    mapping: tuple[tuple[int, int], ...]
    status: str  # "optimal" or "time_limit"

    @property
    def certified(self) -> bool:
        return self.matched == self.upper


def _orientations(c: Clause, d: Clause, ta: Sequence[str], tb: Sequence[str]) -> list[tuple[tuple[int, int], ...]]:
    """The sets of variable pairs under which test clause ``c`` matches gold clause ``d``."""
    if c.label != d.label or not (c.matchable and d.matchable) or len(c.vars) != len(d.vars):
        return []
    orders = [d.vars]
    if c.symmetric and len(d.vars) == 3:
        orders.append((d.vars[0], d.vars[2], d.vars[1]))
    out = []
    for order in orders:
        pairs = {}
        back = {}
        ok = True
        for i, j in zip(c.vars, order):
            if ta[i] != tb[j] or pairs.get(i, j) != j or back.get(j, i) != i:
                ok = False
                break
            pairs[i] = j
            back[j] = i
        if ok:
            found = tuple(sorted(pairs.items()))
            if found not in out:
                out.append(found)
    return out


def clause_matches(a: CounterDrs, b: CounterDrs) -> list[tuple[int, int, tuple[tuple[int, int], ...]]]:
    """Every ``(test clause, gold clause, variable pairs)`` that could match."""
    by_label: dict[tuple, list[int]] = {}
    for k, d in enumerate(b.clauses):
        by_label.setdefault(d.label, []).append(k)
    out = []
    for ci, c in enumerate(a.clauses):
        for di in by_label.get(c.label, ()):
            for pairs in _orientations(c, b.clauses[di], a.types, b.types):
                out.append((ci, di, pairs))
    return out


def count_matched(a: CounterDrs, b: CounterDrs, mapping: Mapping[int, int] | Sequence[tuple[int, int]]) -> int:
    """The clauses matched under ``mapping`` (test variable -> gold variable, injective): a
    maximum matching between the test and gold clauses it makes equal."""
    return len(matched_clauses(a, b, mapping))


def matched_clauses(a: CounterDrs, b: CounterDrs,
                    mapping: Mapping[int, int] | Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ``(test clause, gold clause)`` pairs of a maximum matching of the clauses that
    ``mapping`` makes equal (:func:`count_matched` counts them)."""
    from scipy.optimize import linear_sum_assignment

    m = dict(mapping)
    if len(set(m.values())) != len(m):
        raise ValueError("the mapping is not injective")
    edges = {(ci, di) for ci, di, pairs in clause_matches(a, b) if all(m.get(i) == j for i, j in pairs)}
    if not edges:
        return []
    rows = sorted({e[0] for e in edges})
    cols = sorted({e[1] for e in edges})
    r, c = {x: k for k, x in enumerate(rows)}, {x: k for k, x in enumerate(cols)}
    w = np.zeros((len(rows), len(cols)))
    for ci, di in edges:
        w[r[ci], c[di]] = 1.0
    ri, ci = linear_sum_assignment(w, maximize=True)
    return sorted((rows[x], cols[y]) for x, y in zip(ri, ci) if w[x, y] > 0)


def detailed_counts(a: CounterDrs, b: CounterDrs, mapping: Mapping[int, int] | Sequence[tuple[int, int]]
                    ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Counter's detailed counts (``-prin``; :data:`~smatchpp.drs.clauses.DETAIL_NAMES`:
    operators, roles, concepts, nouns, verbs, adjectives, adverbs, events) of a pair under
    ``mapping``: the matched, test and gold clauses of each kind.  As Counter
    (``get_mappings``, ``get_detailed_results``), a matched pair of clauses is divided by its
    test clause as written, the two DRSs' clauses by what they are matched as
    (:func:`~smatchpp.drs.clauses.detail_row`).

    >>> from smatchpp.drs.clauses import counter_clauses
    >>> a = counter_clauses([("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1"), ("b1", "Agent", "e1", "x1"),
    ...                      ("b1", "REF", "e1"), ("b1", "run", '"v.01"', "e1")])
    >>> b = counter_clauses([("b2", "REF", "y1"), ("b2", "cat", '"n.01"', "y1"), ("b2", "Agent", "f1", "y1"),
    ...                      ("b2", "REF", "f1"), ("b2", "run", '"v.01"', "f1")])
    >>> detailed_counts(a, b, solve(a, b).mapping)
    ((0, 1, 1, 0, 1, 0, 0, 1), (0, 1, 2, 1, 1, 0, 0, 1), (0, 1, 2, 1, 1, 0, 0, 1))
    """
    def total(rows) -> tuple[int, ...]:
        return tuple(sum(col) for col in zip(*rows)) if rows else (0,) * 8

    matched = total([detail_row(a.clauses[ci], written=True) for ci, _ in matched_clauses(a, b, mapping)])
    return matched, total([detail_row(c) for c in a.clauses]), total([detail_row(c) for c in b.clauses])


def clause_counts(a: CounterDrs, b: CounterDrs, mapping: Mapping[int, int] | Sequence[tuple[int, int]],
                  table: dict[str, list[int]] | None = None) -> dict[str, list[int]]:
    """Counter's counts of each clause name (``-ds``; :func:`~smatchpp.drs.clauses.clause_id`:
    an operator, a role, a concept with its sense) of a pair under ``mapping``, added to
    ``table`` (name -> ``[matched, test, gold]``, in Counter's order of first appearance): the
    matched clauses in the gold DRS's order, named by the test clause as written, then the
    test and the gold clauses left unmatched, a repeated clause included (Counter's
    ``get_mappings``, its ``idv_dict``).

    >>> from smatchpp.drs.clauses import counter_clauses
    >>> a = counter_clauses([("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1"), ("b1", "dog", '"n.01"', "x1")])
    >>> b = counter_clauses([("b2", "REF", "y1"), ("b2", "dog", '"n.01"', "y1"), ("b2", "AgentOf", "y1", "e1")])
    >>> clause_counts(a, b, solve(a, b).mapping)
    {'dog.n.01': [1, 2, 1], 'AgentOf': [0, 0, 1]}
    """
    table = {} if table is None else table

    def bump(name: str, row: tuple[int, int, int]) -> None:
        table[name] = [x + y for x, y in zip(table.get(name, (0, 0, 0)), row)]

    pairs = sorted(((a.clauses[ci], b.clauses[di]) for ci, di in matched_clauses(a, b, mapping)),
                   key=lambda p: p[1].at)
    for ca, _ in pairs:
        bump(clause_id(ca), (1, 1, 1))
    for drs, done, row in ((a, {ca.at for ca, _ in pairs}, (0, 1, 0)), (b, {cb.at for _, cb in pairs}, (0, 0, 1))):
        for k, written in enumerate(drs.written):
            if k not in done:
                bump(clause_id(drs.clauses[drs.became[k]], written), row)
    return table


def label_bound(a: CounterDrs, b: CounterDrs) -> int:
    """Each label matches at most as often as the rarer side has it: an upper bound."""
    count: dict[tuple, list[int]] = {}
    for side, drs in enumerate((a, b)):
        for c in drs.clauses:
            if c.matchable:
                count.setdefault(c.label, [0, 0])[side] += 1
    return sum(min(x, y) for x, y in count.values())


def by_name(a: CounterDrs, b: CounterDrs) -> tuple[tuple[int, int], ...]:
    """Each variable to the variable of the same name and type (a cheap start: a DRS against
    itself, or a parser's output that kept the gold names)."""
    index = {(n, t): j for j, (n, t) in enumerate(zip(b.names, b.types))}
    return tuple((i, index[(n, t)]) for i, (n, t) in enumerate(zip(a.names, a.types)) if (n, t) in index)


def solve(a: CounterDrs, b: CounterDrs, time_limit: float | None = None) -> CounterSolve:
    """The most clauses ``a`` (test) and ``b`` (gold) share under one mapping (module doc).
    A mapping by names that reaches :func:`label_bound` is certified without a MIP."""
    import highspy
    from scipy.sparse import coo_matrix

    bound0 = label_bound(a, b)
    if bound0 == 0:
        return CounterSolve(0, 0, (), "optimal")
    start = by_name(a, b)
    if count_matched(a, b, start) == bound0:
        return CounterSolve(bound0, bound0, start, "optimal")
    matches = clause_matches(a, b)
    if not matches:
        return CounterSolve(0, 0, (), "optimal")
    pair_col: dict[tuple[int, int], int] = {}
    for _, _, pairs in matches:
        for p in pairs:
            pair_col.setdefault(p, len(pair_col))
    n_y, n_z = len(pair_col), len(matches)
    rows, cols, vals, upper_rows = [], [], [], []

    def row(entries, ub):
        r = len(upper_rows)
        for col, v in entries:
            rows.append(r)
            cols.append(col)
            vals.append(v)
        upper_rows.append(ub)

    # aggregated linking: the matches of one test clause (or one gold clause) that need the pair
    # (i, j) together at most y[i, j] (tighter than z <= y for each match, and implied by it)
    linking: dict[tuple, list[int]] = {}
    for k, (ci, di, pairs) in enumerate(matches):
        for p in pairs:
            linking.setdefault(("a", ci, p), []).append(n_y + k)
            linking.setdefault(("b", di, p), []).append(n_y + k)
    for (side, clause, p), members in sorted(linking.items()):
        row([(c, 1.0) for c in members] + [(pair_col[p], -1.0)], 0.0)
    groups: dict[tuple[str, int], list[int]] = {}
    for k, (ci, di, _) in enumerate(matches):
        groups.setdefault(("a", ci), []).append(n_y + k)
        groups.setdefault(("b", di), []).append(n_y + k)
    for (i, j), col in pair_col.items():
        groups.setdefault(("ya", i), []).append(col)
        groups.setdefault(("yb", j), []).append(col)
    for key in sorted(groups):
        members = groups[key]
        if len(members) > 1:
            row([(c, 1.0) for c in members], 1.0)
    n = n_y + n_z
    A = coo_matrix((vals, (rows, cols)), shape=(len(upper_rows), n)).tocsc()
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, len(upper_rows)
    lp.col_cost_ = np.r_[np.zeros(n_y), np.ones(n_z)]
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.ones(n)
    lp.row_lower_ = np.full(len(upper_rows), -highspy.kHighsInf)
    lp.row_upper_ = np.asarray(upper_rows, dtype=float)
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = A.indptr.astype(np.int32)
    lp.a_matrix_.index_ = A.indices.astype(np.int32)
    lp.a_matrix_.value_ = A.data
    lp.integrality_ = [highspy.HighsVarType.kInteger] * n_y + [highspy.HighsVarType.kContinuous] * n_z
    h = _highs()
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    h.passModel(lp)
    h.run()
    status = h.getModelStatus()
    info = h.getInfo()
    x = np.asarray(h.getSolution().col_value) if info.primal_solution_status else np.zeros(n)
    mapping = tuple(sorted(p for p, col in pair_col.items() if x[col] > 0.5))
    if len({j for _, j in mapping}) != len(mapping) or len({i for i, _ in mapping}) != len(mapping):
        mapping = ()
    matched = count_matched(a, b, mapping)
    bound = info.mip_dual_bound
    upper = max(matched, min(bound0, int(np.floor(bound + 1e-6)))) if np.isfinite(bound) else bound0
    return CounterSolve(matched, upper, mapping, "optimal" if upper == matched else "time_limit")

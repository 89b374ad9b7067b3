"""Brute-force Smatch oracle for tiny graphs (test helper, not a test module).

It works directly on :class:`smatchpp.graphs.triples.TripleGraph` objects and uses
nothing from ``smatchpp.alignment.compile`` or ``smatchpp.alignment.solvers``: every injective
partial map from A's variables to B's is enumerated, A's triples are rewritten
through the map (an unmapped variable becomes a placeholder that matches
nothing) and the multiset intersection with B's triples is counted with
``collections.Counter``.  The same for clauses over up to three variables
(:func:`clause_brute_force`, DRS).  Only usable for graphs of at most a handful of
variables (the number of partial injective maps grows factorially).
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Iterable, Iterator, Sequence

from smatchpp.graphs.triples import TripleGraph

__all__ = ["MAX_VARS", "triple_multiset", "mapped_multiset", "matched_count", "partial_maps",
           "brute_force", "rescore", "clause_matched", "clause_brute_force", "problem_brute_force"]

#: refuse to enumerate bigger graphs: the oracle would be too slow
MAX_VARS = 6


class _Unmapped:
    """A placeholder for an unmapped A variable: equal to nothing but itself."""

    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"<unmapped {self.index}>"


def triple_multiset(g: TripleGraph) -> Counter:
    """B-side triples keyed on variable indices (``('v', j)``), duplicates counted."""
    return _triples(g, lambda i: ("v", i))


def _triples(g: TripleGraph, node) -> Counter:
    out: Counter = Counter()
    for i, concept in enumerate(g.concepts):
        out[("instance", node(i), concept)] += 1
    for i, role, value in g.attributes:
        out[("attribute", node(i), role, value)] += 1
    for i, role, k in g.relations:
        out[("relation", node(i), role, node(k))] += 1
    # triples without a variable (only made by the lossy smatchpp rewrite) match as they are
    for triple in getattr(g, "free", ()):
        out[("free",) + tuple(triple)] += 1
    return out


def mapped_multiset(a: TripleGraph, mapping: dict[int, int]) -> Counter:
    """A's triples with A variable ``i`` rewritten as B variable ``mapping[i]``."""
    placeholders = [_Unmapped(i) for i in range(len(a.variables))]

    def node(i: int):
        return ("v", mapping[i]) if i in mapping else placeholders[i]

    return _triples(a, node)


def matched_count(a: TripleGraph, b: TripleGraph, mapping: dict[int, int]) -> int:
    """Matched triples of the alignment ``mapping`` (A index -> B index)."""
    if len(set(mapping.values())) != len(mapping):
        raise ValueError(f"mapping is not injective: {mapping}")
    return sum((mapped_multiset(a, mapping) & triple_multiset(b)).values())


def partial_maps(n_a: int, n_b: int) -> Iterator[dict[int, int]]:
    """Every injective partial map from ``range(n_a)`` to ``range(n_b)``."""
    for k in range(min(n_a, n_b) + 1):
        for sources in itertools.combinations(range(n_a), k):
            for targets in itertools.permutations(range(n_b), k):
                yield dict(zip(sources, targets))


def brute_force(a: TripleGraph, b: TripleGraph) -> int:
    """The optimal Smatch matched-triple count, by exhaustive enumeration."""
    if len(a.variables) > MAX_VARS or len(b.variables) > MAX_VARS:
        raise ValueError("graphs too big for the brute-force oracle")
    gold = triple_multiset(b)
    best = 0
    for mapping in partial_maps(len(a.variables), len(b.variables)):
        best = max(best, sum((mapped_multiset(a, mapping) & gold).values()))
    return best


def brute_force_argmax(a: TripleGraph, b: TripleGraph) -> tuple[int, list[dict[int, int]]]:
    """The optimum and every optimal mapping (for debugging and tie tests)."""
    gold = triple_multiset(b)
    best, arg = -1, []
    for mapping in partial_maps(len(a.variables), len(b.variables)):
        value = sum((mapped_multiset(a, mapping) & gold).values())
        if value > best:
            best, arg = value, [mapping]
        elif value == best:
            arg.append(mapping)
    return best, arg


def _name_index(names: Sequence[str], side: str) -> dict[str, int]:
    index = {name: i for i, name in enumerate(names)}
    if len(index) != len(names):
        raise ValueError(f"graph {side} has repeated variable names: {names}")
    return index


def rescore(a: TripleGraph, b: TripleGraph, alignment_pairs: Iterable[tuple[str, str]]) -> int:
    """Matched count of an alignment given as ``[(name_a, name_b), ...]``, from scratch.

    Raises ``ValueError`` if the alignment is not an injective partial map
    between existing variable names.
    """
    ia, ib = _name_index(a.variables, "A"), _name_index(b.variables, "B")
    mapping: dict[int, int] = {}
    for name_a, name_b in alignment_pairs:
        if name_a not in ia or name_b not in ib:
            raise ValueError(f"unknown variable in alignment pair {(name_a, name_b)}")
        if ia[name_a] in mapping:
            raise ValueError(f"A variable {name_a!r} aligned twice")
        mapping[ia[name_a]] = ib[name_b]
    return matched_count(a, b, mapping)


def rescore_array(a: TripleGraph, b: TripleGraph, alignment) -> int:
    """Matched count of an alignment array (``alignment[i]`` = B index or -1)."""
    pairs = [(a.variables[i], b.variables[int(j)]) for i, j in enumerate(list(alignment)) if int(j) >= 0]
    return rescore(a, b, pairs)


# ---------------------------------------------------------------------------
# weighted and soft matching (fractional coefficients)


def _best_matching(wa: list[float], wb: list[float], value) -> float:
    """Max over injective partial maps of ``sum value(x, y)`` (tiny lists only)."""
    if len(wa) > len(wb):
        return _best_matching(wb, wa, lambda x, y: value(y, x))
    best = 0.0
    for targets in itertools.permutations(range(len(wb)), len(wa)):
        best = max(best, sum(value(x, wb[t]) for x, t in zip(wa, targets)))
    return best


def weighted_value(a: TripleGraph, b: TripleGraph, mapping: dict[int, int], weights,
                   sim=None, soft_top: bool = False) -> float:
    """Matched weight of ``mapping`` under per-triple ``weights`` and a concept similarity.

    ``weights(g)`` returns arrays (instance, attribute, relation) aligned with
    ``g``'s tuples.  Instance triples of ``i`` and ``mapping[i]`` earn
    ``sim(c, c') * min(w, w')`` (``sim`` = equality if ``None``); with
    ``soft_top`` the TOP triples (role ``top``) of aligned variables earn
    ``sim`` of their values the same way.  Every other triple of A, rewritten
    through the mapping, matches at most one identical triple of B, earning
    ``min(w, w')``: the best such matching is enumerated per triple.
    """
    same = sim or (lambda x, y: 1.0 if x == y else 0.0)
    wa, wb = weights(a), weights(b)
    total = 0.0
    for i, j in mapping.items():
        total += same(a.concepts[i], b.concepts[j]) * min(wa.instance[i], wb.instance[j])
    keyed_a: dict = {}
    keyed_b: dict = {}
    tops_a, tops_b = [], []
    for k, (i, role, value) in enumerate(a.attributes):
        if soft_top and role == "top":
            tops_a.append((i, value, wa.attribute[k]))
        elif i in mapping:
            keyed_a.setdefault(("attr", mapping[i], role, value), []).append(wa.attribute[k])
    for k, (j, role, value) in enumerate(b.attributes):
        if soft_top and role == "top":
            tops_b.append((j, value, wb.attribute[k]))
        else:
            keyed_b.setdefault(("attr", j, role, value), []).append(wb.attribute[k])
    for k, (i, role, t) in enumerate(a.relations):
        if i in mapping and t in mapping:
            keyed_a.setdefault(("rel", mapping[i], role, mapping[t]), []).append(wa.relation[k])
    for k, (j, role, t) in enumerate(b.relations):
        keyed_b.setdefault(("rel", j, role, t), []).append(wb.relation[k])
    for key, ws in keyed_a.items():
        total += _best_matching(ws, keyed_b.get(key, []), min)
    if tops_a and tops_b:
        total += _best_matching(
            tops_a, tops_b,
            lambda x, y: same(x[1], y[1]) * min(x[2], y[2]) if mapping.get(x[0]) == y[0] else 0.0)
    return total


def weighted_brute_force(a: TripleGraph, b: TripleGraph, weights, sim=None,
                         soft_top: bool = False) -> float:
    """The optimal matched weight, by enumerating every injective partial map."""
    if len(a.variables) > MAX_VARS or len(b.variables) > MAX_VARS:
        raise ValueError("graphs too big for the brute-force oracle")
    return max(weighted_value(a, b, m, weights, sim, soft_top)
               for m in partial_maps(len(a.variables), len(b.variables)))


# ---------------------------------------------------------------------------
# clauses over up to three variables (DRS), and compiled problems themselves


def clause_matched(clauses_a, clauses_b, mapping: dict[int, int], symmetric=()) -> int:
    """Matched clauses of ``mapping`` (A index -> B index): A's clauses rewritten through
    it (an unmapped variable matches nothing) against B's, as multisets; the last two
    variables of a ``symmetric`` label as an unordered pair."""
    if len(set(mapping.values())) != len(mapping):
        raise ValueError(f"mapping is not injective: {mapping}")
    placeholders: dict[int, _Unmapped] = {}

    def node(i: int):
        if i in mapping:
            return ("v", mapping[i])
        return placeholders.setdefault(i, _Unmapped(i))

    def key(label, nodes):
        if label in symmetric and len(nodes) >= 2:
            nodes = nodes[:-2] + tuple(sorted(nodes[-2:], key=repr))
        return label, nodes

    mapped = Counter(key(label, tuple(node(v) for v in variables)) for label, variables in clauses_a)
    gold = Counter(key(label, tuple(("v", v) for v in variables)) for label, variables in clauses_b)
    return sum((mapped & gold).values())


def clause_brute_force(clauses_a, clauses_b, n_a: int, n_b: int, kind_a=None, kind_b=None,
                       symmetric=()) -> int:
    """The most clauses any alignment matches (only variables of one kind aligned)."""
    if n_a > MAX_VARS or n_b > MAX_VARS:
        raise ValueError("graphs too big for the brute-force oracle")
    best = 0
    for mapping in partial_maps(n_a, n_b):
        if kind_a is not None and any(kind_a[i] != kind_b[j] for i, j in mapping.items()):
            continue
        best = max(best, clause_matched(clauses_a, clauses_b, mapping, symmetric))
    return best


def problem_brute_force(problem) -> float:
    """The optimum of a compiled :class:`~smatchpp.alignment.problem.Problem` by enumerating every
    alignment and its ``Problem.objective`` (for checking solvers, not the compiler)."""
    import numpy as np

    if problem.n_a > MAX_VARS or problem.n_b > MAX_VARS:
        raise ValueError("problem too big for the brute-force oracle")
    best = -float("inf")
    for mapping in partial_maps(problem.n_a, problem.n_b):
        alignment = np.full(problem.n_a, -1, dtype=np.int64)
        for i, j in mapping.items():
            alignment[i] = j
        best = max(best, problem.objective(alignment))
    return best

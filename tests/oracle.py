"""Brute-force Smatch oracle for tiny graphs (test helper, not a test module).

It works directly on :class:`smatchpp.standardize.TripleGraph` objects and uses
nothing from ``smatchpp.compile`` or ``smatchpp.solvers``: every injective
partial map from A's variables to B's is enumerated, A's triples are rewritten
through the map (an unmapped variable becomes a placeholder that matches
nothing) and the multiset intersection with B's triples is counted with
``collections.Counter``.  Only usable for graphs of at most a handful of
variables (the number of partial injective maps grows factorially).
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Iterable, Iterator, Sequence

from smatchpp.standardize import TripleGraph

__all__ = ["MAX_VARS", "triple_multiset", "mapped_multiset", "matched_count", "partial_maps",
           "brute_force", "rescore"]

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

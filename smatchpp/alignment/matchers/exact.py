"""Smatch's matcher (:class:`ExactMatcher`), the :class:`TripleMatcher` protocol every
matcher implements, and the per-graph label tables they share with the compiler.

A :class:`TripleMatcher` says which triples of A and B match and with what weight;
:func:`smatchpp.alignment.compile.compile_pair` turns that into a :class:`~smatchpp.alignment.problem.Problem`.
The tables (:func:`unary_labels`, :func:`relation_counts`, :func:`label_counts`) are memoized
on the graph (:func:`per_graph`): in a matrix or a search each graph meets hundreds of others.
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Protocol

import numpy as np

from ...core.settings import name_in, setting
from ...graphs.triples import TripleGraph
from .levels import MatcherSettings

__all__ = ["TripleMatcher", "ExactMatcher", "Terms1", "Terms2", "per_graph", "unary_labels",
           "relation_counts", "label_counts", "label_multiset", "ExactSettings", "DUPLICATES"]

#: how a repeated triple matches (:attr:`ExactSettings.duplicates`)
DUPLICATES = ("multiset", "product")


@dataclass(frozen=True)
class ExactSettings(MatcherSettings):
    """Smatch's matcher: how a repeated triple matches, ``multiset`` (``min(c_A, c_B)`` times:
    self-match is 1) or ``product`` (``c_A * c_B`` times, as smatch's hill-climber counts it;
    ``mdtux89/amr-evaluation``'s rows with duplicates, e.g. Unlabeled)."""

    duplicates: str = setting("multiset", "dup", check=name_in(lambda: DUPLICATES, "duplicates"))

Terms1 = tuple[np.ndarray, np.ndarray, np.ndarray]
Terms2 = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class TripleMatcher(Protocol):
    """Scores the triples of two graphs against each other.

    ``unary_terms`` returns arrays ``(i, j, w)``: aligning ``i`` to ``j`` gains ``w``.
    ``binary_terms`` returns ``(i, j, k, l, w)``: aligning both ``i->j`` and
    ``k->l`` gains ``w`` (``i != k`` and ``j != l``).  Repeated index tuples are summed.
    """

    name: str

    def unary_terms(self, a: TripleGraph, b: TripleGraph) -> Terms1: ...

    def binary_terms(self, a: TripleGraph, b: TripleGraph) -> Terms2: ...

    def label_bound(self, a: TripleGraph, b: TripleGraph) -> float:
        """An upper bound on the matches from labels alone (``inf`` if none is known)."""
        ...

    def total(self, g: TripleGraph) -> float:
        """What precision (for A) and recall (for B) divide by: ``g``'s total weight."""
        ...


_MISSING = object()


def per_graph(fn: Callable[[TripleGraph], Any]) -> Callable[[TripleGraph], Any]:
    """Memoize ``fn(g)`` in ``g``'s ``__dict__``: a graph is immutable, and in a matrix or a
    search each graph meets hundreds of others.  The cached value is shared: callers must
    not mutate it.

    >>> from smatchpp.api import parse_graph
    >>> g = parse_graph("(a / dog :ARG0 (b / cat))")
    >>> relation_counts(g) is relation_counts(g)
    True
    """
    key = "_compiled_" + fn.__name__

    @functools.wraps(fn)
    def cached(g: TripleGraph) -> Any:
        store = getattr(g, "__dict__", None)
        if store is None:
            return fn(g)
        value = store.get(key, _MISSING)
        if value is _MISSING:
            value = store[key] = fn(g)
        return value

    return cached


def _unary_triples(g: TripleGraph) -> Iterator[tuple[int, tuple]]:
    """(var, label) of every instance, attribute and self-loop triple."""
    for i, concept in enumerate(g.concepts):
        yield i, ("instance", concept)
    for i, role, value in g.attributes:
        yield i, ("attribute", role, value)
    for i, role, k in g.relations:
        if i == k:
            yield i, ("loop", role)


@per_graph
def unary_labels(g: TripleGraph) -> dict[tuple, list[tuple[int, int]]]:
    """label -> [(var, count)] for instance, attribute and self-loop triples."""
    by_label: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
    for (i, label), c in Counter(_unary_triples(g)).items():
        by_label[label].append((i, c))
    return dict(by_label)


@per_graph
def relation_counts(g: TripleGraph) -> Counter:
    """(role, source, target) -> count, self-loops excluded."""
    return Counter((r, i, k) for i, r, k in g.relations if i != k)


def label_multiset(g: TripleGraph) -> Counter:
    """Every triple's label, variables left out (self-loops and relations kept apart)."""
    return Counter(label_counts(g))


@per_graph
def label_counts(g: TripleGraph) -> Counter:
    """:func:`label_multiset`, memoized on ``g`` and shared: callers must not change it."""
    labels = Counter(label for _, label in _unary_triples(g))
    labels.update(("relation", r) for r, _, _ in relation_counts(g).elements())
    return labels


def _label_keys(g: TripleGraph) -> tuple[dict, dict]:
    """Per label, the counts of its distinct keys: unary labels, and relation roles."""
    unary: dict = {label: [c for _, c in rows] for label, rows in unary_labels(g).items()}
    relations: dict = {}
    for (r, _, _), c in relation_counts(g).items():
        relations.setdefault(r, []).append(c)
    return unary, relations


class ExactMatcher:
    """Smatch's matcher: identical labels match, duplicates as multisets.

    ``duplicates="product"`` counts a triple repeated ``c_A`` times in A and
    ``c_B`` times in B as ``c_A * c_B`` matches, as smatch's hill-climber does
    (every copy of A's meets every copy of B's in its weight table; smatch
    issues #15 and #28): the count of ``mdtux89/amr-evaluation``'s rows on
    graphs with duplicates.  A graph with a repeated triple then matches itself
    above its triple count (F1 above 1).

    >>> from smatchpp.api import parse_graph
    >>> g = parse_graph("(a / A :label (b / B) :label b)", preset="smatch-1.0.1")
    >>> g.n_triples, ExactMatcher("product").label_bound(g, g), ExactMatcher().label_bound(g, g)
    (5, 7.0, 5.0)
    """

    name = "exact"
    #: every triple weighs 1: precision and recall divide by triple counts
    weighted = False

    def __init__(self, duplicates: str = "multiset") -> None:
        if duplicates not in DUPLICATES:
            raise ValueError(f"unknown duplicates {duplicates!r}; choose from {', '.join(DUPLICATES)}")
        self.duplicates = duplicates
        self._count = min if duplicates == "multiset" else (lambda x, y: x * y)

    def total(self, g: TripleGraph) -> float:
        """Precision/recall denominator: the number of triples (duplicates included)."""
        return float(g.n_triples)

    def label_bound(self, a: TripleGraph, b: TripleGraph) -> float:
        """Label-count bound: each label matches at most ``min(count in A, count in B)`` times.

        Under ``product``: each matched key of A's meets one key of B's, so a label matches at
        most ``min(A's copies x B's largest count, B's copies x A's largest count)`` times.

        >>> from smatchpp.api import parse_graph
        >>> ExactMatcher().label_bound(parse_graph("(a / dog)"), parse_graph("(b / dog :ARG0 (c / cat))"))
        2.0
        """
        if self.duplicates == "multiset":
            return float(sum((label_counts(a) & label_counts(b)).values()))
        bound = 0
        for ka, kb in zip(_label_keys(a), _label_keys(b)):
            for label, counts_a in ka.items():
                counts_b = kb.get(label)
                if counts_b:
                    bound += min(sum(counts_a) * max(counts_b), sum(counts_b) * max(counts_a))
        return float(bound)

    def unary_terms(self, a: TripleGraph, b: TripleGraph) -> Terms1:
        la, lb = unary_labels(a), unary_labels(b)
        ii: list[int] = []
        jj: list[int] = []
        ww: list[int] = []
        for label, rows_a in la.items():
            rows_b = lb.get(label)
            if not rows_b:
                continue
            for i, ca in rows_a:
                for j, cb in rows_b:
                    ii.append(i)
                    jj.append(j)
                    ww.append(self._count(ca, cb))
        return (np.array(ii, dtype=np.int64), np.array(jj, dtype=np.int64),
                np.array(ww, dtype=np.float64))

    def binary_terms(self, a: TripleGraph, b: TripleGraph) -> Terms2:
        ra, rb = relation_counts(a), relation_counts(b)
        roles: dict[str, int] = {}
        for r, _, _ in rb:
            roles.setdefault(r, len(roles))
        rows_a = [(roles[r], i, k, c) for (r, i, k), c in ra.items() if r in roles]
        rows_b = sorted((roles[r], j, l, c) for (r, j, l), c in rb.items())
        if not rows_a:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty, empty, np.zeros(0)
        ea, eb = np.array(rows_a, dtype=np.int64), np.array(rows_b, dtype=np.int64)
        # every A edge meets the run of B edges with its role (B is sorted by role)
        count = np.bincount(eb[:, 0], minlength=len(roles))
        first = np.cumsum(count) - count
        n = count[ea[:, 0]]
        ia = np.repeat(np.arange(len(ea)), n)
        ib = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n) + np.repeat(first[ea[:, 0]], n)
        counts = (np.minimum(ea[ia, 3], eb[ib, 3]) if self.duplicates == "multiset"
                  else ea[ia, 3] * eb[ib, 3])
        return ea[ia, 1], eb[ib, 1], ea[ia, 2], eb[ib, 2], counts.astype(np.float64)

"""Compiling a pair of triple graphs into a :class:`~smatchpp.problem.Problem`.

A :class:`TripleMatcher` says which triples of A and B match and with what
weight; the compiler turns that into unary terms (instance and attribute
triples, self-loops) and binary terms (relations) over candidate pairs.
:class:`ExactMatcher` is Smatch: equal labels match, and a triple repeated
``c_A`` times in A and ``c_B`` times in B matches ``min(c_A, c_B)`` times
(multiset matching, so self-match is exactly 1 even with duplicates).

Example:

>>> from smatchpp.read import read_text
>>> from smatchpp.standardize import standardize
>>> a = standardize(read_text("(x / dog :ARG0-of (y / bark-01))")[0].graph)
>>> b = standardize(read_text("(u / bark-01 :ARG0 (v / dog))")[0].graph)
>>> p = compile_pair(a, b)
>>> sorted(zip(p.pair_a.tolist(), p.pair_b.tolist(), p.unary.tolist()))
[(0, 0, 1.0), (0, 1, 1.0), (1, 0, 1.0)]
>>> p.n_edges  # x->v with y->u makes the ARG0 triples match
1
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from typing import Any, Callable, Iterator, Protocol

import numpy as np

from .blocks import sentence_blocks
from .matchers import MATCHERS as _MATCHERS
from .problem import CERTIFY_TOLERANCE, Problem
from .standardize import TripleGraph

__all__ = ["TripleMatcher", "ExactMatcher", "compile_pair", "MATCHERS", "make_matcher", "label_multiset"]

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


def _per_graph(fn: Callable[[TripleGraph], Any]) -> Callable[[TripleGraph], Any]:
    """Memoize ``fn(g)`` in ``g``'s ``__dict__``: a graph is immutable, and in a matrix or a
    search each graph meets hundreds of others.  The cached value is shared: callers must
    not mutate it.

    >>> from smatchpp.api import parse_graph
    >>> g = parse_graph("(a / dog)")
    >>> _relation_counts(g) is _relation_counts(g)
    True
    """
    key = "_compiled_" + fn.__name__

    @functools.wraps(fn)
    def cached(g: TripleGraph) -> Any:
        store = getattr(g, "__dict__", None)
        if store is None:
            return fn(g)
        value = store.get(key)
        if value is None:
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


@_per_graph
def _unary_labels(g: TripleGraph) -> dict[tuple, list[tuple[int, int]]]:
    """label -> [(var, count)] for instance, attribute and self-loop triples."""
    by_label: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
    for (i, label), c in Counter(_unary_triples(g)).items():
        by_label[label].append((i, c))
    return dict(by_label)


@_per_graph
def _relation_counts(g: TripleGraph) -> Counter:
    """(role, source, target) -> count, self-loops excluded."""
    return Counter((r, i, k) for i, r, k in g.relations if i != k)


def label_multiset(g: TripleGraph) -> Counter:
    """Every triple's label, variables left out (self-loops and relations kept apart)."""
    return Counter(_label_multiset(g))


@_per_graph
def _label_multiset(g: TripleGraph) -> Counter:
    labels = Counter(label for _, label in _unary_triples(g))
    labels.update(("relation", r) for r, _, _ in _relation_counts(g).elements())
    return labels


class ExactMatcher:
    """Smatch's matcher: identical labels match, duplicates as multisets."""

    name = "exact"
    #: every triple weighs 1: precision and recall divide by triple counts
    weighted = False

    def total(self, g: TripleGraph) -> float:
        """Precision/recall denominator: the number of triples (duplicates included)."""
        return float(g.n_triples)

    def label_bound(self, a: TripleGraph, b: TripleGraph) -> float:
        """Label-count bound: each label matches at most ``min(count in A, count in B)`` times.

        >>> from smatchpp.api import parse_graph
        >>> ExactMatcher().label_bound(parse_graph("(a / dog)"), parse_graph("(b / dog :ARG0 (c / cat))"))
        2.0
        """
        return float(sum((_label_multiset(a) & _label_multiset(b)).values()))

    def unary_terms(self, a: TripleGraph, b: TripleGraph) -> Terms1:
        la, lb = _unary_labels(a), _unary_labels(b)
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
                    ww.append(min(ca, cb))
        return (np.array(ii, dtype=np.int64), np.array(jj, dtype=np.int64),
                np.array(ww, dtype=np.float64))

    def binary_terms(self, a: TripleGraph, b: TripleGraph) -> Terms2:
        ra, rb = _relation_counts(a), _relation_counts(b)
        roles: dict[str, int] = {}
        for r, _, _ in rb:
            roles.setdefault(r, len(roles))
        rows_a = [(roles[r], i, k, c) for (r, i, k), c in ra.items() if r in roles]
        rows_b = sorted((roles[r], j, l, c) for (r, j, l), c in rb.items())
        if not rows_a:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty, empty, np.zeros(0)
        ea, eb = np.array(rows_a, dtype=np.int64), np.array(rows_b, dtype=np.int64)
        # every A edge meets the block of B edges with its role (B is sorted by role)
        count = np.bincount(eb[:, 0], minlength=len(roles))
        first = np.cumsum(count) - count
        n = count[ea[:, 0]]
        ia = np.repeat(np.arange(len(ea)), n)
        ib = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n) + np.repeat(first[ea[:, 0]], n)
        return (ea[ia, 1], eb[ib, 1], ea[ia, 2], eb[ib, 2],
                np.minimum(ea[ia, 3], eb[ib, 3]).astype(np.float64))


#: matcher name -> factory taking the :class:`~smatchpp.config.Config` (for its parameters);
#: the registry lives in :mod:`smatchpp.matchers` (exact, s2match, wsmatch, ...)
MATCHERS: dict[str, Callable[[Any], TripleMatcher]] = _MATCHERS


def make_matcher(config: Any) -> TripleMatcher:
    """The matcher ``config.match`` names, built with ``config``'s parameters."""
    return MATCHERS[config.match](config)


def compile_pair(a: TripleGraph, b: TripleGraph, matcher: TripleMatcher | None = None,
                 tolerance: float = CERTIFY_TOLERANCE) -> Problem:
    """Build the :class:`Problem` of aligning ``a`` to ``b`` under ``matcher``.

    Candidate pairs are exactly the pairs with a positive unary term or part of
    a binary term: any other pair can never add to the objective.
    ``tolerance`` is the gap that certifies non-integral objectives
    (:attr:`Problem.tolerance`).
    """
    matcher = matcher or ExactMatcher()
    ui, uj, uw = matcher.unary_terms(a, b)
    bi, bj, bk, bl, bw = matcher.binary_terms(a, b)
    keep = (bw > 0) & (bi != bk) & (bj != bl)
    bi, bj, bk, bl, bw = bi[keep], bj[keep], bk[keep], bl[keep], bw[keep]
    keepu = uw > 0
    ui, uj, uw = ui[keepu], uj[keepu], uw[keepu]
    nb = max(len(b.variables), 1)
    ukey = ui * nb + uj
    k1 = bi * nb + bj
    k2 = bk * nb + bl
    keys = np.unique(np.concatenate([ukey, k1, k2]))
    unary = np.zeros(len(keys))
    np.add.at(unary, np.searchsorted(keys, ukey), uw)
    p1 = np.searchsorted(keys, k1)
    p2 = np.searchsorted(keys, k2)
    lo, hi = np.minimum(p1, p2), np.maximum(p1, p2)
    n = max(len(keys), 1)
    ekeys, inverse = np.unique(lo * n + hi, return_inverse=True)
    weight = np.bincount(inverse.ravel(), weights=bw, minlength=len(ekeys)) if len(ekeys) else np.zeros(0)
    constant = float(sum((Counter(a.free) & Counter(b.free)).values()))
    block_a, block_b = sentence_blocks(a), sentence_blocks(b)
    if block_a is None or block_b is None:
        block_a = block_b = None
    return Problem(len(a.variables), len(b.variables), keys // nb, keys % nb, unary,
                   ekeys // n, ekeys % n, weight, constant=constant,
                   label_bound=matcher.label_bound(a, b) + constant,
                   block_a=block_a, block_b=block_b, tolerance=tolerance)

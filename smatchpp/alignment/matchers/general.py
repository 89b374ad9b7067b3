"""Weighted and soft triple matching: one matcher for every Smatch variant but exact Smatch.

A :class:`WeightedMatcher` gives every triple of a graph a *weight* ``w >= 0``
(:class:`TripleWeights`, from a weighting function) and, optionally, a *soft
similarity* ``s(c, c') in [0, 1]`` between concepts (S2Match).  Two triples of
the same kind *match* under an alignment when their ends are aligned and

* their labels are equal (every triple but the soft ones): the match earns
  ``min(w, w')``;
* for instance triples (and TOP triples that carry their root's concept, see
  :func:`soft_top`) under a similarity: it earns ``s(c, c') * min(w, w')``.

A triple matches at most one triple of the other graph (multisets, as in
:class:`~smatchpp.alignment.matchers.exact.ExactMatcher`: a triple that A has ``c_A`` times and
B ``c_B`` times, with weights ``w_A`` and ``w_B``, earns ``min(c_A, c_B) *
min(w_A, w_B)``; identical triples always get identical weights).  Precision
and recall divide by :meth:`WeightedMatcher.total`, the summed weight of a
graph's triples, so self-match is exactly 1 whenever a graph has positive
total weight.  With unit weights and no similarity this is exact Smatch.

Example: the root ``want-01`` is level 0 (weight 5) and ``boy`` level 1
(weight 4) under WSMATCH's weights; the matched ``:ARG0`` relation earns the
smaller end's weight.

>>> from smatchpp.api import parse_graph
>>> from smatchpp.alignment.matchers.levels import level_weights
>>> m = WeightedMatcher("wsmatch", level_weights)
>>> a = parse_graph("(w / want-01 :ARG0 (b / boy))")
>>> m.weights(a).instance.tolist(), m.weights(a).relation.tolist(), m.total(a)
([5.0, 4.0], [4.0], 18.0)
>>> from smatchpp.alignment.compile import compile_pair
>>> from smatchpp.alignment.solvers import Portfolio
>>> Portfolio().solve(compile_pair(a, parse_graph("(w / want-01 :ARG0 (g / girl))"), m)).objective
14.0
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Protocol

import numpy as np

from ...core.exceptions import SmatchppError
from ...graphs.triples import TripleGraph

__all__ = ["TripleWeights", "WeightedMatcher", "ConceptSimilarity", "unit_weights",
           "soft_top", "sorted_pairing", "weight_scale", "MAX_WEIGHT", "SCALE_FREE"]

Terms1 = tuple[np.ndarray, np.ndarray, np.ndarray]
Terms2 = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class TripleWeights:
    """The weight of every triple of a :class:`TripleGraph`, aligned with its tuples."""

    instance: np.ndarray
    attribute: np.ndarray
    relation: np.ndarray

    def total(self, g: TripleGraph) -> float:
        """Summed weight; the lossy rewrite's variable-free triples weigh 1 each."""
        return float(self.instance.sum() + self.attribute.sum() + self.relation.sum()
                     + len(g.free))

    def scaled(self, factor: "TripleWeights") -> "TripleWeights":
        return TripleWeights(self.instance * factor.instance, self.attribute * factor.attribute,
                             self.relation * factor.relation)


def unit_weights(g: TripleGraph) -> TripleWeights:
    """Every triple weighs 1 (Smatch)."""
    return TripleWeights(np.ones(len(g.concepts)), np.ones(len(g.attributes)),
                         np.ones(len(g.relations)))


class ConceptSimilarity(Protocol):
    """A symmetric similarity of concepts in ``[0, 1]``, 1 for identical concepts."""

    def table(self, concepts_a: list[str], concepts_b: list[str]) -> Terms1:
        """``(ia, ib, s)``: every pair of the two lists with ``s > 0``."""
        ...


Weigher = Callable[[TripleGraph], TripleWeights]


def soft_top(g: TripleGraph) -> int | None:
    """Index (into ``g.attributes``) of the TOP triple if it carries its root's concept.

    Presets that follow smatch <= 1.0.2 (and the S2Match reference code) write
    TOP as ``(root, TOP, concept of root)``; S2Match compares such values
    softly.  The smatch 1.0.4 preset writes the constant ``top``: exact.

    >>> from smatchpp.graphs.triples import TripleGraph
    >>> soft_top(TripleGraph(("x",), ("dog",), ((0, "top", "dog"),), ()))
    0
    >>> soft_top(TripleGraph(("x",), ("dog",), ((0, "top", "top"),), ())) is None
    True
    """
    tops = [k for k, (_, role, _) in enumerate(g.attributes) if role == "top"]
    if len(tops) != 1:
        return None
    i, _, value = g.attributes[tops[0]]
    return tops[0] if value == g.concepts[i] else None


def sorted_pairing(wa: list[float], wb: list[float]) -> float:
    """Max of ``sum min(w, w')`` over matchings of two weight lists: pair them sorted.

    ``min`` has increasing differences (for ``a >= a'`` and ``b >= b'``,
    ``min(a, b) + min(a', b') >= min(a, b') + min(a', b)``), so exchanging
    any crossing pair of a matching into sorted order never loses: the sorted
    pairing is a maximum.

    >>> sorted_pairing([1, 5, 3], [4, 4])
    7.0
    """
    a, b = sorted(wa, reverse=True), sorted(wb, reverse=True)
    return float(sum(min(x, y) for x, y in zip(a, b)))


def _concept_groups(concepts: tuple[str, ...]) -> tuple[list[str], np.ndarray]:
    names: dict[str, int] = {}
    ids = np.fromiter((names.setdefault(c, len(names)) for c in concepts), dtype=np.int64,
                      count=len(concepts))
    return list(names), ids


def _expand(ca: np.ndarray, cb: np.ndarray, s: np.ndarray, ida: np.ndarray, idb: np.ndarray,
            na: int, nb: int) -> Terms1:
    """Concept pairs ``(ca, cb, s)`` -> every variable pair with those concepts."""
    if not len(s) or not len(ida) or not len(idb):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    order_a, order_b = np.argsort(ida, kind="stable"), np.argsort(idb, kind="stable")
    count_a, count_b = np.bincount(ida, minlength=na), np.bincount(idb, minlength=nb)
    start_a, start_b = np.cumsum(count_a) - count_a, np.cumsum(count_b) - count_b
    width = count_b[cb]
    size = count_a[ca] * width
    k = np.repeat(np.arange(len(s)), size)
    within = np.arange(size.sum()) - np.repeat(np.cumsum(size) - size, size)
    i = order_a[start_a[ca][k] + within // width[k]]
    j = order_b[start_b[cb][k] + within % width[k]]
    return i.astype(np.int64), j.astype(np.int64), s[k]


def _labelled(g: TripleGraph, w: TripleWeights, skip: int | None):
    """(var, label) -> (count, weight) of attribute and self-loop triples (``skip`` left out)."""
    out: dict[tuple[int, tuple], list[float]] = defaultdict(list)
    for k, (i, role, value) in enumerate(g.attributes):
        if k != skip:
            out[(i, ("attribute", role, value))].append(float(w.attribute[k]))
    for k, (i, role, t) in enumerate(g.relations):
        if i == t:
            out[(i, ("loop", role))].append(float(w.relation[k]))
    return out


def _relations(g: TripleGraph, w: TripleWeights):
    """(role, source, target) -> weights of the relation triples (self-loops excluded)."""
    out: dict[tuple[str, int, int], list[float]] = defaultdict(list)
    for k, (i, role, t) in enumerate(g.relations):
        if i != t:
            out[(role, i, t)].append(float(w.relation[k]))
    return out


def _one_weight(weights: list[float]) -> float:
    """The common weight of identical triples (a weighting must give them the same one)."""
    if max(weights) != min(weights):
        raise ValueError(f"identical triples got different weights {weights}")
    return weights[0]


#: the largest triple weight (the weigher's largest times the largest role weight) allowed:
#: a graph's total of 10^8 such triples stays finite (beyond it, sums overflow to inf and nan)
MAX_WEIGHT = 1e300
#: largest triple weights in ``[1, SCALE_FREE]`` are compiled as they are (integer weights stay
#: integral, certified exactly); any other largest weight is first divided by a power of two
#: that brings it into ``[1, 2)`` (see :attr:`WeightedMatcher.scale`)
SCALE_FREE = 2.0 ** 20


def weight_scale(largest: float) -> float:
    """The power of two that the weights are divided by when the largest is ``largest``.

    >>> weight_scale(3.0), weight_scale(1e-9) == 2.0 ** -30, 1e-9 / weight_scale(1e-9)
    (1.0, True, 1.073741824)
    """
    if not math.isfinite(largest) or largest > MAX_WEIGHT:
        raise SmatchppError(f"the largest triple weight would be {largest:g} (role weight times "
                            f"the matcher's largest weight): at most {MAX_WEIGHT:g} is allowed, so "
                            "that the totals stay finite; divide every weight by one factor (F1 "
                            "does not change)")
    if largest <= 0 or 1.0 <= largest <= SCALE_FREE:
        return 1.0
    return math.ldexp(1.0, math.frexp(largest)[1] - 1)


class WeightedMatcher:
    """Weighted (and optionally soft) Smatch; see the module docstring.

    ``weigher`` gives each graph's :class:`TripleWeights` (``largest``: the
    largest weight it gives); ``similarity``, if given, scores instance
    triples (and concept-carrying TOP triples) softly.  ``role_weights``
    (role -> factor, ``"*"`` for unlisted roles, default 1) multiplies every
    triple's weight by its role's factor: ``instance`` and ``top`` name the
    instance and TOP triples.

    Scale: every weight is divided by :attr:`scale`, a power of two (exact)
    that brings the largest possible triple weight into ``[1, 2)`` when it
    lies outside ``[1, SCALE_FREE]``, so that the solvers' absolute
    tolerances (the certification tolerance, HiGHS's) are tolerances relative
    to the largest weight: weights of 1e-9 certify as well as weights of 1,
    and multiplying every weight by one factor leaves F1 as it was (up to the
    tolerance).  :meth:`weights`, :meth:`total` and the compiled problems are
    in these units; the scorer multiplies its matched weights, bounds,
    totals and tolerance by :attr:`scale` again.  A largest weight above
    :data:`MAX_WEIGHT` is refused (:class:`~smatchpp.core.exceptions.SmatchppError`).

    >>> from smatchpp.api import parse_graph
    >>> m = WeightedMatcher("w", role_weights={"*": 1e-9, "instance": 2e-9})
    >>> m.scale == 2.0 ** -29, m.weights(parse_graph("(a / x :ARG0 (b / y))")).instance.tolist()
    (True, [1.073741824, 1.073741824])
    """

    weighted = True

    def __init__(self, name: str, weigher: Weigher = unit_weights,
                 similarity: ConceptSimilarity | None = None,
                 role_weights: dict[str, float] | None = None, largest: float = 1.0) -> None:
        self.name = name
        self.weigher = weigher
        self.similarity = similarity
        self.role_weights = dict(role_weights or {})
        factors = list(self.role_weights.values())
        if "*" not in self.role_weights:
            factors.append(1.0)  # unlisted roles weigh 1
        #: the weights the solvers see are the given ones divided by this power of two
        self.scale = weight_scale(float(largest) * max(factors))
        self._memo: tuple | None = None  # the last pair's instance terms
        self._weights: dict[int, tuple[TripleGraph, TripleWeights]] = {}

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_memo"], state["_weights"] = None, {}
        return state

    # -- weights ------------------------------------------------------------

    def weights(self, g: TripleGraph) -> TripleWeights:
        """Every triple's weight: the weigher's, times its role's factor."""
        hit = self._weights.get(id(g))
        if hit is not None and hit[0] is g:
            return hit[1]
        if len(self._weights) >= 4:  # a pair's two graphs are all that is reused
            self._weights.clear()
        w = self._weighted(g)
        self._weights[id(g)] = (g, w)
        return w

    def _weighted(self, g: TripleGraph) -> TripleWeights:
        w = self.weigher(g)
        if not self.role_weights and self.scale == 1.0:
            return w
        rw = {role: factor / self.scale for role, factor in self.role_weights.items()}
        default = rw.get("*", 1.0 / self.scale)
        factor = TripleWeights(
            np.full(len(g.concepts), rw.get("instance", default)),
            np.array([rw.get(role, default) for _, role, _ in g.attributes], dtype=np.float64),
            np.array([rw.get(role, default) for _, role, _ in g.relations], dtype=np.float64))
        return w.scaled(factor)

    def total(self, g: TripleGraph) -> float:
        """Precision/recall denominator: the summed weight of ``g``'s triples."""
        return self.weights(g).total(g)

    def _soft_tops(self, a: TripleGraph, b: TripleGraph) -> tuple[int | None, int | None]:
        if self.similarity is None:
            return None, None
        ta, tb = soft_top(a), soft_top(b)
        return (ta, tb) if ta is not None and tb is not None else (None, None)

    # -- instance triples -----------------------------------------------------

    def _instance_pairs(self, a: TripleGraph, b: TripleGraph, wa: TripleWeights,
                        wb: TripleWeights) -> Terms1:
        """Every variable pair whose instance triples earn something, with what they earn."""
        memo = self._memo
        if memo is not None and memo[0] is a and memo[1] is b:
            return memo[2]
        names_a, ida = _concept_groups(a.concepts)
        names_b, idb = _concept_groups(b.concepts)
        if self.similarity is None:
            index_b = {c: k for k, c in enumerate(names_b)}
            rows = [(k, index_b[c]) for k, c in enumerate(names_a) if c in index_b]
            ca = np.array([r[0] for r in rows], dtype=np.int64)
            cb = np.array([r[1] for r in rows], dtype=np.int64)
            s = np.ones(len(rows))
        else:
            ca, cb, s = self.similarity.table(names_a, names_b)
        i, j, s = _expand(ca, cb, s, ida, idb, len(names_a), len(names_b))
        result = (i, j, s * np.minimum(wa.instance[i], wb.instance[j]))
        self._memo = (a, b, result)
        return result

    # -- the matcher interface ---------------------------------------------------

    def unary_terms(self, a: TripleGraph, b: TripleGraph) -> Terms1:
        wa, wb = self.weights(a), self.weights(b)
        ii, jj, ww = [], [], []
        i, j, w = self._instance_pairs(a, b, wa, wb)
        ii.append(i)
        jj.append(j)
        ww.append(w)
        ta, tb = self._soft_tops(a, b)
        if ta is not None and tb is not None:
            (i, _, va), (j, _, vb) = a.attributes[ta], b.attributes[tb]
            s = self.similarity.table([va], [vb])[2]  # type: ignore[union-attr]
            if len(s):
                ii.append(np.array([i]))
                jj.append(np.array([j]))
                ww.append(s[:1] * min(wa.attribute[ta], wb.attribute[tb]))
        la, lb = _labelled(a, wa, ta), _labelled(b, wb, tb)
        by_label: dict[tuple, list[tuple[int, int, float]]] = defaultdict(list)
        for (j, label), weights in lb.items():
            by_label[label].append((j, len(weights), _one_weight(weights)))
        for (i, label), weights in la.items():
            c, w = len(weights), _one_weight(weights)
            for j, cb, wbj in by_label.get(label, ()):
                ii.append(np.array([i]))
                jj.append(np.array([j]))
                ww.append(np.array([min(c, cb) * min(w, wbj)]))
        return (np.concatenate(ii).astype(np.int64), np.concatenate(jj).astype(np.int64),
                np.concatenate(ww).astype(np.float64))

    def binary_terms(self, a: TripleGraph, b: TripleGraph) -> Terms2:
        ra, rb = _relations(a, self.weights(a)), _relations(b, self.weights(b))
        roles: dict[str, int] = {}
        for r, _, _ in rb:
            roles.setdefault(r, len(roles))
        rows_a = [(roles[r], i, k, len(w), _one_weight(w)) for (r, i, k), w in ra.items()
                  if r in roles]
        rows_b = sorted((roles[r], j, l, len(w), _one_weight(w)) for (r, j, l), w in rb.items())
        if not rows_a:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty, empty, np.zeros(0)
        ea, eb = np.array(rows_a, dtype=np.float64), np.array(rows_b, dtype=np.float64)
        role_a, role_b = ea[:, 0].astype(np.int64), eb[:, 0].astype(np.int64)
        # every A edge meets the run of B edges with its role (B is sorted by role)
        count = np.bincount(role_b, minlength=len(roles))
        first = np.cumsum(count) - count
        n = count[role_a]
        ia = np.repeat(np.arange(len(ea)), n)
        ib = np.arange(n.sum()) - np.repeat(np.cumsum(n) - n, n) + np.repeat(first[role_a], n)
        w = np.minimum(ea[ia, 3], eb[ib, 3]) * np.minimum(ea[ia, 4], eb[ib, 4])
        as_int = lambda x: x.astype(np.int64)  # noqa: E731
        return as_int(ea[ia, 1]), as_int(eb[ib, 1]), as_int(ea[ia, 2]), as_int(eb[ib, 2]), w

    def label_bound(self, a: TripleGraph, b: TripleGraph) -> float:
        """An upper bound on the matched weight from labels alone, valid for any coefficients.

        Under any alignment every triple of A matches at most one triple of B
        and vice versa, and only a triple with the same label (or, for soft
        triples, of the same kind).  So the matched weight is at most, summed
        over the labels, the best matching between A's and B's triples of that
        label with values ``min(w, w')``: that is :func:`sorted_pairing`
        (exact, not just a bound).  Soft triples are bounded by the smaller of
        "each A triple earns at most its best value against any B triple" and
        the same from B's side.  Every term is a maximum over a superset of
        what an alignment can choose, so the sum bounds the optimum whatever the
        (non-negative, possibly fractional) coefficients.

        >>> from smatchpp.api import parse_graph
        >>> m = WeightedMatcher("w", role_weights={"arg0": 2.5})
        >>> m.label_bound(parse_graph("(a / x :ARG0 (b / y))"), parse_graph("(c / x :ARG0 (d / z))"))
        4.5
        """
        wa, wb = self.weights(a), self.weights(b)
        bound = 0.0
        if self.similarity is None:
            ga: dict[str, list[float]] = defaultdict(list)
            gb: dict[str, list[float]] = defaultdict(list)
            for c, w in zip(a.concepts, wa.instance.tolist()):
                ga[c].append(w)
            for c, w in zip(b.concepts, wb.instance.tolist()):
                gb[c].append(w)
            bound += sum(sorted_pairing(ws, gb[c]) for c, ws in ga.items() if c in gb)
        else:
            i, j, w = self._instance_pairs(a, b, wa, wb)
            if len(w):
                rows, cols = np.zeros(len(a.concepts)), np.zeros(len(b.concepts))
                np.maximum.at(rows, i, w)
                np.maximum.at(cols, j, w)
                bound += float(min(rows.sum(), cols.sum()))
        ta, tb = self._soft_tops(a, b)
        if ta is not None and tb is not None:
            s = self.similarity.table([a.attributes[ta][2]], [b.attributes[tb][2]])[2]  # type: ignore[union-attr]
            bound += float(s[:1].sum()) * min(wa.attribute[ta], wb.attribute[tb])
        lab_a: dict[tuple, list[float]] = defaultdict(list)
        lab_b: dict[tuple, list[float]] = defaultdict(list)
        for (_, label), ws in _labelled(a, wa, ta).items():
            lab_a[label] += ws
        for (_, label), ws in _labelled(b, wb, tb).items():
            lab_b[label] += ws
        for (role, _, _), ws in _relations(a, wa).items():
            lab_a[("relation", role)] += ws
        for (role, _, _), ws in _relations(b, wb).items():
            lab_b[("relation", role)] += ws
        bound += sum(sorted_pairing(ws, lab_b[label]) for label, ws in lab_a.items()
                     if label in lab_b)
        return float(bound)

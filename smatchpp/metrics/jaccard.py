"""Jaccard similarity of triple sets: the smallest metric, a check of the interface.

Variables are replaced by their concepts, so the metric needs no alignment:
``(d / dog :ARG0-of (b / bark-01))`` holds ``(dog, :instance, dog)``,
``(bark-01, :instance, bark-01)`` and ``(dog, :ARG0-of, bark-01)`` read as
written (no inversion, no TOP).  Its statistics are the sizes of the
intersection and the union; a corpus sums them.

>>> from smatchpp.graphs.read import read_text
>>> a, b = (e.graph for e in read_text("(d / dog :ARG0-of (b / bark-01))\\n\\n(x / dog)"))
>>> m = TripleJaccard()
>>> m.stats(m.features(a), m.features(b))
(1, 3)
>>> m.pair_score(m.features(a), m.features(a))
1.0
"""

from __future__ import annotations

from dataclasses import dataclass

from ..graphs.read import RawGraph
from .sets import SetJaccard
from .registry import register

__all__ = ["TripleJaccard"]


@register
@dataclass(frozen=True)
class TripleJaccard(SetJaccard):
    """Jaccard of the sets of triples with variables replaced by their concepts."""

    name = "jaccard"

    def features(self, graph: RawGraph) -> frozenset:
        concept = {s: t for s, r, t in graph.triples if r == ":instance"}
        return frozenset((concept.get(s, s), r, concept.get(t, t)) for s, r, t in graph.triples)

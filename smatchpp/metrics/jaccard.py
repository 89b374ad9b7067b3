"""Jaccard similarity of triple sets: the smallest metric, a check of the interface.

Variables are replaced by their concepts, so the metric needs no alignment:
``(d / dog :ARG0-of (b / bark-01))`` holds ``(dog, :instance, dog)``,
``(bark-01, :instance, bark-01)`` and ``(dog, :ARG0-of, bark-01)`` read as
written (no inversion, no TOP).  Its statistics are the sizes of the
intersection and the union; a corpus sums them.

>>> from smatchpp.read import read_text
>>> a, b = (e.graph for e in read_text("(d / dog :ARG0-of (b / bark-01))\\n\\n(x / dog)"))
>>> m = TripleJaccard()
>>> m.stats(m.features(a), m.features(b))
(1, 3)
>>> m.pair_score(m.features(a), m.features(a))
1.0
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..read import RawGraph
from .base import Metric
from .registry import register

__all__ = ["TripleJaccard"]


@register
@dataclass(frozen=True)
class TripleJaccard(Metric):
    """Jaccard of the sets of triples with variables replaced by their concepts."""

    name = "jaccard"
    stat_names = ("intersection", "union")
    headline = "score"

    def features(self, graph: RawGraph) -> frozenset:
        concept = {s: t for s, r, t in graph.triples if r == ":instance"}
        return frozenset((concept.get(s, s), r, concept.get(t, t)) for s, r, t in graph.triples)

    def stats(self, a: frozenset, b: frozenset) -> tuple[int, int]:
        return len(a & b), len(a | b)

    def upper_stats(self, a: frozenset, b: frozenset) -> tuple[int, int]:
        # |A ∩ B| <= min(|A|, |B|) and |A ∪ B| >= max(|A|, |B|)
        return min(len(a), len(b)), max(len(a), len(b))

    def scores(self, stats: np.ndarray) -> dict[str, np.ndarray]:
        s = np.asarray(stats, dtype=float)
        inter, union = s[..., 0], s[..., 1]
        # two empty graphs are equal: 1
        return {"score": np.divide(inter, union, out=np.ones_like(inter), where=union > 0)}

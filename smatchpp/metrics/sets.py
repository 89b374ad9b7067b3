"""Metrics that compare two sets: Jaccard of per-graph feature sets.

:class:`SetJaccard` is the shared part of the metrics whose features are a
frozen set per graph and whose score is ``|A ∩ B| / |A ∪ B|`` (1 for two empty
sets): the statistics are the intersection and the union, which a corpus sums
(REMATCH's corpus score), and the all-pairs matrix is one sparse product of
indicator matrices over the features seen.

>>> class Letters(SetJaccard):
...     name = "letters-example"
...     def features(self, graph):
...         return frozenset(graph)
>>> m = Letters()
>>> m.stats(frozenset("abc"), frozenset("bcd"))
(2, 4)
>>> m.stats_matrix([frozenset("abc")], [frozenset("bcd"), frozenset()]).tolist()
[[[2.0, 4.0], [0.0, 3.0]]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .base import Metric

__all__ = ["SetJaccard"]


@dataclass(frozen=True)
class SetJaccard(Metric):
    """Jaccard of feature sets; a subclass gives ``name`` and ``features`` (a frozenset)."""

    #: its bound depends on the graphs' sizes only: pruning ``search`` skipped 3-4% of the
    #: pairs and cost more than it saved (docs/benchmarks.md section 21)
    prune_search = False

    stat_names = ("intersection", "union")
    headline = "score"

    def stats(self, a: frozenset, b: frozenset) -> tuple[int, int]:
        inter = len(a & b)
        return inter, len(a) + len(b) - inter

    def upper_stats(self, a: frozenset, b: frozenset) -> tuple[int, int]:
        # |A ∩ B| <= min(|A|, |B|) and |A ∪ B| >= max(|A|, |B|)
        return min(len(a), len(b)), max(len(a), len(b))

    def upper_stats_matrix(self, a: frozenset, corpus: Sequence[frozenset]) -> np.ndarray:
        sizes = np.fromiter((len(b) for b in corpus), dtype=float, count=len(corpus))
        return np.stack([np.minimum(len(a), sizes), np.maximum(len(a), sizes)], axis=-1)

    def scores(self, stats: np.ndarray) -> dict[str, np.ndarray]:
        s = np.asarray(stats, dtype=float)
        inter, union = s[..., 0], s[..., 1]
        # two empty sets are equal: 1
        return {"score": np.divide(inter, union, out=np.ones_like(inter), where=union > 0)}

    def stats_matrix(self, feats_a: Sequence[frozenset], feats_b: Sequence[frozenset],
                     out: np.ndarray | None = None) -> np.ndarray:
        """Every pair's intersection and union from one sparse product of indicators."""
        from scipy import sparse

        vocab: dict = {}

        def indicators(feats: Sequence[frozenset]):
            rows, cols = [], []
            for i, f in enumerate(feats):
                for item in f:
                    rows.append(i)
                    cols.append(vocab.setdefault(item, len(vocab)))
            return rows, cols

        ra, ca = indicators(feats_a)
        rb, cb = indicators(feats_b)
        width = max(len(vocab), 1)
        xa = sparse.csr_matrix((np.ones(len(ra), np.int32), (ra, ca)), shape=(len(feats_a), width))
        xb = sparse.csr_matrix((np.ones(len(rb), np.int32), (rb, cb)), shape=(len(feats_b), width))
        inter = (xa @ xb.T).toarray()
        sa = np.array([len(f) for f in feats_a])
        sb = np.array([len(f) for f in feats_b])
        result = np.empty((len(feats_a), len(feats_b), 2))
        result[..., 0] = inter
        result[..., 1] = sa[:, None] + sb[None, :] - inter
        if out is not None:
            out[...] = result
            return out
        return result

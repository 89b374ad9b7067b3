"""The one protocol of an aspect, its count, and what an aspect set is.

An aspect scores a graph pair "with regard to" one part of its meaning.  It comes in one
of two shapes, and what it needs is an attribute of its class (:attr:`Aspect.aligned`), so
that the callers (:class:`smatchpp.aspects.core.AspectScorer`, the ``aspect`` metric,
``matrix --aspects``) call methods, never test a kind:

* :class:`GraphAspect` (``aligned = True``): Smatch on a graph cut out of (or transformed
  from) each side, :meth:`GraphAspect.graph`; the run's solver aligns the two (``separate``
  mode), or the full graphs' alignment counts them (``joint``).  :attr:`GraphAspect.main`
  marks the aspect that *is* the run's own score (Damonte's ``smatch``).
* :class:`UnalignedAspect` (``aligned = False``): counted from what it takes of each graph
  alone, :meth:`UnalignedAspect.features` once a graph, then :meth:`UnalignedAspect.count`
  for a pair; :meth:`UnalignedAspect.joint` counts it under the full graphs' alignment
  (``joint`` mode; by default the same count: a statistic needs no alignment).

Every aspect yields an :class:`AspectCount` ``(matched, upper, test, gold)`` a pair, so a
corpus score is a micro average of summed counts.

An :class:`AspectSet` is what the registry (:mod:`smatchpp.aspects.registry`) holds under a
set's name: its aspects' names in print order and how to build them.  A new set is one
module that defines ``ASPECT_SET = AspectSet(...)`` and one line naming it
(:data:`smatchpp.core.aspect_settings.ASPECT_SET_MODULES`, or an entry point of the group
``smatchpp.aspects`` in another package), and a line for the module in the ``aspects
inside`` contract of ``pyproject.toml``.

>>> AspectCount(1, 2, 3, 4) + AspectCount(1, 0, 0, 1)
AspectCount(matched=2, upper=2, test=3, gold=5)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Sequence

import numpy as np

from ..alignment.score import prf
from ..graphs.read import RawGraph
from ..graphs.triples import TripleGraph
from ..statistics.significance import prf_arrays

__all__ = ["AspectCount", "Aspect", "GraphAspect", "UnalignedAspect", "AspectSet", "EMPTY_RAW",
           "Standardizer", "aspect_scores"]

#: a graph without anything: what an absent or unreadable side is scored as
EMPTY_RAW = RawGraph(None, (), ())

#: a raw graph -> its triples under the run's preset
Standardizer = Callable[[RawGraph], TripleGraph]


@dataclass(frozen=True)
class AspectCount:
    """One aspect of one pair: ``matched`` (found), ``upper`` (proven bound), triple counts."""

    matched: float
    upper: float
    test: int
    gold: int
    #: the scores when both sides are empty: ``None`` (n/a, Damonte's aspects) or 1.0
    #: (vacuous agreement: smatchpp 1.8's and the thesis' aspects)
    vacuous: float | None = field(default=None, repr=False)

    def __add__(self, other: "AspectCount") -> "AspectCount":
        return AspectCount(self.matched + other.matched, self.upper + other.upper,
                           self.test + other.test, self.gold + other.gold, self.vacuous)

    def to_json(self) -> dict[str, Any]:
        """Counts and P/R/F1; no items on either side give ``None`` (n/a), not 0.

        >>> AspectCount(0, 0, 0, 0).to_json()["f1"] is None, AspectCount(0, 0, 0, 2).to_json()["f1"]
        (True, 0.0)
        >>> AspectCount(0, 0, 0, 0, vacuous=1.0).to_json()["f1"]
        1.0
        """
        p, r, f = ((self.vacuous,) * 3 if self.test == 0 and self.gold == 0
                   else prf(self.matched, self.test, self.gold))
        return {"matched": _num(self.matched), "upper": _num(self.upper), "test": self.test,
                "gold": self.gold, "precision": p, "recall": r, "f1": f}


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


def aspect_scores(stats: Any, vacuous: float | None) -> dict[str, np.ndarray]:
    """Precision, recall, F1 and ``f1_upper`` of ``(matched, upper, test, gold)`` statistics
    (any leading axes), as :meth:`AspectCount.to_json` scores one count: nothing on either
    side scores ``vacuous``, NaN when that is ``None`` (n/a).  The scores of the aspect
    metric (:mod:`smatchpp.metrics.aspect`) and of :func:`aspect_intervals`.

    >>> {k: v.tolist() for k, v in aspect_scores([[3, 4, 4, 6], [0, 0, 0, 0]], None).items()}
    {'precision': [0.75, nan], 'recall': [0.5, nan], 'f1': [0.6, nan], 'f1_upper': [0.8, nan]}
    """
    s = np.asarray(stats, dtype=np.float64)
    matched, upper, test, gold = (s[..., k] for k in range(4))
    p, r, f = prf_arrays(matched, test, gold)  # score.prf's operations, to the last bit
    out = {"precision": p, "recall": r, "f1": f, "f1_upper": prf_arrays(upper, test, gold)[2]}
    empty = (test == 0) & (gold == 0)
    if not empty.any():
        return out
    value = np.nan if vacuous is None else float(vacuous)
    return {k: np.where(empty, value, v) for k, v in out.items()}


class Aspect(ABC):
    """What every aspect has: ``name`` (its key in outputs), ``title`` (as printed),
    ``vacuous`` (the F1 when both sides have nothing of it: ``None`` = n/a, or 1.0) and
    :attr:`aligned` (whether counting it needs an alignment of the two sides)."""

    name: str
    title: str
    vacuous: float | None
    #: True: Smatch on :meth:`GraphAspect.graph` of each side; False: counted from each
    #: graph's :meth:`UnalignedAspect.features` alone
    aligned: ClassVar[bool]
    #: True for the aspect that is the run's own score (the full graphs, aligned once)
    main: ClassVar[bool] = False


class GraphAspect(Aspect):
    """Smatch on a graph of each side (a subgraph whose variables keep their names, or a
    transformed graph)."""

    aligned = True

    @abstractmethod
    def graph(self, raw: RawGraph, standardizer: Standardizer) -> TripleGraph:
        """The aspect's graph of ``raw`` (a graph with variables); ``standardizer`` turns a
        transformed raw graph into triples under the run's preset."""


class UnalignedAspect(Aspect):
    """An aspect counted without an alignment: from what it takes of each graph alone."""

    aligned = False

    @abstractmethod
    def features(self, raw: RawGraph) -> Any:
        """What the aspect compares of one graph (computed once a graph)."""

    @abstractmethod
    def count(self, fa: Any, fb: Any) -> AspectCount:
        """The pair's count from the two graphs' :meth:`features` (``fa``: the test side)."""

    @abstractmethod
    def size(self, features: Any) -> int:
        """The number of items in one graph's :meth:`features` (a self-pair's ``test``)."""

    def joint(self, raw_a: RawGraph, raw_b: RawGraph, alignment: Mapping[str, str]) -> AspectCount:
        """The pair's count under the full graphs' ``alignment`` (variable of A -> variable of
        B; ``joint`` mode).  By default the count without it."""
        return self.count(self.features(raw_a), self.features(raw_b))


@dataclass(frozen=True)
class AspectSet:
    """An aspect set, as the registry holds it under the set's name.

    ``names``: every aspect's name, in print order (corpus tables follow it);
    ``build(frames, vectors)``: the aspects, given the run's PropBank frame file and word
    vectors (``None``: none, the packaged vectors).  Which of the two a built-in set reads
    is on its registry line (:data:`smatchpp.core.aspect_settings.ASPECT_SET_MODULES`)."""

    names: tuple[str, ...]
    build: Callable[[str | None, str | None], Sequence[Aspect]]
    #: one line on what the set is
    title: str = ""

"""Each graph's features of every aspect of a set, once a graph (``matrix --aspects``:
:func:`aspect_features`).

An all-pairs matrix cuts every graph once and scores each aspect as a matrix of its own:
a :class:`~smatchpp.aspects.base.GraphAspect`'s graphs are solved like the main score,
an :class:`~smatchpp.aspects.base.UnalignedAspect` is counted from the features here
(:func:`count_rows`).  The run's own aspect (Damonte's ``smatch``) is the main matrix.

>>> from smatchpp.graphs.read import read_text
>>> from smatchpp.aspects.registry import aspect_list
>>> from smatchpp.presets import standardize
>>> graphs = [read_text(t)[0].graph for t in ("(a / and :op1 (b / boy) :op2 (c / boy))", "(b / boy)")]
>>> found = set_features(aspect_list("damonte", ["smatch", "concepts", "srl"]), graphs, standardize)
>>> list(found), found["concepts"][1]
(['concepts', 'srl'], [Counter({'boy': 2, 'and': 1}), Counter({'boy': 1})])
>>> concepts = found["concepts"][0]
>>> count_rows(concepts, found["concepts"][1], found["concepts"][1], [(0, 1)])
[(0, 1, 1, 1, 3, 1, 'optimal')]
>>> [g.n_triples for g in diagonal(concepts, found["concepts"][1])]
[3, 1]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from ..graphs.read import RawGraph
from ..graphs.triples import EMPTY
from .base import EMPTY_RAW, Aspect, Standardizer, UnalignedAspect

__all__ = ["aspect_features", "set_features", "count_rows", "diagonal", "ItemCount"]


def aspect_features(graphs: Sequence[RawGraph | None], config) -> dict[str, tuple[Aspect, list]]:
    """Each aspect of the run's set (``config``'s ``aspect_set``, its files) but the run's own
    score (the main matrix): ``name -> (aspect, [one a graph])`` (:func:`set_features`, the
    graphs standardized under ``config``'s preset)."""
    from ..presets import Options, standardize
    from .registry import aspect_list

    aspects = aspect_list(config.aspect_set, None, config.propbank_frames, config.vectors)
    return set_features(aspects, graphs, lambda raw: standardize(raw, config.preset, Options.of(config)))


def set_features(aspects: Sequence[Aspect], graphs: Sequence[RawGraph | None],
                 standardizer: Standardizer) -> dict[str, tuple[Aspect, list]]:
    """Every aspect but the run's own: ``name -> (aspect, [one a graph])``, the aspect's graph
    (a TripleGraph, to solve; ``standardizer`` turns a transformed graph into triples) or its
    unaligned features, computed graph by graph (smatchpp 1.8's extractor cuts all of a
    graph's subgraphs at once)."""
    chosen = [a for a in aspects if not a.main]
    out: dict[str, tuple[Aspect, list]] = {a.name: (a, []) for a in chosen}
    for raw in graphs:
        for a in chosen:
            if a.aligned:
                out[a.name][1].append(a.graph(raw, standardizer) if raw and raw.variables else EMPTY)
            else:
                out[a.name][1].append(a.features(raw or EMPTY_RAW))
    return out


def count_rows(aspect: UnalignedAspect, features_a: Sequence[Any], features_b: Sequence[Any],
               pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int, float, float, int, int, str]]:
    """``(i, j, matched, upper, test, gold, "optimal")`` of each pair ``(i, j)``, counted
    from the two graphs' features (exact: no alignment is involved)."""
    rows = []
    for i, j in pairs:
        c = aspect.count(features_a[i], features_b[j])
        rows.append((i, j, c.matched, c.upper, c.test, c.gold, "optimal"))
    return rows


@dataclass(frozen=True)
class ItemCount:
    """A graph's number of items, in the place of a graph's triples (``n_triples``)."""

    n_triples: int


def diagonal(aspect: Aspect, features: Sequence[Any]) -> list:
    """What a self-pair's score needs of each graph: its graph, or its number of items."""
    if aspect.aligned:
        return list(features)
    return [ItemCount(aspect.size(f)) for f in features]

"""Presets: named standardizations, from a graph as written to the triples compared.

A preset is data (:class:`Preset`): how the triples are built, the rules
applied to the graph before that, and an optional rewrite of each pair.
:data:`PRESETS` names them; ``Config.preset`` and ``--preset`` take a name
from it, and an unknown name is an error (it never becomes a new signature).

========================  ==============================================================
``smatch`` (default)      smatch 1.0.4's triples, its quirks included
                          (:mod:`smatchpp.standardize`)
``smatch-legacy``         smatch <= 1.0.2: as ``smatch``, but TOP's value is the root's
                          concept (the published BAMBOO Smatch row used it)
``generic``               lower-cased labels, quoted constants kept whole, inverted roles
                          onto constants kept, duplicates removed (:mod:`.graph`)
``amr``                   ``generic`` + AMR normalization: role directions, dereification
                          by the guidelines' table, ``:wiki`` dropped (:mod:`.amr`)
``smatchpp18-lossy``      ``smatch`` triples, then smatchpp 1.8's concept-as-identity pair
                          rewrite: a different metric (:mod:`.smatchpp18`)
========================  ==============================================================

``smatch-legacy`` models one change only, smatch 1.0.3's "TOP's value is a
constant" (snowblink14/smatch PR #30).  smatch 1.0.2 differs from 1.0.4 in
more (1.0.3's PR #16: no ``:mod`` to ``:domain``, ``consist-of`` and the two
``prep-*-of`` inverted, an ``-of`` role onto a variable not inverted when
another role follows on the same line), and the tool behind the published
BAMBOO row (flipz357/amr-metric-suite 711a231, a smatch of 2016) also keeps
one relation per pair of nodes and one attribute per role name and node.
None of these is modelled: the TOP change alone puts the exact scores within
0.14 of every published cell (``docs/results.md``).

>>> sorted(PRESETS)
['amr', 'generic', 'smatch', 'smatch-legacy', 'smatchpp18-lossy']
>>> from smatchpp.read import read_text
>>> raw = read_text('(c / City :name "New York" :mod (b / big) :mod (b2 / big))')[0].graph
>>> for name in ("smatch", "smatch-legacy", "generic", "amr"):
...     g = standardize(raw, name)
...     print(f"{name:14s}", g.n_triples, g.attributes, g.relations)
smatch         7 ((0, 'name', 'new'), (0, 'top', 'top')) ((1, 'domain', 0), (2, 'domain', 0))
smatch-legacy  7 ((0, 'name', 'new'), (0, 'top', 'city')) ((1, 'domain', 0), (2, 'domain', 0))
generic        7 ((0, 'name', 'new york'), (0, 'top', 'top')) ((0, 'mod', 1), (0, 'mod', 2))
amr            7 ((0, 'name', 'new york'), (0, 'top', 'top')) ((1, 'domain', 0), (2, 'domain', 0))
>>> get_preset("smatch-1.0.4")
Traceback (most recent call last):
...
ValueError: unknown preset 'smatch-1.0.4'; choose from smatch, smatch-legacy, generic, amr, smatchpp18-lossy
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable, Optional

from ..read import RawGraph
from ..standardize import TripleGraph, smatch_triples, standardize
from .amr import AMR_RULES
from .graph import GENERIC_RULES, Options, Rule, build_triples, to_penman
from .smatchpp18 import concept_identity

__all__ = ["Preset", "Options", "PRESETS", "get_preset", "standardize", "describe", "PairRewrite"]

#: a rewrite of a standardized pair (both graphs at once)
PairRewrite = Callable[[TripleGraph, TripleGraph], "tuple[TripleGraph, TripleGraph]"]


@dataclass(frozen=True)
class Preset:
    """A named standardization.

    Either ``builder`` makes the triples straight from the graph as written
    (the smatch presets, which reproduce smatch's reader), or the graph goes
    through penman, ``rules`` run in order and :func:`~.graph.build_triples`
    makes the triples.  ``pair_rewrite``, if any, rewrites each standardized
    pair before it is scored.
    """

    description: str
    rules: tuple[Rule, ...] = ()
    builder: Optional[Callable[[RawGraph], TripleGraph]] = None
    pair_rewrite: Optional[PairRewrite] = None
    #: a one-line warning printed with every score (for presets that are not Smatch)
    note: str = ""
    #: the :class:`Options` fields its rules read (they then appear in the signature)
    options: tuple[str, ...] = ()

    def standardize(self, raw: RawGraph, options: Options = Options()) -> TripleGraph:
        """The triples of ``raw`` under this preset."""
        if self.builder is not None:
            return self.builder(raw)
        g = to_penman(raw)
        for rule in self.rules:
            g = rule(g, options)
        return build_triples(g, raw.variables)


PRESETS: dict[str, Preset] = {
    "smatch": Preset(
        "smatch 1.0.4's triples (default): TOP value 'top', -of inverted, :mod as inverse "
        ":domain, quoted constants cut at the first space, inverted roles onto constants "
        "dropped, duplicates counted",
        builder=smatch_triples),
    "smatch-legacy": Preset(
        "smatch <= 1.0.2: as smatch, but the TOP attribute's value is the root's concept "
        "(the published BAMBOO Smatch row)",
        builder=partial(smatch_triples, top="concept")),
    "generic": Preset(
        "lower-cased labels, quoted constants kept whole, -of roles inverted (onto constants "
        "kept as written), duplicate triples removed",
        rules=GENERIC_RULES),
    "amr": Preset(
        "generic + AMR normalization: -of roles by the AMR model, :mod as inverse :domain, "
        "dereification by the guidelines' table, :wiki dropped (unless --keep-wiki)",
        rules=AMR_RULES, options=("keep_wiki",)),
    "smatchpp18-lossy": Preset(
        "smatch triples, then smatchpp 1.8's concept-as-identity rewrite of each pair: "
        "a different metric, not Smatch",
        builder=smatch_triples, pair_rewrite=concept_identity,
        note="preset smatchpp18-lossy is smatchpp 1.8's concept-as-identity metric: "
             "these are not Smatch scores"),
}


def get_preset(preset: "str | Preset") -> Preset:
    """The preset named ``preset`` (a :class:`Preset` is returned as is)."""
    if isinstance(preset, Preset):
        return preset
    try:
        return PRESETS[preset]
    except (KeyError, TypeError):
        raise ValueError(f"unknown preset {preset!r}; choose from {', '.join(PRESETS)}") from None


def describe() -> str:
    """One line per preset, for ``--help``."""
    return "; ".join(f"{name}: {p.description}" for name, p in PRESETS.items())

"""Presets: named standardizations, from a graph as written to the triples compared.

A preset is data (:class:`Preset`): how the triples are built, the rules
applied to the graph before that, and an optional rewrite of each pair.
:data:`PRESETS` names them (another installed package adds one through the
``smatchpp.presets`` entry-point group, :mod:`smatchpp.core.plugins`); ``Config.preset`` and ``--preset`` take a name
from it, and an unknown name is an error (it never becomes a new signature).

========================  ==============================================================
``smatch`` (default)      smatch 1.0.4's triples, its quirks included
                          (:mod:`smatchpp.graphs.triples`); PyPI smatch 1.0.3.2's are the same
``smatch-legacy``         ``smatch``'s triples with TOP's value the root's concept: a hybrid
                          that no release of smatch had (see below)
``amr-suite``             the reader the reference tools bundle: amr-metric-suite's Smatch
                          and S2Match (BAMBOO's rows), the WSMATCH tool (:mod:`.suite`)
``smatch-1.0.1``          PyPI smatch 1.0.1's reader, the one ``mdtux89/amr-evaluation``
                          bundles (alias ``amr-evaluation``; :mod:`.suite`)
``generic``               lower-cased labels, quoted constants kept whole, inverted roles
                          onto constants kept, duplicates removed (:mod:`.graph`)
``amr``                   ``generic`` + AMR normalization: role directions, dereification
                          by the guidelines' table, ``:wiki`` dropped (:mod:`.amr`)
``smatchpp18-lossy``      ``smatch`` triples, then smatchpp 1.8's concept-as-identity pair
                          rewrite: a different metric (:mod:`.smatchpp18`)
``smatchpp18-amr``        smatchpp 1.8's ``-graph_type amr`` triples, on which its aspects
                          are defined (:mod:`.smatchpp18amr`)
========================  ==============================================================

Which preset reproduces which published number is the table of
``docs/reference-readers.md``; ``experiments/compare_readers.py`` runs each
reference reader as a peer and compares the triples graph by graph (equal on
all 54,292 graphs of BAMBOO's 12 tasks and AMRParseEval's Little Prince).

``smatch-legacy`` is what it is: smatch 1.0.4's reader (its ``:mod`` to
``:domain``, its ``-of`` exceptions, every ``-of`` inverted) with one older
convention, TOP's value the root's concept.  smatch 1.0.3's reader (PyPI
1.0.3.2) gives the triples of ``smatch``, TOP ``top`` included, so it differs
from ``smatch-legacy`` in the TOP triple of every graph; smatch 1.0.1's reader
(``smatch-1.0.1``) has TOP's concept but none of 1.0.3's other changes, and its
triples differ on 21,349 of those 54,292 graphs (totals on 35 of 27,146
pairs).  The published BAMBOO rows came from ``amr-suite``'s reader.
``smatch-legacy`` is kept because earlier results used it.

>>> sorted(PRESETS)
['amr', 'amr-suite', 'generic', 'smatch', 'smatch-1.0.1', 'smatch-legacy', 'smatchpp18-amr', 'smatchpp18-lossy']
>>> from smatchpp.graphs.read import read_text
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
ValueError: unknown preset 'smatch-1.0.4'; choose from smatch, smatch-legacy, amr-suite, smatch-1.0.1, generic, amr, smatchpp18-lossy, smatchpp18-amr
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Callable, Optional

from ..core.plugins import GROUPS, load
from ..core.settings import Settings, boolean, name_in, setting
from ..graphs.read import RawGraph
from ..graphs.triples import PresetName, TripleGraph, smatch_triples
from .amr import AMR_RULES
from .graph import GENERIC_RULES, Options, Rule, build_triples, to_penman
from .smatchpp18 import concept_identity
from .suite import suite_triples
from .smatchpp18amr import amr18_graph

__all__ = ["Preset", "Options", "preset_names", "PRESETS", "ALIASES", "get_preset", "canonical", "standardize", "describe", "load_plugins",
           "PairRewrite", "PresetSettings"]

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
    #: its triples depend on the layout (the order of a node's roles, where a node is
    #: written), as a reference reader's do: a graph re-rendered can score below 1
    layout: bool = False

    def standardize(self, raw: RawGraph, options: Options = Options()) -> TripleGraph:
        """The triples of ``raw`` under this preset (a document graph keeps ``raw`` with them:
        :attr:`TripleGraph.document`)."""
        if self.builder is not None:
            out = self.builder(raw)
        else:
            g = to_penman(raw)
            for rule in self.rules:
                g = rule(g, options)
            out = build_triples(g, raw.variables)
        top = raw.top
        if any(s == top and r.startswith(":snt") for s, r, _ in raw.triples):
            out = replace(out, document=raw)
        return out


PRESETS: dict[str, Preset] = {
    "smatch": Preset(
        "smatch 1.0.4's triples: TOP value 'top', -of inverted, :mod as inverse "
        ":domain, quoted constants cut at the first space, inverted roles onto constants "
        "dropped, duplicates counted",
        builder=smatch_triples),
    "smatch-legacy": Preset(
        "smatch 1.0.4's triples with the TOP attribute's value the root's concept (as smatch "
        "<= 1.0.2): a hybrid no release had; amr-suite is the published BAMBOO rows' reader",
        builder=partial(smatch_triples, top="concept")),
    "amr-suite": Preset(
        "the reader the reference tools bundle (amr-metric-suite's Smatch and S2Match, the "
        "WSMATCH tool; smatch's amr.py of 2016): TOP value the root's concept, -of inverted "
        "only onto a node written there or before ')', :mod kept, one relation per pair of "
        "nodes, one attribute per role and node, quoted constants cut at the first space",
        builder=suite_triples, layout=True),
    "smatch-1.0.1": Preset(
        "PyPI smatch 1.0.1's reader, which mdtux89/amr-evaluation bundles: amr-suite's rules, but every relation and attribute kept and a "
        "trailing _ stripped from labels",
        builder=partial(suite_triples, keep_all=True, strip=True), layout=True),
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
    "smatchpp18-amr": Preset(
        "smatchpp 1.8's -graph_type amr triples: every '\"' and \"'\" deleted, :domain as inverse "
        ":mod, every -of inverted, root as (root, :root, its concept), dereification, duplicates "
        "removed (the triples its aspects are defined on)",
        builder=amr18_graph),
}


#: other names of a preset (the tool that bundles the same reader); ``Config`` stores the name
ALIASES: dict[str, str] = {"amr-evaluation": "smatch-1.0.1"}


def canonical(name: str) -> str:
    """The registry name of ``name`` (an alias's preset; any other name unchanged)."""
    return ALIASES.get(name, name)


def get_preset(preset: "str | Preset") -> Preset:
    """The preset named ``preset`` or an alias of it (a :class:`Preset` is returned as is)."""
    if isinstance(preset, Preset):
        return preset
    load_plugins()
    try:
        return PRESETS[canonical(preset)]
    except (KeyError, TypeError):
        raise ValueError(f"unknown preset {preset!r}; choose from {', '.join(PRESETS)}") from None


def describe() -> str:
    """One line per preset, for ``--help``."""
    load_plugins()
    aliases = {target: alias for alias, target in ALIASES.items()}
    return "; ".join(f"{name}: {p.description}{f' (alias {aliases[name]})' if name in aliases else ''}"
                     for name, p in PRESETS.items())


def preset_names() -> tuple[str, ...]:
    """The names :func:`standardize` accepts: the keys of :data:`PRESETS` and their
    aliases (:data:`ALIASES`), the installed extensions' included."""
    load_plugins()
    return tuple(PRESETS) + tuple(ALIASES)


def standardize(raw: RawGraph, preset: "PresetName | Preset" = "smatch", options: Options | None = None,
                **option_values) -> TripleGraph:
    """Turn a :class:`RawGraph` into the triples of ``preset`` (a registered name or a preset).

    ``options`` (or keyword arguments such as ``keep_wiki=True``) are the
    preset options of :class:`Options`.  An unknown preset name raises
    :class:`ValueError` listing the known ones.
    """
    if options is None:
        options = Options(**option_values)
    elif option_values:
        raise TypeError("give either options or keyword options, not both")
    return get_preset(preset).standardize(raw, options)


def _accept(name: str, obj: object) -> Preset:
    """An entry point's preset, checked: a :class:`Preset` under a name not yet taken."""
    if not isinstance(obj, Preset):
        raise TypeError(f"{obj!r} is not a smatchpp.presets.Preset")
    if name in PRESETS or name in ALIASES:
        raise ValueError(f"preset {name!r} exists already (an extension never replaces a preset)")
    return obj


def _register(name: str, preset: Preset) -> None:
    PRESETS[name] = preset


#: the names the entry points registered, once they are loaded
_PLUGINS: list[str] = []
_LOADED: list[bool] = []


def load_plugins() -> list[str]:
    """Register the presets of the installed packages' ``smatchpp.presets`` entry points
    (:mod:`smatchpp.core.plugins`), once, on the first look-up by name (not on import: an
    extension imports :mod:`smatchpp.presets` itself); returns their names."""
    if not _LOADED:
        _LOADED.append(True)  # first: an extension that looks a preset up does not recurse
        _PLUGINS.extend(load(GROUPS["presets"], _accept, _register))
    return list(_PLUGINS)


def _drops_wiki(owner) -> bool:
    """Whether the preset reads ``keep_wiki`` (``amr`` drops ``:wiki`` triples without it)."""
    return "keep_wiki" in get_preset(owner.preset).options


@dataclass(frozen=True)
class PresetSettings(Settings):
    """The standardization: which triples are compared (``preset``, an alias signs as its
    preset) and whether ``:wiki`` triples are kept (``keep_wiki``: only a preset that drops
    them reads it, and the signature shows it when it is set or read)."""

    preset: str = setting("smatch", "preset", check=name_in(preset_names, "preset"))
    keep_wiki: bool = setting(False, "keep-wiki", check=boolean, show=lambda s: s.keep_wiki or _drops_wiki(s),
                              needs=(_drops_wiki, "a preset that drops :wiki triples (--preset amr)"))

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "preset", canonical(self.preset))

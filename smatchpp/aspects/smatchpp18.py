"""smatchpp 1.8's aspects (``-score_dimension all-multialign|all-onealign``), our definitions.

Opitz's smatchpp 1.8 scores a pair "with regard to" an aspect by cutting the
aspect's subgraph out of each graph and scoring the two subgraphs with Smatch
(one alignment per aspect, or the full graphs' alignment for all).  This
module defines the same nineteen aspects on the triples of 1.8's ``amr``
standardization (:mod:`smatchpp.presets.smatchpp18amr`, the preset
``smatchpp18-amr``), written from reading 1.8's extractor and resources (which
are GPLv3; nothing of them is copied here).  The names are 1.8's, so that
its output and ours can be read side by side.

An aspect (:class:`Rule`) selects, from the standardized graph ``G``:

1. every triple whose role is one of ``relations``;
2. with a concept ``group``: every triple from or to a node that is the source
   of a triple whose target is in the group (any triple: an instance triple,
   the root triple, or a constant spelled like the concept);
3. ``context`` levels of descendants: at each level, every non-instance triple
   of ``G`` whose source is the target of a triple selected so far;
4. with ``parents``: every triple of ``G`` into the source of a triple of (1-2);
5. with ``predicates``: for every node of a triple selected so far, the triples into
   it (not the root triple) from a node that has no incoming and exactly one
   outgoing non-instance triple in ``G`` (a "predicate" of the node);
6. the instance triple of every variable of a selected triple.

The subgraph is the *set* of these triples.  REENTRANCIES is every
non-instance triple into a variable with more than one incoming triple, plus
(6).  Before extraction, roles are renamed by PropBank's frame descriptions
(1.8's "semantic standardization"): when the description of ``:argN`` of a
frame contains an aspect's keyword (" instrument ", " cause ", ...),
``(x / frame :argN y)`` becomes ``(x :instrument y)`` and so on, the last matching
keyword of the last aspect winning, as in 1.8.  The frame file
(``propbank-amr-frames-arg-descr.txt``, one frame a line:
``frame  ARG0: description  ARG1: ...``) ships inside smatchpp 1.8's PyPI
package under no licence of its own, so we do not ship it or a table derived
from it: give it with ``--propbank-frames FILE``.  Without it no role is
renamed (1.8 does the same when its download fails) and the output says so.

A subgraph that is empty on both sides scores 1 (vacuous agreement), as in 1.8
and the thesis (:attr:`~smatchpp.aspects.core.AspectCount.vacuous`).

>>> from smatchpp.graphs.read import read_text
>>> raw = read_text('(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))')[0].graph
>>> sub = Extractor().subgraphs(raw)
>>> sorted(sub["POLARITY"].triples())   # w has two roles and the root: no predicate of g
[('g', 'instance', 'go-02'), ('g', 'polarity', '-')]
>>> raw2 = read_text('(g / go-02 :polarity - :ARG1-of (w / want-01))')[0].graph
>>> sorted(Extractor().subgraphs(raw2)["POLARITY"].triples())   # w: no parent, one role
[('g', 'instance', 'go-02'), ('g', 'polarity', '-'), ('w', 'arg1', 'g'), ('w', 'instance', 'want-01')]
>>> sorted(sub["REENTRANCIES"].triples())
[('b', 'instance', 'boy'), ('g', 'arg0', 'b'), ('g', 'instance', 'go-02'), ('w', 'arg0', 'b'), ('w', 'instance', 'want-01')]
>>> sub["CAUSE"].n_triples
0
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..core.exceptions import UsageError
from ..presets.smatchpp18amr import INSTANCE, ROOT, Triple18, amr18_triples, to_triple_graph
from ..graphs.read import RawGraph
from ..graphs.triples import TripleGraph
from .base import AspectSet, GraphAspect, Standardizer

__all__ = ["Rule", "RULES", "NAMES", "Extractor", "read_frames", "frame_roles", "Aspect18",
           "aspects", "FramesError", "ASPECT_SET"]

# concept groups (1.8's concept_groups.json has more groups; these are the ones its aspects use)
_CAUSE = ("cause-01",)
_DATES = ("date-entity", "date-interval")
_MATH = ("sum-of", "product-of")
_QUESTIONS = ("amr-unknown",)
# 1.8's list, with its two entries that no concept spells ("forest moon", "voltage-quantity (zap!)"):
# only a constant with that text can match them, as in 1.8
_LOCATIONS = ("city", "city-district", "county", "state", "province", "territory", "country",
              "local-region", "country-region", "world-region", "continent", "ocean", "sea", "lake",
              "river", "gulf", "bay", "strait", "canal", "peninsula", "mountain", "volcano", "valley",
              "canyon", "island", "desert", "forest moon", "planet", "star", "constellation")
_QUANTITIES = tuple(f"{q}-quantity" for q in (
    "monetary", "distance", "area", "volume", "temporal", "frequency", "speed", "acceleration",
    "mass", "force", "pressure", "energy", "power")) + ("voltage-quantity (zap!)",) + tuple(
    f"{q}-quantity" for q in ("charge", "potential", "resistance", "inductance", "magnetic-field",
                              "magnetic-flux", "radiation", "concentration", "temperature", "score",
                              "fuel-consumption", "seismic"))
_CORE = tuple(f":arg{n}" for n in range(10))


@dataclass(frozen=True)
class Rule:
    """One aspect: see the module docstring for what each field selects."""

    name: str
    relations: tuple[str, ...] = ()
    group: tuple[str, ...] = ()
    #: (keyword of a PropBank role description, role it renames the argument to)
    keywords: tuple[tuple[str, str], ...] = ()
    context: int = 2
    parents: bool = False
    predicates: bool = True


#: smatchpp 1.8's aspects, in its order (REENTRANCIES, which has no rule, comes last)
RULES: tuple[Rule, ...] = (
    Rule("AGENT", (":arg0",)),
    Rule("CAUSE", (":cause",), _CAUSE, ((" cause ", ":cause"),)),
    Rule("CONCEPT", (INSTANCE,), context=0, predicates=False),
    Rule("FOCUS", (ROOT,)),
    Rule("INSTRUMENT", (":instrument",), (), ((" instrument ", ":instrument"), (" tool ", ":instrument"),
                                              ("instrumental", ":instrument"))),
    Rule("LOCATION (spatial)", (":location", ":path", ":destination", ":direction"), _LOCATIONS,
         ((" location ", ":location"), (" path ", ":path"), (" destination ", ":destination"),
          (" direction ", ":direction"))),
    Rule("MATHS", (), _MATH),
    Rule("NER", (":name",)),
    Rule("PATIENT", _CORE[1:]),
    Rule("POLARITY", (":polarity",)),
    Rule("POSSESSION", (":poss",), (), ((" owner ", ":poss"), (" possession ", ":poss-of"))),
    Rule("PURPOSE", (":purpose",), (), ((" purpose ", ":purpose"),)),
    Rule("QUANTIFIER", (":quant",), _QUANTITIES, ((" quantity ", ":quant"), (" amount ", ":quant"))),
    Rule("QUESTION", (), _QUESTIONS, context=0, parents=True),
    Rule("SRL-core", _CORE),
    Rule("TIME (temporal)", (":time", ":duration", ":frequency"), _DATES,
         ((" time ", ":time"), (" duration ", ":duration"), (" frequency ", ":frequency"))),
    Rule("TOPIC", (":topic",), (), ((" topic ", ":topic"),)),
    Rule("WIKI", (":wiki",), context=0, predicates=False),
)

#: every aspect name, in 1.8's output order
NAMES: tuple[str, ...] = tuple(r.name for r in RULES) + ("REENTRANCIES",)


class FramesError(UsageError):
    """A PropBank frame file that cannot be read (names the file and line)."""


def read_frames(path: str) -> dict[str, dict[str, str]]:
    """``frame -> {":argN": " description "}`` from a frame file (module docstring).

    As 1.8 reads it: the line is lower-cased and cut at every ``"  arg"`` (two
    spaces); in a description ``", "`` and ``". "`` become spaces, runs of spaces
    one, and a space is put at both ends, so that keywords match whole words.
    """
    frames: dict[str, dict[str, str]] = {}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError) as e:
        raise FramesError(f"{path}: cannot read the PropBank frame file: {e}") from None
    for number, line in enumerate(lines, 1):
        if not line:
            continue
        frame, *roles = line.lower().split("  arg")
        frames[frame] = {}
        for part in roles:
            role, sep, text = part.replace(", ", " ").replace(". ", " ").partition(": ")
            if not sep:
                raise FramesError(f"{path}, line {number}: role {'arg' + role!r} of {frame!r} has no "
                                  "': description'")
            frames[frame][":arg" + role] = " " + " ".join(text.split(": ")[0].split()) + " "
    if not any(frames.values()):  # empty, or no line names a role: not a frame file (issue 33)
        raise FramesError(f"{path}: no line of the form 'frame  arg0: description  arg1: ...': "
                          f"{'an empty file' if not frames else 'not a PropBank frame file'} "
                          "(--propbank-frames wants propbank-amr-frames-arg-descr.txt)")
    return frames


def frame_roles(frames: Mapping[str, Mapping[str, str]], rules: Iterable[Rule] = RULES
                ) -> dict[str, dict[str, str]]:
    """``frame -> {":argN": new role}``: the renamings the frame descriptions imply.

    >>> frame_roles({"hit-01": {":arg0": " hitter ", ":arg2": " instrument thing hit with "}})
    {'hit-01': {':arg2': ':instrument'}}
    """
    out: dict[str, dict[str, str]] = {}
    for rule in rules:
        for frame, roles in frames.items():
            for role, text in roles.items():
                for word, new in rule.keywords:
                    if word in text:
                        out.setdefault(frame, {})[role] = new
    return out


def _n_incoming(triples: Iterable[Triple18]) -> Counter:
    return Counter(t for _, _, t in triples)


@dataclass
class Extractor:
    """Cuts every aspect's subgraph out of a graph, once per graph.

    ``frames``: a PropBank frame file or ``None``.  :meth:`subgraphs` remembers
    the last ``cache`` graphs it was given (by identity), so that the nineteen
    aspects of a pair extract each graph once.
    """

    frames: str | None = None
    cache: int = 8
    roles: dict[str, dict[str, str]] = field(init=False)
    _memo: dict[int, tuple[RawGraph, dict[str, TripleGraph]]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.roles = frame_roles(read_frames(self.frames)) if self.frames else {}

    def subgraphs(self, raw: RawGraph) -> dict[str, TripleGraph]:
        """Every aspect's subgraph of ``raw``, as a :class:`TripleGraph` (variables keep their names)."""
        hit = self._memo.get(id(raw))
        if hit is not None and hit[0] is raw:
            return hit[1]
        triples = amr18_triples(raw)
        out = {name: to_triple_graph(raw, sub) for name, sub in self.triples(triples).items()}
        if self.cache > 0:
            if len(self._memo) >= self.cache:
                self._memo.pop(next(iter(self._memo)))
            self._memo[id(raw)] = (raw, out)
        return out

    def triples(self, graph: list[Triple18]) -> dict[str, list[Triple18]]:
        """Every aspect's subgraph of the standardized triples ``graph``."""
        concept = {s: t for s, r, t in graph if r == INSTANCE}
        if self.roles:
            graph = [(s, self.roles[concept[s]][r], t)
                     if r != INSTANCE and s in concept and r in self.roles.get(concept[s], ()) else (s, r, t)
                     for s, r, t in graph]
        edges = [t for t in graph if t[1] != INSTANCE]
        incoming = _n_incoming(edges)
        outgoing = Counter(s for s, _, _ in edges)
        children: dict[Any, list[Triple18]] = {}
        for t in edges:
            children.setdefault(t[0], []).append(t)
        into: dict[Any, list[Triple18]] = {}
        for t in graph:
            into.setdefault(t[2], []).append(t)

        def finish(chosen: set[Triple18]) -> list[Triple18]:
            for s, _, t in list(chosen):
                for node in (s, t):
                    if node in concept:
                        chosen.add((node, INSTANCE, concept[node]))
            return sorted(chosen, key=_order)

        out: dict[str, list[Triple18]] = {}
        for rule in RULES:
            base = [t for t in graph if t[1] in rule.relations]
            if rule.group:
                group = set(rule.group)
                nodes = {s for s, _, t in graph if t in group}
                base += [t for t in graph if t[0] in nodes or t[2] in nodes]
            chosen = set(base)
            for _ in range(rule.context):
                more = {c for _, _, t in chosen for c in children.get(t, ())} - chosen
                if not more:
                    break
                chosen |= more
            if rule.parents:
                chosen |= {p for s, _, _ in base for p in into.get(s, ())}
            if rule.predicates:
                for s, _, t in list(chosen):
                    for node in (s, t):
                        chosen.update(p for p in into.get(node, ()) if p[1] not in (ROOT, INSTANCE)
                                      and incoming[p[0]] == 0 and outgoing[p[0]] == 1)
            out[rule.name] = finish(chosen)
        total_incoming = _n_incoming(graph)
        out["REENTRANCIES"] = finish({t for t in edges if t[2] in concept and total_incoming[t[2]] > 1})
        return out


def _order(t: Triple18) -> tuple:
    s, r, o = t
    return (0, s, "") if isinstance(s, int) else (1, 0, s), r, (0, o, "") if isinstance(o, int) else (1, 0, o)


@dataclass(frozen=True)
class Aspect18(GraphAspect):
    """One aspect of the set: Smatch on its subgraph, :meth:`graph` (the standardizer is
    not used: the subgraph is cut from 1.8's triples, whatever the run's preset)."""

    name: str
    title: str
    extractor: Extractor = field(repr=False, compare=False)
    #: the F1 of a pair whose subgraphs are both empty
    vacuous: float = 1.0

    def graph(self, raw: RawGraph, standardizer: Standardizer) -> TripleGraph:
        return self.extractor.subgraphs(raw)[self.name]


def aspects(frames: str | None = None) -> list[Aspect18]:
    """The nineteen aspects, sharing one :class:`Extractor` (``frames``: the PropBank frame file)."""
    extractor = Extractor(frames)
    return [Aspect18(name, name, extractor) for name in NAMES]


#: the set (the registry's ``smatchpp18``); it reads a PropBank frame file
ASPECT_SET = AspectSet(NAMES, lambda frames, vectors: aspects(frames), title="smatchpp 1.8's subgraph aspects")

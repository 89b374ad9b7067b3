"""Damonte et al. (2017)'s aspect set: the fine-grained scores of ``amr-evaluation``, solved exactly.

Parser papers report, beside Smatch, the scores of ``mdtux89/amr-evaluation``
(Damonte, Cohen and Satta, EACL 2017).  They come in two kinds, and both are
in the registry :data:`ASPECTS` (name -> aspect, in the order papers print them):

* **set aspects** compare multisets of labels, no alignment needed:
  ``concepts``, ``named_ent``, ``negations``, ``wikification``;
* **graph aspects** are Smatch on a transformed graph or on a subgraph:
  ``smatch`` (the run's own score), ``unlabeled``, ``no_wsd``,
  ``reentrancies``, ``srl``.  ``amr-evaluation`` aligns them with smatch's
  hill-climber; here the run's solver aligns them (exactly, by default).

Two modes (smatchpp 1.8 offers both, as ``all-multialign`` and ``all-onealign``):

* ``separate`` (Damonte's definition, the default): every graph aspect is
  aligned on its own, and set aspects ignore variables;
* ``joint``: the one alignment of the full graphs (the run's main score) is
  used for every aspect.  A set item is then anchored at its variable and
  matches only the same label at the aligned variable; a graph aspect counts
  the triples that alignment matches (:mod:`smatchpp.alignment.matching`).  Joint
  scores never exceed separate ones and decompose one alignment.

Every aspect yields per-pair sufficient statistics ``(matched, upper, test,
gold)``, so corpus scores are micro averages of summed counts, as in
``amr-evaluation``.

The extractors read the graph as written (a :class:`~smatchpp.graphs.read.RawGraph`)
with Damonte's conventions: every role ending in ``-of`` is inverted (also
``consist-of``), ``:mod`` is *not* turned into ``:domain``, role tests are
case-sensitive (``:name``, ``:polarity``, ``:wiki``, roles starting with
``ARG``).  Labels are compared after smatch's normalisation (lower case,
trailing ``_`` removed, first token of a quoted string).

Where we differ from ``amr-evaluation``, and why:

* Smatch, Unlabeled and No WSD are built on the run's triples (smatch 1.0.4's
  by default), so that the Smatch row is the run's own score: ``TOP`` is
  ``(root, top, top)`` where ``amr-evaluation``'s bundled older smatch uses
  the root's concept as value, ``:mod`` becomes an inverse ``:domain`` and
  ``:mod <constant>`` is lost as in smatch 1.0.4.
* A triple repeated in a graph matches ``min(c_A, c_B)`` times; smatch's
  hill-climber counts every copy (smatch issues #15 and #28).  This is why
  our Unlabeled can be below ``amr-evaluation``'s on a pair (two roles
  between the same nodes become two ``:label`` copies).
* Set aspects compare normalised labels; ``amr-evaluation`` compares the
  strings as written (``Paris`` and ``"Paris"`` differ there, ``Dog`` and ``dog`` too).
* The ``TOP`` attribute that ``amr-evaluation`` adds to the Reentrancies and
  SRL subgraphs goes on the source of the first triple in its list; we order
  that list by source variable.  Its parser files an ``-of`` role written on
  a reference that another role follows (``:ARG0-of b :ARG1 ...``) under the
  other node, which can move that ``TOP``; we do not model that.
* An inverted role onto a constant is dropped (smatch loses it; ``amr-evaluation``
  can keep its variable in the SRL subgraph).  No WSD rewrites every concept,
  whatever the spacing around ``/``; Unlabeled rewrites roles only (the
  ``sed`` rule also rewrites a colon inside a quoted string).

Unlabeled can count more triples than Smatch on the same files, as in
``amr-evaluation``: smatch 1.0.4 drops an inverted role onto a constant
(``:mod 1`` becomes an inverse ``:domain``, ``:ARG0-of "x"``), and relabelled
as ``:label`` the role is no longer inverted, so the triple is kept (on the
AMRParseEval test parses: 7,940 test triples against Smatch's 7,939, from one
``:mod 1``; ``experiments/unlabeled_counts.py`` checks that this is the whole
difference, graph by graph).  The output then says so (:func:`smatchpp.aspects.core.aspect_notes`).

An aspect with no items on either side (Wikification on graphs without
``:wiki``) has no precision, recall or F1: ``null`` in JSON, ``n/a`` in text.

On the 400 pairs of The Little Prince parses (``docs/results.md``) the set
aspects equal ``amr-evaluation``'s on every pair, and Reentrancies and SRL
have the same triple counts on every pair.
>>> from smatchpp.graphs.read import read_text
>>> raw = read_text('(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))')[0].graph
>>> ASPECTS["concepts"].features(raw)
Counter({'want-01': 1, 'boy': 1, 'go-02': 1})
>>> ASPECTS["negations"].count(ASPECTS["negations"].features(raw), Counter())
AspectCount(matched=0, upper=0, test=1, gold=0)
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Callable, Mapping, Sequence

from ..graphs.read import RawGraph
from ..graphs.triples import EMPTY, TripleGraph, smatch_concept, smatch_constant, smatch_label
from ..presets import standardize  # noqa: F401 (the standardizer of the doctests)
from .base import AspectCount, AspectSet, GraphAspect, Standardizer, UnalignedAspect

__all__ = ["SetAspect", "TransformAspect", "RunScore", "ASPECTS", "ASPECT_SET", "damonte_triples", "DTriple"]

#: a triple as ``amr-evaluation`` sees it: (role as written without ``-of``, source, target);
#: the target is a variable index or a normalised constant
DTriple = tuple[str, int, "int | str"]

# ---------------------------------------------------------------------------
# the graph as amr-evaluation reads it


def damonte_triples(raw: RawGraph) -> list[DTriple]:
    """The non-instance triples of ``raw`` as ``amr-evaluation``'s ``scores.py`` builds them.

    Every role ending in ``-of`` is inverted (``consist-of`` too); ``:mod``
    stays.  An inverted role whose target is a constant is dropped (smatch
    loses it).  Constants are normalised as smatch compares them.

    >>> from smatchpp.graphs.read import read_text
    >>> raw = read_text('(p / person :ARG0-of (r / run-01) :mod (t / tall) :name "Al")')[0].graph
    >>> damonte_triples(raw)
    [('ARG0', 1, 0), ('mod', 0, 2), ('name', 0, 'al')]
    """
    index = {v: i for i, v in enumerate(raw.variables)}
    out: list[DTriple] = []
    for source, role, target in raw.triples:
        if role == ":instance":
            continue
        name = role[1:] if role.startswith(":") else role
        if name.endswith("-of"):
            if target not in index:
                continue
            name, source, target = name[:-3], target, source
        if source not in index:
            continue
        out.append((name, index[source], index[target] if target in index else smatch_constant(target)))
    return out


def _concepts(raw: RawGraph) -> list[str]:
    concept = {s: t for s, r, t in raw.triples if r == ":instance"}
    return [smatch_concept(concept[v]) for v in raw.variables]


def _order(t: DTriple) -> tuple[int, int]:
    """``amr-evaluation``'s triple order: attributes first, then by source variable."""
    return (isinstance(t[2], int), t[1])


def _subgraph(raw: RawGraph, triples: Sequence[DTriple], first: int | None) -> TripleGraph:
    """The graph ``amr-evaluation`` builds from a triple list (``smatch_fromlists.parse_relations``).

    It holds the instance triple of every variable the triples touch, the
    triples themselves (roles normalised) and a ``TOP`` attribute on ``first``
    (the source of the list's first triple) whose value is that variable's concept.
    """
    if not triples:
        return EMPTY
    used = sorted({t[1] for t in triples} | {t[2] for t in triples if isinstance(t[2], int)})
    pos = {v: k for k, v in enumerate(used)}
    concepts = _concepts(raw)
    attributes = [(pos[s], smatch_label(r), t) for r, s, t in triples if not isinstance(t, int)]
    relations = [(pos[s], smatch_label(r), pos[t]) for r, s, t in triples if isinstance(t, int)]
    if first is not None:
        attributes.append((pos[first], "top", concepts[first]))
    return TripleGraph(tuple(raw.variables[v] for v in used), tuple(concepts[v] for v in used),
                       tuple(attributes), tuple(relations))


# ---------------------------------------------------------------------------
# set aspects: (label, anchor variable name) items


@dataclass(frozen=True)
class SetAspect(UnalignedAspect):
    """Damonte's set comparison of labels: ``items(raw)`` -> ``[(label, anchor variable)]``.

    ``separate`` mode compares the labels as multisets (:meth:`features`, :meth:`count`);
    ``joint`` mode matches an item only at the aligned variable (:meth:`joint`)."""

    name: str
    title: str
    items: Callable[[RawGraph], list[tuple[str, str]]]
    #: the F1 when both sides have no items: ``None`` (n/a) or 1.0 (vacuous agreement)
    vacuous: float | None = None

    def features(self, raw: RawGraph) -> Counter:
        """The multiset of the graph's labels (anchors left out)."""
        return Counter(x for x, _ in self.items(raw)) if raw.variables else Counter()

    def count(self, fa: Counter, fb: Counter) -> AspectCount:
        matched = sum((fa & fb).values())
        return AspectCount(matched, matched, sum(fa.values()), sum(fb.values()), self.vacuous)

    def size(self, features: Counter) -> int:
        return sum(features.values())

    def joint(self, raw_a: RawGraph, raw_b: RawGraph, alignment: Mapping[str, str]) -> AspectCount:
        """An item of A matches the same label anchored at its variable's image in B."""
        ia, ib = self.items(raw_a), self.items(raw_b)
        ca = Counter((x, alignment[v]) for x, v in ia if v in alignment)
        matched = sum((ca & Counter(ib)).values())
        return AspectCount(matched, matched, len(ia), len(ib), self.vacuous)


def _concept_items(raw: RawGraph) -> list[tuple[str, str]]:
    """Concepts: every concept, as a multiset.

    >>> from smatchpp.graphs.read import read_text
    >>> _concept_items(read_text("(a / and :op1 (b / boy) :op2 (c / Boy))")[0].graph)
    [('and', 'a'), ('boy', 'b'), ('boy', 'c')]
    """
    return list(zip(_concepts(raw), raw.variables))


def _role_concept_items(role: str) -> Callable[[RawGraph], list[tuple[str, str]]]:
    def items(raw: RawGraph) -> list[tuple[str, str]]:
        concepts = _concepts(raw)
        return [(concepts[s], raw.variables[s]) for r, s, _ in damonte_triples(raw) if r == role]
    return items


def _wiki_items(raw: RawGraph) -> list[tuple[str, str]]:
    """Wikification: the value of every ``:wiki`` role, anchored at its source.

    >>> from smatchpp.graphs.read import read_text
    >>> _wiki_items(read_text('(c / city :wiki "Paris" :name (n / name :op1 "Paris"))')[0].graph)
    [('paris', 'c')]
    """
    return [(t if isinstance(t, str) else raw.variables[t], raw.variables[s])
            for r, s, t in damonte_triples(raw) if r == "wiki"]


# ---------------------------------------------------------------------------
# graph aspects: a transformed graph or a subgraph, scored by Smatch


@dataclass(frozen=True)
class TransformAspect(GraphAspect):
    """Smatch on ``transform(raw, standardizer)``: a transformed graph or a subgraph."""

    name: str
    title: str
    transform: Callable[[RawGraph, Standardizer], TripleGraph]
    #: the F1 when both subgraphs are empty: ``None`` (n/a) or 1.0 (vacuous agreement)
    vacuous: float | None = None

    def graph(self, raw: RawGraph, standardizer: Standardizer) -> TripleGraph:
        return self.transform(raw, standardizer)


@dataclass(frozen=True)
class RunScore(GraphAspect):
    """The run's own score (Damonte's ``smatch`` row): the full graphs under the run's
    preset, aligned once by the run (:attr:`main`)."""

    name: str
    title: str
    vacuous: float | None = None
    main = True

    def graph(self, raw: RawGraph, standardizer: Standardizer) -> TripleGraph:
        return standardizer(raw)


def _unlabeled(raw: RawGraph, standardizer: Standardizer) -> TripleGraph:
    """Unlabeled: every role becomes ``:label`` in the text, then Smatch.

    As ``evaluation.sh`` does it (``sed 's/:[a-zA-Z0-9-]*/:label/g'``), the role
    is replaced *as written*: ``:ARG0-of`` becomes ``:label`` and keeps the
    written direction, ``:mod`` is no longer turned into ``:domain``.

    >>> from smatchpp.graphs.read import read_text
    >>> g = _unlabeled(read_text("(a / boy :ARG0-of (b / run-01) :polarity -)")[0].graph, standardize)
    >>> g.relations, g.attributes
    (((0, 'label', 1),), ((0, 'label', '-'), (0, 'top', 'top')))
    """
    triples = tuple(t if t[1] == ":instance" else (t[0], ":label", t[2]) for t in raw.triples)
    return standardizer(replace(raw, triples=triples))


_SENSE = re.compile(r"^([a-zA-Z0-9-][a-zA-Z0-9-]*)-[0-9][0-9]*")


def _no_wsd(raw: RawGraph, standardizer: Standardizer) -> TripleGraph:
    """No WSD: every concept's sense number becomes ``-01``, then Smatch.

    ``evaluation.sh``'s Perl rule ``s/(\\/ [a-zA-Z0-9\\-][a-zA-Z0-9\\-]*)-[0-9][0-9]*/\\1-01/g``,
    applied to each concept (the rule only sees concepts after ``/`` and one space).

    >>> from smatchpp.graphs.read import read_text
    >>> raw = read_text("(h / have-org-role-91 :ARG1 (p / person) :ARG2 (s / say-02))")[0].graph
    >>> _no_wsd(raw, standardize).concepts
    ('have-org-role-01', 'person', 'say-01')
    """
    triples = tuple((s, r, _SENSE.sub(r"\1-01", t, count=1)) if r == ":instance" else (s, r, t)
                    for s, r, t in raw.triples)
    return standardizer(replace(raw, triples=triples))


def _reentrancies(raw: RawGraph, standardizer: Standardizer) -> TripleGraph:
    """Reentrancies: every triple entering a node that has more than one parent.

    As ``utils.reentrancies`` with ``smatch_fromlists``: the incoming triples
    of every re-entrant variable (after ``-of`` inversion, ``:mod`` kept), the
    instance triples of their variables, and a ``TOP`` attribute (valued with
    its concept) on the first parent of the first re-entrant variable.

    >>> from smatchpp.graphs.read import read_text
    >>> raw = read_text("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))")[0].graph
    >>> g = _reentrancies(raw, standardize)
    >>> g.variables, g.relations, g.attributes
    (('w', 'b', 'g'), ((0, 'arg0', 1), (2, 'arg0', 1)), ((0, 'top', 'want-01'),))
    """
    triples = damonte_triples(raw)
    incoming: dict[int, list[DTriple]] = {}
    for t in triples:
        if isinstance(t[2], int):
            incoming.setdefault(t[2], []).append(t)
    chosen: list[DTriple] = []
    for v in range(len(raw.variables)):
        parents = incoming.get(v, [])
        if len(parents) > 1:
            chosen.extend(sorted(parents, key=_order))
    return _subgraph(raw, chosen, chosen[0][1] if chosen else None)


def _srl(raw: RawGraph, standardizer: Standardizer) -> TripleGraph:
    """SRL: every triple whose role starts with ``ARG`` (constants too), as ``utils.srl``.

    Plus the instance triples of their variables and a ``TOP`` attribute on
    the source of the first such triple (attributes come first, then by source).

    >>> from smatchpp.graphs.read import read_text
    >>> raw = read_text("(w / want-01 :ARG0 (b / boy) :time (n / now) :ARG1-of (c / cause-01))")[0].graph
    >>> g = _srl(raw, standardize)
    >>> g.variables, g.relations, g.attributes
    (('w', 'b', 'c'), ((0, 'arg0', 1), (2, 'arg1', 0)), ((0, 'top', 'want-01'),))
    """
    chosen = sorted((t for t in damonte_triples(raw) if t[0].startswith("ARG")), key=_order)
    return _subgraph(raw, chosen, chosen[0][1] if chosen else None)


#: every aspect, in the order papers print them
ASPECTS: dict[str, SetAspect | GraphAspect] = {a.name: a for a in (
    RunScore("smatch", "Smatch"),
    TransformAspect("unlabeled", "Unlabeled", _unlabeled),
    TransformAspect("no_wsd", "No WSD", _no_wsd),
    SetAspect("concepts", "Concepts", _concept_items),
    SetAspect("named_ent", "Named Ent.", _role_concept_items("name")),
    SetAspect("negations", "Negations", _role_concept_items("polarity")),
    SetAspect("wikification", "Wikification", _wiki_items),
    TransformAspect("reentrancies", "Reentrancies", _reentrancies),
    TransformAspect("srl", "SRL", _srl),
)}

#: the set (the registry's ``damonte``): these aspects, whatever the files
ASPECT_SET = AspectSet(tuple(ASPECTS), lambda frames, vectors: list(ASPECTS.values()),
                       title="Damonte et al. (2017), amr-evaluation's aspects")



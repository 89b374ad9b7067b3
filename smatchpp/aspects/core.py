"""Aspect scores: the fine-grained scores of Damonte et al. (2017), solved exactly.

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
difference, graph by graph).  The output then says so (:func:`aspect_notes`).

An aspect with no items on either side (Wikification on graphs without
``:wiki``) has no precision, recall or F1: ``null`` in JSON, ``n/a`` in text.

On the 400 pairs of The Little Prince parses (``docs/results.md``) the set
aspects equal ``amr-evaluation``'s on every pair, and Reentrancies and SRL
have the same triple counts on every pair.

>>> from smatchpp.graphs.read import read_text
>>> a = read_text('(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))')[0].graph
>>> b = read_text('(w / want-02 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (c / cat)))')[0].graph
>>> counts = score_aspects(a, b)
>>> counts["concepts"]                 # want-01 != want-02, boy and go-02 match
AspectCount(matched=2, upper=2, test=3, gold=4)
>>> counts["negations"], counts["reentrancies"].test
(AspectCount(matched=0, upper=0, test=1, gold=0), 6)
>>> counts["no_wsd"].matched - counts["smatch"].matched   # want-01 ~ want-02 without senses
1.0
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Callable, Iterable, Literal, Mapping, Sequence

import numpy as np

from ..alignment.compile import compile_pair
from ..alignment.config import ASPECT_MODES, ASPECT_SETS
from ..alignment.matchers import ExactMatcher, TripleMatcher
from ..alignment.matching import count_matched
from ..graphs.read import RawGraph
from ..alignment.score import PairScore, prf
from ..statistics.significance import prf_arrays
from ..presets import standardize
from ..graphs.triples import EMPTY, TripleGraph, smatch_concept, smatch_constant, smatch_label

__all__ = ["AspectCount", "SetAspect", "GraphAspect", "ASPECTS", "MODES", "SETS", "AspectMode", "aspect_list",
           "aspect_title", "aspect_intervals", "aspect_scores",
           "AspectScorer", "score_aspects", "damonte_triples", "corpus_aspects",
           "aspect_notes", "aspect_summary", "thesis_aspects", "unaligned_features", "unaligned_count"]

AspectMode = Literal["separate", "joint"]
MODES = tuple(m for m in ASPECT_MODES if m != "none")
#: the named aspect sets (``--aspects``): Damonte et al.'s, smatchpp 1.8's (:mod:`smatchpp.aspects.smatchpp18`)
#: and the thesis' (:mod:`smatchpp.aspects.thesis`);
#: the settings (:mod:`smatchpp.alignment.config`) hold the names, which this module dispatches on
SETS = ASPECT_SETS

#: a triple as ``amr-evaluation`` sees it: (role as written without ``-of``, source, target);
#: the target is a variable index or a normalised constant
DTriple = tuple[str, int, "int | str"]


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
class SetAspect:
    """Damonte's set comparison of labels: ``items(raw)`` -> ``[(label, anchor variable)]``."""

    name: str
    title: str
    items: Callable[[RawGraph], list[tuple[str, str]]]
    kind: str = "set"
    #: the F1 when both sides have no items: ``None`` (n/a) or 1.0 (vacuous agreement)
    vacuous: float | None = None


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
class GraphAspect:
    """Smatch on ``graph(raw, standardizer)``; ``None`` means the run's own graphs (``smatch``)."""

    name: str
    title: str
    graph: Callable[[RawGraph, Callable[[RawGraph], TripleGraph]], TripleGraph] | None
    kind: str = "graph"
    #: the F1 when both subgraphs are empty: ``None`` (n/a) or 1.0 (vacuous agreement)
    vacuous: float | None = None


def _unlabeled(raw: RawGraph, standardizer: Callable[[RawGraph], TripleGraph]) -> TripleGraph:
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


def _no_wsd(raw: RawGraph, standardizer: Callable[[RawGraph], TripleGraph]) -> TripleGraph:
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


def _reentrancies(raw: RawGraph, standardizer: Callable[[RawGraph], TripleGraph]) -> TripleGraph:
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


def _srl(raw: RawGraph, standardizer: Callable[[RawGraph], TripleGraph]) -> TripleGraph:
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


Aspect = SetAspect | GraphAspect

#: every aspect, in the order papers print them
ASPECTS: dict[str, Aspect] = {a.name: a for a in (
    GraphAspect("smatch", "Smatch", None),
    GraphAspect("unlabeled", "Unlabeled", _unlabeled),
    GraphAspect("no_wsd", "No WSD", _no_wsd),
    SetAspect("concepts", "Concepts", _concept_items),
    SetAspect("named_ent", "Named Ent.", _role_concept_items("name")),
    SetAspect("negations", "Negations", _role_concept_items("polarity")),
    SetAspect("wikification", "Wikification", _wiki_items),
    GraphAspect("reentrancies", "Reentrancies", _reentrancies),
    GraphAspect("srl", "SRL", _srl),
)}


# ---------------------------------------------------------------------------
# scoring


_EMPTY_RAW = RawGraph(None, (), ())


def aspect_list(aspect_set: str = "damonte", names: Iterable[str] | None = None,
                frames: str | None = None, vectors: str | None = None) -> list[Any]:
    """The aspects of a named set (:data:`SETS`), all or those ``names``; ``frames`` is
    the PropBank frame file of the ``smatchpp18`` set (:mod:`smatchpp.aspects.smatchpp18`),
    ``vectors`` the word vectors of the ``thesis`` set (``None``: the packaged GloVe)."""
    if frames is not None and aspect_set != "smatchpp18":
        raise ValueError("a PropBank frame file is read by the smatchpp18 aspects only")
    if aspect_set == "damonte":
        return [ASPECTS[n] for n in (names or ASPECTS)]
    if aspect_set == "smatchpp18":
        from .smatchpp18 import aspects

        every = {a.name: a for a in aspects(frames)}
    elif aspect_set == "thesis":
        every = {a.name: a for a in thesis_aspects(vectors)}
    else:
        raise ValueError(f"unknown aspect set {aspect_set!r}; choose from {', '.join(SETS)}")
    unknown = [n for n in names or () if n not in every]
    if unknown:
        raise ValueError(f"unknown {aspect_set} aspect(s) {', '.join(unknown)}; choose from {', '.join(every)}")
    return [every[n] for n in (names or every)]


def thesis_aspects(vectors: str | None = None) -> list[Any]:
    """The thesis' twelve aspects (:mod:`smatchpp.aspects.thesis`, which defines the new ones):
    Damonte's renamed, Frames, quantSim and the graph statistics, all with vacuous agreement.
    ``vectors`` are loaded here, so that a missing file is an error before any pair."""
    from .thesis import NAMES, STATISTICS, StatAspect, frame_items, load_vectors, quant_subgraph

    load_vectors(vectors)
    reused = {"Named entity": "named_ent", "Negation": "negations", "Concepts": "concepts",
              "Coreference": "reentrancies", "SRL": "srl", "Unlabeled": "unlabeled"}
    out: list[Any] = []
    for name in NAMES:
        if name == "Frames":
            out.append(SetAspect(name, name, frame_items, vacuous=1.0))
        elif name == "quantSim":
            out.append(GraphAspect(name, name, quant_subgraph, vacuous=1.0))
        elif name in STATISTICS:
            out.append(StatAspect(name, name, STATISTICS[name], damonte_triples, vectors))
        else:
            out.append(replace(ASPECTS[reused[name]], name=name, title=name, vacuous=1.0))
    return out


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


def aspect_intervals(pairs: Sequence[Mapping[str, AspectCount]], resamples: int, seed: int,
                     level: float = 0.95) -> dict[str, dict[str, Any]]:
    """Each aspect's percentile bootstrap intervals of micro and macro F1.

    The resampled rows are :func:`smatchpp.statistics.significance.index_chunks`' (the main score's
    for the same seed).  A row's micro F1 is that of its summed (reported, lower-bound)
    counts, its macro F1 the mean of its pairs' F1; an aspect empty on both sides scores
    its ``vacuous`` value in both, as in the point estimates (pairs and rows with no items
    are left out for Damonte's set, whose ``vacuous`` is n/a).  The resampling is the
    metric interface's (:func:`smatchpp.statistics.significance.bootstrap_scores`, which
    ``bootstrap_metric`` runs) on :func:`aspect_scores`, so an aspect metric's intervals
    are these.

    >>> one, empty = AspectCount(1, 1, 1, 1, vacuous=1.0), AspectCount(0, 0, 0, 0, vacuous=1.0)
    >>> aspect_intervals([{"CAUSE": one}, {"CAUSE": empty}], 200, 1)["CAUSE"]["micro_f1"]
    [1.0, 1.0]
    """
    from ..statistics.significance import bootstrap_scores

    out: dict[str, dict[str, Any]] = {}
    if not pairs:
        return out
    for name in pairs[0]:
        counts = [p[name] for p in pairs]
        stats = np.array([(c.matched, c.upper, c.test, c.gold) for c in counts], dtype=np.float64)
        micro, macro = bootstrap_scores(partial(aspect_scores, vacuous=counts[0].vacuous), stats,
                                        resamples, seed, level)
        out[name] = {"micro_f1": None if np.isnan(micro["f1"][0]) else list(micro["f1"]),
                     "macro_f1": None if np.isnan(macro["f1"][0]) else list(macro["f1"])}
    return out


def aspect_title(name: str) -> str:
    """The printed name of an aspect of any set."""
    return ASPECTS[name].title if name in ASPECTS else name


def _aspect_rank(name: str) -> tuple[int, int]:
    from .smatchpp18 import NAMES
    from .thesis import NAMES as THESIS

    if name in ASPECTS:
        return 0, list(ASPECTS).index(name)
    if name in THESIS:
        return 2, THESIS.index(name)
    return 1, NAMES.index(name) if name in NAMES else len(NAMES)


class AspectScorer:
    """Scores every aspect of a pair.

    ``solve(a, b, warm_start)`` aligns two :class:`TripleGraph` objects and
    returns ``(matched, upper, alignment)``; the default is the ``exact``
    solver on the exact matcher.  ``standardizer`` turns a transformed raw
    graph into triples (the run's preset; smatch's by default).  In
    ``separate`` mode a graph aspect starts from the full graphs' alignment,
    and is not solved at all when that alignment already reaches ``bound``
    (an upper bound on the aspect's matches; the label-count bound).
    """

    def __init__(self, mode: AspectMode = "separate",
                 solve: Callable[..., tuple[float, float, np.ndarray]] | None = None,
                 standardizer: Callable[[RawGraph], TripleGraph] = standardize,
                 aspects: Iterable[str] | None = None,
                 bound: Callable[[TripleGraph, TripleGraph], float] = ExactMatcher().label_bound,
                 aspect_set: str = "damonte", frames: str | None = None,
                 vectors: str | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown aspect mode {mode!r}; choose from {', '.join(MODES)}")
        self.mode = mode
        self.solve = solve or solver_function()
        self.bound = bound
        self.standardizer = standardizer
        self.aspects = aspect_list(aspect_set, aspects, frames, vectors)

    @classmethod
    def for_scorer(cls, scorer: Any) -> "AspectScorer":
        """The aspects of a :class:`~smatchpp.api.Scorer`'s run: its mode, solver, limits and preset."""
        config = scorer.config

        def solve(a: TripleGraph, b: TripleGraph, warm_start: np.ndarray | None = None
                  ) -> tuple[float, float, np.ndarray]:
            result = scorer.solver.solve(compile_pair(a, b, scorer.matcher), config.time_limit, warm_start)
            return result.objective, result.upper_bound, result.alignment

        return cls(config.aspects, solve,
                   lambda raw: standardize(raw, config.preset, keep_wiki=config.keep_wiki),
                   bound=scorer.matcher.label_bound,
                   aspect_set=config.aspect_set, frames=config.propbank_frames,
                   vectors=config.vectors)

    def attach(self, score: Any, raw_a: RawGraph | None, raw_b: RawGraph | None) -> None:
        """Score the aspects of a scored pair (a :class:`~smatchpp.alignment.score.PairScore`) into it."""
        began = time.perf_counter()
        score.aspects = self.score(raw_a, raw_b, (score.matched, score.upper, score.test_triples,
                                                  score.gold_triples, score.alignment))
        score.stats["aspects_seconds"] = round(time.perf_counter() - began, 6)

    def score(self, raw_a: RawGraph | None, raw_b: RawGraph | None,
              main: tuple[float, float, int, int, Sequence[tuple[str, str]]] | None = None
              ) -> dict[str, AspectCount]:
        """Every aspect of the pair ``raw_a`` (test) vs ``raw_b`` (gold).

        ``main`` is the run's own result for the full graphs: ``(matched, upper,
        test, gold, alignment as (name in A, name in B) pairs)``; without it the
        full graphs are standardized and solved here.  The ``smatch`` aspect is
        that result, and ``joint`` mode uses its alignment.
        """
        raw_a, raw_b = raw_a or _EMPTY_RAW, raw_b or _EMPTY_RAW
        if main is None:
            ga, gb = self._std(raw_a), self._std(raw_b)
            lower, upper, alignment = self.solve(ga, gb)
            names = [(ga.variables[i], gb.variables[j]) for i, j in enumerate(alignment.tolist()) if j >= 0]
            main = (lower, upper, ga.n_triples, gb.n_triples, names)
        lower, upper, test, gold, names = main
        full = dict(names)
        out: dict[str, AspectCount] = {}
        for aspect in self.aspects:
            if aspect.name == "smatch":
                out["smatch"] = AspectCount(lower, upper, test, gold)
            elif isinstance(aspect, SetAspect):
                out[aspect.name] = self._set(aspect, raw_a, raw_b, full)
            elif aspect.kind == "stat":  # a graph statistic: no alignment (aspects_thesis)
                out[aspect.name] = AspectCount(*aspect.score(raw_a, raw_b))
            else:
                out[aspect.name] = self._graph(aspect, raw_a, raw_b, full)
            if getattr(aspect, "vacuous", None) is not None:
                out[aspect.name] = replace(out[aspect.name], vacuous=aspect.vacuous)
        return out

    def _std(self, raw: RawGraph) -> TripleGraph:
        return self.standardizer(raw) if raw.variables else EMPTY

    def _set(self, aspect: SetAspect, raw_a: RawGraph, raw_b: RawGraph,
             full: Mapping[str, str]) -> AspectCount:
        ia, ib = aspect.items(raw_a), aspect.items(raw_b)
        if self.mode == "separate":
            return unaligned_count(aspect, Counter(x for x, _ in ia), Counter(x for x, _ in ib))
        else:
            ca = Counter((x, full[v]) for x, v in ia if v in full)
            matched = sum((ca & Counter(ib)).values())
        return AspectCount(matched, matched, len(ia), len(ib))

    def _graph(self, aspect: GraphAspect, raw_a: RawGraph, raw_b: RawGraph,
               full: Mapping[str, str]) -> AspectCount:
        assert aspect.graph is not None
        ga = aspect.graph(raw_a, self.standardizer) if raw_a.variables else EMPTY
        gb = aspect.graph(raw_b, self.standardizer) if raw_b.variables else EMPTY
        # the full graphs' alignment, restricted to the aspect's variables
        index_b = {v: j for j, v in enumerate(gb.variables)}
        alignment = np.array([index_b.get(full.get(v, ""), -1) for v in ga.variables], dtype=np.int64)
        joint = count_matched(ga, gb, alignment)
        if self.mode == "joint":
            return AspectCount(joint, joint, ga.n_triples, gb.n_triples)
        if not ga.n_triples or not gb.n_triples or joint >= self.bound(ga, gb):
            # nothing to match, or the full alignment already reaches the label-count bound
            return AspectCount(joint, joint, ga.n_triples, gb.n_triples)
        lower, upper, _ = self.solve(ga, gb, alignment)
        return AspectCount(lower, upper, ga.n_triples, gb.n_triples)


def unaligned_features(aspect: Any, raw: RawGraph | None) -> Any:
    """What a set aspect (its labels, a multiset) or a graph statistic (its node's word)
    compares of one graph, computed once a graph (``matrix``); see :func:`unaligned_count`."""
    raw = raw or _EMPTY_RAW
    if aspect.kind == "set":
        return Counter(x for x, _ in aspect.items(raw)) if raw.variables else Counter()
    return aspect.word(raw)


def unaligned_count(aspect: Any, fa: Any, fb: Any) -> AspectCount:
    """A pair's count of a set aspect (``separate`` mode) or a graph statistic from the two
    graphs' :func:`unaligned_features`: what :meth:`AspectScorer.score` gives the pair.

    >>> from smatchpp.graphs.read import read_text
    >>> a, b = (read_text(t)[0].graph for t in ("(a / and :op1 (b / boy) :op2 (c / boy))", "(b / boy)"))
    >>> concepts = ASPECTS["concepts"]
    >>> unaligned_count(concepts, unaligned_features(concepts, a), unaligned_features(concepts, b))
    AspectCount(matched=1, upper=1, test=3, gold=1)
    """
    if aspect.kind == "set":
        matched = sum((fa & fb).values())
        return AspectCount(matched, matched, sum(fa.values()), sum(fb.values()), aspect.vacuous)
    return AspectCount(*aspect.count(fa, fb), aspect.vacuous)


def solver_function(solver: str = "exact", time_limit: float | None = None, seed: int = 1,
                    restarts: int = 4, compression: bool = True,
                    matcher: TripleMatcher | None = None
                    ) -> Callable[..., tuple[float, float, np.ndarray]]:
    """``solve(a, b, warm_start=None) -> (matched, upper, alignment)`` with one of
    :data:`smatchpp.alignment.solvers.SOLVERS`."""
    from ..alignment.solvers import get_solver

    engine = get_solver(solver, seed, restarts, compression=compression)

    def solve(a: TripleGraph, b: TripleGraph, warm_start: np.ndarray | None = None
              ) -> tuple[float, float, np.ndarray]:
        result = engine.solve(compile_pair(a, b, matcher), time_limit, warm_start)
        return result.objective, result.upper_bound, result.alignment

    return solve


def score_aspects(raw_a: RawGraph | None, raw_b: RawGraph | None, mode: AspectMode = "separate",
                  **solver: Any) -> dict[str, AspectCount]:
    """Every aspect of one pair, solving the full graphs too (keywords go to :func:`solver_function`)."""
    return AspectScorer(mode, solver_function(**solver)).score(raw_a, raw_b)


def corpus_aspects(pairs: Iterable[Mapping[str, AspectCount]]) -> dict[str, AspectCount]:
    """Summed counts per aspect over pairs (micro averaging), in :data:`ASPECTS` order.

    >>> corpus_aspects([{"srl": AspectCount(1, 1, 2, 3)}, {"srl": AspectCount(2, 3, 2, 2)}])
    {'srl': AspectCount(matched=3, upper=4, test=4, gold=5)}
    """
    total: dict[str, AspectCount] = {}
    for pair in pairs:
        for name, count in pair.items():
            total[name] = total[name] + count if name in total else count
    return {n: total[n] for n in sorted(total, key=_aspect_rank)}


def aspect_notes(scores: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """What the reader of the aspect table must know to compare its rows (``scores``: the
    ``to_json()`` of each aspect).  Unlabeled counts more triples than Smatch when the
    graphs have inverted roles onto constants (module docstring):

    >>> s = {"smatch": AspectCount(5, 5, 8, 9).to_json(), "unlabeled": AspectCount(6, 6, 9, 9).to_json()}
    >>> print(*aspect_notes(s))  # doctest: +NORMALIZE_WHITESPACE
    Unlabeled counts 9 test / 9 gold triples against Smatch's 8 / 9: a role onto a constant
    that smatch 1.0.4 drops as inverted (:mod 1, :ARG0-of "x") is kept once relabelled as :label,
    as in amr-evaluation
    >>> aspect_notes({"smatch": s["smatch"], "unlabeled": AspectCount(6, 6, 8, 9).to_json()})
    []
    """
    smatch, unlabeled = scores.get("smatch"), scores.get("unlabeled")
    if not smatch or not unlabeled or (smatch["test"], smatch["gold"]) == (unlabeled["test"], unlabeled["gold"]):
        return []
    return [f"Unlabeled counts {unlabeled['test']} test / {unlabeled['gold']} gold triples against "
            f"Smatch's {smatch['test']} / {smatch['gold']}: a role onto a constant that smatch 1.0.4 "
            "drops as inverted (:mod 1, :ARG0-of \"x\") is kept once relabelled as :label, "
            "as in amr-evaluation"]


def aspect_summary(pairs: Iterable["PairScore"], config: Any) -> dict[str, Any] | None:
    """The aspects of a corpus summary (``summary()["aspects"]``): summed counts, macro F1 and
    notes of the pairs that carry aspect scores, or ``None`` when none does.  ``config``: the
    :class:`~smatchpp.alignment.config.Config` they were scored with (its mode and set are named)."""
    scored = [p.aspects for p in pairs if p.status != "skipped" and p.aspects is not None]
    if not scored:
        return None
    mode = config.aspects if config.aspects != "none" else ""
    aspect_set = config.aspect_set if mode and config.aspect_set != "damonte" else None
    scores = {name: count.to_json() for name, count in corpus_aspects(scored).items()}
    # the set is named when it is not Damonte's (whose outputs predate sets)
    named = {"set": aspect_set} if aspect_set else {}
    # macro F1: the mean of the pairs' F1 (pairs with no items on either side left out,
    # unless the set scores them as vacuous agreement)
    macro = {}
    for name in scores:
        f1s = [f for f in (p[name].to_json()["f1"] for p in scored if name in p) if f is not None]
        macro[name] = sum(f1s) / len(f1s) if f1s else None
    return {**named, "mode": mode, "scores": scores, "macro_f1": macro, "notes": aspect_notes(scores)}

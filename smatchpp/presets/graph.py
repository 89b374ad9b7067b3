"""The ``generic`` preset's rules, on a :class:`penman.Graph`, and the triples they give.

The ``smatch`` presets build their triples straight from the graph as written
(:func:`smatchpp.graphs.triples.smatch_triples`, bugs included).  The ``generic``
and ``amr`` presets instead turn the graph into a :class:`penman.Graph`, apply
a list of rules (each a function ``(graph, options) -> graph``), and only then
build the triples (:func:`build_triples`).  ``generic`` is what a careful user
wants when no old number has to be reproduced; it fixes these smatch 1.0.4
behaviours:

* **lower-case** (:func:`lowercase`): concepts, roles and constants are
  lower-cased; variables are left as written (they are names, not labels).
  Trailing ``_`` are kept (smatch strips them, a leftover of its quote
  marking).

  >>> g = to_penman(read_one_graph('(a / Dog :Polarity - :OP1 "Bob")'))
  >>> lowercase(g, Options()).triples
  [('a', ':instance', 'dog'), ('a', ':polarity', '-'), ('a', ':op1', '"bob"')]

* **inverted roles** (:func:`deinvert`): a role ending in ``-of`` onto a
  variable is turned around (``a :ARG0-of b`` is ``b :ARG0 a``), with
  penman's generic model (every ``-of`` is an inverse; the AMR-specific
  exceptions such as ``:consist-of`` belong to the ``amr`` preset).  An
  inverted role onto a *constant* cannot be turned around; it is **kept as
  written** (smatch 1.0.4 silently drops it, its issue #26):

  >>> g = deinvert(to_penman(read_one_graph('(a / dog :ARG0-of (b / bark-01) :ARG1-of "x")')), Options())
  >>> g.triples
  [('a', ':instance', 'dog'), ('b', ':ARG0', 'a'), ('a', ':ARG1-of', '"x"'), ('b', ':instance', 'bark-01')]

* **quoted constants kept whole** (:func:`build_triples`): ``"New York"`` is
  the constant ``new york`` (smatch keeps ``new``); quotes are removed, so
  ``"Bob"`` and ``Bob`` are the same constant, as in smatch.  A quoted
  concept keeps its spaces (smatch drops them).
* **duplicates removed** (:func:`build_triples` with ``dedupe``): a triple
  written twice counts once (smatch counts both in the totals).
* the ``TOP`` attribute is smatch 1.0.4's ``(root, top, "top")``.

>>> from smatchpp.presets import standardize
>>> g = standardize(read_one_graph('(c / City :name "New York" :name "New York" :ARG1-of 5)'), "generic")
>>> g.concepts, g.attributes
(('city',), ((0, 'name', 'new york'), (0, 'arg1-of', '5'), (0, 'top', 'top')))
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Callable, Iterable

import penman
from penman.model import Model

from ..graphs.read import RawGraph
from ..graphs.triples import TripleGraph

__all__ = ["Options", "Rule", "to_penman", "lowercase", "deinvert", "build_triples", "variables",
           "GENERIC_RULES"]

INSTANCE = ":instance"


@dataclass(frozen=True)
class Options:
    """Settings a preset's rules may read (each one is a :class:`~smatchpp.Config` field)."""

    #: keep ``:wiki`` triples (the ``amr`` preset drops them by default)
    keep_wiki: bool = False

    @classmethod
    def of(cls, config) -> "Options":
        """The options a :class:`~smatchpp.Config` sets (its fields of the same names)."""
        return cls(**{f.name: getattr(config, f.name) for f in fields(cls)})


#: a rule: a function from a penman graph (and the options) to a new penman graph
Rule = Callable[[penman.Graph, Options], penman.Graph]

_GENERIC_MODEL = Model()  # penman's model without roles: every ``-of`` is an inverse


def read_one_graph(text: str) -> RawGraph:
    """One PENMAN string as a :class:`RawGraph` (for the examples)."""
    from ..graphs.read import read_text

    entry = read_text(text)[0]
    assert entry.graph is not None, entry.error
    return entry.graph


def to_penman(raw: RawGraph) -> penman.Graph:
    """The graph as written, as a :class:`penman.Graph` (roles and constants untouched)."""
    return penman.Graph(list(raw.triples), top=raw.top)


def variables(g: penman.Graph) -> set[str]:
    """The variables of ``g``: the sources of its instance triples."""
    return {s for s, r, _ in g.triples if r == INSTANCE}


def _quoted(value: str) -> bool:
    return len(value) >= 2 and value[0] == '"' and value[-1] == '"'


def with_triples(g: penman.Graph, triples: Iterable[tuple]) -> penman.Graph:
    return penman.Graph(list(triples), top=g.top, metadata=g.metadata)


def lowercase(g: penman.Graph, options: Options) -> penman.Graph:
    """Lower-case concepts, roles and constants (not variables); see the module doc."""
    names = variables(g)
    out = []
    for s, r, t in g.triples:
        if r != INSTANCE:
            r = r.lower()
        if t is not None and t not in names:
            t = str(t).lower()
        out.append((s, r, t))
    return with_triples(g, out)


def deinvert(g: penman.Graph, options: Options, model: Model = _GENERIC_MODEL) -> penman.Graph:
    """Turn ``-of`` roles onto variables around (by ``model``); onto constants they stay."""
    names = variables(g)
    out = []
    for triple in g.triples:
        if triple[1] != INSTANCE and triple[2] in names:
            triple = model.deinvert(triple)
        out.append(triple)
    return with_triples(g, out)


def _label(value: str) -> str:
    return value[1:-1] if _quoted(value) else value


def build_triples(g: penman.Graph, order: Iterable[str], dedupe: bool = True) -> TripleGraph:
    """The :class:`TripleGraph` of ``g``; ``order`` fixes the variable numbering.

    Variables of ``order`` that lost their instance triple (dereified nodes)
    are left out.  A target is a relation if it is a variable, otherwise an
    attribute whose quotes are removed (kept whole).  The ``TOP`` attribute is
    ``(root, "top", "top")``.
    """
    concept = {s: _label(str(t)) for s, r, t in g.triples if r == INSTANCE}
    names = [v for v in order if v in concept]
    index = {v: i for i, v in enumerate(names)}
    attributes: list[tuple[int, str, str]] = []
    relations: list[tuple[int, str, int]] = []
    for s, r, t in g.triples:
        if r == INSTANCE:
            continue
        if s not in index:
            continue  # a triple between two constants (only from malformed TSV): nothing to align
        role = r[1:] if r.startswith(":") else r
        if t in index:
            relations.append((index[s], role, index[t]))
        else:
            attributes.append((index[s], role, _label(str(t))))
    if g.top in index:
        attributes.append((index[g.top], "top", "top"))
    if dedupe:
        attributes = list(dict.fromkeys(attributes))
        relations = list(dict.fromkeys(relations))
    return TripleGraph(tuple(names), tuple(concept[v] for v in names), tuple(attributes),
                       tuple(relations))


#: the ``generic`` preset's rules, in order
GENERIC_RULES: tuple[Rule, ...] = (lowercase, deinvert)

"""smatchpp 1.8's "lossless graph compression": a *different metric*, not Smatch.

It is the pair rewrite of the ``smatchpp18-lossy`` preset (it was
``--compression smatchpp`` before; ``compression/`` now holds only reductions
that keep the optimum).

For a pair of graphs, every concept that names at most one variable in each
graph (and at most one in total, or exactly one in both) becomes the identity
of its variable: the variable is replaced by its concept everywhere and its
instance triple is deleted.  "Score 100 iff isomorphic" still holds, but the
triple counts and the score change (smatchpp 1.8's ILP F1 on BAMBOO STS test
falls from 56.94 to 40.58), so results carry ``preset:smatchpp18-lossy`` in
their signature.  Here the rewrite works on our standardized triples:

* a relation from a kept variable to a replaced one becomes an attribute
  ``(var, role, concept)``; from a replaced one to a kept one, an attribute
  ``(var, "<role", concept)`` in the reverse direction;
* triples left without any variable become ``free`` triples, which match
  whatever the alignment.

>>> from smatchpp.api import parse_graph
>>> a, b = concept_identity(parse_graph("(w / want-01 :ARG0 (b / boy))"),
...                         parse_graph("(w / want-01 :ARG0 (g / girl))"))
>>> a.variables, a.free  # no variable is left: instance triples are gone
((), (('want-01', 'top', 'top'), ('want-01', 'arg0', 'boy')))
>>> from smatchpp.api import score_pair
>>> pair = ("(w / want-01 :ARG0 (b / boy))", "(w / want-01 :ARG0 (g / girl))")
>>> score_pair(*pair).f1, score_pair(*pair, preset="smatchpp18-lossy").f1
(0.75, 0.5)
"""

from __future__ import annotations

from collections import Counter

from ..graphs.triples import TripleGraph

__all__ = ["concept_identity", "single_concepts"]


def single_concepts(a: TripleGraph, b: TripleGraph) -> set[str]:
    """Concepts used once in total, or exactly once in each graph."""
    ca, cb = Counter(a.concepts), Counter(b.concepts)
    return {c for c in set(ca) | set(cb)
            if ca[c] + cb[c] == 1 or (ca[c] == 1 and cb[c] == 1)}


def concept_identity(a: TripleGraph, b: TripleGraph) -> tuple[TripleGraph, TripleGraph]:
    """Apply the rewrite of the module docstring to both graphs of a pair."""
    single = single_concepts(a, b)
    return _rewrite(a, single), _rewrite(b, single)


def _rewrite(g: TripleGraph, single: set[str]) -> TripleGraph:
    replaced = [c in single for c in g.concepts]
    kept = [i for i, r in enumerate(replaced) if not r]
    new = {old: k for k, old in enumerate(kept)}
    free = list(g.free)
    attributes: list[tuple[int, str, str]] = []
    relations: list[tuple[int, str, int]] = []
    for i, role, value in g.attributes:
        if replaced[i]:
            free.append((g.concepts[i], role, value))
        else:
            attributes.append((new[i], role, value))
    for i, role, k in g.relations:
        if replaced[i] and replaced[k]:
            free.append((g.concepts[i], role, g.concepts[k]))
        elif replaced[k]:
            attributes.append((new[i], role, g.concepts[k]))
        elif replaced[i]:
            attributes.append((new[k], "<" + role, g.concepts[i]))
        else:
            relations.append((new[i], role, new[k]))
    return TripleGraph(tuple(g.variables[i] for i in kept), tuple(g.concepts[i] for i in kept),
                       tuple(attributes), tuple(relations), tuple(free))

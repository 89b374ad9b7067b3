"""smatchpp 1.8's ``-graph_type amr`` standardization, as the preset ``smatchpp18-amr``.

Our ``amr`` preset is not the same standardization (the differences are
listed in ``docs/aspects.md``): it turns ``:mod`` into an inverse ``:domain``
where 1.8 turns ``:domain`` into ``:mod``, keeps quoted constants' quotes'
content as one label where 1.8 also deletes every ``'``, inverts ``-of`` roles
by penman's AMR model where 1.8 inverts every role ending in ``-of``, drops
``:wiki``, and writes the root as ``(root, top, top)`` where 1.8 writes
``(root, :root, its concept)``.  smatchpp 1.8's aspects (:mod:`smatchpp.aspects.smatchpp18`)
are defined on 1.8's triples, so this preset reproduces them.  The steps, in
1.8's order, each on the graph as written (:class:`~smatchpp.graphs.read.RawGraph`):

1. a role written ``:root`` is renamed ``:root_but_not_the_graph_root`` (1.8's
   reader reserves ``:root`` for the graph's root);
2. every label is lower-cased, and every ``"`` and ``'`` is deleted (also inside
   a constant: ``"don't"`` becomes ``dont``); a quoted constant's spaces become
   single spaces; a constant that then spells a variable's name *is* that
   variable (1.8 reads it so);
3. ``:domain`` becomes ``:mod-of`` and ``:domain-of`` becomes ``:mod``;
4. every role ending in ``-of`` loses it and turns around (``-of-of`` twice);
5. the root is the triple ``(root, :root, root's concept)``;
6. dereification by the AMR guidelines' table, the first concept of each relation
   only (``:poss`` from ``own-01``, not ``have-03``): a node whose concept is in
   the table, that nothing points to, with exactly one of each of its two table
   roles and no other role, becomes the relation;
7. duplicate triples are removed.

Triples are ``(source, role, target)``: a variable is its index in
``raw.variables`` (an ``int``), a constant or concept a ``str``, a role keeps its
colon.  In the :class:`TripleGraph` the colon goes; a triple from a constant to a
variable becomes the attribute ``(variable, "<role", constant)`` (as the
``smatchpp18-lossy`` preset writes it), a triple between two constants a free
triple.

>>> from smatchpp.graphs.read import read_text
>>> raw = read_text('(c / City :name (n / name :op1 "New York") :domain (b / big) '
...                 ':ARG1-of (l / be-located-at-91 :ARG2 (h / home)))')[0].graph
>>> for t in amr18_triples(raw): print(t)
(0, ':instance', 'city')
(0, ':name', 1)
(0, ':root', 'city')
(0, ':location', 4)
(1, ':instance', 'name')
(1, ':op1', 'new york')
(2, ':instance', 'big')
(2, ':mod', 0)
(4, ':instance', 'home')
>>> g = amr18_graph(raw)
>>> g.variables, g.attributes, g.relations
(('c', 'n', 'b', 'h'), ((0, 'root', 'city'), (1, 'op1', 'new york')), ((0, 'name', 1), (0, 'location', 3), (2, 'mod', 0)))
"""

from __future__ import annotations

from ..graphs.read import RawGraph
from ..graphs.triples import TripleGraph
from .amr import GUIDELINES_REIFICATIONS

__all__ = ["Node", "Triple18", "DEREIFY", "amr18_triples", "amr18_graph", "to_triple_graph"]

#: a node: a variable index (``int``) or a constant/concept (``str``)
Node = "int | str"
#: a triple of 1.8's ``amr`` standardization
Triple18 = tuple["int | str", str, "int | str"]

ROOT = ":root"
INSTANCE = ":instance"


def _dereify_table() -> dict[str, tuple[str, str, str]]:
    """concept -> (relation, role of the relation's source, role of its target), lower-cased;
    the first concept of each relation only (smatchpp 1.8 reads its table so)."""
    table: dict[str, tuple[str, str, str]] = {}
    seen: set[str] = set()
    for relation, concept, source, target in GUIDELINES_REIFICATIONS:
        if relation in seen:
            continue
        seen.add(relation)
        table[concept] = (relation.lower(), source.lower(), target.lower())
    return table


#: reified concept -> (relation, source role, target role)
DEREIFY: dict[str, tuple[str, str, str]] = _dereify_table()


def _label(text: str) -> str:
    text = text.lower().replace('"', "").replace("'", "")
    return " ".join(text.split()) if " " in text or "\t" in text else text


def amr18_triples(raw: RawGraph) -> list[Triple18]:
    """The triples of 1.8's ``amr`` standardization of ``raw`` (module docstring), in a
    deterministic order (by source variable, then as written)."""
    if not raw.variables:
        return []
    index: dict[str, int] = {}
    for k, v in enumerate(raw.variables):
        index[v] = k
    by_label = {_label(v): k for k, v in enumerate(raw.variables)}
    triples: list[Triple18] = []
    concept: dict[int, str] = {}
    for s, r, t in raw.triples:
        if r == ROOT:
            r = ":root_but_not_the_graph_root"
        r = _label(r)
        src: int | str = index[s] if s in index else by_label.get(_label(s), _label(s))
        if r == INSTANCE:
            assert isinstance(src, int)
            concept[src] = _label(t)
            triples.append((src, r, concept[src]))
            continue
        tgt: int | str = index[t] if t in index else by_label.get(_label(t), _label(t))
        if r == ":domain":
            r = ":mod-of"
        elif r == ":domain-of":
            r = ":mod"
        turns = 0
        while r.endswith("-of"):
            r, turns = r[:-3], turns + 1
        triples.append((tgt, r, src) if turns % 2 else (src, r, tgt))
    top = index.get(raw.top or "")
    if top is not None and top in concept:
        triples.append((top, ROOT, concept[top]))
    triples = _dereify(triples, concept)
    out = list(dict.fromkeys(triples))
    order = {id(t): k for k, t in enumerate(out)}
    return sorted(out, key=lambda t: (t[0] if isinstance(t[0], int) else len(raw.variables),
                                      t[1] != INSTANCE, order[id(t)]))


def _dereify(triples: list[Triple18], concept: dict[int, str]) -> list[Triple18]:
    has_incoming = {t for _, r, t in triples if r != INSTANCE and isinstance(t, int)}
    outgoing: dict[int, list[int]] = {}
    for k, (s, r, _) in enumerate(triples):
        if isinstance(s, int) and r != INSTANCE:
            outgoing.setdefault(s, []).append(k)
    drop: set[int] = set()
    new: list[Triple18] = []
    for var, c in concept.items():
        rule = DEREIFY.get(c)
        if rule is None or var in has_incoming:
            continue
        relation, source_role, target_role = rule
        out = outgoing.get(var, [])
        sources = [k for k in out if triples[k][1] == source_role]
        targets = [k for k in out if triples[k][1] == target_role]
        if len(sources) != 1 or len(targets) != 1 or len(out) != 2:
            continue
        first_instance = next(k for k, t in enumerate(triples) if t[0] == var and t[1] == INSTANCE)
        drop.update((sources[0], targets[0], first_instance))
        new.append((triples[sources[0]][2], relation, triples[targets[0]][2]))
    return [t for k, t in enumerate(triples) if k not in drop] + new


def to_triple_graph(raw: RawGraph, triples: list[Triple18]) -> TripleGraph:
    """A :class:`TripleGraph` of ``triples`` (see the module docstring): its variables are
    those with an instance triple, in ``raw.variables`` order; a variable's extra instance
    triples (none after step 7) would be kept as attributes."""
    concept: dict[int, str] = {}
    extra: list[tuple[int, str, str]] = []
    for s, r, t in triples:
        if r == INSTANCE and isinstance(s, int):
            if s in concept:
                extra.append((s, "instance", str(t)))
            else:
                concept[s] = str(t)
    kept = sorted(concept)
    new = {v: k for k, v in enumerate(kept)}
    attributes: list[tuple[int, str, str]] = []
    relations: list[tuple[int, str, int]] = []
    free: list[tuple[str, str, str]] = []
    for s, r, t in triples:
        role = r[1:] if r.startswith(":") else r
        if r == INSTANCE and isinstance(s, int):
            continue
        s_var, t_var = isinstance(s, int) and s in new, isinstance(t, int) and t in new
        if s_var and t_var:
            relations.append((new[s], role, new[t]))  # type: ignore[index]
        elif s_var:
            attributes.append((new[s], role, _name(raw, t)))  # type: ignore[index]
        elif t_var:
            attributes.append((new[t], "<" + role, _name(raw, s)))  # type: ignore[index]
        else:
            free.append((_name(raw, s), role, _name(raw, t)))
    attributes += [(new[s], r, t) for s, r, t in extra]
    return TripleGraph(tuple(raw.variables[v] for v in kept), tuple(concept[v] for v in kept),
                       tuple(attributes), tuple(relations), tuple(free))


def _name(raw: RawGraph, node: "int | str") -> str:
    # a variable without an instance triple in a subgraph cannot happen (1.8 adds them);
    # if it did, it would be matched by name like a constant
    return raw.variables[node] if isinstance(node, int) else node


def amr18_graph(raw: RawGraph) -> TripleGraph:
    """The ``smatchpp18-amr`` preset's builder."""
    return to_triple_graph(raw, amr18_triples(raw))

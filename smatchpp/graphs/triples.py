"""Standardization: from a graph as written to the triples Smatch compares.

This module holds the triple container (:class:`TripleGraph`) and the builder
of the ``smatch`` preset; the other presets and the registry that names them
live in :mod:`smatchpp.presets`, and :func:`smatchpp.presets.standardize` looks the preset up
there.

The ``smatch`` preset reproduces how smatch 1.0.4 builds its triples, so that
triple counts (and therefore precision and recall denominators) are the ones
reported in the literature:

* one instance triple per variable, the concept lower-cased with trailing
  ``_`` removed;
* a ``TOP`` attribute ``(top, "top")`` on the root variable (smatch <= 1.0.2,
  the ``smatch-legacy`` preset, gives it the root's concept as value instead);
* a role ending in ``-of`` is inverted (``a :ARG0-of b`` becomes
  ``b :ARG0 a``), except ``prep-on-behalf-of``, ``prep-out-of`` and
  ``consist-of``; ``:mod`` is rewritten as the inverse ``:domain``;
  these checks are case-sensitive, as in smatch;
* an inverted role whose target is a constant is dropped (smatch 1.0.4 files
  it under a node that does not exist);
* a quoted constant keeps its first whitespace-separated token only (smatch's
  reader splits ``"New York"`` after ``New``); constants and role names are
  lower-cased with trailing ``_`` removed.

Example:

>>> from smatchpp.graphs.read import read_text
>>> raw = read_text('(a / Dog :mod (b / big) :name "Rex")')[0].graph
>>> from smatchpp.presets import standardize
>>> g = standardize(raw)
>>> g.concepts, g.attributes, g.relations
(('dog', 'big'), ((0, 'name', 'rex'), (0, 'top', 'top')), ((1, 'domain', 0),))
>>> g.n_triples
5
>>> standardize(raw, "smatch-legacy").attributes  # smatch <= 1.0.2: TOP's value is the concept
((0, 'name', 'rex'), (0, 'top', 'dog'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .read import RawGraph


__all__ = ["TripleGraph", "smatch_triples", "smatch_direction", "smatch_label", "smatch_constant", "smatch_concept",
           "NOT_INVERTED", "PresetName", "EMPTY"]

#: a preset name, a key of :data:`smatchpp.presets.PRESETS`
PresetName = str


#: roles ending in ``-of`` that smatch 1.0.4's reader keeps as written (not inverted)
NOT_INVERTED = frozenset({"prep-on-behalf-of", "prep-out-of", "consist-of"})


@dataclass(frozen=True)
class TripleGraph:
    """Triples over variable indices; labels are already normalized strings.

    ``variables[i]`` is the name of variable ``i`` and ``concepts[i]`` its
    concept (its instance triple).  ``attributes`` are ``(var, role, value)``,
    ``relations`` are ``(source, role, target)``.  Duplicates are kept: they
    count in the totals.
    """

    variables: tuple[str, ...]
    concepts: tuple[str, ...]
    attributes: tuple[tuple[int, str, str], ...]
    relations: tuple[tuple[int, str, int], ...]
    #: triples without any variable (only made by the ``smatchpp18-lossy`` preset's rewrite)
    free: tuple[tuple[str, str, str], ...] = ()
    #: the graph as written, kept for a document graph (a top with ``:sntN`` children): what
    #: docSmatch's sentence buckets and coreference items are read from (:mod:`smatchpp.alignment.sentences`)
    document: RawGraph | None = field(default=None, compare=False, repr=False)

    @property
    def n_triples(self) -> int:
        """Number of triples, duplicates included (smatch's denominator)."""
        return len(self.concepts) + len(self.attributes) + len(self.relations) + len(self.free)

    def triples(self) -> list[tuple[str, str, str]]:
        """All triples as ``(source, relation, target)`` name strings."""
        names = self.variables
        out = [(names[i], "instance", c) for i, c in enumerate(self.concepts)]
        out += [(names[i], r, v) for i, r, v in self.attributes]
        out += [(names[i], r, names[k]) for i, r, k in self.relations]
        return out + list(self.free)


EMPTY = TripleGraph((), (), (), ())


def smatch_label(label: str) -> str:
    """A role or label as smatch 1.0.4 compares it: lower-cased, trailing ``_`` dropped."""
    return label.lower().rstrip("_")


def smatch_constant(value: str) -> str:
    """A constant as smatch 1.0.4 reads it: a quoted one keeps its first word."""
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        tokens = value[1:-1].split()
        return smatch_label(tokens[0]) if tokens else ""
    return smatch_label(value)


def smatch_concept(value: str) -> str:
    """A concept as smatch 1.0.4 reads it: spaces and quotes inside are dropped (``"Foo Bar"`` -> ``foobar``)."""
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        return smatch_label("".join(value[1:-1].split()))
    return smatch_label(value)


def smatch_direction(source: str, role: str, target: str) -> tuple[str, str, str]:
    """A non-instance triple as smatch 1.0.4 reads it: the role without its colon, an inverse
    role (``-of``, but not :data:`NOT_INVERTED`) turned around, ``mod`` as the inverse of
    ``domain`` (both case-sensitive; the role is not lower-cased here).

    >>> smatch_direction("d", ":ARG0-of", "b"), smatch_direction("c", ":mod", "b")
    (('b', 'ARG0', 'd'), ('b', 'domain', 'c'))
    """
    name = role[1:] if role.startswith(":") else role
    if name.endswith("-of") and name not in NOT_INVERTED:
        return target, name[:-3], source
    if name == "mod":
        return target, "domain", source
    return source, name, target


def smatch_triples(raw: RawGraph, top: Literal["constant", "concept"] = "constant") -> TripleGraph:
    """smatch 1.0.4's triples (see the module doc); ``top="concept"`` is smatch <= 1.0.2's TOP."""
    index = {v: i for i, v in enumerate(raw.variables)}
    concepts = [""] * len(raw.variables)
    attributes: list[tuple[int, str, str]] = []
    relations: list[tuple[int, str, int]] = []
    for source, role, target in raw.triples:
        if role == ":instance":
            concepts[index[source]] = smatch_concept(target)
            continue
        source, name, target = smatch_direction(source, role, target)
        if source not in index:
            continue  # inverted onto a constant: smatch 1.0.4 loses it
        if target in index:
            relations.append((index[source], smatch_label(name), index[target]))
        else:
            attributes.append((index[source], smatch_label(name), smatch_constant(target)))
    if raw.top is not None and raw.top in index:
        root = index[raw.top]
        attributes.append((root, "top", "top" if top == "constant" else concepts[root]))
    return TripleGraph(tuple(raw.variables), tuple(concepts), tuple(attributes), tuple(relations))

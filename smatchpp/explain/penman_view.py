"""A graph as PENMAN text, cut into typed segments that views can colour.

:func:`penman_lines` lays a graph out as a PENMAN tree (through the ``penman``
library) from its raw triples when they are known (as written, ``-of`` roles
kept) or else from its standardized triples.  Each line is a list of
:class:`Seg` ``(text, kind, var)``: ``kind`` is ``var`` (a node's variable),
``ref`` (a re-entrant reference to a variable), ``concept`` (with the variable
it belongs to), ``role``, ``const`` or ``text`` (brackets, slashes, spaces).

>>> from smatchpp.api import parse_graph
>>> lines = penman_lines(None, parse_graph("(d / dog :ARG0-of (b / bark-01 :ARG1 d))"))
>>> print(plain(lines))
(d / dog
   :top top
   :arg0-of (b / bark-01)
   :arg1-of b)
>>> [s.kind for s in lines[0]]
['text', 'var', 'text', 'concept']
"""

from __future__ import annotations

from typing import NamedTuple

import penman
from penman.exceptions import PenmanError

from ..graphs.read import RawGraph
from ..graphs.triples import TripleGraph

__all__ = ["Seg", "penman_lines", "layout_tree", "branch_triples", "plain"]


class Seg(NamedTuple):
    text: str
    kind: str
    var: str | None = None
    #: for a ``role``: the branch ``(source, role, target)`` as written
    branch: tuple[str, str, str] | None = None


def _graph_triples(raw: RawGraph | None, g: TripleGraph) -> tuple[str | None, list[tuple[str, str, str]]]:
    if raw is not None:
        return raw.top, list(raw.triples)
    out = []
    for s, r, t in g.triples():
        out.append((s, ":instance" if r == "instance" else ":" + r, t))
    top = next((s for s, r, t in g.triples() if r == "top"), g.variables[0] if g.variables else None)
    return top, out


def _trees(raw: RawGraph | None, g: TripleGraph):
    """(variables, triples, penman trees or ``None`` if penman cannot lay them out)."""
    top, triples = _graph_triples(raw, g)
    variables = set(g.variables) | ({v for v in raw.variables} if raw is not None else set())
    triples = [t for t in triples if t[0] in variables]  # variable-free triples: listed apart
    trees = []
    for part_top, part in _components(top, triples, variables):
        try:
            trees.append(penman.configure(penman.Graph(part, top=part_top)))
        except (PenmanError, KeyError, ValueError):
            return variables, triples, None
    return variables, triples, trees


def layout_tree(raw: RawGraph | None, g: TripleGraph) -> list[tuple[str, str | None]] | None:
    """``(variable, parent variable or None)`` in PENMAN pre-order: the tree the text shows.

    penman lays the triples out again, so a re-entrant node may sit under another
    parent than in the input (here ``c``), the same in the text and the drawing.

    >>> from smatchpp.graphs.read import read_text
    >>> raw = read_text("(d / dog :ARG0-of (b / bark-01 :ARG1 (c / cat)) :poss c)")[0].graph
    >>> from smatchpp.presets import standardize
    >>> layout_tree(raw, standardize(raw))
    [('d', None), ('b', 'd'), ('c', 'd')]
    """
    _, _, trees = _trees(raw, g)
    if trees is None:
        return None
    out: list[tuple[str, str | None]] = []
    stack = [(tree.node, None) for tree in reversed(trees)]
    while stack:
        (var, branches), parent = stack.pop()
        out.append((var, parent))
        stack.extend((t, var) for _, t in reversed(branches) if isinstance(t, tuple))
    return out


def penman_lines(raw: RawGraph | None, g: TripleGraph, indent: int = 3) -> list[list[Seg]]:
    """The graph as PENMAN lines of segments (see the module docstring)."""
    variables, triples, trees = _trees(raw, g)
    if not triples:
        return [[Seg("()", "text")]]
    if trees is None:
        return [[Seg("(", "text"), Seg(s, "var" if s in variables else "const", s), Seg(" ", "text"),
                 Seg(r, "role", None, (s, r, t)), Seg(" ", "text"),
                 Seg(t, "ref" if t in variables else "const", t if t in variables else None),
                 Seg(")", "text")] for s, r, t in triples]
    lines: list[list[Seg]] = []
    seen: set[str] = set()

    def node(n, depth: int) -> None:
        var, branches = n
        seen.add(var)
        line = lines[-1]
        line += [Seg("(", "text"), Seg(var, "var", var)]
        concept = next((t for r, t in branches if r == "/"), None)
        if concept is not None:
            line += [Seg(" / ", "text"), Seg(str(concept), "concept", var)]
        for role, target in branches:
            if role == "/":
                continue
            written = target[0] if isinstance(target, tuple) else str(target)
            lines.append([Seg(" " * (indent * (depth + 1)), "text"), Seg(role, "role", None, (var, role, written)),
                          Seg(" ", "text")])
            if isinstance(target, tuple):
                node(target, depth + 1)
            elif target in variables:
                lines[-1].append(Seg(target, "ref", target))
            else:
                lines[-1].append(Seg(str(target), "const"))
        lines[-1].append(Seg(")", "text"))

    for tree in trees:  # one tree per connected part (a TSV graph need not be connected)
        lines.append([])
        node(tree.node, 0)
    return lines


def _components(top: str | None, triples: list[tuple[str, str, str]],
                variables: set[str]) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Split the triples into connected parts, the part of ``top`` first (rooted at ``top``)."""
    parent = {v: v for v in variables}

    def find(v: str) -> str:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for s, _, t in triples:
        if t in variables:
            parent[find(s)] = find(t)
    parts: dict[str, list[tuple[str, str, str]]] = {}
    first: dict[str, str] = {}
    for s, r, t in triples:
        root = find(s)
        parts.setdefault(root, []).append((s, r, t))
        first.setdefault(root, s)
    if top is not None and top in variables and find(top) in parts:
        first[find(top)] = top
    order = sorted(parts, key=lambda root: (top is None or find(top) != root,
                                            triples.index(parts[root][0])))
    return [(first[root], parts[root]) for root in order]


def _norm(label: str) -> str:
    return label.lower().rstrip("_")


def _candidates(source: str, role: str, target: str) -> list[tuple[str, str, str]]:
    """Compared triples a written branch may have become (inverted ``-of``, ``:mod``, constants)."""
    name = _norm(role[1:] if role.startswith(":") else role)
    values = [target, _norm(target)]
    if len(target) >= 2 and target[0] == target[-1] == '"':
        inner = target[1:-1]
        values += [inner, _norm(inner), _norm(inner.split()[0]) if inner.split() else ""]
    out = [(source, name, v) for v in values]
    if name.endswith("-of"):
        out.append((target, name[:-3], source))
    if name == "mod":
        out.append((target, "domain", source))
    if name == "domain":
        out.append((target, "mod", source))
    return out


def branch_triples(lines: list[list[Seg]], g: TripleGraph) -> dict[int, int]:
    """``id(role segment) -> index in g.triples()`` for the branches found among the compared triples.

    A branch that the standardization dropped or rewrote beyond recognition is
    left out (the views leave it unmarked); repeated triples are consumed in order.

    >>> from smatchpp.api import parse_graph
    >>> g = parse_graph('(d / dog :ARG0-of (b / bark-01) :name "Rex Dog")')
    >>> lines = penman_lines(None, g)
    >>> found = branch_triples(lines, g)
    >>> sorted(g.triples()[t] for t in found.values())
    [('b', 'arg0', 'd'), ('d', 'name', 'rex'), ('d', 'top', 'top')]
    """
    where: dict[tuple[str, str, str], list[int]] = {}
    for t, triple in enumerate(g.triples()):
        if triple[1] != "instance":
            where.setdefault(tuple(triple), []).append(t)
    taken: dict[tuple[str, str, str], int] = {}
    out: dict[int, int] = {}
    for line in lines:
        for seg in line:
            if seg.kind != "role" or seg.branch is None:
                continue
            for key in _candidates(*seg.branch):
                slots = where.get(key)
                if slots and taken.get(key, 0) < len(slots):
                    out[id(seg)] = slots[taken.get(key, 0)]
                    taken[key] = taken.get(key, 0) + 1
                    break
    return out


def plain(lines: list[list[Seg]]) -> str:
    """The text without any marking."""
    return "\n".join("".join(s.text for s in line) for line in lines)

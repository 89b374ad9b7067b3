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

from ..read import RawGraph
from ..standardize import TripleGraph

__all__ = ["Seg", "penman_lines", "plain"]


class Seg(NamedTuple):
    text: str
    kind: str
    var: str | None = None


def _graph_triples(raw: RawGraph | None, g: TripleGraph) -> tuple[str | None, list[tuple[str, str, str]]]:
    if raw is not None:
        return raw.top, list(raw.triples)
    out = []
    for s, r, t in g.triples():
        out.append((s, ":instance" if r == "instance" else ":" + r, t))
    top = next((s for s, r, t in g.triples() if r == "top"), g.variables[0] if g.variables else None)
    return top, out


def penman_lines(raw: RawGraph | None, g: TripleGraph, indent: int = 3) -> list[list[Seg]]:
    """The graph as PENMAN lines of segments (see the module docstring)."""
    top, triples = _graph_triples(raw, g)
    variables = set(g.variables) | ({v for v in raw.variables} if raw is not None else set())
    triples = [t for t in triples if t[0] in variables]  # variable-free triples: listed apart
    if not triples:
        return [[Seg("()", "text")]]
    try:
        tree = penman.configure(penman.Graph(triples, top=top))
    except (PenmanError, KeyError, ValueError):
        return [[Seg("(", "text"), Seg(s, "var" if s in variables else "const", s), Seg(" ", "text"),
                 Seg(r, "role"), Seg(" ", "text"),
                 Seg(t, "ref" if t in variables else "const", t if t in variables else None),
                 Seg(")", "text")] for s, r, t in triples]
    lines: list[list[Seg]] = [[]]
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
            lines.append([Seg(" " * (indent * (depth + 1)), "text"), Seg(role, "role"), Seg(" ", "text")])
            if isinstance(target, tuple):
                node(target, depth + 1)
            elif target in variables:
                lines[-1].append(Seg(target, "ref", target))
            else:
                lines[-1].append(Seg(str(target), "const"))
        lines[-1].append(Seg(")", "text"))

    node(tree.node, 0)
    return lines


def plain(lines: list[list[Seg]]) -> str:
    """The text without any marking."""
    return "\n".join("".join(s.text for s in line) for line in lines)

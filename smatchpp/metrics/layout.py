"""A graph's branches in the order they are written, for metrics whose reference reads text.

SemBleu's and SEMA's reference readers scan the PENMAN text once, left to
right, and what they make of a re-entrant variable depends on whether its
``(var / concept`` was already read at that point.  :class:`~smatchpp.graphs.read.RawGraph`
keeps each node's branches in written order, and its ``inline`` field (when
the reader provides it) names the branches written as ``:role (x / concept ...)``;
from the two, :func:`written_order` rebuilds the text's order.  Without
``inline`` (TSV input), a variable counts as written at its first reference in
depth-first order.

>>> from smatchpp.graphs.read import read_text
>>> g = read_text("(a / x :ARG0 (w / z :ARG1 b) :ARG2 (b / y))")[0].graph
>>> for branch in written_order(g):
...     print(Branch(*branch))
Branch(source='a', role=':ARG0', target='w', is_var=True, inline=True, seen=False)
Branch(source='w', role=':ARG1', target='b', is_var=True, inline=False, seen=False)
Branch(source='a', role=':ARG2', target='b', is_var=True, inline=True, seen=False)

``seen`` says whether the target variable's ``(var / concept`` came earlier
in the text (always false for constants and for inline branches).
"""

from __future__ import annotations

from typing import NamedTuple

from ..graphs.read import RawGraph

__all__ = ["Branch", "written_order", "concepts"]


class Branch(NamedTuple):
    """One non-instance triple, in written order (:func:`written_order` gives plain tuples
    in this field order, which are cheaper to make)."""

    source: str
    role: str
    target: str
    #: whether the target is a variable of the graph
    is_var: bool
    #: whether the branch opens the target node here (``:role (x / ...)``)
    inline: bool
    #: whether the target variable's concept was written before this branch
    seen: bool


def concepts(graph: RawGraph) -> dict[str, str]:
    """``variable -> concept`` (the first instance triple of each variable)."""
    out: dict[str, str] = {}
    for s, r, t in graph.triples:
        if r == ":instance" and s not in out:
            out[s] = t
    return out


def written_order(graph: RawGraph) -> list[tuple[str, str, str, bool, bool, bool]]:
    """Every non-instance triple of ``graph`` as the PENMAN text has it, left to right."""
    inline = graph.inline
    if inline is None:
        return _walk(graph)
    # The readers list a PENMAN graph's triples node by node in the order the nodes are
    # opened, each node's instance first, so the text's order is a merge: a node's branches
    # up to an inline one, then the next node's block, and so on.  Anything else: the walk.
    triples = graph.triples
    variables = graph.variables
    if not variables:
        return []
    order = {v: k for k, v in enumerate(variables)}
    starts = [i for i, (_, r, _) in enumerate(triples) if r == ":instance"]
    if len(starts) != len(variables) or starts[0] != 0:
        return _walk(graph)
    starts.append(len(triples))
    out: list[tuple[str, str, str, bool, bool, bool]] = []
    stack: list[tuple[int, int, str]] = []
    node = variables[0]
    pos, end = 1, starts[1]
    opened = 1  # the nodes 0 .. opened - 1 are open
    while True:
        while pos < end:
            s, r, t = triples[pos]
            if s != node:
                return _walk(graph)
            k = order.get(t)
            if k is None:
                out.append((s, r, t, False, False, False))
            elif pos in inline:
                if k != opened or triples[starts[k]][0] != t:
                    return _walk(graph)
                out.append((s, r, t, True, True, False))
                stack.append((pos + 1, end, node))
                opened += 1
                node, pos, end = t, starts[k], starts[k + 1]
            else:
                out.append((s, r, t, True, False, k < opened))
            pos += 1
        if not stack:
            break
        pos, end, node = stack.pop()
    return out if opened == len(variables) else _walk(graph)


def _walk(graph: RawGraph) -> list[tuple[str, str, str, bool, bool, bool]]:
    """:func:`written_order` by a depth-first walk from the top (any triple order; without
    ``inline``, a variable counts as written at its first reference)."""
    variables = set(graph.variables)
    per_node: dict[str, list[tuple[int, str, str]]] = {v: [] for v in graph.variables}
    for index, (s, r, t) in enumerate(graph.triples):
        if r == ":instance":
            continue
        per_node.setdefault(s, []).append((index, r, t))
    inline = getattr(graph, "inline", None)
    out: list[tuple[str, str, str, bool, bool, bool]] = []
    if not graph.variables:
        return out
    opened = {graph.variables[0]}
    # an explicit stack (graphs of any depth): (node, position in its branch list)
    stack: list[list] = [[graph.variables[0], 0]]
    while stack:
        frame = stack[-1]
        node, pos = frame
        branches = per_node.get(node, [])
        if pos >= len(branches):
            stack.pop()
            continue
        frame[1] = pos + 1
        index, role, target = branches[pos]
        is_var = target in variables
        if inline is not None:
            here = index in inline
        else:
            here = is_var and target not in opened
        if here and is_var and target not in opened:
            out.append((node, role, target, True, True, False))
            opened.add(target)
            stack.append([target, 0])
        else:
            out.append((node, role, target, is_var, False, is_var and target in opened))
    # nodes the layout never reached (not possible for a graph the reader accepted)
    for v in graph.variables:
        if v not in opened:
            opened.add(v)
            for index, role, target in per_node.get(v, []):
                is_var = target in variables
                out.append((v, role, target, is_var, False, is_var and target in opened))
    return out

"""Drawing a graph as inline SVG with a tree layout computed in Python (no Graphviz).

What is drawn are the triples that are compared (the standardized graph): one
box per variable (``var / concept``), one small box per attribute value, one
arrow per relation in its compared direction (``a :ARG0-of b`` is drawn as an
arrow ``arg0`` from ``b`` up to ``a``).  The layout is a tidy tree: the PENMAN
tree of the graph as read when it is known (``tree``), or else a depth-first
walk from the top variable over the relations in either direction, gives every
variable a parent; leaves are placed left to right and parents centred over
their children.  Relations outside the tree (re-entrancies) are drawn as curves.

Every element carries the state of its triple: matched (grey), unmatched
(red, dashed), and every variable the colour of its aligned pair (shared with
the other graph) or a dashed outline when unaligned.  Hovering shows the triple.

>>> from smatchpp.api import parse_graph
>>> g = parse_graph("(d / dog :ARG0-of (b / bark-01) :polarity -)")
>>> svg = draw(g, matched=[True] * g.n_triples, tags={"d": 1, "b": 2})
>>> svg.startswith("<svg") and svg.count("<rect") == 3 and "bark-01" in svg
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Sequence

from ..standardize import TripleGraph

__all__ = ["draw", "pair_colour", "colour_css", "CHAR_W"]

#: approximate width of one character of the 12px monospace font used in the drawing
CHAR_W = 7.3
_H = 22          # box height
_LEVEL = 64      # vertical distance between depths
_GAP = 14        # horizontal gap between sibling subtrees
_MARGIN = 16


def pair_colour(k: int) -> tuple[str, str]:
    """(fill, stroke) CSS colours of aligned pair ``k`` (1-based): golden-angle hues.

    >>> pair_colour(1)
    ('hsl(138,70%,86%)', 'hsl(138,65%,32%)')
    """
    h = round((k * 137.508) % 360)
    return f"hsl({h},70%,86%)", f"hsl({h},65%,32%)"


def colour_css(n: int) -> str:
    """CSS custom properties ``--f`` (fill) and ``--s`` (stroke) of classes ``k1`` .. ``kn``.

    >>> colour_css(1)
    '.k1{--f:hsl(138,70%,86%);--s:hsl(138,65%,32%)}'
    """
    return "".join(".k%d{--f:%s;--s:%s}" % ((k,) + pair_colour(k)) for k in range(1, n + 1))


@dataclass
class _Node:
    key: str              # "v3" for a variable, "c7" for an attribute value (its triple index)
    label: str
    width: float
    children: list["_Node"] = field(default_factory=list)
    edge: tuple[int, str, bool] | None = None   # (triple index, role, drawn child->parent)
    x: float = 0.0
    y: float = 0.0
    span: float = 0.0


def _width(label: str) -> float:
    return CHAR_W * len(label) + 12


def _build(g: TripleGraph, tree: Sequence[tuple[str, str | None]] | None = None
           ) -> tuple[list[_Node], dict[int, _Node], list[tuple[int, int, str, int]]]:
    """Tree nodes, variable index -> node, and the relations not in the tree.

    ``tree`` (``(variable, parent)`` in pre-order, e.g. the PENMAN tree of
    :func:`~smatchpp.explain.penman_view.layout_tree`) fixes the layout; without
    it a depth-first walk over the relations makes one.
    """
    n_inst = len(g.concepts)
    n_attr = len(g.attributes)
    var_nodes = {i: _Node(f"v{i}", f"{v} / {c}", _width(f"{v} / {c}"))
                 for i, (v, c) in enumerate(zip(g.variables, g.concepts))}
    incident: dict[int, list[tuple[int, int, str, int, bool]]] = {i: [] for i in var_nodes}
    rel0 = n_inst + n_attr
    for t, (i, r, k) in enumerate(g.relations):
        if i == k:
            continue
        incident[i].append((rel0 + t, k, r, i, False))
        incident[k].append((rel0 + t, i, r, i, True))
    for t, (i, r, v) in enumerate(g.attributes):
        if r == "top":
            continue
        leaf = _Node(f"c{n_inst + t}", v, _width(v), edge=(n_inst + t, r, False))
        var_nodes[i].children.append(leaf)
    used: set[int] = set()
    roots: list[_Node] = []
    if tree is not None:
        index = {v: i for i, v in enumerate(g.variables)}
        kids: dict[int, list[_Node]] = {i: [] for i in var_nodes}
        placed: set[int] = set()
        for var, parent in tree:
            c = index.get(var)
            if c is None or c in placed:
                continue
            placed.add(c)
            p = index.get(parent) if parent is not None else None
            if p is None:
                roots.append(var_nodes[c])
                continue
            kids[p].append(var_nodes[c])
            link = next(((t, role, reverse) for t, other, role, _, reverse in incident[p]
                         if other == c and t not in used), None)
            if link is not None:
                used.add(link[0])
                var_nodes[c].edge = link  # reverse: the relation points from the child to its parent
        for i in var_nodes:
            var_nodes[i].children = kids[i] + var_nodes[i].children
        roots += [var_nodes[i] for i in var_nodes if i not in placed]
        extra = [(rel0 + t, i, r, k) for t, (i, r, k) in enumerate(g.relations)
                 if rel0 + t not in used and i != k]
        return roots, var_nodes, extra
    top = next((i for i, r, _ in g.attributes if r == "top"), 0)
    seen: set[int] = set()
    order = [top] + [i for i in range(len(g.variables)) if i != top]
    for root in order:
        if root in seen or root not in var_nodes:
            continue
        seen.add(root)
        roots.append(var_nodes[root])
        stack = [root]
        while stack:  # depth first, children in triple order
            i = stack.pop()
            fresh, fresh_ids = [], []
            for t, other, role, source, reverse in incident[i]:
                if other in seen:
                    continue
                seen.add(other)
                used.add(t)
                child = var_nodes[other]
                child.edge = (t, role, reverse)  # reverse: the relation points from the child up
                fresh.append(child)
                fresh_ids.append(other)
            # relations first, attribute leaves after them
            var_nodes[i].children = fresh + var_nodes[i].children
            stack.extend(reversed(fresh_ids))
    extra = [(rel0 + t, i, r, k) for t, (i, r, k) in enumerate(g.relations)
             if rel0 + t not in used and i != k]
    return roots, var_nodes, extra


def _place(roots: list[_Node]) -> tuple[float, float]:
    """Tidy-tree coordinates (box centres); returns the drawing's width and height."""
    def span(n: _Node) -> float:
        kids = sum(span(c) for c in n.children) + _GAP * max(len(n.children) - 1, 0)
        n.span = max(n.width, kids)
        return n.span

    deepest = 0

    def put(n: _Node, left: float, depth: int) -> None:
        nonlocal deepest
        deepest = max(deepest, depth)
        n.y = _MARGIN + 14 + depth * _LEVEL + _H / 2
        kids = sum(c.span for c in n.children) + _GAP * max(len(n.children) - 1, 0)
        x = left + (n.span - kids) / 2
        for c in n.children:
            put(c, x, depth + 1)
            x += c.span + _GAP
        n.x = left + n.span / 2

    left = _MARGIN
    for r in roots:
        span(r)
        put(r, left, 0)
        left += r.span + 2 * _GAP
    return left - 2 * _GAP + _MARGIN, _MARGIN + 14 + deepest * _LEVEL + _H + 30


def _walk(roots: list[_Node]):
    stack = list(reversed(roots))
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def draw(g: TripleGraph, matched: Sequence[bool], tags: dict[str, int], side: str = "a",
         tree: Sequence[tuple[str, str | None]] | None = None) -> str:
    """The SVG of ``g``; ``matched[t]`` says whether triple ``t`` of ``g.triples()`` is matched.

    ``tags`` maps a variable name to its aligned pair number (absent: unaligned);
    a variable's box gets the class ``k<number>`` (coloured by :func:`colour_css`)
    or ``un``.  ``tree`` fixes the layout (see :func:`_build`).
    """
    roots, var_nodes, extra = _build(g, tree)
    width, height = _place(roots)
    triples = g.triples()

    def tip(t: int) -> str:
        s = f"({', '.join(triples[t])})"
        return escape(s if matched[t] else s + " unmatched")

    parts = [f'<svg class="g" width="{width:.0f}" '
             f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">',
             '<defs><marker id="ar{0}" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" '
             'markerHeight="7" orient="auto-start-reverse"><path d="M0,0L8,4L0,8z" fill="#666"/></marker>'
             '<marker id="xr{0}" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" '
             'orient="auto-start-reverse"><path d="M0,0L8,4L0,8z" fill="#c62828"/></marker></defs>'
             .format(side)]

    def edge_path(x1, y1, x2, y2, t, role, curved=False):
        ok = matched[t]
        cls = "e" if ok else "e u"
        mk = f"ar{side}" if ok else f"xr{side}"
        if curved:
            mx, my = (x1 + x2) / 2 + (y2 - y1) * 0.25 + 30, (y1 + y2) / 2 - (x2 - x1) * 0.15
            d = f"M{x1:.0f},{y1:.0f}Q{mx:.0f},{my:.0f} {x2:.0f},{y2:.0f}"
            lx, ly = (x1 + 2 * mx + x2) / 4, (y1 + 2 * my + y2) / 4
        else:
            d = f"M{x1:.0f},{y1:.0f}L{x2:.0f},{y2:.0f}"
            lx, ly = (x1 + x2) / 2, (y1 + y2) / 2
        parts.append(f'<g class="{cls}" data-t="{side}{t}"><title>{tip(t)}</title>'
                     f'<path d="{d}" marker-end="url(#{mk})"/>'
                     f'<text x="{lx + 3:.0f}" y="{ly + 4:.0f}">{escape(role)}</text></g>')

    def border(n: _Node, y_from_top: bool) -> float:
        return n.y - _H / 2 if y_from_top else n.y + _H / 2

    # tree edges
    for n in _walk(roots):
        for c in n.children:
            if c.edge is None:
                continue
            t, role, child_to_parent = c.edge
            if child_to_parent:
                parts_xy = (c.x, border(c, True), n.x, border(n, False))
            else:
                parts_xy = (n.x, border(n, False), c.x, border(c, True))
            edge_path(*parts_xy, t, role)
    # re-entrancies
    n_inst = len(g.concepts)
    for t, i, role, k in extra:
        a, b = var_nodes[i], var_nodes[k]
        down = b.y >= a.y
        edge_path(a.x, border(a, not down) if b.y != a.y else a.y + _H / 2,
                  b.x, border(b, down) if b.y != a.y else b.y + _H / 2, t, role, curved=True)
    # self-loops
    rel0 = n_inst + len(g.attributes)
    for t, (i, r, k) in enumerate(g.relations):
        if i == k:
            n = var_nodes[i]
            x0 = n.x + n.width / 2
            cls = "e" if matched[rel0 + t] else "e u"
            parts.append(f'<g class="{cls}" data-t="{side}{rel0 + t}"><title>{tip(rel0 + t)}</title>'
                         f'<path d="M{x0:.0f},{n.y - 5:.0f}c22,-18 22,28 0,10"/>'
                         f'<text x="{x0 + 20:.0f}" y="{n.y - 8:.0f}">{escape(r)}</text></g>')
    # boxes
    tops = {i: n_inst + t for t, (i, r, _) in enumerate(g.attributes) if r == "top"}
    for n in _walk(roots):
        x, y = n.x - n.width / 2, n.y - _H / 2
        if n.key[0] == "v":
            i = int(n.key[1:])
            name = g.variables[i]
            k = tags.get(name)
            cls = f"n k{k}" if k else "n un"
            ok = matched[i]
            title = escape(f"{name}: " + (f"aligned pair {k}" if k else "unaligned")) + "; " + tip(i)
            concept = escape(g.concepts[i])
            parts.append(f'<g class="{cls}"><title>{title}</title>'
                         f'<rect x="{x:.0f}" y="{y:.0f}" width="{n.width:.0f}" height="{_H}" rx="4"/>'
                         f'<text x="{n.x:.0f}" y="{n.y + 4:.0f}"><tspan class="vn">'
                         f'{escape(name)}</tspan> / <tspan class="{"c" if ok else "c u"}" data-t="{side}{i}">{concept}</tspan>'
                         '</text></g>')
            if i in tops:
                t = tops[i]
                parts.append(f'<g class="{"top" if matched[t] else "top u"}" data-t="{side}{t}">'
                             f'<title>{tip(t)}</title><text x="{n.x:.0f}" y="{y - 5:.0f}">TOP</text></g>')
        else:
            t = int(n.key[1:])
            parts.append(f'<g class="{"a" if matched[t] else "a u"}" data-t="{side}{t}"><title>{tip(t)}</title>'
                         f'<rect x="{x:.0f}" y="{y:.0f}" width="{n.width:.0f}" height="{_H}" rx="10"/>'
                         f'<text x="{n.x:.0f}" y="{n.y + 4:.0f}">{escape(n.label)}</text></g>')
    parts.append("</svg>")
    return "".join(parts)

"""Drawing a graph as inline SVG with a tree layout computed in Python (no Graphviz).

What is drawn are the triples that are compared (the standardized graph): one
box per variable (``var / concept``), one small box per attribute value, one
arrow per relation in its compared direction (``a :ARG0-of b`` is drawn as an
arrow ``arg0`` from ``b`` up to ``a``).  The layout is a tidy tree: the PENMAN
tree of the graph as read when it is known (``tree``), or else a depth-first
walk from the top variable over the relations in either direction, gives every
variable a parent; subtrees are packed side by side depth by depth
(Reingold-Tilford contours) and parents centred over their children.  An
edge's label sits just above the box it points into, and its row is as wide as
the label, so labels of one depth never overlap.  Relations outside the tree
(re-entrancies) are curves bent to the side where they cross the fewest boxes,
labelled where the label overlaps nothing (:func:`layout`).

Every element carries the state of its triple: matched (grey), unmatched
(red, dashed), and every variable the colour of its aligned pair (shared with
the other graph, :func:`pair_colour`) or a dashed outline when unaligned.
Hovering shows the triple.

>>> from smatchpp.api import parse_graph
>>> g = parse_graph("(d / dog :ARG0-of (b / bark-01) :polarity -)")
>>> svg = draw(g, matched=[True] * g.n_triples, tags={"d": 1, "b": 2})
>>> svg.startswith("<svg") and svg.count("<rect") == 3 and "bark-01" in svg
True
"""

from __future__ import annotations

import colorsys
import functools
import math
from dataclasses import dataclass, field
from html import escape
from typing import Sequence

import numpy as np

from ..graphs.triples import TripleGraph

__all__ = ["draw", "layout", "Layout", "Edge", "pair_colour", "colour_css", "CHAR_W"]

#: approximate width of one character of the 12px monospace font used in the drawing
CHAR_W = 7.3
#: the same for the 11px edge labels
LABEL_CHAR_W = 6.7
_H = 22          # box height
_LABEL_H = 13    # edge label height
_LEVEL = 70      # vertical distance between depths
_GAP = 16        # horizontal gap between neighbouring subtrees, depth by depth
_MARGIN = 10
#: how far a re-entrancy curve may bend, as fractions of its length, in the order they are tried
_BENDS = (0.25, -0.25, 0.45, -0.45, 0.7, -0.7, 1.0, -1.0, 1.5, -1.5)


def _lab(h: float, s: float, l: float) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of the CSS colour ``hsl(h, s%, l%)``."""
    rgb = colorsys.hls_to_rgb(h / 360, l / 100, s / 100)
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


#: (fill saturation, fill lightness, stroke lightness) of the three shades each hue comes in
_SHADES = ((85, 88, 28), (75, 78, 35), (70, 68, 20))
#: how many colours :func:`_palette` picks; pairs past it get golden-angle hues
PALETTE_SIZE = 64


@functools.lru_cache(maxsize=1)
def _palette() -> tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...]:
    """(fill, stroke) HSL triples, each as far from all before it as any candidate is.

    Farthest-point sampling over 90 hues in three shades, by the CIE76 distance of the fills
    and of the strokes (the darker text colour), whichever is smaller: the first 26 colours are
    at least 16 units apart, where golden-angle hues alone put two greens 2.4 apart (about the
    smallest difference one can see).
    """
    cands = [((h, sf, lf), (h, 70, ls)) for h in range(0, 360, 4) for sf, lf, ls in _SHADES]
    fill = np.array([_lab(*f) for f, _ in cands])
    stroke = np.array([_lab(*s) for _, s in cands])

    def dist(i: int) -> np.ndarray:
        return np.minimum(np.linalg.norm(fill - fill[i], axis=1), 1.5 * np.linalg.norm(stroke - stroke[i], axis=1))

    chosen = [cands.index(((136, 85, 88), (136, 70, 28)))]
    nearest = dist(chosen[0])
    while len(chosen) < PALETTE_SIZE:
        j = int(np.argmax(nearest))  # the first of the farthest
        chosen.append(j)
        nearest = np.minimum(nearest, dist(j))
    return tuple(cands[j] for j in chosen)


def pair_colour(k: int) -> tuple[str, str]:
    """(fill, stroke) CSS colours of aligned pair ``k`` (1-based), distinct for every ``k``.

    The first :data:`PALETTE_SIZE` come from :func:`_palette`; later ones take golden-angle
    hues in the three shades in turn (distinct as CSS values, if less far apart).

    >>> pair_colour(1)
    ('hsl(136,85%,88%)', 'hsl(136,70%,28%)')
    >>> len({pair_colour(k) for k in range(1, 1001)})
    1000
    """
    if k <= PALETTE_SIZE:
        (h, sf, lf), (_, ss, ls) = _palette()[k - 1]
        return f"hsl({h},{sf}%,{lf}%)", f"hsl({h},{ss}%,{ls}%)"
    sf, lf, ls = _SHADES[k % 3]
    h = (k * 137.508) % 360
    return f"hsl({h:.2f},{sf}%,{lf}%)", f"hsl({h:.2f},70%,{ls}%)"


def colour_css(n: int) -> str:
    """CSS custom properties ``--f`` (fill) and ``--s`` (stroke) of classes ``k1`` .. ``kn``.

    >>> colour_css(1)
    '.k1{--f:hsl(136,85%,88%);--s:hsl(136,70%,28%)}'
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
    label_w: float = 0.0  # width of the label of the edge to the parent (drawn above the box)
    right_extra: float = 0.0  # room for self-loops right of the box


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


def _post_order(roots: list[_Node]) -> list[_Node]:
    out: list[_Node] = []
    stack = list(roots)
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(n.children)
    return out[::-1]  # every node after its children


def _pack(contours: list[list[tuple[float, float]]], gap: float) -> list[float]:
    """Offsets that put subtrees with these contours side by side, each as far left as its
    contour allows (``gap`` apart at every depth they share): the Reingold-Tilford step."""
    offsets: list[float] = []
    merged: list[tuple[float, float]] = []
    for c in contours:
        if not offsets:
            off = 0.0
        else:
            common = min(len(merged), len(c))
            off = max(merged[d][1] - c[d][0] for d in range(common)) + gap
        for d, (lo, hi) in enumerate(c):
            if d < len(merged):
                merged[d] = (merged[d][0], hi + off)
            else:
                merged.append((lo + off, hi + off))
        offsets.append(off)
    return offsets


def _place(roots: list[_Node]) -> None:
    """Tidy-tree coordinates (box centres): Reingold-Tilford with contours, no recursion.

    A node's row is as wide as its box, its edge label (drawn just above it) and its self-loop;
    a subtree is packed against its left sibling depth by depth, and a parent is centred over
    its first and last child, so no two rows of one depth overlap.
    """
    contour: dict[int, list[tuple[float, float]]] = {}
    rel: dict[int, float] = {}
    for n in _post_order(roots):
        half = max(n.width, n.label_w + 6) / 2
        own = (-half, half + n.right_extra)
        if not n.children:
            contour[id(n)] = [own]
            continue
        offsets = _pack([contour[id(c)] for c in n.children], _GAP)
        centre = (offsets[0] + offsets[-1]) / 2
        merged: list[tuple[float, float]] = []
        for c, off in zip(n.children, offsets):
            rel[id(c)] = off - centre
            for d, (lo, hi) in enumerate(contour[id(c)]):
                lo, hi = lo + off - centre, hi + off - centre
                if d < len(merged):
                    merged[d] = (min(merged[d][0], lo), max(merged[d][1], hi))
                else:
                    merged.append((lo, hi))
        contour[id(n)] = [own] + merged
    root_offsets = _pack([contour[id(r)] for r in roots], 2 * _GAP)
    stack = [(r, off, 0) for r, off in zip(roots, root_offsets)]
    while stack:
        n, x, depth = stack.pop()
        n.x, n.y = x, depth * _LEVEL
        stack.extend((c, x + rel[id(c)], depth + 1) for c in n.children)


def _walk(roots: list[_Node]):
    stack = list(reversed(roots))
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


Rect = tuple[float, float, float, float]  # x, y, width, height


def _overlap(p: Rect, q: Rect, pad: float = 0.0) -> bool:
    return (p[0] < q[0] + q[2] + pad and q[0] < p[0] + p[2] + pad
            and p[1] < q[1] + q[3] + pad and q[1] < p[1] + p[3] + pad)


def _label_rect(cx: float, cy: float, text: str) -> Rect:
    """The box of an edge label centred at ``(cx, cy)``."""
    w = _label_width(text)
    return (cx - w / 2, cy - _LABEL_H / 2, w, _LABEL_H)


def _label_width(text: str) -> float:
    return LABEL_CHAR_W * len(text) + 4


def _clip(cx: float, cy: float, hw: float, hh: float, tx: float, ty: float) -> tuple[float, float]:
    """Where the ray from a box's centre towards ``(tx, ty)`` leaves the box."""
    dx, dy = tx - cx, ty - cy
    if dx == 0 and dy == 0:
        return cx, cy + hh
    scale = min(hw / abs(dx) if dx else math.inf, hh / abs(dy) if dy else math.inf)
    return cx + dx * scale, cy + dy * scale


def _bezier(p0, p1, p2, t: float) -> tuple[float, float]:
    u = 1 - t
    return (u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0],
            u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1])


def _free(centres: list[tuple[float, float]], text: str, taken: list[Rect]) -> tuple[float, float]:
    """The first of ``centres`` where the label ``text`` overlaps nothing ``taken``; if none is
    free, the nearest free place above or below the first (there is always one)."""
    for x, y in centres:
        if not any(_overlap(_label_rect(x, y, text), r, 1.0) for r in taken):
            return x, y
    x, y = centres[0]
    step = 0
    while True:
        step += 1
        dy = (step + 1) // 2 * (_LABEL_H + 2) * (1 if step % 2 else -1)
        if not any(_overlap(_label_rect(x, y + dy, text), r, 1.0) for r in taken):
            return x, y + dy


@dataclass
class Edge:
    """A drawn relation or attribute: its triple, path, label and label box."""

    t: int
    role: str
    points: tuple[tuple[float, float], ...]   # straight: 2 points; curved: start, control, end
    label: tuple[float, float]               # centre of the label
    box: Rect
    curved: bool = False
    loop: bool = False


@dataclass
class Layout:
    """Everything :func:`draw` puts on the canvas, in its coordinates (all positive).

    ``boxes`` maps a node key (``v<i>`` for variable ``i``, ``c<t>`` for the value of
    attribute triple ``t``) to its rectangle; ``labels`` are the edge labels' and TOP
    markers' rectangles, in drawing order.
    """

    nodes: list[_Node]
    boxes: dict[str, Rect]
    edges: list[Edge]
    tops: dict[int, tuple[int, Rect]]         # variable -> (top triple, label box)
    width: float
    height: float

    @property
    def labels(self) -> list[Rect]:
        return [e.box for e in self.edges] + [box for _, box in self.tops.values()]


def layout(g: TripleGraph, tree: Sequence[tuple[str, str | None]] | None = None) -> Layout:
    """Positions of every box, edge and label of ``g``'s drawing (see :func:`_build` for ``tree``).

    Tree edges run between adjacent rows with their label just above the lower box.
    A relation outside the tree (a re-entrancy) is a curve bent to the side where it crosses
    the fewest boxes, its label at the first point of the curve whose box is free; no label
    box overlaps a node box or another label (``tests/test_explain.py`` checks it).

    >>> from smatchpp.api import parse_graph
    >>> lay = layout(parse_graph("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"))
    >>> sorted(lay.boxes), [e.role for e in lay.edges if e.curved]
    (['v0', 'v1', 'v2'], ['arg0'])
    """
    roots, var_nodes, extra = _build(g, tree)
    n_inst = len(g.concepts)
    rel0 = n_inst + len(g.attributes)
    loops = {}
    for t, (i, r, k) in enumerate(g.relations):
        if i == k:
            loops.setdefault(i, []).append((rel0 + t, r))
    for n in _walk(roots):
        if n.edge is not None:
            n.label_w = _label_width(n.edge[1])
        if n.key[0] == "v" and int(n.key[1:]) in loops:
            n.right_extra = 24 + max(_label_width(r) for _, r in loops[int(n.key[1:])])
    _place(roots)
    nodes = list(_walk(roots))
    boxes = {n.key: (n.x - n.width / 2, n.y - _H / 2, n.width, _H) for n in nodes}
    taken: list[Rect] = list(boxes.values())
    edges: list[Edge] = []
    for n in nodes:  # tree edges, labelled just above the lower box
        for c in n.children:
            if c.edge is None:
                continue
            t, role, child_to_parent = c.edge
            top, bottom = (c.x, c.y - _H / 2), (n.x, n.y + _H / 2)
            points = (top, bottom) if child_to_parent else (bottom, top)
            cy = c.y - _H / 2 - 10 - _LABEL_H / 2
            box = _label_rect(c.x, cy, role)
            edges.append(Edge(t, role, points, (c.x, cy), box))
            taken.append(box)
    tops: dict[int, tuple[int, Rect]] = {}
    for t, (i, r, _) in enumerate(g.attributes):
        if r == "top" and i in var_nodes:
            n = var_nodes[i]
            above = n.y - _H / 2 - 4 - _LABEL_H / 2
            centre = _free([(n.x, above), (n.x - n.width / 2, above), (n.x + n.width / 2, above)], "TOP", taken)
            box = _label_rect(*centre, "TOP")
            tops[i] = (n_inst + t, box)
            taken.append(box)
    for i, ls in loops.items():  # self-loops, right of their box, labels stacked
        n = var_nodes[i]
        x0 = n.x + n.width / 2
        for k, (t, r) in enumerate(ls):
            w = _label_width(r)
            centre = _free([(x0 + 24 + w / 2, n.y - 6 + k * (_LABEL_H + 2))], r, taken)
            box = _label_rect(*centre, r)
            edges.append(Edge(t, r, ((x0, n.y),), centre, box, loop=True))
            taken.append(box)
    keys = list(boxes)
    box_array = np.array([boxes[k] for k in keys], dtype=float).reshape(-1, 4)
    lo = box_array[:, :2] - 2.0   # boxes grown by 2 px: a curve must keep clear of them
    hi = box_array[:, :2] + box_array[:, 2:] + 2.0
    ts = np.arange(1, 24) / 24
    for t, i, role, k in extra:  # re-entrancies: curves
        a, b = var_nodes[i], var_nodes[k]
        ha, hb = (a.width / 2, _H / 2), (b.width / 2, _H / 2)
        dx, dy = b.x - a.x, b.y - a.y
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        mid = ((a.x + b.x) / 2, (a.y + b.y) / 2)
        routes = []
        for bend in _BENDS:
            size = bend * max(length, 80.0)
            ctrl = (mid[0] + nx * size, mid[1] + ny * size)
            routes.append((_clip(a.x, a.y, *ha, *ctrl), ctrl, _clip(b.x, b.y, *hb, *ctrl)))
        ends = [keys.index(a.key), keys.index(b.key)]

        def hits(chosen: list) -> np.ndarray:
            """Boxes each route crosses (sampled at 23 points), all routes against all boxes at once."""
            p = np.array(chosen, dtype=float)                      # (routes, 3 points, 2)
            u, v = (1 - ts)[None, :, None], ts[None, :, None]
            pts = u * u * p[:, None, 0] + 2 * u * v * p[:, None, 1] + v * v * p[:, None, 2]
            inside = ((pts[:, :, None, :] >= lo) & (pts[:, :, None, :] <= hi)).all(axis=3).any(axis=1)
            inside[:, ends] = False
            return inside.sum(axis=1)

        # the first route that crosses no box (usually the first), else the first of the fewest
        first = hits(routes[:1])
        start, ctrl, end = routes[0] if first[0] == 0 else routes[int(np.argmin(hits(routes)))]
        centre = _free([_bezier(start, ctrl, end, s) for s in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8)],
                       role, taken)
        box = _label_rect(*centre, role)
        edges.append(Edge(t, role, (start, ctrl, end), centre, box, curved=True))
        taken.append(box)
    # move everything to positive coordinates, a margin from the edges
    curve = [_bezier(*e.points, s / 16) for e in edges if e.curved for s in range(17)]
    xs = [r[0] for r in taken] + [x for x, _ in curve]
    ys = [r[1] for r in taken] + [y for _, y in curve]
    x_end = [r[0] + r[2] for r in taken] + [x for x, _ in curve]
    y_end = [r[1] + r[3] for r in taken] + [y for _, y in curve]
    sx, sy = _MARGIN - min(xs), _MARGIN - min(ys)
    for n in nodes:
        n.x += sx
        n.y += sy
    move = lambda p: (p[0] + sx, p[1] + sy)  # noqa: E731
    shift = lambda r: (r[0] + sx, r[1] + sy, r[2], r[3])  # noqa: E731
    boxes = {key: shift(r) for key, r in boxes.items()}
    for e in edges:
        e.points = tuple(move(p) for p in e.points)
        e.label = move(e.label)
        e.box = shift(e.box)
    tops = {i: (t, shift(r)) for i, (t, r) in tops.items()}
    return Layout(nodes, boxes, edges, tops, max(x_end) + sx + _MARGIN, max(y_end) + sy + _MARGIN)


def draw(g: TripleGraph, matched: Sequence[bool], tags: dict[str, int], side: str = "a",
         tree: Sequence[tuple[str, str | None]] | None = None) -> str:
    """The SVG of ``g``; ``matched[t]`` says whether triple ``t`` of ``g.triples()`` is matched.

    ``tags`` maps a variable name to its aligned pair number (absent: unaligned);
    a variable's box gets the class ``k<number>`` (coloured by :func:`colour_css`)
    or ``un``.  ``tree`` fixes the layout (see :func:`_build`).
    """
    lay = layout(g, tree)
    triples = g.triples()

    def tip(t: int) -> str:
        s = f"({', '.join(triples[t])})"
        return escape(s if matched[t] else s + " unmatched")

    parts = [f'<svg class="g" width="{lay.width:.0f}" '
             f'height="{lay.height:.0f}" viewBox="0 0 {lay.width:.0f} {lay.height:.0f}">',
             '<defs><marker id="ar{0}" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" '
             'markerHeight="7" orient="auto-start-reverse"><path d="M0,0L8,4L0,8z" fill="#666"/></marker>'
             '<marker id="xr{0}" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" '
             'orient="auto-start-reverse"><path d="M0,0L8,4L0,8z" fill="#c62828"/></marker></defs>'
             .format(side)]
    for e in lay.edges:  # edges first, labels last: a label is never under a line
        ok = matched[e.t]
        cls = "e" if ok else "e u"
        mk = f"ar{side}" if ok else f"xr{side}"
        if e.loop:
            (x0, y0), = e.points
            d, marker = f"M{x0:.0f},{y0 - 5:.0f}c22,-18 22,28 0,10", ""
        elif e.curved:
            (x1, y1), (mx, my), (x2, y2) = e.points
            d, marker = f"M{x1:.0f},{y1:.0f}Q{mx:.0f},{my:.0f} {x2:.0f},{y2:.0f}", f' marker-end="url(#{mk})"'
        else:
            (x1, y1), (x2, y2) = e.points
            d, marker = f"M{x1:.0f},{y1:.0f}L{x2:.0f},{y2:.0f}", f' marker-end="url(#{mk})"'
        parts.append(f'<g class="{cls}" data-t="{side}{e.t}"><title>{tip(e.t)}</title>'
                     f'<path d="{d}"{marker}/>'
                     f'<text x="{e.label[0]:.0f}" y="{e.label[1] + 4:.0f}">{escape(e.role)}</text></g>')
    for n in lay.nodes:
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
            if i in lay.tops:
                t, box = lay.tops[i]
                parts.append(f'<g class="{"top" if matched[t] else "top u"}" data-t="{side}{t}">'
                             f'<title>{tip(t)}</title><text x="{box[0] + box[2] / 2:.0f}" '
                             f'y="{box[1] + box[3] - 2:.0f}">TOP</text></g>')
        else:
            t = int(n.key[1:])
            parts.append(f'<g class="{"a" if matched[t] else "a u"}" data-t="{side}{t}"><title>{tip(t)}</title>'
                         f'<rect x="{x:.0f}" y="{y:.0f}" width="{n.width:.0f}" height="{_H}" rx="10"/>'
                         f'<text x="{n.x:.0f}" y="{n.y + 4:.0f}">{escape(n.label)}</text></g>')
    parts.append("</svg>")
    return "".join(parts)

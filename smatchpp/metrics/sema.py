"""SEMA (Anchiêta, Cabezudo and Pardo, 2019): AMR similarity without an alignment.

Variables are never aligned: a relation counts when its label and the
concepts at both of its ends agree, a node counts when it is the end of such
a relation (or the root, when the roots' concepts agree), an attribute when
its label, its value and its owner's concept agree.  Precision divides the
count by the test graph's triples, recall by the gold graph's (instances,
relations and attributes; TOP is not one of them); the score is their F1.

Rules, each from the reference implementation (github.com/rafaelanchieta/sema,
commit 9a4911c, which BAMBOO v0.2 used; ``sema.py`` and ``amr.py``):

* reading (``amr.py`` 197-430, Smatch's old reader): an inverse role ``:X-of``
  is stored as ``:X`` from the other end, except ``prep-on-behalf-of``,
  ``prep-out-of`` and ``consist-of``; ``:mod`` is stored as ``:domain`` from the
  other end (211-225); labels lose their colon and keep their case; concepts
  keep their case.
* TOP is an attribute of the root (428) that ``remove_top_relation`` deletes
  (``sema.py`` 43-44, 116-127): it is in no total.
* root (``sema.py`` 47, 129-140): one match when the roots' concepts agree.
* relations (142-165) and their nodes (167-195): for every test relation and
  every gold relation with the same label and the same concepts at both ends,
  the end node, the relation and the start node are counted unless a
  ``visited`` list already holds them; a relation between two nodes already
  counted is counted only when no other relation between the same two nodes
  was (188-195).
* attributes (197-213): label, value and the owner's concept agree, each gold
  attribute once.
* totals (50-51, 64-72): instances + relations + attributes; P, R and F1
  (215-228), 0 when a division by zero occurs.

The reference's counting can exceed the totals: ``visited`` holds the gold
side's triples at 9a4911c (``sema.py`` 162-163 there), so one test relation may
count several gold ones (precision above 1), and the test side's at the head
0ede9e0 (162-163), where the root's match (a gold triple, 140) is counted on
top of the test root's node: a graph against itself scores above 1.

Our default counts so that the count never exceeds either total: relation
matches are the multiset intersection of ``(label, start concept, end
concept)``; a node is *covered* on its side when it ends a relation whose key
the other side has, or is the root of matching roots; node matches are, per
concept, the smaller of the two sides' covered nodes; attribute matches the
multiset intersection of ``(label, owner concept, value)``.  A graph against
itself scores 1.

Reference quirks and our default:

==============================================  =============================================
reference                                       ours (``reference_counting="no"``)
==============================================  =============================================
count can exceed the totals (F1 > 1)            bounded by both totals (self-similarity 1);
                                                ``reference_counting`` ``9a4911c`` or
                                                ``0ede9e0`` reproduces either commit
a second relation between two counted nodes     counted (multiset intersection)
is not counted (``sema.py`` 188-195)
quoted constants: quotes dropped, ``_`` added,  the constant as written (quotes kept); the
only the first word kept (``amr.py`` 250-255,   reference's reading with reference_counting
300-307: ``"New York"`` reads ``New``)
an attribute written ``:X-of`` or ``:mod``      kept as an attribute, label as written
is dropped (``amr.py`` 220-225 store it under
the constant, which no node has)
empty graph: IndexError (``sema.py`` 47)        0; two empty graphs score 1
an unreadable graph stops the run (256-269)     the CLI's ``--on-error``
==============================================  =============================================

>>> from smatchpp.graphs.read import read_text
>>> g = [e.graph for e in read_text('''(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))
...
... (w / want-01 :ARG0 (g / girl) :ARG1 (g2 / go-01 :ARG0 g))''')]
>>> m = Sema()
>>> m.stats(m.features(g[0]), m.features(g[0]))
(6, 6, 6)
>>> m.stats(m.features(g[0]), m.features(g[1]))
(3, 6, 6)
>>> ref = Sema(reference_counting="0ede9e0")
>>> ref.stats(ref.features(g[0]), ref.features(g[0]))  # the head counts the root twice
(7, 6, 6)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple, Sequence

import numpy as np

from ..graphs.read import RawGraph
from .base import Metric, param
from .layout import written_order
from .registry import register

__all__ = ["Sema", "SemaFeatures", "COUNTINGS"]

#: inverse roles the reference's reader keeps as written (``amr.py`` 211)
NOT_INVERTED = frozenset({"prep-on-behalf-of", "prep-out-of", "consist-of"})
#: ``reference_counting`` values: ours, BAMBOO's commit, the head
COUNTINGS = ("no", "9a4911c", "0ede9e0")


class SemaFeatures(NamedTuple):
    """One graph as SEMA sees it: concepts by node, relations and attributes in the
    reference's order, and the keys our counting compares (empty in the reference's
    reading, whose counting walks the relations instead)."""

    concepts: tuple[str, ...]
    #: (label, source node, target node)
    relations: tuple[tuple[str, int, int], ...]
    #: (label, owner node, value)
    attributes: tuple[tuple[str, int, str], ...]
    relation_keys: Counter
    attribute_keys: Counter

    @property
    def total(self) -> int:
        return len(self.concepts) + len(self.relations) + len(self.attributes)


def _reference_value(constant: str) -> str:
    """A constant as the reference's reader keeps it: a quoted one loses its quotes,
    gains ``_`` and keeps its first word only (``amr.py`` 250-255, 300-307)."""
    if len(constant) >= 2 and constant[0] == '"' and constant[-1] == '"':
        return (constant[1:-1] + "_").split()[0]
    return constant


def _read_plain(graph: RawGraph) -> SemaFeatures:
    """``graph`` for our counting: every branch to a variable a relation (turned as the
    reference's reader turns it), every branch to a constant an attribute as written.
    Our counting compares multisets, so the written order of the branches (which only the
    reference's reading depends on) is not needed: one pass over the triples."""
    index = {v: i for i, v in enumerate(graph.variables)}
    cs = [""] * len(index)
    relations: list[tuple[str, int, int]] = []
    attributes: list[tuple[str, int, str]] = []
    for s, role, t in graph.triples:
        i = index.get(s)
        if i is None:
            continue  # a TSV branch from a constant: no node of the graph owns it
        if role == ":instance":
            if not cs[i]:
                cs[i] = t
            continue
        if role[:1] == ":":
            role = role[1:]
        j = index.get(t)
        if j is None:
            attributes.append((role, i, t))
        elif role[-3:] == "-of" and role not in NOT_INVERTED:
            relations.append((role[:-3], j, i))
        elif role == "mod":
            relations.append(("domain", j, i))
        else:
            relations.append((role, i, j))
    concepts_ = tuple(cs)
    return SemaFeatures(concepts_, tuple(relations), tuple(attributes),
                        Counter([(r, concepts_[s], concepts_[t]) for r, s, t in relations]),
                        Counter([(r, concepts_[o], v) for r, o, v in attributes]))


def read_sema(graph: RawGraph, reference: bool) -> SemaFeatures:
    """``graph`` as SEMA's reader sees it (``reference``: with the reference's quirks)."""
    if not reference:
        return _read_plain(graph)
    names = graph.variables
    index = {v: i for i, v in enumerate(names)}
    cs_ = [""] * len(names)
    for s, r, t in graph.triples:
        if r == ":instance":
            i = index.get(s)
            if i is not None and not cs_[i]:
                cs_[i] = t
    direct: dict[str, list[tuple[str, str]]] = {}    # the reader's node_relation_dict1
    pending: dict[str, list[tuple[str, str]]] = {}   # its node_relation_dict2
    seen: set[str] = set()
    for source, role, target, is_var, inline, written in written_order(graph):
        if role[:1] == ":":
            role = role[1:]
        seen.add(source)
        if is_var:
            table = direct if inline or written else pending
        else:
            target = _reference_value(target)
            table = direct if target in seen else pending
        # stored as the reader stores it: inverse roles (but three) and :mod from the other end
        if role[-3:] == "-of" and role not in NOT_INVERTED:
            table.setdefault(target, []).append((role[:-3], source))
        elif role == "mod":
            table.setdefault(target, []).append(("domain", source))
        else:
            table.setdefault(source, []).append((role, target))
        if inline:
            seen.add(target)
    relations: list[tuple[str, int, int]] = []
    attributes: list[tuple[str, int, str]] = []
    for i, v in enumerate(names):
        for role, other in direct.get(v, ()):
            relations.append((role, i, index[other]))
        for role, other in pending.get(v, ()):
            j = index.get(other)
            if j is not None:
                relations.append((role, i, j))
            else:
                attributes.append((role, i, other))
    return SemaFeatures(tuple(cs_), tuple(relations), tuple(attributes), Counter(), Counter())


def _common(x: Counter, y: Counter) -> int:
    """The size of the multiset intersection of ``x`` and ``y``."""
    if len(x) > len(y):
        x, y = y, x
    return sum([min(n, y[k]) for k, n in x.items() if k in y])


def _covered(x: SemaFeatures, other_keys: Counter, root: bool) -> Counter:
    """Per concept, ``x``'s nodes that end a relation whose key ``other_keys`` has (and its
    root when the roots match)."""
    nodes = {0} if root else set()
    cs = x.concepts
    for r, s, t in x.relations:
        if (r, cs[s], cs[t]) in other_keys:
            nodes.add(s)
            nodes.add(t)
    return Counter([cs[n] for n in nodes])


def bounded_count(a: SemaFeatures, b: SemaFeatures) -> int:
    """Our count: relations, covered nodes and attributes matched at most once on each side."""
    rel = _common(a.relation_keys, b.relation_keys)
    att = _common(a.attribute_keys, b.attribute_keys) if a.attribute_keys and b.attribute_keys else 0
    root = bool(a.concepts and b.concepts and a.concepts[0] == b.concepts[0])
    if not rel:  # no relation in common: only the roots can be covered
        return int(root) + att
    nodes = _common(_covered(a, b.relation_keys, root), _covered(b, a.relation_keys, root))
    return nodes + rel + att


def reference_count(a: SemaFeatures, b: SemaFeatures, commit: str) -> int:
    """The reference's count (``sema.py`` 32-51, 129-213) at ``commit``: ``a`` is the test graph."""
    if not a.concepts or not b.concepts:
        return 0
    gold_side = commit == "9a4911c"
    ct, cg = a.concepts, b.concepts
    m = 0
    visited: set = set()
    pairs: set = set()
    if ct[0] == cg[0]:
        m += 1
        visited.add(("n", "g", 0))
    for lt, st, tt in a.relations:
        for lg, sg, tg in b.relations:
            if lt != lg or ct[st] != cg[sg] or ct[tt] != cg[tg]:
                continue
            if gold_side:
                cur, rel, prev, pair = ("n", "g", tg), ("r", "g", lg, sg, tg), ("n", "g", sg), ("g", sg, tg)
            else:
                cur, rel, prev, pair = ("n", "t", tt), ("r", "t", lt, st, tt), ("n", "t", st), ("t", st, tt)
            if cur not in visited and rel not in visited:
                m += 2
                visited.add(cur)
                visited.add(rel)
                pairs.add(pair)
            if prev not in visited:
                m += 1
                visited.add(prev)
            if cur in visited and prev in visited and rel not in visited and pair not in pairs:
                m += 1
                visited.add(rel)
                pairs.add(pair)
    for lt, ot, vt in a.attributes:
        for lg, og, vg in b.attributes:
            if ct[ot] == cg[og] and lt == lg and vt == vg and ("a", lg, og, vg) not in visited:
                m += 1
                visited.add(("a", lg, og, vg))
    return m


@register
@dataclass(frozen=True)
class Sema(Metric):
    """SEMA: relations, nodes and attributes matched by their concepts, without an alignment."""

    #: its bound depends on the graphs' sizes only: pruning ``search`` skipped 3-4% of the
    #: pairs and cost more than it saved (docs/benchmarks.md section 21)
    prune_search = False

    name = "sema"
    stat_names = ("matched", "test_triples", "gold_triples")
    headline = "f1"

    reference_counting: str = param(
        "no", "no: a count that never exceeds the totals (a graph against itself scores 1); "
              "9a4911c (BAMBOO v0.2's commit) or 0ede9e0 (the head): the reference's reading "
              "and counting, which can exceed the totals", choices=COUNTINGS)

    def __post_init__(self) -> None:
        if self.reference_counting not in COUNTINGS:
            raise ValueError(f"reference_counting must be one of {', '.join(COUNTINGS)}, "
                             f"got {self.reference_counting!r}")

    def features(self, graph: RawGraph) -> SemaFeatures:
        return read_sema(graph, reference=self.reference_counting != "no")

    def stats(self, a: SemaFeatures, b: SemaFeatures) -> tuple[int, int, int]:
        if self.reference_counting == "no":
            m = bounded_count(a, b)
        else:
            m = reference_count(a, b, self.reference_counting)
        return m, a.total, b.total

    def upper_stats(self, a: SemaFeatures, b: SemaFeatures) -> tuple[int, int, int] | None:
        if self.reference_counting != "no":
            return None
        return min(a.total, b.total), a.total, b.total

    def upper_stats_matrix(self, a: SemaFeatures, corpus: Sequence[SemaFeatures]) -> np.ndarray | None:
        if self.reference_counting != "no":
            return None
        totals = np.fromiter((b.total for b in corpus), dtype=float, count=len(corpus))
        return np.stack([np.minimum(a.total, totals), np.full_like(totals, a.total), totals], axis=-1)

    def scores(self, stats: np.ndarray) -> dict[str, np.ndarray]:
        s = np.asarray(stats, dtype=float)
        m, c, t = s[..., 0], s[..., 1], s[..., 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(c > 0, m / np.where(c > 0, c, 1.0), 0.0)
            r = np.where(t > 0, m / np.where(t > 0, t, 1.0), 0.0)
            f = np.where(p + r > 0, 2 * p * r / np.where(p + r > 0, p + r, 1.0), 0.0)
        empty = (c == 0) & (t == 0)
        return {"precision": np.where(empty, 1.0, p), "recall": np.where(empty, 1.0, r),
                "f1": np.where(empty, 1.0, f)}

"""The sentences of document graphs, and an alignment built sentence by sentence.

A document AMR puts its sentences under one root by ``:snt1``, ``:snt2``, ...
(:func:`sentence_of` labels every variable with the sentence it belongs
to).  Two documents about the same text often number their sentences
differently (one sentence more at the start, a sentence split in two), so the
sentences are never used to *restrict* the search.  They give a start:

1. score every pair of sentences by the unary terms its candidate pairs could
   earn, and match sentences to sentences (an assignment on a matrix of
   sentences x sentences, small);
2. keep only the candidate pairs inside matched sentences (and between the
   roots); the problem then falls apart into one small component per matched
   sentence pair, each solved on its own;
3. the union is a feasible alignment of the whole problem (a lower bound),
   from which the hill-climber refines across sentences.

>>> from smatchpp.api import parse_graph
>>> g = parse_graph("(m / multi-sentence :snt1 (a / dog :ARG0-of (b / bark-01)) :snt2 (c / cat :mod b))")
>>> sentence_of(g).tolist()  # b is reached from snt1 first
[-1, 0, 0, 1]
>>> sentence_of(parse_graph("(a / dog)")) is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from .problem import Problem
from ..graphs.read import RawGraph
from ..core.settings import Settings, boolean, name_in, setting
from ..graphs.triples import TripleGraph

__all__ = ["DocumentSettings", "sentence_of", "sentence_drop", "sentence_parts", "is_document", "sentence_buckets",
           "Coreference", "coreference", "coref_counts", "COREF_CONCEPTS", "variable_buckets",
           "bucket_mask", "restrict", "as_written", "CorefTerms", "coref_terms", "lexicographic", "COREF_TIES"]

_SNT = re.compile(r"snt(\d+)$")


#: ``DocumentSettings.coref_ties``: the solver's optimal alignment, or the one with the most
#: coreference items among the optimal alignments
COREF_TIES = ("first", "max")


@dataclass(frozen=True)
class DocumentSettings(Settings):
    """docSmatch's settings (IBM/docAMR).  ``sentence_buckets``: a variable of one document may
    be aligned only to a variable of the other in a common sentence bucket, sentence N to
    sentence N (:func:`sentence_buckets`); solved exactly and certified like any pair.
    ``coref_subscore``: "Total Coref" and "Non-Coref" P/R/F1 beside the score, on the exact
    alignment (:func:`coref_counts`); it adds numbers and changes none, the signature names it
    all the same.  ``coref_ties``: which of several optimal alignments the subscore is counted on:
    ``first``, the one the solver returns; ``max``, one that matches the most coreference items
    among all optimal alignments, by a second exact solve (:func:`lexicographic`), certified like
    the first (a pair whose first solve is not certified keeps its alignment)."""

    sentence_buckets: bool = setting(False, "buckets", check=boolean, show=lambda s: s.sentence_buckets)
    coref_subscore: bool = setting(False, "coref", check=boolean, show=lambda s: s.coref_subscore)
    coref_ties: str = setting("first", "coref-ties", check=name_in(lambda: COREF_TIES, "coref_ties"),
                              show=lambda s: s.coref_ties != "first")


def sentence_of(g: TripleGraph) -> np.ndarray | None:
    """Sentence index (0-based, in ``:sntN`` order) of every variable, -1 for the root.

    ``None`` unless the top variable has at least two ``:sntN`` children.  A
    variable reachable from several sentences (a cross-sentence reentrancy)
    belongs to the first sentence that reaches it, breadth first; variables
    reached from no sentence stay -1.
    """
    if not g.variables:
        return None
    top = 0
    for i, role, _ in g.attributes:
        if role == "top":
            top = i
            break
    roots: list[tuple[int, int]] = []
    for s, role, t in g.relations:
        match = _SNT.match(role)
        if s == top and match and t != top:
            roots.append((int(match.group(1)), t))
    if len(roots) < 2:
        return None
    roots.sort()
    adjacent: list[list[int]] = [[] for _ in g.variables]
    for s, _, t in g.relations:
        if s != top and t != top:
            adjacent[s].append(t)
            adjacent[t].append(s)
    sentence = np.full(len(g.variables), -1, dtype=np.int64)
    frontier = []
    for k, (_, v) in enumerate(roots):
        if sentence[v] < 0:
            sentence[v] = k
            frontier.append(v)
    while frontier:
        nxt = []
        for v in frontier:
            for w in adjacent[v]:
                if sentence[w] < 0 and w != top:
                    sentence[w] = sentence[v]
                    nxt.append(w)
        frontier = nxt
    return sentence


def sentence_drop(pair_a: np.ndarray, pair_b: np.ndarray, unary: np.ndarray,
               sentence_a: np.ndarray, sentence_b: np.ndarray) -> np.ndarray:
    """Mask of the candidate pairs outside the matched sentence pairs (steps 1 and 2 above).

    Sentences are matched by a maximum-weight assignment on the summed unary
    terms of the pairs between them; pairs with a variable outside every
    sentence (the roots) are kept only between two such variables.

    >>> drop = sentence_drop(np.array([0, 1, 1, 2]), np.array([0, 0, 1, 1]),
    ...                   np.array([1.0, 1.0, 3.0, 1.0]), np.array([-1, 0, 1]), np.array([-1, 0]))
    >>> drop.tolist()  # A's sentence 0 matches B's sentence 0; A's sentence 1 is left out
    [False, True, False, True]
    """
    from scipy.optimize import linear_sum_assignment  # slow import: only when needed
    ka, kb = sentence_a[pair_a], sentence_b[pair_b]
    inside = (ka >= 0) & (kb >= 0)
    n_ka, n_kb = int(sentence_a.max()) + 1, int(sentence_b.max()) + 1
    # sentences x sentences: small (bincount adds in the order np.add.at did, 20 times faster)
    score = np.bincount(ka[inside] * n_kb + kb[inside], weights=unary[inside],
                        minlength=n_ka * n_kb).reshape(n_ka, n_kb)
    rows, cols = linear_sum_assignment(score, maximize=True)
    partner = np.full(n_ka, -1, dtype=np.int64)
    partner[rows] = cols
    keep = np.where(inside, partner[np.maximum(ka, 0)] == kb, (ka < 0) & (kb < 0))
    return ~keep


def sentence_parts(problem: Problem, drop: np.ndarray) -> list[tuple[np.ndarray, Problem]]:
    """One small problem per matched sentence pair: ``(original pair indices, problem)``.

    The pairs kept by ``drop`` inside sentences, grouped by their A sentence,
    with the binary terms inside each group (terms between groups, and the
    roots' pairs, are left to the climber that refines the start).  Linear in
    the pairs, unlike a general compression.

    >>> from smatchpp.api import compile_strings
    >>> p = compile_strings("(m / multi-sentence :snt1 (a / dog) :snt2 (b / cat))",
    ...                     "(n / multi-sentence :snt1 (x / cat) :snt2 (y / dog))")
    >>> drop = sentence_drop(p.pair_a, p.pair_b, p.unary, p.sentence_a, p.sentence_b)
    >>> [(pairs.tolist(), sub.n_pairs) for pairs, sub in sentence_parts(p, drop)]
    [([2], 1), ([3], 1)]
    """
    assert problem.sentence_a is not None and problem.sentence_b is not None
    ka = problem.sentence_a[problem.pair_a]
    keep = ~drop & (ka >= 0)
    kept = np.flatnonzero(keep)
    if not len(kept):
        return []
    ep, eq = problem.edge_p, problem.edge_q
    inner = np.flatnonzero(keep[ep] & keep[eq] & (ka[ep] == ka[eq]))
    order = kept[np.argsort(ka[kept], kind="stable")]
    cuts = np.flatnonzero(np.diff(ka[order])) + 1
    e_order = inner[np.argsort(ka[ep[inner]], kind="stable")]
    e_cuts = np.searchsorted(ka[ep[e_order]], ka[order[np.r_[0, cuts]]])
    e_cuts = np.r_[e_cuts, len(e_order)]
    local = np.full(problem.n_pairs, -1, dtype=np.int64)
    parts = []
    for g, pairs in enumerate(np.split(order, cuts)):
        local[pairs] = np.arange(len(pairs))
        edges = e_order[e_cuts[g]:e_cuts[g + 1]]
        a_vars, a_local = np.unique(problem.pair_a[pairs], return_inverse=True)
        b_vars, b_local = np.unique(problem.pair_b[pairs], return_inverse=True)
        lo, hi = local[ep[edges]], local[eq[edges]]
        sub = Problem(len(a_vars), len(b_vars), a_local.ravel(), b_local.ravel(),
                      problem.unary[pairs], np.minimum(lo, hi), np.maximum(lo, hi),
                      problem.weight[edges], tolerance=problem.tolerance)
        parts.append((pairs, sub))
    return parts


# ---------------------------------------------------------------------------
# DocAMR as docSmatch reads it: sentence buckets and coreference
#
# docSmatch (``docSmatch/smatch.py`` and ``amr.py`` of IBM/docAMR) is smatch 1.0.4 with two
# changes: a node of one document may be aligned to a node of the other only when both fall
# in a common *sentence bucket* (``categorize_nodes_by_sentence``), and ``--coref-subscore``
# scores the coreference nodes and edges (``AMR.find_coref``) on its alignment.  The
# functions below follow those definitions rule for rule, on the graph as written
# (:class:`~smatchpp.graphs.read.RawGraph`): which way a role was written decides reachability.

#: the concepts docSmatch counts as coreference nodes by themselves
COREF_CONCEPTS = ("implicit-role", "coref-entity")
#: roles ending in ``-of`` that smatch 1.0.4 (and docSmatch) keep as written
_NOT_INVERTED = frozenset({"prep-on-behalf-of", "prep-out-of", "consist-of"})
_SNT_ROLE = re.compile(r":?snt(\d+)$")


class _DocView:
    """A raw graph as docSmatch's ``AMR`` holds it: variables in the order they are written,
    relations stored at their canonical source ``(source, role, target, written_inverted)``
    in docSmatch's order (by source; per source, targets defined before first)."""

    def __init__(self, raw: RawGraph) -> None:
        self.names = raw.variables
        index = {v: i for i, v in enumerate(raw.variables)}
        self.index = index
        self.top = index.get(raw.top, 0) if raw.top is not None else 0
        self.concepts = [""] * len(raw.variables)
        branches: list[list[tuple[int, str, str]]] = [[] for _ in raw.variables]
        for k, (s, r, t) in enumerate(raw.triples):
            if r == ":instance":
                self.concepts[index[s]] = t
            elif s in index:
                branches[index[s]].append((k, r, t))
        inline = raw.inline
        # the text order of the branches: a walk of the layout (a variable opens, its
        # branches follow, an inline branch's node opens at once)
        opened = [-1] * len(raw.variables)
        position: dict[int, int] = {}
        clock = 0
        for root in range(len(raw.variables)):
            if opened[root] >= 0:
                continue
            opened[root] = clock
            clock += 1
            stack = [iter(branches[root])]
            while stack:
                branch = next(stack[-1], None)
                if branch is None:
                    stack.pop()
                    continue
                k, _, t = branch
                position[k] = clock
                clock += 1
                if inline is not None and k in inline and t in index and opened[index[t]] < 0:
                    opened[index[t]] = clock
                    clock += 1
                    stack.append(iter(branches[index[t]]))
        stored = []
        for i, rows in enumerate(branches):
            for k, r, t in rows:
                if t not in index:
                    continue  # an attribute (or a role inverted onto a constant: dropped)
                j = index[t]
                # docSmatch stores a relation in the first list when its target was
                # defined before (or right there), else in the second
                group = 0 if opened[j] <= position[k] + 1 else 1
                name = r[1:] if r.startswith(":") else r
                if name.endswith("-of") and name not in _NOT_INVERTED:
                    stored.append((j, group, position[k], name[:-3], i, True))
                elif name == "mod":
                    stored.append((j, group, position[k], "domain", i, True))
                else:
                    stored.append((i, group, position[k], name, j, False))
        stored.sort(key=lambda row: (opened[row[0]], row[1], row[2]))
        self.relations = [(s, r, t, inv) for s, _, _, r, t, inv in stored]

    def sentence_roots(self) -> dict[int, int]:
        """``{N: variable}`` of the ``:sntN`` relations stored at the top (the last one of a number)."""
        roots = {}
        for s, r, t, _ in self.relations:
            match = _SNT_ROLE.fullmatch(r) if s == self.top and r.startswith("snt") else None
            if match:
                roots[int(match.group(1))] = t
        return roots

    def buckets(self) -> list[set[int]]:
        """docSmatch's ``categorize_nodes_by_sentence``, per variable: the set of its buckets."""
        n = len(self.names)
        roots = self.sentence_roots()
        if not roots:
            return [{0} for _ in range(n)]
        out = [[] for _ in range(n)]
        coref = []
        for x, r, y, inv in self.relations:
            if r != "coref" and (r != "domain" or not inv):
                out[x].append(y)
            if r == "coref":
                coref.append((x, y))
            if inv or r in ("part", "subset", "coref"):
                out[y].append(x)

        def reach(starts: list[int], seen: set[int]) -> set[int]:
            stack = [v for v in starts if v not in seen]
            seen.update(stack)
            while stack:
                v = stack.pop()
                for w in out[v]:
                    if w not in seen:
                        seen.add(w)
                        stack.append(w)
            return seen

        from_top = reach([self.top], set())
        for x, y in coref:  # a node reached by :coref only hangs under its coreferent
            if y not in from_top and x in from_top:
                out[x].append(y)
                reach([y], from_top)
        member: list[set[int]] = [set() for _ in range(n)]
        member[self.top].add(0)
        for number, root in roots.items():
            for v in reach([root], set()):
                member[v].add(number)
        return member


def _view(raw: RawGraph) -> _DocView:
    """The :class:`_DocView` of ``raw``, memoized on it (a document is read once per pair)."""
    cached = raw.__dict__.get("_doc_view")
    if cached is None:
        cached = raw.__dict__["_doc_view"] = _DocView(raw)
    return cached


def is_document(raw: RawGraph) -> bool:
    """Whether ``raw``'s top has a ``:sntN`` child (a DocAMR ``document`` or ``multi-sentence``
    root): the graphs whose sentence buckets say something.

    >>> from smatchpp.graphs.read import read_text
    >>> is_document(read_text("(d / document :snt1 (a / dog))")[0].graph)
    True
    >>> is_document(read_text("(a / dog :snt1-of (d / document))")[0].graph)
    False
    """
    top = raw.top
    return any(s == top and r.startswith(":snt") and _SNT_ROLE.fullmatch(r) is not None
               for s, r, _ in raw.triples)


def sentence_buckets(raw: RawGraph) -> list[frozenset[int]]:
    """The sentence buckets of every variable of ``raw`` (in ``raw.variables`` order), exactly as
    docSmatch's ``categorize_nodes_by_sentence`` makes them.

    Bucket ``N`` holds the descendants of the ``:sntN`` child of the top, bucket 0 the top
    alone.  Descendants follow each relation the way it was written (``:ARG0-of`` and
    ``:mod`` point from the node that writes them to the node written inside), a relation
    stored as ``:ARGn`` is also followed from its source, except ``:mod`` and ``:coref``;
    ``:part``, ``:subset`` and ``:coref`` are followed backwards too, and a node reached
    through ``:coref`` only hangs under the first coreferent reachable from the top.  A node
    reached from several sentences is in several buckets; a node reached from none is in none
    (docSmatch stops there).  A graph without ``:sntN`` children is one bucket, 0, with every
    variable (so two such graphs are not restricted at all).

    >>> from smatchpp.graphs.read import read_text
    >>> doc = read_text('''(d / document
    ...   :snt1 (g / go-02 :ARG0 (p / prince))
    ...   :snt2 (s / sleep-01 :ARG0 p :mod (q / quiet)))''')[0].graph
    >>> [sorted(b) for b in sentence_buckets(doc)]
    [[0], [1], [1, 2], [2], [2]]
    >>> [sorted(b) for b in sentence_buckets(read_text("(a / dog :ARG0-of (b / bark-01))")[0].graph)]
    [[0], [0]]
    """
    return [frozenset(b) for b in _view(raw).buckets()]


@dataclass(frozen=True)
class Coreference:
    """A document's coreference items as docSmatch's ``AMR.find_coref`` finds them.

    ``nodes``: the variables whose concept is ``implicit-role`` or ``coref-entity`` (the
    nodes docSmatch scores); ``edges``: ``(source, role, target)`` with the role as stored
    (``-of`` turned around, ``:mod`` as ``domain``), one per written relation: the relations
    into a coreference node (those nodes, and a node reached from several sentences through
    relations from at least two different sentence sets), ``:coref`` out of one, and
    ``:part``/``:subset`` between nodes of different sentence sets.
    """

    nodes: tuple[str, ...]
    edges: tuple[tuple[str, str, str], ...]
    concepts: dict[str, str]

    @property
    def size(self) -> int:
        """What the subscore's totals count: coreference nodes plus edges."""
        return len(self.nodes) + len(self.edges)


def coreference(raw: RawGraph) -> Coreference:
    """docSmatch's coreference nodes and edges of ``raw`` (:class:`Coreference`).

    >>> from smatchpp.graphs.read import read_text
    >>> doc = read_text('''(d / document
    ...   :snt1 (g / go-02 :ARG0 (p / prince))
    ...   :snt2 (s / sleep-01 :ARG0 p :ARG1 (c / coref-entity)))''')[0].graph
    >>> c = coreference(doc)
    >>> c.nodes, c.edges
    (('c',), (('g', 'ARG0', 'p'), ('s', 'ARG0', 'p'), ('s', 'ARG1', 'c')))
    """
    view = _view(raw)
    buckets = view.buckets()
    names = view.names
    special = [i for i, c in enumerate(view.concepts) if c in COREF_CONCEPTS]
    into: list[list[int]] = [[] for _ in names]  # parents as written, without coref/part/subset
    for s, r, t, inv in view.relations:
        if r not in ("coref", "part", "subset"):
            if inv:
                into[s].append(t)
            else:
                into[t].append(s)
    hubs = set(special)
    for n in range(len(names)):
        if len(buckets[n]) < 2 or len(into[n]) < 2:
            continue
        parents = [p for p in into[n] if buckets[p] != buckets[n]]
        if len(parents) >= 2 and any(buckets[p] != buckets[parents[0]] for p in parents):
            hubs.add(n)
    edges = []
    for s, r, t, _ in view.relations:
        if (t in hubs or (s in hubs and r == "coref")
                or (r in ("part", "subset") and buckets[s] != buckets[t])):
            edges.append((names[s], r, names[t]))
    return Coreference(tuple(names[i] for i in special), tuple(edges),
                       {names[i]: view.concepts[i] for i in special})


def coref_counts(test: RawGraph, gold: RawGraph,
                 alignment: Iterable[tuple[str, str]]) -> tuple[int, int, int]:
    """docSmatch's "Total Coref" counts ``(matched, test, gold)`` of a pair under ``alignment``
    (``(test variable, gold variable)`` pairs, e.g. :attr:`~smatchpp.alignment.score.PairScore.alignment`).

    A gold coreference node counts as matched when its test partner is a coreference node
    with the same concept; a gold coreference edge when the test graph has the same role
    between the partners of its ends and that edge is a test coreference edge.  "Non-Coref"
    is the rest: the pair's matched and totals minus these.

    >>> from smatchpp.graphs.read import read_text
    >>> g = read_text("(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01 :ARG0 c))")[0].graph
    >>> coref_counts(g, g, [(v, v) for v in g.variables])
    (3, 3, 3)
    >>> coref_counts(g, g, [("d", "d"), ("a", "a"), ("b", "b")])
    (0, 3, 3)
    """
    ct, cg = coreference(test), coreference(gold)
    partner = {g: t for t, g in alignment}
    test_nodes = set(ct.nodes)
    matched = 0
    for n in cg.nodes:
        m = partner.get(n)
        if m in test_nodes and ct.concepts[m] == cg.concepts[n]:
            matched += 1
    test_edges = set(ct.edges)
    for s, r, t in cg.edges:
        if (partner.get(s), r, partner.get(t)) in test_edges:
            matched += 1
    return matched, ct.size, cg.size


@dataclass(frozen=True)
class CorefTerms:
    """docSmatch's Total Coref matched count of a pair as terms over variable pairs: for every
    injective alignment, :func:`coref_counts`'s matched count is the sum of ``unary_w[k]`` over
    the chosen pairs ``(unary_a[k], unary_b[k])`` plus ``binary_w[k]`` over the ``k`` whose two
    pairs ``(binary_a1[k], binary_b1[k])`` and ``(binary_a2[k], binary_b2[k])`` are both chosen
    (variables by their index in the standardized graphs).  ``most``: the largest count any
    alignment can reach (at most the gold side's items)."""

    unary_a: np.ndarray
    unary_b: np.ndarray
    unary_w: np.ndarray
    binary_a1: np.ndarray
    binary_b1: np.ndarray
    binary_a2: np.ndarray
    binary_b2: np.ndarray
    binary_w: np.ndarray
    most: int

    def value(self, alignment: np.ndarray) -> int:
        """The count under ``alignment`` (``alignment[i]``: the B variable of A variable ``i``, or -1)."""
        alignment = np.asarray(alignment, dtype=np.int64)
        if not len(alignment):
            return 0
        u = alignment[self.unary_a] == self.unary_b
        b = (alignment[self.binary_a1] == self.binary_b1) & (alignment[self.binary_a2] == self.binary_b2)
        return int(self.unary_w[u].sum() + self.binary_w[b].sum())


def coref_terms(a: TripleGraph, b: TripleGraph, buckets: bool = False) -> CorefTerms:
    """:class:`CorefTerms` of ``a`` (test) against ``b`` (gold), standardized graphs:
    :func:`coref_counts` written as unary terms (a gold coreference node and a test one of the
    same concept) and binary terms (a gold coreference edge and a test one of the same role).
    With ``buckets`` (docSmatch's restriction), the terms on a pair of variables in no common
    sentence bucket are left out: no restricted alignment can earn them.

    >>> from smatchpp.api import parse_graph
    >>> g = parse_graph("(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01 :ARG0 c))")
    >>> t = coref_terms(g, g)
    >>> t.most, t.value(np.arange(4)), t.value(np.array([0, 1, -1, 3]))  # c (index 2) left out
    (3, 3, 0)
    """
    ct, cg = coreference(as_written(a)), coreference(as_written(b))
    ia = {v: i for i, v in enumerate(a.variables)}
    ib = {v: j for j, v in enumerate(b.variables)}
    unary: dict[tuple[int, int], int] = {}
    binary: dict[tuple[int, int, int, int], int] = {}
    for n in cg.nodes:
        for m in ct.nodes:
            if ct.concepts[m] == cg.concepts[n] and m in ia and n in ib:
                unary[ia[m], ib[n]] = unary.get((ia[m], ib[n]), 0) + 1
    by_role: dict[str, set[tuple[str, str]]] = {}
    for s, r, t in set(ct.edges):  # coref_counts looks a gold edge up in the set of test edges
        by_role.setdefault(r, set()).add((s, t))
    for s, r, t in cg.edges:
        for ts, tt in by_role.get(r, ()):
            if not (ts in ia and tt in ia and s in ib and t in ib) or (ts == tt) != (s == t):
                continue  # an injective alignment cannot earn it
            if ts == tt:
                key1 = (ia[ts], ib[s])
                unary[key1] = unary.get(key1, 0) + 1
            else:
                key2 = (ia[ts], ib[s], ia[tt], ib[t])
                binary[key2] = binary.get(key2, 0) + 1
    ua, ub, uw = (np.array([k[0] for k in unary], dtype=np.int64), np.array([k[1] for k in unary], dtype=np.int64),
                  np.array(list(unary.values()), dtype=np.float64))
    bk = np.array(list(binary), dtype=np.int64).reshape(-1, 4)
    bw = np.array(list(binary.values()), dtype=np.float64)
    if buckets:
        ok = bucket_mask(a, b, ua, ub)
        if ok is not None:
            ua, ub, uw = ua[ok], ub[ok], uw[ok]
        ok1, ok2 = bucket_mask(a, b, bk[:, 0], bk[:, 1]), bucket_mask(a, b, bk[:, 2], bk[:, 3])
        if ok1 is not None:
            bk, bw = bk[ok1 & ok2], bw[ok1 & ok2]
    return CorefTerms(ua, ub, uw, bk[:, 0].copy(), bk[:, 1].copy(), bk[:, 2].copy(), bk[:, 3].copy(), bw,
                      min(cg.size, int(uw.sum() + bw.sum())))


def lexicographic(problem: Problem, terms: CorefTerms) -> tuple[Problem, int]:
    """The problem whose optimum is, among the optimal alignments of ``problem`` (integral),
    one that matches the most coreference items (``terms``), and its scale ``M``: every term of
    ``problem`` weighs ``M`` times as much, each coreference term adds its count, and ``M`` is
    one more than the most coreference items an alignment can match.  An alignment worth
    ``M * matched + coref`` is worth ``matched`` in ``problem``; a certified optimum of the
    result is a certified optimum of ``problem`` with the most coreference items among them.
    Pairs that only a coreference term uses become candidates (worth 0 in ``problem``).

    >>> from smatchpp.api import compile_strings
    >>> p = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
    >>> empty = np.zeros(0, dtype=np.int64)
    >>> lex, m = lexicographic(p, CorefTerms(empty, empty, np.zeros(0), empty, empty, empty, empty, np.zeros(0), 0))
    >>> m, lex.objective(np.array([1, 0])) == m * p.objective(np.array([1, 0]))
    (1, True)
    """
    if not problem.integral or problem.n_ternary:
        raise ValueError("the coreference tie-break needs an integral problem without ternary terms "
                         "(exact matching, no role weights)")
    scale = terms.most + 1
    pa, pb = problem.pair_a, problem.pair_b
    ep, eq = problem.edge_p, problem.edge_q
    lex = Problem.from_terms(
        problem.n_a, problem.n_b,
        unary=(np.concatenate([pa, terms.unary_a]), np.concatenate([pb, terms.unary_b]),
               np.concatenate([scale * problem.unary, terms.unary_w])),
        binary=(np.concatenate([pa[ep], terms.binary_a1]), np.concatenate([pb[ep], terms.binary_b1]),
                np.concatenate([pa[eq], terms.binary_a2]), np.concatenate([pb[eq], terms.binary_b2]),
                np.concatenate([scale * problem.weight, terms.binary_w])),
        constant=scale * problem.constant,
        label_bound=scale * (problem.label_bound - problem.constant) + terms.most)
    lex.sentence_a, lex.sentence_b = problem.sentence_a, problem.sentence_b
    return lex, scale


def variable_buckets(g: TripleGraph) -> list[frozenset[int]]:
    """docSmatch's buckets of every variable of a standardized graph (by name, from
    :attr:`~smatchpp.graphs.triples.TripleGraph.document`); a graph that is not a document is
    one bucket, 0, with every variable."""
    if g.document is None:
        return [frozenset({0})] * len(g.variables)
    by_name = dict(zip(g.document.variables, sentence_buckets(g.document)))
    return [by_name.get(v, frozenset()) for v in g.variables]


def bucket_mask(a: TripleGraph, b: TripleGraph, pair_a: np.ndarray, pair_b: np.ndarray) -> np.ndarray | None:
    """Which candidate pairs ``(pair_a[p], pair_b[p])`` share a sentence bucket (docSmatch's
    ``allowed_mappings``: bucket ``N`` of one document against bucket ``N`` of the other);
    ``None`` when neither graph is a document (every pair is allowed).

    >>> from smatchpp.api import parse_graph
    >>> a = parse_graph("(d / document :snt1 (x / dog) :snt2 (y / cat))")
    >>> b = parse_graph("(e / document :snt1 (u / cat) :snt2 (v / dog))")
    >>> bucket_mask(a, b, np.array([0, 1, 1, 2]), np.array([0, 1, 2, 1])).tolist()
    [True, True, False, False]
    """
    if a.document is None and b.document is None:
        return None
    nb = max(len(b.variables), 1)
    members_b: dict[int, list[int]] = {}
    for j, bs in enumerate(variable_buckets(b)):
        for k in bs:
            members_b.setdefault(k, []).append(j)
    rows_i, rows_j = [], []
    for i, bs in enumerate(variable_buckets(a)):
        for k in bs:
            js = members_b.get(k)
            if js:
                rows_i.append(np.full(len(js), i, dtype=np.int64))
                rows_j.append(np.asarray(js, dtype=np.int64))
    if not rows_i:
        return np.zeros(len(pair_a), dtype=bool)
    allowed = np.unique(np.concatenate(rows_i) * nb + np.concatenate(rows_j))
    return np.isin(np.asarray(pair_a, dtype=np.int64) * nb + pair_b, allowed)


def restrict(problem: Problem, keep: np.ndarray) -> Problem:
    """``problem`` with only the candidate pairs ``keep`` marks, and the binary and ternary
    terms between them (the others are dropped: an optimum of the result is the optimum under the
    restriction, and its bounds certify it as any problem's do)."""
    kept = np.flatnonzero(keep)
    local = np.full(problem.n_pairs, -1, dtype=np.int64)
    local[kept] = np.arange(len(kept))
    edges = np.flatnonzero(keep[problem.edge_p] & keep[problem.edge_q])
    tri = np.flatnonzero(keep[problem.tri_p] & keep[problem.tri_q] & keep[problem.tri_r])
    return Problem(problem.n_a, problem.n_b, problem.pair_a[kept], problem.pair_b[kept],
                   problem.unary[kept], local[problem.edge_p[edges]], local[problem.edge_q[edges]],
                   problem.weight[edges], constant=problem.constant, label_bound=problem.label_bound,
                   sentence_a=problem.sentence_a, sentence_b=problem.sentence_b,
                   tolerance=problem.tolerance, tri_p=local[problem.tri_p[tri]],
                   tri_q=local[problem.tri_q[tri]], tri_r=local[problem.tri_r[tri]],
                   tri_weight=problem.tri_weight[tri])


def as_written(g: TripleGraph) -> RawGraph:
    """The graph as written that ``g`` was standardized from (:attr:`TripleGraph.document`), or,
    for a graph that is not a document, one made of its triples (every relation as stored:
    what a single bucket needs to find the coreference nodes and the edges into them)."""
    if g.document is not None:
        return g.document
    names = g.variables
    triples = [(v, ":instance", c) for v, c in zip(names, g.concepts)]
    triples += [(names[s], ":" + r, names[t]) for s, r, t in g.relations]
    return RawGraph(names[0] if names else None, tuple(triples), tuple(names))

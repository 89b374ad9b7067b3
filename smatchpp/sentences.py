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

import numpy as np

from .problem import Problem
from .standardize import TripleGraph

__all__ = ["sentence_of", "sentence_drop", "sentence_parts"]

_SNT = re.compile(r"snt(\d+)$")


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

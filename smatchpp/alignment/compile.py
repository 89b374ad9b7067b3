"""Compiling a pair of triple graphs into a :class:`~smatchpp.alignment.problem.Problem`.

A :class:`~smatchpp.alignment.matchers.exact.TripleMatcher` says which triples of A and B match and
with what weight; the compiler turns that into unary terms (instance and attribute
triples, self-loops) and binary terms (relations) over candidate pairs.
:class:`~smatchpp.alignment.matchers.exact.ExactMatcher` is Smatch: equal labels match, and a triple repeated
``c_A`` times in A and ``c_B`` times in B matches ``min(c_A, c_B)`` times
(multiset matching, so self-match is exactly 1 even with duplicates).

Example:

>>> from smatchpp.graphs.read import read_text
>>> from smatchpp.presets import standardize
>>> a = standardize(read_text("(x / dog :ARG0-of (y / bark-01))")[0].graph)
>>> b = standardize(read_text("(u / bark-01 :ARG0 (v / dog))")[0].graph)
>>> p = compile_pair(a, b)
>>> sorted(zip(p.pair_a.tolist(), p.pair_b.tolist(), p.unary.tolist()))
[(0, 0, 1.0), (0, 1, 1.0), (1, 0, 1.0)]
>>> p.n_edges  # x->v with y->u makes the ARG0 triples match
1
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any, Callable

import numpy as np

from .sentences import bucket_mask, restrict, sentence_of
from .jit import lazy_jit, ready as kernels_ready
from .matchers import MATCHERS as _MATCHERS
from .matchers.exact import ExactMatcher, TripleMatcher, label_counts, per_graph, relation_counts, unary_labels
from .problem import CERTIFY_TOLERANCE, Problem
from ..graphs.triples import TripleGraph

__all__ = ["compile_pair", "MATCHERS"]

_sentences = per_graph(sentence_of)

#: label -> integer id, for every graph this process encodes.  The ids never leave
#: the process: an encoding carries :data:`_TOKEN`, which a graph pickled into
#: another process (a new token there) does not match, so it is encoded again.
_LABEL_IDS: dict[tuple, int] = {}
_TOKEN = object()
#: new ids are handed out under this lock (Dask workers encode graphs in threads)
_IDS_LOCK = threading.Lock()
#: pairs of at most this many ``n_a x n_b`` cells (every sentence pair) take the compile
#: kernel; it saves about 0.25 ms a pair, which only matters where pairs are many and small.
#: Larger pairs take the numpy path: compiling a document does not load numba (about 120 MB
#: of resident memory per process: lp-doc50 peaked at 270 MB with the kernel, 163 MB without;
#: under a deadline the sentence-by-sentence warm start of a big problem still searches its small
#: sentence pairs with the compiled branch and bound, at the same fixed cost)
FAST_CELLS = 10_000


def _label_id(label: tuple) -> int:
    found = _LABEL_IDS.get(label)
    if found is None:
        with _IDS_LOCK:
            found = _LABEL_IDS.setdefault(label, len(_LABEL_IDS))
    return found


def _table(rows: list[tuple[int, ...]], width: int) -> tuple[np.ndarray, ...]:
    """Columns of ``rows`` sorted (the first column is a label id), as int64 arrays."""
    table = np.array(sorted(rows), dtype=np.int64).reshape(-1, width)
    return tuple(np.ascontiguousarray(table[:, c]) for c in range(width))


def _encoding(g: TripleGraph) -> tuple[np.ndarray, ...]:
    """``g``'s unary rows (label, var, count), relation rows (role, source, target,
    count) and label multiset (label, count) as integer arrays, memoized on ``g``."""
    store = g.__dict__
    cached = store.get("_compiled_encoding")
    if cached is not None and cached[0] is _TOKEN:
        return cached[1]
    unary = [(_label_id(label), i, c) for label, rows in unary_labels(g).items() for i, c in rows]
    relations = [(_label_id(("relation", r)), i, k, c) for (r, i, k), c in relation_counts(g).items()]
    labels = [(_label_id(label), c) for label, c in label_counts(g).items()]
    value = _table(unary, 3) + _table(relations, 4) + _table(labels, 2)
    store["_compiled_encoding"] = (_TOKEN, value)
    return value


def _exact_terms(a: TripleGraph, b: TripleGraph) -> tuple:
    """:func:`compile_pair`'s arrays under :class:`ExactMatcher`, by the compiled kernel."""
    return _compile_exact(len(a.variables), len(b.variables), *_encoding(a), *_encoding(b))


_I = "int64[::1]"  # a C-contiguous array of int64, in numba's signature syntax


@lazy_jit(f"Tuple(({_I}, {_I}, float64[::1], {_I}, {_I}, float64[::1], float64))(int64, int64, "
          + ", ".join([_I] * 18) + ")")
def _compile_exact(n_a, n_b, ua_lab, ua_var, ua_cnt, ra_role, ra_src, ra_tgt, ra_cnt, ma_lab,
                   ma_cnt, ub_lab, ub_var, ub_cnt, rb_role, rb_src, rb_tgt, rb_cnt, mb_lab,
                   mb_cnt):
    """Candidate pairs (in key order ``i * n_b + j``), unary sums, edges (in key
    order ``p * n + q``, duplicates summed) and the label-count bound: the
    numpy path of :func:`compile_pair` for the exact matcher, without its
    per-pair overhead.  Rows of a side are sorted by label id."""
    nb = max(n_b, 1)
    cells = n_a * nb
    uval = np.zeros(cells)
    used = np.zeros(cells, dtype=np.bool_)
    # unary terms: every row of A meets the rows of B with its label
    x = 0
    y = 0
    while x < len(ua_lab) and y < len(ub_lab):
        if ua_lab[x] < ub_lab[y]:
            x += 1
        elif ua_lab[x] > ub_lab[y]:
            y += 1
        else:
            x2 = x
            while x2 < len(ua_lab) and ua_lab[x2] == ua_lab[x]:
                x2 += 1
            y2 = y
            while y2 < len(ub_lab) and ub_lab[y2] == ub_lab[y]:
                y2 += 1
            for s in range(x, x2):
                for t in range(y, y2):
                    key = ua_var[s] * nb + ub_var[t]
                    uval[key] += min(ua_cnt[s], ub_cnt[t])
                    used[key] = True
            x = x2
            y = y2
    # binary terms: the same join on relation roles, counted first
    m = 0
    for phase in range(2):
        if phase == 1:
            k1 = np.empty(m, dtype=np.int64)
            k2 = np.empty(m, dtype=np.int64)
            bw = np.empty(m)
            m = 0
        x = 0
        y = 0
        while x < len(ra_role) and y < len(rb_role):
            if ra_role[x] < rb_role[y]:
                x += 1
            elif ra_role[x] > rb_role[y]:
                y += 1
            else:
                x2 = x
                while x2 < len(ra_role) and ra_role[x2] == ra_role[x]:
                    x2 += 1
                y2 = y
                while y2 < len(rb_role) and rb_role[y2] == rb_role[y]:
                    y2 += 1
                if phase == 0:
                    m += (x2 - x) * (y2 - y)
                else:
                    for s in range(x, x2):
                        for t in range(y, y2):
                            k1[m] = ra_src[s] * nb + rb_src[t]
                            k2[m] = ra_tgt[s] * nb + rb_tgt[t]
                            bw[m] = min(ra_cnt[s], rb_cnt[t])
                            used[k1[m]] = True
                            used[k2[m]] = True
                            m += 1
                x = x2
                y = y2
    n = 0
    for key in range(cells):
        if used[key]:
            n += 1
    index = np.full(cells, -1, dtype=np.int64)
    pair_a = np.empty(n, dtype=np.int64)
    pair_b = np.empty(n, dtype=np.int64)
    unary = np.empty(n)
    p = 0
    for key in range(cells):
        if used[key]:
            index[key] = p
            pair_a[p] = key // nb
            pair_b[p] = key % nb
            unary[p] = uval[key]
            p += 1
    width = max(n, 1)
    ekey = np.empty(m, dtype=np.int64)
    for e in range(m):
        p1 = index[k1[e]]
        p2 = index[k2[e]]
        ekey[e] = min(p1, p2) * width + max(p1, p2)
    order = np.argsort(ekey, kind="mergesort")
    n_e = 0
    for t in range(m):
        if t == 0 or ekey[order[t]] != ekey[order[t - 1]]:
            n_e += 1
    edge_p = np.empty(n_e, dtype=np.int64)
    edge_q = np.empty(n_e, dtype=np.int64)
    weight = np.zeros(n_e)
    e = -1
    for t in range(m):
        k = ekey[order[t]]
        if t == 0 or k != ekey[order[t - 1]]:
            e += 1
            edge_p[e] = k // width
            edge_q[e] = k % width
        weight[e] += bw[order[t]]
    bound = 0.0
    x = 0
    y = 0
    while x < len(ma_lab) and y < len(mb_lab):
        if ma_lab[x] < mb_lab[y]:
            x += 1
        elif ma_lab[x] > mb_lab[y]:
            y += 1
        else:
            bound += min(ma_cnt[x], mb_cnt[y])
            x += 1
            y += 1
    return pair_a, pair_b, unary, edge_p, edge_q, weight, bound


#: matcher name -> factory taking the matcher's own settings (read from a
#: :class:`~smatchpp.alignment.config.Config` by :func:`smatchpp.alignment.matchers.build_matcher`); the registry lives in
#: :mod:`smatchpp.alignment.matchers` (exact, s2match, wsmatch, ...)
MATCHERS: dict[str, Callable[[Any], TripleMatcher]] = _MATCHERS


def compile_pair(a: TripleGraph, b: TripleGraph, matcher: TripleMatcher | None = None,
                 tolerance: float = CERTIFY_TOLERANCE, buckets: bool = False) -> Problem:
    """Build the :class:`Problem` of aligning ``a`` to ``b`` under ``matcher``.

    Candidate pairs are exactly the pairs with a positive unary term or part of
    a binary term: any other pair can never add to the objective.
    ``tolerance`` is the gap that certifies non-integral objectives
    (:attr:`Problem.tolerance`).  ``buckets``: keep only the pairs of two variables in a
    common sentence bucket, docSmatch's restriction (``Config.sentence_buckets``;
    :func:`smatchpp.alignment.sentences.bucket_mask`).

    >>> from smatchpp.api import parse_graph
    >>> a = parse_graph("(d / document :snt1 (x / dog) :snt2 (y / cat))")
    >>> b = parse_graph("(e / document :snt1 (u / cat) :snt2 (v / dog))")
    >>> compile_pair(a, b).n_pairs, compile_pair(a, b, buckets=True).n_pairs
    (5, 3)
    """
    problem = _compile(a, b, matcher, tolerance)
    if buckets:
        keep = bucket_mask(a, b, problem.pair_a, problem.pair_b)
        if keep is not None:
            problem = restrict(problem, keep)
    return problem


def _compile(a: TripleGraph, b: TripleGraph, matcher: TripleMatcher | None,
             tolerance: float) -> Problem:
    matcher = matcher or ExactMatcher()
    constant = 0.0
    if a.free and b.free:
        constant = float(sum((Counter(a.free) & Counter(b.free)).values()))
    sentence_a, sentence_b = _sentences(a), _sentences(b)
    if sentence_a is None or sentence_b is None:
        sentence_a = sentence_b = None
    if (type(matcher) is ExactMatcher and matcher.duplicates == "multiset"
            and len(a.variables) * len(b.variables) <= FAST_CELLS
            and kernels_ready()):  # while the kernels are being built, the numpy path is faster
        pair_a, pair_b, unary, edge_p, edge_q, weight, bound = _exact_terms(a, b)
        return Problem(len(a.variables), len(b.variables), pair_a, pair_b, unary, edge_p, edge_q,
                       weight, constant=constant, label_bound=bound + constant,
                       sentence_a=sentence_a, sentence_b=sentence_b, tolerance=tolerance)
    ui, uj, uw = matcher.unary_terms(a, b)
    bi, bj, bk, bl, bw = matcher.binary_terms(a, b)
    keep = (bw > 0) & (bi != bk) & (bj != bl)
    bi, bj, bk, bl, bw = bi[keep], bj[keep], bk[keep], bl[keep], bw[keep]
    keepu = uw > 0
    ui, uj, uw = ui[keepu], uj[keepu], uw[keepu]
    nb = max(len(b.variables), 1)
    ukey = ui * nb + uj
    k1 = bi * nb + bj
    k2 = bk * nb + bl
    keys = np.unique(np.concatenate([ukey, k1, k2]))
    unary = np.zeros(len(keys))
    np.add.at(unary, np.searchsorted(keys, ukey), uw)
    p1 = np.searchsorted(keys, k1)
    p2 = np.searchsorted(keys, k2)
    lo, hi = np.minimum(p1, p2), np.maximum(p1, p2)
    n = max(len(keys), 1)
    ekeys, inverse = np.unique(lo * n + hi, return_inverse=True)
    weight = np.bincount(inverse.ravel(), weights=bw, minlength=len(ekeys)) if len(ekeys) else np.zeros(0)
    return Problem(len(a.variables), len(b.variables), keys // nb, keys % nb, unary,
                   ekeys // n, ekeys % n, weight, constant=constant,
                   label_bound=matcher.label_bound(a, b) + constant,
                   sentence_a=sentence_a, sentence_b=sentence_b, tolerance=tolerance)

"""SemBleu (Song and Gildea, ACL 2019): BLEU over the paths of an AMR graph.

A *k-gram* is a downward path of k nodes, written as the nodes' strings
(variables replaced by their concepts) and the roles between them.  The score
of a hypothesis graph against a reference graph is BLEU over these k-grams:
clipped precision per order, NLTK's smoothing ``method3`` and a brevity
penalty on the graphs' sizes.  It is asymmetric: the first graph (``score``'s
first file, the *test* side) is the hypothesis.

Rules, each from the reference implementation (github.com/freesunshine0316/sembleu,
``src/``; line numbers at commit 69ff2d4, the head, unless 530bc05 is named):

* k-grams (``amr_graph.py`` 263-293): from every node that a breadth-first walk
  reaches from the nodes without a parent (``revert_of_edges``, 259-261; the
  first variable when every node has one), every path of 1..k nodes along
  child edges, an edge at most once per path (``visited`` holds edge ids, 268-275).
  A node's string is lower-cased (273, 286); a role is written with its colon
  (272).  The k-gram is the whitespace split of the joined strings (265), so a
  constant ``"New York"`` gives two tokens.
* node strings (``amr_graph.py`` 151-153): a variable's concept; a constant's
  value without its quotes (451-453); a constant whose value is a variable's
  name takes that variable's concept (the same lookup).
* re-entrancy (``amr_parser.py`` 4-12, 66-72; ``amr_graph.py`` 435-449): a
  reference to a variable whose ``(var / concept`` is already read, or whose
  name is a letter and digits (``surface_check_var``), is an edge to that node;
  a reference to any other variable written later (``xv2`` before ``(xv2 / hair)``)
  is a new leaf node with that variable's concept: the path stops there.
* inside a quoted constant the characters ``:``, ``/``, ``(`` and ``)`` are dropped
  (``amr_parser.py`` 46-48, 74-80, 36-38, 100-102); whitespace runs become one space (62).
* inverse roles: at 530bc05 never turned (``amr_graph.py`` 251 tests
  ``startswith(":")`` on labels whose colon the parser removed, so
  ``:ARG0-of`` stays as written); at the head (69ff2d4, 251) every label that
  ends in ``-of`` loses every ``-of`` (``replace('-of', '', 10)``) and its edge
  turns round, ``:consist-of`` included.
* size for the brevity penalty (``eval.py`` 44): ``len(amr.edges)``, one edge
  per node (its concept) plus one per relation, i.e. nodes plus relations.
* BLEU (``bleu_score.py`` 36-99): clipped counts per order (102-131); an
  order without hypothesis k-grams is left out (56-57); ``auto_reweigh``
  (72-76, ``eval.py`` 66): when the hypothesis has no k-gram of the top order,
  uniform weights over the orders it has; 0 without a unigram match (85-86);
  ``method3`` (250-270): the j-th order without a match (counting only such orders)
  gets ``1 / (2**j * number of hypothesis k-grams of that order)``; brevity penalty
  (153-160) ``exp(1 - r / h)`` when ``h <= r``, 1 when ``h > r``.

Reference quirks and our default:

=============================================  ==========================================
reference                                      ours
=============================================  ==========================================
inverse roles never turned (530bc05, BAMBOO)   ``inverse="keep"`` reproduces it
every ``*-of`` turned, ``consist-of`` too      ``inverse="flip"`` (default: the head; an
(head 69ff2d4)                                 inverse role and its normal form agree)
``eval.py`` extracts at most 3-grams whatever  ``k`` paths of k nodes are extracted
``n`` is (43), so k = 4 scores as k = 3
``eval.py`` weights (0.34, 0.33, 0.34) (65),   uniform 1/k (as BAMBOO); ``weights``
summing to 1.01                                gives any other
forward reference to ``xv2``-like names:       followed (the published numbers
a leaf copy, the path stops                    depend on it)
``:/()`` dropped inside quotes                 followed
constant equal to a variable name takes its    followed
concept
empty hypothesis: ``max()`` of nothing,        0; two empty graphs score 1
a crash (72-73)
an unreadable graph aborts the run             the CLI's ``--on-error``
=============================================  ==========================================

BAMBOO scored each pair as its own corpus with the target file as the
hypothesis; a corpus's micro score here is corpus BLEU of the summed
statistics (the reference's ``eval.py``), its macro score the mean of the
pairs' scores.

>>> from smatchpp.graphs.read import read_text
>>> a, b = (e.graph for e in read_text("(d / dog :ARG0-of (b / bark-01))\\n\\n(b / bark-01 :ARG0 (d / dog))"))
>>> m = SemBleu(k=2)
>>> round(m.pair_score(m.features(a), m.features(b)), 12)
1.0
>>> keep = SemBleu(k=2, inverse="keep")
>>> round(keep.pair_score(keep.features(a), keep.features(b)), 4)
0.7071
>>> sorted(m.features(a).grams[2])
[('bark-01', ':ARG0', 'dog')]
"""

from __future__ import annotations

import math
from collections import Counter, deque
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple, Sequence

import numpy as np

from ..graphs.read import RawGraph
from .base import Metric, param
from .layout import concepts, written_order
from .registry import register

__all__ = ["SemBleu", "SemBleuFeatures", "kgrams"]

#: the largest k accepted (paths grow exponentially with k)
MAX_K = 8
_DROPPED_IN_QUOTES = str.maketrans("", "", ":/()")


class SemBleuFeatures(NamedTuple):
    """One graph's k-gram counts per order (``grams[i]`` for paths of i nodes) and size."""

    grams: dict[int, Counter]
    totals: tuple[int, ...]
    length: int


def _looks_like_variable(name: str) -> bool:
    """The reference parser's ``surface_check_var``: a lower-case letter, then digits only."""
    return bool(name) and "a" <= name[0] <= "z" and all("0" <= c <= "9" for c in name[1:])


@lru_cache(maxsize=65536)
def _split(text: str) -> tuple[str, ...]:
    """A node string's tokens: lower-cased, split on whitespace (concepts repeat: cached)."""
    return tuple(text.lower().split())


def _constant_tokens(value: str, concept_of: dict[str, str]) -> tuple[str, ...]:
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        value = value.translate(_DROPPED_IN_QUOTES)
        value = " ".join(value.split())
        if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
            value = value[1:-1]
    return _split(concept_of.get(value, value))


def kgrams(graph: RawGraph, k: int, inverse: str = "flip") -> SemBleuFeatures:
    """The k-gram counts of ``graph`` (orders 1..k) and its size (nodes plus relations)."""
    concept_of = concepts(graph)
    index = {v: i for i, v in enumerate(graph.variables)}
    tokens: list[tuple[str, ...]] = [_split(concept_of.get(v, v)) for v in graph.variables]
    edges: list[tuple[int, str, int]] = []
    for source, role, target, is_var, inline, seen in written_order(graph):
        src = index[source]
        if is_var and (inline or seen or _looks_like_variable(target)):
            edges.append((src, role, index[target]))
        else:
            # a constant, or a variable written later under a name the reference's parser
            # does not take for a variable: a leaf of its own
            tokens.append(_constant_tokens(target, concept_of) if not is_var
                          else _split(concept_of.get(target, target)))
            edges.append((src, role, len(tokens) - 1))
    length = len(tokens) + len(edges)
    children: list[list[tuple[int, str, int]]] = [[] for _ in tokens]
    has_parent = [False] * len(tokens)
    for eid, (src, role, tgt) in enumerate(edges):
        if inverse == "flip" and role.endswith("-of"):
            src, tgt, role = tgt, src, role.replace("-of", "", 10)
        children[src].append((eid, role, tgt))
        has_parent[tgt] = True
    found: list[list[tuple[str, ...]]] = [[] for _ in range(k + 1)]
    if tokens:
        roots = [n for n in range(len(tokens)) if not has_parent[n]] or [0]
        reached = set(roots)
        queue = deque(roots)
        while queue:
            node = queue.popleft()
            for _, _, child in children[node]:
                if child not in reached:
                    reached.add(child)
                    queue.append(child)
        if k > 3:
            for node in reached:
                found[1].append(tokens[node])
                _extend(node, tokens[node], 1, set(), tokens, children, found, k)
        else:
            # paths of at most three nodes, without the recursion: the only edge a
            # second step could repeat is a self-loop's
            ones, twos, threes = found[1], found[k > 1 and 2], found[k > 2 and 3]
            for node in reached:
                gram = tokens[node]
                ones.append(gram)
                if k == 1:
                    continue
                for eid, role, child in children[node]:
                    longer = gram + (role,) + tokens[child]
                    twos.append(longer)
                    if k == 3:
                        for eid2, role2, child2 in children[child]:
                            if eid2 != eid:
                                threes.append(longer + (role2,) + tokens[child2])
    grams = {i: Counter(found[i]) for i in range(1, k + 1)}
    totals = tuple(len(found[i]) for i in range(1, k + 1))
    return SemBleuFeatures(grams, totals, length)


def _extend(node, gram, order, used, tokens, children, found, k) -> None:
    """Every path that continues ``gram`` (ending at ``node``, ``order`` nodes long) by an
    edge not in ``used``, up to k nodes (recursion depth is at most k)."""
    for eid, role, child in children[node]:
        if eid in used:
            continue
        longer = gram + (role,) + tokens[child]
        found[order + 1].append(longer)
        if order + 2 <= k and children[child]:
            used.add(eid)
            _extend(child, longer, order + 1, used, tokens, children, found, k)
            used.discard(eid)


@register
@dataclass(frozen=True)
class SemBleu(Metric):
    """SemBleu: BLEU of the graphs' paths (k-grams); asymmetric, the first file is the hypothesis."""

    #: its bound depends on the graphs' sizes only: pruning ``search`` skipped 3-4% of the
    #: pairs and cost more than it saved (docs/benchmarks.md section 21)
    prune_search = False

    name = "sembleu"
    headline = "score"

    k: int = param(3, "the longest path, in nodes (orders 1..k); the paper and the repository "
                      "use 3, BAMBOO reports 1, 2 and 3", choices=tuple(range(1, MAX_K + 1)))
    inverse: str = param("flip", "inverse roles (*-of): flip turns them round (the repository's "
                                 "head, 69ff2d4); keep leaves them as written (commit 530bc05, "
                                 "which BAMBOO v0.2 used)", choices=("flip", "keep"))
    weights: str = param("uniform", "weights of orders 1..k: uniform (1/k each, as BAMBOO) or k "
                                    "comma-separated numbers (the repository's eval.py: "
                                    "0.34,0.33,0.34)")

    def __post_init__(self) -> None:
        if not 1 <= int(self.k) <= MAX_K:
            raise ValueError(f"k must be between 1 and {MAX_K}, got {self.k}")
        if self.inverse not in ("flip", "keep"):
            raise ValueError(f"inverse must be flip or keep, got {self.inverse!r}")
        self.weight_vector()  # validates

    def weight_vector(self) -> np.ndarray:
        """The weights of orders 1..k."""
        if self.weights == "uniform":
            return np.full(self.k, 1.0 / self.k)
        try:
            values = [float(x) for x in self.weights.split(",")]
        except ValueError:
            raise ValueError(f"--sembleu-weights must be 'uniform' or {self.k} comma-separated numbers, "
                             f"got {self.weights!r}") from None
        if len(values) != self.k or any(not math.isfinite(v) or v < 0 for v in values):
            raise ValueError(f"--sembleu-weights must be {self.k} non-negative numbers (one per order), "
                             f"got {self.weights!r}")
        if not any(values):
            # every order weighted 0: exp(0) = 1, the brevity penalty alone, for any graphs
            raise ValueError(f"--sembleu-weights {self.weights}: at least one weight must be > 0 "
                             "(with all 0 every pair would score its brevity penalty alone)")
        return np.array(values)

    @property
    def stat_names(self) -> tuple[str, ...]:  # type: ignore[override]
        return (tuple(f"match{i}" for i in range(1, self.k + 1))
                + tuple(f"count{i}" for i in range(1, self.k + 1))
                + ("hyp_length", "ref_length"))

    def features(self, graph: RawGraph) -> SemBleuFeatures:
        return kgrams(graph, self.k, self.inverse)

    def stats(self, a: SemBleuFeatures, b: SemBleuFeatures) -> tuple[int, ...]:
        matches = []
        for i in range(1, self.k + 1):
            hyp, ref = a.grams[i], b.grams[i]
            if len(hyp) > len(ref):
                matches.append(sum(min(n, hyp[g]) for g, n in ref.items() if g in hyp))
            else:
                matches.append(sum(min(n, ref[g]) for g, n in hyp.items() if g in ref))
        return tuple(matches) + a.totals + (a.length, b.length)

    def upper_stats(self, a: SemBleuFeatures, b: SemBleuFeatures) -> tuple[int, ...]:
        # clipped matches never exceed either side's count of that order
        return (tuple(min(x, y) for x, y in zip(a.totals, b.totals)) + a.totals
                + (a.length, b.length))

    def upper_stats_matrix(self, a: SemBleuFeatures, corpus: Sequence[SemBleuFeatures]) -> np.ndarray:
        totals = np.array([b.totals for b in corpus], dtype=float).reshape(len(corpus), len(a.totals))
        lengths = np.fromiter((b.length for b in corpus), dtype=float, count=len(corpus))
        n = len(corpus)
        return np.concatenate([np.minimum(np.asarray(a.totals, dtype=float), totals),
                               np.broadcast_to(np.asarray(a.totals, dtype=float), (n, len(a.totals))),
                               np.full((n, 1), float(a.length)), lengths[:, None]], axis=-1)

    def scores(self, stats: np.ndarray) -> dict[str, np.ndarray]:
        s = np.asarray(stats, dtype=float)
        k = self.k
        m, c = s[..., :k], s[..., k:2 * k]
        hyp, ref = s[..., 2 * k], s[..., 2 * k + 1]
        order = np.arange(1, k + 1)
        present = c > 0
        # the highest order with hypothesis k-grams (0: none)
        top = np.where(present.any(axis=-1), k - np.argmax(present[..., ::-1], axis=-1), 0)
        top_ = top[..., None]
        used = order <= top_
        reweighed = np.where(used, 1.0 / np.maximum(top_, 1), 0.0)
        w = np.where(top_ < k, reweighed, self.weight_vector())
        unmatched = (m == 0) & used
        nth = np.cumsum(unmatched, axis=-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(m > 0, m / np.where(c > 0, c, 1.0), 1.0 / (2.0 ** nth * np.maximum(1.0, c)))
            logp = np.where(used, np.log(np.where(used, p, 1.0)), 0.0)
            bleu = np.exp(np.sum(w * logp, axis=-1))
            bp = np.where(hyp > ref, 1.0, np.where(hyp > 0, np.exp(1.0 - ref / np.where(hyp > 0, hyp, 1.0)), 0.0))
        score = np.where(m[..., 0] > 0, bp * bleu, 0.0)
        score = np.where((hyp == 0) & (ref == 0), 1.0, score)
        return {"score": score}

"""WLK: the Weisfeiler-Leman kernel similarity of two AMR graphs (Opitz et al. 2021).

A graph is standardized, turned into labelled nodes and edges, and its node
labels are refined K times by Weisfeiler-Leman: a node's new label is its label
together with the sorted ``relation_neighbourLabel`` strings of its in- and
out-neighbours.  Each graph becomes a set of features per iteration; the score
is the cosine of the two weighted binary feature vectors.

The rules, each with where the reference (``flipz357/weisfeiler-leman-amr-metrics``
at 51624e2, ``src/``; it reads graphs with PyPI smatchpp 1.5.1) states it:

* standardization (smatchpp 1.5.1 ``preprocess.py`` ``GenericStandardizer._standardize``
  lines 52-55, ``graph_transforms.py`` lines 11-26 and 74-93; ``graph_helpers.py``
  ``GraphParser.string_graphs_to_triples`` lines 38-45): every label lower-cased, every
  ``"`` and ``'`` removed, a role containing ``-of`` flipped and cut at its first
  ``-of`` (``:consist-of`` included), the artificial ``:root`` triple dropped,
  duplicate triples removed;
* nodes (``graph_helpers.py`` ``reify_nodes`` lines 173-197, ``amrtriples2nxmedigraph``
  lines 90-118): a variable is a node labelled by its concept; every triple whose
  target is a constant gets its own node labelled by the constant; a triple whose
  source is not a variable is dropped (``add_edges`` lines 150-155);
* iteration 0 (``amr_similarity.py`` ``WLK._predict`` lines 872-875, ``get_stats``
  lines 1062-1073, ``nc``/``tc`` lines 1093-1165): binary occurrence of the node labels,
  and, separately, of the strings ``sourceLabel_relation_targetLabel`` of the edges;
* iterations 1..K (``wl_gather_node`` lines 885-912, ``sort_relabel`` lines 941-945,
  ``update_node_labels`` lines 1037-1041): the new label is the node's label and the
  strings ``relation_neighbourLabel`` of every out-edge and every in-edge (no direction
  marker; a self-loop counts twice), sorted and joined by ``' ::: '``; each iteration's
  labels are again binary occurrences (``stattype='nodeoccurence'``, line 877);
* score (``wlk`` lines 977-985): iteration ``i``'s vector weighted by ``1/(1+i)``
  (iteration 0's node and edge vectors by 1), concatenated, cosine; a NaN becomes 0
  (lines 878-879). ``K = 2`` (``main_wlk.py`` line 28).

Reference quirks, and our default for each:

=================================================  ================================
reference                                          ours (default)
=================================================  ================================
neighbourhoods are gathered in a dict keyed by     each node keeps its own
the node's label (``wl_gather_nodes`` lines        neighbourhood; ``label_keyed=True``
924-928): nodes sharing a label all take the       reproduces the label-keyed rule
neighbourhood of the last one, and which one is    with the last node in the order
last follows ``list(set(triples))`` (line 45),     written (equal to the reference
i.e. Python's hash seed                            wherever no label repeats)
a constant equal to a concept of the graph is      a constant is always its own node;
not made a node (``reify_nodes`` line 183); its    ``label_keyed=True`` attaches it
edge goes to the last node with that label, and    as the reference does, in the order
is dropped if that node is node 0 (``add_edges``   written
lines 161-168); both depend on the hash seed
an empty graph is dropped by the reader            an empty graph is scored: 1 against
(``data_helpers.py`` lines 22-24), misaligning     an empty graph, 0 against any other
the pairs that follow; an all-zero vector gives
NaN, then 0
scores rounded to 3 decimals (``main_wlk.py``      not rounded
lines 31-36, 102)
=================================================  ================================

:func:`wl_graph` (the standardized nodes and edges) and :func:`wl_labels` (the labels
of every iteration, node by node) are public: WWLK builds on them.  The features use
:func:`wl_ids`, the labels compressed to 16-byte ids at every iteration: the labels'
text doubles (and more) with every iteration, so K = 10 took 5.4 GB and K = 20 was
killed; the ids keep memory linear in K and the scores as they were.

>>> from smatchpp.graphs.read import read_text
>>> a, b = (e.graph for e in read_text("(d / dog :ARG0-of (b / bark-01))\\n\\n(d / dog)"))
>>> wl_graph(a)
WLGraph(labels=('dog', 'bark-01'), edges=((1, ':arg0', 0),))
>>> wl_labels(wl_graph(a), 1)[1]
(':arg0_bark-01 ::: dog', ':arg0_dog ::: bark-01')
>>> m = WLK()
>>> round(m.pair_score(m.features(a), m.features(b)), 6)  # 1 / sqrt((2 + 1 + 2/4 + 2/9) * (1 + 1/4 + 1/9))
0.444275
>>> m.pair_score(m.features(a), m.features(a))
1.0
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from ..graphs.read import RawGraph
from .base import PairMean, param
from .registry import register

__all__ = ["WLK", "WLGraph", "wl_graph", "wl_labels", "wl_ids", "WLFeatures"]

_JOIN = " ::: "


@dataclass(frozen=True)
class WLGraph:
    """A standardized graph: ``labels[i]`` is node ``i``'s label, ``edges`` are
    ``(source node, relation, target node)`` without duplicates."""

    labels: tuple[str, ...]
    edges: tuple[tuple[int, str, int], ...]


def _clean(text: str) -> str:
    return text.lower().replace('"', "").replace("'", "")


def wl_graph(raw: RawGraph, label_keyed: bool = False) -> WLGraph:
    """The reference's standardized graph of ``raw`` (see the module doc).

    Variables are nodes in the order written, then one node per constant-target
    triple.  With ``label_keyed`` a constant equal to a concept of the graph is
    attached to the last node with that concept, as the reference does.

    >>> from smatchpp.graphs.read import read_text
    >>> g = read_text('(x / Thing :consist-of (y / "Big") :op1 "A b" :mod y :mod y)')[0].graph
    >>> wl_graph(g)
    WLGraph(labels=('thing', 'big', 'a b'), edges=((1, ':consist', 0), (0, ':op1', 2), (0, ':mod', 1)))
    """
    raw_triples = raw.triples
    clean = {x: _clean(x) for x in {x for triple in raw_triples for x in triple}}  # each once
    # a quoted constant that reads like a variable stays a constant: variables are what
    # the graph defines, before cleaning
    variables = {s for s, r, _ in raw_triples if r == ":instance"}
    concept: dict[str, str] = {}
    rest = []  # (source is a variable, source, relation, target is a variable, target)
    for s, r, t in raw_triples:
        if r == ":instance":
            concept[clean[s]] = clean[t]
            continue
        r = clean[r]
        if "-of" in r:
            rest.append((t in variables, clean[t], r.split("-of")[0], s in variables, clean[s]))
        else:
            rest.append((s in variables, clean[s], r, t in variables, clean[t]))
    triples = dict.fromkeys(rest)  # duplicates removed, order kept
    index = {v: i for i, v in enumerate(concept)}
    labels = list(concept.values())
    by_label: dict[str, int] = {}
    if label_keyed:
        for v, i in index.items():
            by_label[concept[v]] = i  # the last node with that label
    edges = []
    for s_var, s, r, t_var, t in triples:
        if not s_var or s not in index:
            continue
        if t_var and t in index:
            edges.append((index[s], r, index[t]))
        elif label_keyed and not t_var and t in by_label:
            if by_label[t] != 0:  # the reference's ``if found:`` drops node 0
                edges.append((index[s], r, by_label[t]))
        else:
            edges.append((index[s], r, len(labels)))
            labels.append(t)
    return WLGraph(tuple(labels), tuple(edges))


def wl_labels(graph: WLGraph, iterations: int, label_keyed: bool = False) -> list[tuple[str, ...]]:
    """The node labels of iterations ``0..iterations``: ``out[k][i]`` is node ``i``'s.

    With ``label_keyed`` every node takes the neighbourhood of the last node with
    its label, as the reference's dict does.

    >>> g = WLGraph(("a", "b", "b"), ((0, ":r", 1), (0, ":r", 2), (2, ":s", 0)))
    >>> wl_labels(g, 1)[1]
    (':r_b ::: :r_b ::: :s_b ::: a', ':r_a ::: b', ':r_a ::: :s_a ::: b')
    >>> wl_labels(g, 1, label_keyed=True)[1]
    (':r_b ::: :r_b ::: :s_b ::: a', ':r_a ::: :s_a ::: b', ':r_a ::: :s_a ::: b')
    """
    n = len(graph.labels)
    out_edges: list[list[tuple[str, int]]] = [[] for _ in range(n)]
    for s, r, t in graph.edges:
        r += "_"
        out_edges[s].append((r, t))
        out_edges[t].append((r, s))  # in-edges: no direction marker
    labels = graph.labels
    result = [labels]
    for _ in range(iterations):
        new = [_JOIN.join(sorted([label] + [r + labels[j] for r, j in edges]))
               for label, edges in zip(labels, out_edges)]
        if label_keyed:
            last = dict(zip(labels, new))  # the last node of each label wins
            new = [last[label] for label in labels]
        labels = tuple(new)
        result.append(labels)
    return result


_ID_BYTES = 16  # a label id: 128 bits of BLAKE2b, so a collision is out of reach


def _label_id(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=_ID_BYTES).digest()


def _text_id(text: str) -> bytes:
    return _label_id(text.encode("utf-8", "surrogatepass"))


def wl_ids(graph: WLGraph, iterations: int, label_keyed: bool = False) -> list[tuple[bytes, ...]]:
    """:func:`wl_labels` compressed: ``out[k][i]`` is a 16-byte id of node ``i``'s label
    at iteration ``k``, so memory grows linearly in ``iterations`` (the labels' text
    grows exponentially).

    A node's id at iteration ``k`` is a digest of its own id and the sorted
    ``(relation id, neighbour id)`` pairs of iteration ``k - 1``: two nodes, of any
    graphs and in any process, get one id exactly when their neighbourhoods, unfolded
    ``k`` times, are equal, which is when :func:`wl_labels` gives them one text (the
    text differs from that only if labels contain the separator ``' ::: '`` in a way
    that makes two different neighbourhoods join to one string).

    >>> g = WLGraph(("a", "b", "b"), ((0, ":r", 1), (0, ":r", 2), (2, ":s", 0)))
    >>> ids = wl_ids(g, 2)
    >>> [len(set(k)) for k in ids] == [len(set(k)) for k in wl_labels(g, 2)]
    True
    >>> ids[2][0] == wl_ids(WLGraph(("b", "a", "b"), ((1, ":r", 0), (2, ":s", 1), (1, ":r", 2))), 2)[2][1]
    True
    """
    n = len(graph.labels)
    rel = {r: _text_id(r) for r in {r for _, r, _ in graph.edges}}
    neighbours: list[list[tuple[bytes, int]]] = [[] for _ in range(n)]
    for s, r, t in graph.edges:
        neighbours[s].append((rel[r], t))
        neighbours[t].append((rel[r], s))  # in-edges: no direction marker, as wl_labels
    ids = tuple(_text_id(label) for label in graph.labels)
    result = [ids]
    for _ in range(iterations):
        new = [_label_id(own + b"".join(sorted([r + ids[j] for r, j in edges])))
               for own, edges in zip(ids, neighbours)]
        if label_keyed:
            last = dict(zip(ids, new))  # the last node of each label wins
            new = [last[x] for x in ids]
        ids = tuple(new)
        result.append(ids)
    return result


@dataclass(frozen=True)
class WLFeatures:
    """One graph's binary features: ``sets[0]`` node labels, ``sets[1]`` edge strings,
    ``sets[1 + k]`` the labels of iteration ``k``."""

    sets: tuple[frozenset, ...]  # from iteration 1 on, the ids of :func:`wl_ids`


@register
@dataclass(frozen=True)
class WLK(PairMean):
    """Weisfeiler-Leman kernel: cosine of weighted binary WL feature vectors."""

    name = "wlk"

    iterations: int = param(2, "Weisfeiler-Leman iterations K (the reference's -k)")
    label_keyed: bool = param(False, "reproduce the reference's label-keyed neighbourhoods "
                                     "(nodes sharing a label take the last one's) and its "
                                     "attachment of constants equal to a concept")
    _w2: tuple = field(default=(), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.iterations, bool) or not isinstance(self.iterations, int) or self.iterations < 0:
            raise ValueError(f"wlk iterations must be a whole number >= 0, not {self.iterations!r}")
        object.__setattr__(self, "_w2", tuple(float(w) ** 2 for w in self.weights()))

    def weights(self) -> np.ndarray:
        """The weight of each feature set: 1 for nodes and edges, ``1/(1+k)`` for iteration k."""
        return np.array([1.0, 1.0] + [1.0 / (1 + k) for k in range(1, self.iterations + 1)])

    def features(self, graph: RawGraph) -> WLFeatures:
        g = wl_graph(graph, self.label_keyed)
        ids = wl_ids(g, self.iterations, self.label_keyed)
        edges = frozenset(g.labels[s] + "_" + r + "_" + g.labels[t] for s, r, t in g.edges)
        return WLFeatures((frozenset(g.labels), edges) + tuple(frozenset(x) for x in ids[1:]))

    def stats(self, a: WLFeatures, b: WLFeatures) -> tuple[float, int]:
        dot = na = nb = 0.0
        for w, x, y in zip(self._w2, a.sets, b.sets):
            dot += w * len(x & y)
            na += w * len(x)
            nb += w * len(y)
        return _cosine(dot, na, nb), 1

    def vectors(self, feats: Sequence[WLFeatures], vocab: dict | None = None):
        """The weighted feature vectors of ``feats`` as a sparse CSR matrix (one row a graph),
        over ``vocab`` (feature -> column, extended in place)."""
        from scipy import sparse

        vocab = {} if vocab is None else vocab
        w = self.weights()
        rows, cols, vals = [], [], []
        for i, f in enumerate(feats):
            for k, items in enumerate(f.sets):
                for item in items:
                    col = vocab.setdefault((k, item), len(vocab))
                    rows.append(i)
                    cols.append(col)
                    vals.append(w[k])
        return sparse.csr_matrix((vals, (rows, cols)), shape=(len(feats), max(len(vocab), 1))), vocab

    def stats_matrix(self, feats_a: Sequence[WLFeatures], feats_b: Sequence[WLFeatures],
                     out: np.ndarray | None = None) -> np.ndarray:
        """Every pair's statistics from one sparse product of the weighted feature vectors."""
        xa, vocab = self.vectors(feats_a)
        xb, vocab = self.vectors(feats_b, vocab)
        if xa.shape[1] < len(vocab):
            xa.resize((xa.shape[0], len(vocab)))
        dot = (xa @ xb.T).toarray()
        na = np.asarray(xa.multiply(xa).sum(axis=1)).ravel()
        nb = np.asarray(xb.multiply(xb).sum(axis=1)).ravel()
        result = np.empty((len(feats_a), len(feats_b), 2))
        result[..., 0] = _cosine_array(dot, na[:, None], nb[None, :])
        result[..., 1] = 1
        if out is not None:
            out[...] = result
            return out
        return result


def _cosine(dot: float, na: float, nb: float) -> float:
    if na == 0 and nb == 0:
        return 1.0  # two empty graphs are equal
    if na == 0 or nb == 0:
        return 0.0  # the reference's NaN -> 0
    return dot / math.sqrt(na * nb)  # as scipy's cosine: self-similarity exactly 1


def _cosine_array(dot: np.ndarray, na: np.ndarray, nb: np.ndarray) -> np.ndarray:
    denom = np.sqrt(na * nb)
    out = np.divide(dot, denom, out=np.zeros(np.broadcast(dot, denom).shape), where=denom > 0)
    both_empty = (na == 0) & (nb == 0)
    return np.where(both_empty, 1.0, out)

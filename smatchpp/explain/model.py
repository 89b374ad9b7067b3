"""The explanation of one graph pair: a plain data object the views render.

:func:`explain_pair` scores a pair as :class:`~smatchpp.api.Scorer` does,
then runs the seeded hill-climber (``config.restarts`` random restarts,
``config.seed``; the same climber ``smatchpp gap`` audits) on the same
compiled problem, and records for both alignments which triples of each side
they match (:func:`smatchpp.alignment.matching.triple_match`).

>>> from smatchpp.api import Config
>>> e = explain_pair("(d / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> e.matched, e.test_triples, e.gold_triples, e.status
(3.0, 4, 4, 'optimal')
>>> e.aligned_pairs()
[('d', 'y'), ('b', 'x')]
>>> [e.a.triples()[t] for t in e.unmatched_a()], [e.b.triples()[t] for t in e.unmatched_b()]
([('d', 'top', 'top')], [('x', 'top', 'top')])
>>> e.hc_gap, e.certificate()
(0.0, 'optimal (proved by the branch_and_bound stage)')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ..alignment.compile import compile_pair
from ..presets import Options, get_preset
from ..alignment.matching import TripleMatch, triple_match
from ..graphs.read import Entry, RawGraph, read_text
from ..alignment.score import PairScore, prf
from ..alignment.sentences import as_written, coreference
from ..alignment.solvers.hillclimber import HillClimber
from ..presets import standardize
from ..graphs.triples import EMPTY, TripleGraph

__all__ = ["Explanation", "explain_pair", "explain_entries", "iter_explanations", "hc_label",
           "concept_similarity", "soft_pairs"]


def hc_label(seed: int, restarts: int) -> str:
    """How the hill-climber of an explanation was run (shown in every view)."""
    return (f"smatchpp's seeded hill-climber ({restarts} random restart{'' if restarts == 1 else 's'}, "
            f"seed {seed})")


@dataclass
class Explanation:
    """Why two graphs differ: the optimal alignment, its certificate and the hill-climber's.

    ``alignment[i]`` is the B variable aligned to A variable ``i`` (or -1), the
    same for ``hc_alignment``.  ``opt`` and ``hc`` say which triples of A and
    of B those alignments match (masks over ``a.triples()`` and ``b.triples()``).
    ``score`` is the scorer's :class:`~smatchpp.alignment.score.PairScore`, unchanged.
    """

    score: PairScore
    a: TripleGraph
    b: TripleGraph
    alignment: np.ndarray
    opt: TripleMatch
    hc_alignment: np.ndarray
    hc_matched: float
    hc: TripleMatch
    hc_name: str
    raw_a: RawGraph | None = None
    raw_b: RawGraph | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    matcher: str = "exact"
    #: ``(i, j, s)``: aligned variables whose concepts differ but are similar (``s > 0``)
    #: under the matcher's concept similarity (S2Match); empty for exact matching
    soft: list[tuple[int, int, float]] = field(default_factory=list)

    # -- the scorer's numbers -------------------------------------------------
    @property
    def index(self) -> int:
        return self.score.index

    @property
    def id(self) -> str | None:
        return self.score.id

    @property
    def sentence(self) -> str | None:
        """The ``# ::snt`` of the test graph (or else of the gold graph), if any."""
        return self.metadata.get("snt")

    @property
    def matched(self) -> float:
        return self.score.matched

    @property
    def upper(self) -> float:
        return self.score.upper

    @property
    def test_triples(self) -> int:
        return self.score.test_triples

    @property
    def gold_triples(self) -> int:
        return self.score.gold_triples

    @property
    def status(self) -> str:
        return self.score.status

    @property
    def stage(self) -> str:
        return self.score.stage

    @property
    def hc_gap(self) -> float:
        """Triples the hill-climber's alignment matches fewer than the best one found.

        0 when the difference is within the certificate's tolerance (soft matching sums the same
        fractional weights in another order: 1e-15 is rounding, not a triple).
        """
        gap = self.matched - self.hc_matched
        return 0.0 if abs(gap) <= self.score.tolerance else gap

    @property
    def hc_f1(self) -> float:
        return prf(self.hc_matched, self.score.test_weight, self.score.gold_weight)[2]

    def certificate(self) -> str:
        """Which stage proved the score optimal, or the interval the optimum lies in."""
        if self.status == "optimal":
            return f"optimal (proved by the {self.stage or 'solver'} stage)"
        lo = self.score.f1
        hi = self.score.f1_upper
        return (f"{self.status}: matched in [{_fmt(self.matched)}, {_fmt(self.upper)}], "
                f"F1 in [{100 * lo:.2f}, {100 * hi:.2f}]")

    # -- alignments -----------------------------------------------------------
    def aligned_pairs(self, hc: bool = False) -> list[tuple[str, str]]:
        """``(A variable, B variable)`` name pairs of the optimal (or the hill-climber's) alignment."""
        al = self.hc_alignment if hc else self.alignment
        return [(self.a.variables[i], self.b.variables[j]) for i, j in enumerate(al.tolist()) if j >= 0]

    def coreference_marks(self) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]] | None:
        """docSmatch's coreference items of A and of B (:func:`smatchpp.alignment.sentences.coreference`),
        each as ``(text, matched under the optimal alignment)``; ``None`` when neither graph is a
        document with such items.  Matched as ``--coref-subscore`` counts: a node whose partner
        is a coreference node of the same concept, an edge whose ends' partners carry the same
        role as a coreference edge of the other side.

        >>> e = explain_pair("(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01 :ARG0 c))",
        ...                  "(d / document :snt1 (a / go-02 :ARG0 (c / coref-entity)) :snt2 (b / sleep-01))")
        >>> e.coreference_marks()
        ([('c / coref-entity', True), ('a :ARG0 c', True), ('b :ARG0 c', False)], [('c / coref-entity', True), ('a :ARG0 c', True)])
        """
        if self.a.document is None and self.b.document is None:
            return None
        ca, cb = coreference(as_written(self.a)), coreference(as_written(self.b))
        if not (ca.size or cb.size):
            return None
        pairs = self.aligned_pairs()
        forward, backward = dict(pairs), {y: x for x, y in pairs}

        def marks(mine, other, partner) -> list[tuple[str, bool]]:
            nodes, edges = set(other.nodes), set(other.edges)
            out = [(f"{n} / {mine.concepts[n]}", partner.get(n) in nodes
                    and other.concepts[partner[n]] == mine.concepts[n]) for n in mine.nodes]
            out += [(f"{s} :{r} {t}", (partner.get(s), r, partner.get(t)) in edges) for s, r, t in mine.edges]
            return out

        return marks(ca, cb, forward), marks(cb, ca, backward)

    @property
    def alignments_differ(self) -> bool:
        return not np.array_equal(self.alignment, self.hc_alignment)

    def unmatched_a(self) -> list[int]:
        return self.opt.unmatched_a()

    def unmatched_b(self) -> list[int]:
        return self.opt.unmatched_b()

    def lost_a(self) -> list[int]:
        """A triples the optimal alignment matches and the hill-climber's does not."""
        return np.flatnonzero(self.opt.mask_a & ~self.hc.mask_a).tolist()

    def lost_b(self) -> list[int]:
        return np.flatnonzero(self.opt.mask_b & ~self.hc.mask_b).tolist()

    def gained_a(self) -> list[int]:
        """A triples only the hill-climber's alignment matches (it loses more elsewhere)."""
        return np.flatnonzero(self.hc.mask_a & ~self.opt.mask_a).tolist()

    def gained_b(self) -> list[int]:
        return np.flatnonzero(self.hc.mask_b & ~self.opt.mask_b).tolist()

    def to_json(self) -> dict[str, Any]:
        """The scorer's ``--pairs-out`` object plus the alignments and triple lists."""
        ta, tb = self.a.triples(), self.b.triples()
        out = self.score.to_json(with_alignment=True)
        out.update({
            "sentence": self.sentence,
            "certificate": self.certificate(),
            "matcher": self.matcher,
            "triples_matched_a": [list(ta[t]) for t in np.flatnonzero(self.opt.mask_a)],
            "unmatched_a": [list(ta[t]) for t in self.unmatched_a()],
            "unmatched_b": [list(tb[t]) for t in self.unmatched_b()],
            "hillclimber": self.hc_name,
            "hc_matched": _num(self.hc_matched), "hc_gap": _num(self.hc_gap), "hc_f1": self.hc_f1,
            "hc_alignment": self.aligned_pairs(hc=True),
            "hc_lost_a": [list(ta[t]) for t in self.lost_a()],
            "hc_lost_b": [list(tb[t]) for t in self.lost_b()],
            "soft": [[self.a.variables[i], self.b.variables[j], v] for i, j, v in self.soft],
        })
        out["alignment"] = [list(p) for p in out["alignment"]]
        out["hc_alignment"] = [list(p) for p in out["hc_alignment"]]
        return out


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else x


def _fmt(x: float) -> str:
    return "inf" if math.isinf(x) else f"{x:g}"


def concept_similarity(matcher) -> Callable[[str, str], float] | None:
    """The matcher's concept similarity ``s(c, c')`` if it has one (S2Match), else ``None``.

    >>> from smatchpp.alignment.matchers import ExactMatcher
    >>> concept_similarity(ExactMatcher()) is None
    True
    """
    sim = getattr(matcher, "similarity", None)
    if sim is None:
        return None
    if hasattr(sim, "similarity"):
        return sim.similarity
    return sim if callable(sim) else None


def soft_pairs(a: TripleGraph, b: TripleGraph, alignment: np.ndarray,
               similarity: Callable[[str, str], float] | None) -> list[tuple[int, int, float]]:
    """Aligned variables with different but similar concepts, and their similarity.

    >>> from smatchpp.api import parse_graph
    >>> sim = lambda x, y: 0.5 if x[:3] == y[:3] else 0.0
    >>> soft_pairs(parse_graph("(h / hit-01)"), parse_graph("(h / hit-02)"), np.array([0]), sim)
    [(0, 0, 0.5)]
    """
    if similarity is None:
        return []
    out = []
    for i, j in enumerate(alignment.tolist()):
        if j >= 0 and a.concepts[i] != b.concepts[j]:
            value = float(similarity(a.concepts[i], b.concepts[j]))
            if value > 0:
                out.append((i, j, value))
    return out


def _as_graph(g: TripleGraph | RawGraph | str, preset: str,
              options: Options | None = None) -> tuple[TripleGraph, RawGraph | None, dict]:
    if isinstance(g, TripleGraph):
        return g, None, {}
    if isinstance(g, str):
        entries = read_text(g)
        if len(entries) != 1 or entries[0].error or entries[0].graph is None:
            from ..api import parse_graph
            parse_graph(g, preset)  # raises the reason
        g = entries[0].graph
        meta = dict(entries[0].metadata)
    else:
        meta = dict(g.metadata)
    return standardize(g, preset, options), g, meta


def explain_pair(a: TripleGraph | RawGraph | str, b: TripleGraph | RawGraph | str,
                 config=None, index: int = 0, id: str | None = None,
                 metadata: dict[str, str] | None = None, scorer=None) -> Explanation:
    """Score ``a`` (test) against ``b`` (gold) and explain the result.

    ``config`` is a :class:`~smatchpp.api.Config` (default settings if omitted);
    a ``scorer`` built from it can be passed to reuse its solver.
    """
    from ..api import Config, Scorer

    scorer = scorer or Scorer(config or Config())
    config = scorer.config
    ga, raw_a, meta_a = _as_graph(a, config.preset, Options.of(config))
    gb, raw_b, meta_b = _as_graph(b, config.preset, Options.of(config))
    meta = dict(meta_b)
    meta.update(meta_a)
    meta.update(metadata or {})
    score = scorer.score_pair(ga, gb, index, id if id is not None else meta.get("id"))
    rewrite = get_preset(config.preset).pair_rewrite
    if rewrite is not None:  # the scorer explains the rewritten graphs (smatchpp18-lossy)
        ga, gb = rewrite(ga, gb)
        raw_a = raw_b = None
    problem = compile_pair(ga, gb, scorer.matcher, buckets=config.sentence_buckets)
    alignment = np.full(len(ga.variables), -1, dtype=np.int64)
    index_b = {v: j for j, v in enumerate(gb.variables)}
    index_a = {v: i for i, v in enumerate(ga.variables)}
    for va, vb in score.alignment:
        alignment[index_a[va]] = index_b[vb]
    climber = HillClimber(seed=config.seed, restarts=config.restarts).solve(problem)
    hc_alignment = np.asarray(climber.alignment, dtype=np.int64)
    return Explanation(score, ga, gb, alignment, triple_match(ga, gb, alignment),
                       hc_alignment,
                       float(climber.objective) * getattr(scorer.matcher, "scale", 1.0),
                       triple_match(ga, gb, hc_alignment),
                       hc_label(config.seed, config.restarts), raw_a, raw_b, meta,
                       getattr(scorer.matcher, "name", "exact"),
                       soft_pairs(ga, gb, alignment, concept_similarity(scorer.matcher)))


def explain_entries(entries_a: Sequence[Entry], entries_b: Sequence[Entry], config=None,
                    indices: Sequence[int] | None = None, workers: int = 1,
                    progress: bool = False) -> list[Explanation]:
    """Explain the pairs ``indices`` (default: all) of two parallel entry lists.

    Unreadable graphs follow ``config.on_error`` as in scoring (``skip``: the pair
    is left out).  The order of the result follows ``indices``; it does not
    depend on ``workers``.
    """
    return list(iter_explanations(entries_a, entries_b, config, indices, workers, progress))


def iter_explanations(entries_a: Sequence[Entry], entries_b: Sequence[Entry], config=None,
                      indices: Sequence[int] | None = None, workers: int = 1,
                      progress: bool = False) -> Iterator[Explanation]:
    """:func:`explain_entries`, each explanation as soon as it and those before it are done
    (an interrupt keeps them; the workers end at once)."""
    from ..api import Config, Scorer, progress_bar
    from ..running.executor import Work, stream

    scorer = Scorer(config or Config())
    chosen = range(len(entries_a)) if indices is None else indices
    items = []
    for k in chosen:
        ea, eb = entries_a[k], entries_b[k]
        errors = [e.error for e in (ea, eb) if e.error is not None]
        if errors and scorer.config.on_error == "raise":
            raise errors[0]
        if errors and scorer.config.on_error == "skip":
            continue
        meta = dict(eb.metadata)
        meta.update(ea.metadata)
        items.append((ea.index, ea.id or eb.id, ea.graph or EMPTY, eb.graph or EMPTY, meta))
    bar = progress_bar(len(items), progress)
    chunk = max(1, min(32, len(items) // (max(workers, 1) * 8)))
    work = Work(run=_worker_explain, local=lambda item: _explain_item(scorer, item),
                setup=_init_worker, args=(scorer.config,))
    try:
        for e in stream(work, items, workers, chunk):
            bar.update(1)
            yield e
    finally:
        bar.close()


def _explain_item(scorer, item: tuple) -> Explanation:
    index, pid, a, b, meta = item
    return explain_pair(a, b, index=index, id=pid, metadata=meta, scorer=scorer)


def _init_worker(config):
    """A worker's state (:class:`~smatchpp.running.executor.Work`): its scorer."""
    from ..api import Scorer

    return Scorer(config)


def _worker_explain(scorer, item: tuple) -> Explanation:
    return _explain_item(scorer, item)


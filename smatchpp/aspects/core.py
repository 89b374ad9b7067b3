"""Aspect scores: the machinery every aspect set uses (scorer, corpus sums, intervals, notes).

The sets are modules of their own, found through the registry
(:mod:`smatchpp.aspects.registry`): Damonte et al.'s (:mod:`smatchpp.aspects.damonte`),
smatchpp 1.8's (:mod:`smatchpp.aspects.smatchpp18`) and the thesis' (:mod:`smatchpp.aspects.thesis`).
Every aspect follows one protocol (:mod:`smatchpp.aspects.base`): a
:class:`~smatchpp.aspects.base.GraphAspect` is Smatch on a graph of each side, which
:class:`AspectScorer` aligns; an :class:`~smatchpp.aspects.base.UnalignedAspect` is counted
from each graph's features alone.

The two modes, ``separate`` and ``joint``, are described in :mod:`smatchpp.aspects.damonte`.

Every aspect yields per-pair sufficient statistics ``(matched, upper, test,
gold)``, so corpus scores are micro averages of summed counts, as in
``amr-evaluation``.  The names of the sets' modules that callers used from here before
(``ASPECTS``, ``SetAspect``, ``damonte_triples``, ``aspect_list``, ...) are importable from
here too.

>>> from smatchpp.graphs.read import read_text
>>> a = read_text('(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))')[0].graph
>>> b = read_text('(w / want-02 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (c / cat)))')[0].graph
>>> counts = score_aspects(a, b)
>>> counts["concepts"]                 # want-01 != want-02, boy and go-02 match
AspectCount(matched=2, upper=2, test=3, gold=4)
>>> counts["negations"], counts["reentrancies"].test
(AspectCount(matched=0, upper=0, test=1, gold=0), 6)
>>> counts["no_wsd"].matched - counts["smatch"].matched   # want-01 ~ want-02 without senses
1.0
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from typing import Any, Callable, Literal

import numpy as np

from ..alignment.compile import compile_pair
from ..alignment.config import ASPECT_MODES, ASPECT_SETS
from ..alignment.matchers import ExactMatcher, TripleMatcher
from ..alignment.matching import count_matched
from ..alignment.score import PairScore
from ..graphs.read import RawGraph
from ..graphs.triples import EMPTY, TripleGraph
from ..presets import standardize
from .base import EMPTY_RAW, Aspect, AspectCount, GraphAspect, UnalignedAspect, aspect_scores
from .damonte import ASPECTS, DTriple, SetAspect, TransformAspect, damonte_triples
from .registry import aspect_list, aspect_rank, aspect_title

__all__ = ["AspectCount", "Aspect", "GraphAspect", "UnalignedAspect", "SetAspect", "TransformAspect",
           "ASPECTS", "MODES", "SETS", "AspectMode", "aspect_list", "aspect_title", "aspect_intervals",
           "aspect_scores", "AspectScorer", "score_aspects", "damonte_triples", "DTriple",
           "corpus_aspects", "aspect_notes", "aspect_summary", "solver_function"]

AspectMode = Literal["separate", "joint"]
MODES = tuple(m for m in ASPECT_MODES if m != "none")
#: the built-in aspect sets' names (``--aspects``); the registry (:mod:`smatchpp.aspects.registry`)
#: finds them and the installed packages'
SETS = ASPECT_SETS


def aspect_intervals(pairs: Sequence[Mapping[str, AspectCount]], resamples: int, seed: int,
                     level: float = 0.95) -> dict[str, dict[str, Any]]:
    """Each aspect's percentile bootstrap intervals of micro and macro F1.

    The resampled rows are :func:`smatchpp.statistics.significance.index_chunks`' (the main score's
    for the same seed).  A row's micro F1 is that of its summed (reported, lower-bound)
    counts, its macro F1 the mean of its pairs' F1; an aspect empty on both sides scores
    its ``vacuous`` value in both, as in the point estimates (pairs and rows with no items
    are left out for Damonte's set, whose ``vacuous`` is n/a).  The resampling is the
    metric interface's (:func:`smatchpp.statistics.significance.bootstrap_scores`, which
    ``bootstrap_metric`` runs) on :func:`aspect_scores`, so an aspect metric's intervals
    are these.

    >>> one, empty = AspectCount(1, 1, 1, 1, vacuous=1.0), AspectCount(0, 0, 0, 0, vacuous=1.0)
    >>> aspect_intervals([{"CAUSE": one}, {"CAUSE": empty}], 200, 1)["CAUSE"]["micro_f1"]
    [1.0, 1.0]
    """
    from ..statistics.significance import bootstrap_scores

    out: dict[str, dict[str, Any]] = {}
    if not pairs:
        return out
    for name in pairs[0]:
        counts = [p[name] for p in pairs]
        stats = np.array([(c.matched, c.upper, c.test, c.gold) for c in counts], dtype=np.float64)
        micro, macro = bootstrap_scores(partial(aspect_scores, vacuous=counts[0].vacuous), stats,
                                        resamples, seed, level)
        out[name] = {"micro_f1": None if np.isnan(micro["f1"][0]) else list(micro["f1"]),
                     "macro_f1": None if np.isnan(macro["f1"][0]) else list(macro["f1"])}
    return out


class AspectScorer:
    """Scores every aspect of a pair.

    ``solve(a, b, warm_start)`` aligns two :class:`TripleGraph` objects and
    returns ``(matched, upper, alignment)``; the default is the ``exact``
    solver on the exact matcher.  ``standardizer`` turns a transformed raw
    graph into triples (the run's preset; smatch's by default).  In
    ``separate`` mode a graph aspect starts from the full graphs' alignment,
    and is not solved at all when that alignment already reaches ``bound``
    (an upper bound on the aspect's matches; the label-count bound).
    """

    def __init__(self, mode: AspectMode = "separate",
                 solve: Callable[..., tuple[float, float, np.ndarray]] | None = None,
                 standardizer: Callable[[RawGraph], TripleGraph] = standardize,
                 aspects: Iterable[str] | None = None,
                 bound: Callable[[TripleGraph, TripleGraph], float] = ExactMatcher().label_bound,
                 aspect_set: str = "damonte", frames: str | None = None,
                 vectors: str | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown aspect mode {mode!r}; choose from {', '.join(MODES)}")
        self.mode = mode
        self.solve = solve or solver_function()
        self.bound = bound
        self.standardizer = standardizer
        self.aspects = aspect_list(aspect_set, aspects, frames, vectors)

    @classmethod
    def for_scorer(cls, scorer: Any) -> "AspectScorer":
        """The aspects of a :class:`~smatchpp.api.Scorer`'s run: its mode, solver, limits and preset."""
        config = scorer.config

        def solve(a: TripleGraph, b: TripleGraph, warm_start: np.ndarray | None = None
                  ) -> tuple[float, float, np.ndarray]:
            result = scorer.solver.solve(compile_pair(a, b, scorer.matcher), config.time_limit, warm_start)
            return result.objective, result.upper_bound, result.alignment

        return cls(config.aspects, solve,
                   lambda raw: standardize(raw, config.preset, keep_wiki=config.keep_wiki),
                   bound=scorer.matcher.label_bound,
                   aspect_set=config.aspect_set, frames=config.propbank_frames,
                   vectors=config.vectors)

    def attach(self, score: Any, raw_a: RawGraph | None, raw_b: RawGraph | None) -> None:
        """Score the aspects of a scored pair (a :class:`~smatchpp.alignment.score.PairScore`) into it."""
        began = time.perf_counter()
        score.aspects = self.score(raw_a, raw_b, (score.matched, score.upper, score.test_triples,
                                                  score.gold_triples, score.alignment))
        score.stats["aspects_seconds"] = round(time.perf_counter() - began, 6)

    def score(self, raw_a: RawGraph | None, raw_b: RawGraph | None,
              main: tuple[float, float, int, int, Sequence[tuple[str, str]]] | None = None
              ) -> dict[str, AspectCount]:
        """Every aspect of the pair ``raw_a`` (test) vs ``raw_b`` (gold).

        ``main`` is the run's own result for the full graphs: ``(matched, upper,
        test, gold, alignment as (name in A, name in B) pairs)``; without it the
        full graphs are standardized and solved here.  The ``smatch`` aspect is
        that result, and ``joint`` mode uses its alignment.
        """
        raw_a, raw_b = raw_a or EMPTY_RAW, raw_b or EMPTY_RAW
        if main is None:
            ga, gb = self._std(raw_a), self._std(raw_b)
            lower, upper, alignment = self.solve(ga, gb)
            names = [(ga.variables[i], gb.variables[j]) for i, j in enumerate(alignment.tolist()) if j >= 0]
            main = (lower, upper, ga.n_triples, gb.n_triples, names)
        lower, upper, test, gold, names = main
        full = dict(names)
        out: dict[str, AspectCount] = {}
        for aspect in self.aspects:
            if aspect.main:  # the run's own score
                count = AspectCount(lower, upper, test, gold)
            elif aspect.aligned:
                count = self._graph(aspect, raw_a, raw_b, full)
            elif self.mode == "joint":
                count = aspect.joint(raw_a, raw_b, full)
            else:
                count = aspect.count(aspect.features(raw_a), aspect.features(raw_b))
            if aspect.vacuous is not None:
                count = replace(count, vacuous=aspect.vacuous)
            out[aspect.name] = count
        return out

    def _std(self, raw: RawGraph) -> TripleGraph:
        return self.standardizer(raw) if raw.variables else EMPTY

    def _graph(self, aspect: GraphAspect, raw_a: RawGraph, raw_b: RawGraph,
               full: Mapping[str, str]) -> AspectCount:
        ga = aspect.graph(raw_a, self.standardizer) if raw_a.variables else EMPTY
        gb = aspect.graph(raw_b, self.standardizer) if raw_b.variables else EMPTY
        # the full graphs' alignment, restricted to the aspect's variables
        index_b = {v: j for j, v in enumerate(gb.variables)}
        alignment = np.array([index_b.get(full.get(v, ""), -1) for v in ga.variables], dtype=np.int64)
        joint = count_matched(ga, gb, alignment)
        if self.mode == "joint":
            return AspectCount(joint, joint, ga.n_triples, gb.n_triples)
        if not ga.n_triples or not gb.n_triples or joint >= self.bound(ga, gb):
            # nothing to match, or the full alignment already reaches the label-count bound
            return AspectCount(joint, joint, ga.n_triples, gb.n_triples)
        lower, upper, _ = self.solve(ga, gb, alignment)
        return AspectCount(lower, upper, ga.n_triples, gb.n_triples)


def solver_function(solver: str = "exact", time_limit: float | None = None, seed: int = 1,
                    restarts: int = 4, compression: bool = True,
                    matcher: TripleMatcher | None = None
                    ) -> Callable[..., tuple[float, float, np.ndarray]]:
    """``solve(a, b, warm_start=None) -> (matched, upper, alignment)`` with one of
    :data:`smatchpp.alignment.solvers.SOLVERS`."""
    from ..alignment.solvers import get_solver

    engine = get_solver(solver, seed, restarts, compression=compression)

    def solve(a: TripleGraph, b: TripleGraph, warm_start: np.ndarray | None = None
              ) -> tuple[float, float, np.ndarray]:
        result = engine.solve(compile_pair(a, b, matcher), time_limit, warm_start)
        return result.objective, result.upper_bound, result.alignment

    return solve


def score_aspects(raw_a: RawGraph | None, raw_b: RawGraph | None, mode: AspectMode = "separate",
                  **solver: Any) -> dict[str, AspectCount]:
    """Every aspect of one pair, solving the full graphs too (keywords go to :func:`solver_function`)."""
    return AspectScorer(mode, solver_function(**solver)).score(raw_a, raw_b)


def corpus_aspects(pairs: Iterable[Mapping[str, AspectCount]]) -> dict[str, AspectCount]:
    """Summed counts per aspect over pairs (micro averaging), in :data:`ASPECTS` order.

    >>> corpus_aspects([{"srl": AspectCount(1, 1, 2, 3)}, {"srl": AspectCount(2, 3, 2, 2)}])
    {'srl': AspectCount(matched=3, upper=4, test=4, gold=5)}
    """
    total: dict[str, AspectCount] = {}
    for pair in pairs:
        for name, count in pair.items():
            total[name] = total[name] + count if name in total else count
    return {n: total[n] for n in sorted(total, key=aspect_rank)}


def aspect_notes(scores: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """What the reader of the aspect table must know to compare its rows (``scores``: the
    ``to_json()`` of each aspect).  Unlabeled counts more triples than Smatch when the
    graphs have inverted roles onto constants (module docstring):

    >>> s = {"smatch": AspectCount(5, 5, 8, 9).to_json(), "unlabeled": AspectCount(6, 6, 9, 9).to_json()}
    >>> print(*aspect_notes(s))  # doctest: +NORMALIZE_WHITESPACE
    Unlabeled counts 9 test / 9 gold triples against Smatch's 8 / 9: a role onto a constant
    that smatch 1.0.4 drops as inverted (:mod 1, :ARG0-of "x") is kept once relabelled as :label,
    as in amr-evaluation
    >>> aspect_notes({"smatch": s["smatch"], "unlabeled": AspectCount(6, 6, 8, 9).to_json()})
    []
    """
    smatch, unlabeled = scores.get("smatch"), scores.get("unlabeled")
    if not smatch or not unlabeled or (smatch["test"], smatch["gold"]) == (unlabeled["test"], unlabeled["gold"]):
        return []
    return [f"Unlabeled counts {unlabeled['test']} test / {unlabeled['gold']} gold triples against "
            f"Smatch's {smatch['test']} / {smatch['gold']}: a role onto a constant that smatch 1.0.4 "
            "drops as inverted (:mod 1, :ARG0-of \"x\") is kept once relabelled as :label, "
            "as in amr-evaluation"]


def aspect_summary(pairs: Iterable["PairScore"], config: Any) -> dict[str, Any] | None:
    """The aspects of a corpus summary (``summary()["aspects"]``): summed counts, macro F1 and
    notes of the pairs that carry aspect scores, or ``None`` when none does.  ``config``: the
    :class:`~smatchpp.alignment.config.Config` they were scored with (its mode and set are named)."""
    scored = [p.aspects for p in pairs if p.status != "skipped" and p.aspects is not None]
    if not scored:
        return None
    mode = config.aspects if config.aspects != "none" else ""
    aspect_set = config.aspect_set if mode and config.aspect_set != "damonte" else None
    scores = {name: count.to_json() for name, count in corpus_aspects(scored).items()}
    # the set is named when it is not Damonte's (whose outputs predate sets)
    named = {"set": aspect_set} if aspect_set else {}
    # macro F1: the mean of the pairs' F1 (pairs with no items on either side left out,
    # unless the set scores them as vacuous agreement)
    macro = {}
    for name in scores:
        f1s = [f for f in (p[name].to_json()["f1"] for p in scored if name in p) if f is not None]
        macro[name] = sum(f1s) / len(f1s) if f1s else None
    return {**named, "mode": mode, "scores": scores, "macro_f1": macro, "notes": aspect_notes(scores)}

"""The alignment family's per-pair core: compile a standardized pair under a Config's matcher,
solve it with the Config's solver, and give its certified :class:`~smatchpp.alignment.score.PairScore`.

:class:`PairAligner` is the one place that does this.  :class:`smatchpp.api.Scorer` (and
through it ``score``, ``compare``, ``gap``, ``matrix``, ``search`` and ``explain``) and the
``smatch`` metric (:mod:`smatchpp.metrics.alignment`) both score a pair here, so their
numbers cannot drift apart.  It knows nothing of corpora: the corpus budget
(``total_time_limit``), the workers and the aspects stay with the Scorer.

>>> from smatchpp.alignment.config import Config
>>> from smatchpp.presets import standardize
>>> from smatchpp.presets.graph import read_one_graph
>>> a, b = (standardize(read_one_graph(s), "smatch") for s in
...         ("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))"))
>>> core = PairAligner(Config())
>>> s = core.score(a, b)
>>> s.matched, s.upper, s.test_weight, s.gold_weight, s.status
(3.0, 3.0, 4.0, 4.0, 'optimal')
>>> core.label_bound(a, b)  # cheap (no problem is compiled), and an upper bound only
4.0
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Iterable

import numpy as np

from .compile import compile_pair
from .config import Config
from .matchers import TripleMatcher, build_matcher
from ..presets import get_preset
from .problem import Problem
from .score import PairScore
from .sentences import as_written, coref_counts, coref_terms, lexicographic, restrict
from .solvers import get_solver
from .solvers.base import Budget, SolveResult, deadline_after, time_left
from ..graphs.triples import TripleGraph

__all__ = ["PairAligner", "pairs_of_optima"]


def pairs_of_optima(problem: Problem, optimum: float, time_limit: float | None = None,
                    work_limit: int | None = None) -> np.ndarray:
    """A mask of ``problem``'s candidate pairs that keeps every pair of every alignment worth
    ``optimum`` (its certified optimum): a pair is dropped when the LP relaxation's bound plus
    its reduced cost, a bound on every alignment using it
    (:class:`~smatchpp.alignment.solvers.highs.LpSolution`), is below ``optimum``.  All pairs when
    the LP gives no duals."""
    from .solvers.highs import solve_lp  # HiGHS: only when asked

    lp = solve_lp(problem, time_limit=time_limit, budget=Budget(work_limit)) if problem.n_pairs else None
    if lp is None:
        return np.ones(problem.n_pairs, dtype=bool)
    return lp.bound + np.minimum(lp.reduced, 0.0) >= optimum - 1e-6


class PairAligner:
    """Scores standardized graph pairs under one :class:`Config` (its matcher and solver).

    ``matcher`` overrides the matcher ``config.match`` names (a matcher that is not
    registered, for experiments).
    """

    def __init__(self, config: Config, matcher: TripleMatcher | None = None) -> None:
        self.config = config
        self.matcher = matcher or build_matcher(config)
        self.solver = get_solver(config.solver, config.seed, config.restarts,
                                 compression=config.compression != "none",
                                 work_limit=config.work_limit)

    @property
    def scale(self) -> float:
        """What the matcher's compiled weights are multiplied by to give the weights as given
        (a power of two: :class:`~smatchpp.alignment.matchers.general.WeightedMatcher` ``.scale``)."""
        return getattr(self.matcher, "scale", 1.0)

    def prepare(self, concept_pairs: Iterable[tuple[Iterable[str], Iterable[str]]]) -> None:
        """Let a soft matcher compute, once, the concept similarities of ``concept_pairs``
        (``(concepts of A, concepts of B)`` of every pair to come); others need nothing."""
        similarity = getattr(self.matcher, "similarity", None)
        if similarity is not None and hasattr(similarity, "prepare"):
            similarity.prepare(concept_pairs)

    def rewrite(self, a: TripleGraph, b: TripleGraph) -> tuple[TripleGraph, TripleGraph]:
        """The pair as it is compared: the preset's pair rewrite (smatchpp 1.8's
        concept-as-identity, preset ``smatchpp18-lossy``), if any."""
        rewrite = get_preset(self.config.preset).pair_rewrite
        return rewrite(a, b) if rewrite is not None else (a, b)

    def compile(self, a: TripleGraph, b: TripleGraph) -> tuple[TripleGraph, TripleGraph, Problem]:
        """The pair after :meth:`rewrite`, and its :class:`Problem`."""
        a, b = self.rewrite(a, b)
        return a, b, compile_pair(a, b, self.matcher, self.config.tolerance,
                                  buckets=self.config.sentence_buckets)

    def solve(self, a: TripleGraph, b: TripleGraph, problem: Problem, began: float,
              time_limit: float | None, index: int = 0, id: str | None = None) -> PairScore:
        """Solve a pair :meth:`compile` gave (``began``: when compiling began, by
        ``time.perf_counter``; ``time_limit`` covers compiling too)."""
        compiled = time.perf_counter() - began
        if time_limit is not None:  # the limit covers compiling too
            time_limit = max(time_limit - compiled, 0.01)
        result = self.solver.solve(problem, time_limit)
        ties = None
        if self.config.coref_subscore and self.config.coref_ties == "max":
            left = None if time_limit is None else max(time_limit - (time.perf_counter() - began - compiled), 0.01)
            result, ties = self.most_coref(a, b, problem, result, left)
        status = result.status
        if status == "time_limit" and self.config.deterministic:
            status = "work_limit"  # the only budget that could stop it
        seconds = time.perf_counter() - began
        stats = {"vars_a": problem.n_a, "vars_b": problem.n_b,
                 "pairs_before": problem.n_pairs, "edges_before": problem.n_edges,
                 "compile_seconds": round(compiled, 6)}
        stats.update(result.stats)
        if ties is not None:
            stats["coref_ties"] = ties
        alignment = [(a.variables[i], b.variables[j])
                     for i, j in enumerate(result.alignment.tolist()) if j >= 0]
        coref = (coref_counts(as_written(a), as_written(b), alignment)
                 if self.config.coref_subscore else None)
        # a weighted matcher compiles its weights divided by a power of two (exact): back to
        # the weights as given (WeightedMatcher.scale)
        scale = self.scale
        return PairScore(index, id, result.objective * scale, result.upper_bound * scale,
                         a.n_triples, b.n_triples, status, self.config.solver, result.stage,
                         seconds, alignment, stats=stats, test_total=self.matcher.total(a) * scale,
                         gold_total=self.matcher.total(b) * scale,
                         tolerance=problem.certified_within * scale, coref=coref)

    def most_coref(self, a: TripleGraph, b: TripleGraph, problem: Problem, result: SolveResult,
                   time_limit: float | None) -> tuple[SolveResult, str]:
        """``result`` with, among the optimal alignments of ``problem``, one that matches the most
        coreference items (``--coref-ties max``), and whether that is ``proven``.

        A second solve of :func:`~smatchpp.alignment.sentences.lexicographic`'s problem by the same
        solver, warm-started from ``result``'s alignment: any alignment it returns is worth at least
        that start, so it keeps the certified optimum and matches at least as many coreference
        items; ``proven`` when that solve is certified too, ``not proven`` when a limit stopped it
        (the best alignment it found is kept), ``not run`` when ``result`` is not certified (its
        alignment is kept).  Before it, the pairs that no optimal alignment uses are dropped by
        the LP's reduced costs (every alignment using pair ``p`` is worth at most the LP bound
        plus ``p``'s reduced cost, :class:`~smatchpp.alignment.solvers.highs.LpSolution`): a pair
        whose bound is below the optimum cannot be in an optimal alignment."""
        if result.status != "optimal":
            return result, "not run"
        terms = coref_terms(a, b, buckets=self.config.sentence_buckets)
        if terms.most == 0:
            return result, "proven"
        deadline = deadline_after(time_limit)
        keep = pairs_of_optima(problem, result.objective, time_limit, self.config.work_limit)
        optimal_only = problem if keep.all() else restrict(problem, keep)
        # a pair dropped above that a coreference term names comes back worth its coreference
        # items only: an alignment using it is worth less than the optimum, as it is in problem
        lex, scale = lexicographic(optimal_only, terms)
        found = self.solver.solve(lex, time_left(deadline), warm_start=result.alignment)
        first = lex.objective(result.alignment)
        if lex.objective(found.alignment) < first or problem.objective(found.alignment) != result.objective:
            return result, "not proven"  # no better alignment (a solver keeps its start: not expected)
        stats = dict(result.stats, coref_ties_stage=found.stage)
        return (SolveResult(found.alignment, result.objective, result.upper_bound, result.status, result.stage,
                            stats), "proven" if found.status == "optimal" else "not proven")

    def score(self, a: TripleGraph, b: TripleGraph, index: int = 0, id: str | None = None,
              time_limit: float | None = None) -> PairScore:
        """Align ``a`` (test) to ``b`` (gold) and score the pair (``time_limit``: default
        ``config.time_limit``)."""
        began = time.perf_counter()
        limit = self.config.time_limit if time_limit is None else time_limit
        return self.solve(*self.compile(a, b), began, limit, index, id)

    def label_bound(self, a: TripleGraph, b: TripleGraph) -> float:
        """An upper bound on the pair's matched count (or weight) from its labels alone, without
        compiling: the bound every solve starts from (``Problem.label_bound``), in the
        weights as given.  A fractional bound gets a margin of 1e-9 of its value, so that
        rounding in its sum cannot put it below the solver's optimum."""
        a, b = self.rewrite(a, b)
        bound = self.matcher.label_bound(a, b)
        if a.free and b.free:  # triples without a variable match by label (compile_pair)
            bound += float(sum((Counter(a.free) & Counter(b.free)).values()))
        bound *= self.scale
        if getattr(self.matcher, "weighted", True):  # fractional weights
            bound += 1e-9 * max(1.0, abs(bound))
        return float(bound)

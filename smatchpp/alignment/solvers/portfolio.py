"""The default ``exact`` solver: hill-climb, bounds in increasing cost, compression, then MIP.

0. small problems (at most :data:`~.bnb.MAX_PAIRS` candidate pairs, most
   sentence pairs) are first searched by the compiled branch and bound
   (:mod:`.bnb`), which proves its answer or, after its node limit, hands
   its incumbent to the steps below as a warm start.  Its kernel has no
   ternary terms (DRS clauses; none in AMR): a problem with them is searched
   on its binary relaxation, whose proven bound bounds it too, and certified
   there when the alignment found is worth that bound; else the alignment and
   the bound go on to step 1 and, if nothing before certifies them, to the
   HiGHS MIP (:meth:`Portfolio._relaxed_search`); the LP of a big one is
   solved whole, not priced;
1. the hill-climber from its greedy start gives an alignment (lower bound
   ``L``); random restarts are not used: where the bounds below do not
   certify the greedy climb, the LP is cheaper than restarts and stronger;
2. the label-count bound, then the star (assignment) bound try to certify it;
3. exact compression (:mod:`smatchpp.alignment.compression.exact`) fixes forced pairs,
   solves assignment-only components and splits the rest into components;
4. per component: the star bound, then the LP relaxation (priced on big components,
   and cut by the rows of :mod:`.cuts` where pricing stops uncertified; then the
   LP's neighbourhood is solved for a better alignment: :meth:`Portfolio._neighbourhood`);
   if the LP does not certify ``L`` either, its reduced costs rule out every pair that cannot be
   in a solution better than ``L`` (compression rule 5), the rest is
   compressed again and each remaining component goes straight to the HiGHS MIP,
   warm-started with the climber's alignment, within what is left of the
   time limit.

The stage that closed the gap is recorded in :attr:`SolveResult.stage`
(for several components, the most expensive one).

>>> from smatchpp.api import compile_strings
>>> p = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> r = Portfolio().solve(p)
>>> r.status, r.objective, r.stage
('optimal', 3.0, 'branch_and_bound')
>>> Portfolio(bnb_max_pairs=0).solve(p).stage  # without it: the climb, then the star bound
'star_bound'
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Callable
from dataclasses import replace

import numpy as np

from ..compression.exact import compress
from ..problem import Alignment, Problem
from .base import Budget, Limits, SolveResult, certified
from .bnb import MAX_PAIRS as BNB_MAX_PAIRS, branch_and_bound
from .bounds import branch_star_bound, dense_assignment, lagrangian_star_bound, star_bound
from ..sentences import sentence_drop, sentence_parts
from .highs import HighsSolver, highs_time_limit, solve_lp
from .pricing import PRICING_MIN_PAIRS, PRICING_PASSES, PricedLp, priced_lp, restrict
from .hillclimber import climb

__all__ = ["Portfolio", "STAGES"]

#: stages in increasing cost
STAGES = ("label_bound", "star_bound", "branch_and_bound", "compression", "lp", "mip")

#: problems with fewer candidate pairs go to the LP without structural compression
#: (measured on BAMBOO: compressing them first costs more than it saves)
COMPRESS_MIN_PAIRS = 500
#: recompress after LP elimination only if it removes at least this share of pairs
DROP_SHARE = 0.1
#: a descent step that keeps more than this share of the last step's pairs becomes the last step
LAST_STEP_SHARE = 0.5
#: the fractional descent's first step below the upper bound (in matched weight;
#: one exactly matched triple weighs 1); it doubles after every uncertified step
FRACTION_STEP = 0.5
#: added to the LP reduced-cost bounds of fractional problems before they drop a
#: pair (the LP's float error; integral problems floor ``reach + 1e-6`` instead)
REACH_SLACK = 1e-6
#: with a time limit, components above this many pairs get no MIP: the interval
#: [incumbent, LP bound] is returned (without a limit the MIP always runs)
MIP_LIMIT_UNDER_DEADLINE = 60_000
#: with a time limit, problems with at least this many candidate pairs take
#: :meth:`Portfolio._solve_big` (without a limit nothing changes)
BIG_PAIRS = 100_000
#: estimated costs, in linear passes over the pairs (one pass: the row/column
#: star bound), of the steps that cannot stop midway; measured on a 70-sentence
#: Bio document (672,842 pairs, one pass 0.6 s): sparse star assignment 6,
#: compression 6, LP model build 8 and passing it to HiGHS 20-40 (plus HiGHS's
#: presolve, which its time limit does not stop; with 80 and with 60 passes, a
#: perturbed 70-sentence pair started the LP and overran a 60 s limit by 8-10 s)
BLOCK_START_PASSES = 4
#: the sparse star assignment: 11.6 passes on a 150-sentence Bio pair (3,039,331 pairs,
#: 6.7 s against 0.58 s), 7.3 on a 70-sentence one; with 8 it started 6 s before a 10 s
#: deadline and returned 2.4 s late
STAR_PASSES = 16
#: the branched star bound: two to five star assignments
BRANCH_PASSES = 20
#: the same two on a dense matrix (:func:`~.bounds.dense_assignment`): on a 150-sentence
#: Bio pair one row/column pass (mostly the pair potentials) took 3.6 s and the dense
#: assignment 1.1 s more (the sparse one 16.8 s), on a loaded machine
DENSE_STAR_PASSES = 3
DENSE_BRANCH_PASSES = 12
#: the split-improved star bound (:func:`~.bounds.lagrangian_star_bound`) starts if two of
#: its iterations fit (one: about a dense star assignment) and runs until the deadline
LAGRANGE_PASSES = 2 * DENSE_STAR_PASSES
LAGRANGE_ITERATIONS = 1_000
#: under a deadline the LP path of a big integral problem leaves the split-improved star
#: bound this many passes (about 64 of its iterations, the LP path's estimate once and a
#: half), but at most this share of the time left, for when it does not certify.  A priced
#: LP stopped by the deadline has a weak bound: on a 100-sentence Bio pair (1,288,047 pairs,
#: 60 s of CPU) 10 rounds took 50 s and the interval stayed at the star bound's 4,765, while
#: the split-improved bound alone gets 4,754, 4,741, 4,734 and 4,731 in 2, 4, 8 and 16 s
#: (``experiments/split_bound_trajectory.py``); with less time, no LP, it had ended at 4,741.
#: The share keeps the LP path half of a short deadline at least (the LP certified the
#: 100-sentence pair with merged names in 18 s of its 60); with a third, 40 s of CPU left
#: that first pair at [4728, 4732], where 20 s (no LP, all to the split bound) got 4730
LAGRANGE_RESERVE_PASSES = 64 * DENSE_STAR_PASSES
LAGRANGE_RESERVE_SHARE = 1 / 2
COMPRESS_PASSES = 8
LP_PASSES = 120
#: under a deadline, problems with more candidate pairs than this get no priced LP: the
#: split-improved star bound takes the time instead.  On a 150-sentence Bio pair (3,039,331
#: pairs) the priced LP ran 14 rounds in 48 s of CPU and its bound (14,477) stayed above
#: the star bound (7,346), while the split-improved star bound reaches 7,280 in the same time;
#: on a 100-sentence one with merged names (985,952 pairs) the LP certified in 20 s
LP_MAX_PAIRS_UNDER_DEADLINE = 2_000_000
#: the priced LP stops once its floored bound cannot fall further (``priced_lp``'s ``settle``)
SETTLE_LP = True
#: when an elimination step would be big, the priced LP goes on from where it stopped with
#: up to this many rounds of the cuts of :mod:`.cuts` (lp-doc100's first pair: 1597.009 ->
#: 1595.47, and the step of 82,264 pairs at 1596 is not needed)
CUT_ROUNDS = 10
#: ... called for by the elimination before a step that would keep more pairs than this
CUT_STEP_PAIRS = 30_000
#: ... and, once its cut rounds are over, priced out (``priced_lp``'s ``price_out``): where
#: its bound does not certify, its reduced costs make the big step's elimination, and only
#: a priced-out LP's are sharp.  On lp-doc100's second pair the settled continuation
#: stopped with extended bounds of 1440 and more (its reach useless), and the step at 1425
#: kept 47,416 pairs (a MIP of 23,292 pairs after compression, 10-15 s); priced out
#: (1425.25, 12 rounds, about 6 s) the step's MIP has 4,566 pairs (0.3-0.4 s)
CUT_PRICE_OUT = True
#: after a priced LP that does not certify, the problem restricted to the LP's support, the
#: incumbent and the pairs of reduced cost above minus this is solved exactly for a better
#: alignment (:meth:`Portfolio._neighbourhood`).  lp-doc100's second pair: 5,095 pairs,
#: the optimum 1424 in 1.2 s where the climb from the LP's rounding reached 1423 (0.3:
#: 12,521 pairs, 11 s, the same 1424)
NEIGHBOURHOOD_REDUCED = 0.1
#: ... if that restricted problem has fewer pairs than this (the plain path: no pricing)
NEIGHBOURHOOD_MAX_PAIRS = PRICING_MIN_PAIRS
#: the row/column star bound's cost per candidate pair before it is measured on the pair
#: (1.1 s for the 4,476,091 pairs of a 180-sentence Bio pair on a quiet machine): a big
#: problem gets it only if one such pass fits in the time compiling has left
PRIOR_SECONDS_PER_PAIR = 2.5e-7
#: limits that have expired: a climb under them takes its first start and stops
_EXPIRED = Limits(deadline=-math.inf)


class Portfolio:
    """Hill-climber + cheap bounds + compression + HiGHS MIP; see the module docstring."""

    name = "exact"

    def __init__(self, seed: int = 1, compression: bool = True, use_lp: bool = True,
                 mip: HighsSolver | None = None,
                 compress_min_pairs: int = COMPRESS_MIN_PAIRS,
                 drop_share: float = DROP_SHARE, work_limit: int | None = None,
                 bnb_max_pairs: int = BNB_MAX_PAIRS) -> None:
        self.seed = seed
        self.bnb_max_pairs = bnb_max_pairs
        self.compression = compression
        self.compress_min_pairs = compress_min_pairs
        self.drop_share = drop_share
        self.use_lp = use_lp
        self.work_limit = work_limit
        self.mip = mip or HighsSolver(symmetry=compression, work_limit=work_limit)

    def solve(self, problem: Problem, time_limit: float | None = None,
              warm_start: Alignment | None = None) -> SolveResult:
        return self.solve_within(problem, Limits.after(time_limit, Budget(self.work_limit)),
                                 warm_start)

    def solve_within(self, problem: Problem, limits: Limits,
                     warm_start: Alignment | None = None) -> SolveResult:
        """:meth:`solve` under ``limits`` (a deadline on any clock, a work budget).

        Every stage starts only while the limits hold and stops soon after they
        expire; the result is then the proven interval so far (status
        ``time_limit``).  Expired limits still give the greedy alignment and
        the label bound.
        """
        if limits.deadline is not None and problem.n_pairs >= BIG_PAIRS:
            return self._solve_big(problem, limits, warm_start)
        upper = problem.label_bound
        if problem.n_pairs <= self.bnb_max_pairs and not limits.expired():
            if problem.n_ternary:
                warm_start, upper, done = self._relaxed_search(problem, limits, warm_start)
                if done is not None:
                    return done
            else:
                # its nodes are branch-and-bound nodes: paid from the work budget
                left = limits.budget.left()
                found = branch_and_bound(problem, None if left is None else max(left, 1))
                limits.budget.spend(found.nodes if left is None else min(found.nodes, left))
                if found.complete:
                    return self._done(found.alignment, found.objective,
                                      "label_bound" if found.capped else "branch_and_bound")
                if warm_start is None or found.objective > problem.objective(warm_start):
                    warm_start = found.alignment
        # the bound so far: the label bound's, or the relaxed search's when it is lower
        bound_stage = "label_bound" if upper >= problem.label_bound else "branch_and_bound"
        # greedy start first: it is often optimal, and the bounds can tell
        alignment, lower = climb(problem, self.seed, 0, upper, warm_start, limits=limits)
        if certified(problem, lower, upper):
            return self._done(alignment, lower, bound_stage)
        if limits.expired():
            return _stopped(alignment, lower, upper, bound_stage)
        upper = min(upper, star_bound(problem, limits=limits))
        if certified(problem, lower, upper):
            return self._done(alignment, lower, "star_bound")
        if limits.expired():
            return _stopped(alignment, lower, upper, "star_bound")
        stats: Counter = Counter()
        result = self._solve_compressed(problem, alignment, upper, None, limits, stats)
        if result.objective < lower:  # cannot happen with exact parts; keep the climber's
            result.alignment, result.objective = alignment, lower
        result = _tighten(problem, result, upper)
        result.stats = dict(stats)
        return result

    def _relaxed_search(self, problem: Problem, limits: Limits, warm_start: Alignment | None
                        ) -> tuple[Alignment | None, float, SolveResult | None]:
        """The compiled branch and bound for a problem with ternary terms, which its kernel
        does not take: it searches :meth:`~smatchpp.alignment.problem.Problem.binary_relaxation`
        instead.  Every alignment is worth at least as much there, so the bound it proves
        (or the label bound it stops at) bounds this problem too; the alignment it returns
        is valued here, and certified if it meets that bound (a self-match, and most pairs
        whose optimum never takes two pairs of a ternary term without the third).
        Returns the warm start for the steps below, the bound, and the result if certified.
        """
        left = limits.budget.left()
        found = branch_and_bound(problem.binary_relaxation(), None if left is None else max(left, 1))
        limits.budget.spend(found.nodes if left is None else min(found.nodes, left))
        upper = min(problem.label_bound, found.upper)
        # a search stopped early proves only its cap, infinite for a problem without a label
        # bound (``Problem.from_terms``'s default): nothing to floor then
        if problem.integral and math.isfinite(upper):
            upper = math.floor(upper + 1e-6)
        value = problem.objective(found.alignment)
        if certified(problem, value, upper):
            return found.alignment, upper, self._done(found.alignment, value, "branch_and_bound")
        if warm_start is None or value > problem.objective(warm_start):
            warm_start = found.alignment
        return warm_start, upper, None

    def _solve_big(self, problem: Problem, limits: Limits,
                   warm_start: Alignment | None) -> SolveResult:
        """A big problem under a deadline: cheap steps first, each only if it fits.

        1. the row/column star bound, one linear pass; its time calibrates
           :attr:`Limits.seconds_per_pair`, the estimate every step that cannot
           stop midway must fit in (building and passing the LP of 672k pairs
           took 5-25 s, more than a short limit);
        2. the greedy start; on documents, the sentence-by-sentence start
           (:mod:`smatchpp.alignment.sentences`: sentences matched to sentences, each
           sentence pair solved on its own);
        3. the star bound branched on its heaviest variable (the document root;
           :func:`~smatchpp.alignment.solvers.bounds.branch_star_bound`), or the plain
           star assignment;
        4. the hill-climber refines the better start across sentences until the
           deadline (until the compression + LP estimate is left, when it fit
           before the climb: :meth:`Limits.reserving`), and the compressed LP,
           elimination and MIP path of :meth:`solve` follows if its estimate fits.
        """
        if not replace(limits, seconds_per_pair=PRIOR_SECONDS_PER_PAIR).affords(problem.n_pairs):
            # compiling has used the time (or nearly): the greedy alignment (it must be
            # had) and the label bound (free) are the answer; no bound is worth a pass now
            return self._expired_big(problem, warm_start)
        began = limits.clock()
        upper = min(problem.label_bound, star_bound(problem, assignment=False))
        limits.seconds_per_pair = max(limits.clock() - began, 0.0) / problem.n_pairs
        alignment: Alignment | None = None
        if (problem.sentence_a is not None and problem.sentence_b is not None
                and limits.affords(BLOCK_START_PASSES * problem.n_pairs)):
            alignment = self._sentence_start(problem, limits)
        if alignment is None or warm_start is not None:
            # the greedy start: linear, and the fallback when there are no sentences
            greedy, value = climb(problem, self.seed, 0, upper, warm_start, limits=_EXPIRED)
            if alignment is None or value > problem.objective(alignment):
                alignment = greedy
        lower = problem.objective(alignment)
        if certified(problem, lower, upper):
            return self._done(alignment, lower, "star_bound")
        # bounds before the climb: the climb uses whatever time they leave
        branched = math.inf
        dense = dense_assignment(problem.n_a, problem.n_b)
        if limits.affords((DENSE_BRANCH_PASSES if dense else BRANCH_PASSES) * problem.n_pairs):
            branched = branch_star_bound(problem, limits=limits)
            upper = min(upper, branched)
        if not math.isfinite(branched) and limits.affords(
                (DENSE_STAR_PASSES if dense else STAR_PASSES) * problem.n_pairs):
            upper = min(upper, star_bound(problem, limits=limits))
        # the LP path gets its turn: if its estimate fits now, the climb stops
        # early enough to leave it that much time (the climb alone rarely
        # closes a gap the bounds leave; the LP and elimination can)
        # (and the split-improved star bound keeps its reserve behind the LP path)
        reserve = 0.0
        if problem.integral:
            reserve = LAGRANGE_RESERVE_PASSES * problem.n_pairs
            if limits.seconds_per_pair > 0:
                reserve = min(reserve, LAGRANGE_RESERVE_SHARE * limits.time_left()
                              / limits.seconds_per_pair)
        lp_passes = (COMPRESS_PASSES + LP_PASSES) * problem.n_pairs + reserve
        lp_allowed = problem.n_pairs <= LP_MAX_PAIRS_UNDER_DEADLINE
        lp_fits = self.use_lp and lp_allowed and limits.affords(lp_passes)
        if not certified(problem, lower, upper) and not limits.expired():
            climb_limits = limits.reserving(lp_passes) if lp_fits else limits
            alignment, lower = climb(problem, self.seed, 0, upper, alignment, limits=climb_limits,
                                     greedy=False)
        if certified(problem, lower, upper):
            return self._done(alignment, lower, "star_bound")
        if not (lp_fits or (lp_allowed and limits.affords(lp_passes))):
            # no time for the LP: what is left improves the star bound's split instead
            # (every iterate is a valid bound; it runs until the limits expire)
            if problem.integral and limits.affords(LAGRANGE_PASSES * problem.n_pairs):
                upper = min(upper, lagrangian_star_bound(problem, limits, LAGRANGE_ITERATIONS,
                                                         lower=lower))
                if certified(problem, lower, upper):
                    return self._done(alignment, lower, "star_bound")
            return _stopped(alignment, lower, upper, "star_bound")
        stats: Counter = Counter()
        result = self._solve_compressed(problem, alignment, upper, None,
                                        limits.reserving(reserve), stats)
        if result.objective < lower:
            result.alignment, result.objective = alignment, lower
        result = _tighten(problem, result, upper)
        if (result.status != "optimal" and problem.integral
                and limits.affords(LAGRANGE_PASSES * problem.n_pairs)):
            # the LP path stopped short: its bound or the split-improved star bound, the better
            result = _tighten(problem, result, lagrangian_star_bound(
                problem, limits, LAGRANGE_ITERATIONS, lower=result.objective))
        result.stats = dict(stats)
        return result

    def _expired_big(self, problem: Problem, warm_start: Alignment | None) -> SolveResult:
        """A big problem whose time is gone: one start of the climber (``warm_start`` if
        given, else the greedy start) and the label bound, nothing else."""
        alignment, lower = climb(problem, self.seed, 0, problem.label_bound, warm_start,
                                 limits=_EXPIRED)
        if certified(problem, lower, problem.label_bound):
            return self._done(alignment, lower, "label_bound")
        return _stopped(alignment, lower, problem.label_bound, "label_bound")

    def _sentence_start(self, problem: Problem, limits: Limits) -> Alignment:
        """An alignment built sentence pair by sentence pair (see :mod:`smatchpp.alignment.sentences`)."""
        drop = sentence_drop(problem.pair_a, problem.pair_b, problem.unary,
                          problem.sentence_a, problem.sentence_b)
        chosen = np.zeros(problem.n_pairs, dtype=bool)
        # each sentence pair is small: solved exactly while the limits hold
        # (0.3 s for all 70 of a 70-sentence document), greedily after that
        for pairs, part in sentence_parts(problem, drop):
            chosen[pairs[part.selected(self.solve_within(part, limits).alignment)]] = True
        return problem.alignment_from_pairs(chosen)

    def _done(self, alignment: Alignment, value: float, stage: str) -> SolveResult:
        return SolveResult(alignment, value, value, "optimal", stage)

    def _solve_compressed(self, problem: Problem, alignment: Alignment, upper: float,
                          drop: np.ndarray | None, limits: Limits,
                          stats: Counter) -> SolveResult:
        """Compress (dropping ``drop``), solve every component, lift back.

        ``upper`` is a bound already known for ``problem`` (used when it is not split).
        """
        if limits.deadline is not None and not limits.affords(COMPRESS_PASSES * problem.n_pairs):
            lower = problem.objective(alignment)
            return _stopped(alignment, lower, upper, "star_bound")
        if not self.compression or (drop is None and problem.n_pairs < self.compress_min_pairs):
            # on small problems the LP below is as quick as compressing first
            return self._solve_part(problem, alignment, limits, stats, upper=upper)
        comp = compress(problem, drop)
        if drop is None:  # sizes after the structural rules (rule 5 is counted in _eliminate)
            part_stats = comp.stats()
            stats.update({k: part_stats[k] for k in (
                "components_before", "pairs_after", "edges_after", "components_after",
                "assignment_components", "pairs_fixed")})
        # after an LP elimination the LP has had its say: straight to the MIP
        results = [self._solve_part(part.problem, start, limits, stats, use_lp=drop is None)
                   for part, start in zip(comp.parts, comp.starts(alignment))]
        best, value, upper = comp.combine(results)
        done = all(r.status == "optimal" for r in results) or certified(problem, value, upper)
        stage = max((r.stage for r in results), key=STAGES.index, default="compression")
        return SolveResult(best, value, value if done else upper,
                           "optimal" if done else "time_limit", stage)

    def _solve_part(self, problem: Problem, alignment: Alignment, limits: Limits,
                    stats: Counter, use_lp: bool = True, upper: float | None = None) -> SolveResult:
        """Star bound, LP (and elimination by its reduced costs), then MIP on one component.

        ``upper``: a bound already known for ``problem``; without one the star bound is computed.
        """
        lower = problem.objective(alignment)
        if upper is None:
            # the assignment only if it fits (the row/column bound is one pass)
            passes = DENSE_STAR_PASSES if dense_assignment(problem.n_a, problem.n_b) else STAR_PASSES
            assignment = None if limits.affords(passes * problem.n_pairs) else False
            upper = star_bound(problem, assignment, limits=limits)
        if certified(problem, lower, upper):
            return self._done(alignment, lower, "star_bound")
        if self.use_lp and use_lp:
            lp = None
            if problem.n_pairs >= PRICING_MIN_PAIRS and not problem.n_ternary:
                # most pairs are zero in a big LP's solution: priced in as needed
                if not limits.exhausted and limits.affords(PRICING_PASSES * problem.n_pairs):
                    lp = priced_lp(problem, problem.selected(alignment), limits, limits.budget,
                                   lower=lower, settle=SETTLE_LP)
            elif not limits.exhausted and limits.affords(LP_PASSES * problem.n_pairs):
                lp = solve_lp(problem, time_limit=limits.time_left(), budget=limits.budget,
                              limits=limits)
            if lp is not None:
                value, reduced = lp.bound, lp.reduced
                upper = min(upper, math.floor(value + 1e-6) if problem.integral else value)
                if certified(problem, lower, upper):
                    return self._done(alignment, lower, "lp")
                # an LP solution is often nearly integral: round it greedily and climb.
                # A priced problem has had its greedy start climbed already (the climb
                # before the bounds): only the LP's start is new (on lp-doc100's first
                # pair the two climbs took 5.1 s, the greedy one found nothing better)
                rounded, value_r = climb(problem, self.seed, 0, upper, None, lp.x, limits,
                                         greedy=problem.n_pairs < PRICING_MIN_PAIRS)
                if value_r > lower:
                    alignment, lower = rounded, value_r
                    if certified(problem, lower, upper):
                        return self._done(alignment, lower, "lp")
                if problem.n_pairs >= PRICING_MIN_PAIRS:
                    alignment, lower = self._neighbourhood(problem, alignment, lower, lp.x,
                                                           reduced, limits, stats)
                    if certified(problem, lower, upper):
                        return self._done(alignment, lower, "lp")
                if self.compression:
                    tighten = None
                    if isinstance(lp, PricedLp) and lp.restricted is not None:
                        # it goes on from the last restricted LP, not solving it again
                        def tighten(lower: float) -> PricedLp | None:
                            return priced_lp(problem, lp, limits, limits.budget,
                                             lower=lower, settle=SETTLE_LP,
                                             cut_rounds=CUT_ROUNDS, price_out=CUT_PRICE_OUT)
                    # every solution using p is worth at most value + d_p
                    return self._eliminate(problem, alignment, lower, upper,
                                           value + np.minimum(reduced, 0.0), limits, stats,
                                           tighten)
        return self._mip(problem, alignment, lower, upper, limits, stats)

    def _neighbourhood(self, problem: Problem, alignment: Alignment, lower: float,
                       x: np.ndarray, reduced: np.ndarray, limits: Limits,
                       stats: Counter | None = None) -> tuple[Alignment, float]:
        """A better alignment, if any, from the pairs the LP points at (a primal heuristic).

        The problem restricted to the LP solution's support, the incumbent's pairs and the
        pairs whose reduced cost is above ``-NEIGHBOURHOOD_REDUCED`` is solved exactly
        (below :data:`NEIGHBOURHOOD_MAX_PAIRS` pairs); its optimum is an alignment of the
        whole problem, kept if it is better than ``alignment`` (worth ``lower``).
        """
        keep = (x > 1e-6) | problem.selected(alignment) | (reduced > -NEIGHBOURHOOD_REDUCED)
        kept = np.count_nonzero(keep)
        # a smaller problem each time: the solve below may come here again, on fewer pairs
        if kept >= min(NEIGHBOURHOOD_MAX_PAIRS, problem.n_pairs) or limits.expired():
            return alignment, lower
        sub, index = restrict(problem, keep)
        start = sub.alignment_from_pairs(problem.selected(alignment)[index])
        found = self.solve_within(sub, limits, start)
        if stats is not None:  # the work of the sub-solve, in the pair's statistics (--stats)
            stats["neighbourhood_pairs"] += sub.n_pairs
            stats["neighbourhood_mip_pairs"] += (found.stats or {}).get("mip_pairs", 0)
        chosen = np.zeros(problem.n_pairs, dtype=bool)
        chosen[index[sub.selected(found.alignment)]] = True
        better = problem.alignment_from_pairs(chosen)
        value = problem.objective(better)
        return (better, value) if value > lower else (alignment, lower)

    def _mip(self, problem: Problem, alignment: Alignment, lower: float, upper: float,
             limits: Limits, stats: Counter) -> SolveResult:
        """The HiGHS MIP, warm-started from ``alignment`` (worth ``lower``)."""
        if limits.exhausted or limits.expired() or (limits.deadline is not None
                                                    and problem.n_pairs > MIP_LIMIT_UNDER_DEADLINE):
            # HiGHS did not stop within the limit on models this size:
            # report the proven interval instead
            stats["skipped_mip_pairs"] += problem.n_pairs
            return SolveResult(alignment, lower, max(upper, lower), "time_limit", "lp")
        stats["mip_components"] += 1
        stats["mip_pairs"] += problem.n_pairs
        stats["mip_edges"] += problem.n_edges
        time_limit = None if limits.deadline is None else highs_time_limit(limits, problem.n_pairs)
        result = _tighten(problem, self.mip.solve(problem, time_limit, alignment,
                                                   limits.budget), upper)
        stats.update(result.stats)
        result.stage = "mip"
        return result

    def _eliminate(self, problem: Problem, alignment: Alignment, lower: float, upper: float,
                   reach: np.ndarray, limits: Limits, stats: Counter,
                   tighten: Callable[[float], PricedLp | None] | None = None) -> SolveResult:
        """Solve without the pairs that bounds rule out (compression rule 5), else the MIP.

        ``reach[p]`` bounds every solution that uses pair ``p``.  The descent
        picks targets ``T`` from ``upper`` down; a step drops the pairs with
        ``reach < T`` and solves the rest.  Every solution worth ``T`` or more
        avoids the dropped pairs, so the optimum without them is the optimum
        when it reaches ``T``; otherwise ``T`` (integral: ``T - 1``) is an
        upper bound.

        *Integral* problems take ``T = upper`` (after flooring ``reach``):
        each step certifies or lowers ``upper`` by one.  The first steps are
        small problems (on the first doc100 pair the LP bound's target keeps
        about 1% of the pairs); the step ``T = lower + 1`` is plain
        elimination against the incumbent, and a step that would keep most of
        that one's pairs becomes that step.

        *Fractional* problems (soft or weighted matching, certified within
        ``tol = problem.tolerance``) take ``T = upper - delta`` with ``delta``
        starting at :data:`FRACTION_STEP` and doubling after every step that
        does not certify, so a gap ``g`` takes about ``log2(g / FRACTION_STEP)``
        steps; the last step is ``T = lower + tol`` (plain elimination against
        the incumbent), taken as soon as ``T`` gets there or a step would keep
        more than :data:`LAST_STEP_SHARE` of its pairs.  Validity, with
        ``v`` the value a step's solve returns (the incumbent ``lower`` is
        then at least ``v``):

        * a pair is dropped only if ``reach + REACH_SLACK < T``
          (:data:`REACH_SLACK` absorbs the LP's float error in ``reach``), so
          every solution using it is worth less than ``T``; the incumbent's
          pairs are never dropped, so the solve finds ``v >= lower``;
        * the step's solve is optimal: the optimum without the dropped pairs is
          below ``v + tol``, so the global optimum is below ``max(v + tol, T)``.
          If ``T - lower <= tol`` that is at most ``lower + tol``: ``lower``
          is certified (this covers ``v >= T`` and the last step).  Else
          ``v + tol <= lower + tol < T`` and ``T`` is a proven upper bound:
          ``upper = min(upper, T)``;
        * the solve stopped early with its own bound ``u``: the global optimum
          is at most ``max(u, T)``, the descent stops there.

        Each target is below ``upper``, so every uncertified step lowers
        ``upper`` by at least ``delta``.

        ``tighten`` (a priced LP's continuation with the cuts of :mod:`.cuts`, given the
        incumbent's value) is called once, before the first step that would keep more than
        :data:`CUT_STEP_PAIRS` pairs: its bound lowers ``upper`` and each pair's reach is the
        smaller of the two (both are bounds).  On lp-doc50 the LP alone floors to the
        optimum and the steps stay small, so the cuts are not paid for there.  A step that rules out less than
        ``drop_share`` of the pairs does not pay for compressing: the whole
        problem goes to the MIP instead.
        """
        integral = problem.integral
        if integral:
            reach = np.floor(reach + 1e-6)
        else:
            reach = reach + REACH_SLACK
            keep = problem.selected(alignment)  # the incumbent's pairs
            delta = FRACTION_STEP
        stage, dropped = "lp", 0
        while not certified(problem, lower, upper) and not limits.expired():
            if integral:
                target = upper
                if (np.count_nonzero(reach >= target)
                        > LAST_STEP_SHARE * np.count_nonzero(reach >= lower + 1)):
                    target = lower + 1
                drop = reach < target
            else:
                last = lower + problem.tolerance
                target = max(upper - delta, last)
                if (target > last and np.count_nonzero(reach >= target)
                        > LAST_STEP_SHARE * np.count_nonzero(reach >= last)):
                    target = last
                drop = (reach < target) & ~keep
            if tighten is not None and problem.n_pairs - np.count_nonzero(drop) > CUT_STEP_PAIRS:
                cut, tighten = tighten(lower), None
                if cut is not None:
                    stats["cut_rows"] += cut.cuts
                    cut_reach = cut.bound + np.minimum(cut.reduced, 0.0)
                    reach = np.minimum(reach, np.floor(cut_reach + 1e-6) if integral
                                       else cut_reach + REACH_SLACK)
                    upper = min(upper, math.floor(cut.bound + 1e-6) if integral else cut.bound)
                    continue
            if np.count_nonzero(drop) < self.drop_share * problem.n_pairs:
                result = self._mip(problem, alignment, lower, upper, limits, stats)
                stage = max(stage, result.stage, key=STAGES.index)
                alignment, lower, upper = result.alignment, result.objective, result.upper_bound
                break
            stats["elimination_steps"] += 1
            dropped = int(np.count_nonzero(drop))
            result = self._solve_compressed(problem, alignment, upper, drop, limits, stats)
            stage = max(stage, result.stage, key=STAGES.index)
            if result.objective > lower:
                alignment, lower = result.alignment, result.objective
                if not integral:
                    keep = problem.selected(alignment)
            if result.status != "optimal":
                upper = min(upper, max(result.upper_bound, target - 1 if integral else target))
                break
            # the optimum reaches the target (then it is this one) or stays below it
            if integral:
                upper = min(upper, max(lower, target - 1))
            elif target <= lower + problem.tolerance:  # the same float sum as ``last``
                upper = lower  # below max(v + tol, target) <= lower + tol: certified
            else:
                upper, delta = min(upper, target), 2 * delta
        stats["pairs_dropped"] += dropped  # by the last step
        done = certified(problem, lower, upper)
        return SolveResult(alignment, lower, lower if done else max(upper, lower),
                           "optimal" if done else "time_limit", stage)


def _stopped(alignment: Alignment, lower: float, upper: float, stage: str) -> SolveResult:
    """The interval proven when the limits expired."""
    return SolveResult(alignment, lower, max(upper, lower), "time_limit", stage)


def _tighten(problem: Problem, result: SolveResult, upper: float) -> SolveResult:
    """Lower ``result``'s upper bound to ``upper`` (never below its objective); certify if met."""
    result.upper_bound = min(result.upper_bound, max(upper, result.objective))
    if certified(problem, result.objective, result.upper_bound):
        result.status, result.upper_bound = "optimal", result.objective
    return result


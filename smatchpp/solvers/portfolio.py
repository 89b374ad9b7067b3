"""The default ``exact`` solver: hill-climb, bounds in increasing cost, compression, then MIP.

1. the seeded hill-climber gives an alignment (lower bound);
2. the label-count bound, then the star (assignment) bound try to certify it;
3. exact compression (:mod:`smatchpp.compression.exact`) fixes forced pairs,
   solves assignment-only components and splits the rest into components;
4. per component: the star bound, then the LP relaxation, then the HiGHS MIP
   warm-started with the climber's alignment, within what is left of the
   time limit.

The stage that closed the gap is recorded in :attr:`SolveResult.stage`
(for several components, the most expensive one).

>>> from smatchpp.api import compile_strings
>>> p = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> r = Portfolio().solve(p)
>>> r.status, r.objective, r.stage
('optimal', 3.0, 'star_bound')
"""

from __future__ import annotations

import math
import time



from ..compression.exact import compress
from ..problem import Alignment, Problem
from .base import SolveResult, certified
from .bounds import star_bound
from .highs import HighsSolver, lp_bound
from .hillclimber import climb

__all__ = ["Portfolio", "STAGES"]

#: stages in increasing cost
STAGES = ("label_bound", "star_bound", "compression", "lp", "mip")

#: random restarts only pay off on problems up to this many candidate pairs
RESTART_LIMIT = 3000


class Portfolio:
    """Hill-climber + cheap bounds + compression + HiGHS MIP; see the module docstring."""

    name = "exact"

    def __init__(self, seed: int = 1, restarts: int = 4, compression: bool = True,
                 use_lp: bool = True, mip: HighsSolver | None = None) -> None:
        self.seed = seed
        self.restarts = restarts
        self.compression = compression
        self.use_lp = use_lp
        self.mip = mip or HighsSolver()

    def solve(self, problem: Problem, time_limit: float | None = None,
              warm_start: Alignment | None = None) -> SolveResult:
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        upper = problem.label_bound
        # greedy start first: it is often optimal, and the bounds can tell
        alignment, lower = climb(problem, self.seed, 0, upper, warm_start)
        if certified(problem, lower, upper):
            return self._done(alignment, lower, "label_bound")
        upper = min(upper, star_bound(problem))
        if certified(problem, lower, upper):
            return self._done(alignment, lower, "star_bound")
        if self.restarts and problem.n_pairs <= RESTART_LIMIT:
            alignment, lower = climb(problem, self.seed, self.restarts, upper, alignment)
            if certified(problem, lower, upper):
                return self._done(alignment, lower, "star_bound")
        if not self.compression:
            return self._solve_part(problem, alignment, lower, upper, deadline)
        comp = compress(problem)
        stats = comp.stats()
        if not comp.parts:
            best = comp.lift([])
            result = self._done(best, problem.objective(best), "compression")
            result.stats = stats
            return result
        chosen = problem.selected(alignment)
        results = []
        for part in comp.parts:
            sub = part.problem
            start = sub.alignment_from_pairs(chosen[part.pairs])
            results.append(self._solve_part(sub, start, sub.objective(start), math.inf, deadline))
        best = comp.lift([r.alignment for r in results])
        value = problem.objective(best)
        if value < lower:  # cannot happen with exact parts; keep the climber's if it does
            best, value = alignment, lower
        part_upper = comp.constant + sum(r.upper_bound for r in results)
        upper = min(upper, part_upper)
        done = all(r.status == "optimal" for r in results) or certified(problem, value, upper)
        stage = max((r.stage for r in results), key=STAGES.index)
        result = SolveResult(best, value, value if done else max(upper, value),
                             "optimal" if done else "time_limit", self.name, stage)
        result.stats = stats
        return result

    def _done(self, alignment: Alignment, value: float, stage: str) -> SolveResult:
        return SolveResult(alignment, value, value, "optimal", self.name, stage)

    def _solve_part(self, problem: Problem, alignment: Alignment, lower: float, upper: float,
                    deadline: float | None) -> SolveResult:
        """Star bound, LP, then MIP on one (component) problem."""
        stages = [("star_bound", star_bound)]
        if self.use_lp:
            stages.append(("lp", lambda p: lp_bound(p, time_limit=_left(deadline))))
        for stage, bound in stages:
            upper = min(upper, bound(problem))
            if certified(problem, lower, upper):
                return self._done(alignment, lower, stage)
        result = self.mip.solve(problem, _left(deadline), alignment)
        result.upper_bound = min(result.upper_bound, upper)
        if certified(problem, result.objective, result.upper_bound):
            result.status, result.upper_bound = "optimal", result.objective
        result.solver, result.stage = self.name, "mip"
        return result


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(deadline - time.perf_counter(), 0.01)




"""The default ``exact`` solver: hill-climb, then bounds in increasing cost, then MIP.

1. the seeded hill-climber gives an alignment (lower bound);
2. the label-count bound, then the star (assignment) bound, then the LP
   relaxation, are tried in turn; the first that meets the lower bound
   certifies it and the pair is done;
3. otherwise the HiGHS MIP runs, warm-started with the climber's alignment,
   within what is left of the time limit.

The stage that closed the gap is recorded in :attr:`SolveResult.stage`.

>>> from smatchpp.api import compile_strings
>>> p = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> r = Portfolio().solve(p)
>>> r.status, r.objective, r.stage
('optimal', 3.0, 'star_bound')
"""

from __future__ import annotations

import math
import time

from ..problem import Alignment, Problem
from .base import SolveResult, certified
from .bounds import star_bound
from .highs import HighsSolver, lp_bound
from .hillclimber import climb

__all__ = ["Portfolio"]


class Portfolio:
    """Hill-climber + cheap bounds + HiGHS MIP; see the module docstring."""

    name = "exact"

    def __init__(self, seed: int = 1, restarts: int = 4, use_lp: bool = True,
                 mip: HighsSolver | None = None) -> None:
        self.seed = seed
        self.restarts = restarts
        self.use_lp = use_lp
        self.mip = mip or HighsSolver()

    def solve(self, problem: Problem, time_limit: float | None = None,
              warm_start: Alignment | None = None) -> SolveResult:
        began = time.perf_counter()
        upper = problem.label_bound
        alignment, lower = climb(problem, self.seed, self.restarts, upper, warm_start)
        if certified(problem, lower, upper):
            return SolveResult(alignment, lower, lower, "optimal", self.name, "label_bound")
        stages = [("star_bound", star_bound)]
        if self.use_lp:
            stages.append(("lp", lp_bound))
        for stage, bound in stages:
            upper = min(upper, bound(problem))
            if certified(problem, lower, upper):
                return SolveResult(alignment, lower, lower, "optimal", self.name, stage)
        remaining = None if time_limit is None else max(time_limit - (time.perf_counter() - began), 0.01)
        result = self.mip.solve(problem, remaining, alignment)
        result.upper_bound = min(result.upper_bound, upper) if math.isfinite(upper) else result.upper_bound
        if certified(problem, result.objective, result.upper_bound):
            result.status, result.upper_bound = "optimal", result.objective
        result.solver, result.stage = self.name, "mip"
        return result

"""Run any solver on the exactly compressed problem (see :mod:`smatchpp.alignment.compression.exact`).

>>> from smatchpp.api import compile_strings
>>> from smatchpp.alignment.solvers.highs import HighsSolver
>>> p = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> r = Compressing(HighsSolver()).solve(p)
>>> r.objective, r.status, r.stats["pairs_before"]
(3.0, 'optimal', 3)
"""

from __future__ import annotations

from ..compression.exact import compress
from ..problem import Alignment, Problem
from .base import Budget, SolveResult, certified, deadline_after, time_left
from .formulation import MipSolver

__all__ = ["Compressing"]


class Compressing:
    """Wraps ``inner``: compress, solve each component with ``inner``, lift back.

    The components share one work budget (``inner.work_limit``).
    """

    def __init__(self, inner: MipSolver) -> None:
        self.inner = inner
        self.name = inner.name

    def solve(self, problem: Problem, time_limit: float | None = None,
              warm_start: Alignment | None = None) -> SolveResult:
        deadline = deadline_after(time_limit)
        comp = compress(problem)
        budget = Budget(self.inner.work_limit)
        results = []
        for part, start in zip(comp.parts, comp.starts(warm_start)):
            results.append(self.inner.solve(part.problem, time_left(deadline), start, budget))
        alignment, value, upper = comp.combine(results)
        statuses = {r.status for r in results} or {"optimal"}
        if certified(problem, value, upper):
            status, upper = "optimal", value
        elif "time_limit" in statuses:
            status = "time_limit"
        else:
            status = "heuristic"
        stage = results[0].stage if len(results) == 1 else ("compression" if not results else "mip")
        return SolveResult(alignment, value, upper, status, stage, comp.stats())

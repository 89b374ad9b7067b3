"""Run any solver on the exactly compressed problem (see :mod:`smatchpp.compression.exact`).

>>> from smatchpp.api import compile_strings
>>> from smatchpp.solvers.highs import HighsSolver
>>> p = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> r = Compressing(HighsSolver()).solve(p)
>>> r.objective, r.status, r.stats["pairs_before"]
(3.0, 'optimal', 3)
"""

from __future__ import annotations

from ..compression.exact import compress
from ..problem import Alignment, Problem
from .base import SolveResult, Solver, certified, deadline_after, time_left

__all__ = ["Compressing"]


class Compressing:
    """Wraps ``inner``: compress, solve each component with ``inner``, lift back."""

    def __init__(self, inner: Solver) -> None:
        self.inner = inner
        self.name = inner.name

    def solve(self, problem: Problem, time_limit: float | None = None,
              warm_start: Alignment | None = None) -> SolveResult:
        deadline = deadline_after(time_limit)
        comp = compress(problem)
        results = []
        for part, start in zip(comp.parts, comp.starts(warm_start)):
            results.append(self.inner.solve(part.problem, time_left(deadline), start))
        alignment, value, upper = comp.combine(results)
        statuses = {r.status for r in results} or {"optimal"}
        if certified(problem, value, upper):
            status, upper = "optimal", value
        elif "time_limit" in statuses:
            status = "time_limit"
        else:
            status = "heuristic"
        stage = results[0].stage if len(results) == 1 else ("compression" if not results else "mip")
        return SolveResult(alignment, value, upper, status, self.name, stage, comp.stats())

"""CBC backend through PuLP: the same MIP as HiGHS, as an independent cross-check.

>>> from smatchpp.api import compile_strings
>>> problem = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> CbcSolver().solve(problem).objective
3.0
"""

from __future__ import annotations

import numpy as np

from ..problem import Alignment, Problem
from .base import Budget, empty_alignment, solver_count
from .bounds import star_bound
from .formulation import MipSolver, Model, start_values

__all__ = ["CbcSolver"]


class CbcSolver(MipSolver):
    """Exact MIP with CBC (via PuLP), warm-started from ``warm_start`` if given."""

    name = "cbc"

    def _solve(self, model: Model, problem: Problem, time_limit: float | None,
               warm_start: Alignment | None, budget: Budget) -> tuple[Alignment, float]:
        import pulp  # imported here: only the cross-check needs it

        lp = pulp.LpProblem("smatch", pulp.LpMaximize)
        cols = [pulp.LpVariable(f"x{p}", cat=pulp.LpBinary) for p in range(model.n_x)]
        cols += [pulp.LpVariable(f"y{e}", lowBound=0, upBound=1) for e in range(model.n_y)]
        lp += pulp.lpSum(c * v for c, v in zip(model.cost.tolist(), cols))
        start, index, value = model.row_start, model.row_index.tolist(), model.row_value.tolist()
        for r in range(model.n_rows):
            s, e = int(start[r]), int(start[r + 1])
            lp += pulp.LpAffineExpression([(cols[index[k]], value[k]) for k in range(s, e)]) <= float(model.row_upper[r])
        if warm_start is not None:
            for col, v in zip(cols, start_values(problem, warm_start).tolist()):
                col.setInitialValue(v)
        cmd = pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit, gapRel=0.0,
                                gapAbs=0.999 if problem.integral else 0.5 * problem.tolerance,
                                warmStart=warm_start is not None, threads=1,
                                maxNodes=solver_count(budget.left()))
        budget.spend(budget.left() or 0)  # PuLP does not report CBC's node count: assume all used
        status = lp.solve(cmd)
        alignment = empty_alignment(problem)
        if lp.sol_status in (pulp.LpSolutionOptimal, pulp.LpSolutionIntegerFeasible):
            values = np.array([v.value() or 0.0 for v in cols[: model.n_x]])
            alignment = problem.alignment_from_pairs(values)
        proven = status == pulp.LpStatusOptimal and lp.sol_status == pulp.LpSolutionOptimal
        # PuLP does not expose CBC's dual bound: without a proof fall back to the star bound
        return alignment, problem.objective(alignment) if proven else star_bound(problem)


"""The LP-elimination descent on fractional objectives (``Portfolio._eliminate``).

Soft and weighted matchers (see ``test_matchers``) give small problems with
fractional coefficients; the brute-force oracle gives their optimum.  The
descent must return it, and every upper bound it holds on the way (recorded
at each step) and reports must stay at or above it.  Loosened bounds (the LP
bound and every reduced-cost bound plus a constant: still valid) force several
steps; a MIP that stops early (with an honest but loose bound) checks the
bound a step claims when its solve is not optimal.
"""

from __future__ import annotations

from collections import Counter
from unittest import mock

import numpy as np
from hypothesis import given, settings

from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.solvers import HighsSolver, Portfolio, portfolio
from smatchpp.alignment.solvers.base import Limits, SolveResult, empty_alignment
from smatchpp.alignment.solvers.highs import solve_lp
from hypothesis import strategies as st
from test_matchers import SMALL, _prepare, matchers, oracle
from strategies import graph_pairs

SETTINGS = settings(max_examples=80, deadline=None, derandomize=True)
#: added to the LP bound and to every pair's reduced-cost bound (valid, only looser)
LOOSEN = 4.0


class Recording(Portfolio):
    """A portfolio that records the upper bound it holds at every descent step."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.uppers: list[float] = []

    def _solve_compressed(self, problem, alignment, upper, drop, limits, stats):
        if drop is not None:
            self.uppers.append(upper)
        return super()._solve_compressed(problem, alignment, upper, drop, limits, stats)


class StoppedMip(HighsSolver):
    """A MIP that stops at once: the warm start and the (honest) label bound, uncertified."""

    def solve(self, problem, time_limit=None, warm_start=None, budget=None):
        start = empty_alignment(problem) if warm_start is None else warm_start
        value = problem.objective(start)
        return SolveResult(start, value, max(problem.label_bound, value), "time_limit", "mip")


def _fractional(args):
    pair, m, legacy = args
    a, b = _prepare(pair, legacy)
    problem = compile_pair(a, b, m)
    return problem, oracle(a, b, m)


def _descend(solver, problem, loosen=0.0):
    lp = solve_lp(problem)
    stats: Counter = Counter()
    start = empty_alignment(problem)
    result = solver._eliminate(problem, start, problem.objective(start), lp.bound + loosen,
                               lp.bound + np.minimum(lp.reduced, 0.0) + loosen, Limits(), stats)
    return result, stats


_CASES = st.tuples(graph_pairs(**SMALL), matchers(soft=True), st.booleans())


@SETTINGS
@given(_CASES)
def test_descent_returns_the_oracle_optimum_and_valid_bounds(args):
    problem, best = _fractional(args)
    if problem.integral:
        return
    for loosen in (0.0, LOOSEN):
        solver = Recording(drop_share=0.0)
        # no shortcut to the last step: every target is tried
        with mock.patch.object(portfolio, "LAST_STEP_SHARE", np.inf):
            result, stats = _descend(solver, problem, loosen)
        assert result.status == "optimal"
        assert abs(result.objective - best) < problem.tolerance
        assert abs(problem.objective(result.alignment) - result.objective) < 1e-9
        assert all(u >= best - 1e-9 for u in solver.uppers)
        assert solver.uppers == sorted(solver.uppers, reverse=True)
    # from the loosened bound the optimum is at least LOOSEN below every target
    # above it: targets upper - 0.5, - 1.5, - 3.5 all fail, the fourth step certifies
    assert stats["elimination_steps"] >= 4
    assert len(solver.uppers) == stats["elimination_steps"]
    # each failed step lowered the bound by the doubling step
    steps = -np.diff(solver.uppers[:4])
    assert np.allclose(steps, [0.5, 1.0, 2.0])


@SETTINGS
@given(_CASES)
def test_a_step_whose_solve_stops_early_claims_only_a_proven_bound(args):
    problem, best = _fractional(args)
    if problem.integral:
        return
    for loosen in (0.0, LOOSEN):
        solver = Portfolio(drop_share=0.0, mip=StoppedMip())
        result, stats = _descend(solver, problem, loosen)
        assert result.objective <= best + 1e-9
        assert abs(problem.objective(result.alignment) - result.objective) < 1e-9
        assert result.upper_bound >= best - 1e-9
        if result.status == "optimal":  # the star bound closed every part
            assert abs(result.objective - best) < problem.tolerance

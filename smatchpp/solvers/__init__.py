"""Solvers: every one takes a :class:`~smatchpp.problem.Problem` and returns a
:class:`~smatchpp.solvers.base.SolveResult`.  Pick one by name with :func:`get_solver`.

* ``exact`` (default): :class:`~.portfolio.Portfolio`, hill-climber + bounds + HiGHS MIP;
* ``highs``: the HiGHS MIP, warm-started by nothing;
* ``cbc``: the same MIP with CBC through PuLP;
* ``hillclimber``: the seeded hill-climber alone (a lower bound).
"""

from __future__ import annotations

from .base import SolveResult, Solver, Status
from .cbc import CbcSolver
from .highs import HighsSolver
from .hillclimber import HillClimber
from .portfolio import Portfolio

__all__ = ["SolveResult", "Solver", "Status", "get_solver", "SOLVERS",
           "Portfolio", "HighsSolver", "CbcSolver", "HillClimber"]

SOLVERS = ("exact", "highs", "cbc", "hillclimber")


def get_solver(name: str, seed: int = 1, restarts: int = 4) -> Solver:
    """The solver called ``name`` (one of :data:`SOLVERS`)."""
    if name == "exact":
        return Portfolio(seed=seed, restarts=restarts)
    if name == "highs":
        return HighsSolver()
    if name == "cbc":
        return CbcSolver()
    if name == "hillclimber":
        return HillClimber(seed=seed, restarts=restarts)
    raise ValueError(f"unknown solver {name!r}; choose from {', '.join(SOLVERS)}")

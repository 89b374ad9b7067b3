"""Solvers: every one takes a :class:`~smatchpp.problem.Problem` and returns a
:class:`~smatchpp.solvers.base.SolveResult`.  Pick one by name with :func:`get_solver`.

* ``exact`` (default): :class:`~.portfolio.Portfolio`, hill-climber + bounds + HiGHS MIP;
* ``highs``: the HiGHS MIP, warm-started by nothing;
* ``cbc``: the same MIP with CBC through PuLP;
* ``hillclimber``: the seeded hill-climber alone (a lower bound).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .base import Solver

__all__ = ["SolveResult", "Solver", "Status", "get_solver", "SOLVERS",
           "Portfolio", "HighsSolver", "CbcSolver", "HillClimber"]

SOLVERS = ("exact", "highs", "cbc", "hillclimber")

#: the solver classes by module, imported on first use (PEP 562): the names in :data:`SOLVERS`
#: are needed to build the command line, HiGHS and numba only to solve
_LAZY = {"SolveResult": "base", "Solver": "base", "Status": "base", "CbcSolver": "cbc",
         "Compressing": "compressed", "HighsSolver": "highs", "HillClimber": "hillclimber",
         "Portfolio": "portfolio"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def get_solver(name: str, seed: int = 1, restarts: int = 4, compression: bool = True,
               work_limit: int | None = None) -> "Solver":
    """The solver called ``name`` (one of :data:`SOLVERS`).

    With ``compression`` the problem is first reduced exactly and the MIP
    orders interchangeable variables (the hill-climber, a heuristic, always
    sees the whole problem); without it the MIP is the plain model.
    ``work_limit`` caps every LP's iterations and every MIP's branch-and-bound
    nodes, a budget that stops at the same place on every machine.
    """
    from .compressed import Compressing
    from .portfolio import Portfolio

    if name == "exact":
        return Portfolio(seed=seed, compression=compression, work_limit=work_limit)
    if name == "hillclimber":
        from .hillclimber import HillClimber

        return HillClimber(seed=seed, restarts=restarts)
    if name == "highs":
        from .highs import HighsSolver

        inner: "Solver" = HighsSolver(symmetry=compression, work_limit=work_limit)
    elif name == "cbc":
        from .cbc import CbcSolver

        inner = CbcSolver(symmetry=compression, work_limit=work_limit)
    else:
        raise ValueError(f"unknown solver {name!r}; choose from {', '.join(SOLVERS)}")
    return Compressing(inner) if compression else inner

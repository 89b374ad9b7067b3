"""Solvers: every one takes a :class:`~smatchpp.alignment.problem.Problem` and returns a
:class:`~smatchpp.alignment.solvers.base.SolveResult`.  Pick one by name with :func:`get_solver`.

* ``exact`` (default): :class:`~.portfolio.Portfolio`, hill-climber + bounds + HiGHS MIP;
* ``highs``: the HiGHS MIP, warm-started by nothing;
* ``cbc``: the same MIP with CBC through PuLP;
* ``hillclimber``: the seeded hill-climber alone (a lower bound).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ...core.settings import Settings, int_at_least, name_in, setting

if TYPE_CHECKING:
    from .base import Solver

__all__ = ["SolveResult", "Solver", "Status", "get_solver", "SOLVERS", "SolverSettings", "COMPRESSIONS",
           "Portfolio", "HighsSolver", "CbcSolver", "HillClimber"]

def _exact(seed: int, restarts: int, compression: bool, work_limit: int | None) -> "Solver":
    from .portfolio import Portfolio

    return Portfolio(seed=seed, compression=compression, work_limit=work_limit)


def _hillclimber(seed: int, restarts: int, compression: bool, work_limit: int | None) -> "Solver":
    from .hillclimber import HillClimber

    return HillClimber(seed=seed, restarts=restarts)  # a heuristic: it always sees the whole problem


def _mip(module: str, cls: str) -> Callable[..., "Solver"]:
    """A MIP solver (imported when first built), behind the exact compression unless it is off."""
    def build(seed: int, restarts: int, compression: bool, work_limit: int | None) -> "Solver":
        from .compressed import Compressing

        inner = getattr(importlib.import_module(f".{module}", __name__), cls)(
            symmetry=compression, work_limit=work_limit)
        return Compressing(inner) if compression else inner
    return build


#: solver name -> factory ``(seed, restarts, compression, work_limit) -> Solver`` (``Config.solver``,
#: ``--solver``; like :data:`smatchpp.alignment.matchers.MATCHERS`); a factory imports its solver when called
SOLVERS: dict[str, Callable[[int, int, bool, "int | None"], "Solver"]] = {
    "exact": _exact,
    "highs": _mip("highs", "HighsSolver"),
    "cbc": _mip("cbc", "CbcSolver"),
    "hillclimber": _hillclimber,
}

#: the compression methods: ``exact`` shrinks problems without changing the optimum, ``none``
#: solves them as compiled (smatchpp 1.8's lossy rewrite is the preset ``smatchpp18-lossy``)
COMPRESSIONS = ("exact", "none")


def _compression(value: Any) -> str | None:
    if value == "smatchpp":  # the name it had before it moved to the presets
        return ("'smatchpp' is no longer a compression method: smatchpp 1.8's lossy "
                "concept-as-identity rewrite is the preset 'smatchpp18-lossy' (a different metric); "
                "compression takes exact or none, which give the same optimum")
    return name_in(lambda: COMPRESSIONS, "compression")(value)


@dataclass(frozen=True)
class SolverSettings(Settings):
    """What the solvers read: which solver (:data:`SOLVERS`), the compression, and the
    hill-climber's seed and random restarts (when it is the solver, and in ``gap``)."""

    solver: str = setting("exact", "solver", check=name_in(lambda: SOLVERS, "solver"))
    compression: str = setting("exact", "compression", check=_compression)
    seed: int = setting(1, "seed", check=int_at_least(0))
    restarts: int = setting(4, "restarts", check=int_at_least(0))


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

    >>> get_solver("gurobi")
    Traceback (most recent call last):
    ...
    ValueError: unknown solver 'gurobi'; choose from exact, highs, cbc, hillclimber
    """
    if name not in SOLVERS:
        raise ValueError(f"unknown solver {name!r}; choose from {', '.join(SOLVERS)}")
    return SOLVERS[name](seed, restarts, compression, work_limit)

"""The one interface every solver implements, and the result it returns.

A solver takes a :class:`~smatchpp.problem.Problem` and returns a
:class:`SolveResult`: an alignment, its objective (a lower bound on the
optimum), a proven upper bound, and a status:

* ``optimal``: ``objective == upper_bound`` is proven;
* ``time_limit``: the time limit stopped the search; the optimum lies in
  ``[objective, upper_bound]``;
* ``heuristic``: no proof was attempted (the hill-climber alone); the upper
  bound is the cheapest valid one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal, Protocol

import numpy as np

from ..problem import Alignment, Problem

__all__ = ["Status", "SolveResult", "Solver", "certified", "deadline_after", "time_left"]

Status = Literal["optimal", "time_limit", "heuristic"]


@dataclass
class SolveResult:
    """What a solver found: see the module docstring."""

    alignment: Alignment
    objective: float
    upper_bound: float
    status: Status
    solver: str
    #: the stage that closed the gap (e.g. ``label_bound``, ``lp``, ``mip``)
    stage: str = ""
    #: sizes before and after compression, when compression ran
    stats: dict = field(default_factory=dict)


class Solver(Protocol):
    """Anything with a ``name`` and ``solve(problem, time_limit, warm_start)``."""

    name: str

    def solve(self, problem: Problem, time_limit: float | None = None,
              warm_start: Alignment | None = None) -> SolveResult: ...


def certified(problem: Problem, lower: float, upper: float) -> bool:
    """True if ``upper`` proves ``lower`` optimal (a gap < 1 suffices for integer objectives)."""
    gap = upper - lower
    return gap < (1.0 - 1e-6 if problem.integral else 1e-6)


def deadline_after(time_limit: float | None) -> float | None:
    """The ``perf_counter`` time at which ``time_limit`` seconds from now run out (or ``None``)."""
    return None if time_limit is None else time.perf_counter() + time_limit


def time_left(deadline: float | None) -> float | None:
    """Seconds left until ``deadline`` (at least 0.01, so a solver still returns), or ``None``."""
    return None if deadline is None else max(deadline - time.perf_counter(), 0.01)


def empty_alignment(problem: Problem) -> Alignment:
    """The alignment that maps nothing."""
    return np.full(problem.n_a, -1, dtype=np.int64)

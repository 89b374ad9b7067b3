"""The one interface every solver implements, and the result it returns.

A solver takes a :class:`~smatchpp.alignment.problem.Problem` and returns a
:class:`SolveResult`: an alignment, its objective (a lower bound on the
optimum), a proven upper bound, and a status:

* ``optimal``: ``objective == upper_bound`` is proven;
* ``time_limit``: a limit stopped the search; the optimum lies in
  ``[objective, upper_bound]`` (:class:`~smatchpp.api.Scorer` reports
  ``work_limit`` when only the deterministic work limit was set);
* ``heuristic``: no proof was attempted (the hill-climber alone); the upper
  bound is the cheapest valid one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Callable, Literal, Protocol

import numpy as np

from ..problem import Alignment, Problem

__all__ = ["Status", "SolveResult", "Solver", "Budget", "Limits", "certified", "deadline_after", "time_left",
           "SOLVER_COUNT_MAX", "solver_count"]

Status = Literal["optimal", "time_limit", "work_limit", "heuristic"]


@dataclass
class SolveResult:
    """What a solver found: see the module docstring."""

    alignment: Alignment
    objective: float
    upper_bound: float
    status: Status
    #: the stage that closed the gap (e.g. ``label_bound``, ``lp``, ``mip``)
    stage: str = ""
    #: sizes before and after compression, when compression ran
    stats: dict = field(default_factory=dict)


class Solver(Protocol):
    """Anything with a ``name`` and ``solve(problem, time_limit, warm_start)``."""

    name: str

    def solve(self, problem: Problem, time_limit: float | None = None,
              warm_start: Alignment | None = None) -> SolveResult: ...


class Budget:
    """A deterministic work budget shared by every stage of one solve.

    One unit is one LP iteration (simplex, interior point or PDLP) or one
    branch-and-bound node (HiGHS's, or :mod:`.bnb`'s).  Each call may use what
    is left and then pays what it used, as the solver counts it; the counts do not depend on the machine,
    so a solve under a work limit stops at the same place everywhere.  The
    hill-climber and the combinatorial bounds are not counted: they always
    run to the end, deterministically.

    >>> b = Budget(100)
    >>> b.spend(60); b.left(), b.exhausted
    (40, False)
    >>> b.spend(70); b.left(), b.exhausted
    (0, True)
    >>> Budget(None).left() is None
    True
    """

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self.used = 0

    def left(self) -> int | None:
        return None if self.limit is None else max(self.limit - self.used, 0)

    def spend(self, units: int) -> None:
        self.used += int(units)

    @property
    def exhausted(self) -> bool:
        return self.limit is not None and self.used >= self.limit


#: the largest count HiGHS and CBC take for an iteration or node limit (a C int): a larger
#: work budget is passed to them as this, and stays what it is for every other stage
SOLVER_COUNT_MAX = 2_147_483_647


def solver_count(units: int | None) -> int | None:
    """What is left of a work budget, as a solver's counter takes it (``None``: no limit).

    >>> solver_count(50), solver_count(10 ** 12), solver_count(None)
    (50, 2147483647, None)
    """
    return None if units is None else min(int(units), SOLVER_COUNT_MAX)


@dataclass
class Limits:
    """The limits of one solve: a wall-clock deadline and a work budget (either may be absent).

    ``clock`` is the clock the deadline is measured on (``time.perf_counter``;
    tests inject a fake one, so no test depends on how fast the machine is).
    Every stage asks :meth:`expired` before it starts and, where it loops, as
    it goes; a stage that finds the deadline passed returns the best it has.

    >>> t = [0.0]
    >>> limits = Limits(deadline=5.0, clock=lambda: t[0])
    >>> limits.expired(), limits.time_left()
    (False, 5.0)
    >>> t[0] = 6.0
    >>> limits.expired(), limits.time_left()
    (True, 0.01)
    >>> Limits().expired(), Limits().time_left() is None
    (False, True)
    """

    deadline: float | None = None
    budget: Budget = field(default_factory=Budget)
    clock: Callable[[], float] = time.perf_counter
    #: measured cost of one linear pass over one candidate pair (0 until measured):
    #: stages that cannot stop midway start only if their estimate fits (:meth:`affords`)
    seconds_per_pair: float = 0.0

    def affords(self, pair_passes: float) -> bool:
        """True if ``pair_passes`` linear passes over one pair, at the measured rate, fit in the time left.

        >>> limits = Limits(deadline=10.0, clock=lambda: 4.0, seconds_per_pair=1e-6)
        >>> limits.affords(5e6), limits.affords(7e6), Limits().affords(1e12)
        (True, False, True)
        """
        if self.expired():
            return False
        return self.deadline is None or self.clock() + self.seconds_per_pair * pair_passes <= self.deadline

    def reserving(self, pair_passes: float) -> "Limits":
        """These limits with the deadline moved earlier by ``pair_passes``'s estimated time.

        Shares the clock, the budget and the measured rate; a stage run under
        them leaves that time to the stages after it.

        >>> limits = Limits(deadline=10.0, clock=lambda: 4.0, seconds_per_pair=1e-6)
        >>> limits.reserving(3e6).deadline, limits.reserving(3e6).time_left()
        (7.0, 3.0)
        >>> Limits().reserving(1e12).deadline is None
        True
        """
        if self.deadline is None:
            return self
        return replace(self, deadline=self.deadline - self.seconds_per_pair * pair_passes)

    def time_left(self) -> float | None:
        """Seconds left (at least 0.01, so that a solver handed it still returns), or ``None``."""
        return None if self.deadline is None else max(self.deadline - self.clock(), 0.01)

    def expired(self) -> bool:
        """True once the deadline has passed.

        The work budget is checked separately (:attr:`exhausted`) by the HiGHS
        stages that pay from it; the hill-climber and the combinatorial bounds
        are not counted in it and are never cut short by it, so a solve under
        a work limit stays deterministic.
        """
        return self.deadline is not None and self.clock() >= self.deadline

    @property
    def exhausted(self) -> bool:
        """The work budget is used up (the deadline is left to the solvers)."""
        return self.budget.exhausted

    @classmethod
    def after(cls, time_limit: float | None, budget: Budget | None = None,
              clock: Callable[[], float] = time.perf_counter) -> "Limits":
        """Limits whose deadline is ``time_limit`` seconds from now on ``clock``."""
        return cls(None if time_limit is None else clock() + time_limit,
                   budget or Budget(), clock)


def certified(problem: Problem, lower: float, upper: float) -> bool:
    """True if ``upper`` proves ``lower`` optimal.

    For integer objectives a gap below 1 is a proof.  Otherwise (soft or
    fractionally weighted matching) the gap must be below
    ``problem.tolerance`` (:data:`~smatchpp.alignment.problem.CERTIFY_TOLERANCE` unless
    configured): ``lower`` is then optimal up to that absolute tolerance.
    """
    gap = upper - lower
    return gap < (1.0 - 1e-6 if problem.integral else problem.tolerance)


def deadline_after(time_limit: float | None) -> float | None:
    """The ``perf_counter`` time at which ``time_limit`` seconds from now run out (or ``None``)."""
    return None if time_limit is None else time.perf_counter() + time_limit


def time_left(deadline: float | None) -> float | None:
    """Seconds left until ``deadline`` (at least 0.01, so a solver still returns), or ``None``."""
    return None if deadline is None else max(deadline - time.perf_counter(), 0.01)


def empty_alignment(problem: Problem) -> Alignment:
    """The alignment that maps nothing."""
    return np.full(problem.n_a, -1, dtype=np.int64)

"""A corpus-level time budget shared among the pairs (``--total-time-limit``).

A user with one hour for a whole evaluation gives ``total_time_limit=3600``.
When a pair starts, it gets its fair share of the time that is left:

    share = (deadline - now) * workers / (pairs_left + workers - 1)

where ``pairs_left`` counts this pair and every pair after it, and the
``workers - 1`` pairs that may still be running beside it share the same
time (one worker: the time left over the pairs left; the last pair gets all
that is left).  Most pairs
certify long before their share, and what they leave goes to the pairs
after them; a hard pair late in the corpus can use everything the others did
not need.  With ``time_limit`` as well, a pair gets the smaller of the two.
Every pair still gets at least ``MIN_SHARE`` seconds: after the deadline the
remaining pairs return at once with the interval their cheap bounds prove
(reading and compiling them is not cut, as for ``--time-limit``).

The deadline is on :func:`time.time` (the same clock in every worker process
of this machine; on a cluster, worker clocks are assumed synchronized).
The clock can be injected, so the rule is tested without waiting:

>>> now = [100.0]
>>> s = Schedule.start(60.0, pairs=4, workers=1, clock=lambda: now[0])
>>> s.limit(0, clock=lambda: now[0])   # 60 s left for 4 pairs
15.0
>>> now[0] = 103.0                      # the first pair took 3 s
>>> s.limit(1, clock=lambda: now[0])   # 57 s for the 3 left
19.0
>>> s.limit(1, per_pair=10.0, clock=lambda: now[0])
10.0
>>> now[0] = 170.0                      # past the deadline
>>> s.limit(3, clock=lambda: now[0]) == MIN_SHARE
True
>>> two = Schedule.start(60.0, pairs=3, workers=2, clock=lambda: 0.0)
>>> [two.limit(i, clock=lambda: 0.0) for i in range(3)]  # pairs 0 and 1 start together
[30.0, 40.0, 60.0]
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

__all__ = ["Schedule", "MIN_SHARE"]

#: seconds a pair gets even when the budget is spent (its cheap bounds and a short climb)
MIN_SHARE = 0.01


@dataclass(frozen=True)
class Schedule:
    """The deadline of a run of ``pairs`` pairs on ``workers`` parallel workers."""

    deadline: float
    pairs: int
    workers: int = 1

    @classmethod
    def start(cls, total: float, pairs: int, workers: int = 1,
              clock: Callable[[], float] = time.time) -> "Schedule":
        """A schedule whose deadline is ``total`` seconds from now."""
        return cls(clock() + total, pairs, max(1, workers))

    def limit(self, position: int, per_pair: float | None = None,
              clock: Callable[[], float] = time.time) -> float:
        """Seconds for the pair at ``position`` (0-based, in corpus order), starting now."""
        left = max(1, self.pairs - position)
        share = max(self.deadline - clock(), 0.0) * self.workers / (left + self.workers - 1)
        if per_pair is not None:
            share = min(share, per_pair)
        return max(share, MIN_SHARE)

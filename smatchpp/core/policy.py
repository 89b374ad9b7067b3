"""The run policy: limits, unreadable graphs, resampling.

What a run does around the scoring of each pair, declared once as
:class:`RunPolicy` (:mod:`smatchpp.core.settings`); :class:`~smatchpp.alignment.config.Config` takes
these settings into its signature.

* limits: ``time_limit`` (wall-clock seconds per pair: the pair then reports
  ``[lower, upper]``), ``total_time_limit`` (seconds for the whole corpus, each pair
  getting its fair share of what is left, :mod:`smatchpp.core.schedule`), ``work_limit``
  (a deterministic budget per pair: solver iterations and hill-climber moves);
* ``on_error``: an unreadable graph stops the run, is scored as empty, or its pair
  is skipped (the last two change micro F1);
* resampling: ``bootstrap`` resamples for the 95% intervals (they change the
  intervals, never the scores), ``ar_trials`` approximate-randomization trials of
  ``compare``, and ``bootstrap_seed``, the seed of both (sacreBLEU's default).

A time limit measures wall-clock time, so what it cuts off depends on the machine
and its load: such a run is not :attr:`~RunPolicy.deterministic`.  A work limit
gives the same result everywhere.

>>> RunPolicy(time_limit=30).deterministic, RunPolicy(work_limit=30).deterministic
(False, True)
>>> RunPolicy(bootstrap=2_000_000)
Traceback (most recent call last):
...
ValueError: bootstrap must be at most 1,000,000, got 2,000,000
"""

from __future__ import annotations

from dataclasses import dataclass

from .settings import Settings, int_at_least, name_in, positive_or_none, setting
from ..statistics.significance import DEFAULT_SEED

__all__ = ["RunPolicy", "ON_ERROR", "MAX_RESAMPLES"]

#: what an unreadable graph does: stop the run, be scored as empty, or skip its pair
ON_ERROR = ("raise", "empty", "skip")

#: the most bootstrap resamples and randomization trials (``--bootstrap``, ``--ar-trials``):
#: a percentile interval keeps about 50 bytes per resample, and past a million resamples
#: it is as precise as it gets while the time grows on
MAX_RESAMPLES = 1_000_000


def _resampling(p: "RunPolicy") -> bool:
    """Whether a setting draws resamples (the seed is then part of the signature)."""
    return p.bootstrap is not None or p.ar_trials is not None


@dataclass(frozen=True)
class RunPolicy(Settings):
    """Limits, unreadable graphs and resampling (see the module docstring)."""

    time_limit: float | None = setting(None, "timeout", kind=float, check=positive_or_none("seconds"))
    total_time_limit: float | None = setting(None, "total-timeout", kind=float,
                                             check=positive_or_none("seconds"),
                                             show=lambda p: p.total_time_limit is not None)
    work_limit: int | None = setting(None, "work", kind=int, check=int_at_least(1, optional=True))
    on_error: str = setting("raise", "errors", check=name_in(lambda: ON_ERROR, "on_error"))
    bootstrap: int | None = setting(None, "bootstrap", kind=int,
                                    check=int_at_least(1, optional=True, most=MAX_RESAMPLES),
                                    show=lambda p: p.bootstrap is not None)
    bootstrap_seed: int = setting(DEFAULT_SEED, "bootstrap-seed", check=int_at_least(0),
                                  show=lambda p: _resampling(p) or p.bootstrap_seed != DEFAULT_SEED)
    ar_trials: int | None = setting(None, "ar-trials", kind=int,
                                    check=int_at_least(1, optional=True, most=MAX_RESAMPLES),
                                    show=lambda p: p.ar_trials is not None)

    @property
    def deterministic(self) -> bool:
        """False when a wall-clock limit can cut the search (results may then vary)."""
        return self.time_limit is None and self.total_time_limit is None

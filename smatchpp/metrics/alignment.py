"""The alignment family as a metric: Smatch and every variant ``--match`` chooses.

The metric ``smatch`` carries one :class:`~smatchpp.alignment.config.Config` (preset, matcher,
solver, limits: every setting of ``smatchpp score``) and nothing else, so its
signature is the Config's, the one ``smatchpp score`` prints.

* :meth:`AlignmentMetric.features`: the standardized triple graph (the Config's preset
  and preset options);
* :meth:`AlignmentMetric.stats`: ``(matched, upper, test, gold)``, the pair's matched
  count (or weight) under the best alignment found, a proven upper bound of it, and
  what precision and recall divide by (triple counts, or total weights under a
  weighted matcher).  The pair is solved by :class:`smatchpp.alignment.aligner.PairAligner`,
  the code :class:`smatchpp.api.Scorer` runs;
* :meth:`AlignmentMetric.scores`: precision, recall and F1 of ``matched``, and
  ``f1_upper``, the F1 of ``upper``.  A corpus sums the statistics, so its micro
  scores and the upper end of its F1 interval are those of
  :class:`smatchpp.alignment.score.CorpusScore`; the macro scores are the means of the pairs';
* :meth:`AlignmentMetric.upper_stats`: the label-count bound, no problem compiled;
* :meth:`AlignmentMetric.explain`: the alignment, as variable pairs.

S2Match's similarities are computed as pairs need them (and kept): each is
computed row by row, so a value does not depend on which others were computed
with it, and the numbers are those of a ``Scorer`` that prepared its table.

>>> from smatchpp.graphs.read import read_text
>>> a, b = (e.graph for e in read_text("(a / dog :ARG0-of (b / bark-01))\\n\\n(x / bark-01 :ARG0 (y / dog))"))
>>> m = AlignmentMetric()
>>> fa, fb = m.features(a), m.features(b)
>>> m.stats(fa, fb)
(3.0, 3.0, 4.0, 4.0)
>>> m.pair_scores(m.stats(fa, fb))
{'precision': 0.75, 'recall': 0.75, 'f1': 0.75, 'f1_upper': 0.75}
>>> m.signature() == m.config.signature()
True
>>> m.explain(fa, fb)
{'alignment': [['a', 'y'], ['b', 'x']]}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..alignment.config import Config
from ..graphs.read import RawGraph
from ..core.signature import Signature
from ..statistics.significance import DEFAULT_SEED, prf_arrays
from .base import Metric
from .registry import register

if TYPE_CHECKING:
    from ..alignment.aligner import PairAligner
    from ..alignment.score import PairScore
    from ..graphs.triples import TripleGraph

__all__ = ["AlignmentMetric", "SolvesWithAligner", "check_config", "without_run"]

#: Config fields a metric cannot honour: a corpus budget and aspect counts belong to a run
#: of :class:`smatchpp.api.Scorer`; resampling settings are the run's (:meth:`Metric.signature`)
_RUN_ONLY = {"total_time_limit": "a corpus budget (score --total-time-limit)",
             "aspects": "aspect scores (score --aspects)",
             "bootstrap": "a resampling setting: give it to the run (Metric.signature's bootstrap)",
             "bootstrap_seed": "a resampling setting: give it to the run (Metric.signature's bootstrap_seed)",
             "ar_trials": "a resampling setting of compare"}


def check_config(config: Any, what: str, run_only: dict[str, str]) -> None:
    """Refuse what is not a :class:`Config`, and the settings of a run (``run_only``: name ->
    what it is) that a metric scoring pairs one by one cannot honour."""
    if not isinstance(config, Config):
        raise TypeError(f"config must be a smatchpp Config, got {type(config).__name__}")
    default = Config()
    for name, why in run_only.items():
        if getattr(config, name) != getattr(default, name):
            raise ValueError(f"the {what} metric scores pairs one by one: {name} is {why}, "
                             "not a setting of the metric")


class SolvesWithAligner:
    """A metric that carries a ``config`` and solves pairs with the per-pair core of the
    alignment family, built on first use (so that the solvers load only when a pair is solved)."""

    config: Config

    @property
    def aligner(self) -> "PairAligner":
        """The per-pair core (:class:`smatchpp.alignment.aligner.PairAligner`)."""
        if self._core is None:
            from ..alignment.aligner import PairAligner

            object.__setattr__(self, "_core", PairAligner(self.config))
        return self._core


@register
@dataclass(frozen=True)
class AlignmentMetric(SolvesWithAligner, Metric):
    """The alignment family (Smatch, S2Match, WSMATCH, focus, role weights) under one Config."""

    name = "smatch"
    stat_names = ("matched", "upper", "test", "gold")
    headline = "f1"

    #: every setting of the alignment family (declared once, in :mod:`smatchpp.alignment.config`)
    config: Config = field(default_factory=Config)

    def __post_init__(self) -> None:
        check_config(self.config, "smatch", _RUN_ONLY)
        object.__setattr__(self, "_core", None)

    def __getstate__(self) -> dict[str, Any]:
        # the aligner (its solver and a soft matcher's table) is rebuilt where it is used
        return {"config": self.config, "_core": None}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            object.__setattr__(self, key, value)

    # --- the interface ------------------------------------------------------------

    def features(self, graph: RawGraph) -> "TripleGraph":
        from ..presets import Options, standardize

        return standardize(graph, self.config.preset, **vars(Options.of(self.config)))

    def pair(self, a: "TripleGraph", b: "TripleGraph", index: int = 0,
             id: str | None = None) -> "PairScore":
        """The pair's full :class:`~smatchpp.alignment.score.PairScore` (status, stage, alignment, ...)."""
        return self.aligner.score(a, b, index, id)

    def stats(self, a: "TripleGraph", b: "TripleGraph") -> tuple[float, float, float, float]:
        s = self.pair(a, b)
        return (float(s.matched), float(s.upper), float(s.test_weight), float(s.gold_weight))

    def scores(self, stats: np.ndarray) -> dict[str, np.ndarray]:
        s = np.asarray(stats, dtype=np.float64)
        matched, upper, test, gold = (s[..., k] for k in range(4))
        p, r, f = prf_arrays(matched, test, gold)  # score.prf's operations, to the last bit
        return {"precision": p, "recall": r, "f1": f, "f1_upper": prf_arrays(upper, test, gold)[2]}

    def upper_stats(self, a: "TripleGraph", b: "TripleGraph") -> tuple[float, float, float, float]:
        """The label-count bound as ``matched`` and ``upper`` (each label matches at most as
        often as the rarer side has it): what ``search`` prunes with, no problem compiled."""
        core = self.aligner
        ra, rb = core.rewrite(a, b)
        bound = core.label_bound(a, b)
        return (bound, bound, core.matcher.total(ra) * core.scale, core.matcher.total(rb) * core.scale)

    def explain(self, a: "TripleGraph", b: "TripleGraph") -> dict[str, Any]:
        """The alignment the score counts: ``[A variable, B variable]`` pairs (solves again)."""
        return {"alignment": [list(p) for p in self.pair(a, b).alignment]}

    def sign(self, on_error: str | None = None, bootstrap: int | None = None,
             bootstrap_seed: int = DEFAULT_SEED, ar_trials: int | None = None) -> Signature:
        """The Config's signature (what ``smatchpp score`` prints), with the run's error
        handling (default: the Config's) and resampling."""
        return self.config.replace(on_error=on_error or self.config.on_error, bootstrap=bootstrap,
                                   bootstrap_seed=bootstrap_seed, ar_trials=ar_trials).sign()

    def signature(self, on_error: str | None = None, bootstrap: int | None = None,
                  bootstrap_seed: int = DEFAULT_SEED, ar_trials: int | None = None) -> str:
        return str(self.sign(on_error, bootstrap, bootstrap_seed, ar_trials))

    @classmethod
    def from_tokens(cls, sig: Signature, files: dict[str, str] | None = None) -> "AlignmentMetric":
        """The metric of a signature of :meth:`signature` (:meth:`Config.from_signature`, which
        takes the files; resampling settings, which are the run's, are left out)."""
        return cls(without_run(Config.from_signature(sig.without("metric"), files)))


def without_run(config: Config) -> Config:
    """``config`` without the resampling settings (a signature's, which are the run's)."""
    return config.replace(**{name: getattr(Config(), name) for name in ("bootstrap", "bootstrap_seed", "ar_trials")})

"""Every aspect as a metric: one aspect of one set, aligned on its own (``separate`` mode).

An :class:`AspectMetric` carries one :class:`~smatchpp.alignment.config.Config` (its aspect set,
``propbank_frames`` and ``vectors``, preset, solver) and the aspect's name, so
micro, macro and the bootstrap (:func:`~smatchpp.metrics.base.bootstrap_metric`) work
for every aspect as for any metric:

* :meth:`AspectMetric.features`: what the aspect cuts out of one graph, by the
  aspect's own extractor (:mod:`smatchpp.aspects.damonte`, :mod:`smatchpp.aspects.smatchpp18`,
  :mod:`smatchpp.aspects.thesis`, or another package's set: ``--aspect-set NAME``): its
  subgraph, its items (a set aspect's label multiset) or its statistic's word (the thesis'
  graph statistics), through the aspect protocol (:mod:`smatchpp.aspects.base`);
* :meth:`AspectMetric.stats`: ``(matched, upper, test, gold)``, the counts
  :class:`~smatchpp.aspects.core.AspectScorer` gives the aspect; a subgraph is solved by
  :class:`smatchpp.alignment.aligner.PairAligner` (Damonte's ``smatch`` aspect is the pair's
  Smatch, under the Config's full preset options);
* :meth:`AspectMetric.scores`: precision, recall, F1 and ``f1_upper``; a pair (or a
  corpus) with nothing on either side scores the set's vacuous value: 1 for
  ``smatchpp18`` and ``thesis``, n/a (NaN: ``null`` in JSON) for ``damonte``.  An n/a
  pair is left out of the macro mean and of the bootstrap, as ``score --aspects`` does.

Every aspect of a set: :func:`aspect_metrics`.  One by name:
``get_metric("aspect", aspect="srl", config=Config(aspect_set="damonte"))``.

With the exact solver the counts are those of ``score --aspects SET`` (separate
mode) pair by pair: both are certified optima.  Under a time limit or a heuristic
solver they can differ, as ``AspectScorer`` warm-starts a subgraph from the full
graphs' alignment, which a metric (one aspect, one pair) does not have.

>>> from smatchpp.graphs.read import read_text
>>> a = read_text('(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))')[0].graph
>>> b = read_text('(w / want-02 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (c / cat)))')[0].graph
>>> m = get_metric("aspect", aspect="concepts")
>>> m.stats(m.features(a), m.features(b))
(2.0, 2.0, 3.0, 4.0)
>>> [(x.aspect, x.stats(x.features(a), x.features(b))) for x in aspect_metrics(Config())][-2:]
[('reentrancies', (0.0, 0.0, 6.0, 0.0)), ('srl', (4.0, 4.0, 7.0, 8.0))]
>>> m.pair_scores((0, 0, 0, 0))["f1"]  # Damonte's aspects: nothing on either side is n/a
nan
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..alignment.config import Config
from ..graphs.read import RawGraph
from ..core.signature import Signature, SignatureError
from ..statistics.significance import DEFAULT_SEED
from .alignment import SolvesWithAligner, check_config, without_run
from .base import Metric, param
from .registry import get_metric, register

if TYPE_CHECKING:
    from ..alignment.aligner import PairAligner

__all__ = ["AspectMetric", "aspect_metrics"]

_EMPTY_RAW = RawGraph(None, (), ())


@register
@dataclass(frozen=True)
class AspectMetric(SolvesWithAligner, Metric):
    """One aspect of an aspect set (Damonte et al., smatchpp 1.8 or the thesis), aligned on its own."""

    name = "aspect"
    stat_names = ("matched", "upper", "test", "gold")
    headline = "f1"

    aspect: str = param("concepts", "the aspect's name in Damonte et al.'s set, as its "
                        "JSON key: smatch, unlabeled, no_wsd, concepts, named_ent, negations, "
                        "wikification, reentrancies, srl; with --aspect-set, that set's "
                        "(aspect_metrics(config) lists them)", sig="aspect-name")
    #: the aspect set, its frames file and vectors, the preset and the solver
    config: Config = field(default_factory=lambda: Config(aspects="separate"))
    aspect_set: str | None = param(None, "the set the aspect is of: damonte (when not given), "
                                   "smatchpp18, thesis or an installed package's (entry point "
                                   "smatchpp.aspects); signed as aspect-set:SET", sig="aspect-set")

    def __post_init__(self) -> None:
        if isinstance(self.config, Config) and self.config.aspects == "joint":
            raise ValueError("an aspect metric aligns each aspect on its own (aspects mode separate); "
                             "joint mode shares the full graphs' alignment, a run of score --aspects")
        check_config(self.config, "aspect", {name: "a setting of the run" for name in
                                             ("total_time_limit", "bootstrap", "bootstrap_seed", "ar_trials")})
        if self.config.aspects != "separate":  # the signature names the set
            object.__setattr__(self, "config", self.config.replace(aspects="separate"))
        default = type(self.config)().aspect_set
        if self.aspect_set is not None and self.aspect_set != self.config.aspect_set:
            if self.config.aspect_set != default:
                raise ValueError(f"two aspect sets: aspect_set {self.aspect_set} and the Config's "
                                 f"{self.config.aspect_set}")
            # the set given by name (--aspect-set) is the Config's, which signs it
            object.__setattr__(self, "config", self.config.replace(aspect_set=self.aspect_set))
        # the field names the Config's set (None: the default), also when only the Config
        # gave it, so that a metric read back from its signature equals it
        object.__setattr__(self, "aspect_set", None if self.config.aspect_set == default
                           else self.config.aspect_set)
        from ..aspects.registry import aspect_list  # an aspect set loads only when one is built

        found = aspect_list(self.config.aspect_set, None, self.config.propbank_frames, self.config.vectors)
        chosen = [a for a in found if a.name == self.aspect]
        if not chosen:
            raise ValueError(f"unknown {self.config.aspect_set} aspect {self.aspect!r}; choose from "
                             f"{', '.join(a.name for a in found)}")
        object.__setattr__(self, "_aspect", chosen[0])
        object.__setattr__(self, "_core", None)

    def __getstate__(self) -> dict[str, Any]:
        return {"aspect": self.aspect, "config": self.config, "aspect_set": self.aspect_set}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            object.__setattr__(self, key, value)
        self.__post_init__()

    # --- the interface ------------------------------------------------------------

    def features(self, graph: RawGraph) -> Any:
        from ..presets import Options, standardize
        from ..graphs.triples import EMPTY

        aspect, config = self._aspect, self.config
        raw = graph or _EMPTY_RAW
        if not aspect.aligned:  # its items or its statistic's word
            return aspect.features(raw)
        if aspect.main:  # Damonte's smatch: the run's own graph
            return standardize(raw, config.preset, **vars(Options.of(config)))
        if not raw.variables:
            return EMPTY
        # the standardizer AspectScorer.for_scorer gives a transformed graph
        return aspect.graph(raw, lambda r: standardize(r, config.preset, keep_wiki=config.keep_wiki))

    def stats(self, a: Any, b: Any) -> tuple[float, float, float, float]:
        aspect = self._aspect
        if not aspect.aligned:
            c = aspect.count(a, b)
            return (float(c.matched), float(c.upper), float(c.test), float(c.gold))
        if not aspect.main and (not a.n_triples or not b.n_triples):
            return (0.0, 0.0, float(a.n_triples), float(b.n_triples))  # nothing to match
        s = self.aligner.score(a, b)
        return (float(s.matched), float(s.upper), float(s.test_weight), float(s.gold_weight))

    def scores(self, stats: np.ndarray) -> dict[str, np.ndarray]:
        from ..aspects.base import aspect_scores  # loaded already: the aspect was found there

        return aspect_scores(stats, self._aspect.vacuous)

    def sign(self, on_error: str | None = None, bootstrap: int | None = None,
             bootstrap_seed: int = DEFAULT_SEED, ar_trials: int | None = None) -> Signature:
        """The Config's signature (its aspect set, frames and vectors among it) with
        ``metric:aspect`` and ``aspect-name:NAME`` after the version."""
        config = self.config.replace(on_error=on_error or self.config.on_error, bootstrap=bootstrap,
                                     bootstrap_seed=bootstrap_seed, ar_trials=ar_trials).sign()
        version, *rest = config.tokens
        return Signature((version, ("metric", self.name), ("aspect-name", self.aspect), *rest))

    def signature(self, on_error: str | None = None, bootstrap: int | None = None,
                  bootstrap_seed: int = DEFAULT_SEED, ar_trials: int | None = None) -> str:
        return str(self.sign(on_error, bootstrap, bootstrap_seed, ar_trials))

    @classmethod
    def from_tokens(cls, sig: Signature, files: dict[str, str] | None = None) -> "AspectMetric":
        """The metric of a signature of :meth:`signature` (resampling settings left out)."""
        if "aspect-name" not in sig:
            raise SignatureError(f"not a signature of the {cls.name} metric: it has no aspect-name:NAME")
        config = Config.from_signature(sig.without("metric", "aspect-name"), files)
        return cls(sig["aspect-name"], without_run(config))


def aspect_metrics(config: Config | None = None) -> list[AspectMetric]:
    """One :class:`AspectMetric` per aspect of ``config``'s aspect set, in the set's order."""
    from ..aspects.registry import aspect_list

    config = config or Config(aspects="separate")
    return [get_metric("aspect", aspect=a.name, config=config)  # type: ignore[misc]
            for a in aspect_list(config.aspect_set, None, config.propbank_frames, config.vectors)]

"""The metric interface: per-pair sufficient statistics that a corpus sums.

Every metric, whether it aligns variables (Smatch and its family) or not
(SemBleu, SEMA, WLK, REMATCH), is described by the same contract, sacreBLEU's
design:

* :meth:`Metric.features` turns one graph into what the metric compares
  (computed once per graph, so that ``matrix`` and ``search`` never redo it);
* :meth:`Metric.stats` turns two graphs' features into a short vector of
  *sufficient statistics* (named by :attr:`Metric.stat_names`);
* :meth:`Metric.scores` turns statistics into scores, vectorised over any
  leading axes.  A pair's score comes from its own vector, a corpus's *micro*
  score from the summed vectors, its *macro* score from the mean of the pairs'
  scores.  A bootstrap resample is a row of indices into the pairs: its micro
  score is :meth:`Metric.scores` of the summed rows, so resampling works for
  every metric without re-scoring a graph (:func:`bootstrap_metric`).
* :meth:`Metric.explain` may give a pair's explanation (WWLK: its transport plan), a
  JSON-ready dict that ``score --metric NAME --pairs-out F --alignments`` adds to the
  pair's line; ``None`` (the default) means the metric has none.
* :meth:`Metric.upper_stats` may give a cheap upper bound of a pair's
  statistics (``search`` prunes with it); ``None`` means no bound.
* Parameters are dataclass fields declared once with :func:`param`: their
  default, help, choices and signature key.  The command line's
  ``--NAME-FIELD`` options and the signature are generated from them.

A metric whose pair score is not a ratio of sums (WLK's cosine, SemBleu scored
pair by pair) keeps ``(score, 1)`` as its statistics, so that its micro score
is the mean of its pair scores.

>>> from smatchpp.read import read_text
>>> class Jaccard(Metric):
...     '''Jaccard of the sets of (source concept, role, target concept) triples.'''
...     name = "jaccard-example"
...     stat_names = ("intersection", "union")
...     headline = "score"
...     def features(self, graph):
...         concept = {s: t for s, r, t in graph.triples if r == ":instance"}
...         return frozenset((concept.get(s, s), r, concept.get(t, t)) for s, r, t in graph.triples)
...     def stats(self, a, b):
...         return (len(a & b), len(a | b))
...     def scores(self, stats):
...         inter, union = np.moveaxis(np.asarray(stats, dtype=float), -1, 0)
...         return {"score": np.divide(inter, union, out=np.ones_like(inter), where=union > 0)}
>>> g = [e.graph for e in read_text("(d / dog :ARG0-of (b / bark-01))\\n\\n(d / dog)")]
>>> m = Jaccard()
>>> m.pair_score(m.features(g[0]), m.features(g[1]))
0.3333333333333333
>>> corpus = m.score_graphs(g, g)
>>> corpus.micro["score"], corpus.macro["score"]
(1.0, 1.0)
>>> m.signature()  # doctest: +ELLIPSIS
'smatchpp:...|metric:jaccard-example|errors:raise|deterministic:yes'
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Iterable, Sequence

import numpy as np

from ..version import __version__
from ..bulk import no_cycle_collection
from ..read import RawGraph
from ..config import format_value, signature_tokens
from ..significance import DEFAULT_RESAMPLES, DEFAULT_SEED, LEVEL, bootstrap_scores, sum_in_order

__all__ = ["Metric", "PairMean", "param", "MetricPair", "MetricCorpus", "MetricIntervals", "bootstrap_metric"]


def param(default: Any, help: str, *, choices: Sequence[Any] | None = None,
          sig: str | None = None) -> Any:
    """A metric parameter: its default, help, choices and signature key, declared once.

    The signature key defaults to ``METRIC-FIELD`` (``wlk-iterations``), the command-line
    flag is ``--`` + the signature key.
    """
    return field(default=default, metadata={"help": help, "choices": tuple(choices) if choices else None,
                                            "sig": sig})


@dataclass(frozen=True)
class Metric(ABC):
    """A graph similarity metric computed from per-pair sufficient statistics."""

    #: the registry name (``--metric NAME``)
    name: ClassVar[str]
    #: what :meth:`stats` returns, in order
    stat_names: ClassVar[tuple[str, ...]]
    #: the key of :meth:`scores` that is "the" score (``f1`` or ``score``)
    headline: ClassVar[str] = "score"
    #: whether ``stats(a, b)`` equals ``stats(b, a)`` up to the order of the statistics
    symmetric: ClassVar[bool] = True

    # --- what a metric implements ---------------------------------------------

    @abstractmethod
    def features(self, graph: RawGraph) -> Any:
        """What the metric compares, for one graph (picklable)."""

    @abstractmethod
    def stats(self, a: Any, b: Any) -> Sequence[float]:
        """The sufficient statistics of the pair (test features ``a``, gold features ``b``)."""

    @abstractmethod
    def scores(self, stats: np.ndarray) -> dict[str, np.ndarray]:
        """Scores from statistics; ``stats`` has shape ``(..., len(stat_names))``."""

    def upper_stats(self, a: Any, b: Any) -> Sequence[float] | None:
        """Statistics whose score bounds the pair's score from above, if cheap; else ``None``."""
        return None

    def explain(self, a: Any, b: Any) -> dict[str, Any] | None:
        """What explains the pair's score beyond its statistics (JSON-ready, keys that do not
        clash with :meth:`MetricPair.to_json`'s), or ``None``: the default, no explanation."""
        return None

    @classmethod
    def explains(cls) -> bool:
        """Whether the metric overrides :meth:`explain`."""
        return cls.explain is not Metric.explain

    def prepare(self, graphs: Iterable[RawGraph]) -> None:
        """Called once with every graph of a run before any feature is computed (a vocabulary,
        say). The default does nothing."""

    def note(self) -> str | None:
        """A line the output should carry (e.g. that an optional resource was not given)."""
        return None

    # --- derived ----------------------------------------------------------------

    @classmethod
    def params(cls) -> list[tuple[str, str, Any]]:
        """``(field name, signature key, field)`` of every parameter, in declaration order."""
        out = []
        for f in fields(cls):
            if "help" not in f.metadata:
                continue
            out.append((f.name, f.metadata["sig"] or f"{cls.name}-{f.name.replace('_', '-')}", f))
        return out

    def signature(self, on_error: str = "raise", bootstrap: int | None = None,
                  bootstrap_seed: int = DEFAULT_SEED) -> str:
        """``smatchpp:VERSION|metric:NAME|KEY:VALUE|...``: every setting that changes a number
        (the resampling settings only when resamples are drawn, as for Smatch)."""
        parts = [f"smatchpp:{__version__}", f"metric:{self.name}"]
        for name, key, _ in self.params():
            parts.append(f"{key}:{_format(getattr(self, name))}")
        parts.append(f"errors:{on_error}")
        if bootstrap is not None:
            parts += [f"bootstrap:{bootstrap}", f"bootstrap-seed:{bootstrap_seed}"]
        parts.append("deterministic:yes")
        return "|".join(parts)

    @classmethod
    def parse_signature(cls, signature: str) -> tuple[str, dict[str, str]]:
        """``(metric name, {key: value text})`` of a metric signature (without the version,
        the name and ``deterministic``); refuses another smatchpp version and repeated keys.

        >>> Metric.parse_signature("smatchpp:%s|metric:jaccard|errors:skip|deterministic:yes" % __version__)
        ('jaccard', {'errors': 'skip'})
        """
        tokens = signature_tokens(signature)
        name = tokens.pop("metric", None)
        if name is None:
            raise ValueError("not a metric signature: it has no metric: key")
        tokens.pop("deterministic", None)
        return name, tokens

    @classmethod
    def from_signature(cls, signature: str) -> "Metric":
        """The metric (this class, with its parameters) that wrote ``signature``; the run's
        settings in it (``errors``, ``bootstrap``, ``bootstrap-seed``, ``ar-trials``) are left
        out.  Raises ``ValueError`` for another metric, an unknown key or a value that cannot
        be read.

        >>> from smatchpp.metrics import get_metric
        >>> m = get_metric("wlk", iterations=3)
        >>> type(m).from_signature(m.signature(on_error="skip", bootstrap=10)) == m
        True
        """
        name, tokens = cls.parse_signature(signature)
        if name != cls.name:
            raise ValueError(f"a signature of metric {name}, not of {cls.name}")
        by_key = {key: (field_name, f) for field_name, key, f in cls.params()}
        values = {}
        for key, text in tokens.items():
            if key in _RUN_KEYS:
                continue
            if key not in by_key:
                raise ValueError(f"unknown signature key {key!r} for metric {cls.name}")
            field_name, f = by_key[key]
            values[field_name] = _read(text, f.default, key)
        return cls(**values)

    def pair_scores(self, stats: Sequence[float]) -> dict[str, float]:
        """Every score of one pair's statistics, as floats."""
        return {k: float(v) for k, v in self.scores(np.asarray(stats, dtype=float)).items()}

    def pair_score(self, a: Any, b: Any) -> float:
        """The headline score of two graphs' features."""
        return self.pair_scores(self.stats(a, b))[self.headline]

    def stats_matrix(self, feats_a: Sequence[Any], feats_b: Sequence[Any],
                     out: np.ndarray | None = None) -> np.ndarray:
        """Statistics of every pair, shape ``(len(a), len(b), k)``; a metric with a faster
        all-pairs method (a sparse product) overrides this.  ``out`` (that shape, e.g. NaN)
        is filled pair by pair in row order and returned, so that a caller keeps the finished
        pairs when the run is interrupted."""
        if out is None:
            out = np.zeros((len(feats_a), len(feats_b), len(self.stat_names)))
        for i, fa in enumerate(feats_a):
            for j, fb in enumerate(feats_b):
                out[i, j] = self.stats(fa, fb)
        return out

    def score_graphs(self, graphs_a: Sequence[RawGraph], graphs_b: Sequence[RawGraph],
                     ids: Sequence[str | None] | None = None) -> "MetricCorpus":
        """Score the pairs ``(graphs_a[i], graphs_b[i])`` in this process."""
        if len(graphs_a) != len(graphs_b):
            raise ValueError(f"{len(graphs_a)} test graphs but {len(graphs_b)} gold graphs")
        self.prepare(list(graphs_a) + list(graphs_b))
        pairs = []
        with no_cycle_collection():  # features and statistics are plain containers, no cycles
            for i, (a, b) in enumerate(zip(graphs_a, graphs_b)):
                pairs.append(MetricPair(i, ids[i] if ids else None,
                                        tuple(float(x) for x in self.stats(self.features(a), self.features(b)))))
        return MetricCorpus(self, pairs)


@dataclass(frozen=True)
class PairMean(Metric):
    """A metric whose pair score is a similarity and whose corpus score is the mean of them
    (WLK's cosine, WWLK's 1 - EMD): statistics ``(similarity, 1)``, so that micro = macro."""

    stat_names = ("similarity", "pairs")
    headline = "score"

    def scores(self, stats: np.ndarray) -> dict[str, np.ndarray]:
        s = np.asarray(stats, dtype=float)
        sim, pairs = s[..., 0], s[..., 1]
        return {"score": np.divide(sim, pairs, out=np.zeros_like(sim), where=pairs > 0)}


#: signature keys of the run, not of the metric
_RUN_KEYS = frozenset({"errors", "bootstrap", "bootstrap-seed", "ar-trials"})


def _read(text: str, default: Any, key: str) -> Any:
    """A parameter's value from its signature text (:func:`_format`'s inverse), read as the
    kind of its default (text when the default is ``None``)."""
    if text == "none" and not isinstance(default, str):  # a text parameter may be "none"
        return None
    try:
        if isinstance(default, bool):
            return {"yes": True, "no": False}[text]
        return type(default)(text) if default is not None else text
    except (ValueError, KeyError):
        raise ValueError(f"cannot read {key}:{text}") from None


def _format(value: Any) -> str:
    """A parameter's value as the signature writes it (a sequence as ``a,b``)."""
    if isinstance(value, (tuple, list)):
        return ",".join(_format(v) for v in value)
    return format_value(value)


@dataclass
class MetricPair:
    """One pair's statistics; ``stats`` is ``None`` for a pair that was skipped."""

    index: int
    id: str | None
    stats: tuple[float, ...] | None
    error: str | None = None

    def to_json(self, metric: Metric) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index, "id": self.id}
        if self.stats is None:
            out.update(status="skipped", score=None)
        else:
            out.update(zip(metric.stat_names, (_finite(x) for x in self.stats)))
            scores = metric.pair_scores(self.stats)
            out["score"] = _finite(scores[metric.headline])
            out.update((k, _finite(v)) for k, v in scores.items() if k != "score")
        if self.error:
            out["error"] = self.error
        return out


def _finite(x: float) -> float | int | None:
    if not math.isfinite(x):
        return None
    return int(x) if float(x).is_integer() and abs(x) < 2 ** 53 else x


@dataclass
class MetricCorpus:
    """Every pair's statistics under one metric, with micro and macro averages."""

    metric: Metric
    pairs: list[MetricPair]
    on_error: str = "raise"

    bootstrap: int | None = None
    bootstrap_seed: int = DEFAULT_SEED

    @property
    def signature(self) -> str:
        return self.metric.signature(self.on_error, self.bootstrap, self.bootstrap_seed)

    @property
    def stats(self) -> np.ndarray:
        """The statistics of the scored pairs, shape ``(n, k)``."""
        rows = [p.stats for p in self.pairs if p.stats is not None]
        return np.asarray(rows, dtype=float).reshape(len(rows), len(self.metric.stat_names))

    @property
    def micro(self) -> dict[str, float]:
        """Scores of the summed statistics, added in pair order (0 for an empty corpus)."""
        s = self.stats
        if len(s) == 0:
            return {k: 0.0 for k in self.metric.scores(np.ones(len(self.metric.stat_names)))}
        return {k: float(v) for k, v in self.metric.scores(sum_in_order(s)).items()}

    @property
    def macro(self) -> dict[str, float]:
        """The mean of the pairs' scores, added in pair order (0 for an empty corpus); a NaN
        pair score is n/a and left out (NaN when every pair is n/a)."""
        s = self.stats
        if len(s) == 0:
            return {k: 0.0 for k in self.metric.scores(np.ones(len(self.metric.stat_names)))}
        return {k: _mean(np.asarray(v)) for k, v in self.metric.scores(s).items()}

    def summary(self) -> dict[str, Any]:
        """The corpus summary of ``--format json``."""
        out: dict[str, Any] = {
            "signature": self.signature, "metric": self.metric.name, "headline": self.metric.headline,
            "micro": {k: _finite(v) for k, v in self.micro.items()},
            "macro": {k: _finite(v) for k, v in self.macro.items()},
            "pairs": len(self.pairs), "scored": len(self.stats),
            "totals": dict(zip(self.metric.stat_names, (_finite(x) for x in sum_in_order(self.stats)))),
            "errors": [p.error for p in self.pairs if p.error],
        }
        note = self.metric.note()
        if note:
            out["note"] = note
        return out


def _mean(values: np.ndarray) -> float:
    """The mean of the scores that are not NaN (n/a), added in order; NaN when none is."""
    if np.isnan(values).any():
        values = values[~np.isnan(values)]
        if not len(values):
            return math.nan
    return float(sum_in_order(values)) / len(values)


@dataclass(frozen=True)
class MetricIntervals:
    """Percentile bootstrap intervals of every micro and macro score of a metric."""

    resamples: int
    seed: int
    level: float
    pairs: int
    micro: dict[str, tuple[float, float]]
    macro: dict[str, tuple[float, float]]

    def to_json(self) -> dict[str, Any]:
        return {"resamples": self.resamples, "seed": self.seed, "level": self.level,
                "method": "percentile", "pairs": self.pairs,
                "micro": {k: list(v) for k, v in self.micro.items()},
                "macro": {k: list(v) for k, v in self.macro.items()}}


def bootstrap_metric(metric: Metric, stats: np.ndarray, resamples: int = DEFAULT_RESAMPLES,
                     seed: int = DEFAULT_SEED, level: float = LEVEL) -> MetricIntervals:
    """Percentile bootstrap intervals for any metric from its per-pair statistics.

    The index rows are :func:`smatchpp.significance.index_chunks`'s, so with the
    same seed the resampled pairs are those of Smatch's ``--bootstrap``.

    >>> class Mean(Metric):
    ...     name, stat_names = "mean-example", ("value", "count")
    ...     def features(self, g): return g
    ...     def stats(self, a, b): return (a, 1)
    ...     def scores(self, s):
    ...         s = np.asarray(s, dtype=float)
    ...         return {"score": s[..., 0] / s[..., 1]}
    >>> ci = bootstrap_metric(Mean(), np.array([[0.0, 1], [1.0, 1]]), resamples=200, seed=1)
    >>> 0.0 <= ci.micro["score"][0] < 0.5 < ci.micro["score"][1] <= 1.0
    True
    """
    stats = np.asarray(stats, dtype=float)
    n = len(stats)
    keys = list(metric.scores(np.ones(len(metric.stat_names))))
    if n == 0:
        zero = {k: (0.0, 0.0) for k in keys}
        return MetricIntervals(resamples, seed, level, 0, dict(zero), dict(zero))
    micro, macro = bootstrap_scores(metric.scores, stats, resamples, seed, level)
    return MetricIntervals(resamples, seed, level, n, micro, macro)

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
  statistics (``search`` prunes with it, :meth:`Metric.top_k`); ``None`` means no bound.
* Parameters are dataclass fields declared once with :func:`param`: their
  default, help, choices and signature key.  The command line's
  ``--NAME-FIELD`` options and the signature are generated from them.

A metric whose pair score is not a ratio of sums (WLK's cosine, SemBleu scored
pair by pair) keeps ``(score, 1)`` as its statistics, so that its micro score
is the mean of its pair scores.

>>> from smatchpp.graphs.read import read_text
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
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable, Sequence

import numpy as np

from ..core.version import __version__
from ..core import tables
from ..core.bulk import no_cycle_collection
from ..graphs.read import RawGraph
from ..core.plugins import GROUPS, load
from ..core.settings import declared, setting, signed
from ..core.signature import RUN_KEYS, Setting, Signature, SignatureError
from ..statistics.significance import (DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TRIALS, LEVEL, BootstrapCI, Comparison,
                                       Intervals, bootstrap_scores, compare_columns, sum_in_order)

__all__ = ["Metric", "PairMean", "param", "load_plugins", "MetricPair", "MetricCorpus", "MetricIntervals", "bootstrap_metric",
           "run_tokens"]


def param(default: Any, help: str, *, choices: Sequence[Any] | None = None,
          sig: str | None = None, file: Callable[[Any], str] | None = None,
          resolves: bool = False, pattern: re.Pattern | None = None) -> Any:
    """A metric parameter: its default, help, choices and signature key, declared once
    (:func:`smatchpp.core.settings.setting`, the form every component's settings take).

    The signature key defaults to ``METRIC-FIELD`` (``wlk-iterations``), the command-line
    flag is ``--`` + the signature key.  ``file``: the parameter names a file, signed by
    ``file(value)`` (its identity, ``name@sha1-prefix``; ``None`` included), ``pattern``
    (default :data:`smatchpp.core.signature.IDENTITY`) what such an identity looks like and
    ``resolves`` whether the metric finds the file by it (else replaying the signature
    needs the file: :class:`smatchpp.core.signature.Signature`).  ``help`` describes the
    parameter (a metric from another package brings its own words for ``--help``).
    """
    return setting(default, sig, identity=file, resolves=resolves, pattern=pattern,
                   help=help, choices=tuple(choices) if choices else None)


#: name -> metric class (filled by :func:`smatchpp.metrics.registry.register`; here, so that
#: :meth:`Metric.from_signature` finds the metric a signature names)
METRICS: dict[str, type["Metric"]] = {}
#: the names the entry points registered, once they are loaded
_PLUGINS: list[str] = []
_LOADED: list[bool] = []


def load_plugins() -> list[str]:
    """Register the metrics of the installed packages' ``smatchpp.metrics`` entry points
    (:mod:`smatchpp.core.plugins`) in :data:`METRICS`, once, on the first look-up by name (not on
    import: an extension imports :mod:`smatchpp.metrics` itself); returns their names."""
    if not _LOADED:
        _LOADED.append(True)  # first: an extension that looks a metric up does not recurse
        _PLUGINS.extend(load(GROUPS["metrics"], _accept_plugin, _register_plugin))
    return list(_PLUGINS)


def _accept_plugin(name: str, obj: Any) -> type["Metric"]:
    """An entry point's metric class, checked: a :class:`Metric` subclass named ``name``
    that takes no name already taken by another class."""
    if not (isinstance(obj, type) and issubclass(obj, Metric)):
        raise TypeError(f"{obj!r} is not a subclass of smatchpp.metrics.Metric")
    if getattr(obj, "name", None) != name:
        raise ValueError(f"its class names itself {getattr(obj, 'name', None)!r}, not {name!r}")
    if name in METRICS and METRICS[name] is not obj:
        raise ValueError(f"metric {name!r} exists already (an extension never replaces a metric)")
    return obj


def _register_plugin(name: str, cls: type["Metric"]) -> None:
    METRICS[name] = cls


@dataclass(frozen=True)
class Metric(ABC):
    """A graph similarity metric computed from per-pair sufficient statistics."""

    #: the registry name (``--metric NAME``)
    name: ClassVar[str]
    #: what :meth:`stats` returns, in order
    stat_names: ClassVar[tuple[str, ...]]
    #: the key of :meth:`scores` that is "the" score (``f1`` or ``score``)
    headline: ClassVar[str] = "score"
    #: whether the corpus's micro score is by definition its macro score (:class:`PairMean`):
    #: the summaries then print one row, ``mean``
    micro_is_macro: ClassVar[bool] = False
    #: whether ``search`` prunes with :meth:`upper_stats` (:meth:`top_k`); a metric whose
    #: statistics cost about as little as its bound turns it off (docs/benchmarks.md section 21)
    prune_search: ClassVar[bool] = True
    #: the headline score's name in ``compare``'s summaries (``None``: its key)
    headline_title: ClassVar[str | None] = None
    #: whether a pair costs microseconds and its features and statistics make no reference
    #: cycles: a run then starts one worker per ``runs.PAIRS_PER_WORKER`` pairs unless told
    #: (``--workers``), and pauses the cycle collector.  The alignment family, whose pair is a
    #: solve, sets it off: every core from the first pair, the collector left alone
    cheap_pairs: ClassVar[bool] = True
    #: the metric compares DRSs in clausal form (read from .clf files), not AMR graphs
    reads_drs: ClassVar[bool] = False

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

    def upper_stats_matrix(self, a: Any, corpus: Sequence[Any]) -> np.ndarray | None:
        """:meth:`upper_stats` of ``a`` against every feature of ``corpus``, shape ``(len(corpus),
        len(stat_names))``, or ``None`` if a pair has no bound; a metric whose bound is a
        function of sizes overrides this with one array operation."""
        uppers = [self.upper_stats(a, b) for b in corpus]
        if any(u is None for u in uppers):
            return None
        return np.asarray(uppers, dtype=float).reshape(len(corpus), len(self.stat_names))

    def explain(self, a: Any, b: Any) -> dict[str, Any] | None:
        """What explains the pair's score beyond its statistics (JSON-ready, keys that do not
        clash with :meth:`MetricPair.to_json`'s), or ``None``: the default, no explanation."""
        return None

    def stats_explained(self, a: Any, b: Any) -> tuple[Sequence[float], dict[str, Any] | None]:
        """The pair's statistics and its explanation, from one computation: a metric whose
        explanation comes out of the computation of its statistics (a solve under a time
        limit) overrides this, so that the two can never disagree.  The default: :meth:`stats`,
        then :meth:`explain`."""
        return self.stats(a, b), self.explain(a, b)

    @classmethod
    def explains(cls) -> bool:
        """Whether the metric overrides :meth:`explain`."""
        return cls.explain is not Metric.explain

    @classmethod
    def certifies(cls) -> bool:
        """Whether a limit can leave a pair's score unproven (an interval between a found and a
        bound value): then an all-pairs matrix writes those pairs' intervals beside it. The
        default: no, a pair's statistics are its score."""
        return False

    def prepare(self, graphs: Iterable[RawGraph]) -> None:
        """Called once with every graph of a run before any feature is computed (a vocabulary,
        say). The default does nothing."""

    def note(self) -> str | None:
        """A line the output should carry (e.g. that an optional resource was not given)."""
        return None

    # --- the road of a run (every command, every metric) -------------------------

    def pair_json(self, pair: Any, details: bool = False) -> dict[str, Any]:
        """The ``--pairs-out`` line of one pair result of a run (:class:`MetricPair` here; the
        alignment family's :class:`~smatchpp.alignment.score.PairScore`); ``details``: with the pair's
        explanation (``--alignments``), when it has one."""
        out = pair.to_json(self)
        if details and pair.explanation:
            out.update(pair.explanation)
        return out

    def corpus(self, pairs: Sequence[Any], on_error: str = "raise", bootstrap: int | None = None,
               bootstrap_seed: int = DEFAULT_SEED) -> "MetricCorpus":
        """The corpus result of a run's pair results, under the run's settings (which its
        signature names)."""
        return MetricCorpus(self, list(pairs), on_error, bootstrap, bootstrap_seed)

    def intervals(self, corpus: Any, resamples: int = DEFAULT_RESAMPLES,
                  seed: int = DEFAULT_SEED) -> tuple[Any, dict[str, Any]]:
        """The corpus's bootstrap intervals, and the intervals of the parts of its summary
        (name -> intervals, filed under ``summary[name]["bootstrap"]``: the alignment family's
        aspects and coreference subscores; none here)."""
        return bootstrap_metric(self, corpus.stats, resamples, seed), {}

    # compare: several systems against one gold, each against the first (sacreBLEU's paired tests)

    def compare_line(self, row: Sequence[Any], names: Sequence[str], gold_id: str | None = None
                     ) -> dict[str, Any] | None:
        """``compare``'s ``--pairs-out`` line of one row (every system's pair result against one
        gold graph, ``names`` the systems'); ``None`` (no line) for a row a system skipped."""
        if any(p.stats is None for p in row):
            return None
        k = row[0].index
        scores = [self.pair_scores(p.stats)[self.headline] for p in row]
        out: dict[str, Any] = {"index": k, "id": gold_id or row[0].id}
        out.update(zip(names, scores))
        if len(names) > 2:
            out.update((f"difference_{name}", scores[0] - x) for name, x in zip(names[1:], scores[1:]))
        else:
            out["difference"] = scores[0] - scores[1]
        return out

    def compare_systems(self, rows: Sequence[Sequence[Any]], resamples: int = DEFAULT_RESAMPLES,
                        trials: int = DEFAULT_TRIALS, seed: int = DEFAULT_SEED) -> list[list[Comparison]]:
        """Each system but the first against the first, on ``rows`` (no system skipped any):
        paired bootstrap and approximate randomization on the difference of the micro headline
        scores (:func:`smatchpp.statistics.significance.compare_columns`, the one paired test), the same
        resamples and trials for every system.  A list of comparisons per system: the headline
        first, then the parts a metric compares too (the alignment family's aspects)."""
        systems = len(rows[0]) if rows else 2
        stats = [np.array([row[j].stats for row in rows], dtype=float).reshape(len(rows), len(self.stat_names))
                 for j in range(systems)]

        def headline(*sums):
            return self.scores(np.stack(np.broadcast_arrays(*sums), axis=-1))[self.headline]

        return [[compare_columns(headline, stats[0].T, other.T, resamples, trials, seed, name=self.name)]
                for other in stats[1:]]

    def compare_notes(self, rows: Sequence[Sequence[Any]], kept: Sequence[Sequence[Any]],
                      dropped: Sequence[int], names: Sequence[str], pairs: int) -> dict[str, Any]:
        """What ``compare``'s summary says beside the comparisons: ``line``, the pair counts;
        ``summary``, its keys before the comparisons; ``mode``, the aspects' alignment mode of
        the parts compared; ``warning``, a line for standard error (or ``None``)."""
        line = (f"pairs: {pairs} compared" + (", each system against sys1" if len(names) > 2 else "")
                + (f", {len(dropped)} left out (unreadable)" if dropped else ""))
        return {"line": line, "summary": {}, "mode": None, "warning": None}

    # search: each query's top corpus graphs

    def search_line(self, found: Any, ids: tuple[Sequence[str], Sequence[str]], signature: str) -> dict[str, Any]:
        """``search``'s line of one query's result ``(query, scores, corpus indices)`` (:meth:`top_k`);
        ``ids``: the queries' and the corpus graphs' names."""
        q, scores, order = found
        return {"query": q, "id": ids[0][q], "hits": [
            {"index": int(j), "id": ids[1][j], "score": float(x)} for j, x in zip(order, scores)],
            "signature": signature}

    def search_summary(self, found: Sequence[Any], seconds: float) -> str:
        """What ``search``'s summary line adds after ``Q queries x N graphs`` (nothing here)."""
        return ""

    # --- derived ----------------------------------------------------------------

    @classmethod
    def params(cls) -> list[tuple[str, str, Any]]:
        """``(field name, signature key, field)`` of every parameter, in declaration order."""
        return [(s.name, s.key, f) for s, f in zip(cls.settings(), declared(cls))]

    @classmethod
    def settings(cls) -> tuple[Setting, ...]:
        """Every parameter as a signed :class:`~smatchpp.core.signature.Setting`, in declaration order."""
        return signed(cls, key=lambda name: f"{cls.name}-{name.replace('_', '-')}", flag=lambda key: f"--{key}")

    def sign(self, on_error: str = "raise", bootstrap: int | None = None,
             bootstrap_seed: int = DEFAULT_SEED, ar_trials: int | None = None) -> Signature:
        """The :class:`~smatchpp.core.signature.Signature` of :meth:`signature`."""
        return Signature.write(self.settings(), self, head=[("metric", self.name)],
                               tail=run_tokens(on_error, bootstrap, bootstrap_seed, ar_trials)
                               + [("deterministic", "yes")])

    def signature(self, on_error: str = "raise", bootstrap: int | None = None,
                  bootstrap_seed: int = DEFAULT_SEED, ar_trials: int | None = None) -> str:
        """``smatchpp:VERSION|metric:NAME|KEY:VALUE|...``: every setting that changes a number
        (the resampling settings only when resamples are drawn, as for Smatch; ``ar_trials``:
        compare's approximate-randomization trials)."""
        return str(self.sign(on_error, bootstrap, bootstrap_seed, ar_trials))

    @classmethod
    def parse_signature(cls, signature: str) -> tuple[str, dict[str, str]]:
        """``(metric name, {key: value text})`` of a metric signature (without the version,
        the name and ``deterministic``); refuses another smatchpp version and repeated keys.

        >>> Metric.parse_signature("smatchpp:%s|metric:jaccard|errors:skip|deterministic:yes" % __version__)
        ('jaccard', {'errors': 'skip'})
        """
        sig = Signature.parse(signature)
        sig.check_version()
        if sig.metric is None:
            raise SignatureError("not a metric signature: it has no metric: key")
        return sig.metric, dict(sig.without("smatchpp", "metric", "deterministic").tokens)

    @classmethod
    def from_signature(cls, signature: "str | Signature", files: dict[str, str] | None = None) -> "Metric":
        """The metric (with its parameters) that wrote ``signature``; the run's settings in it
        (``errors``, ``bootstrap``, ``bootstrap-seed``, ``ar-trials``: :meth:`Signature.run
        <smatchpp.core.signature.Signature.run>`) are left out.  On :class:`Metric` itself, the
        registered metric the signature names (``smatch`` when it names none); on a metric's
        class, a signature of another metric is refused.  ``files``: ``{parameter: path}``,
        the files the signature names by their identity.  Raises
        :class:`~smatchpp.core.signature.SignatureError` (a ``ValueError``).

        >>> from smatchpp.metrics import get_metric
        >>> m = get_metric("wlk", iterations=3)
        >>> type(m).from_signature(m.signature(on_error="skip", bootstrap=10)) == m
        True
        >>> Metric.from_signature(m.signature()) == m
        True
        """
        sig = Signature.parse(signature)
        sig.check_version()
        name = sig.metric or "smatch"
        target = cls
        if getattr(cls, "name", None) is None:  # Metric, PairMean: the registered one
            load_plugins()
            if name not in METRICS:
                raise SignatureError(f"unknown metric {name!r}; known: {', '.join(sorted(METRICS))}")
            target = METRICS[name]
        elif name != cls.name:
            raise SignatureError(f"a signature of metric {name}, not of {cls.name}")
        try:
            return target.from_tokens(sig, files)
        except SignatureError:
            raise
        except ValueError as exc:
            raise SignatureError(f"invalid signature of metric {name}: {exc}") from None

    @classmethod
    def from_tokens(cls, sig: Signature, files: dict[str, str] | None = None) -> "Metric":
        """The metric of a parsed signature of this metric (:meth:`from_signature`); a metric
        whose signature is not the default one (the alignment family's) overrides this."""
        if sig.get("deterministic", "yes") != "yes":
            raise SignatureError(f"deterministic:{sig['deterministic']} contradicts the metric "
                                 f"{cls.name}, which is deterministic")
        values = sig.read(cls.settings(), ignore=("metric", "deterministic") + RUN_KEYS, files=files,
                          what=f"metric {cls.name}")
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

    def top_k(self, query: Any, corpus: Sequence[Any], k: int,
              chunk: int = 256, prune: bool = True) -> tuple[np.ndarray, np.ndarray, int]:
        """The ``k`` corpus features of highest headline score against ``query``'s (ties: the
        lower corpus index first), as ``(indices, their scores, pairs pruned)``.

        A metric with :meth:`upper_stats` has its pairs scored in decreasing order of their
        bound's score, and a pair whose bound is below the k-th score found (by more than a
        rounding margin) is never scored: the hits are those of scoring every pair.  A metric
        without a bound, or ``prune=False``, scores every pair with :meth:`stats_matrix`.
        """
        n = len(corpus)
        uppers = self.upper_stats_matrix(query, corpus) if n and prune else None
        if uppers is None:
            scores = self.scores(self.stats_matrix([query], corpus))[self.headline][0]
            order = np.lexsort((np.arange(n), -scores))[:k]
            return order, scores[order], 0
        bound = np.asarray(self.scores(uppers)[self.headline], dtype=float)
        visit = np.lexsort((np.arange(n), -bound))
        found_idx: list[np.ndarray] = []
        found_scores: list[np.ndarray] = []
        best = np.empty(0)
        done = 0
        while done < n:
            if best.size >= k and bound[visit[done]] < best[k - 1] - 1e-9 * max(1.0, abs(best[k - 1])):
                break
            part = visit[done:done + chunk]
            scores = self.scores(self.stats_matrix([query], [corpus[j] for j in part]))[self.headline][0]
            found_idx.append(part)
            found_scores.append(np.asarray(scores, dtype=float))
            done += len(part)
            best = -np.sort(-np.concatenate(found_scores))  # descending, NaN last
        idx, scores = np.concatenate(found_idx), np.concatenate(found_scores)
        order = np.lexsort((idx, -scores))[:k]
        return idx[order], scores[order], n - done

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
    micro_is_macro = True

    def scores(self, stats: np.ndarray) -> dict[str, np.ndarray]:
        s = np.asarray(stats, dtype=float)
        sim, pairs = s[..., 0], s[..., 1]
        return {"score": np.divide(sim, pairs, out=np.zeros_like(sim), where=pairs > 0)}


def run_tokens(on_error: str = "raise", bootstrap: int | None = None, bootstrap_seed: int = DEFAULT_SEED,
               ar_trials: int | None = None) -> list[tuple[str, str]]:
    """The run's tokens of a metric's signature: ``errors``, and the resampling settings
    when resamples are drawn."""
    out = [("errors", on_error)]
    if bootstrap is not None:
        out += [("bootstrap", str(bootstrap)), ("bootstrap-seed", str(bootstrap_seed))]
    if ar_trials is not None:
        out.append(("ar-trials", str(ar_trials)))
    return out


@dataclass
class MetricPair:
    """One pair's result, the one type every command handles for every metric: its
    statistics (``None`` for a pair that was skipped), its error text, and what the metric's
    family knows of the pair beyond them (``detail``).

    The alignment family's ``detail`` is the pair's :class:`~smatchpp.alignment.score.PairScore`
    (its certificate and bounds, status and stage, alignment, solver statistics, aspect counts
    and coreference counts): per-pair data on the one road, which the family's methods
    (:meth:`Metric.pair_json`, :meth:`Metric.corpus`, :meth:`Metric.compare_line`, ...) read;
    :meth:`smatchpp.metrics.alignment.AlignmentMetric.result` makes such a pair."""

    index: int
    id: str | None
    stats: tuple[float, ...] | None
    error: str | None = None
    #: the metric's explanation of the pair (:meth:`Metric.explain`), when a run asked for it
    explanation: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    #: the family's own data of the pair (the alignment family's ``PairScore``), or ``None``
    detail: Any = field(default=None, compare=False, repr=False)

    @property
    def skipped(self) -> bool:
        """Whether the pair was skipped (an unreadable graph, ``--on-error skip``)."""
        return self.stats is None

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

    def to_pandas(self, metric: Metric):
        """This pair as a one-row :class:`pandas.DataFrame` (the metric's signature in ``attrs``)."""
        return tables.to_pandas([self.to_json(metric)], metric.signature())

    def to_arrow(self, metric: Metric):
        """This pair as a one-row :class:`pyarrow.Table` (see :meth:`to_pandas`)."""
        return tables.to_arrow([self.to_json(metric)], metric.signature())


def _finite(x: float) -> float | int | None:
    if not math.isfinite(x):
        return None
    return int(x) if float(x).is_integer() and abs(x) < 2 ** 53 else x


@dataclass
class MetricCorpus:
    """Every pair's result under one metric, with micro and macro averages: the one corpus
    type every command handles for every metric.  ``detail``: the family's own corpus data
    (the alignment family's :class:`~smatchpp.alignment.score.CorpusScore` of the pairs'
    details: certificates, bounds, the aspects' and the coreference summaries), whose
    :meth:`summary` is then the corpus's (:meth:`Metric.corpus` makes it)."""

    metric: Metric
    pairs: list[MetricPair]
    on_error: str = "raise"

    bootstrap: int | None = None
    bootstrap_seed: int = DEFAULT_SEED
    #: the family's corpus data (the alignment family's ``CorpusScore``), or ``None``
    detail: Any = field(default=None, compare=False, repr=False)

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

    @property
    def scored(self) -> list[MetricPair]:
        """The pairs that were scored (not skipped)."""
        return [p for p in self.pairs if p.stats is not None]

    def summary(self) -> dict[str, Any]:
        """The corpus summary of ``--format json`` (the family's, when it keeps its own data)."""
        if self.detail is not None:
            return self.detail.summary()
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

    def _summary_with(self, intervals) -> dict[str, Any]:
        summary = self.summary()
        if intervals is not None:
            summary["bootstrap"] = intervals.to_json()
        return summary

    def to_pandas(self, intervals: "MetricIntervals | None" = None, **parts):
        """One row per pair (:meth:`MetricPair.to_json`) as a :class:`pandas.DataFrame`, with
        ``attrs["signature"]`` and ``attrs["summary"]`` (with ``intervals`` under ``bootstrap``);
        the family's table when it keeps its own data (``parts``: its arguments, the alignment
        family's ``aspect_intervals``)."""
        if self.detail is not None:
            return self.detail.to_pandas(intervals, **parts)
        return tables.to_pandas([p.to_json(self.metric) for p in self.pairs], self.signature,
                                self._summary_with(intervals))

    def to_arrow(self, intervals: "MetricIntervals | None" = None, **parts):
        """:meth:`to_pandas` as a :class:`pyarrow.Table` (signature and summary in its metadata)."""
        if self.detail is not None:
            return self.detail.to_arrow(intervals, **parts)
        return tables.to_arrow([p.to_json(self.metric) for p in self.pairs], self.signature,
                               self._summary_with(intervals))

    @classmethod
    def from_pandas(cls, table) -> "MetricCorpus":
        """The corpus of a :meth:`to_pandas` frame or :meth:`to_arrow` table: the metric and the
        run's settings from its signature, each pair's statistics from its columns."""
        found, signature, _ = tables.rows(table)
        if not signature:
            raise ValueError("the table has no smatchpp signature (attrs['signature'])")
        name, tokens = Metric.parse_signature(signature)
        known = {c.name: c for c in _subclasses(Metric) if isinstance(getattr(c, "name", None), str)}
        if name not in known:
            raise ValueError(f"the signature names metric {name!r}, which is not loaded "
                             "(import smatchpp.metrics)")
        metric = known[name].from_signature(signature)
        pairs = [MetricPair(int(r["index"]), r.get("id"),
                            None if r.get("status") == "skipped" else tuple(float(r[k]) for k in metric.stat_names),
                            r.get("error")) for r in found]
        bootstrap = tokens.get("bootstrap")
        run = (tokens.get("errors", "raise"), int(bootstrap) if bootstrap else None,
               int(tokens.get("bootstrap-seed", DEFAULT_SEED)))
        # the metric's own corpus type (the counter metric's summary has its aspects), unless a
        # subclass asked for itself
        return metric.corpus(pairs, *run) if cls is MetricCorpus else cls(metric, pairs, *run)

    def _repr_html_(self) -> str:
        """A notebook shows the corpus summary (:func:`smatchpp.core.tables.summary_html`)."""
        return tables.summary_html(self.summary())


def _subclasses(cls: type) -> list[type]:
    """Every subclass of ``cls`` loaded, at any depth (the metrics, without importing their
    registry: it imports this module)."""
    out = []
    for sub in cls.__subclasses__():
        out += [sub] + _subclasses(sub)
    return out


def _mean(values: np.ndarray) -> float:
    """The mean of the scores that are not NaN (n/a), added in order; NaN when none is."""
    if np.isnan(values).any():
        values = values[~np.isnan(values)]
        if not len(values):
            return math.nan
    return float(sum_in_order(values)) / len(values)


#: a metric's bootstrap intervals: the one interval type, :class:`~smatchpp.statistics.significance.BootstrapCI`
#: (``lower`` the statistics' intervals, ``micro`` and ``macro`` its; no ``upper``)
MetricIntervals = BootstrapCI


def bootstrap_metric(metric: Metric, stats: np.ndarray, resamples: int = DEFAULT_RESAMPLES,
                     seed: int = DEFAULT_SEED, level: float = LEVEL) -> MetricIntervals:
    """Percentile bootstrap intervals for any metric from its per-pair statistics.

    The index rows are :func:`smatchpp.statistics.significance.index_chunks`'s, so with the
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
        return BootstrapCI(resamples, seed, level, 0, Intervals(dict(zero), dict(zero)))
    micro, macro = bootstrap_scores(metric.scores, stats, resamples, seed, level)
    return BootstrapCI(resamples, seed, level, n, Intervals(micro, macro))

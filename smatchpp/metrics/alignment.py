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

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

import numpy as np

from ..alignment.config import Config
from ..graphs.read import RawGraph
from ..core.signature import Signature
from ..statistics.significance import DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TRIALS, paired_stats, prf_arrays
from .base import Metric, MetricCorpus, MetricPair
from .registry import register

if TYPE_CHECKING:
    from ..alignment.aligner import PairAligner
    from ..alignment.score import CorpusScore, PairScore
    from ..statistics.significance import Comparison
    from ..graphs.triples import TripleGraph

__all__ = ["AlignmentMetric", "SolvesWithAligner", "check_config", "without_run", "comparisons", "corpus_comparisons",
           "aspect_bootstrap", "coref_bootstrap"]

#: Config fields a metric cannot carry: resampling settings are the run's (:meth:`Metric.signature`)
_RUN_ONLY = {"bootstrap": "a resampling setting: give it to the run (Metric.signature's bootstrap)",
             "bootstrap_seed": "a resampling setting: give it to the run (Metric.signature's bootstrap_seed)",
             "ar_trials": "a resampling setting of compare"}
#: Config fields the metric carries that only a run of many pairs honours (the command line's
#: road, :class:`smatchpp.api.Scorer`): a corpus budget, and the aspect counts each pair of
#: the run carries; a method that scores one pair by itself refuses them (:meth:`AlignmentMetric.one_pair`)
_CORPUS_ONLY = {"total_time_limit": "a corpus budget (score --total-time-limit)",
                "aspects": "aspect scores, counted on a run's pairs (score --aspects)"}


@lru_cache(maxsize=None)
def _corpus_only_defaults() -> dict[str, Any]:
    """The default of each setting of :data:`_CORPUS_ONLY` (a Config made once, not once a pair)."""
    default = Config()
    return {name: getattr(default, name) for name in _CORPUS_ONLY}


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

    #: a pair is a solve: every core from the first pair; the solver's objects are left to the
    #: cycle collector
    cheap_pairs = False

    def one_pair(self) -> None:
        """Refuse the settings that only a run of many pairs honours (:data:`_CORPUS_ONLY`): the
        one place where a method scoring one pair by itself (:meth:`stats`, :meth:`pair`,
        :meth:`explain`, :meth:`upper_stats`; so ``matrix`` and ``search``) says so."""
        default = _corpus_only_defaults()
        for name, why in _CORPUS_ONLY.items():
            if getattr(self.config, name) != default[name]:
                raise ValueError(f"{name} is {why}: a pair scored by itself cannot honour it")

    def features(self, graph: RawGraph) -> "TripleGraph":
        from ..presets import Options, standardize

        return standardize(graph, self.config.preset, **vars(Options.of(self.config)))

    def pair(self, a: "TripleGraph", b: "TripleGraph", index: int = 0,
             id: str | None = None) -> "PairScore":
        """The pair's full :class:`~smatchpp.alignment.score.PairScore` (status, stage, alignment, ...)."""
        self.one_pair()
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
        self.one_pair()
        core = self.aligner
        ra, rb = core.rewrite(a, b)
        bound = core.label_bound(a, b)
        return (bound, bound, core.matcher.total(ra) * core.scale, core.matcher.total(rb) * core.scale)

    def explain(self, a: "TripleGraph", b: "TripleGraph") -> dict[str, Any]:
        """The alignment the score counts: ``[A variable, B variable]`` pairs (solves again)."""
        return {"alignment": [list(p) for p in self.pair(a, b).alignment]}

    @classmethod
    def certifies(cls) -> bool:
        """Yes: a pair under a time or work limit may end with an interval, not a certified optimum."""
        return True

    # --- the road of a run: each pair a MetricPair whose detail is its PairScore (certificates,
    # bounds, aspect counts), the per-pair data of the family on the one road ---------------------

    @staticmethod
    def result(score: "PairScore") -> MetricPair:
        """The pair result of a solved pair (:meth:`smatchpp.api.Scorer.iter_scores`'s
        :class:`~smatchpp.alignment.score.PairScore`): the statistics :meth:`stats` gives, the
        error text, and the ``PairScore`` itself as ``detail``.

        >>> from smatchpp.alignment.score import PairScore
        >>> r = AlignmentMetric.result(PairScore(0, "a", 3, 4, 4, 5, "time_limit", "exact"))
        >>> r.stats, r.detail.status
        ((3.0, 4.0, 4.0, 5.0), 'time_limit')
        >>> AlignmentMetric.result(PairScore(1, None, 0, 0, 0, 0, "skipped", "exact")).skipped
        True
        """
        stats = None if score.status == "skipped" else (
            float(score.matched), float(score.upper), float(score.test_weight), float(score.gold_weight))
        return MetricPair(score.index, score.id, stats, score.error, None, score)

    def note(self) -> str | None:
        """The preset's warning (presets that are not Smatch have one)."""
        from ..presets import get_preset

        return get_preset(self.config.preset).note or None

    def run_config(self, on_error: str | None = None, bootstrap: int | None = None,
                   bootstrap_seed: int = DEFAULT_SEED, ar_trials: int | None = None) -> Config:
        """The Config of a run: the metric's, with the run's error handling and resampling
        (what :class:`smatchpp.api.Scorer` scores with and the summary signs)."""
        return self.config.replace(on_error=on_error or self.config.on_error, bootstrap=bootstrap,
                                   bootstrap_seed=bootstrap_seed, ar_trials=ar_trials)

    def pair_json(self, pair: MetricPair, details: bool = False) -> dict[str, Any]:
        """The pair's :meth:`PairScore.to_json` (``details``: with the alignment,
        ``--alignments``); a pair scored by :meth:`stats` alone (no ``detail``): its statistics."""
        if pair.detail is None:
            return super().pair_json(pair, details)
        return pair.detail.to_json(details)

    def corpus(self, pairs, on_error: str = "raise", bootstrap: int | None = None,
               bootstrap_seed: int = DEFAULT_SEED) -> MetricCorpus:
        """The corpus of a run's pairs, signed with the run's settings; its ``detail`` the
        :class:`~smatchpp.alignment.score.CorpusScore` of the pairs' details (with the aspects'
        summary when they carry aspect counts), whose summary is the corpus's.  A
        :class:`~smatchpp.alignment.score.PairScore` among ``pairs`` (a Scorer's) is taken as its
        pair result (:meth:`result`)."""
        pairs = [p if isinstance(p, MetricPair) else self.result(p) for p in pairs]
        detail = None
        if all(p.detail is not None for p in pairs):
            detail = self.corpus_score([p.detail for p in pairs], on_error, bootstrap, bootstrap_seed)
        return MetricCorpus(self, pairs, on_error, bootstrap, bootstrap_seed, detail)

    def corpus_score(self, scores: Sequence["PairScore"], on_error: str = "raise", bootstrap: int | None = None,
                     bootstrap_seed: int = DEFAULT_SEED) -> "CorpusScore":
        """The :class:`~smatchpp.alignment.score.CorpusScore` of pair scores (with the aspects'
        summary when they carry aspect counts), signed with the run's settings."""
        from ..alignment.score import CorpusScore

        scores = list(scores)
        config = self.run_config(on_error, bootstrap, bootstrap_seed)
        aspects = None
        if any(p.aspects is not None for p in scores):
            from ..aspects.core import aspect_summary

            aspects = aspect_summary(scores, config)
        return CorpusScore(scores, config, None, aspects)

    def intervals(self, corpus: "MetricCorpus | CorpusScore", resamples: int = DEFAULT_RESAMPLES,
                  seed: int = DEFAULT_SEED) -> tuple[Any, dict[str, Any]]:
        """Percentile bootstrap intervals of P/R/F1 (of the lower and, with uncertified pairs,
        the upper bounds: :func:`smatchpp.statistics.significance.bootstrap`), and on the same resampled
        pairs those of the aspects (``aspects``) and of the coreference subscores (``coref``).
        ``corpus``: a run's corpus (:meth:`corpus`), or the ``CorpusScore`` of its details; a
        corpus of statistics alone (:meth:`Metric.score_graphs`): the statistics' intervals."""
        from ..statistics.significance import PairStats, bootstrap

        if isinstance(corpus, MetricCorpus):
            if corpus.detail is None:  # pairs scored by stats() alone: their statistics' intervals
                return super().intervals(corpus, resamples, seed)
            corpus = corpus.detail
        ci = bootstrap(PairStats.from_pairs(corpus.scored), resamples, seed)
        parts: dict[str, Any] = {}
        scored = [p.aspects for p in corpus.scored if p.aspects is not None]
        if scored:
            from ..aspects.core import aspect_intervals

            parts["aspects"] = {"resamples": resamples, "seed": seed, "level": 0.95, "method": "percentile",
                                "f1": aspect_intervals(scored, resamples, seed)}
        coref = _coref_intervals(corpus, resamples, seed)
        if coref:
            parts["coref"] = coref
        return ci, parts

    # --- compare: Smatch, and the aspects and coreference subscores the pairs carry ---------

    headline_title = "F1"

    def compare_line(self, row, names, gold_id=None) -> dict[str, Any]:
        """Every system's :meth:`PairScore.to_json` and each one's F1 difference to the first (pairs
        scored by :meth:`stats` alone, without ``detail``: every metric's line)."""
        if any(p.detail is None for p in row):
            return super().compare_line(row, names, gold_id)
        row = [p.detail for p in row]
        if len(names) == 2:
            p1, p2 = row
            out = {"index": p1.index, "id": p1.id or p2.id, "sys1": p1.to_json(), "sys2": p2.to_json()}
            if "skipped" not in (p1.status, p2.status):
                out["f1_difference"] = p1.f1 - p2.f1
            return out
        out = {"index": row[0].index, "id": next((p.id for p in row if p.id), None)}
        out.update((name, p.to_json()) for name, p in zip(names, row))
        if all(p.status != "skipped" for p in row):
            out.update((f"f1_difference_{name}", row[0].f1 - p.f1) for name, p in zip(names[1:], row[1:]))
        return out

    def compare_systems(self, rows, resamples: int = DEFAULT_RESAMPLES, trials: int = DEFAULT_TRIALS,
                        seed: int = DEFAULT_SEED) -> list[list["Comparison"]]:
        """Smatch's micro F1 of each system against the first (:func:`smatchpp.statistics.significance.compare`:
        :func:`~smatchpp.statistics.significance.compare_columns` with the bounds of uncertified pairs), then
        the coreference subscores and the aspects the pairs carry, each its own comparison."""
        if any(p.detail is None for row in rows for p in row):  # statistics alone: every metric's test
            return super().compare_systems(rows, resamples, trials, seed)
        systems = len(rows[0]) if rows else 2
        corpora = [[row[k].detail for row in rows] for k in range(systems)]
        return [comparisons(corpora[0], other, resamples, trials, seed) for other in corpora[1:]]

    def compare_notes(self, rows, kept, dropped, names, pairs: int) -> dict[str, Any]:
        """The pairs certified optimal in each system beside the pair counts, the aspects' mode,
        and a warning for the pairs left out (skipped in a system)."""
        if any(p.detail is None for row in rows for p in row):  # statistics alone: no certificates
            return super().compare_notes(rows, kept, dropped, names, pairs)
        many = len(names) > 2
        counted = kept if many else rows  # two systems: every finished pair of each
        certified = [sum(row[k].detail.status == "optimal" for row in counted) for k in range(len(names))]
        which = "any" if many else "either"
        line = (f"pairs: {pairs} compared" + (", each system against sys1" if many else "")
                + (f", {len(dropped)} left out (skipped in {which} system)" if dropped else "")
                + "; certified optimal: "
                + (", ".join(f"{n} {c}" for n, c in zip(names, certified)) if many
                   else f"sys1 {certified[0]}, sys2 {certified[1]}"))
        warning = (f"{len(dropped)} pair{'' if len(dropped) == 1 else 's'} left out of the comparison "
                   f"(skipped in {which} system)" if dropped else None)
        return {"line": line, "summary": {"certified_optimal": dict(zip(names, certified))},
                "mode": self.config.aspects, "warning": warning}

    # --- search: exact F1, the pairs a bound keeps out never solved ---------------------

    def search_line(self, r, ids, signature: str) -> dict[str, Any]:
        """A query's line (:class:`smatchpp.matrix.QueryResult`): its hits with F1, matched, upper
        bound and status, and what it took (pairs solved, kept out by the star bound and by the
        label bound, certified)."""
        return {"query": r.query, "id": ids[0][r.query], "solved": r.solved, "bounded": r.bounded,
                "pruned": r.pruned, "certified": r.certified,
                "hits": [{"index": h.index, "id": ids[1][h.index], "f1": h.f1, "matched": h.matched,
                          "upper": h.upper, "status": h.status} for h in r.hits],
                "signature": signature}

    def search_summary(self, found, seconds: float) -> str:
        counts = {key: sum(getattr(r, key) for r in found) for key in ("solved", "bounded", "pruned", "certified")}
        return (f": {counts['solved']} pairs solved ({counts['certified']} certified), "
                f"{counts['bounded'] + counts['pruned']} pruned by bounds ({counts['pruned']} by label counts, "
                f"{counts['bounded']} by the star bound); {seconds:.2f} s")

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


def _coref_intervals(corpus: "CorpusScore", resamples: int, seed: int) -> dict[str, Any]:
    """The bootstrap intervals of the coreference subscores (``--coref-subscore``): the pairs the
    main score's intervals resample (same seed), Total Coref and Non-Coref counts of each."""
    from ..statistics.significance import PairStats, bootstrap

    scored = [p for p in corpus.scored if p.coref is not None]
    out: dict[str, Any] = {}
    if not scored:
        return out
    for name, part in (("Total Coref", lambda p: p.coref),
                       ("Non-Coref", lambda p: (p.matched - p.coref[0], p.test_weight - p.coref[1],
                                                p.gold_weight - p.coref[2]))):
        rows = [part(p) for p in scored]
        stats = PairStats.from_counts([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])
        out[name] = bootstrap(stats, resamples, seed).to_json()
    return out


def comparisons(pairs1: Sequence["PairScore"], pairs2: Sequence["PairScore"], resamples: int = DEFAULT_RESAMPLES,
                trials: int = DEFAULT_TRIALS, seed: int = DEFAULT_SEED) -> list["Comparison"]:
    """Smatch (and, when the pairs carry them, the coreference subscores and the aspects) of two
    systems' pair scores against one gold, on the pairs neither skipped."""
    from ..statistics.significance import compare, compare_columns, paired_stats

    s1, s2, dropped = paired_stats(pairs1, pairs2)
    named = [("smatch", s1, s2, None)] + list(_named_stats(pairs1, pairs2, dropped))
    kwargs = {"resamples": resamples, "trials": trials, "seed": seed}
    out = []
    for name, a, b, vacuous in named:
        c = compare(a, b, name=name, **kwargs)
        if vacuous is not None:
            # the set scores an aspect empty on both sides as ``vacuous`` (as score does): a
            # system whose summed counts are empty, in the data or in a resample, scores it
            c = compare_columns(_vacuous_f1(vacuous), (a.matched, a.test, a.gold), (b.matched, b.test, b.gold),
                                name=name, certified=c.certified, delta_range=c.delta_range, **kwargs)
        if name != "smatch" and not any(x.sum() for s in (a, b) for x in (s.test, s.gold)):
            # an aspect with no items in either system or the gold: n/a, as in score (Damonte's
            # set), or vacuous agreement
            c = (replace(c, f1=(None, None), extra={**c.extra, "no_items": True}) if vacuous is None
                 else replace(c, extra={**c.extra, "no_items": True, "vacuous": True}))
        out.append(c)
    return out


def _vacuous_f1(vacuous: float):
    """Micro F1 of summed counts, ``vacuous`` where both sums are 0 (vectorised)."""
    def f1(matched, test, gold):
        test, gold = np.asarray(test), np.asarray(gold)
        return np.where((test == 0) & (gold == 0), vacuous, prf_arrays(matched, test, gold)[2])
    return f1


def _named_stats(pairs1: Sequence["PairScore"], pairs2: Sequence["PairScore"], dropped: list[int]) -> Iterator:
    """Further per-pair counts to compare, ``(name, stats1, stats2, vacuous)``: docSmatch's
    coreference subscores (``--coref-subscore``), then the aspects (``--aspects``), in the
    papers' order, each with the F1 of an aspect empty on both sides (:attr:`AspectCount.vacuous`)."""
    left_out = set(dropped)
    kept = [(p, q) for k, (p, q) in enumerate(zip(pairs1, pairs2)) if k not in left_out]
    if kept and all(p.coref is not None and q.coref is not None for p, q in kept):
        for name, part in (("Total Coref", lambda p: p.coref),
                           ("Non-Coref", lambda p: (p.matched - p.coref[0], p.test_weight - p.coref[1],
                                                    p.gold_weight - p.coref[2]))):
            yield name, _count_stats(part(p) for p, _ in kept), _count_stats(part(q) for _, q in kept), None
    if not kept or any(p.aspects is None or q.aspects is None for p, q in kept):
        return
    from ..aspects.core import aspect_title

    for name in kept[0][0].aspects:  # the set's order
        yield aspect_title(name), _aspect_stats(p.aspects[name] for p, _ in kept), \
            _aspect_stats(q.aspects[name] for _, q in kept), kept[0][0].aspects[name].vacuous


def _count_stats(rows: Iterable[tuple[float, float, float]]):
    """Per-pair ``(matched, test, gold)`` (found on the pair's alignment: its upper bound too)."""
    from ..statistics.significance import PairStats

    cols = np.array(list(rows), dtype=np.float64).reshape(-1, 3)
    return PairStats(cols[:, 0], cols[:, 0], cols[:, 1], cols[:, 2])


def _aspect_stats(counts: Iterable[Any]):
    from ..statistics.significance import PairStats

    rows = [(c.matched, c.upper, c.test, c.gold) for c in counts]
    cols = np.array(rows, dtype=np.float64).reshape(-1, 4)
    return PairStats(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3])


def without_run(config: Config) -> Config:
    """``config`` without the resampling settings (a signature's, which are the run's)."""
    return config.replace(**{name: getattr(Config(), name) for name in ("bootstrap", "bootstrap_seed", "ar_trials")})


def aspect_bootstrap(corpus: "CorpusScore | MetricCorpus", config: Config) -> dict:
    """Each aspect's bootstrap intervals of F1 (:func:`smatchpp.aspects.core.aspect_intervals`),
    from the pairs the main score's intervals resample (:meth:`AlignmentMetric.intervals`'s
    ``aspects`` part)."""
    metric = AlignmentMetric(without_run(config))
    return metric.intervals(corpus, config.bootstrap, config.bootstrap_seed)[1].get("aspects", {})


def coref_bootstrap(corpus: "CorpusScore | MetricCorpus", config: Config) -> dict:
    """The bootstrap intervals of the coreference subscores (``--coref-subscore``): the pairs the
    main score's intervals resample (same seed) (:meth:`AlignmentMetric.intervals`'s ``coref``
    part)."""
    metric = AlignmentMetric(without_run(config))
    return metric.intervals(corpus, config.bootstrap, config.bootstrap_seed)[1].get("coref", {})


def corpus_comparisons(corpus1: "CorpusScore", corpus2: "CorpusScore", config: Config
                       ) -> tuple[list["Comparison"], list[int]]:
    """Smatch (and, when a pair carries them, further named counts) of two scored corpora
    (:func:`comparisons`, with ``config``'s resamples, trials and seed), and the indices of pairs
    left out (skipped in either system)."""
    dropped = paired_stats(corpus1.pairs, corpus2.pairs)[2]
    return (comparisons(corpus1.pairs, corpus2.pairs, config.bootstrap or DEFAULT_RESAMPLES,
                        config.ar_trials or DEFAULT_TRIALS, config.bootstrap_seed), dropped)

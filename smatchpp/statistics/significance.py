"""Bootstrap confidence intervals and paired significance tests on per-pair counts.

Everything works on the sufficient statistics of each graph pair
(:class:`PairStats`: ``matched``, its proven ``upper`` bound, ``test`` and
``gold`` triples), so a resample never re-scores a graph: micro P/R/F1 of a
resample come from its summed counts, macro P/R/F1 from the mean of its
pairs' scores.  Resamples are rows of an index matrix drawn by
``numpy.random.default_rng(seed)``, so the same seed gives the same
intervals on every run (smatchpp 1.8's change from run to run).

* :func:`bootstrap`: percentile intervals (default 95%) for micro and macro
  P/R/F1.  When some pair is not certified optimal, the same resamples are
  scored twice, from the lower bounds (the reported scores) and from the
  upper bounds, and both intervals are returned, labelled.
* :func:`compare`: two systems scored against the same gold.  A paired
  bootstrap (the same resampled pairs for both) gives the interval of
  Delta F1 = F1(sys1) - F1(sys2) (micro) and a p-value; an approximate
  randomization test gives another.  The exact definitions are in
  :func:`compare`'s docstring.

>>> s = PairStats.from_counts(matched=[3, 4, 2, 5], test=[4, 5, 4, 6], gold=[4, 4, 5, 6])
>>> ci = bootstrap(s, resamples=200, seed=1)
>>> lo, hi = ci.lower.micro["f1"]
>>> lo <= s.micro()[2] <= hi
True
>>> ci == bootstrap(s, resamples=200, seed=1)   # seeded: the same every time
True
>>> same = compare(s, s, resamples=200, trials=200)
>>> same.delta, same.interval, same.p_bootstrap, same.p_randomization
(0.0, (0.0, 0.0), 1.0, 1.0)
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

__all__ = ["PairStats", "Intervals", "index_chunks", "percentile_interval", "bootstrap_scores", "BootstrapCI", "Comparison", "bootstrap", "compare", "compare_columns", "paired_stats",
           "prf_arrays", "DEFAULT_SEED", "DEFAULT_RESAMPLES", "DEFAULT_TRIALS", "LEVEL"]

#: sacreBLEU's default seed, resample count and AR trial count
DEFAULT_SEED = 12345
DEFAULT_RESAMPLES = 1000
DEFAULT_TRIALS = 10000
LEVEL = 0.95
#: cells of one index (or swap) matrix chunk: bounds memory at any corpus size
_CHUNK_CELLS = 1 << 20
#: ties within this (on F1 in [0, 1]) count as "at least as extreme" (float sums of fractions)
_TIE = 1e-12
METRICS = ("precision", "recall", "f1")


def prf_arrays(matched: Any, test: Any, gold: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`smatchpp.alignment.score.prf` on arrays (0 wherever either side has no triples).

    >>> [a.tolist() for a in prf_arrays([3, 1], [4, 0], [6, 2])]
    [[0.75, 0.0], [0.5, 0.0], [0.6, 0.0]]
    """
    m, t, g = (np.asarray(x, dtype=np.float64) for x in (matched, test, gold))
    shape = np.broadcast(m, t, g).shape
    ok = (t > 0) & (g > 0)
    p = np.divide(m, t, out=np.zeros(shape), where=ok)
    r = np.divide(m, g, out=np.zeros(shape), where=ok)
    # the same operations as smatchpp.alignment.score.prf, so that the numbers agree to the last bit
    f = np.divide(2 * p * r, p + r, out=np.zeros(shape), where=ok & (p + r > 0))
    return p, r, f


def sum_in_order(values: Any, axis: int = 0) -> np.ndarray:
    """The sum along ``axis``, added left to right one value after another: the order of
    :class:`smatchpp.alignment.score.CorpusScore`'s totals.  numpy's ``sum`` of a 1-d array adds
    pairwise and Python 3.12's ``sum()`` compensates; either can move the last bit of a
    fractional total, and then ``score``, ``score --metric`` and ``compare`` would print
    different F1s of the same pairs.

    >>> x = [0.1] * 10
    >>> float(sum_in_order(x)) == 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1 + 0.1
    True
    >>> sum_in_order(np.ones((3, 2))).tolist(), sum_in_order(np.zeros((0, 2))).tolist()
    ([3.0, 3.0], [0.0, 0.0])
    """
    x = np.asarray(values, dtype=np.float64)
    if x.shape[axis] == 0:
        return x.sum(axis=axis)
    return np.add.accumulate(x, axis=axis).take(-1, axis=axis)


@dataclass(frozen=True, eq=False)
class PairStats:
    """Per-pair counts as float arrays of one length (one entry per scored pair)."""

    matched: np.ndarray
    upper: np.ndarray
    test: np.ndarray
    gold: np.ndarray

    def __post_init__(self) -> None:
        arrays = [np.asarray(getattr(self, k), dtype=np.float64).reshape(-1)
                  for k in ("matched", "upper", "test", "gold")]
        if len({a.shape for a in arrays}) != 1:
            raise ValueError("matched, upper, test and gold must have one length")
        for k, a in zip(("matched", "upper", "test", "gold"), arrays):
            object.__setattr__(self, k, a)

    @classmethod
    def from_counts(cls, matched: Sequence[float], test: Sequence[float], gold: Sequence[float],
                    upper: Sequence[float] | None = None) -> "PairStats":
        """From lists; ``upper`` defaults to ``matched`` (every pair certified)."""
        return cls(np.asarray(matched), np.asarray(matched if upper is None else upper),
                   np.asarray(test), np.asarray(gold))

    @classmethod
    def from_pairs(cls, pairs: Iterable[Any]) -> "PairStats":
        """From :class:`~smatchpp.alignment.score.PairScore` objects, leaving out skipped pairs."""
        rows = [(p.matched, p.upper, p.test_weight, p.gold_weight)
                for p in pairs if p.status != "skipped"]
        cols = np.array(rows, dtype=np.float64).reshape(-1, 4)
        return cls(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3])

    @property
    def n(self) -> int:
        return int(self.matched.shape[0])

    @property
    def certified(self) -> bool:
        """Every pair's ``matched`` equals its upper bound."""
        return bool(np.array_equal(self.matched, self.upper))

    def with_upper(self) -> "PairStats":
        """The same pairs with ``matched`` set to the upper bounds."""
        return PairStats(self.upper, self.upper, self.test, self.gold)

    def micro(self) -> tuple[float, float, float]:
        """P/R/F1 of the summed counts (smatch's corpus score)."""
        p, r, f = prf_arrays(self.matched.sum(), self.test.sum(), self.gold.sum())
        return float(p), float(r), float(f)

    def macro(self) -> tuple[float, float, float]:
        """The mean of the pairs' P, R and F1 (0 for no pairs)."""
        if not self.n:
            return 0.0, 0.0, 0.0
        return tuple(float(a.mean()) for a in prf_arrays(self.matched, self.test, self.gold))  # type: ignore[return-value]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PairStats) and all(
            np.array_equal(getattr(self, k), getattr(other, k)) for k in ("matched", "upper", "test", "gold"))


# --- resampling ---------------------------------------------------------------

def _rows_per_chunk(n: int) -> int:
    return max(1, _CHUNK_CELLS // max(n, 1))


def index_chunks(n: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """The bootstrap index matrix (``resamples`` x ``n``, with replacement), in row chunks.

    numpy draws 64-bit integers one after another, so the rows do not depend on
    the chunk size (tested).
    """
    rng = np.random.default_rng(seed)
    rows = _rows_per_chunk(n)
    for start in range(0, resamples, rows):
        yield rng.integers(0, n, size=(min(rows, resamples - start), n))


def _coin_flips(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """A ``rows`` x ``n`` matrix of fair 0/1 flips (uint8), the bits of raw 64-bit draws.

    Full-range 64-bit draws are taken one after another, so the flips do not
    depend on how the trials are chunked; the bytes are read little-endian on
    every machine.
    """
    words = rng.integers(0, np.iinfo(np.uint64).max, size=(rows, (n + 63) // 64), dtype=np.uint64,
                         endpoint=True)
    return np.unpackbits(words.astype("<u8").view(np.uint8), axis=1, count=n)


def _resampled_scores(stats: PairStats, idx: np.ndarray) -> dict[str, np.ndarray]:
    """Micro and macro P/R/F1 of each resample (row of ``idx``)."""
    sums = [col[idx].sum(axis=1) for col in (stats.matched, stats.test, stats.gold)]
    out = dict(zip((f"micro_{m}" for m in METRICS), prf_arrays(*sums)))
    for name, per_pair in zip(METRICS, prf_arrays(stats.matched, stats.test, stats.gold)):
        out[f"macro_{name}"] = per_pair[idx].mean(axis=1)
    return out


def percentile_interval(values: np.ndarray, level: float) -> tuple[float, float]:
    """The percentile interval (numpy's default linear interpolation)."""
    tail = 100 * (1 - level) / 2
    lo, hi = np.percentile(values, [tail, 100 - tail])
    return float(lo), float(hi)


def bootstrap_scores(scores: Callable[[np.ndarray], dict[str, np.ndarray]], stats: np.ndarray,
                     resamples: int, seed: int, level: float = LEVEL
                     ) -> tuple[dict[str, tuple[float, float]], dict[str, tuple[float, float]]]:
    """Percentile intervals ``(micro, macro)`` of every score ``scores`` gives, from the
    per-pair statistics ``stats`` (``n`` x ``k``, ``n > 0``), over :func:`index_chunks`' rows.

    A resample's micro score is ``scores`` of its summed rows, its macro score the mean of
    its pairs' scores.  A NaN score is n/a (an aspect with nothing on either side): such a
    pair is left out of its resample's macro mean, a resample whose score is NaN is left out
    of the interval, and an interval with nothing left is ``(nan, nan)``.

    >>> def share(s):
    ...     with np.errstate(invalid="ignore"):
    ...         return {"share": s[..., 0] / s[..., 1]}
    >>> micro, macro = bootstrap_scores(share, np.array([[1.0, 1], [0, 0], [0, 1]]), 200, 1)
    >>> 0.0 <= micro["share"][0] < micro["share"][1] <= 1.0, bootstrap_scores(share, np.zeros((1, 2)), 5, 1)[1]
    (True, {'share': (nan, nan)})
    """
    stats = np.asarray(stats, dtype=float)
    per_pair = {k: np.asarray(v) for k, v in scores(stats).items()}
    micro: dict[str, list[np.ndarray]] = {k: [] for k in per_pair}
    macro: dict[str, list[np.ndarray]] = {k: [] for k in per_pair}
    for idx in index_chunks(len(stats), resamples, seed):
        summed = scores(stats[idx].sum(axis=1))
        for k, v in per_pair.items():
            micro[k].append(np.asarray(summed[k]))
            if np.isnan(v).any():
                with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)  # a resample of n/a pairs only
                    macro[k].append(np.nanmean(v[idx], axis=1))
            else:
                macro[k].append(v[idx].mean(axis=1))
    return ({k: _interval(v, level) for k, v in micro.items()}, {k: _interval(v, level) for k, v in macro.items()})


def _interval(chunks: list[np.ndarray], level: float) -> tuple[float, float]:
    values = np.concatenate(chunks)
    values = values[~np.isnan(values)]
    return percentile_interval(values, level) if len(values) else (math.nan, math.nan)


@dataclass(frozen=True)
class Intervals:
    """Percentile intervals, ``{"precision": (lo, hi), "recall": ..., "f1": ...}`` each."""

    micro: dict[str, tuple[float, float]]
    macro: dict[str, tuple[float, float]]

    def to_json(self) -> dict[str, Any]:
        return {"micro": {k: list(v) for k, v in self.micro.items()},
                "macro": {k: list(v) for k, v in self.macro.items()}}


@dataclass(frozen=True)
class BootstrapCI:
    """Bootstrap intervals of a corpus score.

    ``lower`` resamples the reported scores (``matched``); ``upper`` is set only
    when some pair is uncertified and resamples the upper bounds instead.
    """

    resamples: int
    seed: int
    level: float
    pairs: int
    lower: Intervals
    upper: Intervals | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"resamples": self.resamples, "seed": self.seed, "level": self.level,
                               "method": "percentile", "pairs": self.pairs}
        out.update(self.lower.to_json())
        if self.upper is not None:
            out["from_upper_bounds"] = self.upper.to_json()
            out["note"] = ("some pairs are not certified: micro/macro above resample the lower "
                           "bounds (the reported scores), from_upper_bounds the upper bounds")
        return out


def bootstrap(stats: PairStats, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
              level: float = LEVEL) -> BootstrapCI:
    """Percentile bootstrap intervals for micro and macro P/R/F1 (pairs resampled).

    >>> s = PairStats.from_counts([1, 2], [2, 2], [2, 2], upper=[2, 2])
    >>> ci = bootstrap(s, resamples=100)
    >>> ci.lower.micro["f1"][0] <= 0.75 <= ci.lower.micro["f1"][1], ci.upper.micro["f1"]
    (True, (1.0, 1.0))
    """
    _check(resamples, level)
    bounds = [stats] if stats.certified else [stats, stats.with_upper()]
    if stats.n == 0:  # nothing to resample: the (zero) point estimate
        point = {m: (0.0, 0.0) for m in METRICS}
        blocks = [Intervals(dict(point), dict(point)) for _ in bounds]
    else:
        draws: list[dict[str, list[np.ndarray]]] = [{} for _ in bounds]
        for idx in index_chunks(stats.n, resamples, seed):
            for store, s in zip(draws, bounds):
                for key, values in _resampled_scores(s, idx).items():
                    store.setdefault(key, []).append(values)
        blocks = []
        for store in draws:
            ci = {key: percentile_interval(np.concatenate(parts), level) for key, parts in store.items()}
            blocks.append(Intervals({m: ci[f"micro_{m}"] for m in METRICS},
                                    {m: ci[f"macro_{m}"] for m in METRICS}))
    return BootstrapCI(resamples, seed, level, stats.n, blocks[0],
                       blocks[1] if len(blocks) > 1 else None)


def _check(count: int, level: float) -> None:
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
        raise ValueError(f"the number of resamples/trials must be an integer >= 1, got {count!r}")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level!r}")


# --- comparing two systems -------------------------------------------------------

@dataclass(frozen=True)
class Comparison:
    """Micro F1 of two systems on the same gold, their difference, and its significance."""

    name: str
    pairs: int
    f1: tuple[float, float]
    delta: float
    interval: tuple[float, float]
    p_bootstrap: float
    p_randomization: float
    system_intervals: tuple[tuple[float, float], tuple[float, float]]
    resamples: int
    trials: int
    seed: int
    level: float
    certified: bool = True
    #: with uncertified pairs: the range the observed difference can take given the bounds
    delta_range: tuple[float, float] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = {"name": self.name, "pairs": self.pairs, "f1_sys1": self.f1[0], "f1_sys2": self.f1[1],
               "delta_f1": self.delta, "delta_interval": list(self.interval),
               "p_value_bootstrap": self.p_bootstrap,
               "p_value_randomization": self.p_randomization,
               "sys1_interval": list(self.system_intervals[0]),
               "sys2_interval": list(self.system_intervals[1]),
               "resamples": self.resamples, "trials": self.trials, "seed": self.seed,
               "level": self.level, "certified": self.certified}
        if self.delta_range is not None:
            out["delta_range_from_bounds"] = list(self.delta_range)
        out.update(self.extra)
        return out


def _micro_f1(matched: np.ndarray, test: np.ndarray, gold: np.ndarray) -> np.ndarray:
    return prf_arrays(matched, test, gold)[2]


def compare(sys1: PairStats, sys2: PairStats, resamples: int = DEFAULT_RESAMPLES,
            trials: int = DEFAULT_TRIALS, seed: int = DEFAULT_SEED, level: float = LEVEL,
            name: str = "smatch") -> Comparison:
    """Paired bootstrap and approximate randomization on Delta = micro F1(sys1) - micro F1(sys2).

    ``sys1`` and ``sys2`` hold the same pairs in the same order (both scored
    against one gold).  With ``D`` the observed difference:

    * paired bootstrap: resample ``b`` draws ``n`` pair indices with
      replacement (the same for both systems, from ``default_rng(seed)``: the
      rows :func:`bootstrap` uses) and gives ``D_b``.  The interval is the
      percentile interval of ``D_b``.  The p-value is two-sided, with the
      bootstrap distribution shifted to the null (Berg-Kirkpatrick et al.
      2012 count ``D_b > 2D``, one-sided):
      ``p = (1 + #{b: |D_b - D| >= |D|}) / (B + 1)``;
    * approximate randomization: trial ``r`` swaps each pair's counts between
      the systems with probability 1/2 (from a second stream of the seed) and
      gives ``D_r``; ``p = (1 + #{r: |D_r| >= |D|}) / (R + 1)``.

    ``>=`` (ties within 1e-12 included) makes a system against itself give
    ``p = 1`` exactly; sacreBLEU counts ``>`` and reports ``1/(R+1)`` there.
    With uncertified pairs the tests run on the lower bounds (the reported
    scores) and ``delta_range`` gives the interval the observed difference
    can lie in.

    >>> good = PairStats.from_counts([9] * 20, [10] * 20, [10] * 20)
    >>> bad = PairStats.from_counts([5, 6] * 10, [10] * 20, [10] * 20)
    >>> c = compare(good, bad, resamples=500, trials=500)
    >>> round(c.delta, 2), c.p_bootstrap < 0.05, c.p_randomization < 0.05
    (0.35, True, True)
    """
    if sys1.n != sys2.n:
        raise ValueError(f"the systems have {sys1.n} and {sys2.n} scored pairs: they must be "
                         "scored against the same gold")
    certified = sys1.certified and sys2.certified
    delta_range = None
    if not certified:
        delta_range = (sys1.micro()[2] - sys2.with_upper().micro()[2],
                       sys1.with_upper().micro()[2] - sys2.micro()[2])
    return compare_columns(_micro_f1, (sys1.matched, sys1.test, sys1.gold),
                           (sys2.matched, sys2.test, sys2.gold), resamples, trials, seed, level,
                           name, certified, delta_range)


def compare_columns(score: Callable[..., np.ndarray], cols1: Sequence[np.ndarray],
                    cols2: Sequence[np.ndarray], resamples: int = DEFAULT_RESAMPLES,
                    trials: int = DEFAULT_TRIALS, seed: int = DEFAULT_SEED, level: float = LEVEL,
                    name: str = "score", certified: bool = True,
                    delta_range: tuple[float, float] | None = None) -> Comparison:
    """:func:`compare` for any metric computed from summed per-pair statistics.

    ``cols1`` and ``cols2`` are the systems' statistics, one array per statistic
    (``n`` pairs each); ``score(*sums)`` is the corpus score of summed statistics,
    vectorised (each sum an array).  The resamples, trials and p-values are
    :func:`compare`'s.

    >>> mean = lambda total, count: total / count
    >>> c = compare_columns(mean, ([0.9] * 20, [1] * 20), ([0.5, 0.6] * 10, [1] * 20), 500, 500)
    >>> round(c.delta, 2), c.p_bootstrap < 0.05, c.p_randomization < 0.05
    (0.35, True, True)
    """
    _check(resamples, level)
    _check(trials, level)
    cols1 = [np.asarray(c, dtype=np.float64) for c in cols1]
    cols2 = [np.asarray(c, dtype=np.float64) for c in cols2]
    n = len(cols1[0]) if cols1 else 0
    if any(len(c) != n for c in cols1 + cols2):
        raise ValueError("the systems have different numbers of scored pairs: they must be "
                         "scored against the same gold")
    f1 = ((float(score(*(sum_in_order(c) for c in cols1))), float(score(*(sum_in_order(c) for c in cols2))))
          if n else (0.0, 0.0))
    delta = f1[0] - f1[1]
    if n == 0:
        zero = (0.0, 0.0)
        return Comparison(name, 0, f1, delta, zero, 1.0, 1.0, (zero, zero), resamples, trials,
                          seed, level, certified, delta_range)

    # paired bootstrap
    d_boot, f_1, f_2 = [], [], []
    for idx in index_chunks(n, resamples, seed):
        a = score(*(c[idx].sum(axis=1) for c in cols1))
        b = score(*(c[idx].sum(axis=1) for c in cols2))
        d_boot.append(a - b)
        f_1.append(a)
        f_2.append(b)
    d = np.concatenate(d_boot)
    interval = percentile_interval(d, level)
    extreme = np.abs(d - delta) >= abs(delta) - _TIE
    p_boot = (int(extreme.sum()) + 1) / (resamples + 1)

    # approximate randomization: a swapped pair moves (sys2 - sys1) of its counts from sys2 to sys1
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,)))
    diff = np.stack([c2 - c1 for c1, c2 in zip(cols1, cols2)], axis=1)
    sums1 = np.array([c.sum() for c in cols1])
    sums2 = np.array([c.sum() for c in cols2])
    # whole counts: a matrix product is exact in any summation order (so BLAS is deterministic)
    whole = bool(np.all(diff == np.round(diff))) and float(np.abs(diff).sum()) < 2.0 ** 52
    count = 0
    rows = _rows_per_chunk(n)
    for start in range(0, trials, rows):
        swap = _coin_flips(rng, min(rows, trials - start), n)
        if whole:
            moved = swap.astype(np.float64) @ diff
        else:  # fractional counts (soft matching): numpy's pairwise sums, the same everywhere
            moved = np.stack([np.where(swap == 1, d, 0.0).sum(axis=1) for d in diff.T], axis=1)
        a = score(*(sums1 + moved).T)
        b = score(*(sums2 - moved).T)
        count += int((np.abs(a - b) >= abs(delta) - _TIE).sum())
    p_ar = (count + 1) / (trials + 1)

    systems = (percentile_interval(np.concatenate(f_1), level), percentile_interval(np.concatenate(f_2), level))
    return Comparison(name, n, f1, delta, interval, p_boot, p_ar, systems, resamples, trials,
                      seed, level, certified, delta_range)


def paired_stats(pairs1: Sequence[Any], pairs2: Sequence[Any]
                 ) -> tuple[PairStats, PairStats, list[int]]:
    """The counts of two systems' :class:`~smatchpp.alignment.score.PairScore` lists, pair by pair.

    The k-th pair of each list is scored against the same (k-th) gold graph, as
    :meth:`~smatchpp.api.Scorer.score_corpus` returns them; a pair skipped
    (``--on-error skip``) in either system is left out of both, and its
    position is returned.

    >>> from smatchpp.alignment.score import PairScore
    >>> a = [PairScore(0, None, 3, 3, 4, 4, "optimal", "exact"), PairScore(1, None, 0, 0, 0, 0, "skipped", "exact")]
    >>> b = [PairScore(0, None, 2, 2, 4, 4, "optimal", "exact"), PairScore(1, None, 1, 1, 2, 2, "optimal", "exact")]
    >>> s1, s2, dropped = paired_stats(a, b)
    >>> s1.matched.tolist(), s2.matched.tolist(), dropped
    ([3.0], [2.0], [1])
    """
    if len(pairs1) != len(pairs2):
        raise ValueError(f"the systems have {len(pairs1)} and {len(pairs2)} pairs: they must be "
                         "scored against the same gold")
    kept, dropped = [], []
    for k, (p, q) in enumerate(zip(pairs1, pairs2)):
        if p.status == "skipped" or q.status == "skipped":
            dropped.append(k)
        else:
            kept.append((p, q))
    return (PairStats.from_pairs([p for p, _ in kept]), PairStats.from_pairs([q for _, q in kept]),
            dropped)

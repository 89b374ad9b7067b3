"""Bootstrap intervals and paired significance tests (smatchpp.statistics.significance)."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats

from smatchpp.statistics import significance
from smatchpp.api import Config, Scorer
from smatchpp.graphs.read import read_file
from smatchpp.alignment.score import CorpusScore, PairScore, prf
from smatchpp.reporting.present import bootstrap_block
from smatchpp.statistics.significance import PairStats, bootstrap, compare, paired_stats, prf_arrays


@st.composite
def pair_stats(draw, min_size=1, max_size=25, certified=None):
    """Per-pair counts with matched <= upper <= min(test, gold)."""
    n = draw(st.integers(min_size, max_size))
    rows = []
    for _ in range(n):
        test, gold = draw(st.integers(0, 30)), draw(st.integers(0, 30))
        upper = draw(st.integers(0, min(test, gold)))
        exact = certified if certified is not None else draw(st.booleans())
        matched = upper if exact else draw(st.integers(0, upper))
        rows.append((matched, upper, test, gold))
    cols = np.array(rows, dtype=float).reshape(-1, 4)
    return PairStats(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3])


def _random_stats(rng, n, quality=0.7):
    gold = rng.integers(5, 40, size=n)
    test = np.maximum(1, gold + rng.integers(-5, 6, size=n))
    matched = np.minimum(np.minimum(test, gold), rng.binomial(gold, quality))
    return PairStats.from_counts(matched, test, gold)


# --- the point estimates ----------------------------------------------------------

@settings(max_examples=40)
@given(pair_stats())
def test_prf_arrays_is_score_prf_bit_for_bit(s):
    for m, t, g, *got in zip(s.matched, s.test, s.gold, *prf_arrays(s.matched, s.test, s.gold)):
        assert tuple(got) == prf(m, t, g)
    corpus = CorpusScore([PairScore(i, None, m, u, int(t), int(g), "optimal", "exact")
                          for i, (m, u, t, g) in enumerate(zip(s.matched, s.upper, s.test, s.gold))], Config())
    assert s.micro() == corpus.micro
    assert s.macro() == pytest.approx(corpus.macro, abs=1e-12)


# --- bootstrap ----------------------------------------------------------------------

@settings(max_examples=40)
@given(pair_stats(), st.integers(0, 2**32))
def test_same_seed_same_interval(s, seed):
    assert bootstrap(s, resamples=50, seed=seed) == bootstrap(s, resamples=50, seed=seed)


def test_another_seed_moves_the_interval():
    s = _random_stats(np.random.default_rng(0), 60)
    assert bootstrap(s, resamples=200, seed=1) != bootstrap(s, resamples=200, seed=2)


@settings(max_examples=40)
@given(pair_stats())
def test_intervals_contain_the_point_estimate(s):
    ci = bootstrap(s, resamples=200, seed=3)
    blocks = [(ci.lower, s)] + ([(ci.upper, s.with_upper())] if ci.upper else [])
    for block, point in blocks:
        for name in ("micro", "macro"):
            estimate = dict(zip(significance.METRICS, getattr(point, name)()))
            for metric, (lo, hi) in getattr(block, name).items():
                assert lo - 1e-12 <= estimate[metric] <= hi + 1e-12, (name, metric)


@settings(max_examples=40)
@given(pair_stats(certified=False))
def test_uncertified_pairs_get_lower_and_upper_intervals(s):
    ci = bootstrap(s, resamples=100, seed=4)
    if s.certified:
        assert ci.upper is None
        return
    assert ci.upper is not None
    # the same resamples scored from bounds that are never lower
    for name in ("micro", "macro"):
        for metric in significance.METRICS:
            lo_l, hi_l = getattr(ci.lower, name)[metric]
            lo_u, hi_u = getattr(ci.upper, name)[metric]
            assert lo_l <= lo_u + 1e-12 and hi_l <= hi_u + 1e-12
    assert "from_upper_bounds" in ci.to_json()
    assert "upper bounds" in bootstrap_block(ci)


def test_certified_corpus_has_one_interval():
    ci = bootstrap(_random_stats(np.random.default_rng(1), 30), resamples=100)
    assert ci.upper is None and "from_upper_bounds" not in ci.to_json()


def test_chunk_size_does_not_change_results(monkeypatch):
    rng = np.random.default_rng(2)
    a, b = _random_stats(rng, 37), _random_stats(rng, 37, quality=0.6)
    ci, cmp = bootstrap(a, resamples=300, seed=9), compare(a, b, resamples=300, trials=300, seed=9)
    monkeypatch.setattr(significance, "_CHUNK_CELLS", 100)  # 2 resamples per chunk
    assert bootstrap(a, resamples=300, seed=9) == ci
    assert compare(a, b, resamples=300, trials=300, seed=9) == cmp


def test_percentile_intervals_agree_with_scipy():
    """An independent implementation (scipy.stats.bootstrap, other random draws)."""
    s = _random_stats(np.random.default_rng(3), 300)
    ours = bootstrap(s, resamples=20000, seed=5)
    f1 = prf_arrays(s.matched, s.test, s.gold)[2]
    macro = scipy_stats.bootstrap((f1,), np.mean, n_resamples=20000, method="percentile",
                                  random_state=np.random.default_rng(6))
    assert ours.lower.macro["f1"] == pytest.approx(
        (macro.confidence_interval.low, macro.confidence_interval.high), abs=0.003)

    def micro_f1(m, t, g, axis=-1):
        return prf_arrays(m.sum(axis=axis), t.sum(axis=axis), g.sum(axis=axis))[2]
    micro = scipy_stats.bootstrap((s.matched, s.test, s.gold), micro_f1, paired=True,
                                  vectorized=True, n_resamples=20000, method="percentile",
                                  random_state=np.random.default_rng(6))
    assert ours.lower.micro["f1"] == pytest.approx(
        (micro.confidence_interval.low, micro.confidence_interval.high), abs=0.003)


def test_an_empty_corpus_gives_the_zero_estimate():
    ci = bootstrap(PairStats.from_counts([], [], []), resamples=10)
    assert ci.lower.micro["f1"] == (0.0, 0.0) and ci.pairs == 0


@pytest.mark.parametrize("kwargs", [{"resamples": 0}, {"resamples": 2.5}, {"level": 1.0}])
def test_bad_arguments_are_refused(kwargs):
    with pytest.raises(ValueError):
        bootstrap(PairStats.from_counts([1], [1], [1]), **kwargs)


def test_lengths_must_agree():
    with pytest.raises(ValueError):
        PairStats(np.zeros(2), np.zeros(2), np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError, match="same gold"):
        compare(PairStats.from_counts([1], [1], [1]), PairStats.from_counts([1, 1], [1, 1], [1, 1]))


# --- compare ------------------------------------------------------------------------

@settings(max_examples=40)
@given(pair_stats(), st.integers(0, 1000))
def test_a_system_against_itself(s, seed):
    c = compare(s, s, resamples=100, trials=100, seed=seed)
    assert c.delta == 0.0 and c.interval == (0.0, 0.0)
    assert c.p_bootstrap == 1.0 and c.p_randomization == 1.0


def test_a_system_against_itself_with_fractional_counts():
    s = PairStats.from_counts(np.array([2.3, 1.7, 0.1, 5.9]) / 3, [4, 5, 1, 6], [3, 5, 2, 6])
    c = compare(s, s, resamples=100, trials=100)
    assert c.delta == 0.0 and c.p_bootstrap == 1.0 and c.p_randomization == 1.0


def test_a_clearly_better_system_is_significant():
    rng = np.random.default_rng(7)
    gold = rng.integers(10, 30, size=60)
    better = PairStats.from_counts(np.round(gold * 0.9), gold, gold)
    worse = PairStats.from_counts(np.round(gold * rng.uniform(0.5, 0.8, size=60)), gold, gold)
    c = compare(better, worse, resamples=1000, trials=1000)
    assert c.delta > 0.1
    assert c.p_bootstrap < 0.05 and c.p_randomization < 0.05
    assert 0 < c.interval[0] <= c.delta <= c.interval[1]
    # the smallest p-values the +1 smoothing allows: no resample/trial was as extreme
    assert c.p_bootstrap == 1 / 1001 and c.p_randomization == 1 / 1001


def test_p_values_are_calibrated_under_the_null():
    """Two systems of equal quality: about 5% of corpora reach p < 0.05, not many more."""
    rng = np.random.default_rng(8)
    rejected = {"bootstrap": 0, "randomization": 0}
    corpora = 200
    for _ in range(corpora):
        gold = rng.integers(5, 40, size=50)
        a = PairStats.from_counts(rng.binomial(gold, 0.7), gold, gold)
        b = PairStats.from_counts(rng.binomial(gold, 0.7), gold, gold)
        c = compare(a, b, resamples=400, trials=400, seed=int(rng.integers(1 << 30)))
        rejected["bootstrap"] += c.p_bootstrap < 0.05
        rejected["randomization"] += c.p_randomization < 0.05
    for test, count in rejected.items():
        assert 0.01 <= count / corpora <= 0.10, (test, count)


@settings(max_examples=40)
@given(pair_stats(min_size=2), pair_stats(min_size=2))
def test_swapping_the_systems_negates_delta(s1, s2):
    n = min(s1.n, s2.n)
    a = PairStats(s1.matched[:n], s1.upper[:n], s1.test[:n], s1.gold[:n])
    b = PairStats(np.minimum(s2.matched[:n], a.gold), np.minimum(s2.upper[:n], a.gold), s2.test[:n], a.gold)
    ab, ba = compare(a, b, resamples=100, trials=100), compare(b, a, resamples=100, trials=100)
    assert ab.delta == -ba.delta
    assert ab.p_bootstrap == ba.p_bootstrap and ab.p_randomization == ba.p_randomization
    assert ab.interval == pytest.approx((-ba.interval[1], -ba.interval[0]), abs=1e-12)


@pytest.mark.parametrize("scale", [1.0, 0.37])  # 0.37: fractional counts (soft matching)
def test_randomization_approximates_the_exact_permutation_test(scale):
    rng = np.random.default_rng(10)
    a, b = _random_stats(rng, 10, 0.8), _random_stats(rng, 10, 0.6)
    a = PairStats.from_counts(a.matched * scale, a.test, a.gold)
    b = PairStats.from_counts(np.minimum(b.matched, a.gold) * scale, b.test, a.gold)
    observed = abs(a.micro()[2] - b.micro()[2])
    extreme = 0
    for swap in itertools.product((False, True), repeat=a.n):
        s = np.array(swap)
        x = PairStats.from_counts(np.where(s, b.matched, a.matched), np.where(s, b.test, a.test), a.gold)
        y = PairStats.from_counts(np.where(s, a.matched, b.matched), np.where(s, a.test, b.test), a.gold)
        extreme += abs(x.micro()[2] - y.micro()[2]) >= observed - 1e-12
    exact = extreme / 2**a.n
    c = compare(a, b, resamples=10, trials=40000)
    assert c.p_randomization == pytest.approx(exact, abs=0.01)


def test_uncertified_pairs_give_the_range_of_delta():
    a = PairStats.from_counts([3, 4], [5, 5], [5, 5], upper=[5, 4])
    b = PairStats.from_counts([2, 4], [5, 5], [5, 5])
    c = compare(a, b, resamples=50, trials=50)
    assert not c.certified
    assert c.delta_range == pytest.approx((0.1, 0.3))
    assert c.delta_range[0] <= c.delta <= c.delta_range[1]


def test_paired_stats_drops_pairs_skipped_in_either():
    def ps(i, m, status="optimal"):
        return PairScore(i, None, m, m, 5, 5, status, "exact")
    s1, s2, dropped = paired_stats([ps(0, 3), ps(1, 0, "skipped"), ps(2, 4)],
                                   [ps(0, 5), ps(1, 2), ps(2, 1)])
    assert dropped == [1]
    assert s1.matched.tolist() == [3, 4] and s2.matched.tolist() == [5, 1]
    with pytest.raises(ValueError, match="same gold"):
        paired_stats([ps(0, 1)], [ps(0, 1), ps(1, 1)])


# --- real parses (skipped without ../shared) ---------------------------------------------

SHARED = Path(os.environ.get("SMATCHPP_SHARED", Path(__file__).resolve().parents[2] / "shared"))
PARSEVAL = SHARED / "data" / "parseval-lp"


def test_parseval_bart_vs_t5_is_deterministic():
    """AMRParseEval's Little Prince parses (even graphs BART, odd T5), first 60 sentences."""
    src, tgt = PARSEVAL / "src.test.amr", PARSEVAL / "tgt.test.amr"
    if not (src.is_file() and tgt.is_file()):
        pytest.skip(f"shared data not found at {PARSEVAL}")
    parses, refs = read_file(src)[:120], read_file(tgt)[:120]
    scorer = Scorer(Config())
    gold = refs[0::2]
    bart, t5 = (scorer.score_corpus(parses[k::2], gold) for k in (0, 1))
    s1, s2, dropped = paired_stats(bart.pairs, t5.pairs)
    assert not dropped and s1.certified and s2.certified
    first, second = (compare(s1, s2, resamples=500, trials=2000) for _ in range(2))
    assert first == second
    assert first.delta == pytest.approx(bart.micro[2] - t5.micro[2], abs=1e-15)
    assert first.interval[0] <= first.delta <= first.interval[1]
    assert 0 < first.p_bootstrap <= 1 and 0 < first.p_randomization <= 1

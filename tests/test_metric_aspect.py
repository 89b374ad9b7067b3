"""Every aspect through the metric interface (:mod:`smatchpp.metrics.aspect`).

For every aspect of each set (damonte, smatchpp18, thesis), on small hand-written graphs and
on the first pairs of BAMBOO STS main test (skipped without ``../shared``):

* the metric's per-pair statistics are :class:`~smatchpp.aspects.core.AspectScorer`'s counts;
* micro and macro of :class:`~smatchpp.metrics.MetricCorpus` are what ``score --aspects SET
  --format json`` reports (its ``aspects`` block, through the API that writes it);
* :func:`~smatchpp.metrics.bootstrap_metric` of an aspect's statistics gives the intervals
  of :func:`~smatchpp.aspects.core.aspect_intervals` for the same seed and resamples.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from conftest import SHARED
from smatchpp.api import Scorer
from smatchpp.aspects.core import AspectCount, AspectScorer, aspect_intervals
from smatchpp.alignment.config import Config
from smatchpp.metrics import MetricCorpus, MetricPair, bootstrap_metric, get_metric
from smatchpp.metrics.aspect import AspectMetric, aspect_metrics
from smatchpp.graphs.read import read_file, read_text
from tinyvectors import vectors_file

SETS = ("damonte", "smatchpp18", "thesis")
STS = SHARED / "data" / "bamboo" / "sts" / "main"
#: the first pairs of BAMBOO STS main test
N_STS = 40

VECTORS = "boy 1 0\ngirl 0.6 0.8\nwant 0 1\ndesire 0.8 0.6\ncat -1 0\ndog 0 -1\n"
#: hand-written pairs: shared and differing parts, reentrancies, names, negation, wiki, quantities,
#: causes and an empty side for many aspects (the vacuous rule)
HAND = [
    ("(w / want-01 :ARG0 (b / boy :quant 3) :ARG1 (g / go-02 :ARG0 b :polarity -))",
     "(w / desire-01 :ARG0 (g2 / girl :quant 3) :ARG1 (g / go-02 :ARG0 g2))"),
    ("(c / city :wiki \"Paris\" :name (n / name :op1 \"Paris\"))",
     "(c / city :wiki - :name (n / name :op1 \"Paris\") :location-of (e / eat-01 :ARG0 (d / dog)))"),
    ("(c / cause-01 :ARG0 (r / rain-01) :ARG1 (s / sad-02 :ARG1 (p / person :ARG0-of (w / want-01 :ARG1 r))))",
     "(c / cause-01 :ARG0 (r / rain-01 :time (n / now)) :ARG1 (s / sad-02 :ARG1 (i / i)))"),
    ("(d / dog)", "(d / dog)"),
    ("(d / dog :mod (l / little))", "(c / cat :ARG0-of (s / sleep-01 :polarity - :manner (q / quick)))"),
]


@pytest.fixture
def vectors(tmp_path, monkeypatch):
    return vectors_file(tmp_path, monkeypatch, VECTORS, "v.txt")


def _config(aspect_set: str, vectors: str | None) -> Config:
    return Config(aspects="separate", aspect_set=aspect_set,
                  vectors=vectors if aspect_set == "thesis" else None)


def _graphs(texts):
    out = []
    for t in texts:
        (entry,) = read_text(t)
        out.append(entry.graph)
    return out


def _check(aspect_set: str, vectors: str | None, tests, golds, entries) -> None:
    """Per-pair statistics, micro, macro and bootstrap intervals of every aspect of the set
    against the aspect scorer's (``entries``: the read files, for the API's run)."""
    config = _config(aspect_set, vectors)
    scorer = AspectScorer(aspect_set=aspect_set, vectors=config.vectors)
    counts = [scorer.score(a, b) for a, b in zip(tests, golds)]
    run = Scorer(config)
    corpus = run.score_corpus(*entries)
    summary = corpus.summary()["aspects"]
    assert [p.aspects for p in corpus.pairs] == counts  # the run's aspects are the scorer's
    metrics = aspect_metrics(config)
    assert [m.aspect for m in metrics] == list(counts[0])
    for m in metrics:
        stats = [m.stats(m.features(a), m.features(b)) for a, b in zip(tests, golds)]
        want = [tuple(float(x) for x in (c[m.aspect].matched, c[m.aspect].upper, c[m.aspect].test,
                                         c[m.aspect].gold)) for c in counts]
        assert stats == want, m.aspect
        mc = MetricCorpus(m, [MetricPair(i, None, s) for i, s in enumerate(stats)])
        reported = summary["scores"][m.aspect]
        for key in ("precision", "recall", "f1"):
            assert _same(mc.micro[key], reported[key]), (m.aspect, key, mc.micro[key], reported[key])
        assert _same(mc.macro["f1"], summary["macro_f1"][m.aspect]), (m.aspect, mc.macro["f1"])
        for resamples, seed in ((200, 1), (301, 7)):
            ci = bootstrap_metric(m, mc.stats, resamples, seed)
            old = aspect_intervals(counts, resamples, seed)[m.aspect]
            assert _same_interval(ci.micro["f1"], old["micro_f1"]), (m.aspect, ci.micro["f1"], old)
            assert _same_interval(ci.macro["f1"], old["macro_f1"]), (m.aspect, ci.macro["f1"], old)


def _same(x: float, reported: float | None) -> bool:
    """A metric's score and the JSON's (``None``: n/a, NaN in the metric), exactly."""
    return math.isnan(x) if reported is None else x == reported


def _same_interval(interval, old) -> bool:
    if old is None:
        return all(math.isnan(x) for x in interval)
    return tuple(interval) == tuple(old)


@pytest.mark.parametrize("aspect_set", SETS)
def test_every_aspect_on_hand_written_pairs(aspect_set, vectors):
    tests, golds = _graphs(a for a, _ in HAND), _graphs(b for _, b in HAND)
    # the pairs both ways round, so that every aspect has pairs that differ
    tests, golds = tests + golds, golds + tests
    texts_a = [a for a, _ in HAND] + [b for _, b in HAND]
    texts_b = [b for _, b in HAND] + [a for a, _ in HAND]
    entries = ([e for t in texts_a for e in read_text(t)], [e for t in texts_b for e in read_text(t)])
    _check(aspect_set, vectors, tests, golds, entries)


@pytest.mark.skipif(not STS.is_dir(), reason="needs ../shared (BAMBOO STS)")
@pytest.mark.parametrize("aspect_set", SETS)
def test_every_aspect_on_bamboo_sts(aspect_set, vectors):
    entries = [read_file(str(STS / f"{side}.test.amr"))[:N_STS] for side in ("src", "tgt")]
    assert all(e.graph is not None for side in entries for e in side)
    _check(aspect_set, vectors, [e.graph for e in entries[0]], [e.graph for e in entries[1]], entries)


def test_get_metric_builds_an_aspect_and_refuses_unknown_ones(vectors):
    m = get_metric("aspect", aspect="rootSim", config=Config(aspects="separate", aspect_set="thesis", vectors=vectors))
    assert isinstance(m, AspectMetric) and m.config.aspects == "separate"
    assert [x.aspect for x in aspect_metrics(Config(aspect_set="smatchpp18"))][:2] == ["AGENT", "CAUSE"]
    with pytest.raises(ValueError, match="unknown damonte aspect 'AGENT'; choose from smatch, unlabeled"):
        get_metric("aspect", aspect="AGENT")
    with pytest.raises(ValueError, match="joint"):
        get_metric("aspect", config=Config(aspects="joint"))


@pytest.mark.parametrize("aspect_set, vacuous", [("damonte", None), ("smatchpp18", 1.0), ("thesis", 1.0)])
def test_nothing_on_either_side_is_the_sets_vacuous_value(aspect_set, vacuous, vectors):
    m = aspect_metrics(_config(aspect_set, vectors))[-1]
    f1 = m.pair_scores((0, 0, 0, 0))["f1"]
    assert math.isnan(f1) if vacuous is None else f1 == vacuous
    assert AspectCount(0, 0, 0, 0, vacuous).to_json()["f1"] == (None if vacuous is None else f1)
    # one side empty scores 0 in every set
    assert m.pair_scores((0, 0, 0, 3))["f1"] == 0.0


def test_the_signature_names_set_aspect_and_files(vectors):
    m = get_metric("aspect", aspect="Frames", config=Config(aspects="separate", aspect_set="thesis", vectors=vectors))
    sig = m.signature()
    assert "|metric:aspect|aspect-name:Frames|" in sig and "aspect-set:thesis" in sig and "vectors:v.txt@" in sig
    again = AspectMetric.from_signature(sig)  # the vectors by their identity, as Config's
    assert (again.aspect, again.signature()) == ("Frames", sig)
    assert AspectMetric.from_signature(m.signature("skip", 100, 3)).signature("skip", 100, 3) == m.signature("skip", 100, 3)
    assert np.isnan(get_metric("aspect", aspect="wikification").pair_scores((0, 0, 0, 0))["f1_upper"])

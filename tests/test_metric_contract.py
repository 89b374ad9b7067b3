"""The metric interface's contract, checked for every registered metric (a new one is checked
by registering it) and for the alignment family's soft and weighted matchers.

* a graph scores 1 against itself (random PENMAN graphs);
* scores are vectorised: the scores of stacked statistics are each row's, and a pair's
  score is the score of its statistics;
* ``stats_matrix`` gives every pair's ``stats``;
* a bootstrap interval contains its point estimate and is the same for the same seed;
* ``compare_columns`` of a metric against itself: no difference, nothing significant;
* the signature reads back as the same metric;
* ``upper_stats``, where given, scores at least what the statistics score.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smatchpp.alignment.config import Config
from smatchpp.metrics import Metric, bootstrap_metric, get_metric, metric_names
from smatchpp.graphs.read import read_text
from smatchpp.statistics.significance import compare_columns
from strategies import penman_strings

METRICS = ([pytest.param(get_metric(name), id=name) for name in metric_names()]
           + [pytest.param(get_metric("smatch", config=Config(match=match)), id=f"smatch-{match}")
              for match in ("s2match", "wsmatch", "concept-focus")]
           # the registry's aspect metric is Damonte's Concepts; a subgraph aspect of 1.8's set too
           + [pytest.param(get_metric("aspect", aspect="AGENT", config=Config(aspect_set="smatchpp18")),
                           id="aspect-smatchpp18-AGENT")])

#: a small corpus of pairs with shared and differing parts (the bootstrap and compare checks)
TEXTS = ["(d / dog :ARG0-of (b / bark-01))", "(b / bark-01 :ARG0 (d / dog))",
         "(c / cat :mod (l / little) :ARG0-of (s / sleep-01 :polarity -))",
         "(d / dog :mod (l / little))", "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))",
         "(w / want-01 :ARG0 (g / girl) :ARG1 (r / run-02 :ARG0 g))",
         "(s / say-01 :ARG0 (p / person :name (n / name :op1 \"Ann\")) :ARG1 (h / hello))",
         "(s / say-01 :ARG0 (p / person :name (n / name :op1 \"Bob\")))"]


def _graph(text: str):
    entries = read_text(text)
    assert len(entries) == 1 and entries[0].graph is not None, text
    return entries[0].graph


def _corpus_graphs():
    graphs = [_graph(t) for t in TEXTS]
    tests = graphs + graphs[::2]
    golds = graphs[1:] + graphs[:1] + graphs[1::2]
    return tests, golds


def _headline(metric: Metric):
    """The corpus headline of summed statistics given as columns (``compare_columns``'s score)."""
    def score(*sums):
        return metric.scores(np.stack(np.broadcast_arrays(*sums), axis=-1))[metric.headline]
    return score


@pytest.mark.parametrize("metric", METRICS)
@settings(max_examples=25)
@given(text=penman_strings(max_vars=5))
def test_a_graph_scores_one_against_itself(metric, text):
    f = metric.features(_graph(text))
    assert metric.pair_score(f, f) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("metric", METRICS)
@settings(max_examples=10)
@given(texts=st.lists(penman_strings(max_vars=4), min_size=2, max_size=3))
def test_scores_are_vectorised_and_a_pair_scores_its_statistics(metric, texts):
    feats = [metric.features(_graph(t)) for t in texts]
    stats = np.array([[metric.stats(a, b) for b in feats] for a in feats], dtype=float)
    assert stats.shape == (len(feats), len(feats), len(metric.stat_names))
    stacked = metric.scores(stats)
    for i, a in enumerate(feats):
        for j, b in enumerate(feats):
            one = metric.pair_scores(stats[i, j])
            assert set(one) == set(stacked) and metric.headline in one
            assert {k: float(v[i, j]) for k, v in stacked.items()} == one
            assert metric.pair_score(a, b) == one[metric.headline]


@pytest.mark.parametrize("metric", METRICS)
@settings(max_examples=5)
@given(rows=st.lists(penman_strings(max_vars=4), min_size=1, max_size=3),
       cols=st.lists(penman_strings(max_vars=4), min_size=1, max_size=3))
def test_stats_matrix_is_every_pairs_stats(metric, rows, cols):
    fa = [metric.features(_graph(t)) for t in rows]
    fb = [metric.features(_graph(t)) for t in cols]
    matrix = metric.stats_matrix(fa, fb)
    assert matrix.shape == (len(fa), len(fb), len(metric.stat_names))
    for i, a in enumerate(fa):
        for j, b in enumerate(fb):
            assert matrix[i, j] == pytest.approx(np.array(metric.stats(a, b), dtype=float), rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("metric", METRICS)
def test_bootstrap_contains_the_point_estimate_and_repeats_with_its_seed(metric):
    corpus = metric.score_graphs(*_corpus_graphs())
    ci = bootstrap_metric(metric, corpus.stats, 400, 3)
    for point, intervals in ((corpus.micro, ci.micro), (corpus.macro, ci.macro)):
        assert set(intervals) == set(point)
        for key, (lo, hi) in intervals.items():
            assert lo - 1e-12 <= point[key] <= hi + 1e-12, key
    assert bootstrap_metric(metric, corpus.stats, 400, 3) == ci
    assert ci.micro[metric.headline][0] < ci.micro[metric.headline][1]  # the pairs differ


@pytest.mark.parametrize("metric", METRICS)
def test_compare_against_itself_finds_no_difference(metric):
    corpus = metric.score_graphs(*_corpus_graphs())
    cols = corpus.stats.T
    c = compare_columns(_headline(metric), cols, cols.copy(), 300, 300, 9, name=metric.name)
    assert c.delta == 0.0 and c.interval == (0.0, 0.0)
    assert c.f1 == (corpus.micro[metric.headline],) * 2
    assert c.p_bootstrap == 1.0 and c.p_randomization == 1.0


@pytest.mark.parametrize("metric", METRICS)
def test_the_signature_reads_back_as_the_metric(metric):
    again = type(metric).from_signature(metric.signature())
    assert again == metric and again.signature() == metric.signature()
    # a run's settings (errors, resampling) ride along and read back
    run = metric.signature("skip", 1000, 7)
    assert type(metric).from_signature(run).signature("skip", 1000, 7) == run


@pytest.mark.parametrize("metric", METRICS)
@settings(max_examples=25)
@given(a=penman_strings(max_vars=5), b=penman_strings(max_vars=5))
def test_upper_stats_bound_the_score(metric, a, b):
    fa, fb = metric.features(_graph(a)), metric.features(_graph(b))
    upper = metric.upper_stats(fa, fb)
    if upper is None:
        return
    assert metric.pair_scores(upper)[metric.headline] >= metric.pair_score(fa, fb)


@pytest.mark.parametrize("metric", METRICS)
@settings(max_examples=8, deadline=None)
@given(query=penman_strings(max_vars=4), corpus=st.lists(penman_strings(max_vars=4), min_size=1, max_size=6),
       k=st.integers(1, 3))
def test_top_k_pruned_by_the_bound_finds_the_hits_of_scoring_every_pair(metric, query, corpus, k):
    fq = metric.features(_graph(query))
    fc = [metric.features(_graph(t)) for t in corpus]
    scores = metric.scores(metric.stats_matrix([fq], fc))[metric.headline][0]
    order = np.lexsort((np.arange(len(fc)), -scores))[:k]
    # one pair per chunk: the bound is checked before every pair
    got, got_scores, pruned = metric.top_k(fq, fc, k, chunk=1)
    assert got.tolist() == order.tolist()
    assert got_scores.tolist() == scores[order].tolist()
    assert 0 <= pruned <= max(0, len(fc) - k)


def test_top_k_skips_the_pairs_whose_bound_cannot_enter():
    metric = get_metric("jaccard")
    graphs = [metric.features(_graph(t)) for t in TEXTS]
    order, scores, pruned = metric.top_k(graphs[0], graphs, 1, chunk=1)
    assert order.tolist() == [0] and scores.tolist() == [1.0]
    # the self-pair scores 1: every pair whose bound is below 1 is left unscored
    below = [j for j, g in enumerate(graphs) if metric.pair_scores(metric.upper_stats(graphs[0], g))["score"] < 1]
    assert len(below) >= 4 and pruned == len(below)


@pytest.mark.parametrize("metric", METRICS)
@settings(max_examples=5, deadline=None)
@given(query=penman_strings(max_vars=4), corpus=st.lists(penman_strings(max_vars=4), min_size=1, max_size=4))
def test_upper_stats_matrix_is_every_pairs_upper_stats(metric, query, corpus):
    fq = metric.features(_graph(query))
    fc = [metric.features(_graph(t)) for t in corpus]
    matrix = metric.upper_stats_matrix(fq, fc)
    pairs = [metric.upper_stats(fq, c) for c in fc]
    if matrix is None:
        assert any(p is None for p in pairs)
    else:
        assert matrix.tolist() == np.asarray(pairs, dtype=float).tolist()

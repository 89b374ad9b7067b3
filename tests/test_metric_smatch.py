"""The alignment family as the registered metric ``smatch`` (:mod:`smatchpp.metrics.alignment`).

Its numbers are ``smatchpp score``'s: per-pair statistics and micro P/R/F1 against
``--pairs-out`` and the JSON summary of the command line, on a slice of BAMBOO (exact, S2Match
with the packaged vectors, WSMATCH), and its signature is the one ``score`` prints.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np
import pytest

from clirun import GOLD, PRED, run
from conftest import SHARED
from smatchpp.api import Scorer
from smatchpp.alignment.config import Config
from smatchpp.matrix import label_bound_matrix
from smatchpp.metrics import METRICS, MetricCorpus, bootstrap_metric, get_metric
from smatchpp.metrics.alignment import AlignmentMetric
from smatchpp.graphs.read import read_file, read_text
from smatchpp.statistics.significance import PairStats, bootstrap

STS = SHARED / "data" / "bamboo" / "sts" / "main"
#: pairs of the slice (the first of STS main)
SLICE = 60
SETTINGS = {"exact": [], "s2match": ["--match", "s2match"], "wsmatch": ["--match", "wsmatch"]}


def _slice(tmp_path: Path) -> tuple[Path, Path]:
    if not STS.is_dir():
        pytest.skip(f"shared data not found at {STS}")
    out = []
    for side in ("src", "tgt"):
        blocks = (STS / f"{side}.test.amr").read_text(encoding="utf-8").strip().split("\n\n")
        path = tmp_path / f"{side}.amr"
        path.write_text("\n\n".join(blocks[:SLICE]) + "\n", encoding="utf-8")
        out.append(path)
    return out[0], out[1]


def _config(options: list[str]) -> Config:
    return Config(match=options[1]) if options else Config()


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_metric_equals_score_pairs_out_on_bamboo(tmp_path, setting):
    src, tgt = _slice(tmp_path)
    pairs_out = tmp_path / "pairs.jsonl"
    r = run("score", src, tgt, "--pairs-out", pairs_out, "--format", "json", "--quiet",
            *SETTINGS[setting], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    lines = [json.loads(line) for line in pairs_out.read_text().splitlines()]
    metric = get_metric("smatch", config=_config(SETTINGS[setting]))
    graphs = [[e.graph for e in read_file(path)] for path in (src, tgt)]
    corpus = metric.score_graphs(*graphs)
    assert len(corpus.pairs) == len(lines) == SLICE
    for pair, line in zip(corpus.pairs, lines):
        # exactly: the same code solved the same pair
        assert pair.stats == (line["lower"], line["upper"], line["test_total"], line["gold_total"]), line["index"]
        scores = metric.pair_scores(pair.stats)
        assert (scores["precision"], scores["recall"], scores["f1"]) == (
            line["precision"], line["recall"], line["f1"]), line["index"]
    assert {k: corpus.micro[k] for k in ("precision", "recall", "f1")} == summary["micro"]
    assert {k: corpus.macro[k] for k in ("precision", "recall", "f1")} == summary["macro"]
    assert corpus.micro["f1_upper"] == summary["f1_interval"][1]
    assert corpus.signature == metric.signature() == summary["signature"]
    if setting == "s2match":  # soft matching: fractional statistics were compared
        assert any(not float(x).is_integer() for p in corpus.pairs for x in p.stats)
    if setting == "wsmatch":  # weighted: the totals are weights, not triple counts
        assert any(line["test_total"] != line["test_triples"] for line in lines)


def test_signature_is_what_score_prints(tmp_path):
    r = run("score", PRED, GOLD, "--preset", "amr", "--keep-wiki", "--seed", "3", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    metric = AlignmentMetric(Config(preset="amr", keep_wiki=True, seed=3))
    assert r.stdout.splitlines()[0] == metric.signature()
    assert AlignmentMetric.from_signature(metric.signature()) == metric
    r = run("score", PRED, GOLD, "--bootstrap", "50", "--format", "json", cwd=tmp_path)
    assert json.loads(r.stdout)["signature"] == AlignmentMetric().signature(bootstrap=50)


def test_the_metric_is_the_registered_smatch():
    assert METRICS["smatch"] is AlignmentMetric
    assert get_metric("smatch") == AlignmentMetric(Config())
    assert AlignmentMetric.params() == []  # its settings are the Config's, declared there only


@pytest.mark.parametrize("field, value", [("total_time_limit", 10.0), ("aspects", "separate"),
                                          ("bootstrap", 100), ("bootstrap_seed", 7), ("ar_trials", 100)])
def test_settings_of_a_run_are_refused(field, value):
    with pytest.raises(ValueError, match=f"{field} is"):
        AlignmentMetric(Config(**{field: value}))


def test_a_config_is_required():
    with pytest.raises(TypeError, match="Config"):
        AlignmentMetric({"preset": "amr"})


def _graphs(*texts: str):
    return [read_text(t)[0].graph for t in texts]


PAIRS = ["(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))",
         "(c / cat :mod (l / little) :ARG0-of (s / sleep-01 :polarity -))", "(d / dog :mod (l / little))"]


@pytest.mark.parametrize("config", [Config(), Config(preset="amr"), Config(match="wsmatch"),
                                    Config(duplicates="product", preset="smatch-1.0.1"),
                                    Config(preset="smatchpp18-lossy")])
def test_pair_stats_are_the_scorers(config):
    metric = AlignmentMetric(config)
    scorer = Scorer(config)
    graphs = _graphs(*PAIRS)
    feats = [metric.features(g) for g in graphs]
    for i, a in enumerate(PAIRS):
        for j, b in enumerate(PAIRS):
            s = scorer.score_pair(a, b)
            stats = metric.stats(feats[i], feats[j])
            assert stats == (s.matched, s.upper, s.test_weight, s.gold_weight)
            assert metric.pair_scores(stats) == {"precision": s.precision, "recall": s.recall,
                                                 "f1": s.f1, "f1_upper": s.f1_upper}
            assert metric.explain(feats[i], feats[j]) == {"alignment": [list(p) for p in s.alignment]}


def test_upper_stats_are_the_label_bound_search_prunes_with():
    metric = AlignmentMetric()
    graphs = _graphs(*PAIRS)
    feats = [metric.features(g) for g in graphs]
    bounds = label_bound_matrix(feats, feats).toarray()
    for i, a in enumerate(feats):
        for j, b in enumerate(feats):
            upper = metric.upper_stats(a, b)
            assert upper == (bounds[i, j], bounds[i, j], a.n_triples, b.n_triples)
            assert metric.pair_scores(upper)["f1"] >= metric.pair_scores(metric.stats(a, b))["f1"]


def test_bootstrap_is_smatchs_bootstrap():
    """``bootstrap_metric`` on the metric's statistics gives ``score --bootstrap``'s micro intervals
    (the same index rows, the same sums)."""
    metric = AlignmentMetric(Config(match="wsmatch"))
    graphs = _graphs(*PAIRS)
    corpus = metric.score_graphs(graphs, graphs[::-1])
    ci = bootstrap_metric(metric, corpus.stats, 300, 5)
    matched, upper, test, gold = corpus.stats.T
    reference = bootstrap(PairStats(matched, upper, test, gold), 300, 5).lower
    for key in ("precision", "recall", "f1"):
        assert ci.micro[key] == reference.micro[key]


def test_a_metric_pickles_without_its_solver():
    metric = AlignmentMetric(Config(match="wsmatch"))
    graphs = _graphs(*PAIRS[:2])
    before = metric.stats(*map(metric.features, graphs))
    again = pickle.loads(pickle.dumps(metric))
    assert again == metric and again._core is None
    assert again.stats(*map(again.features, graphs)) == before


def test_empty_corpus_and_skipped_pairs():
    metric = AlignmentMetric()
    corpus = MetricCorpus(metric, [])
    assert corpus.micro == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "f1_upper": 0.0}
    assert np.array_equal(corpus.stats, np.zeros((0, 4)))


def test_weighted_bootstrap_and_compare_resample_the_weights(tmp_path):
    """``score --bootstrap`` and ``compare`` under a weighted matcher divide by the total weights,
    as the point estimate does: their intervals are the smatch metric's and contain its F1
    (they divided by triple counts before: WSMATCH's F1 interval was [3.03, 3.71])."""
    metric = AlignmentMetric(Config(match="wsmatch"))
    corpus = metric.score_graphs(*[[e.graph for e in read_file(p)] for p in (PRED, GOLD)])
    ci = bootstrap_metric(metric, corpus.stats, 200, 12345)
    r = run("score", PRED, GOLD, "--match", "wsmatch", "--bootstrap", "200", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["micro"] == {k: corpus.micro[k] for k in ("precision", "recall", "f1")}
    for k in ("precision", "recall", "f1"):
        assert summary["bootstrap"]["micro"][k] == list(ci.micro[k])
        assert summary["bootstrap"]["macro"][k] == list(ci.macro[k])
    lo, hi = summary["bootstrap"]["micro"]["f1"]
    assert lo <= summary["micro"]["f1"] <= hi
    r = run("compare", PRED, GOLD, GOLD, "--match", "wsmatch", "--bootstrap", "200", "--format", "json",
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    c = json.loads(r.stdout)["comparisons"][0]
    assert (c["f1_sys1"], c["f1_sys2"]) == (corpus.micro["f1"], 1.0)
    assert c["sys1_interval"] == list(ci.micro["f1"]) and c["sys2_interval"] == [1.0, 1.0]


def test_measured_gaps_divide_by_the_weights():
    """``gap``'s F1 of the exact scores is the corpus micro F1 under a weighted matcher too."""
    from smatchpp.api import score_corpus
    from smatchpp.audit import measure_gaps

    texts = [PRED.read_text(), GOLD.read_text()]
    graphs = [[b for b in t.strip().split("\n\n") if "(" in b] for t in texts]
    exact = score_corpus(*graphs, match="wsmatch")
    tool = measure_gaps(exact, {"t": [p.matched for p in exact.pairs]}).tools["t"]
    assert tool.exact_f1 == tool.f1 == exact.micro.f1

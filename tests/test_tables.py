"""Results as tables (issue 34 item 3): pandas and Arrow round trips with the signature kept,
and ``--pairs-out`` as Parquet and CSV in a fresh process."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

from clirun import GOLD, PRED, run  # noqa: E402
from smatchpp.core import tables  # noqa: E402
from smatchpp.api import Scorer, score_files  # noqa: E402
from smatchpp.metrics.alignment import aspect_bootstrap  # noqa: E402
from smatchpp.alignment.config import Config  # noqa: E402
from smatchpp.metrics import get_metric  # noqa: E402
from smatchpp.metrics.base import MetricCorpus, MetricPair  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402
from smatchpp.alignment.score import CorpusScore  # noqa: E402
from smatchpp.statistics.significance import PairStats, bootstrap  # noqa: E402

DROP = ("seconds", "compile_seconds", "aspects_seconds")  # timings: equal in the round trip, not across runs


@pytest.fixture(scope="module")
def corpus() -> CorpusScore:
    return score_files(str(PRED), str(GOLD), aspects="separate", seed=3)


def same_pairs(a: CorpusScore, b: CorpusScore) -> None:
    assert len(a.pairs) == len(b.pairs)
    for x, y in zip(a.pairs, b.pairs):
        one, two = x.to_json(True), y.to_json(True)
        one.pop("aspects", None)  # a pair's aspects are not restored (the corpus summary is)
        assert one == two


@pytest.mark.parametrize("kind", ["pandas", "arrow", "parquet", "csv"])
def test_corpus_to_a_table_and_back_keeps_the_signature(corpus, kind, tmp_path):
    intervals = bootstrap(PairStats.from_pairs(corpus.scored), 200, 1)
    if kind == "pandas":
        aspect_intervals = aspect_bootstrap(corpus, replace(corpus.config, bootstrap=200))
        table = corpus.to_pandas(intervals, aspect_intervals)
        assert table.attrs["signature"] == corpus.signature
        assert "aspects.srl.f1" in table.columns
        assert table.attrs["summary"]["bootstrap"] == json.loads(json.dumps(intervals.to_json()))
        assert table.attrs["summary"]["aspects"]["bootstrap"]["f1"]["srl"] == aspect_intervals["f1"]["srl"]
        back = CorpusScore.from_pandas(table)
    elif kind == "arrow":
        table = corpus.to_arrow(intervals)
        assert table.schema.metadata[b"smatchpp.core.signature"].decode() == corpus.signature
        back = CorpusScore.from_pandas(table)
    else:
        path = tmp_path / f"pairs.{kind}"
        tables.write(path, [p.to_json(True) for p in corpus.pairs], corpus.signature, corpus.summary())
        back = CorpusScore.from_pandas(tables.read(path))
    assert back.signature == corpus.signature
    assert back.micro == corpus.micro and back.macro == corpus.macro
    assert back.summary() == corpus.summary()  # the aspect summary too
    same_pairs(corpus, back)


def test_a_frame_without_a_signature_is_refused(corpus):
    frame = corpus.to_pandas()
    frame.attrs.clear()
    with pytest.raises(ValueError, match="no smatchpp signature"):
        CorpusScore.from_pandas(frame)


def test_a_frame_edited_in_pandas_keeps_its_meaning(corpus):
    """A notebook filters rows: the frame still carries the signature, the rest re-scores."""
    frame = corpus.to_pandas()
    some = frame[frame["f1"] > 0.87]
    assert some.attrs["signature"] == corpus.signature
    back = CorpusScore.from_pandas(some)
    assert [p.index for p in back.pairs] == [p.index for p in corpus.pairs if p.f1 > 0.87]


@pytest.mark.parametrize("name", ["wlk", "sembleu"])
def test_metric_corpus_round_trip(name):
    metric = get_metric(name)
    a, b = read_file(PRED), read_file(GOLD)
    pairs = [MetricPair(i, ea.id, tuple(float(x) for x in metric.stats(metric.features(ea.graph),
                                                                       metric.features(eb.graph))))
             for i, (ea, eb) in enumerate(zip(a, b))]
    pairs.append(MetricPair(len(pairs), "gone", None, "unreadable"))
    corpus = MetricCorpus(metric, pairs, "skip", 100, 7)
    for table in (corpus.to_pandas(), corpus.to_arrow()):
        back = MetricCorpus.from_pandas(table)
        assert back.signature == corpus.signature
        assert back.metric == corpus.metric and back.pairs == corpus.pairs
        assert back.summary() == corpus.summary()


def test_metric_pair_to_pandas():
    metric = get_metric("jaccard")
    pair = MetricPair(0, "x", (1.0, 3.0))
    frame = pair.to_pandas(metric)
    assert frame.attrs["signature"] == metric.signature() and frame["id"].tolist() == ["x"]
    assert tables.rows(pair.to_arrow(metric))[0] == [pair.to_json(metric)]


def test_pair_to_pandas():
    scorer = Scorer(Config())
    pair = scorer.score_pair("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
    frame = pair.to_pandas(scorer.signature)
    assert frame.attrs["signature"] == scorer.signature and list(frame["matched"]) == [3]
    assert tables.rows(pair.to_arrow())[0][0]["alignment"] == [list(p) for p in pair.alignment]


@pytest.mark.parametrize("ending", ["parquet", "csv"])
def test_pairs_out_by_the_files_ending(tmp_path, ending):
    lines = tmp_path / "pairs.jsonl"
    table = tmp_path / f"pairs.{ending}"
    done = run("score", PRED, GOLD, "--quiet", "--aspects", "--pairs-out", lines, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = run("score", PRED, GOLD, "--quiet", "--aspects", "--pairs-out", table, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    found, signature, _ = tables.read(table)
    assert signature == done.stdout.splitlines()[0]
    expected = [json.loads(line) for line in lines.read_text().splitlines()]
    for row in expected + found:
        for key in DROP:
            row.pop(key, None)
    assert found == expected


def test_metric_pairs_out_as_parquet(tmp_path):
    table = tmp_path / "pairs.parquet"
    done = run("score", PRED, GOLD, "--quiet", "--metric", "wlk", "--pairs-out", table, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    found, signature, _ = tables.read(table)
    assert signature.startswith("smatchpp:") and "metric:wlk" in signature
    assert [r["id"] for r in found] == ["ex1", "ex2", "ex3", "ex4"]


@pytest.mark.parametrize("command", ["compare", "gap", "compare-metric"])
def test_every_pairs_out_writes_a_table_by_its_ending(tmp_path, command):
    """``compare`` and ``gap`` (and ``compare --metric``) write ``--pairs-out FILE.csv`` as a table
    too, never JSON lines under a table's name."""
    table = tmp_path / "pairs.csv"
    argv = {"compare": ("compare", PRED, GOLD, GOLD, "--ar-trials", "50"),
            "gap": ("gap", PRED, GOLD),
            "compare-metric": ("compare", PRED, GOLD, GOLD, "--metric", "wlk", "--ar-trials", "50")}[command]
    done = run(*argv, "--quiet", "--pairs-out", table, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    found, signature, _ = tables.read(table)
    assert signature.startswith("smatchpp:") and signature in done.stdout
    assert [r["index"] for r in found] == [0, 1, 2, 3]

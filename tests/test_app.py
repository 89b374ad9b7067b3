"""The application layer (:mod:`smatchpp.cli.app`) and the metrics on every backend
(:mod:`smatchpp.running.runs`), in this process: the command template's steps, ``--workers`` and
``--dask`` for every metric (ordered, identical results), and ``compare`` with several
systems against one baseline."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from smatchpp import cli
from smatchpp.cli.app import Inputs, collect, conclude
from smatchpp.metrics import METRICS, get_metric
from smatchpp.graphs.read import read_file
from smatchpp.running.runs import auto_workers, metric_pairs, metric_rows

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PRED, GOLD = EXAMPLES / "pred.amr", EXAMPLES / "gold.amr"
#: the metrics without an alignment that need nothing installed beyond the core
PLAIN = ("jaccard", "rematch", "sema", "sembleu", "wlk")


def _args(**given) -> argparse.Namespace:
    return argparse.Namespace(**{"pairs_out": None, "dask": None, "quiet": True, **given})


# --- the template ---------------------------------------------------------------------

def test_collect_writes_each_result_as_it_finishes_and_keeps_them_on_an_interrupt(tmp_path):
    out = tmp_path / "pairs.jsonl"
    seen_in_file = []

    def results(client):
        for k in range(3):
            # the lines of the results before this one are in the file already
            seen_in_file.append(len(out.read_text().splitlines()) if out.exists() else 0)
            yield k
        raise KeyboardInterrupt

    run = collect(_args(pairs_out=str(out)), results, workers=1, total=5, line=lambda k: {"k": k})
    assert run.results == [0, 1, 2] and run.interrupted and run.total == 5
    assert seen_in_file == [0, 1, 2]
    assert [json.loads(x)["k"] for x in out.read_text().splitlines()] == [0, 1, 2]


def test_collect_leaves_out_the_lines_of_results_without_one(tmp_path):
    out = tmp_path / "pairs.jsonl"
    run = collect(_args(pairs_out=str(out)), lambda client: iter(range(4)), 1, 4,
                  line=lambda k: None if k % 2 else {"k": k})
    assert run.results == [0, 1, 2, 3] and not run.interrupted
    assert [json.loads(x)["k"] for x in out.read_text().splitlines()] == [0, 2]


def test_conclude_reports_the_interrupt_and_the_pairs_file(capsys, tmp_path):
    run = collect(_args(pairs_out=str(tmp_path / "p.jsonl")), lambda client: iter([1]), 1, 2, line=lambda r: {})
    run.interrupted = True
    assert conclude(run, Inputs((), (), [], "raise"), suffix="; more") == 130
    err = capsys.readouterr().err
    assert f"interrupted: 1 of 2 pairs finished, written to {tmp_path / 'p.jsonl'}; more" in err
    run.interrupted = False
    assert conclude(run, Inputs((), (), [], "raise")) == 0


# --- every metric on every backend ------------------------------------------------------

@pytest.mark.parametrize("name", PLAIN)
def test_metric_pairs_do_not_depend_on_the_workers(name):
    a, b = read_file(PRED), read_file(GOLD)
    one = list(metric_pairs(get_metric(name), a, b))
    two = list(metric_pairs(get_metric(name), a, b, workers=2, chunk=1))
    assert [p.index for p, _ in two] == list(range(len(a)))
    assert one == two


def test_metric_rows_compute_each_system_as_alone():
    a, b = read_file(PRED), read_file(GOLD)
    metric = get_metric("wlk")
    rows = list(metric_rows(metric, [a, b], b, workers=2, chunk=1))
    assert [r[0] for r in rows] == list(metric_pairs(metric, a, b))
    assert [r[1] for r in rows] == list(metric_pairs(metric, b, b))


def test_auto_workers_start_a_pool_only_for_many_pairs():
    assert auto_workers(100, 8) == 1
    assert auto_workers(100000, 2) == 2


@pytest.mark.parametrize("name", ("wlk", "rematch", "sembleu"))
def test_score_metric_workers_give_the_same_pairs_and_summary(name, tmp_path, capsys):
    outs = []
    for workers in ("1", "2"):
        pairs = tmp_path / f"p{workers}.jsonl"
        code = cli.main(["score", str(PRED), str(GOLD), "--metric", name, "--workers", workers,
                         "--force-workers", "--quiet", "--format", "json", "--pairs-out", str(pairs)])
        assert code == 0
        outs.append((pairs.read_text(), json.loads(capsys.readouterr().out)))
    assert outs[0] == outs[1]
    assert [json.loads(x)["index"] for x in outs[0][0].splitlines()] == list(range(4))


def test_score_metric_on_dask_gives_the_same_pairs(tmp_path, capsys):
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    outs = []
    for more in ([], ["--dask", "--workers", "1"]):
        pairs = tmp_path / f"p{len(more)}.jsonl"
        code = cli.main(["score", str(PRED), str(GOLD), "--metric", "wlk", "--quiet",
                         "--pairs-out", str(pairs), *more])
        assert code == 0, capsys.readouterr().err
        outs.append(pairs.read_text())
    assert outs[0] == outs[1]


def test_dask_is_refused_where_a_metric_would_not_use_it(tmp_path, capsys):
    assert cli.main(["search", str(PRED), str(GOLD), "--metric", "wlk", "--dask"]) == 2
    assert "--dask does nothing under --metric wlk" in capsys.readouterr().err


@pytest.mark.parametrize("name", ("sema", "wlk"))
def test_matrix_metric_workers_give_the_same_matrix(name, tmp_path, capsys):
    import numpy as np

    found = []
    for workers in ("1", "2"):
        out = tmp_path / f"m{workers}.npz"
        assert cli.main(["matrix", str(PRED), str(GOLD), "-o", str(out), "--metric", name, "--all",
                         "--workers", workers, "--force-workers", "--quiet"]) == 0
        with np.load(out) as got:
            found.append({k: got[k] for k in got.files})
    assert found[0].keys() == found[1].keys()
    assert all(np.array_equal(found[0][k], found[1][k]) for k in found[0])


# --- compare: several systems against one baseline --------------------------------------

def _compare(capsys, *argv) -> dict:
    code = cli.main(["compare", *map(str, argv), "--workers", "1", "--quiet", "--format", "json",
                     "--bootstrap", "200", "--ar-trials", "200"])
    assert code == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("metric", ([], ["--metric", "jaccard"]))
def test_compare_several_systems_each_against_the_first(capsys, metric):
    two = _compare(capsys, PRED, GOLD, GOLD, *metric)
    three = _compare(capsys, PRED, GOLD, PRED, GOLD, *metric)
    assert "baseline" not in two and three["baseline"] == "sys1"
    assert (three["sys1"], three["sys2"], three["sys3"]) == (str(PRED), str(GOLD), str(PRED))
    whole = [c for c in three["comparisons"] if c["name"] == two["comparisons"][0]["name"]]
    assert [c["system"] for c in whole] == ["sys2", "sys3"]
    # sys2's comparison is the two-system run's, to the last bit (the same resamples)
    assert {k: v for k, v in whole[0].items() if k != "system"} == two["comparisons"][0]
    # a system against itself: no difference, p = 1
    assert whole[1]["delta_f1"] == 0 and whole[1]["p_value_bootstrap"] == 1 and whole[1]["p_value_randomization"] == 1


def test_compare_several_systems_text_and_pairs(capsys, tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    code = cli.main(["compare", str(PRED), str(GOLD), str(PRED), str(GOLD), "--metric", "jaccard",
                     "--workers", "1", "--quiet", "--bootstrap", "100", "--ar-trials", "100",
                     "--pairs-out", str(pairs)])
    assert code == 0
    out = capsys.readouterr().out
    assert f"sys1: {PRED}  sys2: {GOLD}  sys3: {PRED}  gold: {GOLD}" in out
    assert "delta score (sys1 - sys2)" in out and "delta score (sys1 - sys3)" in out
    rows = [json.loads(x) for x in pairs.read_text().splitlines()]
    assert [r["index"] for r in rows] == [0, 1, 2, 3]
    assert all(r["difference_sys3"] == 0 and r["sys1"] - r["sys2"] == r["difference_sys2"] for r in rows)


def test_registered_metrics_are_covered():
    """Every metric but the alignment family and the aspect metric is in :data:`PLAIN` or
    needs word vectors (wwlk) or reads DRSs, not AMR (counter: tests/test_drs_*.py)."""
    assert set(METRICS) - set(PLAIN) == {"smatch", "aspect", "wwlk", "counter"}


# --- interrupts through the template, in this process ------------------------------------

def _stop_at(monkeypatch, method: str, calls: int) -> None:
    """Make jaccard's ``method`` raise KeyboardInterrupt at its ``calls``-th call."""
    cls = METRICS["jaccard"]
    original = getattr(cls, method)
    seen = []

    def stopping(self, *args):
        seen.append(1)
        if len(seen) == calls:
            raise KeyboardInterrupt
        return original(self, *args)
    monkeypatch.setattr(cls, method, stopping)


def test_score_metric_interrupted_keeps_the_finished_pairs(monkeypatch, tmp_path, capsys):
    _stop_at(monkeypatch, "stats", 3)
    pairs = tmp_path / "p.jsonl"
    code = cli.main(["score", str(PRED), str(GOLD), "--metric", "jaccard", "--workers", "1", "--quiet",
                     "--pairs-out", str(pairs)])
    assert code == 130
    out, err = capsys.readouterr()
    assert f"interrupted: 2 of 4 pairs finished, written to {pairs}" in err
    assert "pairs: 2 scored: 2" in out
    assert [json.loads(x)["index"] for x in pairs.read_text().splitlines()] == [0, 1]


def test_search_metric_interrupted_counts_the_finished_queries(monkeypatch, tmp_path, capsys):
    _stop_at(monkeypatch, "stats_matrix", 2)
    hits = tmp_path / "hits.jsonl"
    code = cli.main(["search", str(PRED), str(GOLD), "--metric", "jaccard", "--top", "1", "--quiet",
                     "--out", str(hits)])
    assert code == 130
    assert "interrupted: 1 of 4 queries finished" in capsys.readouterr().err
    assert [json.loads(x)["query"] for x in hits.read_text().splitlines()] == [0]


def test_a_signal_while_a_result_is_recorded_acts_after_it():
    import os
    import signal

    from smatchpp.cli.app import HeldSignals

    with HeldSignals() as held:
        held.holding = True
        os.kill(os.getpid(), signal.SIGINT)
        recorded = [1, 2]  # the handler has run by now (a bytecode boundary): it held the signal
        assert held.held and recorded
        with pytest.raises(KeyboardInterrupt):
            held.release()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_read_scored_pairs_reads_each_side_through_read_pairs(tmp_path, capsys):
    """``tune``'s sides (A, B, scores): the outputs checked against every input, the pairs read and
    paired as every command reads them, the scores one per pair; unreadable graphs stop it."""
    from smatchpp.cli.app import read_scored_pairs
    from smatchpp.core.exceptions import UsageError

    (tmp_path / "y.txt").write_text("1\n0.5\n0.2\n0.7\n")
    sides = read_scored_pairs(_args(metric="wwlk"), [(str(PRED), str(GOLD), str(tmp_path / "y.txt"))] * 2,
                              {"--output": str(tmp_path / "w.tsv")})
    assert len(sides) == 2 and sides[0].scores == [1, 0.5, 0.2, 0.7]
    assert [e.graph for e in sides[0].entries_a] == [e.graph for e in read_file(PRED)]
    with pytest.raises(UsageError, match="is the input file"):
        read_scored_pairs(_args(), [(str(PRED), str(GOLD), str(tmp_path / "y.txt"))], {"--output": str(GOLD)})
    (tmp_path / "bad.amr").write_text("(a / b\n\n" + PRED.read_text())
    bad, y = str(tmp_path / "bad.amr"), str(tmp_path / "y.txt")
    assert read_scored_pairs(_args(), [(str(PRED), str(GOLD), y), (bad, bad, y)]) is None
    err = capsys.readouterr().err
    assert err.count("bad.amr:1: graph 0:") == 1 and "1 unreadable graph; nothing scored" in err

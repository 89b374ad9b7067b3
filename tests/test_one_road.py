"""One road for every metric (issue 31, item 1): Smatch is a :class:`Metric` on the command line.

``metric_from_args`` gives a metric for every ``--metric``, the alignment family included
(:class:`AlignmentMetric` carrying the Config of the options); ``score`` and ``compare`` then
take the same steps for every metric: :meth:`Metric.corpus`, :meth:`Metric.intervals`,
:meth:`Metric.compare_systems` (ending in :func:`compare_columns`, the one paired test) and
one report (:func:`present.corpus_report`).  The tests patch those steps and check that the
commands call them for Smatch and for a metric without an alignment alike; before, the
alignment family took a path of its own (``metric_from_args`` returned ``None`` for it).
"""

from __future__ import annotations

import argparse

import pytest

from clirun import GOLD, PRED, run
from smatchpp.alignment.config import Config
from smatchpp.cli import metric as cli_metric
from smatchpp.metrics import Metric
from smatchpp.metrics.alignment import AlignmentMetric
from smatchpp.reporting import present
from smatchpp.statistics import significance


def _args(command: str, *argv: str) -> argparse.Namespace:
    """The parsed options of ``smatchpp COMMAND ARGV`` (the command's own parser)."""
    from smatchpp.cli import build_parser

    return build_parser().parse_args([command, *argv])


@pytest.mark.parametrize("command, argv", [("score", ("A", "B")), ("compare", ("A", "B", "C")),
                                           ("search", ("A", "B")), ("matrix", ("A", "-o", "m.npz"))])
def test_the_alignment_family_is_a_metric_with_its_config(command, argv):
    args = _args(command, *argv, "--preset", "amr", "--seed", "3")
    metric = cli_metric.metric_from_args(args)
    assert isinstance(metric, AlignmentMetric)
    assert metric.config.preset == "amr" and metric.config.seed == 3


def test_the_runs_settings_are_apart_and_sign_as_before():
    args = _args("score", "A", "B", "--bootstrap", "50", "--on-error", "skip", "--aspects", "damonte")
    metric, settings = cli_metric.run_from_args(args)
    assert (settings.on_error, settings.bootstrap) == ("skip", 50)
    assert metric.config.bootstrap is None  # a resampling setting is the run's, never the metric's
    config = Config(on_error="skip", bootstrap=50, aspects="separate", aspect_set="damonte")
    assert settings.signature(metric) == config.signature()


def _recording(monkeypatch, cls, name, calls):
    original = getattr(cls, name)

    def recorded(self, *args, **kwargs):
        calls.append((type(self).__name__, name))
        return original(self, *args, **kwargs)
    monkeypatch.setattr(cls, name, recorded)


@pytest.mark.parametrize("options", [(), ("--metric", "jaccard")], ids=["smatch", "jaccard"])
def test_score_takes_the_metrics_steps_and_the_one_report(tmp_path, monkeypatch, options):
    calls: list = []
    for cls in (Metric, AlignmentMetric):
        for name in ("corpus", "intervals", "pair_json"):
            if name in vars(cls):
                _recording(monkeypatch, cls, name, calls)
    reports: list = []
    original = present.corpus_report
    monkeypatch.setattr(present, "corpus_report", lambda *a, **k: reports.append(1) or original(*a, **k))
    r = run("score", PRED, GOLD, "--bootstrap", "20", "--pairs-out", "p.jsonl", *options, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert {name for _, name in calls} == {"corpus", "intervals", "pair_json"}
    assert reports == [1]


@pytest.mark.parametrize("options", [(), ("--metric", "wlk")], ids=["smatch", "wlk"])
def test_compare_of_every_metric_ends_in_the_one_paired_test(tmp_path, monkeypatch, options):
    seen: list = []
    original = significance.compare_columns

    def recorded(*args, **kwargs):
        seen.append(kwargs.get("name", args[7] if len(args) > 7 else None))
        return original(*args, **kwargs)
    # both the metrics' module and significance.compare (Smatch's micro F1) find it here
    monkeypatch.setattr(significance, "compare_columns", recorded)
    monkeypatch.setattr("smatchpp.metrics.base.compare_columns", recorded)
    r = run("compare", PRED, GOLD, PRED, GOLD, "--bootstrap", "20", "--ar-trials", "20", *options, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    # three systems against sys1: two comparisons, the same test
    assert seen == [options[1] if options else "smatch"] * 2


def test_score_warns_when_nothing_was_scored_under_any_metric(tmp_path):
    """The road's warning is every metric's: before, only Smatch's path gave it."""
    (tmp_path / "a.amr").write_text("(a / b :ARG0 (c\n")
    (tmp_path / "b.amr").write_text("(x / b)\n")
    for options in ((), ("--metric", "jaccard")):
        r = run("score", "a.amr", "b.amr", "--on-error", "skip", *options, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert "no pair was scored (all 1 pair skipped)" in r.stderr, options


@pytest.mark.parametrize("field, value, flag", [("aspects", "separate", "--aspects"),
                                                ("total_time_limit", 5.0, "--total-time-limit")])
def test_a_corpus_setting_is_refused_where_a_pair_is_scored_by_itself(field, value, flag):
    """AlignmentMetric carries what a run honours; one place (one_pair) refuses it for one pair."""
    from smatchpp.graphs.read import read_text

    metric = AlignmentMetric(Config(**{field: value}))
    g = read_text("(a / dog)")[0].graph
    with pytest.raises(ValueError, match=f"{field} is .*cannot honour it"):
        metric.stats(metric.features(g), metric.features(g))


def test_matrix_has_one_road_and_the_engine_is_picked_in_app():
    """``cli/matrix.run`` checks the output's name and the inputs the same way for every metric
    and hands the metric to ``app.all_pairs``, the one place that picks the matrix engine (as
    ``app.score_pairs`` does for a pair); before, ``run`` forked on ``isinstance`` at its top."""
    import ast
    import inspect

    from smatchpp.cli import matrix as cli_matrix

    tree = ast.parse(inspect.getsource(cli_matrix))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "AlignmentMetric" not in names and "isinstance" not in names
    assert AlignmentMetric.certifies() and not Metric.certifies()


@pytest.mark.parametrize("options", [(), ("--metric", "jaccard")], ids=["smatch", "jaccard"])
def test_matrix_of_every_metric_takes_the_shared_checks_then_its_engine(tmp_path, monkeypatch, options):
    from smatchpp.cli import app, common

    checked: list = []
    original = common.check_outputs
    monkeypatch.setattr("smatchpp.cli.matrix.check_outputs",
                        lambda outputs, inputs: checked.append(sorted(outputs)) or original(outputs, inputs))
    engines: list = []
    original_all = app.all_pairs
    monkeypatch.setattr(app, "all_pairs", lambda args, metric, intervals, *engines_given:
                        engines.append((type(metric).__name__, intervals))
                        or original_all(args, metric, intervals, *engines_given))
    r = run("matrix", PRED, GOLD, "-o", "m.npz", *options, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    smatch = not options
    assert checked == [["--output", "intervals"] if smatch else ["--output"]]
    assert engines == [("AlignmentMetric" if smatch else "TripleJaccard", "m.intervals.jsonl" if smatch else None)]

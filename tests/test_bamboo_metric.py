"""``experiments/bamboo.py --metric``: any metric of smatchpp.metrics on a tiny BAMBOO copy,
in a fresh process, with Pearson's r and Spearman's rho."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.stats import pearsonr, spearmanr

from smatchpp.metrics import get_metric
from smatchpp.graphs.read import read_text
from test_benchmarks import HUMAN, RATED, ROLE, bamboo, make_bamboo, run


def _scores(metric, pairs):
    out = []
    for a, b in pairs:
        ga, gb = read_text(a)[0].graph, read_text(b)[0].graph
        out.append(metric.pair_score(metric.features(ga), metric.features(gb)))
    return out


@pytest.mark.parametrize("name, params, spearman", [
    ("rematch", [], False), ("wlk", ["--metric-set", "iterations=1"], False), ("wlk", [], True)])
def test_bamboo_script_takes_a_metric(tmp_path, name, params, spearman):
    make_bamboo(tmp_path / "bamboo")
    out = tmp_path / "cells.json"
    r = run("bamboo.py", "--data", str(tmp_path / "bamboo"), "--metric", name, *params, "--quiet",
            "--json", str(out), *(["--spearman"] if spearman else []))
    assert r.returncode == 0, r.stderr
    metric = get_metric(name, **({"iterations": 1} if params else {}))
    rated = _scores(metric, RATED)
    corr = 100 * (spearmanr if spearman else pearsonr)(rated, HUMAN)[0]
    role_scores = _scores(metric, ROLE)
    role = 100 * np.mean([role_scores[2 * k + 1] > role_scores[2 * k] for k in range(3)])
    cells = json.loads(out.read_text())["cells"]
    for cell in bamboo.CELLS:
        assert cells[cell] == pytest.approx(role if cell.endswith("role_confusion") else corr, abs=1e-9), cell
    first = r.stdout.splitlines()[0]
    assert first.startswith(metric.signature().split("|")[0]) and f"metric:{name}" in first
    assert ("Spearman" in first) == spearman
    assert f"| ours ({name})" in r.stdout
    if name == "rematch":
        assert "without the VerbAtlas mapping" in first


@pytest.mark.parametrize("args, message", [
    (["--metric", "nope"], "unknown metric 'nope'"),
    (["--metric", "wlk", "--metric-set", "colour=red"], "expected field=value"),
    (["--metric", "wlk", "--metric-set", "iterations=two"], "cannot read 'two'"),
    (["--metric", "rematch", "--metric-set", "verbatlas=/nonexistent.json"], "cannot read the VerbAtlas map"),
    # the settings of the other family are refused, not ignored
    (["--metric", "wlk", "--set", "seed=2"], "--set and --preset are Smatch settings"),
    (["--metric", "wlk", "--preset", "amr"], "--set and --preset are Smatch settings"),
    (["--metric", "smatch", "--metric-set", "seed=2"], "the alignment family's settings are --preset"),
    (["--metric-set", "seed=2"], "the alignment family's settings are --preset"),
])
def test_bamboo_script_metric_errors(tmp_path, args, message):
    make_bamboo(tmp_path / "bamboo")
    r = run("bamboo.py", "--data", str(tmp_path / "bamboo"), *args)
    assert r.returncode == 2 and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr


def test_bamboo_script_takes_one_road_with_or_without_metric_smatch(tmp_path):
    """A Smatch setting and ``--metric smatch`` with it score on the one road (the commands'
    ``app.score_pairs``): the same cells, a corpus budget honoured on both (before, ``--metric
    smatch`` scored each pair by ``Metric.stats``, which refused ``total_time_limit``)."""
    make_bamboo(tmp_path / "bamboo")
    cells = []
    for options in ((), ("--metric", "smatch")):
        out = tmp_path / f"cells{len(options)}.json"
        r = run("bamboo.py", "--data", str(tmp_path / "bamboo"), *options, "--set", "total_time_limit=60",
                "--quiet", "--json", str(out), "--workers", "1")
        assert r.returncode == 0, r.stderr
        cells.append(json.loads(out.read_text())["cells"])
    assert cells[0] == cells[1]


def test_parseval_script_takes_a_metric(tmp_path):
    from test_benchmarks import make_parseval

    make_parseval(tmp_path / "pe")
    rows = {}
    for name in ("rematch", "wlk"):
        r = run("parseval.py", "--data", str(tmp_path / "pe"), "--metric", name)
        assert r.returncode == 0, r.stderr
        rows.update({line.split("|")[1].strip(): line for line in r.stdout.splitlines() if line.startswith("| ")})
        assert f"metric:{name}" in r.stdout
    # REMATCH reads "New York" as smatch does (its first word): item 4 is a metric tie -> 1/2 of 2
    assert "| 0.5000 | 2 of 4 (1 human ties) | 1 |" in rows["rematch"]
    # WLK keeps the whole constant: item 4 right as well -> 2/3 of 3
    assert "| 0.6667 | 3 of 4 (1 human ties) | 0 |" in rows["wlk"]


@pytest.mark.parametrize("settings", [[], ["--preset", "amr", "--set", "match=wsmatch"]])
def test_bamboo_metric_smatch_gives_the_default_paths_cells(tmp_path, settings):
    """``--metric smatch`` (the registered metric, one process) and the default path (the
    Scorer) print the same signature and the same cells."""
    make_bamboo(tmp_path / "bamboo")
    outputs = {}
    for name, extra in (("default", []), ("metric", ["--metric", "smatch"])):
        out = tmp_path / f"{name}.json"
        r = run("bamboo.py", "--data", str(tmp_path / "bamboo"), *settings, *extra, "--quiet",
                "--workers", "2", "--json", str(out))
        assert r.returncode == 0, r.stderr
        outputs[name] = (json.loads(out.read_text()), r.stdout)
    (default, text), (metric, metric_text) = outputs["default"], outputs["metric"]
    assert metric == default
    preset = "amr" if settings else "smatch"
    assert f"| ours ({preset}, metric smatch)" in metric_text and f"| ours ({preset}) " in text
    assert metric_text.splitlines()[0] == text.splitlines()[0]

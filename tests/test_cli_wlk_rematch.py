"""``--metric wlk`` and ``--metric rematch`` through the command line:
the options generated from the parameters, the signature, the VerbAtlas note, and the
matrix through the sparse all-pairs path."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from clirun import run
from smatchpp.metrics import get_metric
from smatchpp.graphs.read import read_text

A = "(x / a :r (y / b))\n\n(x / a)\n\n(x / give-01 :ARG0 (y / boy))\n"
B = "(x / a :r (y / c))\n\n(x / a)\n\n(x / hand-01 :ARG0 (y / boy))\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.amr").write_text(A)
    (tmp_path / "b.amr").write_text(B)
    (tmp_path / "va.json").write_text(json.dumps({"give-01": {"label": "GIVE"}, "hand-01": {"label": "GIVE"}}))
    return tmp_path


def _pairs(metric):
    ga, gb = [e.graph for e in read_text(A)], [e.graph for e in read_text(B)]
    return [metric.pair_score(metric.features(a), metric.features(b)) for a, b in zip(ga, gb)]


@pytest.mark.parametrize("options, params", [
    ([], {}), (["--wlk-iterations", "1"], {"iterations": 1}), (["--wlk-label-keyed", "yes"], {"label_keyed": True})])
def test_score_wlk(files, options, params):
    r = run("score", "a.amr", "b.amr", "--metric", "wlk", *options, "--format", "json", "--pairs-out", "p.jsonl",
            cwd=files)
    assert r.returncode == 0, r.stderr
    metric = get_metric("wlk", **params)
    expected = _pairs(metric)
    # pair 0 by hand: 1 / (2 + 1 + 2/4 + 2/9) at K = 2, 1 / (2 + 1 + 2/4) at K = 1
    assert expected[0] == pytest.approx(1 / (3.5 + (2 / 9 if params.get("iterations", 2) == 2 else 0)))
    pairs = [json.loads(line) for line in (files / "p.jsonl").read_text().splitlines()]
    assert [p["score"] for p in pairs] == pytest.approx(expected, abs=1e-15)
    s = json.loads(r.stdout)
    assert s["signature"] == metric.signature()
    assert s["micro"]["score"] == pytest.approx(np.mean(expected), abs=1e-15)


def test_score_rematch_notes_a_missing_verbatlas_map(files):
    r = run("score", "a.amr", "b.amr", "--metric", "rematch", cwd=files)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == get_metric("rematch").signature()
    assert lines[1].startswith("note: rematch: scores are computed without the VerbAtlas mapping")
    # (1 + 1 + 1) / (5 + 1 + 5): pair 2 shares only (boy,)
    assert lines[-2] == f"micro  score {100 * 3 / 11:.2f}"


def test_score_rematch_with_a_verbatlas_map(files):
    r = run("score", "a.amr", "b.amr", "--metric", "rematch", "--rematch-verbatlas", "va.json",
            "--format", "json", cwd=files)
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    digest = hashlib.sha256((files / "va.json").read_bytes()).hexdigest()[:12]
    assert f"|rematch-verbatlas:va.json@sha256={digest}|" in s["signature"]
    assert "note" not in s
    # pair 2 maps both concepts to GIVE: 3 of 3
    assert s["micro"]["score"] == (1 + 1 + 3) / (5 + 1 + 3)


def test_a_missing_verbatlas_map_exits_2(files):
    r = run("score", "a.amr", "b.amr", "--metric", "rematch", "--rematch-verbatlas", "nope.json", cwd=files)
    assert r.returncode == 2 and "nope.json: cannot read the VerbAtlas map" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("name", ["wlk", "rematch"])
def test_matrix_is_the_pairwise_scores(files, name):
    r = run("matrix", "a.amr", "--metric", name, "-o", "m.npz", "--all", cwd=files)
    assert r.returncode == 0, r.stderr
    data = np.load(files / "m.npz", allow_pickle=False)
    assert str(data["signature"]) == get_metric(name).signature()
    key = "score"
    graphs = [e.graph for e in read_text(A)]
    metric = get_metric(name)
    expected = [[metric.pair_score(metric.features(x), metric.features(y)) for y in graphs] for x in graphs]
    assert np.allclose(data[key], expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["wlk", "rematch"])
def test_the_same_numbers_for_any_worker_count(files, name):
    outs = []
    for workers in ("1", "2"):
        r = run("score", "a.amr", "b.amr", "--metric", name, "--workers", workers, "--force-workers",
                "--format", "json", "--pairs-out", f"p{workers}.jsonl", cwd=files)
        assert r.returncode == 0, r.stderr
        outs.append(((files / f"p{workers}.jsonl").read_text(), json.loads(r.stdout)["micro"]))
    assert outs[0] == outs[1]

"""Issue 33, friction items 4 and 7: one spelling per output option, one wording per idea.

In-process (tests/clirun.py's ``run``): the process is not the subject.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from clirun import GOLD, PRED, run
from smatchpp.cli import build_parser


# --- item 4: the main output file is -o/--output, the per-pair lines --pairs-out ------------

@pytest.mark.parametrize("argv, dest", [
    (["matrix", "A", "-o", "X"], "output"),
    (["search", "A", "B", "-o", "X"], "out"),
    (["search", "A", "B", "--output", "X"], "out"),
    (["tune", "A", "B", "Y", "-o", "X"], "out"),
    (["tune", "A", "B", "Y", "--output", "X"], "out"),
    (["explain", "A", "B", "-o", "X"], "html"),
    (["explain", "A", "B", "--output", "X"], "html"),
    (["explain", "A", "B", "--pairs-out", "X"], "json"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_every_command_spells_its_outputs_the_same(argv, dest):
    assert getattr(build_parser().parse_args(argv), dest) == "X"


@pytest.mark.parametrize("argv, dest", [
    (["search", "A", "B", "--out", "X"], "out"),
    (["tune", "A", "B", "Y", "--out", "X"], "out"),
    (["explain", "A", "B", "--html", "X"], "html"),
    (["explain", "A", "B", "--json", "X"], "json"),
    (["matrix", "A", "--output", "X"], "output"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else v)
def test_the_old_spellings_still_work(argv, dest):
    assert getattr(build_parser().parse_args(argv), dest) == "X"


def test_explain_pairs_out_and_search_output_write_their_files(tmp_path: Path):
    done = run("explain", PRED, GOLD, "--pairs-out", "e.jsonl", "-o", "r.html", "--worst", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len((tmp_path / "e.jsonl").read_text().splitlines()) == 2
    assert (tmp_path / "r.html").is_file()
    done = run("search", PRED, GOLD, "--quiet", "-o", "s.jsonl", "--top", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert [json.loads(line)["query"] for line in (tmp_path / "s.jsonl").read_text().splitlines()] == [0, 1, 2, 3]


# --- item 7: a mean metric prints one row; the matrix counts; the npz key ------------------

@pytest.mark.parametrize("metric", ["wlk", "wwlk"])
def test_a_metric_whose_micro_is_its_macro_prints_one_mean_row(tmp_path: Path, metric):
    done = run("score", PRED, GOLD, "--metric", metric, "--bootstrap", "20", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[0] for line in lines if line.strip().startswith(("micro", "macro", "mean"))] == \
        ["mean", "mean"]
    summary = json.loads(run("score", PRED, GOLD, "--metric", metric, "--format", "json", cwd=tmp_path).stdout)
    assert summary["micro"] == summary["macro"]  # JSON keeps both keys


def test_a_metric_with_two_averages_still_prints_micro_and_macro(tmp_path: Path):
    done = run("score", PRED, GOLD, "--metric", "jaccard", cwd=tmp_path)
    assert [line.split()[0] for line in done.stdout.splitlines()[-2:]] == ["micro", "macro"]


def test_both_matrix_roads_word_their_counts_the_same(tmp_path: Path):
    smatch = run("matrix", GOLD, "-o", "s.npz", cwd=tmp_path)
    metric = run("matrix", GOLD, "-o", "m.npz", "--metric", "wlk", cwd=tmp_path)
    two = run("matrix", GOLD, PRED, "-o", "t.npz", cwd=tmp_path)
    assert smatch.returncode == metric.returncode == two.returncode == 0
    assert ("6 of 6 pairs scored (i < j of 4 x 4; diagonal self-match, lower triangle mirrored), "
            "6 certified optimal; matrix written to s.npz") in smatch.stdout
    assert "16 of 16 pairs scored (every cell of 4 x 4); matrix written to m.npz" in metric.stdout
    assert "16 of 16 pairs scored (every cell of 4 x 4), 16 certified optimal" in two.stdout


@pytest.mark.parametrize("extra, old", [((), "f1"), (("--metric", "wlk"), None),
                                        (("--metric", "sema"), "f1")], ids=["smatch", "wlk", "sema"])
def test_the_headline_score_is_score_in_every_npz(tmp_path: Path, extra, old):
    done = run("matrix", GOLD, "-o", "m.npz", *extra, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    with np.load(tmp_path / "m.npz") as z:
        assert z["score"].shape == (4, 4)
        if old is not None:  # the old key stays, the same array
            np.testing.assert_array_equal(z[old], z["score"])

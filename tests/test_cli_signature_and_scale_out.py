"""Fresh-process checks of signature replay, matrix and search input errors and Dask scoring
(numbers and exit codes)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from clirun import GOLD, PRED, run
from smatchpp import __version__
from smatchpp.api import score_files

BAD = "(a / dog)\n\n(b / cat :ARG0 )\n\n(c / cow)\n"  # graph 1: a role without a target


def _json(done):
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_signature_recreates_the_settings_and_the_numbers(tmp_path):
    first = _json(run("score", PRED, GOLD, "--seed", "3", "--work-limit", "50", "--format", "json",
                      "--quiet", cwd=tmp_path))
    again = _json(run("score", PRED, GOLD, "--signature", first["signature"], "--format", "json",
                      "--quiet", cwd=tmp_path))
    assert again["signature"] == first["signature"]
    assert (again["matched_lower"], again["matched_upper"], again["micro"]) == (
        first["matched_lower"], first["matched_upper"], first["micro"])


@pytest.mark.parametrize("change, fragment", [
    (lambda s: s.replace(f"smatchpp:{__version__}", "smatchpp:0.0.1"), "smatchpp 0.0.1"),
    (lambda s: s + "|colour:blue", "colour"),
])
def test_bad_signatures_exit_2(tmp_path, change, fragment):
    sig = _json(run("score", PRED, GOLD, "--format", "json", "--quiet", cwd=tmp_path))["signature"]
    done = run("score", PRED, GOLD, "--signature", change(sig), "--quiet", cwd=tmp_path)
    assert done.returncode == 2 and fragment in done.stderr and "Traceback" not in done.stderr


def test_signature_that_disagrees_with_an_option_exits_2(tmp_path):
    sig = _json(run("score", PRED, GOLD, "--format", "json", "--quiet", cwd=tmp_path))["signature"]
    done = run("score", PRED, GOLD, "--signature", sig, "--seed", "9", "--quiet", cwd=tmp_path)
    assert done.returncode == 2 and "seed" in done.stderr


@pytest.mark.parametrize("args, fragment", [
    (["matrix", "{bad}", "-o", "{tmp}/m.csv", "--on-error", "empty"], "must end in .npz or .parquet"),
    (["matrix", "{bad}", "-o", "{tmp}/m.npz", "--chunk", "0", "--on-error", "empty"], "--chunk must be at least 1"),
    (["matrix", "{bad}", "-o", "{tmp}/m.npz"], "graph 1: role :ARG0 of 'b' has no target"),
    (["search", "{bad}", "{bad}", "--out", "{bad}", "--on-error", "empty"], "refusing to overwrite"),
    (["search", "{bad}", "{bad}", "--top", "0", "--on-error", "empty"], "--top must be at least 1"),
    (["search", "{bad}", "{bad}"], "graph 1: role :ARG0 of 'b' has no target"),
])
def test_matrix_and_search_bad_input_exit_2(tmp_path, args, fragment):
    bad = tmp_path / "bad.amr"
    bad.write_text(BAD)
    done = run(*[a.format(bad=bad, tmp=tmp_path) for a in args], "--quiet", cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert fragment in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "m.npz").exists()


def test_matrix_scores_an_unreadable_graph_as_empty_when_asked(tmp_path):
    bad = tmp_path / "bad.amr"
    bad.write_text(BAD)
    done = run("matrix", bad, "-o", tmp_path / "m.npz", "--all", "--on-error", "empty", "--quiet",
               cwd=tmp_path)
    assert done.returncode == 0 and "1 unreadable graph" in done.stderr
    data = np.load(tmp_path / "m.npz")
    # graph 1 is empty: F1 0 with everything; dog vs cow share only the TOP triple: 1 of 2 + 2
    assert data["f1"][1].tolist() == [0.0, 0.0, 0.0]
    assert data["matched"][0, 2] == 1 and abs(data["f1"][0, 2] - 0.5) < 1e-12


def test_score_with_dask_prints_the_local_numbers(tmp_path):
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    local = score_files(str(PRED), str(GOLD))
    got = _json(run("score", PRED, GOLD, "--dask", "--workers", "2", "--format", "json", "--quiet",
                    cwd=tmp_path, fresh=True))  # a local Dask cluster: in a process of its own
    assert got["matched_lower"] == sum(p.matched for p in local.pairs)
    assert got["micro"]["f1"] == local.micro[2] and got["optimal"] == len(local.pairs)

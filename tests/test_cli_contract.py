"""The command line's contract: exit codes, messages, limits and labels.

Exit codes: 0 success, 2 unreadable input / bad option / unusable output (before
any pair is scored), 1 an internal error (a bug, said so), 130 interrupted
(``test_cli_interrupts.py``), 141 stdout closed early.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from clirun import GOLD, PRED, run, run_python
from smatchpp import __version__

LIMITS_DOC = Path(__file__).resolve().parents[1] / "docs" / "limits.md"


def assert_usage_error(done, *fragments: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr
    for fragment in fragments:
        assert fragment in done.stderr, (fragment, done.stderr)


# option -> (value, what the message must say); argparse's own checks say "argument --x"
NONSENSE = [
    (("--time-limit", "0"), ("--time-limit", "positive")),
    (("--time-limit", "-1"), ("--time-limit", "positive")),
    (("--time-limit", "nan"), ("--time-limit", "positive")),
    (("--time-limit", "inf"), ("--time-limit", "finite")),
    (("--time-limit", "soon"), ("--time-limit", "'soon'")),
    (("--work-limit", "0"), ("--work-limit", "at least 1")),
    (("--work-limit", "2.5"), ("--work-limit", "whole number")),
    (("--workers", "0"), ("--workers", "at least 1")),
    (("--seed", "-1"), ("--seed", "0 or more")),
    (("--restarts", "-3"), ("--restarts", "0 or more")),
    (("--solver", "gurobi"), ("--solver", "'gurobi'")),
    (("--compression", "zip"), ("compression", "'zip'")),  # validated by Config (presets took the smatchpp value)
    (("--on-error", "ignore"), ("--on-error", "'ignore'")),
    (("--input-format", "xml"), ("--input-format", "'xml'")),
    (("--format", "yaml"), ("--format", "'yaml'")),
    (("--signature", "nonsense"), ("not a smatchpp signature",)),
    (("--signature", "smatchpp:0.0.1|seed:2"), ("smatchpp 0.0.1", f"smatchpp {__version__}",
                                                "smatchpp==0.0.1")),
    (("--signature", f"smatchpp:{__version__}|colour:blue"), ("unknown signature key 'colour'",)),
    (("--signature", f"smatchpp:{__version__}|timeout:0"), ("invalid signature", "time_limit")),
    (("--signature", f"smatchpp:{__version__}|seed:7", "--seed", "3"), ("--signature sets seed",)),
]


@pytest.mark.parametrize("options, fragments", NONSENSE, ids=[" ".join(o) for o, _ in NONSENSE])
def test_nonsense_settings_exit_2_with_a_message(tmp_path, options, fragments):
    done = run("score", PRED, GOLD, "--quiet", *options, cwd=tmp_path)
    assert_usage_error(done, *fragments)
    assert done.stdout == ""


def test_unusable_paths_exit_2_naming_them(tmp_path):
    missing = tmp_path / "missing.amr"
    assert_usage_error(run("score", missing, GOLD, cwd=tmp_path), str(missing))
    # an output that is an input is refused before anything is written
    copy = tmp_path / "gold.amr"
    copy.write_text(GOLD.read_text())
    done = run("score", PRED, copy, "--pairs-out", copy, cwd=tmp_path)
    assert_usage_error(done, "--pairs-out", "refusing to overwrite")
    assert copy.read_text() == GOLD.read_text()
    assert_usage_error(run("score", PRED, GOLD, "--pairs-out", tmp_path / "no" / "p.jsonl", cwd=tmp_path),
                       "--pairs-out", "does not exist")
    assert_usage_error(run("score", PRED, GOLD, "--pairs-out", tmp_path, cwd=tmp_path),
                       "--pairs-out", "is a directory")
    assert_usage_error(run("score", "-", "-", cwd=tmp_path), "only one of the two inputs")


def test_unreadable_graph_exit_2_names_file_line_and_graph(tmp_path):
    bad = tmp_path / "bad.amr"
    bad.write_text("(a / b)\n\n(c / d :ARG0 (e / f)\n")
    good = tmp_path / "good.amr"
    good.write_text("(a / b)\n\n(c / d)\n")
    done = run("score", bad, good, cwd=tmp_path)
    assert_usage_error(done, f"{bad}:3: graph 1:", "1 unreadable graph;", "--on-error")
    done = run("score", bad, good, "--on-error", "skip", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "pairs: 2 scored: 1 skipped: 1" in done.stdout
    assert "1 unreadable graph, pairs skipped" in done.stderr


INTERNAL = """
import sys
import smatchpp.alignment.solvers.portfolio as portfolio
from smatchpp import cli
def boom(self, *args, **kwargs):
    raise ZeroDivisionError("planted by the test")
portfolio.Portfolio.solve = boom
sys.exit(cli.main(sys.argv[1:]))
"""


def test_internal_error_exits_1_and_says_it_is_a_bug(tmp_path):
    done = run_python(INTERNAL, "score", PRED, GOLD, "--workers", "1", "--quiet", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "ZeroDivisionError: planted by the test" in done.stderr
    assert "internal error" in done.stderr and "this is a bug" in done.stderr
    assert "report it" in done.stderr


NO_MATPLOTLIB = """
import sys
sys.modules["matplotlib"] = None  # import matplotlib now raises ImportError
from smatchpp import api, cli
def no_scoring(*args, **kwargs):
    raise AssertionError("scored before checking --plot")
api.Scorer.score_corpus = no_scoring
sys.exit(cli.main(sys.argv[1:]))
"""


def test_plot_without_matplotlib_is_a_usage_error_before_scoring(tmp_path):
    done = run_python(NO_MATPLOTLIB, "gap", PRED, GOLD, "--plot", tmp_path / "g.png", "--quiet",
                      cwd=tmp_path)
    assert_usage_error(done, "--plot needs matplotlib", "pip install 'smatchpp[plot]'")
    assert not (tmp_path / "g.png").exists()


def test_bad_smatch_python_is_a_usage_error(tmp_path):
    done = run("gap", PRED, GOLD, "--smatch-python", tmp_path / "no-python", "--quiet", cwd=tmp_path)
    assert_usage_error(done, "--smatch-python", "no-python", "cannot run it")


def test_uncertified_pairs_are_labelled(tmp_path):
    # one unit of work: the label bound still certifies ex1-ex3 (their optimum equals it),
    # ex4 (14 of 16, the label bound says 16) needs the LP, which the budget cuts off
    pairs = tmp_path / "p.jsonl"
    done = run("score", PRED, GOLD, "--work-limit", "1", "--quiet", "--pairs-out", pairs, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in pairs.read_text().splitlines()]
    assert [r["status"] for r in rows] == ["optimal"] * 3 + ["work_limit"]
    assert rows[3]["matched"] == 14 and 14 < rows[3]["upper"] <= 16
    upper = sum(r["upper"] for r in rows)
    lines = done.stdout.splitlines()
    assert "pairs: 4 scored: 4 certified optimal: 3" in lines
    assert all(line.endswith("(lower bounds)") for line in lines if line.startswith(("micro", "macro")))
    assert f"matched: 43 (upper bound {upper}) of test 48 / gold 48 triples" in done.stdout
    assert "1 pair not certified: its matches are the best alignment found" in done.stdout
    certified = next(line for line in lines if line.startswith("certified by: "))
    bounded = next(line for line in lines if line.startswith("not certified, best bound from: "))
    assert sum(map(int, re.findall(r" (\d+)(?=,|$)", certified))) == 3
    assert sum(map(int, re.findall(r" (\d+)(?=,|$)", bounded))) == 1
    s = json.loads(run("score", PRED, GOLD, "--work-limit", "1", "--quiet", "--format", "json",
                       cwd=tmp_path).stdout)
    assert s["scores_are_lower_bounds"] is True and s["optimal"] == 3
    assert sum(s["certified_by"].values()) == 3 and sum(s["bounded_by"].values()) == 1
    assert s["status_counts"] == {"optimal": 3, "work_limit": 1}


def test_work_limit_is_the_same_for_any_worker_count(tmp_path):
    # several pairs, some cut by the budget: --workers 1 and 2 give byte-identical pairs
    graphs_a = PRED.read_text() * 3
    graphs_b = GOLD.read_text() * 3
    (tmp_path / "a.amr").write_text(graphs_a.replace("\n# ::id", "\n\n# ::id"))
    (tmp_path / "b.amr").write_text(graphs_b.replace("\n# ::id", "\n\n# ::id"))
    keep = ("index", "matched", "upper", "status", "stage", "precision", "recall", "f1")
    results = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.jsonl"
        done = run("score", "a.amr", "b.amr", "--work-limit", "3", "--workers", workers,
                   "--force-workers", "--quiet", "--pairs-out", out, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "deterministic:yes" in done.stdout
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        results.append(([{k: r[k] for k in keep} for r in rows], done.stdout))
    assert len(results[0][0]) == 12
    assert any(r["status"] == "work_limit" for r in results[0][0])
    assert results[0] == results[1]
    documented = " ".join(LIMITS_DOC.read_text().split())
    assert "Results are identical on every run, machine and worker count" in documented


def test_time_limit_signature_says_not_deterministic(tmp_path):
    done = run("score", PRED, GOLD, "--time-limit", "30", "--quiet", cwd=tmp_path)
    assert done.returncode == 0
    assert "|timeout:30|" in done.stdout and "deterministic:no" in done.stdout


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a disk that is full)")
def test_failed_writes_name_what_was_written(tmp_path):
    done = run("score", PRED, GOLD, "--quiet", "--pairs-out", "/dev/full", cwd=tmp_path)
    assert_usage_error(done, "writing /dev/full: No space left on device")
    with open("/dev/full", "w") as full:
        done = run("score", PRED, GOLD, "--quiet", "--format", "json", cwd=tmp_path, stdout=full,
                   stderr=-1)
    assert_usage_error(done, "writing standard output: No space left on device")

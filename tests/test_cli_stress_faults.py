"""Issue 33's faults whose behaviour is the command line's, each in a fresh process
(docs/faults/stress.md)."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from clirun import GOLD, PRED, child_env, run, smatchpp_argv
from tinyvectors import vectors  # noqa: F401 (a fixture)


# --- fault 5: an output option naming any input file ---------------------------------------

@pytest.mark.parametrize("link", ["same", "symlink", "hardlink"])
@pytest.mark.parametrize("options", [
    ("score", "--metric", "wwlk", "--wwlk-edge-weights", "IN", "--pairs-out", "OUT"),
    ("score", "--role-weights", "IN", "--pairs-out", "OUT"),
    ("score", "--match", "s2match", "--vectors", "IN", "--pairs-out", "OUT"),
    ("score", "--aspects", "smatchpp18", "--propbank-frames", "IN", "--pairs-out", "OUT"),
    ("search", "--metric", "wwlk", "--wwlk-edge-weights=IN", "--out", "OUT"),
], ids=["wwlk-edge-weights", "role-weights", "vectors", "propbank-frames", "search-out"])
def test_an_output_naming_any_input_file_is_refused(tmp_path: Path, options, link):
    source = tmp_path / "in.tsv"
    source.write_text(":ARG0\t2\n")
    out = tmp_path / "out.tsv"
    if link == "same":
        out = source
    elif link == "symlink":
        out.symlink_to(source)
    else:
        os.link(source, out)
    command, *rest = options
    rest = [x.replace("IN", str(source)).replace("OUT", str(out)) for x in rest]
    r = run(command, PRED, GOLD, *rest, "--quiet", cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    i = next(i for i, x in enumerate(options) if x.endswith("IN"))
    flag = options[i].split("=")[0] if "=" in options[i] else options[i - 1]
    assert f"is the {flag} file {source}: refusing to overwrite it" in r.stderr
    assert source.read_text() == ":ARG0\t2\n"


# --- faults 4, 6, 11: tune ---------------------------------------------------------------


TUNE_A = "(d / dog :r (c / cat))\n\n(d / dog :r (b / big))\n\n(b / big :r (c / cat))\n\n(c / cat :r (d / dog :r (b / big)))\n"
TUNE_B = "(d / dog)\n\n(b / big :r (d / dog))\n\n(c / cat)\n\n(c / cat :r (b / big))\n"


def _tune_files(tmp_path: Path, scores: str = "0.2\n1\n0.7\n0.4\n") -> None:
    (tmp_path / "a.amr").write_text(TUNE_A)
    (tmp_path / "b.amr").write_text(TUNE_B)
    (tmp_path / "y.txt").write_text(scores)


def _interrupt_when(argv, cwd: Path, ready, sig=signal.SIGINT):
    """Run ``argv``; once ``ready(pid, stderr so far)`` holds, send ``sig``; the exit code,
    stdout and stderr.  A run that finishes first fails the test."""
    err_path = cwd / "stderr.txt"
    with open(err_path, "w") as err:
        proc = subprocess.Popen(argv, cwd=cwd, env=child_env(), stdout=subprocess.PIPE, stderr=err,
                                text=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        try:
            deadline = time.monotonic() + 300
            while not ready(proc.pid, err_path.read_text()) and proc.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.05)
            assert proc.poll() is None, ("finished before the signal", err_path.read_text())
            proc.send_signal(sig)
            out, _ = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    return proc.returncode, out, err_path.read_text()


def _interrupt_after(argv, cwd: Path, stderr_has: str, count: int, sig=signal.SIGINT):
    """Run ``argv``; once its stderr holds ``stderr_has`` ``count`` times, send ``sig``."""
    return _interrupt_when(argv, cwd, lambda pid, err: err.count(stderr_has) >= count, sig)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupted_tune_keeps_the_best_weights_and_the_curve(tmp_path, vectors, sig):
    _tune_files(tmp_path)
    argv = smatchpp_argv("tune", "a.amr", "b.amr", "y.txt", "--metric", "wwlk", "--wwlk-vectors", vectors,
                         "--wwlk-iterations", "1", "--wwlk-relation-init", "ones", "--out", "w.tsv",
                         "--curve", "c.tsv", "--iterations", "100000000", "--check-every", "20",
                         "--batch", "2")
    code, out, err = _interrupt_after(argv, tmp_path, "dev r", 3, sig)
    assert code == 130, err
    assert "interrupted at step" in err and "written to w.tsv" in err
    weights = (tmp_path / "w.tsv").read_text()
    assert "interrupted at step" in weights and "\nr\t" in weights
    curve = (tmp_path / "c.tsv").read_text().splitlines()
    assert curve[0] == "step\tmean_batch_loss\tdev_r" and len(curve) >= 4
    assert [int(line.split("\t")[0]) for line in curve[1:4]] == [0, 20, 40]


def test_interrupted_s2match_grid_keeps_the_settings_done(tmp_path):
    (tmp_path / "a.amr").write_text("(a / dog :ARG0 (b / cat))\n\n(a / run-01 :ARG0 (b / man))\n\n(a / eat-01)\n")
    (tmp_path / "b.amr").write_text("(a / dog :ARG0 (b / puppy))\n\n(a / run-02 :ARG0 (b / woman))\n\n(a / drink-01)\n")
    (tmp_path / "y.txt").write_text("1\n0.5\n0.2\n")
    grid = ",".join(f"{x / 1000:g}" for x in range(1, 1000))
    argv = smatchpp_argv("tune", "a.amr", "b.amr", "y.txt", "--dev", "a.amr", "b.amr", "y.txt",
                         "--out", "grid.tsv", "--cutoffs", grid, "--diffsenses", grid)
    code, out, err = _interrupt_after(argv, tmp_path, "dev r", 2)
    assert code == 130, err
    rows = (tmp_path / "grid.tsv").read_text().splitlines()
    assert rows[0] == "cutoff\tdiffsense\ttrain_r\tdev_r" and len(rows) >= 3
    assert "interrupted after" in err and "best so far: --cutoff" in err


def test_tune_refuses_a_negative_seed_before_any_step(tmp_path, vectors):
    _tune_files(tmp_path)
    r = run("tune", "a.amr", "b.amr", "y.txt", "--metric", "wwlk", "--wwlk-vectors", vectors, "--out", "w.tsv",
            "--seed", "-1", cwd=tmp_path)
    assert r.returncode == 2 and "--seed must be a whole number >= 0, not -1" in r.stderr
    assert "step 0" not in r.stderr and not (tmp_path / "w.tsv").exists()


def test_wwlk_seed_minus_one_is_a_usage_error(tmp_path):
    r = run("score", PRED, GOLD, "--metric", "wwlk", "--wwlk-seed", "-1", cwd=tmp_path)
    assert r.returncode == 2 and "--wwlk-seed must be a whole number >= 0, not -1" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("scores", ["3\n3\n3\n3\n", "0.5\n0.5\n0.5\n0.5\n"])
def test_tune_refuses_constant_human_scores(tmp_path, vectors, scores):
    _tune_files(tmp_path, scores)
    r = run("tune", "a.amr", "b.amr", "y.txt", "--metric", "wwlk", "--wwlk-vectors", vectors, "--out", "w.tsv",
            "--iterations", "2", "--check-every", "1", cwd=tmp_path)
    assert r.returncode == 2 and "Pearson's r with them is undefined" in r.stderr, r.stderr
    assert "dev r -1.0000" not in r.stderr + r.stdout and not (tmp_path / "w.tsv").exists()


# --- faults 7, 8: weights ---------------------------------------------------------------------

@pytest.mark.parametrize("weight", ["1e160", "1e100", "2e6"])
def test_huge_wwlk_edge_weights_are_refused(tmp_path, weight):
    (tmp_path / "w.tsv").write_text(f":ARG0\t{weight}\n")
    r = run("score", PRED, GOLD, "--metric", "wwlk", "--wwlk-edge-weights", "w.tsv", cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "w.tsv: the weight of arg0 is" in r.stderr and "at most 1e+06 is allowed" in r.stderr


@pytest.mark.parametrize("weights, message", [
    ("0,0,0", "at least one weight must be > 0"),
    ("-1,1,1", "--sembleu-weights must be 3 non-negative numbers"),
])
def test_sembleu_weights_are_checked_with_the_option_named(tmp_path, weights, message):
    r = run("score", PRED, GOLD, "--metric", "sembleu", "--sembleu-weights", weights, cwd=tmp_path)
    assert r.returncode == 2 and message in r.stderr, r.stderr


# --- fault 3 and 12: matrix --metric and search --metric interrupted ---------------------------




def _random_graphs(count: int, seed: int, size: int = 25) -> str:
    rng = random.Random(seed)

    def graph() -> str:
        edges = "".join(f" :r{rng.randrange(8)} (v{i} / c{rng.randrange(50)})" for i in range(1, size))
        extra = "".join(f" :r{rng.randrange(8)} v{rng.randrange(size)}" for _ in range(size // 3))
        return f"(v0 / c{rng.randrange(50)}{edges}{extra})"
    return "\n\n".join(graph() for _ in range(count)) + "\n"


def _cpu_seconds(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0


def _tree_cpu_seconds(pid: int) -> float:
    """The CPU seconds of ``pid`` and of its children (a pool's workers) so far."""
    total = _cpu_seconds(pid)
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                total += sum(_tree_cpu_seconds(int(child)) for child in handle.read().split())
    except OSError:
        pass
    return total


def _interrupt_when_busy(argv, cwd: Path, cpu: float = 3.0, sig=signal.SIGINT):
    """Run ``argv``; once it and its workers have used ``cpu`` seconds of CPU, send ``sig``."""
    return _interrupt_when(argv, cwd, lambda pid, err: _tree_cpu_seconds(pid) >= cpu, sig)


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupted_metric_matrix_writes_the_finished_pairs_rest_nan(tmp_path, sig, workers):
    (tmp_path / "m.amr").write_text(_random_graphs(500, 1))
    (tmp_path / "v.txt").write_text("c1 1 0\nc2 0 1\n")
    code, out, err = _interrupt_when_busy(smatchpp_argv("matrix", "m.amr", "--metric", "wwlk", "--wwlk-vectors",
                                                        "v.txt", "-o", "m.npz", "--workers", workers),
                                          tmp_path, cpu=3.0 if workers == "1" else 7.0, sig=sig)
    assert code == 130, err
    score = np.load(tmp_path / "m.npz")["score"]
    done = np.isfinite(score)
    assert 0 < done.sum() < score.size
    assert done.ravel()[:done.sum()].all()  # the finished pairs are the first ones in row order
    assert f"smatchpp: interrupted: {done.sum()} of 250000 pairs finished" in err
    assert "(the rest NaN)" in out


def test_interrupted_metric_search_says_how_many_queries_finished(tmp_path):
    (tmp_path / "q.amr").write_text(_random_graphs(400, 2))
    (tmp_path / "c.amr").write_text(_random_graphs(400, 3))
    (tmp_path / "v.txt").write_text("c1 1 0\nc2 0 1\n")
    code, out, err = _interrupt_when_busy(smatchpp_argv("search", "q.amr", "c.amr", "--metric", "wwlk",
                                                        "--wwlk-vectors", "v.txt", "--out", "s.jsonl"), tmp_path)
    assert code == 130, err
    lines = (tmp_path / "s.jsonl").read_text().splitlines()
    assert f"smatchpp: interrupted: {len(lines)} of 400 queries finished" in err


def test_matrix_writes_no_empty_intervals_file(tmp_path):
    r = run("matrix", PRED, GOLD, "-o", "m.npz", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "m.npz").exists() and not (tmp_path / "m.intervals.jsonl").exists()


# --- fault 10: strict JSON --------------------------------------------------------------------


def _strict(text: str):
    def refuse(token):
        raise AssertionError(f"bare {token} in JSON output")
    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("argv", [
    ("score", PRED, GOLD, "--metric", "aspect", "--aspect-name", "wikification", "--bootstrap", "20",
     "--format", "json"),
    ("compare", PRED, GOLD, GOLD, "--metric", "aspect", "--aspect-name", "wikification", "--format", "json"),
], ids=["score-bootstrap", "compare"])
def test_json_outputs_are_strict_json_with_null(tmp_path, argv):
    r = run(*argv, "--pairs-out", "p.jsonl", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = _strict(r.stdout)
    assert "null" in r.stdout and summary
    for line in (tmp_path / "p.jsonl").read_text().splitlines():
        _strict(line)


# --- fault 12: LaTeX comments, fault 2: the aspect metric's time limit ---------------------------


def test_a_file_name_with_a_line_break_stays_inside_the_latex_comment(tmp_path):
    odd = tmp_path / "a\n\\end{document}.amr"
    shutil.copy(PRED, odd)
    r = run("compare", odd, GOLD, GOLD, "--format", "latex", "--bootstrap", "10", "--ar-trials", "10", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    before_table = r.stdout.split("\\begin{tabular}")[0]
    assert all(line.startswith("%") for line in before_table.splitlines() if line.strip())


def test_the_aspect_metric_takes_a_time_limit(tmp_path):
    r = run("score", PRED, GOLD, "--metric", "aspect", "--aspect-name", "reentrancies", "--time-limit", "5",
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "|timeout:5|" in r.stdout.splitlines()[0]


@pytest.mark.parametrize("text", ["", "garbage\nmore garbage\n"], ids=["empty", "garbage"])
def test_an_empty_or_garbage_frames_file_is_refused(tmp_path, text):
    (tmp_path / "frames.txt").write_text(text)
    r = run("score", PRED, GOLD, "--aspects", "smatchpp18", "--propbank-frames", "frames.txt", cwd=tmp_path)
    assert r.returncode == 2, r.stdout
    assert "frames.txt: no line of the form 'frame  arg0: description" in r.stderr


@pytest.mark.parametrize("on_error", ["raise", "empty"])
def test_the_same_file_twice_reports_each_unreadable_graph_once(tmp_path, on_error):
    (tmp_path / "bad.amr").write_text("(a / b\n\n(c / d)\n")
    r = run("score", "bad.amr", "bad.amr", "--on-error", on_error, cwd=tmp_path)
    assert "1 unreadable graph" in r.stderr and "2 unreadable graphs" not in r.stderr, r.stderr
    assert r.stderr.count("Unexpected end of input") == 1


# --- friction 3, 5: help texts and messages ----------------------------------------------------

def test_help_texts_say_what_the_defaults_do_in_the_options_words(tmp_path):
    top = run("--help", cwd=tmp_path).stdout
    assert "S2Match's cutoff x diffsense grid" in " ".join(top.split())
    score = " ".join(run("score", "--help", cwd=tmp_path).stdout.split())
    assert "(default False)" not in score and "(default None)" not in score and "(default no)" in score
    assert ".;" not in score and "triples (default):" not in score
    assert "aspect_metrics(config) gives every one" not in score and "named_ent" in score


def test_messages_name_the_options(tmp_path):
    (tmp_path / "w.tsv").write_text(":ARG0\t\"2\"\n")
    r = run("score", PRED, GOLD, "--metric", "wwlk", "--wwlk-edge-weights", "w.tsv", cwd=tmp_path)
    assert r.returncode == 2 and "--wwlk-edge-weights w.tsv:1:" in r.stderr and "role weights" not in r.stderr

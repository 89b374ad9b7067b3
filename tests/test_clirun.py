"""``tests/clirun.py``: a command run in the test's process gives what a fresh process gives,
and leaves the test's process as it found it."""

from __future__ import annotations

import os
import signal
import sys
import warnings

import pytest

from clirun import GOLD, PRED, run

CASES = {
    "score": (("score", PRED, GOLD, "--format", "json", "--workers", "1", "--quiet"), None),
    "help": (("compare", "--help"), None),
    "usage error": (("score", PRED, "--no-such-option"), None),
    "unreadable input": (("score", "-", GOLD, "--quiet"), "(a / b\n"),
    "stdin": (("score", "-", GOLD, "--quiet", "--workers", "1"), PRED.read_text()),
    "version": (("--version",), None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_in_process_equals_a_fresh_process(case, tmp_path):
    args, stdin = CASES[case]
    inside = run(*args, cwd=tmp_path, input=stdin)
    fresh = run(*args, cwd=tmp_path, input=stdin, fresh=True)
    assert (inside.returncode, inside.stdout, inside.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)


def test_the_process_is_left_as_it_was(tmp_path):
    before = (os.getcwd(), sys.stdin, sys.stdout, sys.stderr, signal.getsignal(signal.SIGINT),
              signal.getsignal(signal.SIGTERM), list(warnings.filters), warnings.showwarning)
    (tmp_path / "a.amr").write_text("(d / dog)\n")
    done = run("score", "a.amr", "a.amr", "--pairs-out", "p.jsonl", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "p.jsonl").exists()  # relative paths are the command's cwd's
    after = (os.getcwd(), sys.stdin, sys.stdout, sys.stderr, signal.getsignal(signal.SIGINT),
             signal.getsignal(signal.SIGTERM), list(warnings.filters), warnings.showwarning)
    assert after == before
    print("still captured")  # stdout of the test itself still works


def test_process_only_options_start_a_process(tmp_path):
    """``stdout=``, ``env=`` etc. can only be honoured by a process: they start one."""
    done = run("--version", cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(__import__("clirun").PACKAGE_ROOT)})
    assert done.args[:3] == [sys.executable, "-m", "smatchpp"] and done.returncode == 0
    assert run("--version", cwd=tmp_path).args[0] == "smatchpp"


def test_a_command_that_hangs_fails_by_its_timeout(tmp_path, monkeypatch):
    """In this process too, a command still running after ``timeout`` raises TimeoutExpired."""
    import subprocess
    import time

    from smatchpp import cli

    monkeypatch.setattr(cli, "build_parser", lambda only=None: time.sleep(30))
    alarm = signal.getsignal(signal.SIGALRM)
    with pytest.raises(subprocess.TimeoutExpired):  # not the sleep's end (then exit 1, no raise)
        run("score", "a.amr", "b.amr", cwd=tmp_path, timeout=0.5)
    assert signal.getsignal(signal.SIGALRM) == alarm and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)

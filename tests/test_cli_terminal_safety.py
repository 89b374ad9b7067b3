"""What reaches the terminal (issue 22, items 17 and 18).

* Control characters from the input (an id that sets the window title, a concept
  that turns the terminal red) are shown escaped in warnings, errors and the
  terminal view of ``explain``, never sent raw.
* A command started with stdout closed (``>&-``) exits 2 with a message, before
  any work, instead of losing its output silently (or with a traceback); one that
  writes nothing to stdout (``explain --html``, ``search --out``) runs as usual.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from clirun import GOLD, PRED, run

TITLE = "\x1b]0;PWNED\x07"
RED = "\x1b[31m"


@pytest.fixture
def hostile(tmp_path):
    a = tmp_path / "a.amr"
    a.write_text(f"# ::id a{TITLE}\n(c / {RED}cat :mod (b / big))\n", encoding="utf-8")
    b = tmp_path / "b.amr"
    b.write_text("# ::id b\n(c / cat :mod (b / big))\n", encoding="utf-8")
    bad = tmp_path / f"bad{RED}.amr"
    bad.write_text(f"# ::id z{TITLE}\n(c / cat :mod (b / big\n", encoding="utf-8")
    return a, b, bad


def test_warnings_show_control_characters_escaped(tmp_path, hostile):
    a, b, _ = hostile
    done = run("score", a, b, "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == (f"smatchpp: warning: graph 0: {a}:2 has id a\\x1b]0;PWNED\\x07 but {b}:2 has id b "
                           "(1 of 1 graphs with ids on both sides disagree: is one file shifted?)\n")


@pytest.mark.parametrize("metric", [(), ("--metric", "jaccard")], ids=["smatch", "jaccard"])
def test_errors_show_control_characters_escaped(tmp_path, hostile, metric):
    _, b, bad = hostile
    done = run("score", bad, b, "--quiet", *metric, cwd=tmp_path)
    assert done.returncode == 2
    shown = str(bad).replace(RED, "\\x1b[31m")
    assert f"smatchpp: error: {shown}:2: graph 0: Unexpected end of input\n" in done.stderr
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr


@pytest.mark.parametrize("color", ["never", "always"])
def test_the_terminal_view_shows_control_characters_escaped(tmp_path, hostile, color):
    a, b, _ = hostile
    done = run("explain", a, b, "--pair", "0", "--color", color, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert TITLE not in out and RED + "cat" not in out and "\x07" not in out
    assert "pair 0 (id a\\x1b]0;PWNED\\x07): P 75.00" in out
    assert "  (c, instance, \\x1b[31mcat)" in out
    if color == "never":  # the whole view: the only change is the escaping
        assert "\x1b" not in out
        assert "(c[1] / \\x1b[31mcat(!)\n" in out


def run_closed_stdout(*args, cwd):
    """``smatchpp ARGS >&-``: the child's descriptor 1 is closed before it starts."""
    return run(*args, cwd=cwd, stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1))


CLOSED = {
    "score": ("score", PRED, GOLD, "--quiet"),
    "score --pairs-out -": ("score", PRED, GOLD, "--quiet", "--pairs-out", "-"),
    "search": ("search", PRED, GOLD, "--quiet"),
    "explain": ("explain", PRED, GOLD),
    "compare": ("compare", PRED, PRED, GOLD, "--quiet", "--bootstrap", "10", "--ar-trials", "10"),
    "gap": ("gap", PRED, GOLD, "--quiet"),
    "matrix": ("matrix", PRED, "-o", "m.npz", "--quiet"),
}


@pytest.mark.parametrize("name", CLOSED)
def test_closed_stdout_exits_2_with_a_message(tmp_path, name):
    done = run_closed_stdout(*CLOSED[name], cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr == ("smatchpp: error: standard output is closed, so nothing could be printed; "
                           "redirect it to a file or to /dev/null instead\n")
    assert not (tmp_path / "m.npz").exists()  # refused before any work


def test_closed_stdout_is_fine_when_nothing_goes_there(tmp_path):
    html = run_closed_stdout("explain", PRED, GOLD, "--html", "r.html", cwd=tmp_path)
    assert html.returncode == 0, html.stderr
    assert (tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    search = run_closed_stdout("search", PRED, GOLD, "--quiet", "--out", "s.jsonl", cwd=tmp_path)
    assert search.returncode == 0, search.stderr
    expected = run("search", PRED, GOLD, "--quiet", cwd=tmp_path).stdout
    assert (tmp_path / "s.jsonl").read_text(encoding="utf-8") == expected

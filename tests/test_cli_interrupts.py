"""Interrupts and closed pipes, in a fresh process.

The input: two tiny pairs, then pairs that keep the hill-climber busy for a
long time (many restarts on 40-variable graphs).  Once the pairs file has a
line, the test signals the process.  It must then stop within seconds (not
wait for the running pairs), exit 130, say ``interrupted: N of M pairs``, and
leave exactly the N finished pairs in the pairs file, in index order.
"""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import time

import pytest

from clirun import child_env, smatchpp_argv

SLOW_PAIRS = 8
#: a functional hang check (the slow pairs take minutes), not a speed requirement
PROMPT = 20.0


def _graph(n: int, rng: random.Random) -> str:
    """A random tree over ``n`` variables of 6 concepts, plus n/2 re-entrant edges."""
    kids: dict[int, list[int]] = {i: [] for i in range(n)}
    for i in range(1, n):
        kids[rng.randrange(i)].append(i)
    extra = [(rng.randrange(n), rng.randrange(n)) for _ in range(n // 2)]

    def node(i: int) -> str:
        out = f"(v{i} / c{rng.randrange(6)}"
        for k in kids[i]:
            out += f" :ARG{rng.randrange(4)} " + node(k)
        for a, b in extra:
            if a == i and b != i:
                out += f" :ARG{rng.randrange(4)} v{b}"
        return out + ")"
    return node(0)


@pytest.fixture(scope="module")
def slow_input(tmp_path_factory):
    folder = tmp_path_factory.mktemp("slow")
    rng = random.Random(0)
    a = ["(d / dog)", "(b / bark-01 :ARG0 (d / dog))"] + [_graph(40, rng) for _ in range(SLOW_PAIRS)]
    b = ["(d / dog)", "(b / bark-01 :ARG0 (c / cat))"] + [_graph(40, rng) for _ in range(SLOW_PAIRS)]
    (folder / "a.amr").write_text("\n\n".join(a) + "\n")
    (folder / "b.amr").write_text("\n\n".join(b) + "\n")
    return folder, len(a)


def _interruptible() -> None:
    """Give the child the default SIGINT disposition.

    A shell starts a background job (``cmd &`` without job control, as CI
    scripts do) with SIGINT ignored, and Python then never installs its
    KeyboardInterrupt handler: the signal would be lost, as for any program
    started that way.  The test is about our handling of a delivered Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _lines(path):
    try:
        return path.read_text().splitlines()
    except FileNotFoundError:
        return []


def _signal_once_written(argv, written, sig, cwd):
    """Start ``argv``; once the file ``written`` has a line, send ``sig``.  Returns the exit
    code, stdout, stderr and the seconds from the signal to the end."""
    proc = subprocess.Popen(argv, cwd=cwd, env=child_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_interruptible)
    try:
        deadline = time.monotonic() + 300
        while not _lines(written) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, ("finished before it could be interrupted", proc.communicate())
        assert _lines(written), f"no line in {written.name} within 300 s"
        sent = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, out, err, took


@pytest.mark.parametrize("sig, workers", [(signal.SIGINT, "2"), (signal.SIGTERM, "2"),
                                          (signal.SIGINT, "1")],
                         ids=["SIGINT-2-workers", "SIGTERM-2-workers", "SIGINT-1-worker"])
def test_interrupt_keeps_finished_pairs_and_exits_130(slow_input, tmp_path, sig, workers):
    folder, total = slow_input
    pairs = tmp_path / "pairs.jsonl"
    code, out, err, took = _signal_once_written(
        smatchpp_argv("score", folder / "a.amr", folder / "b.amr", "--solver", "hillclimber",
                      "--restarts", "100000", "--workers", workers, "--force-workers", "--quiet",
                      "--pairs-out", pairs), pairs, sig, tmp_path)
    assert code == 130, err
    assert took < PROMPT, f"took {took:.1f} s after the signal: it waited for running pairs"
    assert "Traceback" not in err
    found = re.search(r"interrupted: (\d+) of (\d+) pairs finished", err)
    assert found, err
    n, m = int(found.group(1)), int(found.group(2))
    assert m == total and 1 <= n < total
    assert f"interrupted: {n} of {total} pairs finished; the scores below cover those only" in out
    assert f"pairs: {n} scored: {n}" in out
    rows = [json.loads(line) for line in _lines(pairs)]
    assert [r["index"] for r in rows] == list(range(n))
    assert all(0 <= r["matched"] <= r["upper"] <= r["test_triples"] for r in rows)


@pytest.mark.parametrize("sig, workers", [(signal.SIGINT, "2"), (signal.SIGTERM, "2"),
                                          (signal.SIGTERM, "1")],
                         ids=["SIGINT-2-workers", "SIGTERM-2-workers", "SIGTERM-1-worker"])
def test_interrupted_search_keeps_finished_queries_and_exits_130(slow_input, tmp_path, sig, workers):
    """``search`` writes each query's line as it finishes; a signal ends it at once, with the
    finished queries written (in order) and counted."""
    folder, total = slow_input
    hits = tmp_path / "hits.jsonl"
    code, out, err, took = _signal_once_written(
        smatchpp_argv("search", folder / "a.amr", folder / "b.amr", "--top", "1", "--solver",
                      "hillclimber", "--restarts", "100000", "--workers", workers, "--force-workers",
                      "--quiet", "--out", hits), hits, sig, tmp_path)
    assert code == 130, err
    assert took < PROMPT, f"took {took:.1f} s after the signal: it waited for running queries"
    assert "Traceback" not in err
    found = re.search(r"interrupted: (\d+) of (\d+) queries finished", err)
    assert found, err
    n, m = int(found.group(1)), int(found.group(2))
    assert m == total and 1 <= n < total
    rows = [json.loads(line) for line in _lines(hits)]
    assert [r["query"] for r in rows] == list(range(n))
    assert rows[0]["hits"][0]["index"] == 0 and rows[0]["hits"][0]["f1"] == 1.0


def test_closed_stdout_exits_141_quietly(tmp_path):
    # enough output to fill any pipe buffer: 3000 pairs with their alignments on stdout
    (tmp_path / "a.amr").write_text("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))\n\n" * 3000)
    shell = (f"{subprocess.list2cmdline(smatchpp_argv('score', 'a.amr', 'a.amr', '--workers', '1'))}"
             " --quiet --alignments --pairs-out - | head -1; exit ${PIPESTATUS[0]}")
    done = subprocess.run(["bash", "-c", shell], cwd=tmp_path, env=child_env(),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 141, done.stderr
    assert json.loads(done.stdout)["index"] == 0
    assert done.stderr == ""

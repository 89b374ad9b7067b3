"""Interrupts and closed pipes, in a fresh process.

The input: two tiny pairs, then pairs that keep the hill-climber busy for a
long time (many restarts on 40-variable graphs).  Once the pairs file has a
line, the test signals the process.  It must then stop within seconds (not
wait for the running pairs), exit 130, say ``interrupted: N of M pairs``, and
leave exactly the N finished pairs in the pairs file, in index order.
"""

from __future__ import annotations

import json
import os
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


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started (its pool's workers), from Linux's /proc."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its parent does not count)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _signal_when(argv, ready, sig, cwd):
    """Start ``argv``; once ``ready(proc)`` holds, send ``sig``.  Returns the exit code,
    stdout, stderr, the seconds from the signal to the end, and the processes that the
    child had started and that still run after it ended (orphaned workers)."""
    proc = subprocess.Popen(argv, cwd=cwd, env=child_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_interruptible)
    try:
        deadline = time.monotonic() + 300
        while not ready(proc) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, ("finished before it could be interrupted", proc.communicate())
        assert ready(proc), "not ready to be interrupted within 300 s"
        workers = _children(proc.pid)
        sent = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    gone_by = time.monotonic() + 10  # a functional check: orphans would live on for minutes
    while any(_alive(p) for p in workers) and time.monotonic() < gone_by:
        time.sleep(0.1)
    return proc.returncode, out, err, took, [p for p in workers if _alive(p)]


def _signal_once_written(argv, written, sig, cwd):
    """:func:`_signal_when` the file ``written`` has a line."""
    return _signal_when(argv, lambda proc: bool(_lines(written)), sig, cwd)


def _cpu_seconds(pid: int) -> float:
    """The CPU time ``pid`` has used (user and system), from Linux's /proc."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _working(settle: float = 2.0, busy: float = 8.0):
    """Ready once the child scores (for commands that write nothing before they end): it
    runs pool workers (it has read its input), and ``settle`` seconds have passed since,
    for the two tiny pairs to finish; or, scoring in its own process, it has used ``busy``
    seconds of CPU (starting and the tiny pairs take about 2).  Only an interrupt before
    any pair finished can come of a slow start, and the tests accept that too."""
    since: list[float] = []

    def ready(proc) -> bool:
        if not since and _children(proc.pid):
            since.append(time.monotonic())
        return (bool(since) and time.monotonic() - since[0] >= settle
                or _cpu_seconds(proc.pid) >= busy)
    return ready


@pytest.mark.parametrize("sig, workers, more", [(signal.SIGINT, "2", ()), (signal.SIGTERM, "2", ()),
                                                (signal.SIGINT, "1", ()),
                                                (signal.SIGINT, "2", ("--bootstrap", "1000")),
                                                (signal.SIGTERM, "2", ("--dask",))],
                         ids=["SIGINT-2-workers", "SIGTERM-2-workers", "SIGINT-1-worker",
                              "SIGINT-2-workers-bootstrap", "SIGTERM-dask-2-workers"])
def test_interrupt_keeps_finished_pairs_and_exits_130(slow_input, tmp_path, sig, workers, more):
    """With ``--bootstrap`` the summary comes without intervals (no resampling after an interrupt);
    on Dask (a local cluster) as in a pool."""
    if "--dask" in more:
        pytest.importorskip("distributed", reason="the dask extra is not installed")
    folder, total = slow_input
    pairs = tmp_path / "pairs.jsonl"
    code, out, err, took, orphans = _signal_once_written(
        smatchpp_argv("score", folder / "a.amr", folder / "b.amr", "--solver", "hillclimber",
                      "--restarts", "100000", "--workers", workers, "--force-workers", "--quiet",
                      "--pairs-out", pairs, *more), pairs, sig, tmp_path)
    assert code == 130, err
    assert took < PROMPT, f"took {took:.1f} s after the signal: it waited for running pairs"
    assert "Traceback" not in err
    assert not orphans, "workers outlived the command"
    found = re.search(r"interrupted: (\d+) of (\d+) pairs finished", err)
    assert found, err
    n, m = int(found.group(1)), int(found.group(2))
    assert m == total and 1 <= n < total
    assert f"interrupted: {n} of {total} pairs finished; the scores below cover those only" in out
    assert f"pairs: {n} scored: {n}" in out
    assert out.rstrip().endswith("bootstrap: interrupted, no intervals") == ("--bootstrap" in more)
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
    code, out, err, took, orphans = _signal_once_written(
        smatchpp_argv("search", folder / "a.amr", folder / "b.amr", "--top", "1", "--solver",
                      "hillclimber", "--restarts", "100000", "--workers", workers, "--force-workers",
                      "--quiet", "--out", hits), hits, sig, tmp_path)
    assert code == 130, err
    assert took < PROMPT, f"took {took:.1f} s after the signal: it waited for running queries"
    assert "Traceback" not in err
    assert not orphans, "workers outlived the command"
    found = re.search(r"interrupted: (\d+) of (\d+) queries finished", err)
    assert found, err
    n, m = int(found.group(1)), int(found.group(2))
    assert m == total and 1 <= n < total
    rows = [json.loads(line) for line in _lines(hits)]
    assert [r["query"] for r in rows] == list(range(n))
    assert rows[0]["hits"][0]["index"] == 0 and rows[0]["hits"][0]["f1"] == 1.0


SLOW = ("--restarts", "100000", "--force-workers", "--quiet")
SIGNALS = [(signal.SIGINT, "2"), (signal.SIGTERM, "2"), (signal.SIGTERM, "1")]
SIGNAL_IDS = ["SIGINT-2-workers", "SIGTERM-2-workers", "SIGTERM-1-worker"]


def _ended_by_interrupt(code, out, err, took, orphans, what="pairs finished"):
    """The common contract: exit 130 soon after the signal, no traceback, no worker left;
    returns N and M of ``interrupted: N of M``."""
    assert code == 130, err
    assert took < PROMPT, f"took {took:.1f} s after the signal: it waited for running pairs"
    assert "Traceback" not in err
    assert not orphans, "workers outlived the command"
    found = re.search(rf"interrupted: (\d+) of (\d+) {what}", err)
    assert found, err
    return int(found.group(1)), int(found.group(2))


@pytest.mark.parametrize("sig, workers", SIGNALS, ids=SIGNAL_IDS)
def test_interrupted_compare_keeps_and_compares_finished_pairs(slow_input, tmp_path, sig, workers):
    """``compare`` scores both systems' pair together and writes the row at once: an interrupt
    keeps the finished rows and compares exactly those."""
    folder, total = slow_input
    pairs = tmp_path / "pairs.jsonl"
    a, b = folder / "a.amr", folder / "b.amr"
    result = _signal_once_written(
        smatchpp_argv("compare", a, a, b, "--solver", "hillclimber", "--workers", workers, *SLOW,
                      "--pairs-out", pairs), pairs, sig, tmp_path)
    n, m = _ended_by_interrupt(*result)
    out = result[1]
    assert m == total and 1 <= n < total
    assert f"interrupted: {n} of {total} pairs finished; the comparison below covers those only" in out
    assert f"pairs: {n} compared" in out
    rows = [json.loads(line) for line in _lines(pairs)]
    assert [r["index"] for r in rows] == list(range(n))
    assert all(r["f1_difference"] == 0 and r["sys1"]["matched"] == r["sys2"]["matched"] for r in rows)


@pytest.mark.parametrize("sig, workers", SIGNALS, ids=SIGNAL_IDS)
def test_interrupted_gap_reports_finished_pairs(slow_input, tmp_path, sig, workers):
    """``gap`` runs the exact and the heuristic solver on a pair together: an interrupt reports
    and writes the pairs that both finished."""
    folder, total = slow_input
    pairs = tmp_path / "gap.jsonl"
    result = _signal_when(smatchpp_argv("gap", folder / "a.amr", folder / "b.amr", "--workers", workers,
                                        *SLOW, "--pairs-out", pairs),
                          _working(), sig, tmp_path)
    n, m = _ended_by_interrupt(*result)
    out = result[1]
    assert m == total and n < total
    assert f"interrupted: {n} of {total} pairs finished; the report below covers those only" in out
    assert f"pairs: {n}, exact certified optimal: {n}," in out
    rows = [json.loads(line) for line in _lines(pairs)]
    assert [r["index"] for r in rows] == list(range(n))
    assert all(r["gap_hillclimber"] == r["exact"] - r["hillclimber"] for r in rows)


@pytest.mark.parametrize("sig, workers", SIGNALS, ids=SIGNAL_IDS)
def test_interrupted_explain_reports_explained_pairs(slow_input, tmp_path, sig, workers):
    """``explain`` writes its report (and ``--json``) of the pairs explained so far."""
    folder, total = slow_input
    report, rows_file = tmp_path / "report.html", tmp_path / "explained.jsonl"
    result = _signal_when(smatchpp_argv("explain", folder / "a.amr", folder / "b.amr", "--workers",
                                        workers, *SLOW, "--html", report, "--json", rows_file),
                          _working(), sig, tmp_path)
    n, m = _ended_by_interrupt(*result, what="pairs explained")
    assert m == total and n < total
    assert f"Interrupted: {n} of {total} pairs explained" in report.read_text()
    assert [json.loads(line)["index"] for line in _lines(rows_file)] == list(range(n))


def test_interrupt_during_bootstrap_keeps_the_summary(tmp_path):
    """Ctrl-C once every pair is scored, while ``--bootstrap`` resamples: the summary is
    printed without intervals, marked, and the pairs file is whole."""
    pairs = tmp_path / "pairs.jsonl"
    graphs = "\n\n".join(["(d / dog)", "(b / bark-01 :ARG0 (d / dog))"] * 1000) + "\n"
    (tmp_path / "a.amr").write_text(graphs)
    written = _lines_counter(pairs, 2000)
    # about half a minute of resampling (2,000 pairs, a million resamples); the signal comes
    # once the last pair is written, and a second later, when the bootstrap runs
    result = _signal_when(smatchpp_argv("score", "a.amr", "a.amr", "--workers", "1", "--quiet",
                                        "--pairs-out", pairs, "--bootstrap", "1000000"),
                          written, signal.SIGINT, tmp_path)
    out, err = result[1:3]
    n, m = _ended_by_interrupt(*result)
    assert n == m == 2000
    assert "pairs: 2000 scored: 2000 certified optimal: 2000" in out
    assert "micro  P 100.00  R 100.00  F1 100.00" in out
    assert out.rstrip().endswith("bootstrap: interrupted, no intervals")
    assert err.rstrip().endswith("interrupted: 2000 of 2000 pairs finished, written to "
                                 f"{pairs}; no bootstrap intervals")
    assert len(_lines(pairs)) == 2000


def _lines_counter(path, count: int, settle: float = 1.0):
    """Ready ``settle`` seconds after ``path`` has ``count`` lines."""
    since: list[float] = []

    def ready(proc) -> bool:
        if not since and len(_lines(path)) >= count:
            since.append(time.monotonic())
        return bool(since) and time.monotonic() - since[0] >= settle
    return ready


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


def test_interrupt_writes_the_finished_pairs_as_a_table(slow_input, tmp_path):
    """``--pairs-out FILE.parquet`` is written when the run ends: an interrupt still writes the
    pairs that finished, with the signature."""
    pytest.importorskip("pyarrow")
    from smatchpp.core import tables

    folder, total = slow_input
    table = tmp_path / "pairs.parquet"
    code, out, err, took, orphans = _signal_when(
        smatchpp_argv("score", folder / "a.amr", folder / "b.amr", "--solver", "hillclimber",
                      "--restarts", "100000", "--workers", "1", "--quiet", "--pairs-out", table),
        _working(), signal.SIGINT, tmp_path)
    assert code == 130, err
    found = re.search(r"interrupted: (\d+) of (\d+) pairs finished, written to", err)
    assert found, err
    rows, signature, _ = tables.read(table)
    assert [r["index"] for r in rows] == list(range(int(found.group(1))))
    assert signature == out.splitlines()[0] or signature in out


DOCS = __import__("pathlib").Path(__file__).resolve().parents[2] / "shared" / "data" / "docs"


def _joined(path) -> str:
    """The two documents of ``path`` as one graph (the second one's variables renamed)."""
    import penman

    from smatchpp.graphs.read import read_file

    first, second = (penman.decode(penman.encode(penman.Graph(list(e.graph.triples), top=e.graph.top)))
                     for e in read_file(str(path)))
    renamed = {v: f"{v}_2" for v in second.variables()}
    triples = [(renamed.get(s, s), r, renamed.get(t, t)) for s, r, t in second.triples]
    joined = [("j", ":instance", "joined"), ("j", ":snt1", first.top), ("j", ":snt2", renamed[second.top])]
    return penman.encode(penman.Graph(joined + first.triples + triples, top="j"))


@pytest.mark.skipif(not DOCS.exists(), reason="../shared/data/docs is absent")
def test_a_large_aspect_solve_honours_sigterm(tmp_path):
    """Issue 33, fault 2: ``--metric aspect`` on the two 100-sentence documents joined (about
    1,800 variables a side) was still running minutes after SIGTERM.  Signalled once it has
    worked for a while, it ends with exit 130; a hang fails at the communicate timeout."""
    (tmp_path / "a.amr").write_text(_joined(DOCS / "lp-bart-doc100.pred.amr") + "\n")
    (tmp_path / "b.amr").write_text(_joined(DOCS / "lp-bart-doc100.gold.amr") + "\n")
    proc = subprocess.Popen(smatchpp_argv("score", "a.amr", "b.amr", "--metric", "aspect", "--aspect-name",
                                          "reentrancies"), cwd=tmp_path, env=child_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_interruptible)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and proc.poll() is None:
            with open(f"/proc/{proc.pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
            if (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= 8.0:
                break
            time.sleep(0.1)
        assert proc.poll() is None, ("finished before the signal", proc.communicate())
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)  # a functional hang check, not a speed requirement
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "interrupted: 0 of 1 pair finished" in err

"""Workers that read their own part of the files (:class:`smatchpp.running.runs.FileRun`): the scan of
the bytes (:func:`smatchpp.graphs.read.graph_offsets`), the parts read as the whole file reads, the
same pairs, summary and errors with 1, 2 or 3 workers, and interrupts.  In this process."""

from __future__ import annotations

import json
import re
import os
import signal
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clirun import run as cli_run
from smatchpp.cli.app import collect
from smatchpp.running.executor import Team
from smatchpp.metrics import Metric, get_metric
from smatchpp.graphs.read import graph_offsets, read_bytes
from smatchpp.graphs.pairing import check_pairing
from smatchpp.running.runs import FileRun, metric_pairs, metric_rows

# --- files made of pieces that the reader treats in every way it can ---------------------

GRAPHS = ["(d / dog)", "(b / bark-01\n   :ARG0 (d / dog))", "(c / cat :mod (b / big)\n  :quant 2)",
          "(a / and :op1 (x / x) :op2 \"str\")"]
BROKEN = ["(d / dog", "(a / a :ARG0)", ")", "(x / x) (y / y)"]
BLANKS = ["\n", "\n\n", "\n  \n", "\n\t\n\n", "\r\n", "\n \r\n", "\n\f\n", "\n\u00a0\n"]
COMMENTS = ["# ::id g{k}", "# ::id g{k} ::snt a sentence", "  # indented", "\f# form-feed indented"]


@st.composite
def files(draw) -> bytes:
    """A file of graphs, broken graphs, comment-only blocks, blank lines of every kind, a BOM
    and bytes that are not UTF-8."""
    out = ["\ufeff" if draw(st.booleans()) else "", draw(st.sampled_from(["", "\n", " \n\n"]))]
    for k in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["graph", "graph", "graph", "broken", "comments"]))
        lines = [c.format(k=k) for c in draw(st.lists(st.sampled_from(COMMENTS), max_size=2))]
        if kind == "graph":
            lines.append(draw(st.sampled_from(GRAPHS)))
        elif kind == "broken":
            lines.append(draw(st.sampled_from(BROKEN)))
        out.append("\n".join(lines))
        out.append(draw(st.sampled_from(BLANKS)))
    out.append(draw(st.sampled_from(["", "  ", "\n \t"])))  # white space at the end, without a newline
    data = "".join(out).encode("utf-8")
    if data and draw(st.booleans()):  # a byte that is not UTF-8
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + b"\xe9" + data[at:]
    return data


def _seen(entries) -> list:
    return [(e.index, e.path, e.line, e.graph, str(e.error), e.metadata) for e in entries]


def _parts(data: bytes, offsets: list[int], cuts: list[int]) -> list | None:
    """The entries of ``data`` read part by part, cut before the graphs ``cuts``; ``None``
    when a part holds another number of graphs than the scan found (a caller reads whole)."""
    bounds = [0, *cuts, len(offsets)]
    got = []
    for lo, hi in zip(bounds, bounds[1:]):
        start = offsets[lo] if lo > 0 else 0
        stop = offsets[hi] if hi < len(offsets) else len(data)
        part = read_bytes(data[start:stop], "f.amr", "penman", data.count(b"\n", 0, start) + 1, lo)
        if len(part) != hi - lo:
            return None
        got += part
    return got


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files(), st.data())
def test_parts_read_as_the_whole_file_reads(data, draw):
    """Where the scan and the parts' readers agree on the counts, the parts give the file's
    own entries (lines, indices, errors, ids); on files without the white space only the
    reader knows, they always agree."""
    whole = read_bytes(data, "f.amr")
    offsets = graph_offsets(data)
    if offsets is None:  # the scan leaves a file with a lone \r to the reader, and only such a file
        assert re.search(rb"\r(?!\n)", data), data  # (a byte put between \r and \n makes one)
        return
    cuts = sorted(set(draw.draw(st.lists(st.integers(1, max(1, len(offsets) - 1)), max_size=4)))) \
        if len(offsets) > 1 else []
    got = _parts(data, offsets, cuts)
    exotic = b"\f" in data or "\u00a0".encode() in data
    if got is None or len(offsets) != len(whole):
        assert exotic, (data, offsets)
    else:
        assert _seen(got) == _seen(whole)


@settings(max_examples=200, deadline=None)
@given(files(), st.lists(st.integers(0, 400), max_size=5))
def test_windows_of_the_scan_tile_the_whole_scan(data, cuts):
    """Scanning windows that tile the file (workers scanning together) finds the offsets of
    scanning it whole."""
    bounds = sorted({0, len(data), *(min(c, len(data)) for c in cuts)})
    windows = [graph_offsets(data, a, b) for a, b in zip(bounds, bounds[1:])]
    whole = graph_offsets(data)
    if whole is None:  # a lone \r: the scan leaves the file to the reader, and so does the window holding it
        assert any(w is None for w in windows)
    else:
        assert [k for w in windows for k in w] == whole


def test_a_lone_carriage_return_is_left_to_the_reader():
    assert graph_offsets(b"(a / b)\r\r(c / d)\n") is None
    assert graph_offsets(b"(a / b)\r\n\r\n(c / d)\r\n") == [0, 11]


# --- the run ---------------------------------------------------------------------------

def _corpus(n: int, broken: set[int] = frozenset(), seed: int = 0) -> tuple[bytes, bytes]:
    import random

    rng = random.Random(seed)
    a, b = [], []
    for k in range(n):
        a.append(f"# ::id s{k}\n" + (BROKEN[k % len(BROKEN)] if k in broken else rng.choice(GRAPHS)))
        b.append(f"# ::id s{k if k % 7 else k + 1}\n" + rng.choice(GRAPHS))
    return ("\n\n".join(a) + "\n").encode(), ("\n\n".join(b) + "\n").encode()


@pytest.mark.parametrize("workers, part", [(2, 3), (3, 5), (2, 1000)])
@pytest.mark.parametrize("on_error", ["empty", "skip"])
@pytest.mark.parametrize("name", ["wlk", "rematch", "jaccard"])
def test_file_run_gives_the_pairs_of_metric_pairs(name, on_error, workers, part):
    a, b = _corpus(40, broken={3, 17, 39})
    metric = get_metric(name)
    serial = list(metric_pairs(metric, read_bytes(a, "a.amr"), read_bytes(b, "b.amr"), on_error))
    with FileRun(metric, [(a, "a.amr", "penman"), (b, "b.amr", "penman")], on_error, workers, part=part) as run:
        assert run.read()
        got = list(run.results())
        assert run.total == 40
        assert [str(e) for e in run.errors] == [str(e.error) for e in read_bytes(a, "a.amr") if e.error]
    assert got == serial


@pytest.mark.parametrize("on_error", ["empty", "skip"])
def test_file_run_of_several_systems_gives_the_rows_of_metric_rows(on_error):
    """compare's shape: each system against the gold, a row a pair, the id warnings of each system."""
    a, gold = _corpus(30, broken={2, 29})
    b, _ = _corpus(30, broken={7}, seed=1)
    metric = get_metric("wlk")
    entries = [read_bytes(x, name) for x, name in ((a, "a.amr"), (b, "b.amr"), (gold, "g.amr"))]
    serial = list(metric_rows(metric, entries[:2], entries[2], on_error))
    sources = [(a, "a.amr", "penman"), (b, "b.amr", "penman"), (gold, "g.amr", "penman")]
    with FileRun(metric, sources, on_error, 2, part=4) as run:
        assert run.read()
        assert list(run.results()) == serial
        expected: list = []
        for system in entries[:2]:
            expected += [m for m in check_pairing(system, entries[2]).warnings if m not in expected]
        assert run.warnings() == expected and expected


def test_file_run_leaves_files_it_cannot_split_to_the_caller():
    a, b = _corpus(10)
    metric = get_metric("jaccard")
    with FileRun(metric, [(a, "a.amr", "penman"), (b[: b.rindex(b"\n\n")], "b.amr", "penman")], "raise", 2) as run:
        assert not run.read()  # 10 graphs against 9: the command reads them and says why
    form_feed = a.replace(b"\n\n", b"\n\f\n", 1)  # a blank line only the reader sees
    with FileRun(metric, [(form_feed, "a.amr", "penman"), (form_feed, "b.amr", "penman")], "raise", 2,
                 part=2) as run:
        assert not run.read()


class _Slow(Metric):
    """A metric that takes its time (for interrupts)."""

    name = "slow-test"
    stat_names = ("n",)

    def features(self, graph):
        return len(graph.triples)

    def stats(self, a, b):
        time.sleep(0.05)
        return (float(a + b),)

    def scores(self, stats):
        import numpy as np

        return {"score": np.asarray(stats, dtype=float)[..., 0]}


def _children() -> list[int]:
    try:
        with open(f"/proc/{os.getpid()}/task/{os.getpid()}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX signals")
def test_an_interrupt_keeps_the_finished_pairs_in_order(tmp_path):
    """A real Ctrl-C while the workers score: the pairs written are the first ones, in order,
    each complete, and the workers are gone."""
    import argparse

    a, b = _corpus(200)
    out = tmp_path / "pairs.jsonl"
    args = argparse.Namespace(pairs_out=str(out), dask=None, quiet=True)
    metric = _Slow()
    before = set(_children())
    with FileRun(metric, [(a, "a.amr", "penman"), (b, "b.amr", "penman")], "raise", 2, part=10) as run:
        assert run.read()
        timer = threading.Timer(1.5, signal.pthread_kill, (threading.main_thread().ident, signal.SIGINT))
        timer.start()
        try:
            done = collect(args, lambda client: run.results(), 2, run.total,
                           line=lambda r: {"index": r[0].index, "n": r[0].stats[0]})
        finally:
            timer.cancel()
    assert done.interrupted and 0 < len(done.results) < 200
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert [r["index"] for r in rows] == list(range(len(done.results)))
    serial = list(metric_pairs(metric, read_bytes(a, "a.amr")[:len(rows)], read_bytes(b, "b.amr")[:len(rows)]))
    assert [r["n"] for r in rows] == [p.stats[0] for p, _ in serial]
    deadline = time.monotonic() + 10
    while set(_children()) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not set(_children()) - before, "workers outlived the run"


# --- the command -------------------------------------------------------------------------

def _write(tmp_path, n: int, broken=frozenset()):
    a, b = _corpus(n, broken=broken)
    (tmp_path / "a.amr").write_bytes(a)
    (tmp_path / "b.amr").write_bytes(b)
    return tmp_path / "a.amr", tmp_path / "b.amr"


@pytest.mark.parametrize("name", ["wlk", "rematch"])
@pytest.mark.parametrize("more", [[], ["--on-error", "empty"], ["--on-error", "skip"], ["--bootstrap", "50"]])
def test_score_metric_is_the_same_with_1_2_and_3_workers(name, more, tmp_path):
    """Pairs file, summary and warnings (the ids that disagree) are byte for byte those of one
    worker; with the errors' policy, the unreadable graphs too."""
    a, b = _write(tmp_path, 60, broken={5, 44} if more[:1] == ["--on-error"] else set())
    seen = []
    for workers in ("1", "2", "3"):
        pairs = tmp_path / f"pairs{workers}.jsonl"
        done = cli_run("score", a, b, "--metric", name, "--workers", workers, "--force-workers", "--quiet",
                       "--pairs-out", pairs, *more, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        seen.append((pairs.read_bytes(), done.stdout, done.stderr))
    assert seen[1] == seen[0] and seen[2] == seen[0]
    assert "graph 0: " in seen[0][2] and "has id s0 but" in seen[0][2]  # the ids' warning, once


def test_unreadable_graphs_are_reported_as_with_one_worker(tmp_path):
    """Under ``--on-error raise``: every unreadable graph named by file, line and graph, nothing
    scored, exit 2, and the pairs file not written, whatever the workers."""
    a, b = _write(tmp_path, 60, broken={5, 44})
    seen = []
    for workers in ("1", "2"):
        pairs = tmp_path / f"pairs{workers}.jsonl"
        done = cli_run("score", a, b, "--metric", "wlk", "--workers", workers, "--force-workers", "--quiet",
                       "--pairs-out", pairs, cwd=tmp_path)
        assert done.returncode == 2 and not pairs.exists()
        seen.append((done.stdout, done.stderr))
    assert seen[1] == seen[0]
    line = a.read_text().split("\n").index("# ::id s5") + 2  # graph 5 starts below its id
    assert f"smatchpp: error: {a}:{line}: graph 5: " in seen[0][1]
    assert "graph 44:" in seen[0][1] and "2 unreadable graphs; nothing scored" in seen[0][1]


def test_files_of_different_lengths_are_refused_as_with_one_worker(tmp_path):
    a, b = _write(tmp_path, 30)
    b.write_bytes(b.read_bytes().rsplit(b"\n\n", 1)[0] + b"\n")
    seen = [cli_run("score", a, b, "--metric", "rematch", "--workers", w, "--force-workers", "--quiet",
                    cwd=tmp_path) for w in ("1", "2")]
    assert seen[0].returncode == seen[1].returncode == 2
    assert seen[0].stderr == seen[1].stderr and "30 graphs but" in seen[0].stderr


def test_a_team_raises_a_workers_exception_and_notices_a_dead_worker():
    with Team(2, _fail) as team:
        team.send(0, "boom", tag=1)
        with pytest.raises(ValueError, match="boom"):
            team.receive()
        team.send(1, "die", tag=2)
        with pytest.raises(RuntimeError, match="exit code"):
            team.receive(poll=0.1)


def _fail(state, task):
    if task == "die":
        os._exit(3)
    raise ValueError(task)


# --- on Dask -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dask_client():
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    from smatchpp.running.distributed import connect

    with connect(None, workers=2) as client:
        yield client


@pytest.mark.parametrize("on_error", ["empty", "skip"])
def test_file_run_on_dask_gives_the_pairs_of_metric_pairs(dask_client, on_error):
    """The cluster's workers read their parts of the scattered bytes, as a pool's do."""
    a, b = _corpus(40, broken={3, 17, 39})
    metric = get_metric("wlk")
    serial = list(metric_pairs(metric, read_bytes(a, "a.amr"), read_bytes(b, "b.amr"), on_error))
    with FileRun(metric, [(a, "a.amr", "penman"), (b, "b.amr", "penman")], on_error, 0, part=3,
                 client=dask_client) as run:
        assert run.team.size == 2 and run.read()
        assert [str(e) for e in run.errors] == [str(e.error) for e in read_bytes(a, "a.amr") if e.error]
        assert list(run.results()) == serial


def test_score_metric_on_dask_is_the_same_as_one_worker(tmp_path):
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    a, b = _write(tmp_path, 30, broken={4})
    seen = []
    for more in (["--workers", "1"], ["--dask", "--workers", "2", "--force-workers"]):
        pairs = tmp_path / f"pairs{len(more)}.jsonl"
        done = cli_run("score", a, b, "--metric", "rematch", "--quiet", "--on-error", "empty",
                       "--pairs-out", pairs, *more, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        ours = [x for x in done.stderr.splitlines() if x.startswith(("smatchpp", "  "))]  # not Dask's logs
        seen.append((pairs.read_bytes(), done.stdout, ours))
    assert seen[1] == seen[0]
    assert any("graph 4:" in x for x in seen[0][2])  # the unreadable graph, scored as empty


def test_sigterm_while_the_workers_score_keeps_the_finished_pairs(tmp_path):
    """In a fresh process (the subject is the process: its signal, exit code and workers): the
    pairs written are the first ones, in order, the command says how many, exits 130 at once and
    leaves no worker behind."""
    import re

    from test_cli_interrupts import PROMPT, _signal_once_written
    from clirun import smatchpp_argv

    a, b = _write(tmp_path, 60000)
    pairs = tmp_path / "pairs.jsonl"
    code, out, err, took, orphans = _signal_once_written(
        smatchpp_argv("score", a, b, "--metric", "wlk", "--workers", "2", "--force-workers", "--quiet",
                      "--pairs-out", pairs), pairs, signal.SIGTERM, tmp_path)
    assert code == 130, err
    assert took < PROMPT and not orphans and "Traceback" not in err
    found = re.search(r"interrupted: (\d+) of 60000 pairs finished", err)
    assert found, err
    rows = [json.loads(x) for x in pairs.read_text().splitlines()]
    assert [r["index"] for r in rows] == list(range(int(found.group(1))))


def test_read_in_parts_reads_compares_systems_as_read_pairs_does(tmp_path, capsys):
    """The template's step 1 with the workers reading, for three inputs (compare's two systems
    and the gold): the same warnings as read_pairs, then rows of every system's pairs."""
    import argparse
    from contextlib import ExitStack

    from smatchpp.cli.app import read_in_parts, read_pairs

    a, gold = _corpus(40)
    b, _ = _corpus(40, seed=1)
    for name, data in (("a.amr", a), ("b.amr", b), ("g.amr", gold)):
        (tmp_path / name).write_bytes(data)
    args = argparse.Namespace(sys1=str(tmp_path / "a.amr"), sys2=str(tmp_path / "b.amr"), gold=str(tmp_path / "g.amr"),
                              input_format="auto", workers=2, force_workers=True, dask=None)
    names = ("sys1", "sys2", "gold")
    metric = get_metric("rematch")
    with ExitStack() as stack:
        inputs, run, client = read_in_parts(args, metric, "raise", {}, False, stack, names)
        assert run is not None and client is None and inputs.total == 40 and inputs.names == names
        rows = list(run.results())
    warned = capsys.readouterr().err
    serial = read_pairs(args, names, "raise")
    assert capsys.readouterr().err == warned and warned
    assert rows == list(metric_rows(metric, serial.entries[:2], serial.entries[2]))

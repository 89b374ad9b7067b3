"""The executor (``smatchpp.running.executor``): results in order, in this process or a pool, and
pools that start and stop cleanly however early they are stopped (issue 22, item 11).

The races are about processes starting while the parent acts on them, so the tests repeat
the act many times in a fresh process, under a timeout: a hang fails by the timeout, a
worker that caught the parent's signal handler prints a traceback.
"""

from __future__ import annotations

import subprocess

from clirun import run_python
from smatchpp.running.executor import Work, stream

REPEAT = 40
#: a functional hang check for all the repetitions (each takes well under a second)
TIMEOUT = 300


def _square(state: None, x: int) -> int:
    return x * x


def _offset(start: int) -> list[int]:
    return [start]


def _add_offset(state: list[int], x: int) -> int:
    return x + state[0]


def test_results_come_in_task_order_for_any_number_of_workers():
    work = Work(run=_square)
    tasks = list(range(-20, 20))
    expected = [x * x for x in tasks]
    for workers in (1, 2, 3):
        assert list(stream(work, tasks, workers)) == expected
        assert list(stream(work, iter(tasks), workers, chunksize=4)) == expected
    assert list(stream(work, [], 2)) == []
    assert list(stream(work, [3], 2)) == [9]


def test_a_worker_runs_tasks_with_the_state_its_setup_made():
    """``setup(*args)`` once per worker; without ``local``, this process makes its own state."""
    work = Work(run=_add_offset, setup=_offset, args=(100,))
    for workers in (1, 2):
        assert list(stream(work, range(5), workers, chunksize=2)) == [100, 101, 102, 103, 104]
    local = Work(run=_add_offset, setup=_offset, args=(100,), local=lambda x: -x)
    assert list(stream(local, range(3), 1)) == [0, -1, -2]


def _fail_on_three(state: None, x: int) -> int:
    if x == 3:
        raise ValueError(f"task {x} failed")
    return x


def test_a_task_s_exception_reaches_the_caller_after_the_results_before_it():
    for workers in (1, 2):
        got = []
        try:
            for r in stream(Work(run=_fail_on_three), range(6), workers):
                got.append(r)
        except ValueError as exc:
            assert str(exc) == "task 3 failed"
        else:
            raise AssertionError("no exception")
        assert got == [0, 1, 2]


def _run_repeatedly(code: str, tmp_path) -> subprocess.CompletedProcess:
    try:
        done = run_python(code, REPEAT, cwd=tmp_path, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{REPEAT} repetitions did not end within {TIMEOUT} s: a pool hung") from None
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "Interrupted" not in done.stderr, done.stderr
    return done


def test_a_pool_stopped_while_its_workers_start_ends_quietly(tmp_path):
    """Stop a pool as soon as its first result is in: its other worker may still be
    starting, with the parent's SIGTERM handler (which raises Interrupted), when the pool
    terminates it.  It must die quietly, and the parent must not hang."""
    code = """if True:
        import sys
        from smatchpp.running.executor import Work, interrupts, stream
        def absolute(state, x):
            return abs(x)
        work = Work(run=absolute)
        with interrupts():
            for _ in range(int(sys.argv[1])):
                results = stream(work, [-1, -2, -3, -4], 2)
                assert next(results) == 1
                results.close()
        print("done")
    """
    assert _run_repeatedly(code, tmp_path).stdout == "done\n"


def test_matrix_of_a_file_without_graphs_never_hangs(tmp_path):
    """``matrix`` of a file with no graphs, many times, with 2 workers: exit 0 each time with
    its warning, no traceback, no hang (it started a pool for no work and terminated it
    while its workers started: once in about 50 runs a worker printed the parent's
    ``Interrupted: SIGTERM``, and a run could hang)."""
    (tmp_path / "empty.amr").write_text("# ::id nothing here\n")
    code = """if True:
        import sys
        from smatchpp.cli import main
        for _ in range(int(sys.argv[1])):
            code = main(["matrix", "empty.amr", "-o", "out.npz", "--workers", "2",
                         "--force-workers", "--quiet"])
            assert code == 0, code
        print("done")
    """
    done = _run_repeatedly(code, tmp_path)
    assert done.stdout.endswith("done\n")
    assert done.stdout.count("0 of 0 pairs scored (i < j of 0 x 0; diagonal self-match, lower triangle "
                             "mirrored), 0 certified optimal; matrix written to out.npz") == REPEAT
    assert done.stderr.count("empty.amr holds no graph") == REPEAT

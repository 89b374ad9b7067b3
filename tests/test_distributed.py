"""The Dask backend: results identical to the local pool (issue 13, item 4)."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

from smatchpp.api import Scorer  # noqa: E402
from smatchpp.alignment.config import Config  # noqa: E402
from smatchpp.running.distributed import connect  # noqa: E402
from smatchpp.running.executor import Work, stream  # noqa: E402
from smatchpp.matrix import pair_chunks, score_pairs, search, top_k  # noqa: E402
from smatchpp.graphs.read import read_text  # noqa: E402
from test_matrix import GRAPHS, TEXTS  # noqa: E402


def _local_matrix():
    return [(r.i, r.j, r.matched, r.upper, r.status)
            for chunk in score_pairs(GRAPHS, GRAPHS, pair_chunks(len(GRAPHS), None, 7))
            for r in chunk]


def _dask_matrix(client, chunk):
    return [(r.i, r.j, r.matched, r.upper, r.status)
            for results in score_pairs(GRAPHS, GRAPHS, pair_chunks(len(GRAPHS), None, chunk), Config(),
                                       client=client)
            for r in results]


@pytest.fixture(scope="module", params=[1, 2], ids=["1 worker", "2 workers"])
def client(request):
    with connect(None, workers=request.param) as c:
        yield c


@pytest.mark.parametrize("chunk", [1, 5])
def test_dask_matrix_equals_local(client, chunk):
    assert _dask_matrix(client, chunk) == _local_matrix()


def _dependencies(state, task):
    worker = distributed.get_worker()
    return len(worker.state.tasks[worker.get_current_task()].dependencies)


def test_shared_objects_are_one_dependency_each(client):
    """A list of graphs is scattered as one object: a task depends on each shared object once,
    not on every graph (thousands of dependencies per task made big matrices slow)."""
    work = Work(run=_dependencies, args=(Config(), GRAPHS, GRAPHS[:], None))
    assert list(stream(work, [(0, 1), (1, 2)], client=client)) == [4, 4]


def _same_object(state, task):
    return state[0] is state[1]


def _pair(a, b):
    return a, b


def test_an_object_shared_twice_is_shipped_once(client):
    """Rows and columns of a matrix of a collection against itself: one future, one object."""
    assert list(stream(Work(run=_dependencies, args=(GRAPHS, GRAPHS, None)), [0], client=client)) == [2]
    assert list(stream(Work(run=_same_object, setup=_pair, args=(GRAPHS, GRAPHS)), [0], client=client)) == [True]
    assert list(stream(Work(run=_same_object, setup=_pair, args=(GRAPHS, GRAPHS[:])), [0],
                       client=client)) == [False]


def _count_setups(state, task):
    state.append(task)
    return len(state)


def _new_list(tag):
    return [tag]


def test_dask_streams_in_task_order_with_the_executor_s_batches(client):
    """The executor's Dask backend: any batch size, results in task order; each worker thread
    makes its state once per run (a new run: a new state, even with equal arguments)."""
    def square(state, x):
        return x * x
    for chunksize in (1, 3, 100):
        assert list(stream(Work(run=square), range(-7, 8), chunksize=chunksize, client=client)) == \
            [x * x for x in range(-7, 8)]
    assert list(stream(Work(run=square), [], client=client)) == []
    for _ in range(2):  # one batch, one thread: the state grows from [tag] task by task
        assert list(stream(Work(run=_count_setups, setup=_new_list, args=("tag",)), range(4), chunksize=4,
                           client=client)) == [2, 3, 4, 5]


def _held_runs() -> int:
    from smatchpp.running import executor
    return len(executor._STATES)


def test_a_dask_worker_keeps_no_state_of_a_run_that_is_over(client):
    """Each run's per-thread states are dropped on every worker when the run ends (a long-lived
    worker kept the last run's scorer and graphs in each thread before)."""
    import time

    work = Work(run=_count_setups, setup=_new_list, args=("tag",))
    assert len(list(stream(work, range(8), chunksize=1, client=client))) == 8
    deadline = time.monotonic() + 10
    while any(client.run(_held_runs).values()) and time.monotonic() < deadline:  # not waited for
        time.sleep(0.05)
    assert set(client.run(_held_runs).values()) == {0}


def _fail_on_three(state, x):
    if x == 3:
        raise ValueError(f"task {x} failed")
    return x


def test_a_task_s_exception_on_dask_is_the_pool_s(client):
    for backend in ({"workers": 2}, {"client": client}):
        got = []
        with pytest.raises(ValueError, match="task 3 failed"):
            for r in stream(Work(run=_fail_on_three), range(6), **backend):
                got.append(r)
        assert got == [0, 1, 2], backend


def test_dask_score_equals_local(client):
    a = read_text("\n\n".join(TEXTS))
    b = read_text("\n\n".join(reversed(TEXTS)))
    scorer = Scorer()
    local = [(p.index, p.matched, p.upper, p.status) for p in scorer.iter_scores(a, b)]
    for chunk in (1, 3):
        remote = [(p.index, p.matched, p.upper, p.status)
                  for p in scorer.iter_scores(a, b, dask=client, chunk=chunk)]
        assert remote == local


def test_dask_search_equals_local(client):
    local = top_k(GRAPHS, GRAPHS, 3)
    remote = list(search(GRAPHS, GRAPHS, 3, Config(), client=client))
    pooled = list(search(GRAPHS, GRAPHS, 3, Config(), workers=2))
    for results in (remote, pooled):
        assert [(r.query, r.hits, r.solved, r.bounded, r.pruned, r.certified) for r in results] == \
            [(r.query, r.hits, r.solved, r.bounded, r.pruned, r.certified) for r in local]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


KERNELS_LOADED = ("from smatchpp.alignment.compile import _compile_exact\n"
                  "from smatchpp.alignment.solvers.bnb import _search\n"
                  "loaded = (bool(_compile_exact.compiled), bool(_search.compiled))\n")


def _callbacks(dask_worker) -> list[str]:
    return sorted(dask_worker.periodic_callbacks)


def test_local_cluster_workers_run_without_the_statistical_profiler(client):
    for callbacks in client.run(_callbacks).values():
        assert "heartbeat" in callbacks and "profile" not in callbacks


def test_warm_up_loads_both_kernels_in_a_fresh_process():
    code = (KERNELS_LOADED + "before = loaded\n"
            "from smatchpp.running.distributed import dask_setup\n"
            "dask_setup(None)\n" + KERNELS_LOADED + "print(before, loaded)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["(False,", "False)", "(True,", "True)"]


def test_separate_scheduler_and_worker_processes():
    """A scheduler and a worker started as their own processes on loopback, as on a cluster."""
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                                  "127.0.0.1", "--port", str(port), "--dashboard-address", ":0"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                               "--nworkers", "1", "--nthreads", "2", "--host", "127.0.0.1",
                               "--dashboard-address", ":0", "--preload", "smatchpp.running.distributed"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with distributed.Client(address, timeout=60) as c:
            c.wait_for_workers(1, timeout=60)

            def kernels_loaded():
                scope: dict = {}
                exec(KERNELS_LOADED, scope)
                return scope["loaded"]

            # the preload loaded the compiled kernels when the worker started, before any task
            assert list(c.run(kernels_loaded).values()) == [(True, True)]
            # and stopped the statistical profiler before the worker started it
            def callbacks(dask_worker):
                return sorted(dask_worker.periodic_callbacks)

            assert "profile" not in list(c.run(callbacks).values())[0]
            got = _dask_matrix(c, 4)
        assert got == _local_matrix()  # two threads in one worker: thread-safe solvers
    finally:
        for p in (worker, scheduler):
            p.terminate()
        for p in (worker, scheduler):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


def test_dask_s2match_ships_the_table_not_the_vectors(client, tmp_path, monkeypatch):
    """Workers score S2Match from the client's prepared table: the vectors are gone by then."""
    import shutil

    from smatchpp.api import _init_worker, _worker_score
    from test_s2match import VECTORS

    cache = tmp_path / "cache"
    monkeypatch.setenv("SMATCHPP_CACHE", str(cache))
    vectors = tmp_path / "tiny.6B.3d.txt"
    vectors.write_text(VECTORS)
    texts_a = ["(a / dog :ARG0-of (b / run-01))", "(c / cat)", "(d / puppy :mod (e / ice))"]
    texts_b = ["(x / puppy :ARG0-of (y / sprint-01))", "(z / dog)", "(w / dog :mod (v / cream))"]
    config = Config(match="s2match", vectors=str(vectors))
    scorer = Scorer(config)
    items = [scorer._item(ea, eb) for ea, eb in zip(read_text("\n\n".join(texts_a)),
                                                   read_text("\n\n".join(texts_b)))]
    scorer._prepare(items)
    local = [(s.matched, s.upper, s.status) for s in (scorer._score_item(i) for i in items)]
    vectors.unlink()  # a worker that tried to load the vectors would fail now
    shutil.rmtree(cache, ignore_errors=True)
    # the work of Scorer.iter_scores(dask=client), after the client prepared the table
    work = Work(run=_worker_score, setup=_init_worker, args=([(config, scorer.matcher, None)],))
    remote = [(s.matched, s.upper, s.status) for s in stream(work, [(0, i) for i in items], client=client)]
    assert remote == local
    assert any(m != int(m) for m, _, _ in local)  # soft matches happened


def _pairs(path) -> list[dict]:
    """``--pairs-out`` lines without the times (which differ from run to run)."""
    import json

    return [{k: v for k, v in json.loads(line).items() if k != "seconds" and not k.endswith("_seconds")}
            for line in path.read_text().splitlines()]


@pytest.fixture
def port_8787_in_use():
    """Dask's default HTTP port taken, as by another cluster on this machine (if something
    else holds it already, it is in use all the same)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("0.0.0.0", 8787))
            s.listen()
        except OSError:
            pass
        yield


def test_score_cli_with_dask_writes_the_per_pair_output_of_one_worker(tmp_path, port_8787_in_use):
    """`score --dask` in a fresh process: every pair's line (alignments, a skipped unreadable
    pair and its error included), the summary and the warnings are those of `--workers 1` and
    of the pool; no warning of Dask's (its default HTTP port was in use: it warned)."""
    from clirun import run

    (tmp_path / "a.amr").write_text("\n\n".join(TEXTS + ["(broken"]) + "\n")
    (tmp_path / "b.amr").write_text("\n\n".join(list(reversed(TEXTS)) + ["(z / zebra)"]) + "\n")
    runs = {}
    for name, options in (("one", ["--workers", "1"]), ("pool", ["--workers", "2", "--force-workers"]),
                          ("dask", ["--workers", "2", "--dask"])):
        done = run("score", "a.amr", "b.amr", "--quiet", "--on-error", "skip", "--alignments",
                   "--pairs-out", f"{name}.jsonl", *options, cwd=tmp_path, timeout=600,
                   fresh=True)  # Dask's warnings are looked for on stderr
        assert done.returncode == 0, done.stderr
        runs[name] = (done.stdout, done.stderr, _pairs(tmp_path / f"{name}.jsonl"))
    assert len(runs["one"][2]) == len(TEXTS) + 1 and runs["one"][2][-1]["status"] == "skipped"
    assert runs["dask"] == runs["one"]
    assert runs["pool"] == runs["one"]


def test_search_cli_with_dask_writes_the_hits_of_one_worker(tmp_path):
    from clirun import run

    (tmp_path / "g.amr").write_text("\n\n".join(TEXTS) + "\n")
    outputs = {}
    for name, options in (("one", ["--workers", "1"]), ("dask", ["--workers", "2", "--dask"])):
        done = run("search", "g.amr", "g.amr", "--top", "3", "--quiet", "--out", f"{name}.jsonl", *options,
                   cwd=tmp_path, timeout=600, fresh=True)  # a local Dask cluster
        assert done.returncode == 0, done.stderr
        outputs[name] = (tmp_path / f"{name}.jsonl").read_text()
    assert outputs["one"].count("\n") == len(TEXTS)
    assert outputs["dask"] == outputs["one"]

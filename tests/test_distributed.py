"""The Dask backend: results identical to the local pool (issue 13, item 4)."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

from smatchpp.api import Scorer  # noqa: E402
from smatchpp.config import Config  # noqa: E402
from smatchpp.distributed import connect, map_chunks, score_pair_chunk, top_k_chunk  # noqa: E402
from smatchpp.matrix import pair_chunks, score_pairs, top_k  # noqa: E402
from smatchpp.read import read_text  # noqa: E402
from test_matrix import GRAPHS, TEXTS  # noqa: E402


def _local_matrix():
    return [(r.i, r.j, r.matched, r.upper, r.status)
            for chunk in score_pairs(GRAPHS, GRAPHS, pair_chunks(len(GRAPHS), None, 7))
            for r in chunk]


@pytest.fixture(scope="module", params=[1, 2], ids=["1 worker", "2 workers"])
def client(request):
    with connect(None, workers=request.param) as c:
        yield c


@pytest.mark.parametrize("chunk", [1, 5])
def test_dask_matrix_equals_local(client, chunk):
    got = [(r.i, r.j, r.matched, r.upper, r.status)
           for results in map_chunks(client, score_pair_chunk, pair_chunks(len(GRAPHS), None, chunk),
                                     Config(), GRAPHS, GRAPHS)
           for r in results]
    assert got == _local_matrix()


def _dependencies(chunk, config, *shared):
    worker = distributed.get_worker()
    return [len(worker.state.tasks[worker.get_current_task()].dependencies)]


def test_shared_objects_are_one_dependency_each(client):
    """A list of graphs is scattered as one object: a task depends on each shared object once,
    not on every graph (thousands of dependencies per task made big matrices slow)."""
    got = list(map_chunks(client, _dependencies, [[(0, 1)], [(1, 2)]], Config(), GRAPHS, GRAPHS[:], None))
    assert got == [[3], [3]]


def _same_object(chunk, config, a, b):
    return [a is b]


def test_an_object_shared_twice_is_shipped_once(client):
    """Rows and columns of a matrix of a collection against itself: one future, one object."""
    assert list(map_chunks(client, _dependencies, [[(0, 1)]], Config(), GRAPHS, GRAPHS, None)) == [[2]]
    assert list(map_chunks(client, _same_object, [[(0, 1)]], Config(), GRAPHS, GRAPHS)) == [[True]]
    assert list(map_chunks(client, _same_object, [[(0, 1)]], Config(), GRAPHS, GRAPHS[:])) == [[False]]


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
    remote = [r for chunk in map_chunks(client, top_k_chunk, ([q] for q in range(len(GRAPHS))),
                                        Config(), GRAPHS, GRAPHS, k=3) for r in chunk]
    assert [(r.query, [h.index for h in r.hits], r.solved, r.bounded, r.pruned) for r in remote] == \
        [(r.query, [h.index for h in r.hits], r.solved, r.bounded, r.pruned) for r in local]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


KERNELS_LOADED = ("from smatchpp.compile import _compile_exact\n"
                  "from smatchpp.solvers.bnb import _search\n"
                  "loaded = (bool(_compile_exact.compiled), bool(_search.compiled))\n")


def _callbacks(dask_worker) -> list[str]:
    return sorted(dask_worker.periodic_callbacks)


def test_local_cluster_workers_run_without_the_statistical_profiler(client):
    for callbacks in client.run(_callbacks).values():
        assert "heartbeat" in callbacks and "profile" not in callbacks


def test_warm_up_loads_both_kernels_in_a_fresh_process():
    code = (KERNELS_LOADED + "before = loaded\n"
            "from smatchpp.distributed import dask_setup\n"
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
                               "--dashboard-address", ":0", "--preload", "smatchpp.distributed"],
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
            got = [(r.i, r.j, r.matched, r.upper, r.status)
                   for results in map_chunks(c, score_pair_chunk, pair_chunks(len(GRAPHS), None, 4),
                                             Config(), GRAPHS, GRAPHS)
                   for r in results]
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

    from smatchpp.distributed import score_item_chunk
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
    remote = [(s.matched, s.upper, s.status)
              for chunk in map_chunks(client, score_item_chunk, ([i] for i in items), config,
                                      scorer.matcher)
              for s in chunk]
    assert remote == local
    assert any(m != int(m) for m, _, _ in local)  # soft matches happened

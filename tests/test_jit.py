"""The compiled kernels (smatchpp.alignment.jit): the module built ahead of time equals numba's JIT and
the kernels' Python source, which runs while the module is built in the background."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from smatchpp.alignment import jit
from smatchpp.api import Scorer, parse_graph
from smatchpp.alignment.compile import _encoding, compile_pair
from smatchpp.alignment.solvers.bnb import NODE_LIMIT

from strategies import graph_pairs
from test_bnb import fractional_problems
from test_matrix import TEXTS

GRAPHS = [parse_graph(t) for t in TEXTS]

# a fresh process: score every pair of TEXTS, report whether numba was imported
SCORE_ALL = """
import json, sys
from smatchpp.api import Scorer, parse_graph
texts = json.loads(sys.argv[1])
graphs = [parse_graph(t) for t in texts]
scorer = Scorer()
scores = [[s.matched, s.upper, s.status, s.stage, s.alignment]
          for s in (scorer.score_pair(a, b) for a in graphs for b in graphs)]
print(json.dumps({"numba": "numba" in sys.modules, "scores": scores}))
"""


def _fresh(env: dict, timeout: float = 900) -> dict:
    run = subprocess.run([sys.executable, "-c", SCORE_ALL, json.dumps(TEXTS)], capture_output=True, text=True,
                         timeout=timeout, env={**os.environ, **env})
    assert run.returncode == 0, run.stderr
    return {**json.loads(run.stdout), "stderr": run.stderr}


def _expected() -> list:
    scorer = Scorer()
    return [[s.matched, s.upper, s.status, s.stage, [list(x) for x in s.alignment]]
            for s in (scorer.score_pair(a, b) for a in GRAPHS for b in GRAPHS)]


def test_every_kernel_is_registered_with_a_signature():
    assert sorted(jit.KERNELS) == ["compile_exact", "search"]
    assert all("(" in signature for _, signature in jit.KERNELS.values())


def test_the_built_module_equals_numbas_jit_array_for_array():
    module = jit.kernel_module()
    if module is None:
        pytest.skip("the kernels could not be built here (see the RuntimeWarning)")
    from numba import njit

    compile_jit = njit(jit.KERNELS["compile_exact"][0])
    search_jit = njit(jit.KERNELS["search"][0])
    for a in GRAPHS:
        for b in GRAPHS:
            args = (len(a.variables), len(b.variables), *_encoding(a), *_encoding(b))
            built, jitted = module.compile_exact(*args), compile_jit(*args)
            assert len(built) == len(jitted)
            for x, y in zip(built, jitted):
                assert np.array_equal(x, y)
            p = compile_pair(a, b)
            args = (p.n_a, p.n_b, p.pair_a, p.pair_b, p.unary, p.edge_p, p.edge_q, p.weight,
                    float(p.constant), np.inf, float(p.tolerance), NODE_LIMIT)
            for x, y in zip(module.search(*args), search_jit(*args)):
                assert np.array_equal(x, y)


def _wait_for_the_build(cache: Path, monkeypatch) -> None:
    """Wait until no process builds the module of ``cache`` (the build holds its lock)."""
    monkeypatch.setenv("SMATCHPP_CACHE", str(cache))
    with open(jit.lock_path(), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)


def test_a_new_cache_is_built_once_in_the_background_and_then_no_process_imports_numba(
        tmp_path: Path, monkeypatch):
    env = {"SMATCHPP_CACHE": str(tmp_path), "SMATCHPP_AOT": "1"}
    first = _fresh(env)  # starts building the module into tmp_path / kernels, scores without it
    assert first["numba"] is False
    assert "building the compiled kernels in the background" in first["stderr"]
    assert len(first["stderr"].strip().splitlines()) == 1
    _wait_for_the_build(tmp_path, monkeypatch)
    if not jit.module_path().exists():
        pytest.skip(f"the kernels could not be built here: {list((tmp_path / 'kernels').glob('*.failed'))}")
    built = sorted(p.name for p in (tmp_path / "kernels").glob("smatchpp_kernels_*.so"))
    assert built == [jit.module_path().name]
    second = _fresh(env)
    assert second["numba"] is False  # the point: no numba, no scipy.linalg, in a later process
    assert second["stderr"] == ""
    assert sorted(p.name for p in (tmp_path / "kernels").glob("smatchpp_kernels_*.so")) == built  # not built again
    assert first["scores"] == second["scores"] == _expected()


def test_a_process_never_waits_for_a_build_in_progress(tmp_path: Path, monkeypatch):
    """Another process is building (it holds the lock): a run scores at once, with the kernels'
    Python (no numba), the same numbers, stages and alignments, and starts no second build.
    Before, the run waited for the lock (12.9 s on a fresh machine; here, for ever)."""
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path))
    jit.cache_dir().mkdir(parents=True)
    with open(jit.lock_path(), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # "another process is building"
        run = _fresh({"SMATCHPP_CACHE": str(tmp_path), "SMATCHPP_AOT": "1"}, timeout=300)
        assert run["numba"] is False
        assert run["stderr"] == ""  # it started nothing, so it says nothing
        assert run["scores"] == _expected()
        assert not jit.module_path().exists()


@settings(max_examples=60, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=6))
def test_the_kernels_python_equals_the_compiled_kernels(pair):
    """What runs while the module is built: the same results, bit for bit."""
    a, b = pair
    compile_py, search_py = jit.KERNELS["compile_exact"][0], jit.KERNELS["search"][0]
    args = (len(a.variables), len(b.variables), *_encoding(a), *_encoding(b))
    for x, y in zip(compile_py(*args), _compiled("compile_exact")(*args)):
        assert np.array_equal(x, y)
    p = compile_pair(a, b)
    for nodes in (NODE_LIMIT, 3):
        args = (p.n_a, p.n_b, p.pair_a, p.pair_b, p.unary, p.edge_p, p.edge_q, p.weight,
                float(p.constant), float(p.label_bound), float(p.tolerance), nodes)
        for x, y in zip(search_py(*args), _compiled("search")(*args)):
            assert np.array_equal(x, y)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(fractional_problems())
def test_the_search_in_python_equals_the_compiled_search_on_fractions(p):
    args = (p.n_a, p.n_b, p.pair_a, p.pair_b, p.unary, p.edge_p, p.edge_q, p.weight,
            float(p.constant), np.inf, float(p.tolerance), NODE_LIMIT)
    for x, y in zip(jit.KERNELS["search"][0](*args), _compiled("search")(*args)):
        assert np.array_equal(x, y)


def _compiled(name: str):
    module = jit.kernel_module()
    if module is not None:
        return getattr(module, name)
    from numba import njit

    return njit(jit.KERNELS[name][0])


def test_without_the_built_module_numbas_jit_gives_the_same_scores():
    run = _fresh({"SMATCHPP_AOT": "0"})
    assert run["numba"] is True
    assert run["scores"] == _expected()


def test_a_cache_that_cannot_be_written_falls_back_to_the_jit(tmp_path: Path):
    blocked = tmp_path / "file"
    blocked.write_text("a file, not a directory")
    run = _fresh({"SMATCHPP_CACHE": str(blocked / "cache"), "SMATCHPP_AOT": "1"})
    assert "using numba's JIT instead" in run["stderr"]
    assert run["numba"] is True
    assert run["scores"] == _expected()

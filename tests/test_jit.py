"""The compiled kernels: the module built ahead of time equals numba's JIT (smatchpp.jit)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from smatchpp import jit
from smatchpp.api import Scorer, parse_graph
from smatchpp.compile import _encoding, compile_pair
from smatchpp.solvers.bnb import NODE_LIMIT

from test_matrix import TEXTS

GRAPHS = [parse_graph(t) for t in TEXTS]

# a fresh process: score every pair of TEXTS, report whether numba was imported
SCORE_ALL = """
import json, sys
from smatchpp.api import Scorer, parse_graph
texts = json.loads(sys.argv[1])
graphs = [parse_graph(t) for t in texts]
scorer = Scorer()
scores = [[s.matched, s.status] for s in (scorer.score_pair(a, b) for a in graphs for b in graphs)]
print(json.dumps({"numba": "numba" in sys.modules, "scores": scores}))
"""


def _fresh(env: dict) -> dict:
    run = subprocess.run([sys.executable, "-c", SCORE_ALL, json.dumps(TEXTS)], capture_output=True, text=True,
                         timeout=900, env={**os.environ, **env})
    assert run.returncode == 0, run.stderr
    return {**json.loads(run.stdout), "stderr": run.stderr}


def _expected() -> list:
    scorer = Scorer()
    return [[s.matched, s.status] for s in (scorer.score_pair(a, b) for a in GRAPHS for b in GRAPHS)]


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


def test_a_new_cache_is_built_once_and_then_no_process_imports_numba(tmp_path: Path):
    env = {"SMATCHPP_CACHE": str(tmp_path), "SMATCHPP_AOT": "1"}
    first = _fresh(env)  # builds the module into tmp_path / kernels (about 15 s)
    if "not built" in first["stderr"]:
        pytest.skip(f"the kernels could not be built here: {first['stderr'].strip()[-300:]}")
    built = sorted(p.name for p in (tmp_path / "kernels").glob("smatchpp_kernels_*.so"))
    assert len(built) == 1
    second = _fresh(env)
    assert second["numba"] is False  # the point: no numba, no scipy.linalg, in a later process
    assert sorted(p.name for p in (tmp_path / "kernels").glob("smatchpp_kernels_*.so")) == built  # not built again
    assert first["scores"] == second["scores"] == _expected()


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

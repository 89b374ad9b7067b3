"""The compiled small-pair path: branch and bound (smatchpp/alignment/solvers/bnb.py) and the exact
matcher's compile kernel (smatchpp/alignment/compile.py ``_compile_exact``).

* branch and bound against the brute-force oracle on tiny graph pairs, and against an
  enumeration of every matching on random problems with fractional coefficients;
* stopped by its node limit, it still returns a valid alignment and a valid upper bound;
* the compile kernel gives the numpy path's problem array for array (random pairs with
  duplicate triples, and real sentence pairs when ../shared is present);
* label ids stay consistent: a graph whose encoding came from elsewhere is encoded again,
  and threads encoding at once never share an id.
"""

from __future__ import annotations

import itertools
import pickle
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import smatchpp.alignment.compile as compile_module
from oracle import brute_force, rescore_array
from smatchpp.api import parse_graph
from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.problem import Problem
from smatchpp.alignment.solvers import Portfolio
from smatchpp.alignment.solvers.bnb import branch_and_bound
from strategies import graph_pairs, triple_graphs

TINY = settings(max_examples=150, deadline=None, derandomize=True)


def _numpy_problem(a, b) -> Problem:
    """The problem by the numpy path (the kernel switched off)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compile_module, "FAST_CELLS", -1)
        return compile_pair(a, b)


def _same_problem(fast: Problem, slow: Problem) -> None:
    assert (fast.n_a, fast.n_b, fast.constant, fast.label_bound) == (
        slow.n_a, slow.n_b, slow.constant, slow.label_bound)
    for name in ("pair_a", "pair_b", "unary", "edge_p", "edge_q", "weight"):
        x, y = getattr(fast, name), getattr(slow, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name


# ---------------------------------------------------------------------------
# branch and bound


@TINY
@given(graph_pairs(max_vars=5))
def test_bnb_reaches_the_oracle_optimum(pair):
    a, b = pair
    problem = compile_pair(a, b)
    optimum = brute_force(a, b)
    found = branch_and_bound(problem)
    assert found.complete
    assert found.objective == optimum == found.upper
    assert rescore_array(a, b, found.alignment) == optimum


@TINY
@given(graph_pairs(max_vars=5), st.integers(1, 6))
def test_bnb_stopped_early_is_an_interval(pair, nodes):
    a, b = pair
    problem = compile_pair(a, b)
    optimum = brute_force(a, b)
    found = branch_and_bound(problem, node_limit=nodes)
    assert rescore_array(a, b, found.alignment) == found.objective <= optimum <= found.upper
    if found.complete:
        assert found.objective == optimum


def _matchings(n_a: int, n_b: int):
    for k in range(min(n_a, n_b) + 1):
        for rows in itertools.combinations(range(n_a), k):
            for cols in itertools.permutations(range(n_b), k):
                alignment = np.full(n_a, -1, dtype=np.int64)
                alignment[list(rows)] = cols
                yield alignment


@st.composite
def fractional_problems(draw):
    """Random problems with fractional coefficients (soft or weighted matching's shape)."""
    n_a, n_b = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = [(i, j) for i in range(n_a) for j in range(n_b)]
    chosen = draw(st.lists(st.sampled_from(cells), min_size=1, max_size=len(cells), unique=True))
    chosen.sort()
    weights = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.7, 1.0, 1.3, 2.0])
    unary = [draw(weights) for _ in chosen]
    edges = [(p, q) for p, q in itertools.combinations(range(len(chosen)), 2)
             if chosen[p][0] != chosen[q][0] and chosen[p][1] != chosen[q][1]]
    picked = draw(st.lists(st.sampled_from(edges), unique=True, max_size=len(edges))) if edges else []
    picked.sort()
    w = [draw(weights.filter(lambda x: x > 0)) for _ in picked]
    return Problem(n_a, n_b, [c[0] for c in chosen], [c[1] for c in chosen], unary,
                   [e[0] for e in picked], [e[1] for e in picked], w,
                   constant=draw(st.sampled_from([0.0, 0.5])))


@TINY
@given(fractional_problems())
def test_bnb_fractional_within_tolerance(problem):
    optimum = max(problem.objective(x) for x in _matchings(problem.n_a, problem.n_b))
    found = branch_and_bound(problem)
    assert found.complete
    assert problem.objective(found.alignment) == pytest.approx(found.objective)
    assert found.objective >= optimum - problem.tolerance - 1e-9
    assert found.objective - 1e-9 <= optimum <= found.upper + 1e-9
    assert found.upper - found.objective <= problem.tolerance + 1e-9


def test_bnb_deterministic_and_in_the_portfolio():
    a = parse_graph("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :ARG1 (c / city)))")
    b = parse_graph("(w / want-01 :ARG0 (g / girl) :ARG1 (v / visit-01 :ARG0 g :ARG1 (b / boy)))")
    problem = compile_pair(a, b)
    first, second = branch_and_bound(problem), branch_and_bound(problem)
    assert first.alignment.tolist() == second.alignment.tolist()
    assert first.objective == second.objective
    result = Portfolio().solve(problem)
    assert result.stage in ("branch_and_bound", "label_bound")
    assert result.objective == Portfolio(bnb_max_pairs=0).solve(problem).objective == brute_force(a, b)


def test_portfolio_takes_over_after_the_node_limit(monkeypatch):
    """A search cut short hands its alignment on: the portfolio still certifies the optimum."""
    import smatchpp.alignment.solvers.portfolio as portfolio_module

    a = parse_graph("(a / and :op1 (x / dog :mod (r / red)) :op2 (y / dog :mod (s / big)) :op3 (z / cat))")
    b = parse_graph("(a / and :op1 (x / dog :mod (s / big)) :op2 (y / cat :mod (r / red)) :op3 (z / dog))")
    problem = compile_pair(a, b)
    monkeypatch.setattr(portfolio_module, "branch_and_bound",
                        lambda p, limit=None: branch_and_bound(p, node_limit=2))
    result = Portfolio().solve(problem)
    assert result.status == "optimal"
    assert result.stage not in ("branch_and_bound",)
    assert result.objective == branch_and_bound(problem).objective


# ---------------------------------------------------------------------------
# the compile kernel


@settings(max_examples=200, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=6))
def test_compile_kernel_equals_numpy_path(pair):
    a, b = pair
    _same_problem(compile_pair(a, b), _numpy_problem(a, b))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(triple_graphs(max_vars=5))
def test_compile_kernel_self_pair(g):
    _same_problem(compile_pair(g, g), _numpy_problem(g, g))


def test_stale_encoding_is_redone():
    a = parse_graph("(a / dog :ARG0-of (b / bark-01))")
    b = parse_graph("(x / bark-01 :ARG0 (y / dog))")
    expected = compile_pair(a, b)
    # as if encoded in another process: its ids mean nothing here
    token, arrays = a.__dict__["_compiled_encoding"]
    a.__dict__["_compiled_encoding"] = (object(), tuple(x + 1000 for x in arrays))
    _same_problem(compile_pair(a, b), expected)
    # a pickled graph carries its encoding, under a token that is no longer this process's
    moved = pickle.loads(pickle.dumps(b))
    assert moved.__dict__["_compiled_encoding"][0] is not compile_module._TOKEN
    _same_problem(compile_pair(a, moved), expected)


class _SlowLen(dict):
    """A dict whose size takes a while to read: threads switch right there."""

    def __len__(self) -> int:
        size = super().__len__()
        time.sleep(0.0005)
        return size


def test_threads_never_share_a_label_id(monkeypatch):
    monkeypatch.setattr(compile_module, "_LABEL_IDS", _SlowLen())
    texts = [f"(a{k} / concept-{k} :role-{k % 7} (b{k} / other-{k} :mod \"x{k}\"))" for k in range(60)]
    graphs = [parse_graph(t) for t in texts]
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(compile_module._encoding, graphs))
    ids = list(compile_module._LABEL_IDS.values())
    assert len(ids) == len(set(ids)) > 100

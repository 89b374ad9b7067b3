"""Symmetry breaking (ordering rows between interchangeable variables) keeps the optimum."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force, rescore_array
from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.solvers.symmetry import canonical, interchangeable, ordering_rows
from smatchpp.alignment.problem import Problem
from smatchpp.alignment.solvers import CbcSolver, HighsSolver, HillClimber, Portfolio
from smatchpp.graphs.triples import TripleGraph
from strategies import clone_variable, graphs_with_clones, triple_graphs

TINY = settings(max_examples=60, deadline=None, derandomize=True)

#: A and B with copied variables, small enough for the brute-force oracle (<= 6 variables)
symmetric_pairs = st.tuples(graphs_with_clones(max_vars=4, max_relations=4, name_prefix="v"),
                            graphs_with_clones(max_vars=4, max_relations=4, name_prefix="w"))


def _rows_hold(problem: Problem, alignment: np.ndarray, rows) -> bool:
    x = problem.selected(alignment).astype(np.float64)
    return all(vals @ x[cols] <= 1e-9 for cols, vals in rows)


def _is_automorphism(problem: Problem, cls: np.ndarray, side: str) -> bool:
    """Swapping the first two members of ``cls`` maps the problem's terms onto themselves."""
    i, k = int(cls[0]), int(cls[1])
    own = problem.pair_a if side == "a" else problem.pair_b
    other = problem.pair_b if side == "a" else problem.pair_a

    def key(p: int) -> tuple[int, int]:
        var = {i: k, k: i}.get(int(own[p]), int(own[p]))
        return (var, int(other[p])) if side == "a" else (int(other[p]), var)

    pairs = {(int(a), int(b)): p for p, (a, b) in enumerate(zip(problem.pair_a, problem.pair_b))}
    unary = {(int(problem.pair_a[p]), int(problem.pair_b[p])): float(problem.unary[p])
             for p in range(problem.n_pairs)}
    swapped_unary = {key(p): float(problem.unary[p]) for p in range(problem.n_pairs)}
    if swapped_unary != unary:
        return False

    def edges(f):
        out: dict = {}
        for p, q, w in zip(problem.edge_p.tolist(), problem.edge_q.tolist(), problem.weight.tolist()):
            e = frozenset((f(p), f(q)))
            out[e] = out.get(e, 0.0) + w
        return out

    ident = edges(lambda p: (int(problem.pair_a[p]), int(problem.pair_b[p])))
    return bool(pairs) and edges(key) == ident


@TINY
@given(symmetric_pairs)
def test_classes_are_automorphisms(pair):
    problem = compile_pair(*pair)
    symmetry = interchangeable(problem)
    for side, classes in (("a", symmetry.a), ("b", symmetry.b)):
        for cls in classes:
            assert len(cls) >= 2 and list(cls) == sorted(cls)
            assert _is_automorphism(problem, cls, side)


def test_clones_are_found():
    g = TripleGraph(("d", "b"), ("dog", "big"), ((0, "top", "top"),), ((0, "mod", 1),))
    g2 = clone_variable(clone_variable(g, 1), 1)  # dog with three 'big' modifiers
    symmetry = interchangeable(compile_pair(g2, g2))
    assert [c.tolist() for c in symmetry.a] == [[1, 2, 3]]
    assert [c.tolist() for c in symmetry.b] == [[1, 2, 3]]
    assert len(ordering_rows(compile_pair(g2, g2), symmetry)) == 4


@TINY
@given(symmetric_pairs, st.integers(0, 5))
def test_canonical_start_keeps_value_and_meets_the_rows(pair, seed):
    a, b = pair
    problem = compile_pair(a, b)
    symmetry = interchangeable(problem)
    start = HillClimber(seed=seed, restarts=1).solve(problem).alignment
    moved = canonical(problem, start, symmetry)
    assert problem.objective(moved) == problem.objective(start)
    assert rescore_array(a, b, moved) == problem.objective(start)
    mapped = moved[moved >= 0]
    assert len(set(mapped.tolist())) == len(mapped)  # still injective
    assert np.all(problem.selected(moved).sum() == len(mapped))  # every pair a candidate
    assert _rows_hold(problem, moved, ordering_rows(problem, symmetry))


@TINY
@given(symmetric_pairs, st.integers(0, 3))
def test_mip_with_ordering_rows_is_exact(pair, seed):
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    symmetry = interchangeable(problem)
    start = HillClimber(seed=seed, restarts=0).solve(problem).alignment
    for result in (HighsSolver().solve(problem), HighsSolver().solve(problem, warm_start=start),
                   HighsSolver(presolve=True).solve(problem, warm_start=start),
                   Portfolio().solve(problem)):
        assert (result.status, result.objective) == ("optimal", optimum)
        assert rescore_array(a, b, result.alignment) == optimum
    result = HighsSolver().solve(problem)
    assert result.stats["symmetric_vars"] == symmetry.n_vars
    assert _rows_hold(problem, result.alignment, ordering_rows(problem, symmetry))


@settings(max_examples=15, deadline=None, derandomize=True)
@given(symmetric_pairs)
def test_cbc_with_ordering_rows_is_exact(pair):
    a, b = pair
    result = CbcSolver().solve(compile_pair(a, b))
    assert (result.status, result.objective) == ("optimal", brute_force(a, b))


@settings(max_examples=20, deadline=None, derandomize=True)
@given(st.tuples(graphs_with_clones(max_clones=4, min_vars=5, max_vars=8, max_relations=12),
                 triple_graphs(min_vars=6, max_vars=11, max_relations=14, name_prefix="w")))
def test_symmetry_on_and_off_agree_on_bigger_pairs(pair):
    problem = compile_pair(*pair)
    on, off = HighsSolver().solve(problem), HighsSolver(symmetry=False).solve(problem)
    assert on.status == off.status == "optimal"
    assert on.objective == off.objective

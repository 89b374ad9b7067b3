"""Bound-based elimination (compression rule 5) and the LP certificate behind it."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings

from oracle import brute_force, matched_count, partial_maps
from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.compression.exact import compress
from smatchpp.alignment.problem import Problem
from smatchpp.alignment.solvers import HighsSolver, HillClimber, Portfolio
from smatchpp.alignment.solvers.highs import solve_lp
from smatchpp.alignment.solvers.base import Limits
from strategies import graph_pairs

TINY = settings(max_examples=40, deadline=None, derandomize=True)


@TINY
@given(graph_pairs(max_vars=4, max_attributes=3, max_relations=6))
def test_lp_reduced_costs_bound_every_solution_using_a_pair(pair):
    # bound + min(d_p, 0) must be >= the best solution that maps i -> j, for every pair
    a, b = pair
    problem = compile_pair(a, b)
    lp = solve_lp(problem)
    assert lp is not None
    assert lp.bound >= brute_force(a, b) - 1e-6
    best_with = {}
    for mapping in partial_maps(len(a.variables), len(b.variables)):
        value = matched_count(a, b, mapping)
        for i, j in mapping.items():
            best_with[(i, j)] = max(best_with.get((i, j), 0), value)
    for p, (i, j) in enumerate(zip(problem.pair_a.tolist(), problem.pair_b.tolist())):
        assert lp.bound + min(lp.reduced[p], 0.0) >= best_with[(i, j)] - 1e-6


@settings(max_examples=25, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=9, min_vars=5, max_attributes=6, max_relations=14))
def test_elimination_by_lp_keeps_the_optimum(pair):
    a, b = pair
    problem = compile_pair(a, b)
    optimum = HighsSolver().solve(problem).objective
    incumbent = HillClimber(seed=3, restarts=1).solve(problem)
    lp = solve_lp(problem)
    lower = incumbent.objective
    drop = (lp.bound + np.minimum(lp.reduced, 0.0) < lower + 1 - 1e-6) & ~problem.selected(incumbent.alignment)
    reduced = compress(problem, drop)
    parts = [HighsSolver().solve(part.problem) for part in reduced.parts]
    alignment = reduced.lift([r.alignment for r in parts])
    assert problem.objective(alignment) == optimum
    assert reduced.constant + sum(r.objective for r in parts) == optimum


@settings(max_examples=25, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=10, min_vars=6, max_attributes=6, max_relations=16))
def test_portfolio_with_and_without_compression_equals_plain_mip(pair):
    a, b = pair
    problem = compile_pair(a, b)
    optimum = HighsSolver().solve(problem).objective
    # bnb_max_pairs=0: the general path, which bigger pairs take
    for solver in (Portfolio(), Portfolio(compression=False, bnb_max_pairs=0),
                   Portfolio(use_lp=False, bnb_max_pairs=0),
                   Portfolio(compress_min_pairs=0, bnb_max_pairs=0),
                   Portfolio(use_lp=False, compress_min_pairs=0, bnb_max_pairs=0)):
        result = solver.solve(problem)
        assert result.status == "optimal"
        assert result.objective == optimum == problem.objective(result.alignment)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=9, min_vars=4, max_attributes=6, max_relations=14))
def test_elimination_descent_from_a_weak_bound_finds_the_optimum(pair):
    # start the target descent from the label bound and the empty alignment: the
    # first targets are above every solution (empty restricted problems), later
    # ones cut the problem, until the optimum is certified
    a, b = pair
    problem = compile_pair(a, b)
    optimum = HighsSolver().solve(problem).objective
    lp = solve_lp(problem)
    stats = Counter()
    empty = np.full(problem.n_a, -1, dtype=np.int64)
    result = Portfolio(drop_share=0.0)._eliminate(
        problem, empty, problem.constant, problem.label_bound,
        lp.bound + np.minimum(lp.reduced, 0.0), Limits(), stats)
    assert result.status == "optimal"
    assert result.objective == result.upper_bound == optimum == problem.objective(result.alignment)
    assert stats["elimination_steps"] >= 1


@settings(max_examples=25, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=8, min_vars=4, max_attributes=5, max_relations=12))
def test_portfolio_on_non_integer_coefficients_equals_plain_mip(pair):
    # soft or weighted matching gives non-integer coefficients: no "gap below one" proofs,
    # and elimination keeps the incumbent's pairs instead of descending
    a, b = pair
    p = compile_pair(a, b)
    problem = Problem(p.n_a, p.n_b, p.pair_a, p.pair_b, p.unary * 0.7, p.edge_p, p.edge_q,
                      p.weight * 1.3)
    assert not problem.integral
    optimum = HighsSolver().solve(problem).objective
    for solver in (Portfolio(), Portfolio(drop_share=0.0, bnb_max_pairs=0),
                   Portfolio(drop_share=0.0, compress_min_pairs=0, bnb_max_pairs=0)):
        result = solver.solve(problem)
        assert result.status == "optimal"
        assert abs(result.objective - optimum) < 1e-6
        assert abs(problem.objective(result.alignment) - result.objective) < 1e-9
    # the elimination step itself, from a weak incumbent (on these sizes the LP is mostly tight)
    incumbent = HillClimber(seed=2, restarts=0).solve(problem)
    lp = solve_lp(problem)
    stats = Counter()
    result = Portfolio(drop_share=0.0)._eliminate(
        problem, incumbent.alignment, incumbent.objective, lp.bound,
        lp.bound + np.minimum(lp.reduced, 0.0), Limits(), stats)
    assert result.status == "optimal" and abs(result.objective - optimum) < 1e-6
    assert abs(problem.objective(result.alignment) - result.objective) < 1e-9
    assert stats["elimination_steps"] + stats["mip_components"] >= 1 or incumbent.objective >= optimum - 1e-9

"""Solvers against the brute-force oracle, and against each other.

For tiny random pairs (at most 5 variables each) the oracle enumerates every
injective partial map, so the true optimum is known: every exact solver must
reach it and certify it, the hill-climber may not exceed it and every upper
bound must be at least it.  For bigger pairs (8-12 variables) the two MIP
backends (HiGHS and CBC) check each other.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force, matched_count, partial_maps, rescore_array
from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.compression.exact import compress
from smatchpp.alignment.solvers import CbcSolver, HighsSolver, HillClimber, Portfolio, get_solver
from smatchpp.alignment.solvers.bounds import star_bound
from smatchpp.alignment.solvers.compressed import Compressing
from smatchpp.alignment.solvers.highs import lp_bound
from smatchpp.graphs.triples import TripleGraph
from strategies import equivalent_graphs, graph_pairs, triple_graphs

TINY = settings(max_examples=120, deadline=None, derandomize=True)
FEW = settings(max_examples=25, deadline=None, derandomize=True)


def _check_exact(result, a: TripleGraph, b: TripleGraph, optimum: int) -> None:
    assert result.status == "optimal", result
    assert result.objective == optimum, (result, optimum)
    assert result.upper_bound == optimum, (result, optimum)
    assert len(result.alignment) == len(a.variables)
    assert rescore_array(a, b, result.alignment) == optimum


# ---------------------------------------------------------------------------
# the oracle itself


def test_oracle_hand_example():
    # A: x:dog -ARG0-> y:bark ; B: u:bark -ARG0-> v:dog, TOP on the root of each
    a = TripleGraph(("x", "y"), ("dog", "bark"), ((0, "top", "top"),), ((1, "arg0", 0),))
    b = TripleGraph(("u", "v"), ("bark", "dog"), ((0, "top", "top"),), ((0, "arg0", 1),))
    assert brute_force(a, b) == 3  # two concepts + the ARG0 edge; TOP sits on different concepts
    assert matched_count(a, b, {0: 1, 1: 0}) == 3
    assert matched_count(a, b, {0: 0, 1: 1}) == 1  # only TOP
    assert matched_count(a, b, {}) == 0


def test_oracle_duplicates_are_multisets():
    a = TripleGraph(("x",), ("dog",), ((0, "op1", "z"),) * 3, ((0, "arg0", 0),) * 2)
    b = TripleGraph(("u",), ("dog",), ((0, "op1", "z"),) * 2, ((0, "arg0", 0),) * 3)
    assert brute_force(a, b) == 1 + 2 + 2


def test_partial_maps_count():
    # sum_k C(3,k) C(4,k) k! = 1 + 12 + 36 + 24
    assert sum(1 for _ in partial_maps(3, 4)) == 73
    assert list(partial_maps(0, 3)) == [{}]


# ---------------------------------------------------------------------------
# the compiled problem is Smatch, for every alignment


@TINY
@given(graph_pairs(max_vars=4), st.data())
def test_problem_objective_equals_oracle_for_any_alignment(pair, data):
    a, b = pair
    problem = compile_pair(a, b)
    maps = list(partial_maps(len(a.variables), len(b.variables)))
    for mapping in data.draw(st.lists(st.sampled_from(maps), min_size=1, max_size=8)):
        alignment = np.full(len(a.variables), -1, dtype=np.int64)
        for i, j in mapping.items():
            alignment[i] = j
        assert problem.objective(alignment) == matched_count(a, b, mapping), mapping


# ---------------------------------------------------------------------------
# exact solvers reach and certify the optimum


@TINY
@given(graph_pairs())
def test_exact_solvers_match_oracle(pair):
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    _check_exact(get_solver("exact").solve(problem), a, b, optimum)
    _check_exact(HighsSolver().solve(problem), a, b, optimum)
    _check_exact(HighsSolver(linking="pairwise").solve(problem), a, b, optimum)
    _check_exact(Portfolio(use_lp=False).solve(problem), a, b, optimum)
    _check_exact(Portfolio(bnb_max_pairs=0).solve(problem), a, b, optimum)
    _check_exact(Portfolio(use_lp=False, bnb_max_pairs=0).solve(problem), a, b, optimum)


@TINY
@given(graph_pairs())
def test_hillclimber_and_bounds_bracket_optimum(pair):
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    hc = HillClimber(seed=1, restarts=2).solve(problem)
    assert hc.objective <= optimum
    assert hc.upper_bound >= optimum
    assert hc.status in ("optimal", "heuristic")
    if hc.status == "optimal":
        assert hc.objective == optimum
    assert rescore_array(a, b, hc.alignment) == hc.objective
    assert problem.label_bound >= optimum
    # the assignment is at least as tight as the row/column bound, and both are bounds
    assert star_bound(problem, assignment=False) >= star_bound(problem, assignment=True) >= optimum
    assert lp_bound(problem) >= optimum - 1e-6
    assert lp_bound(problem, linking="pairwise") >= optimum - 1e-6
    # the three bounds are all at most the trivial bound min(|A|, |B|)
    assert problem.label_bound <= min(a.n_triples, b.n_triples)


@TINY
@given(graph_pairs(), st.integers(0, 3), st.booleans())
def test_warm_started_highs_is_exact(pair, seed, presolve):
    # with presolve, HiGHS 1.16 can mis-value the start; the solver's check must catch it
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    start = HillClimber(seed=seed, restarts=0).solve(problem).alignment
    _check_exact(HighsSolver(presolve=presolve).solve(problem, warm_start=start), a, b, optimum)


@FEW
@given(graph_pairs())
def test_cbc_matches_oracle(pair):
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    _check_exact(CbcSolver().solve(problem), a, b, optimum)


@TINY
@given(triple_graphs(), st.data())
def test_self_match_is_total(g, data):
    g2, _ = data.draw(equivalent_graphs(g))
    problem = compile_pair(g, g2)
    result = get_solver("exact").solve(problem)
    assert result.status == "optimal"
    assert result.objective == g.n_triples
    assert rescore_array(g, g2, result.alignment) == g.n_triples


@TINY
@given(graph_pairs(min_vars=0, max_vars=3))
def test_empty_and_tiny_graphs(pair):
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    _check_exact(get_solver("exact").solve(problem), a, b, optimum)
    assert HillClimber().solve(problem).objective <= optimum


def test_empty_graphs():
    empty = TripleGraph((), (), (), ())
    one = TripleGraph(("x",), ("dog",), ((0, "top", "top"),), ())
    for a, b in ((empty, empty), (empty, one), (one, empty)):
        for solver in (get_solver("exact"), HighsSolver(), CbcSolver(), HillClimber()):
            r = solver.solve(compile_pair(a, b))
            assert r.objective == 0 and r.upper_bound == 0 and r.status == "optimal"


def test_portfolio_mip_stage():
    # Found by search.  Optimum 5: v2 -> w0 (b), v3 -> w1 for the ARG0 edge, the three a's of A
    # onto w2..w4.  The hill-climber stops at 4 (v0 -> w1 blocks w1; moving v3 onto w1 gains
    # nothing until v0 moves on to a free a, a two-step plateau outside its move set), the label
    # bound is 6 and the star/LP bounds 5.  The portfolio rounds the LP solution to reach 5;
    # without the LP it must run the warm-started MIP.
    a = TripleGraph(("v0", "v1", "v2", "v3", "v4"), ("a", "a", "b", "b", "a"),
                    ((0, "top", "top"),), ((2, "arg0", 3),))
    b = TripleGraph(("w0", "w1", "w2", "w3", "w4"), ("b", "a", "a", "a", "a"),
                    ((0, "top", "top"),), ((0, "arg0", 1),))
    optimum = brute_force(a, b)
    assert optimum == 5
    problem = compile_pair(a, b)
    assert problem.label_bound == 6
    _check_exact(get_solver("exact").solve(problem), a, b, optimum)  # branch and bound first
    # the general path (what pairs above the compiled search's size take)
    result = Portfolio(bnb_max_pairs=0).solve(problem)
    _check_exact(result, a, b, optimum)
    assert result.stage == "lp"
    result = Portfolio(use_lp=False, bnb_max_pairs=0).solve(problem)
    _check_exact(result, a, b, optimum)
    assert result.stage == "mip", "the climber now finds 5: pick another instance to cover the MIP stage"
    _check_exact(CbcSolver().solve(problem), a, b, optimum)


# ---------------------------------------------------------------------------
# bigger pairs: HiGHS and CBC agree (not enumerable)


@settings(max_examples=12, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=12, min_vars=8, max_attributes=8, max_relations=16))
def test_highs_equals_cbc_on_bigger_pairs(pair):
    a, b = pair
    problem = compile_pair(a, b)
    rh = HighsSolver().solve(problem)
    rc = CbcSolver().solve(problem)
    rp = get_solver("exact").solve(problem)
    for r in (rh, rc, rp):
        assert r.status == "optimal"
        assert rescore_array(a, b, r.alignment) == r.objective
    assert rh.objective == rc.objective == rp.objective
    hc = HillClimber().solve(problem)
    assert hc.objective <= rh.objective
    for presolve in (False, True):
        warm = HighsSolver(presolve=presolve).solve(problem, warm_start=hc.alignment)
        assert (warm.status, warm.objective) == ("optimal", rh.objective)
    assert star_bound(problem, assignment=False) >= star_bound(problem, assignment=True) >= rh.objective
    assert lp_bound(problem) >= rh.objective - 1e-6


@settings(max_examples=40, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=12, min_vars=8, max_attributes=8, max_relations=16))
def test_portfolio_equals_highs_on_bigger_pairs(pair):
    a, b = pair
    problem = compile_pair(a, b)
    rh = HighsSolver().solve(problem)
    rp = get_solver("exact").solve(problem)
    assert rh.status == rp.status == "optimal"
    assert rh.objective == rp.objective
    assert rescore_array(a, b, rp.alignment) == rp.objective


@settings(max_examples=30, deadline=None, derandomize=True)
@given(triple_graphs(min_vars=8, max_vars=12, max_attributes=8, max_relations=16), st.data())
def test_self_match_bigger(g, data):
    g2, _ = data.draw(equivalent_graphs(g))
    result = get_solver("exact").solve(compile_pair(g, g2))
    assert result.status == "optimal" and result.objective == g.n_triples


@pytest.mark.parametrize("name", ["exact", "highs", "cbc", "hillclimber"])
def test_get_solver_names(name):
    assert get_solver(name).name == name


def test_get_solver_unknown():
    with pytest.raises(ValueError):
        get_solver("nope")


# ---------------------------------------------------------------------------
# exact compression keeps the optimum


def _random_alignment(problem, rng) -> np.ndarray:
    """A random feasible alignment built from the candidate pairs of ``problem``."""
    alignment = np.full(problem.n_a, -1, dtype=np.int64)
    used = set()
    for p in rng.permutation(problem.n_pairs):
        i, j = int(problem.pair_a[p]), int(problem.pair_b[p])
        if alignment[i] < 0 and j not in used and rng.random() < 0.7:
            alignment[i] = j
            used.add(j)
    return alignment


@TINY
@given(graph_pairs(), st.integers(0, 2**32 - 1))
def test_compression_lift_adds_up(pair, seed):
    # for ANY alignments of the parts: objective(lift) == constant + sum of the parts' objectives
    a, b = pair
    problem = compile_pair(a, b)
    comp = compress(problem)
    rng = np.random.default_rng(seed)
    for _ in range(3):
        parts = [_random_alignment(part.problem, rng) for part in comp.parts]
        lifted = comp.lift(parts)
        expected = comp.constant + sum(part.problem.objective(al) for part, al in zip(comp.parts, parts))
        assert problem.objective(lifted) == expected
        assert rescore_array(a, b, lifted) == expected
    stats = comp.stats()
    assert stats["pairs_before"] == problem.n_pairs
    assert stats["pairs_after"] + stats["pairs_fixed"] <= problem.n_pairs


@TINY
@given(graph_pairs())
def test_compressed_solvers_match_oracle(pair):
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    _check_exact(Compressing(HighsSolver()).solve(problem), a, b, optimum)
    _check_exact(get_solver("highs", compression=True).solve(problem), a, b, optimum)
    _check_exact(Portfolio(compression=True).solve(problem), a, b, optimum)
    _check_exact(Portfolio(compression=False).solve(problem), a, b, optimum)
    _check_exact(Portfolio(compression=True, bnb_max_pairs=0).solve(problem), a, b, optimum)
    _check_exact(Portfolio(compression=False, bnb_max_pairs=0).solve(problem), a, b, optimum)
    _check_exact(get_solver("exact", compression=False).solve(problem), a, b, optimum)


@FEW
@given(graph_pairs())
def test_compressed_cbc_matches_oracle(pair):
    a, b = pair
    optimum = brute_force(a, b)
    _check_exact(get_solver("cbc", compression=True).solve(compile_pair(a, b)), a, b, optimum)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=12, min_vars=8, max_attributes=8, max_relations=16))
def test_compression_keeps_optimum_on_bigger_pairs(pair):
    a, b = pair
    problem = compile_pair(a, b)
    plain = HighsSolver().solve(problem)
    for solver in (Compressing(HighsSolver()), Portfolio(compression=True), Portfolio(compression=False),
                   Portfolio(bnb_max_pairs=0), Portfolio(compression=False, bnb_max_pairs=0)):
        r = solver.solve(problem)
        assert r.status == "optimal"
        assert r.objective == plain.objective
        assert rescore_array(a, b, r.alignment) == r.objective


# ---------------------------------------------------------------------------
# a (tiny) time limit may stop the search, but the bounds stay sound


@settings(max_examples=15, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=12, min_vars=8, max_attributes=8, max_relations=16))
def test_time_limited_results_are_sound(pair):
    # no assertion on time: only that [objective, upper_bound] brackets the optimum
    a, b = pair
    problem = compile_pair(a, b)
    optimum = HighsSolver().solve(problem).objective
    for name in ("exact", "highs", "cbc"):
        for compression in (True, False):
            r = get_solver(name, compression=compression).solve(problem, time_limit=1e-4)
            assert r.status in ("optimal", "time_limit")
            assert r.objective <= optimum <= r.upper_bound, (name, compression, r)
            assert rescore_array(a, b, r.alignment) == r.objective
            if r.status == "optimal":
                assert r.objective == r.upper_bound == optimum


def test_highs_options_are_never_ignored():
    # HiGHS 1.16 renamed a PDLP option and silently ignored the old name; ours raises instead
    import highspy

    from smatchpp.alignment.solvers.highs import _set
    h = highspy.Highs()
    _set(h, "output_flag", False)
    with pytest.raises(RuntimeError, match="no_such_option"):
        _set(h, "no_such_option", 1.0)


def test_solvers_are_a_registry_of_factories():
    """SOLVERS maps each name to a factory (like MATCHERS); an unknown name lists the known ones."""
    from smatchpp.alignment.solvers import SOLVERS, get_solver

    assert list(SOLVERS) == ["exact", "highs", "cbc", "hillclimber"]
    assert all(callable(make) for make in SOLVERS.values())
    assert type(get_solver("hillclimber", seed=3, restarts=2)).__name__ == "HillClimber"
    with pytest.raises(ValueError, match="unknown solver 'x'; choose from exact, highs, cbc, hillclimber"):
        get_solver("x")

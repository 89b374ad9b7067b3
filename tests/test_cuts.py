"""The cuts of :mod:`smatchpp.alignment.solvers.cuts` against brute force (issue 32, item 5).

Every row of the family holds for every alignment of small random pairs (so a bound with
them is a bound); the LP with all of them, and the priced LP that separates them, bound the
optimum and each pair's best alignment; on the 6-cycle of lp-doc100's first pair they close
the LP's gap.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.problem import Problem
from smatchpp.alignment.solvers.cuts import separate
from smatchpp.alignment.solvers.formulation import start_values
from smatchpp.alignment.solvers.highs import lp_bound, solve_lp
from smatchpp.alignment.solvers.portfolio import Portfolio
from smatchpp.alignment.solvers.pricing import priced_lp
from strategies import graph_pairs
from test_matchers import SMALL
from test_pricing import all_alignments, best_with_each_pair

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)
TOL = 1e-6


def _every_row(problem: Problem) -> np.ndarray:
    """Every row of the family for ``problem``, as ``(edge, r1, r2)`` (module doc of cuts)."""
    where = {(int(a), int(b)): p for p, (a, b) in enumerate(zip(problem.pair_a, problem.pair_b))}
    rows = set()
    for e, (p, q) in enumerate(zip(problem.edge_p, problem.edge_q)):
        i, j, k, l = (int(problem.pair_a[p]), int(problem.pair_b[p]),
                      int(problem.pair_a[q]), int(problem.pair_b[q]))
        for m in set(range(problem.n_a)) - {i, k}:
            if (m, j) in where and (m, l) in where:
                r1, r2 = sorted((where[m, j], where[m, l]))
                rows.add((e, r1, r2))
        for n in set(range(problem.n_b)) - {j, l}:
            if (i, n) in where and (k, n) in where:
                r1, r2 = sorted((where[i, n], where[k, n]))
                rows.add((e, r1, r2))
    return np.array(sorted(rows), dtype=np.int64).reshape(-1, 3)


def drawn_mask(data, problem) -> np.ndarray:
    """A restricted set of ``problem``'s pairs, drawn: where a priced LP starts."""
    return np.array(data.draw(st.lists(st.booleans(), min_size=problem.n_pairs,
                                       max_size=problem.n_pairs)), dtype=bool)


def _six_cycle() -> Problem:
    """A: i, k, m; B: j, a, b.  Unary 2 on (i, j), (k, j), (m, a), (m, b); a binary term of
    weight 1 between (i, a) and (k, b).  Optimum 4; the LP takes every pair at 1/2: 4.5."""
    #                   (i,j) (i,a) (k,j) (k,b) (m,a) (m,b)
    pair_a = np.array([0, 0, 1, 1, 2, 2])
    pair_b = np.array([0, 1, 0, 2, 1, 2])
    unary = np.array([2.0, 0.0, 2.0, 0.0, 2.0, 2.0])
    return Problem(3, 3, pair_a, pair_b, unary, np.array([1]), np.array([3]), np.array([1.0]))


@SETTINGS
@given(graph_pairs(**SMALL))
def test_every_alignment_satisfies_every_row(pair):
    problem = compile_pair(*pair)
    rows = _every_row(problem)
    for alignment in all_alignments(problem.n_a, problem.n_b):
        v = start_values(problem, alignment)
        assert np.all(v[problem.n_pairs + rows[:, 0]] + v[rows[:, 1]] + v[rows[:, 2]] <= 1.0)


@SETTINGS
@given(graph_pairs(**SMALL), st.data())
def test_separated_rows_are_of_the_family_and_violated(pair, data):
    """On a point of the LP (a mixture of alignments, each term's ``y`` lowered at random):
    exactly the rows of the family that it violates."""
    problem = compile_pair(*pair)
    if problem.n_pairs == 0:
        return
    every = list(all_alignments(problem.n_a, problem.n_b))
    picks = data.draw(st.lists(st.integers(0, len(every) - 1), min_size=1, max_size=3))
    values = np.mean([start_values(problem, every[k]) for k in picks], axis=0)
    n = problem.n_edges
    scale = np.array(data.draw(st.lists(st.sampled_from([0.5, 1.0]), min_size=n, max_size=n)))
    values[problem.n_pairs:] *= scale
    found = separate(problem, values)
    family = {tuple(r) for r in _every_row(problem).tolist()}
    violated = {r for r in family
                if values[problem.n_pairs + r[0]] + values[r[1]] + values[r[2]] > 1 + 1e-6}
    assert {tuple(r) for r in found.tolist()} == violated


@SETTINGS
@given(graph_pairs(**SMALL))
def test_the_lp_with_every_row_bounds_the_optimum_and_each_pair(pair):
    problem = compile_pair(*pair)
    if problem.n_pairs == 0:
        return
    best, per_pair = best_with_each_pair(problem)
    scale = TOL * (1.0 + problem.unary.sum() + problem.weight.sum())
    cut = solve_lp(problem, cuts=_every_row(problem))
    assert best - scale <= cut.bound <= lp_bound(problem) + scale
    reach = cut.bound + np.minimum(cut.reduced, 0.0)
    assert np.all(reach >= per_pair - scale)


@SETTINGS
@given(graph_pairs(**SMALL), st.data())
def test_priced_lp_with_cuts_bounds_the_optimum_and_each_pair(pair, data):
    problem = compile_pair(*pair)
    if problem.n_pairs == 0:
        return
    start = drawn_mask(data, problem)
    best, per_pair = best_with_each_pair(problem)
    scale = TOL * (1.0 + problem.unary.sum() + problem.weight.sum())
    result = priced_lp(problem, start, settle=True, cut_rounds=5)
    assert result.bound >= best - scale
    assert np.all(result.bound + np.minimum(result.reduced, 0.0) >= per_pair - scale)


def test_the_rows_close_the_six_cycle():
    problem = _six_cycle()
    best, per_pair = best_with_each_pair(problem)
    assert best == 4.0
    assert abs(lp_bound(problem) - 4.5) <= TOL  # the LP alone: every pair at 1/2
    rows = separate(problem, np.full(7, 0.5))
    # y + x_(i,j) + x_(k,j) <= 1 (B side, n = j) and y + x_(m,a) + x_(m,b) <= 1 (A side)
    assert rows.tolist() == [[0, 0, 2], [0, 4, 5]]
    assert solve_lp(problem, cuts=rows).bound <= 4.0 + TOL
    # the priced LP finds the row itself: from two pairs, priced in, then cut
    start = np.zeros(6, dtype=bool)
    start[[0, 4]] = True
    without = priced_lp(problem, start)
    with_cuts = priced_lp(problem, start, cut_rounds=3)
    assert without.bound >= 4.5 - TOL
    assert 4.0 - TOL <= with_cuts.bound <= 4.0 + TOL and with_cuts.cuts >= 1
    assert Portfolio(bnb_max_pairs=0).solve(problem).objective == 4.0


@settings(max_examples=25, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=12, min_vars=8, max_attributes=8, max_relations=16))
def test_portfolio_with_cuts_and_the_neighbourhood_stays_exact(pair):
    """Every component's LP priced, its neighbourhood solved, the LP cut before every
    elimination (the three thresholds lowered): the HiGHS MIP's optimum, an alignment worth
    what it reports.  (On pairs this small the LP mostly certifies: the neighbourhood and the
    cut elimination are exercised by their own tests.)"""
    from unittest import mock

    from oracle import rescore_array
    from smatchpp.alignment.solvers import HighsSolver
    from smatchpp.alignment.solvers import portfolio as portfolio_module

    a, b = pair
    problem = compile_pair(a, b)
    expected = HighsSolver().solve(problem)
    with mock.patch.object(portfolio_module, "PRICING_MIN_PAIRS", 0), \
            mock.patch.object(portfolio_module, "NEIGHBOURHOOD_MAX_PAIRS", 10**9), \
            mock.patch.object(portfolio_module, "CUT_STEP_PAIRS", 0):
        result = Portfolio(bnb_max_pairs=0).solve(problem)
    assert result.status == "optimal" and result.objective == expected.objective
    assert rescore_array(a, b, result.alignment) == result.objective


@SETTINGS
@given(graph_pairs(**SMALL), st.data())
def test_the_neighbourhood_gives_an_alignment_of_the_whole(pair, data):
    """Its value is the alignment's, at least the incumbent's and at most the optimum."""
    from smatchpp.alignment.solvers.base import Limits

    problem = compile_pair(*pair)
    if problem.n_pairs == 0:
        return
    start = drawn_mask(data, problem)
    lp = priced_lp(problem, start, max_rounds=data.draw(st.integers(1, 3)))
    incumbent = problem.alignment_from_pairs(lp.x > 0.999)
    lower = problem.objective(incumbent)
    best, _ = best_with_each_pair(problem)
    stats: Counter = Counter()
    found, value = Portfolio()._neighbourhood(problem, incumbent, lower, lp.x, lp.reduced,
                                              Limits(), stats)
    assert value == problem.objective(found)
    assert lower <= value <= best
    # a sub-solve that ran is counted in the pair's statistics (--stats), with its MIP's pairs
    assert stats["neighbourhood_pairs"] < problem.n_pairs  # a smaller problem, or none
    assert stats["neighbourhood_mip_pairs"] <= stats["neighbourhood_pairs"]


@SETTINGS
@given(graph_pairs(**SMALL), st.data())
def test_elimination_tightened_by_the_cut_lp_stays_exact(pair, data):
    """The elimination descent from the empty alignment, its LP cut before the first step
    (``tighten``, the threshold lowered to 0): the brute-force optimum, certified."""
    from collections import Counter
    from unittest import mock

    from smatchpp.alignment.solvers import portfolio as portfolio_module
    from smatchpp.alignment.solvers.base import Limits

    problem = compile_pair(*pair)
    if problem.n_pairs == 0 or not problem.integral:
        return
    best, _ = best_with_each_pair(problem)
    start = drawn_mask(data, problem)
    lp = priced_lp(problem, start)
    empty = np.full(problem.n_a, -1, dtype=np.int64)
    lower = problem.objective(empty)
    called = []

    def tighten(lower: float):
        called.append(lower)
        # as the portfolio does: going on from the priced LP itself (its last restricted LP)
        return priced_lp(problem, lp, lower=lower, settle=True, cut_rounds=5)

    with mock.patch.object(portfolio_module, "CUT_STEP_PAIRS", 0):
        result = Portfolio()._eliminate(problem, empty, lower, np.floor(lp.bound + 1e-6),
                                        lp.bound + np.minimum(lp.reduced, 0.0), Limits(),
                                        Counter(), tighten)
    assert result.status == "optimal" and result.objective == best
    assert problem.objective(result.alignment) == best
    assert len(called) <= 1


@SETTINGS
@given(graph_pairs(**SMALL), st.data())
def test_going_on_from_a_priced_lp_skips_its_last_solve(pair, data):
    """``priced_lp(problem, lp)`` takes ``lp``'s last restricted LP as its first round: the
    same bound and reduced costs as going on from its restricted set, one solve fewer, and
    still a bound of the optimum and of each pair's best alignment (brute force)."""
    from unittest import mock

    from smatchpp.alignment.solvers import pricing as pricing_module

    problem = compile_pair(*pair)
    if problem.n_pairs == 0:
        return
    start = drawn_mask(data, problem)
    lp = priced_lp(problem, start, max_rounds=data.draw(st.integers(1, 4)), settle=True)
    solves = []
    real = pricing_module.solve_lp

    def counted(*args, **kwargs):
        solves.append(1)
        return real(*args, **kwargs)

    with mock.patch.object(pricing_module, "solve_lp", counted):
        from_mask = priced_lp(problem, lp.restricted, settle=True, cut_rounds=3)
        by_mask = len(solves)
        from_lp = priced_lp(problem, lp, settle=True, cut_rounds=3)
    by_lp = len(solves) - by_mask
    assert by_lp == by_mask - (lp.last is not None)
    assert from_lp.bound == from_mask.bound and from_lp.cuts == from_mask.cuts
    np.testing.assert_array_equal(from_lp.reduced, from_mask.reduced)
    best, per_pair = best_with_each_pair(problem)
    scale = TOL * (1.0 + problem.unary.sum() + problem.weight.sum())
    assert from_lp.bound >= best - scale
    assert np.all(from_lp.bound + np.minimum(from_lp.reduced, 0.0) >= per_pair - scale)


def _six_cycles(copies: int) -> Problem:
    """``copies`` disjoint copies of :func:`_six_cycle`: LP ``4.5 * copies``, optimum ``4 * copies``."""
    one = _six_cycle()
    shift = np.arange(copies).repeat(one.n_pairs)
    return Problem(3 * copies, 3 * copies, np.tile(one.pair_a, copies) + 3 * shift,
                   np.tile(one.pair_b, copies) + 3 * shift, np.tile(one.unary, copies),
                   np.tile(one.edge_p, copies) + one.n_pairs * np.arange(copies),
                   np.tile(one.edge_q, copies) + one.n_pairs * np.arange(copies),
                   np.tile(one.weight, copies))


def test_cut_rounds_go_on_while_rows_pay_and_stop_when_they_do_not():
    """Three 6-cycles, rows handed out one at a time: each lowers the restricted LP by 1/2
    (without lowering the floored bound every time), so rounds go on until the optimum 12;
    rows that change nothing (the same row again) stop the rounds at once."""
    from unittest import mock

    from smatchpp.alignment.solvers import pricing as pricing_module

    problem = _six_cycles(3)
    assert abs(lp_bound(problem) - 13.5) <= TOL
    real = pricing_module.separate
    handed = []

    def one_at_a_time(*args):
        rows = real(*args)[:1]
        handed.append(len(rows))
        return rows

    start = np.zeros(problem.n_pairs, dtype=bool)
    start[[0, 4, 6, 10, 12, 16]] = True
    with mock.patch.object(pricing_module, "separate", one_at_a_time):
        result = priced_lp(problem, start, cut_rounds=10)
    assert abs(result.bound - 12.0) <= 1e-6 and result.cuts == 3 and handed.count(1) == 3
    first = []

    def the_same_row(*args):
        rows = real(*args)[:1] if not first else first[0]
        first.append(rows)
        return rows

    with mock.patch.object(pricing_module, "separate", the_same_row):
        result = priced_lp(problem, start, cut_rounds=10)
    # the first row pays (13.5 -> 13.0); handed again, it changes nothing: no third round
    assert len(first) == 2 and abs(result.bound - 13.0) <= 1e-6


@SETTINGS
@given(graph_pairs(**SMALL), st.data())
def test_price_out_goes_on_to_an_exact_lp_with_its_rows(pair, data):
    """``price_out``: settled and cut, then priced until no pair prices out positive (the
    result is exact), its bound and every pair's reach still above the brute-force best."""
    problem = compile_pair(*pair)
    if problem.n_pairs == 0:
        return
    start = drawn_mask(data, problem)
    lp = priced_lp(problem, start, max_rounds=data.draw(st.integers(1, 3)), settle=True)
    result = priced_lp(problem, lp, settle=True, cut_rounds=3, price_out=True)
    assert result.exact
    best, per_pair = best_with_each_pair(problem)
    scale = TOL * (1.0 + problem.unary.sum() + problem.weight.sum())
    assert result.bound >= best - scale
    assert np.all(result.bound + np.minimum(result.reduced, 0.0) >= per_pair - scale)

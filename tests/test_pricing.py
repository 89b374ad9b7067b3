"""The priced LP bound (``smatchpp.alignment.solvers.pricing``): valid from any start, the LP's value when priced out.

Brute force over every alignment of small compiled problems (integral and
fractional) gives the optimum and, for every candidate pair, the best value of
the alignments that use it: the bound and every pair's reduced-cost bound must
stay at or above them, after one round (no pricing: the restricted LP's duals
extended to the whole LP) and after pricing to the end, from random start
sets; by weak duality they must also stay at or above the LP's value (with the
pair chosen, for its reduced-cost bound).  Priced out, the bound must equal the
whole LP's.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.solvers.formulation import build
from smatchpp.alignment.solvers import highs as highs_module
from smatchpp.alignment.solvers.highs import lp_bound, solve_lp
from smatchpp.alignment.solvers import pricing as pricing_module
from smatchpp.alignment.solvers.pricing import priced_lp, restrict
from strategies import graph_pairs
from test_matchers import SMALL, _prepare, matchers

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)
TOL = 1e-6


def all_alignments(n_a: int, n_b: int):
    """Every injective partial map as an alignment array (-1: unmapped)."""
    for image in itertools.product(range(-1, n_b), repeat=n_a):
        used = [j for j in image if j >= 0]
        if len(used) == len(set(used)):
            yield np.array(image, dtype=np.int64)


def best_with_each_pair(problem):
    """The optimum, and for each pair the best value of the alignments that use it."""
    best = -np.inf
    per_pair = np.full(problem.n_pairs, -np.inf)
    for alignment in all_alignments(problem.n_a, problem.n_b):
        value = problem.objective(alignment)
        best = max(best, value)
        used = problem.selected(alignment)
        per_pair[used] = np.maximum(per_pair[used], value)
    return best, per_pair


def _lp_value(problem, fixed: int | None = None) -> float:
    """The LP relaxation's value, with pair ``fixed`` chosen (``x = 1``) if given."""
    h = highs_module._highs(build(problem), False, None, 1e-9)
    if fixed is not None:
        h.changeColBounds(fixed, 1.0, 1.0)
    h.run()
    if h.getModelStatus() == highs_module.highspy.HighsModelStatus.kInfeasible:
        return -np.inf
    return problem.constant + h.getInfo().objective_function_value


def _check(problem, result, best, per_pair):
    """Weak duality: at or above the LP's value, and each pair's reach above the LP with it chosen."""
    scale = TOL * (1.0 + np.abs(problem.unary).sum() + np.abs(problem.weight).sum())
    assert result.bound >= _lp_value(problem) - scale >= best - 2 * scale
    reach = result.bound + np.minimum(result.reduced, 0.0)
    assert np.all(reach >= per_pair - scale)
    for p in range(problem.n_pairs):
        assert reach[p] >= _lp_value(problem, p) - scale


@SETTINGS
@given(st.tuples(graph_pairs(**SMALL), matchers(), st.booleans()), st.data())
def test_priced_bound_is_valid_from_any_start(args, data):
    pair, matcher, legacy = args
    a, b = _prepare(pair, legacy)
    problem = compile_pair(a, b, matcher)
    if problem.n_pairs == 0:
        return
    # a random set, or the LP solution's support with one of its pairs left out:
    # then the restricted LP is below the whole LP, and only the extended duals
    # of the pairs outside keep the bound above it
    if data.draw(st.booleans()):
        start = np.array(data.draw(st.lists(st.booleans(), min_size=problem.n_pairs,
                                            max_size=problem.n_pairs)), dtype=bool)
    else:
        start = solve_lp(problem).x > 1e-9
        support = np.flatnonzero(start)
        if len(support):
            start[support[data.draw(st.integers(0, len(support) - 1))]] = False
    best, per_pair = best_with_each_pair(problem)
    one = priced_lp(problem, start, max_rounds=1)  # no pricing: extended duals only
    _check(problem, one, best, per_pair)
    full = priced_lp(problem, start)
    _check(problem, full, best, per_pair)
    assert full.exact
    assert abs(full.bound - lp_bound(problem)) <= TOL * (1.0 + abs(full.bound))


def _all_but_some_of_the_support(problem, which: int, count: int) -> np.ndarray:
    """Every pair but ``count`` of the LP solution's support (from its ``which``-th on).

    The restricted LP is then often below the whole LP, and only the extended
    duals of the pairs left out (their binary terms' cover above all, split
    between two pairs left out) keep the bound at or above it.
    """
    start = np.ones(problem.n_pairs, dtype=bool)
    support = np.flatnonzero(solve_lp(problem).x > 1e-9)
    if len(support):
        start[support[(which + np.arange(count)) % len(support)]] = False
    return start


@settings(max_examples=25, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=12, min_vars=8, max_attributes=8, max_relations=16),
       st.integers(0, 3), st.sampled_from([0, 1, 2]))
def test_priced_bounds_on_bigger_pairs(pair, seed, near):
    """Above the LP (with each pair chosen, for its reach) after one round; the LP once priced out."""
    problem = compile_pair(*pair)
    if problem.n_pairs == 0:
        return
    if near:
        start = _all_but_some_of_the_support(problem, seed, near)
    else:
        start = np.random.default_rng(seed).random(problem.n_pairs) < 0.2
    scale = TOL * (1.0 + problem.unary.sum() + problem.weight.sum())
    one = priced_lp(problem, start, max_rounds=1)
    assert one.bound >= _lp_value(problem) - scale
    reach = one.bound + np.minimum(one.reduced, 0.0)
    for p in np.flatnonzero(~start):
        assert reach[p] >= _lp_value(problem, p) - scale
    result = priced_lp(problem, start)
    assert result.exact
    assert abs(result.bound - lp_bound(problem)) <= 1e-6 * (1.0 + abs(result.bound))


def test_restrict_keeps_the_terms_among_kept_pairs():
    from smatchpp.api import compile_strings
    p = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
    keep = np.ones(p.n_pairs, dtype=bool)
    sub, index = restrict(p, keep)
    assert sub.n_edges == p.n_edges and index.tolist() == list(range(p.n_pairs))
    keep[index[0]] = False
    sub, _ = restrict(p, keep)
    assert sub.n_pairs == p.n_pairs - 1
    assert sub.n_edges == int((keep[p.edge_p] & keep[p.edge_q]).sum())


def _bigger_problem():
    from smatchpp.api import compile_strings
    return compile_strings(
        "(a / want-01 :ARG0 (b / boy) :ARG1 (c / go-02 :ARG0 b :ARG4 (d / city :name (n / name"
        " :op1 \"Rome\"))) :time (t / today))",
        "(x / want-01 :ARG0 (y / girl) :ARG1 (z / go-02 :ARG0 y :ARG4 (w / city :name (m / name"
        " :op1 \"Paris\"))) :time (u / today) :ARG2 (v / boy))")


def test_expired_limits_give_no_round():
    from smatchpp.alignment.solvers.base import Limits
    problem = _bigger_problem()
    start = np.zeros(problem.n_pairs, dtype=bool)
    assert priced_lp(problem, start, Limits(deadline=0.0, clock=lambda: 1.0)) is None


def test_a_deadline_during_a_round_ends_pricing_with_that_round(monkeypatch):
    """An injected clock passes the deadline while the first restricted LP runs."""
    from smatchpp.alignment.solvers import pricing
    from smatchpp.alignment.solvers.base import Limits
    problem = _bigger_problem()
    now = [0.0]
    real = pricing.solve_lp
    calls = []

    def late_lp(sub, **kwargs):
        calls.append(sub.n_pairs)
        result = real(sub, **kwargs)
        now[0] = 100.0  # the LP "took" past the deadline
        return result

    monkeypatch.setattr(pricing, "solve_lp", late_lp)
    start = np.zeros(problem.n_pairs, dtype=bool)
    result = priced_lp(problem, start, Limits(deadline=10.0, clock=lambda: now[0]))
    assert len(calls) == 1 and result.rounds == 1 and not result.exact
    assert result.bound >= lp_bound(problem) - 1e-6


@settings(max_examples=25, deadline=None, derandomize=True)
@given(graph_pairs(max_vars=12, min_vars=8, max_attributes=8, max_relations=16))
def test_portfolio_with_priced_lps_stays_exact(pair):
    """Every component's LP priced (the size threshold lowered to 0): the HiGHS MIP's optimum."""
    from unittest import mock

    from smatchpp.alignment.solvers import HighsSolver, Portfolio
    from smatchpp.alignment.solvers import portfolio as portfolio_module
    from oracle import rescore_array

    a, b = pair
    problem = compile_pair(a, b)
    expected = HighsSolver().solve(problem)
    calls = []
    real = portfolio_module.priced_lp

    def counted(*args, **kwargs):
        calls.append(args[0].n_pairs)
        return real(*args, **kwargs)

    with mock.patch.object(portfolio_module, "PRICING_MIN_PAIRS", 0), \
            mock.patch.object(portfolio_module, "priced_lp", counted):
        result = Portfolio(bnb_max_pairs=0).solve(problem)
    assert result.status == "optimal" and result.objective == expected.objective
    assert rescore_array(a, b, result.alignment) == result.objective
    if result.stage in ("lp", "mip"):
        assert calls  # the LP stage was reached: it was priced


def test_terms_between_two_pairs_outside_are_covered_by_halves():
    """Nothing in ``S``: each pair covers half of its binary term, and the bound is the LP's."""
    from smatchpp.api import compile_strings
    problem = compile_strings("(x / want-01 :ARG0 (y / boy))", "(u / want-01 :ARG0 (v / boy))")
    assert problem.n_pairs == 2 and problem.n_edges == 1
    one = priced_lp(problem, np.zeros(2, dtype=bool), max_rounds=1)
    total = problem.unary.sum() + problem.weight.sum()  # both pairs and the term: the optimum
    assert one.bound == pytest.approx(total) == pytest.approx(lp_bound(problem))
    assert one.reduced.tolist() == pytest.approx((problem.unary + 0.5 * problem.weight[0]).tolist())


@SETTINGS
@given(graph_pairs(**SMALL), st.data())
def test_settled_pricing_floors_to_the_lp_and_keeps_every_reach(pair, data):
    """``settle``: stopped once the floored bound cannot fall, it is the LP's floor, and every
    pair's reach still bounds the alignments that use it (integral problems)."""
    a, b = pair
    problem = compile_pair(a, b)
    if problem.n_pairs == 0 or not problem.integral:
        return
    start = np.array(data.draw(st.lists(st.booleans(), min_size=problem.n_pairs,
                                        max_size=problem.n_pairs)), dtype=bool)
    best, per_pair = best_with_each_pair(problem)
    settled = priced_lp(problem, start, settle=True)
    _check(problem, settled, best, per_pair)
    full = priced_lp(problem, start)
    assert settled.rounds <= full.rounds
    assert np.floor(settled.bound + 1e-6) == np.floor(lp_bound(problem) + 1e-6)


@SETTINGS
@given(graph_pairs(max_vars=8, min_vars=3, max_attributes=6, max_relations=10), st.data())
def test_cover_groups_sum_the_same_bits_as_sorting_each_round(pair, data):
    """``CoverGroups.cover`` (entries sorted once, inactive ones counted as 0) against the
    per-round sort of :func:`~smatchpp.alignment.solvers.bounds.group_max_sum` over the
    active entries only (the extension's earlier code): equal to the last bit."""
    from smatchpp.alignment.solvers.bounds import group_max_sum
    from smatchpp.alignment.solvers.pricing import CoverGroups

    problem = compile_pair(*pair)
    if problem.n_edges == 0:
        return
    outside = np.array(data.draw(st.lists(st.booleans(), min_size=problem.n_pairs,
                                          max_size=problem.n_pairs)), dtype=bool)
    share = np.array(data.draw(st.lists(st.floats(0.0, 4.0), min_size=problem.n_edges,
                                        max_size=problem.n_edges)))
    ep, eq = problem.edge_p, problem.edge_q
    live = share > 0
    ep, eq, s = ep[live], eq[live], share[live]
    out_p, out_q = outside[ep], outside[eq]
    owners = np.concatenate([ep[out_p], eq[out_q]])
    others = np.concatenate([eq[out_p], ep[out_q]])
    shares = np.concatenate([s[out_p], s[out_q]])
    width = max(problem.n_a, problem.n_b) + 1
    expected = np.minimum(
        group_max_sum(owners, problem.pair_a[others], shares, problem.n_pairs, width),
        group_max_sum(owners, problem.pair_b[others], shares, problem.n_pairs, width))
    got = CoverGroups(problem).cover(share, outside, problem.n_pairs)
    assert np.array_equal(got[outside], expected[outside])


@settings(max_examples=30, deadline=None, derandomize=True)
@given(graph_pairs(**SMALL), st.integers(0, 3),
       st.sampled_from([(1, 1e9, -1.0), (3, 1e9, -1.0), (3, 2.0, 0.5), (2, 0.5, 0.1)]))
def test_every_entering_rule_prices_out_to_the_lp(pair, seed, rule):
    """Which pairs enter (``ENTER_PER_VARIABLE``, ``ENTER_MORE``, ``ENTER_ALL``) moves
    pricing's path, never its bounds: each round above the LP (and each pair's reach above
    the LP with it chosen), and the LP once priced out."""
    problem = compile_pair(*pair)
    if problem.n_pairs == 0:
        return
    start = np.random.default_rng(seed).random(problem.n_pairs) < 0.2
    best, per_pair = best_with_each_pair(problem)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pricing_module, "ENTER_PER_VARIABLE", rule[0])
        patch.setattr(pricing_module, "ENTER_MORE", rule[1])
        patch.setattr(pricing_module, "ENTER_ALL", rule[2])
        for rounds in (1, 2, 3):
            _check(problem, priced_lp(problem, start, max_rounds=rounds), best, per_pair)
        result = priced_lp(problem, start)
    assert result.exact
    assert abs(result.bound - lp_bound(problem)) <= 1e-6 * (1.0 + abs(result.bound))

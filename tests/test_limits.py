"""Time limits as promises, and the document-scale pieces (issue 12).

No test here reads a wall clock: deadlines run on injected clocks, and "returns
at once" is checked by counting the expensive calls (LP, MIP), which must be
zero when the budget is.  Every result is checked against the brute-force
oracle: whatever a limit cuts off, the reported interval holds the optimum and
the alignment is worth its reported value.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import smatchpp.alignment.solvers.portfolio as portfolio_module
from oracle import brute_force, rescore_array
from smatchpp.alignment.sentences import sentence_drop, sentence_of
from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.solvers import Portfolio
from smatchpp.alignment.solvers.base import Limits
from smatchpp.alignment.solvers.bounds import sparse_assignment, star_bound
from smatchpp.alignment.solvers.hillclimber import MOVE_PASSES, climb
from smatchpp.graphs.triples import TripleGraph
from strategies import graph_pairs, triple_graphs

TINY = settings(max_examples=80, deadline=None, derandomize=True)


class Ticking:
    """A fake clock that advances ``step`` on every reading."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.readings = 0.0, step, 0

    def __call__(self) -> float:
        self.now += self.step
        self.readings += 1
        return self.now


@pytest.fixture
def no_lp_or_mip(monkeypatch):
    """Fail the test if the LP or a MIP is started."""
    def refuse(*args, **kwargs):
        raise AssertionError("an expensive stage ran with no budget left")
    monkeypatch.setattr(portfolio_module, "solve_lp", refuse)
    monkeypatch.setattr(portfolio_module.HighsSolver, "solve", refuse)


def _check_interval(result, a: TripleGraph, b: TripleGraph, optimum: int) -> None:
    assert result.objective <= optimum <= result.upper_bound, (result, optimum)
    assert rescore_array(a, b, result.alignment) == result.objective
    if result.status == "optimal":
        assert result.objective == optimum
    else:
        assert result.status == "time_limit"


def document(draw, n_sentences: int, max_vars: int, prefix: str) -> TripleGraph:
    """A random multi-sentence graph: a root with ``:snt1..`` over small random sentences."""
    names, concepts = [f"{prefix}0"], ["multi-sentence"]
    attributes, relations = [(0, "top", "top")], []
    for k in range(1, n_sentences + 1):
        g = draw(triple_graphs(max_vars=max_vars, max_relations=3, top=False,
                               name_prefix=f"{prefix}{k}_"))
        offset = len(names)
        names += g.variables
        concepts += g.concepts
        attributes += [(i + offset, r, v) for i, r, v in g.attributes]
        relations += [(i + offset, r, j + offset) for i, r, j in g.relations]
        relations.append((0, f"snt{k}", offset))
    return TripleGraph(tuple(names), tuple(concepts), tuple(attributes), tuple(relations))


@st.composite
def document_pairs(draw):
    return document(draw, 2, 2, "a"), document(draw, 2, 2, "b")


# --- a budget of zero: valid at once -------------------------------------------------------

@TINY
@given(graph_pairs())
def test_zero_budget_returns_valid_interval_without_lp_or_mip(pair):
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    with pytest.MonkeyPatch.context() as mp:
        def refuse(*args, **kwargs):
            raise AssertionError("an expensive stage ran with no budget left")
        mp.setattr(portfolio_module, "solve_lp", refuse)
        mp.setattr(portfolio_module.HighsSolver, "solve", refuse)
        result = Portfolio().solve_within(problem, Limits(deadline=0.0, clock=lambda: 1.0))
    _check_interval(result, a, b, optimum)


@TINY
@given(graph_pairs())
def test_zero_budget_big_path_returns_valid_interval(pair):
    """The path for big problems, forced on tiny ones, with no time at all."""
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(portfolio_module, "BIG_PAIRS", 0)
        mp.setattr(portfolio_module, "solve_lp", lambda *x, **k: (_ for _ in ()).throw(AssertionError))
        result = Portfolio().solve_within(problem, Limits(deadline=0.0, clock=lambda: 1.0))
    _check_interval(result, a, b, optimum)


def test_zero_budget_climb_takes_the_greedy_start_only():
    a = "(m / multi-sentence :snt1 (a / dog :ARG0-of (b / bark-01)) :snt2 (c / cat))"
    b = "(n / multi-sentence :snt1 (x / cat) :snt2 (y / bark-01 :ARG0 (z / dog)))"
    from smatchpp.api import compile_strings
    problem = compile_strings(a, b)
    clock = Ticking(1.0)
    alignment, value = climb(problem, 1, 4, math.inf, limits=Limits(deadline=0.0, clock=clock))
    assert value == problem.objective(alignment)
    assert clock.readings <= 2  # one look before climbing, one before the next start


# --- limits that run out part way: any point of expiry gives a valid interval ------------

@TINY
@given(document_pairs(), st.sampled_from([0.5, 1.0, 3.0, 1000.0]), st.booleans())
def test_expiring_clock_keeps_interval_valid(pair, step, big):
    """Deadline 10 on a clock that ticks ``step`` per reading: stages stop wherever it falls."""
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    with pytest.MonkeyPatch.context() as mp:
        if big:
            mp.setattr(portfolio_module, "BIG_PAIRS", 0)
        result = Portfolio().solve_within(problem, Limits(deadline=10.0, clock=Ticking(step)))
    _check_interval(result, a, b, optimum)


@TINY
@given(document_pairs())
def test_big_path_with_time_left_is_exact(pair):
    """With a clock that never moves, the big path reaches the optimum like the normal one."""
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(portfolio_module, "BIG_PAIRS", 0)
        result = Portfolio().solve_within(problem, Limits(deadline=10.0, clock=lambda: 0.0))
    assert result.status == "optimal" and result.objective == optimum


#: neither the star bound nor its branched form certifies the climber here (smallest such
#: pair hypothesis found): the LP must run
STAR_GAP = (TripleGraph(("v0", "v1", "v2"), ("a", "a", "a"), ((1, "op1", "-"), (0, "top", "top")), ()),
            TripleGraph(("w0", "w1", "w2"), ("a", "a", "b"), ((2, "op1", "-"), (0, "top", "top")), ()))


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(graph_pairs())
@example(STAR_GAP)
def test_big_path_leaves_the_lp_its_turn(pair):
    """The regression of lp-doc100: a climber that uses every move its limits allow must
    still leave the LP path its estimated time when that estimate fit before the climb.

    The clock ticks one pass per reading (the calibration pass reads it twice), so the
    compression + LP estimate is 128 readings; the deadline leaves room for it and the climb.
    Before the climber ran under :meth:`Limits.reserving`, it ate the time and the LP never started.
    """
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    real_climb = portfolio_module.climb
    lp_calls = []

    def hungry_climb(problem, *args, **kwargs):
        found = real_climb(problem, *args, **kwargs)
        if kwargs.get("greedy") is False:  # the big path's refining climb: it climbs
            while kwargs["limits"].affords(MOVE_PASSES * problem.n_pairs):  # until stopped
                pass
        return found

    real_lp = portfolio_module.solve_lp

    def counted_lp(*args, **kwargs):
        lp_calls.append(1)
        return real_lp(*args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(portfolio_module, "BIG_PAIRS", 0)
        mp.setattr(portfolio_module, "climb", hungry_climb)
        mp.setattr(portfolio_module, "solve_lp", counted_lp)
        clock = Ticking(1.0)
        result = Portfolio().solve_within(problem, Limits(deadline=1000.0, clock=clock))
    _check_interval(result, a, b, optimum)
    assert result.status == "optimal", (result, lp_calls)
    assert result.stage in ("star_bound", "lp", "mip")


# --- the sparse assignment and the sentences -------------------------------------------------

@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_sparse_assignment_equals_dense(n_a, n_b, data):
    from scipy.optimize import linear_sum_assignment
    cells = data.draw(st.lists(st.tuples(st.integers(0, n_a - 1), st.integers(0, n_b - 1)),
                               min_size=1, max_size=n_a * n_b, unique=True))
    values = data.draw(st.lists(st.integers(0, 9), min_size=len(cells), max_size=len(cells)))
    pa, pb = np.array([c[0] for c in cells]), np.array([c[1] for c in cells])
    v = np.array(values, dtype=float)
    dense = np.zeros((n_a, n_b))
    dense[pa, pb] = v
    r, c = linear_sum_assignment(dense, maximize=True)
    assert sparse_assignment(n_a, n_b, pa, pb, v) == pytest.approx(dense[r, c].sum())


@TINY
@given(graph_pairs())
def test_sparse_star_bound_equals_dense_and_bounds_optimum(pair):
    import smatchpp.alignment.solvers.bounds as bounds
    a, b = pair
    problem = compile_pair(a, b)
    dense = star_bound(problem, assignment=True)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bounds, "_DENSE_LIMIT", 0)
        sparse = star_bound(problem, assignment=True)
    assert sparse == dense >= brute_force(a, b)


@TINY
@given(document_pairs())
def test_sentence_start_is_a_valid_alignment(pair):
    a, b = pair
    problem = compile_pair(a, b)
    assert problem.sentence_a is not None and problem.sentence_b is not None
    assert problem.sentence_a.tolist() == sentence_of(a).tolist()
    alignment = Portfolio()._sentence_start(problem, Limits())
    assert len(set(j for j in alignment.tolist() if j >= 0)) == int(np.sum(alignment >= 0))
    value = problem.objective(alignment)
    assert rescore_array(a, b, alignment) == value <= brute_force(a, b)
    drop = sentence_drop(problem.pair_a, problem.pair_b, problem.unary, problem.sentence_a, problem.sentence_b)
    assert not (problem.selected(alignment) & drop).any()  # the start stays inside matched sentence pairs


def test_sentences_follow_snt_order_not_position():
    from smatchpp.api import parse_graph
    g = parse_graph("(m / multi-sentence :snt2 (a / dog) :snt1 (b / cat :mod (c / big)))")
    assert sentence_of(g).tolist() == [-1, 1, 0, 0]


def test_no_limit_changes_nothing():
    """Without a deadline the big path is never taken, whatever the size."""
    assert Limits().affords(1e18)
    assert portfolio_module.BIG_PAIRS > 0


# --- the branched star bound ------------------------------------------------------------------

@TINY
@given(graph_pairs())
def test_branch_star_bound_bounds_the_optimum(pair):
    from smatchpp.alignment.solvers.bounds import branch_star_bound
    a, b = pair
    problem = compile_pair(a, b)
    assert branch_star_bound(problem) >= brute_force(a, b)


@TINY
@given(document_pairs())
def test_branch_star_bound_on_documents(pair):
    from smatchpp.alignment.solvers.bounds import branch_star_bound, fix_pair
    a, b = pair
    problem = compile_pair(a, b)
    optimum = brute_force(a, b)
    assert branch_star_bound(problem) >= optimum
    # each branch's problem is exactly the solutions that map the variable that way
    v = int(problem.pair_a[0])
    best = max(Portfolio().solve(fix_pair(problem, p, v)).objective
               for p in [None, *np.flatnonzero(problem.pair_a == v).tolist()])
    assert best == optimum


@TINY
@given(graph_pairs(), st.integers(0, 3))
def test_climber_with_sparse_pair_lookup_is_unchanged(pair, seed):
    """The sorted-key lookup (big problems) gives the same climb as the dense table."""
    import smatchpp.alignment.solvers.hillclimber as hc
    a, b = pair
    problem = compile_pair(a, b)
    dense = climb(problem, seed, 2)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(hc, "DENSE_LIMIT", 0)
        sparse = climb(problem, seed, 2)
    assert dense[1] == sparse[1] and dense[0].tolist() == sparse[0].tolist()


def test_lp_stops_early_enough_to_return_by_the_deadline(monkeypatch):
    """HiGHS is told to stop LP_STOP_PASSES before the deadline (it returns late by up to that)."""
    import smatchpp.alignment.solvers.highs as highs_module
    from smatchpp.api import compile_strings
    problem = compile_strings("(a / dog :ARG0-of (b / bark-01) :mod (c / big))",
                              "(x / bark-01 :ARG0 (y / dog :mod (z / big)))")
    seen = []
    real_set = highs_module._set

    def recording_set(h, name, value):
        if name == "time_limit":
            seen.append(value)
        real_set(h, name, value)

    monkeypatch.setattr(highs_module, "_set", recording_set)
    limits = Limits(deadline=100.0, clock=lambda: 10.0, seconds_per_pair=0.01)
    assert highs_module.solve_lp(problem, time_limit=limits.time_left(), limits=limits) is not None
    stop = 0.01 * highs_module.LP_STOP_PASSES * problem.n_pairs
    assert seen[-1] == pytest.approx(90.0 - stop)
    # no time for it: HiGHS still gets its minimum and the duals still bound
    seen.clear()
    late = Limits(deadline=100.0, clock=lambda: 100.0 - stop / 2, seconds_per_pair=0.01)
    solved = highs_module.solve_lp(problem, time_limit=late.time_left(), limits=late)
    assert seen[-1] == 0.01 and (solved is None or solved.bound >= 3.0)


# --- a big problem whose time compiling has used up (issue 22, item 20) -----------------------

def _refuse(*args, **kwargs):
    raise AssertionError("a bound ran after the time was gone")


@TINY
@given(document_pairs(), st.sampled_from([0.0, 1e-9]))
def test_big_problem_without_time_for_a_pass_gets_greedy_and_label_bound_only(pair, left):
    """The deadline has passed (``left`` 0), or leaves less than one pass at the prior rate:
    no star bound (before, its calibration pass always ran: 1.1 s on 4.5M pairs, after the
    deadline), no branched bound, one climber start; the interval is still valid."""
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    starts = []
    real_climb = portfolio_module.climb

    def counted_climb(*args, **kwargs):
        starts.append(kwargs.get("greedy", True))
        return real_climb(*args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(portfolio_module, "BIG_PAIRS", 0)
        mp.setattr(portfolio_module, "star_bound", _refuse)
        mp.setattr(portfolio_module, "branch_star_bound", _refuse)
        mp.setattr(portfolio_module, "climb", counted_climb)
        result = Portfolio().solve_within(problem, Limits(deadline=left, clock=lambda: 0.0))
    _check_interval(result, a, b, optimum)
    assert starts == [True]
    assert result.upper_bound == max(problem.label_bound, result.objective)


@TINY
@given(document_pairs())
def test_big_problem_whose_deadline_falls_during_the_bounds_does_not_climb_again(pair):
    """The deadline passes during the first star bound: before, the refining climb still
    built its tables and took its start (1.4 s on 4.5M pairs) after the deadline."""
    a, b = pair
    optimum = brute_force(a, b)
    problem = compile_pair(a, b)
    now = [0.0]
    real_star = portfolio_module.star_bound
    refining = []
    real_climb = portfolio_module.climb

    def late_star(*args, **kwargs):
        found = real_star(*args, **kwargs)
        now[0] = 100.0  # the deadline (10) passes during the bound
        return found

    def counted_climb(*args, **kwargs):
        if kwargs.get("greedy") is False:
            refining.append(1)
        return real_climb(*args, **kwargs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(portfolio_module, "BIG_PAIRS", 0)
        mp.setattr(portfolio_module, "star_bound", late_star)
        mp.setattr(portfolio_module, "climb", counted_climb)
        result = Portfolio().solve_within(problem, Limits(deadline=10.0, clock=lambda: now[0]))
    _check_interval(result, a, b, optimum)
    assert refining == []

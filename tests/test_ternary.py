"""Ternary terms (clauses over three variables, as in DRS): every solver path against brute force.

The oracles (``tests/oracle.py``) enumerate every alignment: ``clause_brute_force``
counts matched clauses from the clause lists alone (nothing of the compiler),
``problem_brute_force`` takes the best ``Problem.objective`` (for problems made
directly from terms, fractional weights included).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import clause_brute_force, clause_matched, partial_maps, problem_brute_force
from smatchpp.api import compile_strings
from smatchpp.alignment.clauses import compile_clauses
from smatchpp.alignment.compression.exact import compress
from smatchpp.alignment.problem import Problem
from smatchpp.alignment.solvers import CbcSolver, HighsSolver, Portfolio
from smatchpp.alignment.solvers.bnb import branch_and_bound
from smatchpp.alignment.solvers.bounds import (branch_star_bound, fix_pair, lagrangian_star_bound,
                                     pair_potential, star_bound)
from smatchpp.alignment.solvers.compressed import Compressing
from smatchpp.alignment.solvers.formulation import build, start_values
from smatchpp.alignment.solvers.highs import lp_bound, solve_lp
from smatchpp.alignment.solvers.hillclimber import climb
from smatchpp.alignment.solvers.pricing import priced_lp
from smatchpp.alignment.solvers.symmetry import canonical, interchangeable

TINY = settings(max_examples=40, deadline=None, derandomize=True)
LABELS = ("p", "q", "r")


@st.composite
def clause_lists(draw, n: int, min_clauses: int = 0, max_clauses: int = 9):
    """Clauses over ``range(n)``: mostly three distinct variables, some repeats and fewer."""
    out = []
    for _ in range(draw(st.integers(min_clauses, max_clauses))):
        arity = draw(st.sampled_from((3, 3, 3, 2, 1, 0)))
        if arity and draw(st.booleans()) and n >= arity:
            variables = tuple(draw(st.permutations(range(n)))[:arity])
        else:
            variables = tuple(draw(st.integers(0, n - 1)) for _ in range(arity))
        out.append((draw(st.sampled_from(LABELS)), variables))
    return out


@st.composite
def clause_pairs(draw, max_vars: int = 5, kinds: bool | None = None):
    """Two clause lists; B shares a renamed part of A's clauses, so that much can match."""
    n_a = draw(st.integers(3, max_vars))
    n_b = draw(st.integers(3, max_vars))
    a = draw(clause_lists(n_a, 3))
    # mostly a renaming (a permutation), sometimes one that merges variables
    rename = draw(st.one_of(st.permutations(range(max(n_a, n_b))).map(lambda r: [v % n_b for v in r]),
                            st.lists(st.integers(0, n_b - 1), min_size=n_a, max_size=n_a)))
    shared = [c for c in a if draw(st.integers(0, 3))]
    b = [(label, tuple(rename[v] for v in vs)) for label, vs in shared] + draw(clause_lists(n_b, 5))
    if kinds is None:
        kinds = draw(st.booleans())
    kind_a = kind_b = None
    if kinds:
        kind_a = "".join(draw(st.sampled_from("bx")) for _ in range(n_a))
        kind_b = "".join(draw(st.sampled_from("bx")) for _ in range(n_b))
    symmetric = frozenset(draw(st.sets(st.sampled_from(LABELS), max_size=2)))
    return a, b, n_a, n_b, kind_a, kind_b, symmetric


@st.composite
def ternary_problems(draw, max_vars: int = 5, fractional: bool | None = None):
    """A :class:`Problem` straight from random unary, binary and ternary terms."""
    n_a = draw(st.integers(3, max_vars))
    n_b = draw(st.integers(3, max_vars))
    if fractional is None:
        fractional = draw(st.booleans())
    weight = (st.floats(0.05, 3.0, allow_nan=False) if fractional
              else st.integers(1, 3).map(float))

    def terms(arity, most):
        rows = draw(st.lists(st.tuples(*([st.integers(0, n_a - 1), st.integers(0, n_b - 1)] * arity),
                                       weight), max_size=most))
        return tuple(np.array([r[c] for r in rows]) for c in range(2 * arity + 1))

    tern = []
    for _ in range(draw(st.integers(2, 12))):
        va = draw(st.permutations(range(n_a)))[:3]
        vb = draw(st.permutations(range(n_b)))[:3]
        tern.append((va[0], vb[0], va[1], vb[1], va[2], vb[2], draw(weight)))
    ternary = tuple(np.array([t[c] for t in tern]) for c in range(7))
    return Problem.from_terms(n_a, n_b, unary=terms(1, 6), binary=terms(2, 6), ternary=ternary)


def _problem(case) -> tuple[Problem, int]:
    a, b, n_a, n_b, kind_a, kind_b, symmetric = case
    return (compile_clauses(a, b, n_a, n_b, kind_a, kind_b, symmetric),
            clause_brute_force(a, b, n_a, n_b, kind_a, kind_b, symmetric))


def _close(x: float, y: float, problem: Problem) -> bool:
    return abs(x - y) <= (1e-9 if problem.integral else problem.tolerance)


# ---------------------------------------------------------------------------
# the compiled problem


def test_ternary_invariants_and_the_terms_of_a_clause():
    a = [("Agent", (0, 1, 2)), ("Agent", (0, 1, 2)), ("REF", (0, 2)), ("EQU", (1, 1))]
    b = [("Agent", (2, 0, 1)), ("REF", (2, 1)), ("EQU", (0, 0)), ("EQU", (0, 1))]
    p = compile_clauses(a, b, 3, 3)
    assert p.n_ternary == 1 and p.tri_weight.tolist() == [1.0]  # min(2, 1)
    pairs = {(int(p.pair_a[t]), int(p.pair_b[t])) for t in
             (p.tri_p[0], p.tri_q[0], p.tri_r[0])}
    assert pairs == {(0, 2), (1, 0), (2, 1)}
    assert p.objective(np.array([2, 0, 1])) == 3.0  # Agent once, REF, EQU x x
    assert p.label_bound == 3.0  # Agent 1 + REF 1 + EQU 1
    assert clause_matched(a, b, {0: 2, 1: 0, 2: 1}) == 3


@TINY
@given(clause_pairs())
def test_problem_objective_is_the_clause_count(case):
    a, b, n_a, n_b, kind_a, kind_b, symmetric = case
    problem = compile_clauses(a, b, n_a, n_b, kind_a, kind_b, symmetric)
    assert np.all(problem.tri_p < problem.tri_q) and np.all(problem.tri_q < problem.tri_r)
    for x, y in ((problem.tri_p, problem.tri_q), (problem.tri_p, problem.tri_r),
                 (problem.tri_q, problem.tri_r)):
        assert np.all(problem.pair_a[x] != problem.pair_a[y])
        assert np.all(problem.pair_b[x] != problem.pair_b[y])
    keys = set(zip(problem.tri_p.tolist(), problem.tri_q.tolist(), problem.tri_r.tolist()))
    assert len(keys) == problem.n_ternary
    for mapping in partial_maps(n_a, n_b):
        if kind_a is not None and any(kind_a[i] != kind_b[j] for i, j in mapping.items()):
            continue
        alignment = np.full(n_a, -1, dtype=np.int64)
        for i, j in mapping.items():
            alignment[i] = j
        assert problem.objective(alignment) == clause_matched(a, b, mapping, symmetric)
    if kind_a is not None:
        assert all(kind_a[i] == kind_b[j] for i, j in zip(problem.pair_a, problem.pair_b))


def test_symmetric_labels_match_either_way_round():
    a = [("EQU", (0, 1, 2)), ("EQU", (0, 2, 1)), ("Agent", (0, 1, 2))]
    b = [("EQU", (0, 1, 2)), ("Agent", (0, 2, 1))]
    plain = compile_clauses(a, b, 3, 3)
    sym = compile_clauses(a, b, 3, 3, symmetric={"EQU"})
    # identity: EQU (twice in A up to order, once in B) matches once; Agent needs 1 <-> 2
    assert plain.objective(np.array([0, 1, 2])) == 1.0 == sym.objective(np.array([0, 1, 2]))
    assert plain.objective(np.array([0, 2, 1])) == 2.0 == sym.objective(np.array([0, 2, 1]))
    assert Portfolio().solve(sym).objective == 2.0 == clause_brute_force(a, b, 3, 3, symmetric={"EQU"})
    # a repeated last two never matches two distinct ones, either way round
    assert compile_clauses([("EQU", (0, 1, 1))], [("EQU", (0, 1, 2))], 3, 3, symmetric={"EQU"}).n_pairs == 0


def test_kinds_and_clause_errors():
    with pytest.raises(ValueError, match="clause 1 of A has 4 variables"):
        compile_clauses([("p", (0,)), ("p", (0, 1, 2, 3))], [], 4, 4)
    with pytest.raises(ValueError, match="clause 0 of B names a variable outside 0..1"):
        compile_clauses([], [("p", (2,))], 2, 2)
    with pytest.raises(ValueError, match="both sides"):
        compile_clauses([], [], 1, 1, kind_a="b")
    # a box never aligns with a referent: the only match would need b -> x
    p = compile_clauses([("REF", (0, 1))], [("REF", (1, 0))], 2, 2, "bx", "bx")
    assert p.n_pairs == 0 and Portfolio().solve(p).objective == 0.0


# ---------------------------------------------------------------------------
# exact solvers = brute force


@TINY
@given(clause_pairs())
def test_exact_solvers_equal_the_clause_oracle(case):
    problem, optimum = _problem(case)
    for solver in (Portfolio(), Portfolio(compress_min_pairs=0), HighsSolver(),
                   HighsSolver(symmetry=False), HighsSolver(linking="pairwise"),
                   Compressing(HighsSolver())):
        result = solver.solve(problem)
        assert (result.status, result.objective) == ("optimal", optimum), solver
        assert problem.objective(result.alignment) == optimum


@settings(max_examples=15, deadline=None, derandomize=True)
@given(clause_pairs(max_vars=4))
def test_cbc_equals_highs(case):
    problem, optimum = _problem(case)
    result = CbcSolver().solve(problem)
    assert (result.status, result.objective) == ("optimal", optimum)
    assert HighsSolver().solve(problem).objective == optimum


@TINY
@given(ternary_problems())
def test_fractional_problems_equal_brute_force(problem):
    optimum = problem_brute_force(problem)
    for solver in (Portfolio(), Portfolio(compress_min_pairs=0), HighsSolver(),
                   Compressing(HighsSolver())):
        result = solver.solve(problem)
        assert result.status == "optimal", solver
        assert _close(result.objective, optimum, problem), (solver, result.objective, optimum)
        assert result.upper_bound >= optimum - problem.tolerance


@settings(max_examples=15, deadline=None, derandomize=True)
@given(ternary_problems())
def test_cbc_equals_highs_on_fractional_problems(problem):
    optimum = problem_brute_force(problem)
    assert _close(CbcSolver().solve(problem).objective, optimum, problem)
    assert _close(HighsSolver().solve(problem).objective, optimum, problem)


def test_the_branch_and_bound_searches_the_binary_relaxation():
    a = [("Agent", (0, 1, 2)), ("REF", (0, 1)), ("REF", (0, 2))]
    problem = compile_clauses(a, a, 3, 3)
    with pytest.raises(ValueError, match="no ternary terms"):
        branch_and_bound(problem)
    with pytest.raises(ValueError, match="no ternary terms"):
        priced_lp(problem, np.ones(problem.n_pairs, dtype=bool))
    # a self-match: the relaxation's optimum is the problem's, certified there
    result = Portfolio().solve(problem)
    assert (result.status, result.objective, result.stage) == ("optimal", 3.0, "branch_and_bound")
    # here the relaxation is worth one more: 2 -> 3 earns u, v and w and keeps two pairs of
    # each of the three terms (1/3 each), 4 in all, while the optimum is 3 (the three terms,
    # or u, v and w): not certified by it, the later steps find the optimum
    b = [("p", (0, 1, 2)), ("q", (0, 1, 2)), ("r", (0, 1, 2)), ("u", (2,)), ("v", (2,)), ("w", (2,))]
    c = [("p", (0, 1, 2)), ("q", (0, 1, 2)), ("r", (0, 1, 2)), ("u", (3,)), ("v", (3,)), ("w", (3,))]
    problem = compile_clauses(b, c, 3, 4)
    optimum = clause_brute_force(b, c, 3, 4)
    assert optimum == 3 and branch_and_bound(problem.binary_relaxation()).upper >= optimum + 1
    result = Portfolio().solve(problem)
    assert (result.status, result.objective) == ("optimal", optimum)
    assert result.stage != "branch_and_bound"


# ---------------------------------------------------------------------------
# bounds, the climber, the LP's reduced costs


@TINY
@given(st.one_of(clause_pairs().map(lambda c: _problem(c)[0]), ternary_problems()))
def test_every_bound_bounds_the_optimum(problem):
    optimum = problem_brute_force(problem)
    slack = 1e-9
    assert problem.label_bound >= optimum - slack
    stars = (star_bound(problem, assignment=True), star_bound(problem, assignment=False),
             branch_star_bound(problem), lagrangian_star_bound(problem, iterations=10))
    for bound in stars + (lp_bound(problem), lp_bound(problem, linking="pairwise")):
        assert bound >= optimum - 1e-7
    if problem.integral:  # floored, though the relaxation's weights are thirds
        assert all(float(bound).is_integer() for bound in stars)
    # the relaxation bounds every alignment, and so does the star potential's assignment
    relaxed = problem.binary_relaxation()
    assert relaxed.n_ternary == 0 and len(pair_potential(problem)) == problem.n_pairs
    for mapping in itertools.islice(partial_maps(problem.n_a, problem.n_b), 200):
        alignment = np.full(problem.n_a, -1, dtype=np.int64)
        for i, j in mapping.items():
            alignment[i] = j
        assert relaxed.objective(alignment) >= problem.objective(alignment) - slack


@TINY
@given(st.one_of(clause_pairs().map(lambda c: _problem(c)[0]), ternary_problems()),
       st.integers(0, 3))
def test_climber_is_a_local_optimum_below_the_optimum(problem, seed):
    optimum = problem_brute_force(problem)
    alignment, value = climb(problem, seed, restarts=2)
    assert value == problem.objective(alignment) and value <= optimum + 1e-9
    # no move of the climber improves it (assign i -> j; and the swap, where i's old partner
    # goes to the variable that had j): the move gains, ternary terms included, are exact
    candidates = set(zip(problem.pair_a.tolist(), problem.pair_b.tolist()))
    for p in range(problem.n_pairs):
        i, j = int(problem.pair_a[p]), int(problem.pair_b[p])
        moved = alignment.copy()
        moved[moved == j] = -1
        moved[i] = j
        assert problem.objective(moved) <= value + 1e-6
        owner = np.flatnonzero(alignment == j)
        if len(owner) and owner[0] != i and (int(owner[0]), int(alignment[i])) in candidates:
            moved[owner[0]] = alignment[i]
            assert problem.objective(moved) <= value + 1e-6


@TINY
@given(st.one_of(clause_pairs().map(lambda c: _problem(c)[0]), ternary_problems(fractional=False)))
def test_lp_reduced_costs_bound_every_solution_through_a_pair(problem):
    lp = solve_lp(problem)
    assert lp is not None
    best_with: dict = {}
    for mapping in partial_maps(problem.n_a, problem.n_b):
        alignment = np.full(problem.n_a, -1, dtype=np.int64)
        for i, j in mapping.items():
            alignment[i] = j
        value = problem.objective(alignment)
        for i, j in mapping.items():
            best_with[(i, j)] = max(best_with.get((i, j), 0.0), value)
    for p, (i, j) in enumerate(zip(problem.pair_a.tolist(), problem.pair_b.tolist())):
        assert lp.bound + min(lp.reduced[p], 0.0) >= best_with[(i, j)] - 1e-6


@TINY
@given(ternary_problems(fractional=False))
def test_fix_pair_keeps_the_value_of_its_branch(problem):
    if problem.n_pairs == 0:
        return
    variable = int(problem.pair_a[0])
    for p in [None, *np.flatnonzero(problem.pair_a == variable).tolist()]:
        fixed = fix_pair(problem, p, variable)
        best = -np.inf
        for mapping in partial_maps(problem.n_a, problem.n_b):
            if mapping.get(variable, -1) != (-1 if p is None else int(problem.pair_b[p])):
                continue
            alignment = np.full(problem.n_a, -1, dtype=np.int64)
            for i, j in mapping.items():
                alignment[i] = j
            best = max(best, problem.objective(alignment))
        assert problem_brute_force(fixed) == best


def test_start_values_are_a_feasible_mip_start():
    a = [("Agent", (0, 1, 2)), ("REF", (0, 1)), ("Theme", (0, 2, 1))]
    problem = compile_clauses(a, a, 3, 3)
    model = build(problem)
    assert model.n_y == problem.n_edges + problem.n_ternary
    values = start_values(problem, np.array([0, 1, 2]))
    rows = np.repeat(np.arange(model.n_rows), np.diff(model.row_start))
    activity = np.bincount(rows, weights=model.row_value * values[model.row_index],
                           minlength=model.n_rows)
    assert np.all(activity <= model.row_upper + 1e-12)
    assert model.cost @ values == problem.objective(np.array([0, 1, 2])) == 3.0


# ---------------------------------------------------------------------------
# compression


@TINY
@given(st.one_of(clause_pairs(kinds=False).map(lambda c: _problem(c)[0]),
                 ternary_problems(fractional=False)))
def test_compression_keeps_the_optimum(problem):
    optimum = problem_brute_force(problem)
    reduced = compress(problem)
    parts = [HighsSolver().solve(part.problem) for part in reduced.parts]
    assert reduced.constant + sum(r.objective for r in parts) == optimum
    assert problem.objective(reduced.lift([r.alignment for r in parts])) == optimum
    # and with the pairs the LP's reduced costs rule out against an incumbent (rule 5)
    alignment, lower = climb(problem, 1, restarts=1)
    lp = solve_lp(problem)
    drop = (lp.bound + np.minimum(lp.reduced, 0.0) < lower + 1 - 1e-6) & ~problem.selected(alignment)
    reduced = compress(problem, drop)
    parts = [HighsSolver().solve(part.problem) for part in reduced.parts]
    lifted = problem.objective(reduced.lift([r.alignment for r in parts]))
    assert max(lifted, lower) == optimum


def test_a_fixed_pair_turns_a_ternary_term_into_a_binary_one():
    # (0, 0) is the only candidate of both its variables: fixed; the term of (0,0), (1,1),
    # (2,2) becomes a binary term of (1,1) and (2,2), which (1,2), (2,1) compete with
    a = [("Agent", (0, 1, 2)), ("p", (1,)), ("p", (2,))]
    b = [("Agent", (0, 1, 2)), ("p", (1,)), ("p", (2,))]
    problem = compile_clauses(a, b, 3, 3)
    reduced = compress(problem)
    assert len(reduced.fixed) == 1 and reduced.constant == 0.0
    (part,) = reduced.parts
    assert part.problem.n_ternary == 0 and part.problem.weight.tolist() == [1.0]
    assert Portfolio(compress_min_pairs=0).solve(problem).objective == 3.0


# ---------------------------------------------------------------------------
# symmetry


def _with_clone(clauses, n, v):
    """``clauses`` with variable ``v`` copied as variable ``n``: the two are interchangeable."""
    return clauses + [(label, tuple(n if x == v else x for x in vs))
                      for label, vs in clauses if v in vs]


@TINY
@given(clause_pairs(max_vars=4, kinds=False), st.data())
def test_symmetry_classes_are_automorphisms_and_the_mip_stays_exact(case, data):
    a, b, n_a, n_b, _, _, _ = case
    a = _with_clone(a, n_a, data.draw(st.integers(0, n_a - 1)))
    b = _with_clone(b, n_b, data.draw(st.integers(0, n_b - 1)))
    n_a, n_b = n_a + 1, n_b + 1
    problem = compile_clauses(a, b, n_a, n_b)
    symmetry = interchangeable(problem)
    maps = list(partial_maps(n_a, n_b))
    for side, classes in (("a", symmetry.a), ("b", symmetry.b)):
        for cls in classes:
            x, y = int(cls[0]), int(cls[1])
            for mapping in maps:
                if side == "a":
                    swapped = {({x: y, y: x}.get(i, i)): j for i, j in mapping.items()}
                else:
                    swapped = {i: {x: y, y: x}.get(j, j) for i, j in mapping.items()}
                assert clause_matched(a, b, mapping) == clause_matched(a, b, swapped)
    optimum = clause_brute_force(a, b, n_a, n_b)
    start = climb(problem, 0, restarts=0)[0]
    moved = canonical(problem, start, symmetry)
    assert problem.objective(moved) == problem.objective(start)
    for result in (HighsSolver().solve(problem), HighsSolver().solve(problem, warm_start=start)):
        assert (result.status, result.objective) == ("optimal", optimum)


def test_clones_with_ternary_terms_are_found():
    a = [("Agent", (0, 1, 2))]
    a = _with_clone(a, 3, 2)  # two referents in the same role of the same event
    problem = compile_clauses(a, a, 4, 4)
    symmetry = interchangeable(problem)
    assert [c.tolist() for c in symmetry.a] == [[2, 3]]
    assert HighsSolver().solve(problem).objective == 2.0


# ---------------------------------------------------------------------------
# AMR: no ternary terms, the model as before


def test_amr_problems_have_no_ternary_terms():
    problem = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
    assert problem.n_ternary == 0 and problem.binary_relaxation() is problem
    model = build(problem)
    assert model.n_y == problem.n_edges
    assert len(start_values(problem, np.array([1, 0]))) == problem.n_pairs + problem.n_edges


@settings(max_examples=10, deadline=None, derandomize=True)
@given(clause_pairs())
def test_every_registered_solver_takes_ternary_terms(case):
    from smatchpp.alignment.solvers import SOLVERS, get_solver

    problem, optimum = _problem(case)
    for name in SOLVERS:
        for compression in (True, False):
            result = get_solver(name, compression=compression).solve(problem)
            assert problem.objective(result.alignment) == result.objective <= optimum
            assert result.upper_bound >= optimum
            if name != "hillclimber":
                assert (result.status, result.objective) == ("optimal", optimum), name


# ---------------------------------------------------------------------------
# limits: any point of expiry gives a valid interval; the big path reaches the optimum


class _Ticking:
    """A clock that moves ``step`` at every reading."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@TINY
@given(clause_pairs(), st.sampled_from([0.5, 1.0, 3.0, 1000.0]), st.booleans())
def test_expiring_limits_keep_the_interval_valid(case, step, big):
    from smatchpp.alignment.solvers import portfolio as portfolio_module
    from smatchpp.alignment.solvers.base import Limits

    problem, optimum = _problem(case)
    with pytest.MonkeyPatch.context() as mp:
        if big:  # the big-problem path: branched and Lagrangian star bounds, climber, LP, MIP
            mp.setattr(portfolio_module, "BIG_PAIRS", 0)
        result = Portfolio().solve_within(problem, Limits(deadline=10.0, clock=_Ticking(step)))
        exact = Portfolio().solve_within(problem, Limits(deadline=10.0, clock=lambda: 0.0))
    assert problem.objective(result.alignment) == result.objective <= optimum <= result.upper_bound
    if result.status == "optimal":
        assert result.objective == optimum
    assert (exact.status, exact.objective) == ("optimal", optimum)

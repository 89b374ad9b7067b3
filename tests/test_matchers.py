"""Weighted and soft matchers against the brute-force oracle, and their properties.

* the compiled objective of any alignment equals the oracle's from-scratch
  value, under random fractional role weights, WSMATCH levels, focus weights
  and a random soft concept similarity (with and without soft TOP triples);
* the exact solvers reach the oracle's optimum and certify it; the label and
  star bounds stay above it; HiGHS and CBC agree on fractional objectives;
* soft matching only adds (S2Match >= Smatch), self-match is 1 under every
  matcher, swapping A and B swaps precision and recall, and zero weights on
  all roles but one give that role's Smatch.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force, partial_maps, weighted_brute_force, weighted_value
from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.matchers import ExactMatcher
from smatchpp.core.exceptions import SmatchppError
from smatchpp.alignment.matchers import MATCHERS, WeightedMatcher, build_matcher
from smatchpp.alignment.matchers.general import soft_top, unit_weights
from smatchpp.alignment.matchers.levels import focus_weights, level_weights
from smatchpp.alignment.score import prf
from smatchpp.alignment.solvers import CbcSolver, HighsSolver, Portfolio
from smatchpp.alignment.solvers.bounds import star_bound
from smatchpp.graphs.triples import TripleGraph
from strategies import CONCEPTS, graph_pairs, triple_graphs

PROPS = settings(max_examples=60, deadline=None, derandomize=True)
#: the oracle tests: enough examples that weights of a triple differ between A and B often
ORACLE = settings(max_examples=200, deadline=None, derandomize=True)
SMALL = dict(min_vars=2, max_vars=4, max_attributes=3, max_relations=4)
EXACT = Portfolio()


class TableSimilarity:
    """A symmetric concept similarity from a dict (1 for identical concepts)."""

    def __init__(self, sims: dict[tuple[str, str], float]) -> None:
        self.sims = sims

    def __call__(self, x: str, y: str) -> float:
        return 1.0 if x == y else self.sims.get((min(x, y), max(x, y)), 0.0)

    def table(self, ca, cb):
        rows = [(i, j, self(x, y)) for i, x in enumerate(ca) for j, y in enumerate(cb)]
        rows = [r for r in rows if r[2] > 0]
        return (np.array([r[0] for r in rows], dtype=np.int64),
                np.array([r[1] for r in rows], dtype=np.int64),
                np.array([r[2] for r in rows], dtype=np.float64))


WEIGHERS = {"unit": unit_weights, "levels": level_weights,
            "concept-focus": focus_weights(3.0, True), "structure-focus": focus_weights(2.5, False)}
ROLES = ("instance", "top", "op1", "polarity", "arg0", "arg1")


@st.composite
def matchers(draw, soft: bool | None = None):
    # levels weigh the two graphs' copies of a triple differently most often
    weigher = draw(st.sampled_from(["levels", "levels", "unit", "concept-focus", "structure-focus"]))
    roles = draw(st.none() | st.dictionaries(st.sampled_from(ROLES),
                                             st.sampled_from([0.0, 0.5, 1.25, 2.0, 3.0])))
    if soft is None:
        soft = draw(st.booleans())
    similarity = None
    if soft:
        pairs = [(x, y) for x in CONCEPTS for y in CONCEPTS if x < y]
        values = draw(st.lists(st.sampled_from([0.0, 0.3, 0.55, 0.8]), min_size=len(pairs),
                               max_size=len(pairs)))
        similarity = TableSimilarity(dict(zip(pairs, values)))
    return WeightedMatcher(weigher, WEIGHERS[weigher], similarity, roles)


def top_carries_concept(g: TripleGraph) -> TripleGraph:
    """The smatch <= 1.0.2 TOP convention: the TOP value is the root's concept."""
    attributes = tuple((i, r, g.concepts[i] if r == "top" else v) for i, r, v in g.attributes)
    return replace(g, attributes=attributes)


def oracle(a, b, m: WeightedMatcher) -> float:
    soft = m.similarity is not None and soft_top(a) is not None and soft_top(b) is not None
    return weighted_brute_force(a, b, m.weights, m.similarity, soft)


def _pairs_and_matcher():
    return st.tuples(graph_pairs(**SMALL), matchers(), st.booleans())


def _prepare(pair, legacy_top):
    a, b = pair
    return (top_carries_concept(a), top_carries_concept(b)) if legacy_top else (a, b)


# ---------------------------------------------------------------------------
# the compiled problem against the oracle


@ORACLE
@given(_pairs_and_matcher(), st.data())
def test_objective_equals_oracle_for_any_alignment(args, data):
    pair, m, legacy = args
    a, b = _prepare(pair, legacy)
    problem = compile_pair(a, b, m)
    soft = m.similarity is not None and soft_top(a) is not None and soft_top(b) is not None
    maps = list(partial_maps(len(a.variables), len(b.variables)))
    for mapping in data.draw(st.lists(st.sampled_from(maps), min_size=1, max_size=5)):
        alignment = np.full(len(a.variables), -1)
        for i, j in mapping.items():
            alignment[i] = j
        expected = weighted_value(a, b, mapping, m.weights, m.similarity, soft)
        assert problem.objective(alignment) == pytest.approx(expected, abs=1e-9)


@ORACLE
@given(_pairs_and_matcher())
def test_exact_solver_and_bounds_match_oracle(args):
    pair, m, legacy = args
    a, b = _prepare(pair, legacy)
    best = oracle(a, b, m)
    problem = compile_pair(a, b, m)
    result = EXACT.solve(problem)
    assert result.status == "optimal"
    assert result.objective == pytest.approx(best, abs=1e-9)
    assert result.upper_bound - result.objective < (1 if problem.integral else problem.tolerance)
    assert problem.label_bound >= best - 1e-9
    assert m.label_bound(a, b) >= best - 1e-9
    assert star_bound(problem) >= best - 1e-9
    assert star_bound(problem, assignment=True) >= best - 1e-9


@settings(max_examples=25, deadline=None, derandomize=True)
@given(_pairs_and_matcher())
def test_highs_and_cbc_agree_on_fractional_objectives(args):
    pair, m, legacy = args
    a, b = _prepare(pair, legacy)
    problem = compile_pair(a, b, m)
    highs, cbc = HighsSolver().solve(problem), CbcSolver().solve(problem)
    assert highs.status == cbc.status == "optimal"
    assert highs.objective == pytest.approx(cbc.objective, abs=1e-9)
    assert highs.objective == pytest.approx(oracle(a, b, m), abs=1e-9)


def test_fractional_problems_are_certified_within_the_tolerance():
    m = WeightedMatcher("w", role_weights={"arg0": 0.3})
    a = TripleGraph(("x", "y"), ("a", "b"), ((0, "top", "top"),), ((0, "arg0", 1),))
    problem = compile_pair(a, a, m, tolerance=1e-4)
    assert not problem.integral and problem.certified_within == 1e-4
    assert compile_pair(a, a, ExactMatcher()).certified_within == 0.0


# ---------------------------------------------------------------------------
# properties through the matchers


@PROPS
@given(graph_pairs(**SMALL), matchers(soft=True))
def test_soft_matching_only_adds(pair, m):
    a, b = pair
    m = WeightedMatcher("s", unit_weights, m.similarity)  # S2Match: unit weights
    soft = EXACT.solve(compile_pair(a, b, m)).objective
    assert soft >= brute_force(a, b) - 1e-9


@PROPS
@given(triple_graphs(**SMALL), matchers(), st.booleans())
def test_self_match_is_one_for_every_matcher(g, m, legacy):
    g = top_carries_concept(g) if legacy else g
    result = EXACT.solve(compile_pair(g, g, m))
    total = m.total(g)
    assert result.objective == pytest.approx(total, abs=1e-9)
    if total > 0:
        assert prf(result.objective, total, total)[2] == pytest.approx(1.0, abs=1e-12)


@PROPS
@given(_pairs_and_matcher())
def test_swapping_a_and_b_swaps_precision_and_recall(args):
    pair, m, legacy = args
    a, b = _prepare(pair, legacy)
    ab = EXACT.solve(compile_pair(a, b, m)).objective
    ba = EXACT.solve(compile_pair(b, a, m)).objective
    assert ab == pytest.approx(ba, abs=1e-9)
    p, r, f = prf(ab, m.total(a), m.total(b))
    p2, r2, f2 = prf(ba, m.total(b), m.total(a))
    assert (p, r, f) == pytest.approx((r2, p2, f2), abs=1e-12)


def _only(g: TripleGraph, role: str) -> TripleGraph:
    """``g`` with only the triples of ``role`` (``instance``: only instance triples)."""
    concepts = g.concepts if role == "instance" else tuple(f"_{i}" for i in range(len(g.concepts)))
    return TripleGraph(g.variables, concepts,
                       tuple(t for t in g.attributes if t[1] == role),
                       tuple(t for t in g.relations if t[1] == role))


@PROPS
@given(graph_pairs(**SMALL), st.sampled_from(ROLES))
def test_one_role_weighted_is_that_roles_smatch(pair, role):
    a, b = pair
    m = WeightedMatcher("roles", role_weights={"*": 0.0, "instance": 0.0, role: 1.0})
    got = EXACT.solve(compile_pair(a, b, m)).objective
    oa, ob = _only(a, role), _only(b, role)
    # renamed concepts never match: only the role's triples count
    unique_b = TripleGraph(ob.variables, tuple(c if role == "instance" else f"~{c}" for c in ob.concepts),
                           ob.attributes, ob.relations)
    assert got == brute_force(oa, unique_b)
    assert m.total(a) == sum(1 for t in a.attributes if t[1] == role) + \
        sum(1 for t in a.relations if t[1] == role) + (len(a.concepts) if role == "instance" else 0)


@PROPS
@given(graph_pairs(**SMALL))
def test_unit_weights_are_exact_smatch(pair):
    a, b = pair
    m = WeightedMatcher("unit")
    assert EXACT.solve(compile_pair(a, b, m)).objective == brute_force(a, b)
    assert m.total(a) == ExactMatcher().total(a) == a.n_triples


# ---------------------------------------------------------------------------
# hand-computed cases


def _graph(text):
    from smatchpp.api import parse_graph

    return parse_graph(text)


def test_wsmatch_hand_computed():
    m = build_matcher(match="wsmatch")
    a = _graph("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))")
    b = _graph("(w / want-01 :ARG0 (b / girl) :ARG1 (g / go-02 :ARG0 b))")
    # levels: want 0 (5), boy 1 (4), go 1 (4); TOP 5; ARG0 4, ARG1 4, go ARG0 boy: min(4,4) = 4
    assert m.total(a) == 5 + 4 + 4 + 5 + 4 + 4 + 4
    result = EXACT.solve(compile_pair(a, b, m))
    assert result.objective == 30 - 4  # all but boy/girl's instance triple


def test_wsmatch_matched_relation_earns_the_smaller_weight():
    # A's root is x, B's is z: x->y earns min(4, 3), y->z min(3, 4)
    a = TripleGraph(("x", "y", "z"), ("a", "b", "c"), ((0, "top", "top"),), ((0, "arg0", 1), (1, "arg1", 2)))
    b = TripleGraph(("x", "y", "z"), ("a", "b", "c"), ((2, "top", "top"),), ((0, "arg0", 1), (1, "arg1", 2)))
    m = WeightedMatcher("wsmatch", level_weights)
    assert m.weights(a).relation.tolist() == [4, 3] and m.weights(b).relation.tolist() == [3, 4]
    # instances min(5,3) + min(4,4) + min(3,5), relations 3 + 3, TOP unmatched
    assert EXACT.solve(compile_pair(a, b, m)).objective == 3 + 4 + 3 + 3 + 3


def test_wsmatch_unreachable_nodes_weigh_one():
    g = TripleGraph(("x", "y", "z"), ("a", "b", "c"), ((0, "top", "top"), (2, "op1", "v")),
                    ((0, "arg0", 1),))
    w = level_weights(g)
    assert w.instance.tolist() == [5, 4, 1]
    assert w.attribute.tolist() == [5, 1]
    assert w.relation.tolist() == [4]


def test_wsmatch_attribute_is_one_level_below_its_node():
    w = level_weights(_graph("(w / want-01 :polarity - :ARG0 (b / boy :quant 2))"))
    # polarity on level 0: min(5, 4) = 4; quant on level 1: min(4, 3) = 3; TOP: 5
    assert sorted(w.attribute.tolist()) == [3, 4, 5]


def test_focus_hand_computed():
    a = _graph("(a / dog :ARG0 (b / cat))")
    b = _graph("(a / dog :ARG0 (b / mouse))")
    concept = build_matcher(match="concept-focus", focus_weight=3.0)
    structure = build_matcher(match="structure-focus", focus_weight=3.0)
    assert concept.total(a) == 3 + 3 + 1 + 1
    assert EXACT.solve(compile_pair(a, b, concept)).objective == 3 + 1 + 1
    assert structure.total(a) == 1 + 1 + 3 + 3
    assert EXACT.solve(compile_pair(a, b, structure)).objective == 1 + 3 + 3


def test_role_weights_file(tmp_path):
    path = tmp_path / "roles.tsv"
    path.write_text("# weigh ARG0 above mod\n:ARG0\t2\n:mod\t0.5\ndomain\t0.25\nwiki\t0\n")
    m = build_matcher(match="exact", role_weights=str(path))
    assert m.role_weights == {"arg0": 2.0, "mod": 0.5, "domain": 0.25, "wiki": 0.0}
    a = _graph('(a / dog :ARG0 (b / cat) :mod (c / big) :wiki "Q1")')
    # instance 3, TOP 1, ARG0 2, domain (from :mod) 0.25, wiki 0
    assert m.total(a) == pytest.approx(3 + 1 + 2 + 0.25)
    b = _graph('(a / dog :ARG0 (b / cat) :mod (c / small) :wiki "Q2")')
    assert EXACT.solve(compile_pair(a, b, m)).objective == pytest.approx(2 + 1 + 2 + 0.25)


def test_role_weights_file_errors(tmp_path):
    # every bad file: tests/test_settings.py
    bad = tmp_path / "bad.tsv"
    bad.write_text("ARG0\tmany\n")
    with pytest.raises(SmatchppError, match="bad.tsv:1: the weight .* is not a decimal number"):
        build_matcher(match="exact", role_weights=str(bad))
    bad.write_text("ARG0\t-1\n")
    with pytest.raises(SmatchppError, match=">= 0"):
        build_matcher(match="wsmatch", role_weights=str(bad))


def test_every_registered_matcher_builds(tmp_path):
    vectors = tmp_path / "v.txt"
    vectors.write_text("dog 1 0\n")
    for name in MATCHERS:
        m = build_matcher(match=name, vectors=str(vectors))
        g = _graph("(a / dog :ARG0 (b / cat))")
        assert EXACT.solve(compile_pair(g, g, m)).objective == pytest.approx(m.total(g))

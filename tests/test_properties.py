"""Metric properties through the public API (``Scorer``, ``Config``, ``score_pair``).

* symmetry: F1(A, B) == F1(B, A), precision and recall swap;
* invariance under variable renaming, variable order and triple order;
* self-match: F1 == 1 exactly, also with repeated concepts and duplicated triples;
* F1 <= 1 always (duplicates are matched as multisets);
* determinism: two runs give the same PairScore (matched, upper, status, alignment);
* hill-climber <= exact <= upper bound.

Graphs come both as random :class:`TripleGraph` objects and as random PENMAN
strings (which also exercises reading and standardization).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import smatchpp
from oracle import brute_force, rescore
from smatchpp.api import Config, Scorer, parse_graph, score_corpus, score_pair
from strategies import (equivalent_graphs, graph_pairs, penman_specs, render_penman, renamings,
                        triple_graphs)

PROPS = settings(max_examples=80, deadline=None, derandomize=True)

EXACT = Scorer(Config(solver="exact"))
CLIMB = Scorer(Config(solver="hillclimber"))


def _same(s1, s2) -> None:
    assert (s1.matched, s1.upper, s1.status, s1.alignment, s1.stage, s1.test_triples,
            s1.gold_triples) == (s2.matched, s2.upper, s2.status, s2.alignment, s2.stage,
                                 s2.test_triples, s2.gold_triples)


# ---------------------------------------------------------------------------
# symmetry


@PROPS
@given(graph_pairs())
def test_symmetry_triple_graphs(pair):
    a, b = pair
    ab, ba = EXACT.score_pair(a, b), EXACT.score_pair(b, a)
    assert ab.status == ba.status == "optimal"
    assert ab.matched == ba.matched
    assert (ab.test_triples, ab.gold_triples) == (ba.gold_triples, ba.test_triples)
    assert ab.precision == ba.recall and ab.recall == ba.precision
    assert ab.f1 == ba.f1


@PROPS
@given(penman_specs(), penman_specs())
def test_symmetry_penman(spec_a, spec_b):
    a, b = render_penman(spec_a), render_penman(spec_b, names=None)
    ab, ba = score_pair(a, b), score_pair(b, a)
    assert ab.status == ba.status == "optimal"
    assert ab.matched == ba.matched
    assert ab.precision == ba.recall and ab.recall == ba.precision
    assert ab.f1 == ba.f1


# ---------------------------------------------------------------------------
# invariance under renaming and reordering


@PROPS
@given(graph_pairs(), st.data())
def test_renaming_and_order_invariance_triple_graphs(pair, data):
    a, b = pair
    a2, _ = data.draw(equivalent_graphs(a, prefix="ra"))
    b2, _ = data.draw(equivalent_graphs(b, prefix="rb"))
    s1, s2 = EXACT.score_pair(a, b), EXACT.score_pair(a2, b2)
    assert s1.status == s2.status == "optimal"
    assert (s1.matched, s1.test_triples, s1.gold_triples) == (s2.matched, s2.test_triples, s2.gold_triples)
    assert s1.f1 == s2.f1


@PROPS
@given(penman_specs(), penman_specs(), st.data())
def test_renaming_and_order_invariance_penman(spec_a, spec_b, data):
    names_a, orders_a = data.draw(renamings(spec_a))
    names_b, orders_b = data.draw(renamings(spec_b))
    s1 = score_pair(render_penman(spec_a), render_penman(spec_b))
    s2 = score_pair(render_penman(spec_a, names_a, orders_a), render_penman(spec_b, names_b, orders_b))
    assert (s1.matched, s1.test_triples, s1.gold_triples) == (s2.matched, s2.test_triples, s2.gold_triples)
    assert s1.f1 == s2.f1


# ---------------------------------------------------------------------------
# self-match and the range of F1


@PROPS
@given(triple_graphs(max_vars=7, max_attributes=6, max_relations=10), st.data())
def test_self_match_is_exactly_one(g, data):
    g2, _ = data.draw(equivalent_graphs(g))
    for other in (g, g2):
        s = EXACT.score_pair(g, other)
        assert s.status == "optimal"
        assert s.matched == s.upper == g.n_triples
        assert s.precision == 1.0 and s.recall == 1.0 and s.f1 == 1.0


@PROPS
@given(penman_specs(max_vars=5), st.data())
def test_self_match_penman_is_exactly_one(spec, data):
    names, orders = data.draw(renamings(spec))
    text = render_penman(spec)
    for other in (text, render_penman(spec, names, orders)):
        s = score_pair(text, other)
        assert s.f1 == 1.0 and s.precision == 1.0 and s.recall == 1.0, (text, other, s)


@pytest.mark.parametrize("text", [
    "(a / dog :ARG0 (b / dog) :ARG1 (c / dog))",                 # repeated concepts
    "(a / dog :ARG0 a :ARG0 a :ARG0 a)",                            # duplicated self-loop
    "(a / dog :polarity - :polarity - :op1 \"x\" :op1 \"x\")",      # duplicated attributes
    "(a / dog :ARG0 (b / dog :ARG0 a :ARG0 a) :ARG0 b)",            # duplicated relations, cycle
    "(a / dog :ARG0-of (b / dog) :ARG0-of b :mod b :domain b)",    # inverted duplicates
])
def test_self_match_hand_cases(text):
    s = score_pair(text, text)
    assert s.matched == s.test_triples == s.gold_triples
    assert s.f1 == 1.0


@PROPS
@given(graph_pairs(max_vars=6, max_attributes=6, max_relations=8))
def test_f1_never_above_one(pair):
    a, b = pair
    s = EXACT.score_pair(a, b)
    assert 0 <= s.matched <= min(s.test_triples, s.gold_triples)
    assert 0.0 <= s.precision <= 1.0 and 0.0 <= s.recall <= 1.0 and 0.0 <= s.f1 <= 1.0
    assert s.f1 <= s.f1_upper <= 1.0


def test_duplicates_do_not_inflate():
    # A repeats a triple that B has once: it matches once, so precision < 1
    s = score_pair("(a / dog :ARG0 a :ARG0 a :ARG0 a)", "(a / dog :ARG0 a)")
    assert (s.matched, s.test_triples, s.gold_triples) == (3, 5, 3)
    assert s.recall == 1.0 and s.precision == 3 / 5 and s.f1 <= 1.0


# ---------------------------------------------------------------------------
# exact == oracle, alignments are consistent


@PROPS
@given(graph_pairs())
def test_api_matches_oracle_and_alignment_rescores(pair):
    a, b = pair
    s = EXACT.score_pair(a, b)
    assert s.matched == brute_force(a, b)
    assert rescore(a, b, s.alignment) == s.matched
    h = CLIMB.score_pair(a, b)
    assert rescore(a, b, h.alignment) == h.matched


# ---------------------------------------------------------------------------
# determinism and ordering of the solvers


@PROPS
@given(graph_pairs(max_vars=9, max_attributes=6, max_relations=12))
def test_determinism(pair):
    a, b = pair
    for solver in ("exact", "highs", "hillclimber"):
        s1 = Scorer(Config(solver=solver)).score_pair(a, b)
        s2 = Scorer(Config(solver=solver)).score_pair(a, b)
        _same(s1, s2)


@PROPS
@given(graph_pairs(max_vars=9, max_attributes=6, max_relations=12))
def test_hillclimber_below_exact_below_upper(pair):
    a, b = pair
    exact = EXACT.score_pair(a, b)
    climb = CLIMB.score_pair(a, b)
    assert exact.status == "optimal"
    assert climb.matched <= exact.matched <= exact.upper
    assert climb.upper >= exact.matched
    assert climb.f1 <= exact.f1 <= exact.f1_upper
    if climb.status == "optimal":
        assert climb.matched == exact.matched


def test_corpus_determinism_and_workers():
    pairs = [
        ("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))"),
        ("(a / dog :ARG0 a)", "(a / dog :ARG0 a :ARG0 a)"),
        ("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))",
         "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 (g2 / girl)))"),
        ("(c / cat :mod (b / big) :polarity -)", "(c / cat :domain (b / big))"),
    ] * 3
    ga, gb = [p[0] for p in pairs], [p[1] for p in pairs]
    one = score_corpus(ga, gb)
    again = score_corpus(ga, gb)
    two = score_corpus(ga, gb, workers=2)
    for x, y, z in zip(one.pairs, again.pairs, two.pairs):
        _same(x, y)
        _same(x, z)
    assert one.micro == again.micro == two.micro
    assert one.summary()["signature"] == two.summary()["signature"]


def test_corpus_micro_is_sum_of_counts():
    ga = ["(a / dog)", "(a / cat :ARG0 (b / dog))"]
    gb = ["(b / dog)", "(x / cat)"]
    c = score_corpus(ga, gb)
    assert [(p.matched, p.test_triples, p.gold_triples) for p in c.pairs] == [(2, 2, 2), (2, 4, 2)]
    p, r, f = c.micro
    assert (p, r) == (4 / 6, 4 / 4)
    assert f == pytest.approx(2 * p * r / (p + r))


def test_public_names():
    assert smatchpp.score_pair is score_pair
    g = parse_graph("(a / dog)")
    assert smatchpp.Scorer().score_pair(g, g).f1 == 1.0


# ---------------------------------------------------------------------------
# compression settings


@PROPS
@given(graph_pairs(max_vars=7, max_attributes=5, max_relations=9))
def test_exact_compression_does_not_change_scores(pair):
    a, b = pair
    scores = [Scorer(Config(compression=c)).score_pair(a, b) for c in ("none", "exact")]
    assert scores[0].status == scores[1].status == "optimal"
    assert scores[0].matched == scores[1].matched
    for s in scores:
        assert rescore(a, b, s.alignment) == s.matched


@PROPS
@given(graph_pairs(), st.data())
def test_smatchpp18_lossy_preset_is_its_rewrite_scored_exactly(pair, data):
    # preset 'smatchpp18-lossy' (formerly compression='smatchpp') is a different metric:
    # Smatch on the concept-identity rewrite
    from smatchpp.presets.smatchpp18 import concept_identity

    a, b = pair
    s = Scorer(Config(preset="smatchpp18-lossy")).score_pair(a, b)
    ra, rb = concept_identity(a, b)
    assert s.status == "optimal"
    assert (s.matched, s.test_triples, s.gold_triples) == (brute_force(ra, rb), ra.n_triples, rb.n_triples)
    # still 1.0 for a graph against an equivalent copy of itself
    a2, _ = data.draw(equivalent_graphs(a))
    assert Scorer(Config(preset="smatchpp18-lossy")).score_pair(a, a2).f1 == 1.0


def test_unknown_compression():
    with pytest.raises(ValueError):
        Config(compression="zip")  # type: ignore[arg-type]
    # the old name of smatchpp 1.8's rewrite points to its preset
    with pytest.raises(ValueError, match="preset 'smatchpp18-lossy'"):
        Config(compression="smatchpp")

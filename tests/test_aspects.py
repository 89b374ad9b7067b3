"""Aspect scores: hand-made graphs against hand-computed counts, and properties.

Every expected count below is worked out by hand from the definitions of
``mdtux89/amr-evaluation`` (``scores.py``, ``utils.py``, ``evaluation.sh``),
written in each test's comment.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smatchpp.aspects.core import ASPECTS, AspectCount, AspectScorer, damonte_triples, score_aspects
from smatchpp.graphs.read import read_file, read_text
from strategies import penman_strings


def raw(text: str):
    entry = read_text(text)[0]
    assert entry.error is None
    return entry.graph


def counts(a: str, b: str, mode: str = "separate") -> dict[str, tuple]:
    out = score_aspects(raw(a), raw(b), mode)
    return {k: (v.matched, v.test, v.gold) for k, v in out.items()}


def test_concepts_are_a_multiset():
    # A: and, boy, boy; B: and, boy, girl -> {and, boy} in common
    c = counts("(a / and :op1 (b / boy) :op2 (c / boy))", "(x / and :op1 (y / boy) :op2 (z / girl))")
    assert c["concepts"] == (2, 3, 3)


def test_named_entities_are_the_concepts_of_named_nodes():
    # A: person, city have :name; B: person, country -> person in common
    a = '(a / and :op1 (p / person :name (n / name :op1 "Al")) :op2 (c / city :name (m / name :op1 "Rome")))'
    b = '(a / and :op1 (p / person :name (n / name :op1 "Bo")) :op2 (c / country :name (m / name :op1 "Rome")))'
    assert counts(a, b)["named_ent"] == (1, 2, 2)


def test_negations_are_the_concepts_with_polarity():
    # A: go-02 and boy carry :polarity; B: go-02 only
    c = counts("(g / go-02 :polarity - :ARG0 (b / boy :polarity -))", "(g / go-02 :polarity - :ARG0 (b / boy))")
    assert c["negations"] == (1, 2, 1)


def test_wikification_compares_values():
    a = '(a / and :op1 (c / city :wiki "Paris") :op2 (d / city :wiki -))'
    b = '(a / and :op1 (c / city :wiki "Paris") :op2 (d / city :wiki "Lyon"))'
    assert counts(a, b)["wikification"] == (1, 2, 2)


def test_reentrancies_subgraph_and_top_artifact():
    # b has two parents in both graphs: vars w, b, g (3 instances), 2 incoming
    # relations, TOP(w, want-01) -> 6 triples each; ARG0 g b vs ARG1 g b cannot match
    a = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
    b = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG1 b))"
    assert counts(a, b)["reentrancies"] == (5, 6, 6)
    # the same graph written from b with :ARG0-of: identical subgraph (first parent w)
    inverted = "(b / boy :ARG0-of (w / want-01 :ARG1 (g / go-02 :ARG0 b)))"
    assert counts(inverted, a)["reentrancies"] == (6, 6, 6)


def test_reentrancies_keep_mod_as_written():
    # r is the target of :mod (from a) and of :ARG1 (from l): re-entrant for amr-evaluation,
    # although smatch's :mod -> :domain inversion would give it one parent only.
    # vars a, r, l: 3 instances + 2 relations (mod a r, ARG1 l r) + TOP = 6
    g = "(a / apple :mod (r / red) :ARG1-of (l / like-01 :ARG1 r))"
    assert counts(g, g)["reentrancies"] == (6, 6, 6)
    assert counts(g, "(a / apple)")["reentrancies"] == (0, 6, 0)


def test_srl_subgraph():
    # A: ARG0 w b, ARG1 c w -> vars w, b, c: 3 + 2 + TOP(w) = 6
    # B: ARG0 w g, ARG1 c w, ARG0 c x -> vars w, g, c, x: 4 + 3 + TOP(w) = 8
    # best: w->w, c->c (2 instances), ARG1 c w, TOP, b->g (ARG0 w g) = 5
    a = "(w / want-01 :ARG0 (b / boy) :time (n / now) :ARG1-of (c / cause-01))"
    b = "(w / want-01 :ARG0 (g / girl) :ARG1-of (c / cause-01 :ARG0 (x / he)))"
    assert counts(a, b)["srl"] == (5, 6, 8)


def test_srl_counts_constants_and_puts_top_on_their_source():
    # ARG2 - is an attribute: listed first, so TOP goes on h: h, s (2) + ARG2 - + ARG1 h s + TOP = 5
    g = "(s / sure-02 :ARG1-of (h / have-polarity-91 :ARG2 -))"
    sub = ASPECTS["srl"].graph(raw(g), None)
    assert sub.variables == ("s", "h")
    assert sorted(sub.attributes) == [(1, "arg2", "-"), (1, "top", "have-polarity-91")]
    assert sub.n_triples == 5


def test_unlabeled_keeps_the_written_direction():
    # sed turns :ARG0-of into :label, so A has (a label b) and B (b label a).
    # 2 instances + 1 relation + TOP each. Best = 2 (the instances, or relation + TOP)
    c = counts("(a / boy :ARG0-of (b / run-01))", "(b / run-01 :ARG0 (a / boy))")
    assert c["unlabeled"] == (2, 4, 4)
    assert c["smatch"] == (3, 4, 4)   # smatch inverts :ARG0-of: only TOP differs


def test_no_wsd_ignores_senses():
    a = "(w / want-01 :ARG0 (b / boy) :ARG1 (h / have-org-role-91 :ARG0 b))"
    b = "(w / want-02 :ARG0 (b / boy) :ARG1 (h / have-org-role-92 :ARG0 b))"
    c = counts(a, b)
    # 3 instances + 3 relations + TOP; want-01/02 and have-org-role-91/92 differ
    assert c["smatch"] == (5, 7, 7)
    assert c["no_wsd"] == (7, 7, 7)


def test_damonte_triples_invert_every_of_role():
    t = damonte_triples(raw("(a / thing :consist-of (b / gold) :ARG1-of (c / want-01))"))
    assert t == [("consist", 1, 0), ("ARG1", 2, 0)]


def test_joint_mode_counts_under_the_given_alignment():
    # A's person p is named; B has a named person p and an unnamed person q.
    a = raw('(p / person :name (n / name :op1 "Al"))')
    b = raw('(a / and :op1 (p / person :name (n / name :op1 "Al")) :op2 (q / person))')
    scorer = AspectScorer("joint")
    to_q = scorer.score(a, b, main=(0, 0, 5, 8, [("p", "q")]))
    to_p = scorer.score(a, b, main=(0, 0, 5, 8, [("p", "p"), ("n", "n")]))
    assert (to_q["named_ent"].matched, to_p["named_ent"].matched) == (0, 1)
    assert (to_q["concepts"].matched, to_p["concepts"].matched) == (1, 2)
    # separate mode ignores the alignment: person is named on both sides
    assert AspectScorer("separate").score(a, b, main=(0, 0, 5, 8, [("p", "q")]))["named_ent"].matched == 1
    # unlabeled under p->p, n->n: 2 instances, (p label n), (n label al); TOP is on p vs on a.
    # A has 2 + 2 + TOP = 5 triples, B 4 instances + 3 relations + (n label al) + TOP = 9
    assert to_p["unlabeled"] == AspectCount(4, 4, 5, 9)


def test_empty_graph_scores_zero():
    out = AspectScorer().score(None, raw("(g / go-02 :polarity - :ARG0 (b / boy))"))
    assert out["negations"] == AspectCount(0, 0, 0, 1)
    assert out["srl"] == AspectCount(0, 0, 0, 4)   # g, b, ARG0 g b, TOP


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="aspect mode"):
        AspectScorer("both")


@settings(max_examples=40)
@given(penman_strings())
def test_self_match_is_one_in_separate_mode(text):
    g = raw(text)
    for name, c in score_aspects(g, g).items():
        assert c.matched == c.upper == c.test == c.gold, name


@settings(max_examples=40)
@given(st.tuples(penman_strings(), penman_strings()))
def test_joint_never_exceeds_separate(texts):
    a, b = raw(texts[0]), raw(texts[1])
    sep, joint = score_aspects(a, b, "separate"), score_aspects(a, b, "joint")
    for name in ASPECTS:
        assert (joint[name].test, joint[name].gold) == (sep[name].test, sep[name].gold)
        assert joint[name].matched <= sep[name].matched, name


LP = Path(__file__).resolve().parents[2] / "shared" / "data" / "parseval-lp"


def test_parseval_lp_pair_124_by_hand():
    """BART's parse 124 of The Little Prince against its reference, counted by hand.

    A: (vx0 / resemble-01 :polarity - :ARG1 (vx1 / well :ARG1-of (vx2 / come-16 :ARG0 (vx3 / we)))
           :ARG2 (vx4 / well :location (vx5 / world-region :name (vx6 / name :op1 "Sahara"))))
    B: (vx0 / well :ARG4-of (vx1 / come-01 :ARG1 (vx2 / we)) :ARG1-of (vx3 / resemble-01 :polarity -
           :ARG2 (vx4 / well :location (vx5 / desert :name (vx6 / name :op1 "Sahara")))))
    """
    src, tgt = LP / "src.test.amr", LP / "tgt.test.amr"
    if not (src.is_file() and tgt.is_file()):
        pytest.skip(f"shared data not found at {LP}")
    a, b = read_file(src)[124].graph, read_file(tgt)[124].graph
    c = {k: (v.matched, v.test, v.gold) for k, v in score_aspects(a, b).items()}
    # concepts: resemble-01, well x2, we, name in common of 7 each
    assert c["concepts"] == (5, 7, 7)
    # named entities: world-region vs desert; negations: resemble-01 on both sides
    assert (c["named_ent"], c["negations"], c["wikification"]) == ((0, 1, 1), (1, 1, 1), (0, 0, 0))
    # reentrancies: the well vx1 of A has parents resemble (ARG1) and come-16 (ARG1 via -of);
    # B's vx0 well has come-01 (ARG4 via -of) and resemble (ARG1): 3 instances + 2 relations +
    # TOP each.  Best: resemble, well and ARG1 resemble->well = 3 (TOP sits on resemble in A,
    # on come-01 in B)
    assert c["reentrancies"] == (3, 6, 6)
    # SRL: A has ARG1 x2, ARG0, ARG2 over 5 variables + TOP = 10; B ARG4, ARG1 x2, ARG2 + TOP = 10
    assert c["srl"][1:] == (10, 10)


def test_python_api_scores_aspects_of_strings():
    from smatchpp.api import Config, Scorer, score_pair

    a, b = "(w / want-01 :ARG0 (b / boy))", "(w / want-02 :ARG0 (b / boy))"
    pair = score_pair(a, b, aspects="separate")
    # 2 instances, ARG0, TOP: want-01 != want-02 costs one triple, except without senses
    assert (pair.aspects["smatch"].matched, pair.aspects["no_wsd"].matched) == (3, 4)
    assert score_pair(a, b).aspects is None
    corpus = Scorer(Config(aspects="joint")).score_corpus(read_text(a), read_text(b))
    assert corpus.summary()["aspects"]["scores"]["no_wsd"]["f1"] == 1.0

"""The ``smatch`` preset reproduces smatch 1.0.4's triples; hand-computed cases.

smatch 1.0.4 (``amr.py`` / ``smatch.py``) conventions checked here:

* a ``TOP`` attribute with the constant value ``top`` on the root variable;
* concepts, constants and role names lower-cased, trailing ``_`` stripped
  (smatch's ``normalize``);
* a quoted constant keeps only its first whitespace-separated token (smatch's
  reader appends ``_`` at the closing quote and splits the value on spaces, so
  ``"New York"`` becomes ``New``);
* ``-of`` roles are inverted except ``consist-of``, ``prep-out-of`` and
  ``prep-on-behalf-of``, ``:mod`` becomes the inverse ``domain``; the checks
  are made on the role as written (case-sensitive);
* an inverted role onto a constant is lost;
* re-entrancies and self-loops are relations, duplicated triples all count.
"""

from __future__ import annotations

import pytest

from smatchpp.api import Config, Scorer, parse_graph, score_pair
from smatchpp.graphs.read import RawGraph, read_text
from smatchpp.presets import standardize
from smatchpp.graphs.triples import EMPTY, TripleGraph

TOP = (0, "top", "top")


def g(text: str) -> TripleGraph:
    return parse_graph(text)


# ---------------------------------------------------------------------------
# TOP


def test_top_on_root():
    graph = g("(a / dog)")
    assert graph == TripleGraph(("a",), ("dog",), (TOP,), ())
    assert graph.n_triples == 2


def test_top_on_root_not_first_child():
    graph = g("(b / bark-01 :ARG0 (d / dog))")
    assert graph.variables == ("b", "d")
    assert graph.attributes == (TOP,)
    assert graph.triples() == [("b", "instance", "bark-01"), ("d", "instance", "dog"),
                               ("b", "top", "top"), ("b", "arg0", "d")]


def test_top_in_tsv_is_source_of_first_triple():
    # the first triple is a relation of b, declared after a: TOP goes on b (index 1)
    text = "b\tARG0\ta\na\tinstance\tdog\nb\tinstance\tcat\n"
    raw = read_text(text, fmt="tsv")[0].graph
    graph = standardize(raw)
    assert graph.variables == ("a", "b")
    assert graph.attributes == ((1, "top", "top"),)
    assert graph.relations == ((1, "arg0", 0),)


def test_different_root_concepts_still_match_top():
    # the TOP value is the constant 'top' (not the root concept): a -> b matches TOP
    s = score_pair("(a / dog)", "(b / cat)")
    assert (s.matched, s.test_triples, s.gold_triples) == (1, 2, 2)
    assert s.f1 == 0.5


# ---------------------------------------------------------------------------
# lower-casing and '_' stripping


def test_lowercase_concepts_constants_roles():
    graph = g('(a / Dog :Polarity - :MODE Expressive :OP1 "Bob" :ARG0 (b / CAT))')
    assert graph.concepts == ("dog", "cat")
    assert graph.attributes == ((0, "polarity", "-"), (0, "mode", "expressive"), (0, "op1", "bob"), TOP)
    assert graph.relations == ((0, "arg0", 1),)


def test_trailing_underscores_stripped():
    graph = g('(a / dog_ :op1 "Bob_" :mode imperative__ :ARG0 (b / cat__))')
    assert graph.concepts == ("dog", "cat")
    assert graph.attributes == ((0, "op1", "bob"), (0, "mode", "imperative"), TOP)


def test_case_variants_match():
    s = score_pair('(a / Dog_ :op1 "BOB")', '(b / dog :op1 "bob")')
    assert s.matched == s.test_triples == s.gold_triples == 3


# ---------------------------------------------------------------------------
# quoted constants


def test_quoted_constant_keeps_first_token():
    graph = g('(c / city :name "New York" :op1 "Bob" :op2 "a  b" :op3 "")')
    assert graph.attributes == ((0, "name", "new"), (0, "op1", "bob"), (0, "op2", "a"),
                                (0, "op3", ""), TOP)


def test_quoted_constant_is_never_a_variable():
    # "a" is a string, not the variable a: an attribute, not a self-loop
    graph = g('(a / x :op1 "a" :op2 a)')
    assert graph.attributes == ((0, "op1", "a"), TOP)
    assert graph.relations == ((0, "op2", 0),)


def test_quoted_and_unquoted_constants_match():
    s = score_pair('(a / x :op1 "Bob")', "(a / x :op1 bob)")
    assert s.matched == 3 and s.f1 == 1.0


def test_quoted_concept_like_smatch():
    assert g('(a / "Foo Bar")').concepts == ("foobar",)


# ---------------------------------------------------------------------------
# inverse roles


def test_of_inversion():
    graph = g("(a / dog :ARG0-of (b / bark-01))")
    assert graph.relations == ((1, "arg0", 0),)
    assert g("(b / bark-01 :ARG0 (a / dog))").relations == ((0, "arg0", 1),)


@pytest.mark.parametrize("role", ["consist-of", "prep-out-of", "prep-on-behalf-of"])
def test_of_exceptions_not_inverted(role):
    graph = g(f"(a / x :{role} (b / y))")
    assert graph.relations == ((0, role, 1),)
    # with a constant they stay attributes (not dropped: they are not inverted)
    assert g(f"(a / x :{role} 5)").attributes == ((0, role, "5"), TOP)


def test_mod_is_inverse_domain():
    assert g("(c / cat :mod (b / big))").relations == ((1, "domain", 0),)
    assert g("(c / cat :domain (b / big))").relations == ((0, "domain", 1),)
    s = score_pair("(c / cat :mod (b / big))", "(x / cat :mod (y / big))")
    assert s.f1 == 1.0
    # mod and domain in opposite directions are the same triple
    s = score_pair("(c / cat :mod (b / big))", "(b / big :domain (c / cat))")
    assert (s.matched, s.test_triples, s.gold_triples) == (3, 4, 4)  # TOP is on different concepts


def test_inversion_checks_are_case_sensitive():
    # as in smatch 1.0.4: the tests look at the role as written
    graph = g("(a / x :ARG0-OF (b / y) :MOD b :Consist-of b)")
    assert graph.relations == ((0, "arg0-of", 1), (0, "mod", 1), (1, "consist", 0))


@pytest.mark.parametrize("branch", [":mod 5", ':ARG0-of "x"', ":ARG1-of -", ':mod "big"', ":poss-of imperative"])
def test_inverted_role_onto_constant_is_dropped(branch):
    graph = g(f"(a / dog {branch})")
    assert graph == TripleGraph(("a",), ("dog",), (TOP,), ())


def test_dropped_triples_do_not_count():
    s = score_pair('(a / dog :mod 5 :ARG0-of "x" :polarity -)', "(b / dog :polarity -)")
    assert (s.matched, s.test_triples, s.gold_triples) == (3, 3, 3)


# ---------------------------------------------------------------------------
# re-entrancies, self-loops, duplicates


def test_reentrancy():
    graph = g("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))")
    assert graph.variables == ("w", "b", "g")
    assert sorted(graph.relations) == [(0, "arg0", 1), (0, "arg1", 2), (2, "arg0", 1)]
    assert graph.n_triples == 7


def test_reentrancy_before_definition():
    graph = g("(a / x :ARG0 c :ARG1 (c / y))")
    assert graph.relations == ((0, "arg0", 1), (0, "arg1", 1))


def test_inverted_reentrancy():
    graph = g("(a / x :ARG0 (b / y :ARG1-of a))")
    assert sorted(graph.relations) == [(0, "arg0", 1), (0, "arg1", 1)]


def test_self_loops():
    assert g("(a / dog :ARG0 a)").relations == ((0, "arg0", 0),)
    assert g("(a / dog :ARG0-of a :mod a)").relations == ((0, "arg0", 0), (0, "domain", 0))


def test_duplicated_triples_counted():
    graph = g("(a / dog :polarity - :polarity - :ARG0 (b / cat) :ARG0 b :ARG0 b)")
    assert graph.attributes == ((0, "polarity", "-"), (0, "polarity", "-"), TOP)
    assert graph.relations == ((0, "arg0", 1),) * 3
    assert graph.n_triples == 2 + 3 + 3


def test_standardize_rejects_unknown_preset():
    raw = RawGraph("a", (("a", ":instance", "dog"),), ("a",))
    with pytest.raises(ValueError):
        standardize(raw, "nope")  # type: ignore[arg-type]


def test_empty_graph_constant():
    assert EMPTY.n_triples == 0 and EMPTY.triples() == []


# ---------------------------------------------------------------------------
# hand-computed scores (matched, |A|, |B|, F1)

SCORER = Scorer(Config())


@pytest.mark.parametrize("a, b, matched, n_a, n_b, f1", [
    # docstring: 2 concepts + ARG0 match (x->v, y->u); TOP sits on dog in A, on bark in B
    ("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))", 3, 4, 4, 0.75),
    ("(a / dog)", "(b / dog)", 2, 2, 2, 1.0),
    # boy vs girl: want, go, TOP and all three relations match (w->w, b->g, g->g2): 6/7
    ("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))",
     "(w / want-01 :ARG0 (g / girl) :ARG1 (g2 / go-01 :ARG0 g))", 6, 7, 7, 6 / 7),
    # a duplicated self-loop matches once: P = 3/4, R = 1, F1 = 2*(3/4)/(7/4) = 6/7
    ("(a / dog :ARG0 a :ARG0 a)", "(a / dog :ARG0 a)", 3, 4, 3, 6 / 7),
    # "New York" is read as "New": A has op1 new + op2 york, B only op1 new -> 3 of (4, 3)
    ('(n / name :op1 "New" :op2 "York")', '(n / name :op1 "New York")', 3, 4, 3, 6 / 7),
    # roles differ: 2 concepts + TOP (a->c, b->d) match, ARG0 vs ARG1 do not: 3/4
    ("(a / x :ARG0 (b / x))", "(c / x :ARG1 (d / x))", 3, 4, 4, 0.75),
    # injectivity: only one of b, c can take e: x, y, TOP, ARG0 -> 4; P = 4/6, R = 1, F1 = 0.8
    ("(a / x :ARG0 (b / y) :ARG1 (c / y))", "(d / x :ARG0 (e / y))", 4, 6, 4, 0.8),
    # the inverted constant is dropped, so both graphs are dog + TOP
    ("(a / dog :mod 5)", "(a / dog)", 2, 2, 2, 1.0),
    # nothing in common but TOP (a -> b): 1 of 2 each
    ("(a / dog)", "(b / cat)", 1, 2, 2, 0.5),
])
def test_hand_computed_scores(a, b, matched, n_a, n_b, f1):
    s = SCORER.score_pair(a, b)
    assert s.status == "optimal"
    assert (s.matched, s.test_triples, s.gold_triples) == (matched, n_a, n_b)
    assert s.f1 == pytest.approx(f1, abs=1e-12)
    assert s.precision == pytest.approx(matched / n_a) and s.recall == pytest.approx(matched / n_b)
    r = SCORER.score_pair(b, a)
    assert (r.matched, r.test_triples, r.gold_triples) == (matched, n_b, n_a)

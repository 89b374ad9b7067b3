"""smatchpp 1.8's aspects (:mod:`smatchpp.aspects.smatchpp18`) and its ``amr`` triples (preset
``smatchpp18-amr``): every subgraph below is worked out by hand from the rules in the
module docstring (1.8's numbers on BAMBOO STS and parseval-lp are in ``docs/aspects.md``)."""

from __future__ import annotations

import pytest

from smatchpp.aspects.core import AspectScorer, aspect_list, solver_function
from smatchpp.aspects.smatchpp18 import NAMES, Extractor, FramesError, frame_roles, read_frames
from smatchpp.presets import standardize
from smatchpp.presets.smatchpp18amr import amr18_triples
from smatchpp.graphs.read import read_text


def raw(text):
    return read_text(text)[0].graph


def sub(text, name, frames=None):
    return sorted(Extractor(frames).subgraphs(raw(text))[name].triples())


def inst(var, concept):
    return (var, "instance", concept)


# --------------------------------------------------------------------------
# 1.8's amr standardization


def test_standardization_steps_by_hand():
    g = raw('(a / Attack-01 :ARG0 (p / person :domain-of (b / big) :mod (t / tall)) :ARG1-of-of (x / X) '
            ':consist-of (y / y1) :location-of (l / be-located-at-91 :ARG1 x) '
            ':name (n / name :op1 "Rock \'n\'  Roll"))')
    # lower case; every " and ' deleted, spaces single; :domain-of -> :mod; every -of inverted
    # (consist-of and location-of too), -of-of kept forward; the root as (root, :root, concept);
    # l is not dereified: after inversion it has :location and :ARG1, not :ARG1 and :ARG2
    assert amr18_triples(g) == [
        (0, ":instance", "attack-01"), (0, ":arg0", 1), (0, ":arg1", 4), (0, ":name", 7),
        (0, ":root", "attack-01"),
        (1, ":instance", "person"), (1, ":mod", 2), (1, ":mod", 3),
        (2, ":instance", "big"), (3, ":instance", "tall"), (4, ":instance", "x"),
        (5, ":instance", "y1"), (5, ":consist", 0),
        (6, ":instance", "be-located-at-91"), (6, ":location", 0), (6, ":arg1", 4),
        (7, ":instance", "name"), (7, ":op1", "rock n roll")]


def test_dereification_first_concept_of_a_relation_only():
    # o has no incoming edge once :ARG0-of is inverted, and exactly its two table roles:
    # own-01 (:ARG1 dog, :ARG0 i) becomes dog :poss i
    own = raw("(i / i :ARG0-of (o / own-01 :ARG1 (d / dog)))")
    assert amr18_triples(own) == [(0, ":instance", "i"), (0, ":root", "i"),
                                  (2, ":instance", "dog"), (2, ":poss", 0)]
    # have-03 is the table's second concept for :poss: 1.8 keeps only the first
    have = raw("(i / i :ARG0-of (o / have-03 :ARG1 (d / dog)))")
    assert (1, ":instance", "have-03") in amr18_triples(have)
    # pointed to, or a third role: not dereified
    pointed = raw("(s / see-01 :ARG1 (d / dog) :ARG0 (i / i) :time (o / own-01 :ARG1 d :ARG0 i))")
    assert (0, ":time", 3) in amr18_triples(pointed)
    third = raw("(i / i :ARG0-of (o / own-01 :ARG1 (d / dog) :time (n / now)))")
    assert (1, ":instance", "own-01") in amr18_triples(third)


def test_preset_graph_keeps_constant_sources_and_root():
    g = standardize(raw('(s / sing-01 :ARG0-of "x" :polarity -)'), "smatchpp18-amr")
    assert g.variables == ("s",) and g.concepts == ("sing-01",)
    assert sorted(g.attributes) == [(0, "<arg0", "x"), (0, "polarity", "-"), (0, "root", "sing-01")]


# --------------------------------------------------------------------------
# every aspect, by hand

WANT = "(w / want-01 :ARG0 (b / boy :mod (t / tall)) :ARG1 (g / go-02))"
PARIS = '(c / city :wiki "Paris" :name (n / name :op1 "Paris"))'


def test_agent_descends_two_levels():
    assert sub(WANT, "AGENT") == sorted([inst("w", "want-01"), ("w", "arg0", "b"), inst("b", "boy"),
                                         ("b", "mod", "t"), inst("t", "tall")])
    deep = "(w / want-01 :ARG0 (a / a1 :mod (b / b1 :mod (c / c1 :mod (d / d1)))))"
    assert ("c", "mod", "d") not in sub(deep, "AGENT") and ("b", "mod", "c") in sub(deep, "AGENT")


def test_patient_and_srl_core():
    assert sub(WANT, "PATIENT") == sorted([inst("w", "want-01"), ("w", "arg1", "g"), inst("g", "go-02")])
    assert sub(WANT, "SRL-core") == sorted(set(sub(WANT, "AGENT")) | set(sub(WANT, "PATIENT")))


def test_concept_and_focus():
    assert sub(WANT, "CONCEPT") == sorted([inst("w", "want-01"), inst("b", "boy"), inst("t", "tall"),
                                           inst("g", "go-02")])
    # the root triple's target is the concept: there is nothing below it to descend into
    assert sub(WANT, "FOCUS") == sorted([inst("w", "want-01"), ("w", "root", "want-01")])


@pytest.mark.parametrize("name, role", [("INSTRUMENT", "instrument"), ("PURPOSE", "purpose"),
                                        ("TOPIC", "topic"), ("POSSESSION", "poss")])
def test_single_relation_aspects(name, role):
    text = f"(c / cut-01 :{role} (k / knife))"
    assert sub(text, name) == sorted([inst("c", "cut-01"), ("c", role, "k"), inst("k", "knife")])
    assert sub(WANT, name) == []


def test_location_by_role_and_by_concept_group():
    text = '(l / live-01 :ARG0 (p / person) :location (c / city :name (n / name :op1 "Paris")))'
    assert sub(text, "LOCATION (spatial)") == sorted([
        inst("l", "live-01"), ("l", "location", "c"), inst("c", "city"), ("c", "name", "n"),
        inst("n", "name"), ("n", "op1", "paris")])
    # a city anywhere, without a :location role
    assert ("c", "name", "n") in sub(PARIS, "LOCATION (spatial)")


def test_maths_ner_wiki_polarity_time_quantifier_question():
    assert sub("(s / sum-of :op1 1 :op2 2)", "MATHS") == sorted([
        inst("s", "sum-of"), ("s", "op1", "1"), ("s", "op2", "2"), ("s", "root", "sum-of")])
    assert sub(PARIS, "NER") == sorted([inst("c", "city"), ("c", "name", "n"), inst("n", "name"),
                                        ("n", "op1", "paris")])
    assert sub(PARIS, "WIKI") == sorted([inst("c", "city"), ("c", "wiki", "paris")])
    assert sub("(g / go-02 :polarity - :ARG1-of (w / want-01))", "POLARITY") == sorted([
        inst("g", "go-02"), ("g", "polarity", "-"), ("w", "arg1", "g"), inst("w", "want-01")])
    assert sub("(g / go-02 :time (d / date-entity :year 2020))", "TIME (temporal)") == sorted([
        inst("g", "go-02"), ("g", "time", "d"), inst("d", "date-entity"), ("d", "year", "2020")])
    money = "(p / pay-01 :ARG1 (m / monetary-quantity :quant 5 :unit (d / dollar)))"
    assert sub(money, "QUANTIFIER") == sorted([
        inst("p", "pay-01"), ("p", "arg1", "m"), inst("m", "monetary-quantity"), ("m", "quant", "5"),
        ("m", "unit", "d"), inst("d", "dollar")])
    # QUESTION: no descent, but the parents of the selected triples' sources
    question = "(s / say-01 :ARG1 (k / know-01 :ARG1 (a / amr-unknown)))"
    assert sub(question, "QUESTION") == sorted([
        inst("a", "amr-unknown"), ("k", "arg1", "a"), inst("k", "know-01"), ("s", "arg1", "k"),
        inst("s", "say-01")])


def test_reentrancies():
    text = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))"
    assert sub(text, "REENTRANCIES") == sorted([inst("w", "want-01"), ("w", "arg0", "b"), inst("b", "boy"),
                                                ("g", "arg0", "b"), inst("g", "go-02")])
    assert sub(WANT, "REENTRANCIES") == []


# --------------------------------------------------------------------------
# PropBank frame descriptions

FRAMES = ("hit-01  ARG0: hitter  ARG1: thing hit  ARG2: instrument, thing hit with\n"
          "own-01  ARG0: owner  ARG1: possession\n"
          "blame-01  ARG0: blamer  ARG1: blamed  ARG2: cause. reason\n")


@pytest.fixture
def frames(tmp_path):
    path = tmp_path / "frames.txt"
    path.write_text(FRAMES)
    return str(path)


def test_read_frames_and_renamings(frames):
    table = read_frames(frames)
    assert table["hit-01"][":arg2"] == " instrument thing hit with "
    assert table["blame-01"][":arg2"] == " cause reason "
    assert frame_roles(table) == {"hit-01": {":arg2": ":instrument"}, "blame-01": {":arg2": ":cause"},
                                  "own-01": {":arg0": ":poss", ":arg1": ":poss-of"}}


def test_frames_rename_core_roles(frames):
    hit = "(h / hit-01 :ARG0 (b / boy) :ARG2 (s / stick))"
    assert sub(hit, "INSTRUMENT") == []
    assert sub(hit, "INSTRUMENT", frames) == sorted([inst("h", "hit-01"), ("h", "instrument", "s"),
                                                     inst("s", "stick")])
    assert ("h", "arg2", "s") in sub(hit, "SRL-core") and sub(hit, "SRL-core", frames) == sorted([
        inst("h", "hit-01"), ("h", "arg0", "b"), inst("b", "boy")])
    # own-01's ARG1 becomes :poss-of, which 1.8 does not invert and POSSESSION does not select
    own = "(o / own-01 :ARG0 (i / i) :ARG1 (d / dog))"
    assert sub(own, "POSSESSION", frames) == sorted([inst("o", "own-01"), ("o", "poss", "i"), inst("i", "i")])


def test_bad_frame_file_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("hit-01  ARG0: hitter\nrun-01  ARG0 runner\n")
    with pytest.raises(FramesError, match=r"bad.txt, line 2: role 'arg0 runner' of 'run-01'"):
        Extractor(str(bad))


# --------------------------------------------------------------------------
# scoring: both alignment modes, vacuous agreement


def scorer(mode):
    return AspectScorer(mode, solver_function(), lambda r: standardize(r, "smatchpp18-amr"),
                        aspect_set="smatchpp18")


def test_separate_and_joint_alignment_by_hand():
    a = raw("(w / want-01 :ARG0 (b / boy :mod (t / tall)) :ARG1 (g / girl))")
    b = raw("(w / want-01 :ARG0 (g / girl) :ARG1 (b / boy :mod (t / tall)))")
    separate, joint = scorer("separate").score(a, b), scorer("joint").score(a, b)
    # the full graphs' only optimum is w->w, b->b, t->t, g->g (4 concepts, root, b mod t = 6;
    # swapping b and g earns both ARG roles but loses boy, girl and b mod t: 5)
    # AGENT: A {want-01, boy, tall, w arg0 b, b mod t}, B {want-01, girl, w arg0 g}.
    # Alone: w->w, b->g matches want-01 and the role: 2 of 5 / 3.
    # Under the full alignment B's AGENT has no b: only want-01 matches.
    assert (separate["AGENT"].matched, separate["AGENT"].test, separate["AGENT"].gold) == (2, 5, 3)
    assert (joint["AGENT"].matched, joint["AGENT"].test, joint["AGENT"].gold) == (1, 5, 3)
    # CONCEPT matches all four concepts either way
    assert separate["CONCEPT"].matched == joint["CONCEPT"].matched == 4


def test_empty_on_both_sides_scores_one():
    a = raw("(w / want-01 :ARG0 (b / boy))")
    counts = scorer("separate").score(a, a)
    assert list(counts) == list(NAMES)
    cause = counts["CAUSE"].to_json()
    assert (cause["test"], cause["gold"], cause["f1"]) == (0, 0, 1.0)
    one_sided = scorer("separate").score(a, raw("(c / cause-01 :ARG0 (b / boy))"))["CAUSE"].to_json()
    assert one_sided["f1"] == 0.0


def test_unknown_set_and_aspect():
    with pytest.raises(ValueError, match="unknown aspect set 'nosuch'"):
        aspect_list("nosuch")
    with pytest.raises(ValueError, match="unknown smatchpp18 aspect"):
        aspect_list("smatchpp18", ["AGENT", "agent"])

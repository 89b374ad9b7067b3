"""Reading clausal form (smatchpp.drs.clf), Referee's rules (referee) and Counter's clauses
(clauses): located errors, REF pruning, types, -Of inversion, the WordNet map, the ablations."""

import json

import pytest

from smatchpp.drs import IllFormed, check, counter_clauses, load_signature, load_wordnet_map, read_clf, read_clf_text
from smatchpp.core.exceptions import ReadError
from smatchpp.metrics import get_metric

SIGNATURE = """# a small signature in the shape of clf_signature.yaml
bx:
  DRS:
    - REF
bb:
  DRS:
    - NOT
    - POS
  DRL:
    - CONTINUATION
  PRE:
    - PRESUPPOSITION
bbb:
  DRS:
    - IMP
btt:
  TRL:
    - EQU
    - NEQ
  ERO:
    - Agent
    - Theme
  CRO:
    - Owner
"""


@pytest.fixture
def sig(tmp_path):
    p = tmp_path / "sig.yaml"
    p.write_text(SIGNATURE)
    return p


def test_reader_comments_blank_lines_and_places():
    text = ("%%% raw text\n"
            "b1 REF x1 % first\n"
            "   % an indented comment\n"
            "b1 dog \"n.01\" x1\n"
            "\n\n\n"
            "b2 REF x2\n")
    drss = read_clf_text(text, "f.clf")
    assert len(drss) == 2
    assert drss[0].clauses == (("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1"))
    assert drss[0].lines == (2, 4) and drss[1].line == 8 and drss[1].index == 1


def test_signature_file_is_read_and_bad_lines_are_located(tmp_path, sig):
    s = load_signature(sig)
    assert s["REF"] == ("DRS", "bx") and s["Owner"] == ("CRO", "btt") and s["PRESUPPOSITION"] == ("PRE", "bb")
    bad = tmp_path / "bad.yaml"
    bad.write_text("bx:\n  DRS:\n    - REF\n  what is this\n")
    with pytest.raises(ValueError, match="bad.yaml: line 4"):
        load_signature(bad)


def test_ill_formed_drs_error_names_file_line_and_drs(tmp_path, sig):
    f = tmp_path / "sys.clf"
    f.write_text("b1 REF x1\nb1 dog \"n.01\" x1\n\n"
                 "b1 REF x1\nb1 dog \"n.01\" x2\n")  # DRS 2: x2 is bound nowhere
    m = get_metric("counter", signature_file=str(sig))
    a, b = read_clf(f)
    m.features(a)
    with pytest.raises(ReadError) as err:
        m.features(b)
    text = str(err.value)
    assert str(f) in text and ":5:" in text and "DRS 2" in text and "clause 2: unbound referents: x2" in text


def test_error_points_at_the_clause(tmp_path, sig):
    f = tmp_path / "sys.clf"
    f.write_text("b1 REF x1\nb1 dog \"n.01\" x1\nb1 Frobnicate x1 x1\n")
    with pytest.raises(ReadError, match=r"sys.clf:3: graph 0: DRS 1: ill-formed: clause 3: unknown operator Frobnicate"):
        get_metric("counter", signature_file=str(sig)).features(read_clf(f)[0])


@pytest.mark.parametrize("clf, message", [
    ([("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1"), ("b1", "Agent", "x1", "b1")], "b1 is of type"),
    ([("b1", "REF", "x1"), ("b1", "NOT", "b2"), ("b2", "REF", "x2"), ("b2", "dog", '"n.01"', "x2"),
      ("b3", "REF", "x3"), ("b3", "dog", '"n.01"', "x3")], "b3 are not connected"),
    ([("b1", "REF", "x1"), ("b1", "NOT", "b2"), ("b2", "NOT", "b1"), ("b1", "dog", '"n.01"', "x1")], "loop"),
    ([("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1", "x2")], "3 or 4 tokens"),
    ([("b1", "REF", "x1"), ("b1", "dog", 'n"01', "x1")], "ill-formed argument|unknown operator"),
])
def test_referee_rejects(clf, message, sig):
    with pytest.raises(IllFormed, match=message):
        check(clf, load_signature(sig))


def test_referee_accepts_unrelated_boxes_when_no_box_relates_to_another(sig):
    # Referee checks connectedness only when the subordination relation has a pair
    check([("b1", "REF", "x1"), ("b2", "REF", "x2"), ("b1", "dog", '"n.01"', "x1"), ("b2", "dog", '"n.01"', "x2")],
          load_signature(sig))


def test_referee_accepts_nested_boxes_and_presuppositions(sig):
    check([("b1", "REF", "x1"), ("b1", "PRESUPPOSITION", "b2"), ("b1", "person", '"n.01"', "x1"),
           ("b2", "REF", "e1"), ("b2", "Agent", "e1", "x1"), ("b2", "sleep", '"v.01"', "e1"),
           ("b2", "NOT", "b3"), ("b3", "REF", "x2"), ("b3", "Theme", "e1", "x2"),
           ("b3", "EQU", "x2", '"now"')], load_signature(sig))


def test_ref_pruning_and_include_ref():
    raw = [("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1"),  # x1 used in b1: dropped
           ("b2", "REF", "x2"), ("b1", "cat", '"n.01"', "x2"),  # x2 used only in b1: kept
           ("b3", "REF", "x3"), ("b3", "REF", "x3")]  # a repeated REF: Counter drops both
    labels = [c.label for c in counter_clauses(raw).clauses]
    assert labels == [("concept", "dog", '"n.01"'), ("op", "REF"), ("concept", "cat", '"n.01"')]
    kept = counter_clauses(raw, include_ref=True)
    assert [c.label for c in kept.clauses].count(("op", "REF")) == 3  # the repeated REF counts once
    assert counter_clauses(raw).total == 3 and kept.total == 5


def test_of_roles_are_inverted_and_symmetric_constants_moved():
    d = counter_clauses([("b1", "REF", "x1"), ("b1", "REF", "x2"), ("b1", "OwnerOf", "x1", "x2"),
                         ("b1", "NEQ", '"now"', "x1")], include_ref=True)
    names = d.names
    assert [(c.label, tuple(names[v] for v in c.vars)) for c in d.clauses[2:]] == [
        (("role", "Owner"), ("b1", "x2", "x1")), (("op_c2", "NEQ", '"now"'), ("b1", "x1"))]


def test_types_box_and_referent_never_align(sig):
    s = load_signature(sig)
    # in the test DRS k is a box (POS's argument), in the gold DRS first a referent (REF, kept)
    a = counter_clauses([("b1", "POS", "k")], s)
    b = counter_clauses([("b1", "REF", "k"), ("b1", "POS", "k")], s, include_ref=True)
    assert a.types == ("b", "b") and b.types == ("b", "x")
    m = get_metric("counter")
    assert m.stats(a, b)[:2] == (0.0, 0.0)
    same = counter_clauses([("b1", "POS", "k")], s)
    assert m.stats(a, same)[:2] == (1.0, 1.0)


def test_wordnet_map_json_and_python(tmp_path):
    raw = [("b1", "REF", "x1"), ("b1", "hound", '"n.01"', "x1")]
    j = tmp_path / "wn.json"
    j.write_text(json.dumps({"hound.n.01": "dog.n.01"}))
    py = tmp_path / "wordnet_dict_en.py"
    py.write_text("en_sense_dict = {'hound.n.01': 'dog.n.01'}\n")
    for path in (j, py):
        d = counter_clauses(raw, wordnet=load_wordnet_map(path))
        assert d.clauses[0].label == ("concept", "dog", '"n.01"')
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match="bad.json: not a WordNet map"):
        load_wordnet_map(bad)


def test_ablations_change_labels_and_the_signature():
    raw = [("b1", "REF", "x1"), ("b1", "REF", "e1"), ("b1", "dog", '"n.02"', "x1"), ("b1", "run", '"v.01"', "e1"),
           ("b1", "Agent", "e1", "x1")]
    assert [c.label for c in counter_clauses(raw, default_sense=True).clauses][:2] == [
        ("concept", "dog", '"n.01"'), ("concept", "run", '"n.01"')]
    dc = counter_clauses(raw, default_concept=True)
    assert {c.label for c in dc.clauses if c.label[0] == "concept"} == {("concept", "work", '"n.01"')}
    assert counter_clauses(raw, default_role=True).clauses[-1].label == ("role", "Role")
    sig = get_metric("counter", default_sense=True, default_role=True, include_ref=True).signature()
    for key in ("counter-default-sense:yes", "counter-default-role:yes", "counter-include-ref:yes",
                "counter-default-concept:no"):
        assert key in sig


def test_ill_policies(tmp_path, sig):
    f = tmp_path / "sys.clf"
    f.write_text("b1 dog \"n.01\" x1\n")  # unbound x1
    drs = read_clf(f)[0]
    dummy = get_metric("counter", signature_file=str(sig), ill="dummy")
    d = dummy.features(drs)
    assert d.total == 1 and not d.clauses[0].matchable
    assert dummy.stats(d, d)[:2] == (0.0, 0.0)  # a dummy DRS never matches, not even itself
    assert get_metric("counter", signature_file=str(sig), ill="dummy", include_ref=True).features(drs).total == 2
    with pytest.raises(ValueError, match="spar=FILE"):
        get_metric("counter", ill="spar")
    spar = tmp_path / "baseline_drs.txt"
    spar.write_text("b1 REF x1\nb1 entity \"n.01\" x1\n")
    s = get_metric("counter", signature_file=str(sig), ill="spar", spar=str(spar)).features(drs)
    assert [c.label for c in s.clauses] == [("concept", "entity", '"n.01"')]
    scored = get_metric("counter", signature_file=str(sig), ill="score").features(drs)
    assert [c.label for c in scored.clauses] == [("concept", "dog", '"n.01"')]


SIGNATURE_2019 = """# v.2.2.0's shape: DRS is an operator of boxes, a discourse relation takes a box and two segments
bx:
  DRS:
    - REF
bb:
  DRS:
    - NOT
    - DRS
bbb:
  DRS:
    - IMP
  DRL:
    - CONTINUATION
btt:
  ERO:
    - Agent
"""
SDRS = [("k0", "DRS", "b1"), ("k0", "DRS", "b2"), ("k0", "CONTINUATION", "b1", "b2"), ("b1", "REF", "x1"),
        ("b1", "dog", '"n.01"', "x1"), ("b2", "REF", "e1"), ("b2", "bark", '"v.01"', "e1"), ("b2", "Agent", "e1", "x1")]


@pytest.fixture
def sig2019(tmp_path):
    p = tmp_path / "sig2019.yaml"
    p.write_text(SIGNATURE_2019)
    return load_signature(p)


def test_referee_2019_reads_segmented_drss_that_the_2021_rules_refuse(sig2019):
    """PMB 2.2.0's segmented DRSs (k DRS b, k REL b1 b2) are Referee v.2.2.0's; the later rules
    have no DRS clause (experiments/compare_counter.py --referee 2.2.0/dev: the same verdicts as
    Counter v.2.2.0's Referee on every DRS, docs/benchmarks.md 25.2)."""
    check(SDRS, sig2019, rules="2019")
    with pytest.raises(IllFormed):
        check(SDRS, sig2019)
    # a segment that no relation relates, and a relation of a box that is no segment
    with pytest.raises(IllFormed, match="segments of box k0"):
        check(SDRS[:2] + [("k0", "CONTINUATION", "b1", "b3"), ("b3", "REF", "x3")] + SDRS[3:], sig2019, rules="2019")
    with pytest.raises(ValueError, match="unknown Referee rules"):
        check(SDRS, sig2019, rules="2020")


def test_referee_2019_wants_one_main_box_where_2021_wants_connected_boxes(sig2019):
    apart = [("b1", "REF", "x1"), ("b2", "REF", "x2"), ("b1", "dog", '"n.01"', "x1"), ("b2", "dog", '"n.01"', "x2")]
    check(apart, sig2019)  # 2021: no box relates to another, nothing to connect
    with pytest.raises(IllFormed, match="no main box"):
        check(apart, sig2019, rules="2019")
    nested = [("b1", "REF", "x1"), ("b1", "NOT", "b2"), ("b2", "REF", "e1"), ("b2", "Agent", "e1", "x1"),
              ("b1", "dog", '"n.01"', "x1")]
    check(nested, sig2019, rules="2019")
    # RoleOf: the 2021 rules type it by its role, v.2.2.0 knows no such operator
    inverse = nested[:3] + [("b2", "AgentOf", "x1", "e1")] + nested[4:]
    check(inverse, sig2019)
    with pytest.raises(IllFormed, match="unknown operator AgentOf"):
        check(inverse, sig2019, rules="2019")


def test_the_counter_metric_takes_and_signs_the_2019_rules(tmp_path):
    (tmp_path / "sig.yaml").write_text(SIGNATURE_2019)
    (tmp_path / "s.clf").write_text("\n".join(" ".join(c) for c in SDRS) + "\n")
    m = get_metric("counter", referee="2019", signature_file=str(tmp_path / "sig.yaml"))
    assert "|counter-referee:2019|" in m.signature()
    d = read_clf(tmp_path / "s.clf")[0]
    assert m.ill_formed(d) is None and m.stats(m.features(d), m.features(d))[:2] == (6.0, 6.0)  # the REFs are used: pruned
    with pytest.raises(ReadError, match="ill-formed"):
        get_metric("counter", signature_file=str(tmp_path / "sig.yaml")).features(d)

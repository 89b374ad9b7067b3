"""SEMA (smatchpp.metrics.sema): hand-computed cases per rule, properties, the CLI.

Counts are ``(matched, test triples, gold triples)``; triples are instances,
relations and attributes (TOP is none of them).  Each expected count is worked
out in the comment beside it.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clirun import run
from smatchpp import __version__
from smatchpp.metrics import get_metric
from smatchpp.graphs.read import RawGraph, read_text
from strategies import penman_specs, render_penman, renamings


def graph(text: str) -> RawGraph:
    (entry,) = read_text(text)
    assert entry.error is None, entry.error
    return entry.graph


def stats(test: str, gold: str, counting: str = "no") -> tuple:
    m = get_metric("sema", reference_counting=counting)
    return tuple(m.stats(m.features(graph(test)), m.features(graph(gold))))


def f1(test: str, gold: str, counting: str = "no") -> float:
    m = get_metric("sema", reference_counting=counting)
    return m.pair_scores(stats(test, gold, counting))["f1"]


BOY = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))"
GIRL = "(w / want-01 :ARG0 (g / girl) :ARG1 (g2 / go-01 :ARG0 g))"
ONE = "(a / x :ARG0 (b / y))"
TWO = "(a / x :ARG0 (b / y) :ARG0 (c / y))"


@pytest.mark.parametrize("counting", ["no", "9a4911c", "0ede9e0"])
def test_relations_count_with_their_end_concepts(counting):
    # only (ARG1, want-01, go-01) agrees: the relation, its two nodes; the roots agree too
    # (want-01, already counted as the relation's start at 9a4911c and by us; at the head
    # the root match is a gold triple and the start node a test one: counted twice)
    expected = {"no": (3, 6, 6), "9a4911c": (3, 6, 6), "0ede9e0": (4, 6, 6)}[counting]
    assert stats(BOY, GIRL, counting) == expected


def test_self_similarity_and_the_reference_over_counts():
    assert stats(ONE, ONE) == (3, 3, 3)
    assert stats(ONE, ONE, "9a4911c") == (3, 3, 3)
    # the head: root match + node b + relation + node a = 4 > 3: F1 4/3
    assert stats(ONE, ONE, "0ede9e0") == (4, 3, 3)
    assert f1(ONE, ONE, "0ede9e0") == pytest.approx(4 / 3, abs=1e-15)


def test_one_test_relation_counts_two_gold_ones_in_the_reference():
    # 9a4911c keeps gold triples in visited: root 1 + (b, rel) 2 + (c, rel2) 2 = 5 of 3 test
    # triples: P 5/3, R 1, F1 1.25
    assert stats(ONE, TWO, "9a4911c") == (5, 3, 5)
    assert f1(ONE, TWO, "9a4911c") == pytest.approx(1.25, abs=1e-15)
    # ours: relations min(1, 2) = 1; covered x: 1 and 1, y: 1 and 2 -> 2 nodes; 3 of 3 and 5
    assert stats(ONE, TWO) == (3, 3, 5)
    assert f1(ONE, TWO) == pytest.approx(2 * 1 * 0.6 / 1.6, abs=1e-15)


def test_a_second_relation_between_counted_nodes_is_not_counted_by_the_reference():
    # a-ARG0->b and a-ARG1->b on both sides (2 instances + 2 relations). 9a4911c: the root
    # match counts a; ARG0 counts b and itself (3); ARG1 finds both nodes counted and a
    # relation between them already: not counted. 3 of 4. Ours: 4 of 4.
    g = "(a / x :ARG0 (b / y) :ARG1 b)"
    assert stats(g, g, "9a4911c") == (3, 4, 4)
    assert stats(g, g) == (4, 4, 4)


def test_attributes_need_label_value_and_owner_concept():
    assert stats("(a / x :polarity -)", "(b / x :polarity -)") == (2, 2, 2)
    # the roots differ and the owner's concept too: nothing
    assert stats("(a / x :polarity -)", "(b / y :polarity -)") == (0, 2, 2)
    assert f1("(a / x :polarity -)", "(b / y :polarity -)") == 0.0


def test_mod_is_domain_and_inverse_roles_turn_except_consist_of():
    # x :mod y is stored as y :domain x, as written the other way; the roots differ
    assert stats("(a / x :mod (b / y))", "(b / y :domain (a / x))") == (3, 3, 3)
    assert stats("(a / x :ARG0-of (b / y))", "(b / y :ARG0 (a / x))") == (3, 3, 3)
    # consist-of stays as written: no relation agrees (roots differ too)
    assert stats("(a / x :consist-of (b / y))", "(b / y :consist (a / x))") == (0, 3, 3)


def test_reference_reading_of_quoted_constants():
    # the reference keeps the first word of a quoted constant: "New York" == "New Jersey"
    ny, nj = '(n / name :op1 "New York")', '(n / name :op1 "New Jersey")'
    assert stats(ny, nj, "9a4911c") == (2, 2, 2)
    # ours compares the constants as written: only the root agrees
    assert stats(ny, nj) == (1, 2, 2)


def test_reference_reading_drops_an_attribute_written_with_an_inverse_role():
    # ":mod -" is stored under the constant by the reference's reader: no attribute at all
    assert stats("(a / x :mod -)", "(a / x :mod -)", "9a4911c") == (1, 1, 1)
    assert stats("(a / x :mod -)", "(a / x :mod -)") == (2, 2, 2)


@pytest.mark.parametrize("counting", ["no", "9a4911c", "0ede9e0"])
def test_empty_graphs(counting):
    m = get_metric("sema", reference_counting=counting)
    empty = RawGraph(top=None, triples=(), variables=())
    one = m.features(graph(ONE))
    assert m.pair_scores(m.stats(m.features(empty), m.features(empty)))["f1"] == 1.0
    assert m.pair_scores(m.stats(m.features(empty), one))["f1"] == 0.0
    assert m.pair_scores(m.stats(one, m.features(empty)))["f1"] == 0.0


def test_parameter_in_the_signature_and_checked():
    assert get_metric("sema", reference_counting="9a4911c").signature() == (
        f"smatchpp:{__version__}|metric:sema|sema-reference-counting:9a4911c|errors:raise|deterministic:yes")
    with pytest.raises(ValueError, match="reference_counting must be"):
        get_metric("sema", reference_counting="yes")


@settings(max_examples=80, deadline=None)
@given(spec=penman_specs())
def test_self_similarity_is_one(spec):
    m = get_metric("sema")
    f = m.features(graph(render_penman(spec)))
    assert m.pair_scores(m.stats(f, f))["f1"] == 1.0


@settings(max_examples=80, deadline=None)
@given(a=penman_specs(), b=penman_specs())
def test_symmetric_and_never_above_one(a, b):
    m = get_metric("sema")
    fa, fb = m.features(graph(render_penman(a))), m.features(graph(render_penman(b)))
    ab, ba = m.stats(fa, fb), m.stats(fb, fa)
    assert ab == (ba[0], ba[2], ba[1])
    assert ab[0] <= min(ab[1], ab[2])


@settings(max_examples=60, deadline=None)
@given(data=st.data(), counting=st.sampled_from(["no", "9a4911c"]))
def test_renaming_variables_and_reordering_branches(data, counting):
    spec = data.draw(penman_specs())
    names, orders = data.draw(renamings(spec))
    m = get_metric("sema", reference_counting=counting)
    a = m.features(graph(render_penman(spec)))
    b = m.features(graph(render_penman(spec, names, orders)))
    other = m.features(graph(render_penman(data.draw(penman_specs()))))
    if counting == "no":
        # our count depends on neither names nor order
        assert m.stats(a, other) == m.stats(b, other) and m.stats(other, a) == m.stats(other, b)
    else:
        # the reference's greedy count follows the written order; names alone change nothing
        c = m.features(graph(render_penman(spec, names)))
        assert m.stats(a, other) == m.stats(c, other)


def test_cli_score(tmp_path):
    (tmp_path / "t.amr").write_text(f"{BOY}\n\n{ONE}\n")
    (tmp_path / "g.amr").write_text(f"{GIRL}\n\n{TWO}\n")
    r = run("score", "t.amr", "g.amr", "--metric", "sema", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    # micro: (3 + 3) / (6 + 3) and (3 + 3) / (6 + 5): P 66.67, R 54.55, F1 60.00;
    # macro: P (0.5 + 1) / 2, R (0.5 + 0.6) / 2, F1 (0.5 + 0.75) / 2
    assert r.stdout.splitlines() == [
        f"smatchpp:{__version__}|metric:sema|sema-reference-counting:no|errors:raise|deterministic:yes",
        "pairs: 2 scored: 2", "micro  P 66.67  R 54.55  F1 60.00", "macro  P 75.00  R 55.00  F1 62.50"]
    r = run("score", "t.amr", "g.amr", "--metric", "sema", "--sema-reference-counting", "9a4911c",
            cwd=tmp_path)
    # 9a4911c: (3 + 5) / 9 and 8 / 11: F1 2 * 8 / 20 = 80.00; macro P (0.5 + 5/3) / 2, F1 (0.5 + 1.25) / 2
    assert r.stdout.splitlines()[2:] == ["micro  P 88.89  R 72.73  F1 80.00",
                                         "macro  P 108.33  R 75.00  F1 87.50"]


@settings(max_examples=60, deadline=None)
@given(a=penman_specs(), b=penman_specs())
def test_upper_stats_bound_the_score(a, b):
    m = get_metric("sema")
    fa, fb = m.features(graph(render_penman(a))), m.features(graph(render_penman(b)))
    assert m.pair_scores(m.upper_stats(fa, fb))["f1"] >= m.pair_scores(m.stats(fa, fb))["f1"] - 1e-12
    assert get_metric("sema", reference_counting="9a4911c").upper_stats(fa, fb) is None

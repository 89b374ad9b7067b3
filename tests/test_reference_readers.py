"""The ``amr-suite`` and ``smatch-1.0.1`` presets, rule by rule, on hand-written graphs.

Each expected triple set is worked out by hand from the rules in
``smatchpp/presets/suite.py`` (the reference reader's code, cited there line by
line); ``experiments/compare_readers.py`` checks the same presets against the
reference readers themselves on BAMBOO and AMRParseEval.  Triples are written
``(source, role, target)`` with variable names, labels lower-cased.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from dataclasses import replace
from hypothesis import given, settings

import oracle
from smatchpp.api import Config, score_pair
from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.matchers import ExactMatcher
from smatchpp.alignment.solvers import get_solver
from strategies import graph_pairs
from smatchpp.presets import ALIASES, get_preset, standardize
from smatchpp.graphs.read import read_text
from clirun import run


def raw(text: str, fmt: str = "penman"):
    entry = read_text(text, fmt=fmt)[0]
    assert entry.error is None, entry.error
    return entry.graph


def suite(text: str, preset: str = "amr-suite", fmt: str = "penman") -> list:
    """Every triple (duplicates included), sorted."""
    return sorted(standardize(raw(text, fmt), preset).triples())


def test_rule1_of_inverted_onto_a_node_written_there():
    # :ARG0-of (b / bark): b ARG0 a; consist-of has no exception here (smatch 1.0.4 keeps it)
    assert suite("(a / dog :ARG0-of (b / bark-01) :consist-of (c / fur))") == [
        ("a", "instance", "dog"), ("a", "top", "dog"), ("b", "arg0", "a"),
        ("b", "instance", "bark-01"), ("c", "consist", "a"), ("c", "instance", "fur")]


def test_rule1_of_inverted_when_last_role_of_its_node():
    # (b ... :ARG0-of a) is b's last role: inverted, a ARG0 b (the ARG1 a->b is then replaced,
    # rule 3, see below); here with a separate node to keep it apart: c ARG1 b
    assert suite("(a / A :ARG0 (b / B) :ARG2 (c / C :ARG1-of b))") == [
        ("a", "arg0", "b"), ("a", "arg2", "c"), ("a", "instance", "a"), ("a", "top", "a"),
        ("b", "arg1", "c"), ("b", "instance", "b"), ("c", "instance", "c")]


def test_rule1_of_followed_by_another_role_is_kept_as_written():
    # :ARG2-of b is followed by :polarity: a arg2-of b, not inverted (onto a node defined
    # before, or after: the same)
    assert suite("(a / A :ARG1-of (b / B) :ARG2-of b :polarity -)") == [
        ("a", "arg2-of", "b"), ("a", "instance", "a"), ("a", "polarity", "-"), ("a", "top", "a"),
        ("b", "arg1", "a"), ("b", "instance", "b")]
    # c not yet written when :ARG2-of c is read: second list, read after a ARG0 c (rule 3)
    assert suite("(a / A :ARG2-of c :polarity - :ARG0 (c / C))") == [
        ("a", "arg2-of", "c"), ("a", "instance", "a"), ("a", "polarity", "-"), ("a", "top", "a"),
        ("c", "instance", "c")]


def test_rule1_of_onto_a_constant_last_is_lost_and_not_last_is_an_attribute():
    # last role: filed under a node "x_" that does not exist -> lost; followed by another
    # role: an attribute named as written
    assert suite('(a / A :mod (b / B :ARG0-of "x"))') == [
        ("a", "instance", "a"), ("a", "mod", "b"), ("a", "top", "a"), ("b", "instance", "b")]
    assert suite('(a / A :ARG0-of "x" :polarity -)') == [
        ("a", "arg0-of", "x_"), ("a", "instance", "a"), ("a", "polarity", "-"), ("a", "top", "a")]


def test_rule2_mod_kept_and_mod_onto_a_constant_kept():
    # smatch 1.0.4 turns both into an inverse :domain and loses the one onto a constant
    assert suite("(a / A :mod (b / B) :mod 1)") == [
        ("a", "instance", "a"), ("a", "mod", "1"), ("a", "mod", "b"), ("a", "top", "a"),
        ("b", "instance", "b")]
    assert standardize(raw("(a / A :mod (b / B) :mod 1)"), "smatch").n_triples == 4


def test_rule3_one_relation_per_pair_of_nodes_the_last_read_kept():
    # :ARG0 (b / B) :ARG1 b: both are known relations when read, the later one stays
    assert suite("(a / A :ARG0 (b / B) :ARG1 b)") == [
        ("a", "arg1", "b"), ("a", "instance", "a"), ("a", "top", "a"), ("b", "instance", "b")]
    # :ARG0 b before b is written goes to the second list, read after the first: it stays
    assert suite("(a / A :ARG0 b :ARG1 (b / B))") == [
        ("a", "arg0", "b"), ("a", "instance", "a"), ("a", "top", "a"), ("b", "instance", "b")]
    # an inverted role joins its target's relations: b :ARG1-of a is a ARG1 b, after a ARG0 b
    assert suite("(a / A :ARG0 (b / B :ARG1-of a))") == [
        ("a", "arg1", "b"), ("a", "instance", "a"), ("a", "top", "a"), ("b", "instance", "b")]
    # the two layouts read the same triples in our reader; only the layout tells them apart
    one, two = raw("(a / A :ARG0 b :ARG1 (b / B))"), raw("(a / A :ARG0 (b / B) :ARG1 b)")
    assert one.triples == two.triples and one.inline != two.inline


def test_rule4_one_attribute_per_role_and_node():
    assert suite('(a / A :op1 "A" :op1 "B" :op2 5)') == [
        ("a", "instance", "a"), ("a", "op1", "b_"), ("a", "op2", "5"), ("a", "top", "a")]


def test_rule5_constants_and_concepts():
    # one token: the closing quote becomes _; several: the first token; empty: _
    assert suite('(a / "Foo Bar" :name "Rex" :op1 "New York" :op2 "" :op3 5)') == [
        ("a", "instance", "foobar_"), ("a", "name", "rex_"), ("a", "op1", "new"),
        ("a", "op2", "_"), ("a", "op3", "5"), ("a", "top", "foobar_")]
    # "5" and 5 differ (the suite compares lower-cased labels, _ kept)
    s = score_pair('(a / A :quant "5")', "(a / A :quant 5)", preset="amr-suite")
    assert (s.matched, s.test_triples, s.gold_triples) == (2, 3, 3)


def test_rule6_top_is_the_root_concept():
    assert suite("(d / Dog)") == [("d", "instance", "dog"), ("d", "top", "dog")]


def test_smatch_101_keeps_every_relation_and_attribute_and_strips_underscores():
    text = '(a / A :ARG0 (b / B) :ARG1 b :op1 "X" :op1 "Y" :mod (c / C :ARG0-of a))'
    assert suite(text, "smatch-1.0.1") == [
        ("a", "arg0", "b"), ("a", "arg0", "c"), ("a", "arg1", "b"), ("a", "instance", "a"),
        ("a", "mod", "c"), ("a", "op1", "x"), ("a", "op1", "y"), ("a", "top", "a"),
        ("b", "instance", "b"), ("c", "instance", "c")]
    s = score_pair('(a / A :quant "5")', "(a / A :quant 5)", preset="smatch-1.0.1")
    assert (s.matched, s.test_triples, s.gold_triples) == (3, 3, 3)
    assert suite(text, "amr-evaluation") == suite(text, "smatch-1.0.1")


def test_tsv_graphs_are_written_at_their_first_branch():
    # no layout in TSV: b is written at a's first branch to it (:ARG0), then :ARG1 b is a
    # reference to a node already written, as in (a / A :ARG0 (b / B) :ARG1 b)
    tsv = "a\t:instance\tA\na\t:ARG0\tb\na\t:ARG1\tb\nb\t:instance\tB\n"
    assert suite(tsv, fmt="tsv") == suite("(a / A :ARG0 (b / B) :ARG1 b)")


def test_alias_is_stored_and_signed_as_its_preset():
    assert ALIASES == {"amr-evaluation": "smatch-1.0.1"}
    assert get_preset("amr-evaluation") is get_preset("smatch-1.0.1")
    config = Config(preset="amr-evaluation")
    assert config.preset == "smatch-1.0.1" and "preset:smatch-1.0.1" in config.signature()


def test_cli_scores_with_the_reference_reader(tmp_path):
    # test: a ARG0 b, a ARG1 b (one kept: ARG1), a mod 1; gold: a ARG1 b, a mod 1
    # amr-suite: test {a/A, b/B, TOP A, a arg1 b, a mod 1} = 5, gold the same 5: F1 1
    # smatch-1.0.1: test has arg0 too (6), gold 5: matched 5, P 5/6, R 1
    (tmp_path / "t.amr").write_text("(a / A :ARG0 (b / B) :ARG1 b :mod 1)\n")
    (tmp_path / "g.amr").write_text("(a / A :ARG1 (b / B) :mod 1)\n")
    rows = {}
    for preset in ("amr-suite", "amr-evaluation"):
        out = run("score", "t.amr", "g.amr", "--preset", preset, "--format", "json", cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        rows[preset] = json.loads(out.stdout)
    assert rows["amr-suite"]["micro"]["f1"] == 1.0
    assert "preset:amr-suite" in rows["amr-suite"]["signature"]
    micro = rows["amr-evaluation"]["micro"]
    assert (micro["precision"], micro["recall"]) == pytest.approx((5 / 6, 1.0))
    assert "preset:smatch-1.0.1" in rows["amr-evaluation"]["signature"]


def test_score_help_points_to_the_table(tmp_path):
    out = run("score", "--help", cwd=tmp_path)
    text = " ".join(out.stdout.split())
    assert out.returncode == 0 and "docs/reference-readers.md" in text and "--preset amr-suite" in text
    assert "amr-suite:" in text and "smatch-1.0.1:" in text and "(alias amr-evaluation)" in text
    doc = (Path(__file__).resolve().parents[1] / "docs" / "reference-readers.md").read_text()
    assert "## To compare with X, use Y" in doc


HAND = [  # the graphs above, and one of each kind of branch in one graph
    "(a / A :ARG1-of (b / B) :ARG2-of b :polarity -)",
    "(a / A :ARG2-of c :polarity - :ARG0 (c / C))",
    '(a / A :ARG0-of "x" :polarity -)',
    "(a / A :ARG0 b :ARG1 (b / B))",
    '(a / "Foo Bar" :name "Rex" :op1 "New York" :op2 "" :op3 5)',
    '(a / A :ARG0 (b / B) :ARG1 b :op1 "X" :op1 "Y" :mod (c / C :ARG0-of a) :mod 1)',
]


@pytest.mark.parametrize("reader, preset", [("amr-suite", "amr-suite"), ("amr-evaluation", "smatch-1.0.1")])
def test_the_reference_reader_itself_agrees_on_the_hand_graphs(tmp_path, reader, preset):
    """Runs the reference reader as a peer when ``experiments/setup_readers.sh`` has set it up."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "experiments"))
    import compare_readers

    if not (compare_readers.ROOT / reader / "COMMIT").is_file():
        pytest.skip(f"reference reader {reader} not set up (experiments/setup_readers.sh)")
    path = tmp_path / "hand.amr"
    path.write_text("\n\n".join(HAND) + "\n")
    records = compare_readers.run_reader(reader, [path])[0]
    strip = compare_readers.READERS[reader][3]
    ours = [e.graph for e in read_text(path.read_text())]
    assert len(records) == len(ours) == len(HAND)
    for text, record, graph in zip(HAND, records, ours):
        assert compare_readers.our_multiset(graph, preset, strip) == \
            compare_readers.reference_multiset(record, strip), text


def test_duplicates_product_counts_as_smatch_does(tmp_path):
    # test: a/A, b/B, c/C, TOP a, a ARG0 b twice (smatch-1.0.1 keeps both), a ARG1 c: 7 triples;
    # gold: x/A, y/B, TOP x, x ARG0 y three times: 6.  a->x, b->y: instances 2, TOP 1, ARG0
    # min(2, 3) = 2 as multisets (5: P 5/7, R 5/6); 2 x 3 = 6 as smatch counts them (9: P 9/7,
    # R 9/6, what amr-evaluation's smatch.py prints for this pair: 1.29, 1.50, 1.38)
    (tmp_path / "t.amr").write_text("(a / A :ARG0 (b / B) :ARG0 b :ARG1 (c / C))\n")
    (tmp_path / "g.amr").write_text("(x / A :ARG0 (y / B) :ARG0 y :ARG0 y)\n")
    got = {}
    for dup in ("multiset", "product"):
        out = run("score", "t.amr", "g.amr", "--preset", "amr-evaluation", "--duplicates", dup,
                  "--format", "json", cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        got[dup] = json.loads(out.stdout)
        assert f"|dup:{dup}|" in got[dup]["signature"]
    assert (got["multiset"]["micro"]["precision"], got["multiset"]["micro"]["recall"]) == \
        pytest.approx((5 / 7, 5 / 6))
    assert (got["product"]["micro"]["precision"], got["product"]["micro"]["recall"]) == \
        pytest.approx((9 / 7, 9 / 6))
    again = run("score", "t.amr", "g.amr", "--signature", got["product"]["signature"], "--format", "json",
                cwd=tmp_path)
    assert json.loads(again.stdout)["micro"] == got["product"]["micro"]


def test_duplicates_product_only_for_exact_matching(tmp_path):
    assert Config(duplicates="product").signature().count("dup:product") == 1
    with pytest.raises(ValueError, match="needs match exact"):
        Config(duplicates="product", match="wsmatch")
    with pytest.raises(ValueError, match="needs match exact"):
        Config(duplicates="product", aspects="joint")
    out = run("score", "t.amr", "g.amr", "--duplicates", "product", "--match", "s2match", cwd=tmp_path)
    assert out.returncode == 2 and "needs match exact" in out.stderr and "Traceback" not in out.stderr


@settings(max_examples=60, deadline=None)
@given(graph_pairs(max_vars=4))
def test_duplicates_product_is_the_brute_force_optimum(pair):
    a, b = pair
    a = replace(a, relations=a.relations + a.relations[:2])  # make sure some triples repeat
    gold = oracle.triple_multiset(b)
    best = max(sum(c * gold[k] for k, c in oracle.mapped_multiset(a, m).items() if k in gold)
               for m in oracle.partial_maps(len(a.variables), len(b.variables)))
    matcher = ExactMatcher("product")
    problem = compile_pair(a, b, matcher)
    result = get_solver("exact").solve(problem, None, None)
    assert result.status == "optimal" and result.objective == best
    assert matcher.label_bound(a, b) >= best


def test_explain_refuses_duplicates_product(tmp_path):
    (tmp_path / "t.amr").write_text("(a / A :ARG0 (b / B) :ARG0 b)\n")
    out = run("explain", "t.amr", "t.amr", "--preset", "smatch-1.0.1", "--duplicates", "product", cwd=tmp_path)
    assert out.returncode == 2 and "needs --duplicates multiset" in out.stderr and out.stdout == ""

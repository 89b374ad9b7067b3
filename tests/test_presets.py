"""Every preset rule on small hand-made graphs, the smatch bugs the new presets fix, and properties.

Hand-computed expectations: each comment gives the triples that make the count.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from penman.models import amr as penman_amr

from smatchpp.api import Config, Scorer, parse_graph, score_pair
from smatchpp.presets import PRESETS, Options, Preset, describe, get_preset, standardize
from smatchpp.presets.amr import GUIDELINES_REIFICATIONS, MODEL
from smatchpp.presets.smatchpp18 import concept_identity
from smatchpp.graphs.read import read_text
from clirun import run
from strategies import penman_specs, render_penman, renamings

SHARED = Path(__file__).resolve().parents[2] / "shared"


def raw(text: str):
    entry = read_text(text)[0]
    assert entry.error is None, entry.error
    return entry.graph


def tg(text: str, preset: str, **options):
    return standardize(raw(text), preset, **options)


def counts(a: str, b: str, preset: str, **config):
    s = score_pair(a, b, preset=preset, **config)
    assert s.status == "optimal"
    return s.matched, s.test_triples, s.gold_triples


def named(g) -> set:
    """The triples with variable names: for comparing graphs that differ only in layout."""
    return set(g.triples())


# ---------------------------------------------------------------------------
# the registry


def test_registry_names_and_descriptions():
    assert list(PRESETS) == ["smatch", "smatch-legacy", "amr-suite", "smatch-1.0.1", "generic", "amr",
                             "smatchpp18-lossy", "smatchpp18-amr"]
    assert all(isinstance(p, Preset) and p.description for p in PRESETS.values())
    text = describe()
    assert all(f"{name}:" in text for name in PRESETS)


@pytest.mark.parametrize("name", ["", "Smatch", "smatch104", "amr ", None])
def test_unknown_preset_is_an_error(name):
    with pytest.raises(ValueError, match="unknown preset"):
        get_preset(name)
    with pytest.raises(ValueError, match="unknown preset"):
        Config(preset=name)
    with pytest.raises(ValueError, match="choose from smatch, smatch-legacy"):
        standardize(raw("(a / dog)"), name)


def test_a_preset_object_is_accepted():
    custom = Preset("only lower-casing", rules=PRESETS["generic"].rules[:1])
    g = standardize(raw("(a / Dog :ARG0-of (b / Bark))"), custom)
    assert g.relations == ((0, "arg0-of", 1),)  # no deinversion rule
    assert g.concepts == ("dog", "bark")


def test_smatch_is_the_default_and_unchanged():
    text = '(a / Dog :mod 5 :name "New York" :ARG0-of (b / bark-01) :polarity - :polarity -)'
    g = tg(text, "smatch")
    assert standardize(raw(text)) == g
    assert g.attributes == ((0, "name", "new"), (0, "polarity", "-"), (0, "polarity", "-"),
                            (0, "top", "top"))
    assert g.relations == ((1, "arg0", 0),)


# ---------------------------------------------------------------------------
# smatch-legacy: TOP's value is the root's concept


def test_legacy_top_is_the_root_concept():
    g = tg("(b / Bark-01_ :ARG0 (d / dog))", "smatch-legacy")
    assert g.attributes == ((0, "top", "bark-01"),)
    assert tg("(b / bark-01 :ARG0 (d / dog))", "smatch").attributes == ((0, "top", "top"),)


def test_legacy_different_roots_lose_the_top_triple():
    # smatch: dog/cat differ, TOP matches (a -> b): 1 of 2; legacy: TOP(dog) != TOP(cat): 0
    assert counts("(a / dog)", "(b / cat)", "smatch") == (1, 2, 2)
    assert counts("(a / dog)", "(b / cat)", "smatch-legacy") == (0, 2, 2)
    # same root concept: both triples match under either
    assert counts("(a / dog)", "(b / dog)", "smatch-legacy") == (2, 2, 2)


def test_legacy_root_concept_elsewhere():
    # A's root is cat, B's root is dog with a cat below it; legacy TOP(cat) cannot match
    # TOP(dog); smatch's constant TOP matches on the root pair only: a->y (cat) + TOP needs a->x
    a, b = "(a / cat)", "(x / dog :ARG0 (y / cat))"
    assert counts(a, b, "smatch") == (1, 2, 4)         # cat, or TOP: not both
    assert counts(a, b, "smatch-legacy") == (1, 2, 4)  # cat only


@given(penman_specs(max_vars=5))
def test_legacy_differs_from_smatch_only_in_top(spec):
    text = render_penman(spec)
    s, legacy = tg(text, "smatch"), tg(text, "smatch-legacy")
    assert (s.variables, s.concepts, s.relations) == (legacy.variables, legacy.concepts, legacy.relations)
    top = [(i, r, v) for i, r, v in legacy.attributes if r == "top"]
    assert top == [(0, "top", legacy.concepts[0])]
    assert [t if t[1] != "top" else (t[0], "top", "top") for t in legacy.attributes] == list(s.attributes)


# ---------------------------------------------------------------------------
# generic


def test_generic_lowercases_labels_not_variables():
    g = tg('(A / Dog :Polarity - :OP1 "BoB" :ARG0 (B / Cat :ARG1 A))', "generic")
    assert g.variables == ("A", "B")
    assert g.concepts == ("dog", "cat")
    assert g.attributes == ((0, "polarity", "-"), (0, "op1", "bob"), (0, "top", "top"))
    assert g.relations == ((0, "arg0", 1), (1, "arg1", 0))


def test_generic_keeps_quoted_constants_whole():
    # smatch bug: "New York" is cut to "new", so it matches "New"
    a, b = '(n / name :op1 "New York")', '(n / name :op1 "New")'
    assert counts(a, b, "smatch") == (3, 3, 3)
    # generic: name, TOP match; op1 "new york" != op1 "new": 2 of 3
    assert counts(a, b, "generic") == (2, 3, 3)
    assert tg('(a / "Foo Bar" :op1 "a  b")', "generic").concepts == ("foo bar",)
    assert tg('(a / x :op1 "a  b")', "generic").attributes[0] == (0, "op1", "a  b")


def test_generic_quoted_equals_unquoted_and_keeps_underscores():
    assert counts('(a / x :op1 "Bob")', "(a / x :op1 bob)", "generic") == (3, 3, 3)
    # smatch strips trailing '_' (a leftover of its quote marking); generic keeps labels as written
    assert counts("(a / dog_)", "(a / dog)", "smatch") == (2, 2, 2)
    assert counts("(a / dog_)", "(a / dog)", "generic") == (1, 2, 2)


def test_generic_keeps_inverted_roles_onto_constants():
    # smatch issue #26: an inverted role onto a constant is lost, so these graphs are "equal"
    a, b = '(a / dog :ARG0-of "x")', "(b / dog)"
    assert counts(a, b, "smatch") == (2, 2, 2)
    g = tg(a, "generic")
    assert g.attributes == ((0, "arg0-of", "x"), (0, "top", "top"))
    assert counts(a, b, "generic") == (2, 3, 2)


def test_generic_inverts_roles_onto_variables():
    a, b = "(d / dog :ARG0-of (b / bark-01))", "(b / bark-01 :ARG0 (d / dog))"
    assert tg(a, "generic").relations == ((1, "arg0", 0),)
    assert named(tg(a, "generic")) - named(tg(b, "generic")) == {("d", "top", "top")}
    # case is irrelevant once lower-cased (smatch's check is case-sensitive)
    assert tg("(d / dog :ARG0-OF (b / bark-01))", "generic").relations == ((1, "arg0", 0),)
    assert tg("(d / dog :ARG0-OF (b / bark-01))", "smatch").relations == ((0, "arg0-of", 1),)


def test_generic_has_no_amr_knowledge():
    # every -of is an inverse (consist-of too), :mod stays :mod
    assert tg("(a / x :consist-of (b / y))", "generic").relations == ((1, "consist", 0),)
    assert tg("(a / x :mod (b / y))", "generic").relations == ((0, "mod", 1),)


def test_generic_removes_duplicates():
    # smatch counts a repeated triple twice; generic once
    text = "(a / dog :ARG0 a :ARG0 a :polarity - :polarity -)"
    assert tg(text, "smatch").n_triples == 1 + 2 + 2 + 1
    g = tg(text, "generic")
    assert (g.attributes, g.relations) == (((0, "polarity", "-"), (0, "top", "top")), ((0, "arg0", 0),))
    # a duplicate made by normalization also goes: ARG0-of b and b's ARG0 a are one triple
    assert tg("(a / x :ARG0-of (b / y :ARG0 a))", "generic").relations == ((1, "arg0", 0),)
    assert counts("(a / dog :ARG0 a :ARG0 a)", "(a / dog :ARG0 a)", "generic") == (3, 3, 3)


# ---------------------------------------------------------------------------
# amr: roles


def test_amr_mod_and_domain_in_one_direction():
    forms = ["(c / cat :mod (b / big))", "(b / big :domain (c / cat))",
             "(b / big :mod-of (c / cat))", "(c / cat :domain-of (b / big))"]
    graphs = [tg(f, "amr") for f in forms]
    relations = {frozenset(named(g) - {(g.variables[0], "top", "top")}) for g in graphs}
    assert relations == {frozenset({("c", "instance", "cat"), ("b", "instance", "big"),
                                    ("b", "domain", "c")})}
    # smatch gets :mod/:domain but not :mod-of / :domain-of
    assert tg(forms[2], "smatch").relations == ((1, "mod", 0),)
    # onto a constant :mod stays
    assert tg('(c / cat :mod "x")', "amr").attributes[0] == (0, "mod", "x")


def test_amr_of_exceptions_and_double_inversion():
    assert tg("(a / x :consist-of (b / y))", "amr").relations == ((0, "consist-of", 1),)
    assert tg("(a / x :prep-out-of (b / y))", "amr").relations == ((0, "prep-out-of", 1),)
    assert tg("(a / x :ARG0-of-of (b / y))", "amr").relations == ((0, "arg0", 1),)
    assert tg("(a / x :ARG0-of (b / y))", "amr").relations == ((1, "arg0", 0),)
    assert tg('(a / x :ARG0-of "c")', "amr").attributes[0] == (0, "arg0-of", "c")


def test_amr_wiki_dropped_unless_kept():
    a = '(c / city :wiki "Paris" :name (n / name :op1 "Paris"))'
    b = '(c / city :name (n / name :op1 "Paris"))'
    # city, name, op1, name-rel, TOP = 5 each without wiki
    assert counts(a, b, "amr") == (5, 5, 5)
    assert counts(a, b, "amr", keep_wiki=True) == (5, 6, 5)
    assert counts(a, b, "generic") == (5, 6, 5)  # generic does not know :wiki
    assert tg(a, "amr", keep_wiki=True).attributes[0] == (0, "wiki", "paris")
    assert tg(a, "amr", options=Options(keep_wiki=True)) == tg(a, "amr", keep_wiki=True)


# ---------------------------------------------------------------------------
# amr: dereification, every row of the guidelines' table


def _reified(relation, concept, domain, range_, target="(y / thing)"):
    return f"(x / entity {domain}-of (z / {concept} {range_} {target}))"


@pytest.mark.parametrize("relation, concept, domain, range_", GUIDELINES_REIFICATIONS)
def test_amr_dereifies_every_table_row(relation, concept, domain, range_):
    plain = tg(f"(x / entity {relation} (y / thing))", "amr")
    reified = tg(_reified(relation, concept, domain, range_), "amr")
    assert named(reified) == named(plain)
    assert reified.n_triples == plain.n_triples == 4  # 2 instances, the relation, TOP
    # smatch and generic keep the reified node: 3 instances, 2 relations, TOP
    assert tg(_reified(relation, concept, domain, range_), "generic").n_triples == 6
    # the reified form scores 1.0 against the plain one only under amr
    a, b = _reified(relation, concept, domain, range_), f"(x / entity {relation} (y / thing))"
    assert score_pair(a, b, preset="amr").f1 == 1.0
    assert score_pair(a, b, preset="generic").f1 < 1.0


def test_amr_dereifies_onto_a_constant_and_from_a_written_order():
    assert named(tg("(x / e :ARG1-of (z / have-polarity-91 :ARG2 -))", "amr")) == \
        named(tg("(x / e :polarity -)", "amr"))
    g = tg("(l / leave-11 :ARG1-of (b / be-located-at-91 :ARG2 (c / city)))", "amr")
    assert ("l", "location", "c") in named(g) and "b" not in g.variables


@pytest.mark.parametrize("text", [
    # a third edge says more than the relation
    "(x / e :ARG1-of (z / be-located-at-91 :ARG2 (y / t) :polarity -))",
    # the reified node is the top
    "(z / be-located-at-91 :ARG1 (x / e) :ARG2 (y / t))",
    # something points to it
    "(x / e :ARG1-of (z / be-located-at-91 :ARG2 (y / t)) :ARG0 z)",
    # roles other than the table's
    "(x / e :ARG0-of (z / be-located-at-91 :ARG2 (y / t)))",
    # the domain would be a constant
    '(x / e :ARG2-of (z / be-located-at-91 :ARG1 "c"))',
    # penman's table, not the guidelines': cause-01, have-degree-92
    "(x / e :ARG1-of (z / cause-01 :ARG0 (y / t)))",
    "(x / e :ARG1-of (z / have-degree-92 :ARG2 (y / t)))",
])
def test_amr_does_not_dereify(text):
    assert "z" in tg(text, "amr").variables


def test_amr_dereified_mod_becomes_domain():
    g = tg("(x / e :ARG1-of (z / have-mod-91 :ARG2 (y / t)))", "amr")
    assert ("y", "domain", "x") in named(g)


def test_guidelines_table_against_penman():
    ours = {(r, c, s, t) for r, c, s, t in GUIDELINES_REIFICATIONS}
    theirs = set(penman_amr.reifications)
    # what the amr module doc says: degree is -91 vs -92; penman has 8 more rows
    assert ours - theirs == {(":degree", "have-degree-91", ":ARG1", ":ARG2")}
    assert {(r, c) for r, c, _, _ in theirs - ours} == {
        (":degree", "have-degree-92"), (":cause", "cause-01"), (":cost", "cost-01"),
        (":employed-by", "have-org-role-91"), (":role", "have-org-role-91"),
        (":meaning", "mean-01"), (":subset", "include-91"), (":superset", "include-91"),
        (":beneficiary", "receive-01")}
    assert MODEL.is_concept_dereifiable("have-degree-91")
    assert not MODEL.is_concept_dereifiable("have-degree-92")


def test_guidelines_table_matches_the_shared_guidelines():
    path = SHARED / "docs" / "amr-guidelines.md"
    if not path.is_file():
        pytest.skip(f"shared docs not found at {path}")
    rows = re.findall(r"^`(:[a-z-]+)`\s*\|\s*(.+?)\s*\|\s*`(:ARG\d)`\s*\|\s*`(:ARG\d)`",
                      path.read_text(encoding="utf-8"), flags=re.M)
    table = set()
    for relation, concepts, domain, range_ in rows:
        for concept in re.findall(r"`([a-z0-9-]+)`", concepts):
            table.add((relation, concept, domain, range_))
    assert len(rows) == 28
    assert table == set(GUIDELINES_REIFICATIONS)


# ---------------------------------------------------------------------------
# smatchpp18-lossy: the pair rewrite, carried by the preset


def test_lossy_preset_is_the_rewrite_scored_exactly():
    a, b = "(w / want-01 :ARG0 (b / boy))", "(w / want-01 :ARG0 (g / girl))"
    s = score_pair(a, b, preset="smatchpp18-lossy")
    ra, rb = concept_identity(parse_graph(a), parse_graph(b))
    # want-01 is single in both: its variable goes; free triples (top, arg0) remain
    assert (s.test_triples, s.gold_triples) == (ra.n_triples, rb.n_triples) == (2, 2)
    assert s.matched == 1 and s.f1 == 0.5
    assert "preset:smatchpp18-lossy" in Scorer(Config(preset="smatchpp18-lossy")).signature
    assert PRESETS["smatchpp18-lossy"].note and not PRESETS["smatch"].note


# ---------------------------------------------------------------------------
# properties over random PENMAN graphs, for every preset


@given(penman_specs(max_vars=5), st.data())
def test_every_preset_gives_one_for_a_rerendered_graph(spec, data):
    names, orders = data.draw(renamings(spec))
    a, b = render_penman(spec), render_penman(spec, names, orders)
    renamed = render_penman(spec, names)
    for name, preset in PRESETS.items():
        # a reference reader's triples depend on the layout: only renaming keeps them
        s = score_pair(a, renamed if preset.layout else b, preset=name)
        assert s.status == "optimal" and s.f1 == 1.0, (name, a, b)
        assert s.test_triples == s.gold_triples


@given(penman_specs(max_vars=5))
def test_generic_and_amr_have_no_duplicates(spec):
    text = render_penman(spec)
    for name in ("generic", "amr"):
        g = tg(text, name)
        assert len(set(g.attributes)) == len(g.attributes)
        assert len(set(g.relations)) == len(g.relations)
        assert len(g.concepts) == len(g.variables)


# ---------------------------------------------------------------------------
# the command line

# A has a :wiki and "New York"; B has neither wiki nor York
CLI_A = '(c / city :wiki "Paris" :name (n / name :op1 "New York"))\n'
CLI_B = '(c / city :name (n / name :op1 "New"))\n'


def _cli(tmp_path, *args):
    a, b = tmp_path / "a.amr", tmp_path / "b.amr"
    a.write_text(CLI_A)
    b.write_text(CLI_B)
    return run("score", a, b, "--quiet", *args, cwd=tmp_path)


@pytest.mark.parametrize("args, matched, n_a, n_b", [
    # smatch: city, name, wiki, op1 "new" (cut), TOP, :name = 6 / 5; all of B matches
    ([], 5, 6, 5),
    (["--preset", "smatch-legacy"], 5, 6, 5),
    # generic: op1 "new york" != op1 "new": 4 of (6, 5)
    (["--preset", "generic"], 4, 6, 5),
    # amr: the wiki goes: 4 of (5, 5); with --keep-wiki as generic
    (["--preset", "amr"], 4, 5, 5),
    (["--preset", "amr", "--keep-wiki"], 4, 6, 5),
    # smatchpp 1.8's rewrite: every concept is single, no variable is left; A's free triples:
    # wiki, op1, TOP, :name (4), B's: op1, TOP, :name (3), all of B's match
    (["--preset", "smatchpp18-lossy"], 3, 4, 3),
])
def test_cli_presets_numbers(tmp_path, args, matched, n_a, n_b):
    run = _cli(tmp_path, "--format", "json", *args)
    assert run.returncode == 0, run.stderr
    s = json.loads(run.stdout)
    assert (s["matched_lower"], s["test_triples"], s["gold_triples"]) == (matched, n_a, n_b)
    assert s["micro"]["f1"] == pytest.approx(2 * matched / (n_a + n_b))
    preset = args[1] if args else "smatch"
    assert f"|preset:{preset}|" in s["signature"]
    assert ("keep-wiki:yes" in s["signature"]) == ("--keep-wiki" in args)


def test_cli_lossy_preset_text_says_it_is_not_smatch(tmp_path):
    run = _cli(tmp_path, "--preset", "smatchpp18-lossy")
    assert run.returncode == 0 and "note: preset smatchpp18-lossy" in run.stdout
    assert "micro  P 75.00  R 100.00  F1 85.71" in run.stdout
    assert "NOTE" not in _cli(tmp_path).stdout


@pytest.mark.parametrize("args, message", [
    (["--preset", "smatch104"], "invalid choice: 'smatch104'"),
    (["--compression", "smatchpp"], "preset 'smatchpp18-lossy'"),
    (["--compression", "zip"], "unknown compression 'zip'"),
])
def test_cli_refuses_unknown_names(tmp_path, args, message):
    run = _cli(tmp_path, *args)
    assert run.returncode == 2 and message in run.stderr and run.stdout == ""


def test_cli_help_lists_the_presets():
    done = run("score", "--help", cwd=Path.cwd())
    done.check_returncode()
    text = " ".join(done.stdout.split())
    for name in PRESETS:
        assert f"{name}:" in text
    assert "--keep-wiki" in text and "{exact,none}" in text


def test_cli_signature_round_trip_with_a_preset(tmp_path):
    first = json.loads(_cli(tmp_path, "--format", "json", "--preset", "amr", "--keep-wiki").stdout)
    again = _cli(tmp_path, "--format", "json", "--signature", first["signature"])
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["micro"] == first["micro"]


def test_top_k_under_the_lossy_preset_does_not_prune_by_label_counts():
    # the rewrite changes the triples after standardization, so the label-count bound of the
    # standardized graphs bounds nothing. Query: (a) + TOP. A: concepts a, c, a, a + TOP: the
    # bound is 2 of (2, 5) -> F1 4/7, but c is single, its instance goes, and the rewritten pair
    # scores 2 of (2, 4) -> 2/3. G: a, a, TOP, arg0: bound and score 2 of (2, 4) -> 2/3.
    # A and G tie at 2/3, A has the lower index: A is the top hit (pruning by A's bound
    # 4/7 < 2/3 would return G).
    from smatchpp.matrix import top_k
    from smatchpp.graphs.triples import TripleGraph

    top = (0, "top", "top")
    query = TripleGraph(("q",), ("a",), (top,), ())
    a = TripleGraph(("v0", "v1", "v2", "v3"), ("a", "c", "a", "a"), (top,), ())
    g = TripleGraph(("x", "y"), ("a", "a"), (top,), ((0, "arg0", 1),))
    config = Config(preset="smatchpp18-lossy")
    scorer = Scorer(config)
    assert scorer.score_pair(query, a).f1 == scorer.score_pair(query, g).f1 == pytest.approx(2 / 3)
    hits = top_k([query], [a, g], 1, config)[0].hits
    assert [h.index for h in hits] == [0]
    # under smatch the bound holds and prunes: G (2/3) beats A (4/7)
    assert [h.index for h in top_k([query], [a, g], 1, Config())[0].hits] == [1]


def test_matrix_cli_reads_the_preset_options(tmp_path):
    # the wiki graph against the one without: amr drops the wiki (5 of (5, 5)),
    # with --keep-wiki it counts (5 of (6, 5)); the matrix reader must standardize that way
    path = tmp_path / "g.amr"
    path.write_text(CLI_A + "\n" + '(c / city :name (n / name :op1 "New York"))\n')
    expected = {(): 10 / 11, ("--preset", "amr"): 1.0, ("--preset", "amr", "--keep-wiki"): 10 / 11}
    for args, f1 in expected.items():
        out = tmp_path / "m.npz"
        done = run("matrix", path, "-o", out, "--quiet", *args, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert np.load(out)["f1"][0, 1] == pytest.approx(f1), args


def test_one_name_per_preset_thing():
    """`Preset` is the class of `smatchpp.presets`; a preset's name is a `PresetName`."""
    import importlib
    std = importlib.import_module("smatchpp.graphs.triples")
    assert std.PresetName is str and not hasattr(std, "Preset")
    assert Preset.__module__.startswith("smatchpp.presets")

"""DocAMR documents as docSmatch reads them (issue 32): sentence buckets, the restriction of
candidates to common buckets (``--sentence-buckets``) and the coreference subscore
(``--coref-subscore``).  Every expected number here is worked out by hand from docSmatch's
definitions (``categorize_nodes_by_sentence``, ``find_coref`` in IBM/docAMR's
``docSmatch/amr.py``); ``test_against_docsmatch`` checks the same graphs against docSmatch
itself when its environment is there (``experiments/compare_docsmatch.py``)."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from oracle import mapped_multiset, partial_maps, triple_multiset
from smatchpp.alignment.aligner import PairAligner
from smatchpp.api import parse_graph
from smatchpp.cli import main as cli_main
from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.config import Config
from smatchpp.graphs.read import read_text
from smatchpp.alignment.sentences import (coref_counts, coreference, is_document, sentence_buckets,
                                variable_buckets)


def raw(text: str):
    return read_text(text)[0].graph


def buckets(text: str) -> dict[str, list[int]]:
    g = raw(text)
    return {v: sorted(b) for v, b in zip(g.variables, sentence_buckets(g))}


# the representations docAMR writes, one small document each
NO_MERGE = """(d / document
  :snt1 (g / go-02 :ARG0 (p / person :name (n / name :op1 "Ann")))
  :snt2 (s / sleep-01 :ARG0 (p2 / person :name (n2 / name :op1 "Ann"))))"""
MERGE_NAMES = """(d / document
  :snt1 (g / go-02 :ARG0 (p / person :name (n / name :op1 "Ann")))
  :snt2 (s / sleep-01 :ARG0 p))"""
# merge-all / docAMR: a coreference chain node, an implicit role, :coref and a bridging :part
DOCAMR = """(d / document
  :snt1 (g / go-02 :ARG0 (c / coref-entity :name (n / name :op1 "Ann")) :ARG4 (h / house))
  :snt2 (s / sleep-01 :ARG0 c :location (r / room :part-of h))
  :snt3 (w / want-01 :ARG0 (i / implicit-role) :ARG1 (x / rest-01 :coref g)))"""
MULTI = "(m / multi-sentence :snt1 (a / dog :ARG0-of (b / bark-01)) :snt2 (c / cat :mod (q / big)))"


def test_document_roots_are_documents_and_sentences_are_not():
    assert is_document(raw(NO_MERGE)) and is_document(raw(MULTI))
    assert not is_document(raw("(a / dog :ARG0-of (b / bark-01))"))
    assert parse_graph(MULTI).document is not None
    assert parse_graph("(a / dog)").document is None


def test_buckets_of_every_representation():
    assert buckets(NO_MERGE) == {"d": [0], "g": [1], "p": [1], "n": [1], "s": [2], "p2": [2], "n2": [2]}
    # the merged name is reached from both sentences: in both buckets, with its :name subtree
    assert buckets(MERGE_NAMES) == {"d": [0], "g": [1], "p": [1, 2], "n": [1, 2], "s": [2]}
    # :coref g written under x: followed from g to x only, so x gains g's sentence and g
    # stays in 1; :part-of h written under r: followed both ways (r and h in 1 and 2)
    assert buckets(DOCAMR) == {"d": [0], "g": [1], "c": [1, 2], "n": [1, 2], "h": [1, 2],
                               "s": [2], "r": [1, 2], "w": [3], "i": [3], "x": [1, 3]}
    # :ARG0-of and :mod are followed the way they are written
    assert buckets(MULTI) == {"m": [0], "a": [1], "b": [1], "c": [2], "q": [2]}
    # a sentence-level graph is one bucket
    assert buckets("(a / dog :ARG0-of (b / bark-01))") == {"a": [0], "b": [0]}


def test_buckets_follow_written_direction_and_coref_fallback():
    # :ARG1 written from the child's side (x :ARG1-of y): y -> x and x -> y both followed;
    # :mod written under p: p -> q only, q does not reach p
    assert buckets("(d / document :snt1 (p / a :mod (q / b)) :snt2 (r / c :ARG0 q))") == \
        {"d": [0], "p": [1], "q": [1, 2], "r": [2]}
    # y is reached only through :coref (x :coref (y ...)): it hangs under x
    assert buckets("(d / document :snt1 (x / a :coref (y / b)) :snt2 (z / c))") == \
        {"d": [0], "x": [1], "y": [1], "z": [2]}


def test_coreference_items_of_every_representation():
    assert coreference(raw(NO_MERGE)).size == 0
    c = coreference(raw(MERGE_NAMES))
    assert c.nodes == () and sorted(c.edges) == [("g", "ARG0", "p"), ("s", "ARG0", "p")]
    c = coreference(raw(DOCAMR))
    assert sorted(c.nodes) == ["c", "i"]
    # into c (both ARG0) and into i; h :part r joins h and r both ways, so their sentence sets
    # are always equal and docSmatch's cross-sentence :part/:subset rule cannot fire
    assert sorted(c.edges) == [("g", "ARG0", "c"), ("s", "ARG0", "c"), ("w", "ARG0", "i")]


def test_coref_counts_by_hand():
    gold = raw(DOCAMR)
    # test: c is a plain person (not a coref node), i kept, no :part
    test = raw("""(d / document
  :snt1 (g / go-02 :ARG0 (c / person :name (n / name :op1 "Ann")) :ARG4 (h / house))
  :snt2 (s / sleep-01 :ARG0 c :location (r / room))
  :snt3 (w / want-01 :ARG0 (i / implicit-role) :ARG1 (x / rest-01)))""")
    same = [(v, v) for v in test.variables]
    # test items: c is a hub (ARG0 from snt1 and snt2): edges g-ARG0-c, s-ARG0-c; node i; edge w-ARG0-i
    assert coreference(test).size == 4
    # gold: 2 nodes + 3 edges; matched: node i (c is no test coref node), edges g/s ARG0 c
    # (test coref edges too), w ARG0 i
    assert coref_counts(test, gold, same) == (4, 4, 5)
    # without c aligned: the two ARG0 edges into c are lost
    assert coref_counts(test, gold, [p for p in same if p[0] != "c"]) == (2, 4, 5)


def _scores(*args: str, capsys) -> dict:
    assert cli_main(["score", *args, "--format", "json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def test_score_prints_the_coref_subscore(tmp_path, capsys):
    test = tmp_path / "t.amr"
    gold = tmp_path / "g.amr"
    test.write_text("""(d / document
  :snt1 (g / go-02 :ARG0 (p / person :name (n / name :op1 "Ann")))
  :snt2 (s / sleep-01 :ARG0 p :ARG1 (c / coref-entity)))

(d / document :snt1 (a / dog :ARG0 (c / cat)) :snt2 (b / bird))
""")
    gold.write_text("""(d / document
  :snt1 (g / go-02 :ARG0 (p / person :name (n / name :op1 "Ann")))
  :snt2 (s / sleep-01 :ARG0 (p2 / person :name (n2 / name :op1 "Ann")) :ARG1 (c / coref-entity)))

(d / document :snt1 (b / bird) :snt2 (a / dog :ARG0 (c / cat)))
""")
    s = _scores(str(test), str(gold), "--coref-subscore", capsys=capsys)
    assert "coref:yes" in s["signature"]
    # test: node c, edges g ARG0 p, s ARG0 p (p is reached from both sentences), s ARG1 c;
    # gold: node c, edge s ARG1 c; matched: c and s ARG1 c (docSmatch prints P .5 R 1)
    assert s["coref"]["Total Coref"] == {"matched": 2, "test": 4, "gold": 2, "precision": 0.5,
                                         "recall": 1.0, "f1": 2 / 3}
    assert (s["coref"]["Non-Coref"]["matched"], s["coref"]["Non-Coref"]["test"],
            s["coref"]["Non-Coref"]["gold"]) == (s["matched_lower"] - 2, s["test_triples"] - 4,
                                                 s["gold_triples"] - 2)
    # the restriction: in the second pair, dog :ARG0 cat moved to the other sentence: the
    # unrestricted 6 (root 2, dog, cat, ARG0, bird) become 4 (root 2, :snt1 and :snt2)
    r = _scores(str(test), str(gold), "--sentence-buckets", capsys=capsys)
    assert "buckets:yes" in r["signature"] and "coref" not in r
    assert r["optimal"] == 2 and r["matched_lower"] == s["matched_lower"] - 2
    # replayed from its signature
    again = _scores(str(test), str(gold), "--signature", r["signature"], capsys=capsys)
    assert again["signature"] == r["signature"] and again["matched_lower"] == r["matched_lower"]
    # with bootstrap: intervals of both subscores
    assert cli_main(["score", str(test), str(gold), "--coref-subscore", "--bootstrap", "50",
                     "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "Total Coref  P 50.00  R 100.00  F1 66.67" in out
    assert "Total Coref micro F1 95% bootstrap interval" in out


def test_the_setting_is_signed_and_replayed():
    c = Config(sentence_buckets=True)
    assert "|buckets:yes|" in c.signature()
    assert Config.from_signature(c.signature()) == c
    assert "buckets" not in Config().signature()
    with pytest.raises(ValueError, match="sentence_buckets"):
        Config(sentence_buckets=True, aspects="separate")


def _random_document(rng: random.Random, name: str) -> str:
    """A document of 2 sentences and at most 5 more variables, labels from a tiny alphabet."""
    concepts = ["a", "b"]
    roles = [":ARG0", ":ARG1"]
    sizes = [rng.randint(1, 3), rng.randint(1, 2)]
    out, seen = [], []
    for k, size in enumerate(sizes, start=1):
        names = [f"{name}{k}{j}" for j in range(size)]
        text = f"({names[0]} / {rng.choice(concepts)}"
        for v in names[1:]:
            text += f" {rng.choice(roles)} ({v} / {rng.choice(concepts)})"
        if seen and rng.random() < 0.6:  # a reentrancy into the other sentence
            text += f" {rng.choice(roles)} {rng.choice(seen)}"
        out.append(f":snt{k} {text})")
        seen += names
    return f"({name} / document " + " ".join(out) + ")"


def _restricted_brute_force(a, b) -> int:
    allowed_a, allowed_b = variable_buckets(a), variable_buckets(b)
    gold = triple_multiset(b)
    best = 0
    for mapping in partial_maps(len(a.variables), len(b.variables)):
        if all(allowed_a[i] & allowed_b[j] for i, j in mapping.items()):
            best = max(best, sum((mapped_multiset(a, mapping) & gold).values()))
    return best


def test_restriction_equals_brute_force_and_never_exceeds_unrestricted():
    rng = random.Random(32)
    restricted, free = PairAligner(Config(sentence_buckets=True)), PairAligner(Config())
    lower = 0
    for _ in range(25):
        a = parse_graph(_random_document(rng, "d"))
        b = parse_graph(_random_document(rng, "e"))
        r, u = restricted.score(a, b), free.score(a, b)
        assert r.status == u.status == "optimal"
        assert r.matched == _restricted_brute_force(a, b)
        assert r.matched <= u.matched
        lower += r.matched < u.matched
        # every aligned pair shares a bucket
        ba = dict(zip(a.variables, variable_buckets(a)))
        bb = dict(zip(b.variables, variable_buckets(b)))
        assert all(ba[x] & bb[y] for x, y in r.alignment)
    assert lower > 0  # the restriction did cost something somewhere (else this tests little)


def test_restriction_drops_pairs_and_keeps_root_pairs():
    a = parse_graph("(d / document :snt1 (x / dog) :snt2 (y / cat))")
    b = parse_graph("(e / document :snt1 (u / cat) :snt2 (v / dog))")
    p = compile_pair(a, b, buckets=True)
    pairs = sorted(zip(p.pair_a.tolist(), p.pair_b.tolist()))
    assert pairs == [(0, 0), (1, 1), (2, 2)]  # d-e, x-u, y-v: no dog-dog, no cat-cat
    assert PairAligner(Config(sentence_buckets=True)).score(a, b).matched == 4  # d-e: instance, top, 2 snt
    # two sentence-level graphs: nothing restricted
    s, t = parse_graph("(a / dog :ARG0 (b / cat))"), parse_graph("(x / cat :ARG1 (y / dog))")
    assert compile_pair(s, t, buckets=True).n_pairs == compile_pair(s, t).n_pairs


PEER = Path("/root/.cache/docamr-peer")
DRIVER = Path(__file__).resolve().parents[1] / "experiments" / "docsmatch_peer_driver.py"


@pytest.mark.skipif(not (PEER / "venv" / "bin" / "python").exists(), reason="docSmatch's environment absent")
def test_against_docsmatch(tmp_path):
    docs = [NO_MERGE, MERGE_NAMES, DOCAMR, MULTI,
            # reached through :coref only, :coref-of, :subset across sentences, an inverted role
            # onto a later node, :mod
            "(d / document :snt1 (x / a :coref (y / b) :ARG1-of z) :snt2 (z / c :subset (w / e :mod (q / f)))"
            " :snt3 (v / g :coref-of w :ARG0 (u / implicit-role)))"]
    (tmp_path / "a.amr").write_text("\n\n".join(docs) + "\n")
    (tmp_path / "b.amr").write_text("\n\n".join(docs[1:] + docs[:1]) + "\n")
    subprocess.run([str(PEER / "venv" / "bin" / "python"), str(DRIVER), str(tmp_path / "a.amr"),
                    str(tmp_path / "b.amr"), "--peer-src", str(PEER), "--restarts", "1",
                    "--out", str(tmp_path / "o.jsonl")], check=True, capture_output=True, timeout=120)
    rows = [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()]
    for row, ta, tb in zip(rows, docs, docs[1:] + docs[:1]):
        for side, text in (("a", ta), ("b", tb)):
            assert buckets(text) == row[side]["buckets"]
            c = coreference(raw(text))
            assert sorted(c.nodes) == sorted(row[side]["coref_nodes"])
            assert sorted((r, s, t) for s, r, t in c.edges) == sorted(map(tuple, row[side]["coref_edges"]))
        assert list(coref_counts(raw(ta), raw(tb), row["mapping"])) == row["coref"]
        ga, gb = parse_graph(ta), parse_graph(tb)
        mine = PairAligner(Config(sentence_buckets=True)).score(ga, gb)
        assert (mine.test_triples, mine.gold_triples) == (row["test"], row["gold"])
        assert row["matched"] <= mine.matched


def test_compare_tests_coreference_alone(tmp_path, capsys):
    gold = tmp_path / "g.amr"
    one = tmp_path / "1.amr"
    two = tmp_path / "2.amr"
    gold.write_text(MERGE_NAMES + "\n\n" + DOCAMR + "\n")
    one.write_text(MERGE_NAMES + "\n\n" + DOCAMR + "\n")
    two.write_text(NO_MERGE + "\n\n" + DOCAMR.replace("coref-entity", "person") + "\n")
    assert cli_main(["compare", str(one), str(two), str(gold), "--coref-subscore", "--bootstrap", "100",
                     "--ar-trials", "100", "--format", "json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    by_name = {c["name"]: c for c in out["comparisons"]}
    assert list(by_name) == ["smatch", "Total Coref", "Non-Coref"]
    # sys1 is the gold itself: every coreference item found; sys2 has none of MERGE_NAMES's two
    # edges into p and not DOCAMR's node c (a person there): 2 + 3 of the gold's 2 + 5
    assert by_name["Total Coref"]["f1_sys1"] == 1.0
    assert by_name["Total Coref"]["f1_sys2"] < 1.0 and by_name["Total Coref"]["delta_f1"] > 0

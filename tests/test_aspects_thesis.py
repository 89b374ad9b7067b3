"""The thesis' aspect set (``--aspects thesis``), every aspect worked out by hand.

Vectors (2-d, written to a file): boy (1, 0), girl (0.6, 0.8), want (0, 1), desire (0.8, 0.6),
cat (-1, 0).  So cos(boy, girl) = cos(want, desire) = 0.6 and cos(boy, cat) = -1.

A ``(w / want-01 :ARG0 (b / boy :quant 3) :ARG1 (g / go-02 :ARG0 b :polarity -))``
B ``(w / desire-01 :ARG0 (g2 / girl :quant 3) :ARG1 (g / go-02 :ARG0 g2))``

* Frames        {want-01, go-02} vs {desire-01, go-02}: 1 of 2 / 2
* Named entity  empty on both sides: F1 1 (vacuous agreement)
* Negation      {go-02} vs {}: 0 of 1 / 0, F1 0
* Concepts      {want-01, boy, go-02} vs {desire-01, girl, go-02}: 1 of 3 / 3
* Coreference   b (g2) has two parents: 3 instances, w arg0 b, g arg0 b, TOP on w = 6 triples
                a side; under w-w, b-g2, g-g: go-02 and both relations match: 3 of 6 / 6
* SRL           the three ARG relations, 3 instances, TOP: 7 a side; 3 relations + go-02: 4 of 7 / 7
* Unlabeled     (smatch preset) A: 3 instances, 3 :label relations, b :label 3, g :label -, TOP
                = 9; B: 8 (no polarity); go-02, 3 relations, :label 3 and TOP match: 6 of 9 / 8
* quantSim      1.8's QUANTIFIER: {b quant 3, boy} vs {g2 quant 3, girl}: 1 of 2 / 2
* maxIndegreeSim    b (2 parents) vs g2: cos(boy, girl) = 0.6
* maxOutdegreeSim   A: w and g have 2 (tie: w, written first) vs B: w (2): cos(want, desire) = 0.6
* maxDegreeSim      A: b and g have 3 (tie: b, written before g) vs g2 (3): 0.6
* rootSim           want vs desire: 0.6
"""

from __future__ import annotations

import json

import pytest

from clirun import run
from smatchpp.aspects.core import AspectScorer, damonte_triples
from smatchpp.aspects.thesis import NAMES, StatAspect, best_node
from smatchpp.graphs.read import read_text
from tinyvectors import vectors_file

VECTORS = "boy 1 0\ngirl 0.6 0.8\nwant 0 1\ndesire 0.8 0.6\ncat -1 0\n"
A = "(w / want-01 :ARG0 (b / boy :quant 3) :ARG1 (g / go-02 :ARG0 b :polarity -))"
B = "(w / desire-01 :ARG0 (g2 / girl :quant 3) :ARG1 (g / go-02 :ARG0 g2))"

#: (matched, test, gold) of the pair A vs B, by hand (module docstring)
EXPECTED = {"Frames": (1, 2, 2), "Named entity": (0, 0, 0), "Negation": (0, 1, 0),
            "Concepts": (1, 3, 3), "Coreference": (3, 6, 6), "SRL": (4, 7, 7), "Unlabeled": (6, 9, 8),
            "quantSim": (1, 2, 2), "maxIndegreeSim": (0.6, 1, 1), "maxOutdegreeSim": (0.6, 1, 1),
            "maxDegreeSim": (0.6, 1, 1), "rootSim": (0.6, 1, 1)}
F1 = {"Frames": 0.5, "Named entity": 1.0, "Negation": 0.0, "Concepts": 1 / 3, "Coreference": 0.5,
      "SRL": 4 / 7, "Unlabeled": 12 / 17, "quantSim": 0.5, "maxIndegreeSim": 0.6,
      "maxOutdegreeSim": 0.6, "maxDegreeSim": 0.6, "rootSim": 0.6}


@pytest.fixture
def vectors(tmp_path, monkeypatch):
    return vectors_file(tmp_path, monkeypatch, VECTORS, "v.txt")


def graph(text):
    return read_text(text)[0].graph


def scores(a, b, vectors, mode="separate"):
    return AspectScorer(mode, aspect_set="thesis", vectors=vectors).score(graph(a), graph(b))


@pytest.mark.parametrize("mode", ["separate", "joint"])
def test_every_aspect_by_hand(vectors, mode):
    got = scores(A, B, vectors, mode)
    assert list(got) == list(NAMES)
    for name, (matched, test, gold) in EXPECTED.items():
        c = got[name]
        assert (c.test, c.gold) == (test, gold), name
        assert c.matched == pytest.approx(matched) and c.upper == pytest.approx(matched), name
        assert c.to_json()["f1"] == pytest.approx(F1[name]), name
        assert c.vacuous == 1.0


def test_self_similarity_is_one(vectors):
    for text in (A, B, '(c / city :name (n / name :op1 "Paris"))', "(x / xylophone-zz)"):
        got = scores(text, text, vectors)
        assert {n: c.to_json()["f1"] for n, c in got.items()} == dict.fromkeys(NAMES, 1.0), text


def test_symmetric(vectors):
    ab, ba = scores(A, B, vectors), scores(B, A, vectors)
    for name in NAMES:
        x, y = ab[name].to_json(), ba[name].to_json()
        assert (x["f1"], x["precision"], x["recall"]) == pytest.approx((y["f1"], y["recall"], y["precision"]))


def counts(c) -> tuple:
    """A statistic's count without its vacuous value: ``(matched, upper, test, gold)``."""
    return c.matched, c.upper, c.test, c.gold


def test_statistics_edge_cases(vectors):
    stat = StatAspect("rootSim", "rootSim", "root", damonte_triples, vectors)
    empty = read_text("(a / boy)")[0].graph.__class__(None, (), ())
    assert counts(stat.score(graph("(a / boy)"), graph("(a / cat)"))) == (0.0, 0.0, 1, 1)  # cosine -1 counts 0
    assert counts(stat.score(graph("(a / boy)"), graph("(a / emu)"))) == (0.0, 0.0, 1, 1)  # no vector
    assert counts(stat.score(graph("(a / emu-01)"), graph("(a / emu-02)"))) == (1.0, 1.0, 1, 1)  # the same lemma
    assert counts(stat.score(empty, empty)) == (0.0, 0.0, 0, 0)  # vacuous: F1 1 (below)
    assert counts(stat.score(graph("(a / boy)"), empty)) == (0.0, 0.0, 1, 0)
    scorer = AspectScorer(aspect_set="thesis", aspects=["rootSim"], vectors=vectors)
    assert scorer.score(empty, empty)["rootSim"].to_json()["f1"] == 1.0
    assert scorer.score(graph("(a / boy)"), empty)["rootSim"].to_json()["f1"] == 0.0


def test_ties_go_to_the_node_written_first():
    g = graph("(r / rel :ARG0 (x / x1 :mod (p / p1)) :ARG1 (y / y1 :mod (q / q1)))")
    assert best_node(g, "in", damonte_triples) == "x"  # x, y, p, q all have one parent
    assert best_node(g, "out", damonte_triples) == "r" == best_node(g, "degree", damonte_triples)
    # the same graph written in another order and with other names: still the first written
    h = graph("(r / rel :ARG1 (b / y1 :mod (d / q1)) :ARG0 (a / x1 :mod (c / p1)))")
    assert best_node(h, "in", damonte_triples) == "b"


def test_missing_vectors_file_is_an_error(tmp_path):
    (tmp_path / "a.amr").write_text("(a / boy)\n")
    r = run("score", "a.amr", "a.amr", "--aspects", "thesis", "--vectors", str(tmp_path / "nope.txt"),
            cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "nope.txt" in r.stderr


def test_cli_score_thesis_in_a_fresh_process(tmp_path, vectors):
    (tmp_path / "a.amr").write_text(A + "\n\n(c / city)\n")
    (tmp_path / "b.amr").write_text(B + "\n\n(c / city)\n")
    r = run("score", "a.amr", "b.amr", "--aspects", "thesis", "--vectors", vectors, "--format", "json",
            "--bootstrap", "20", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert "aspect-set:thesis" in out["signature"] and "vectors:v.txt@" in out["signature"]
    aspects = out["aspects"]
    assert list(aspects["scores"]) == list(NAMES)
    for name, (matched, test, gold) in EXPECTED.items():
        # the second pair (c / city) on both sides: vacuous or one item each way
        extra = {"Concepts": (1, 1, 1), "Unlabeled": (2, 2, 2)}.get(name, (0, 0, 0))
        if name in ("maxIndegreeSim", "maxOutdegreeSim", "maxDegreeSim", "rootSim"):
            extra = (1, 1, 1)
        c = aspects["scores"][name]
        assert (c["matched"], c["test"], c["gold"]) == pytest.approx(
            tuple(x + y for x, y in zip((matched, test, gold), extra))), name
        pair_f1 = [F1[name], 1.0]
        assert aspects["macro_f1"][name] == pytest.approx(sum(pair_f1) / 2), name
    assert list(aspects["bootstrap"]["f1"]) == list(NAMES)
    text = run("score", "a.amr", "b.amr", "--aspects", "thesis", "--vectors", vectors, cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    assert "Named entity                        100.00  100.00  100.00        0       0       0  " \
           "(empty on both sides: vacuous agreement)" in text.stdout


def test_vectors_are_cached_by_file_not_by_the_name_typed(tmp_path, monkeypatch):
    """One process, ``--vectors v.txt`` in two folders (or the file rewritten): each run gets
    its own file's vectors, not the first one's (the cache once keyed on the string typed)."""
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "v.txt").write_text(VECTORS)
    (second / "v.txt").write_text("boy 1 0\ngirl 1 0\n")  # girl is boy here

    def root_sim() -> float:
        return StatAspect("rootSim", "rootSim", "root", damonte_triples, "v.txt").score(
            graph("(a / boy)"), graph("(a / girl)")).matched

    monkeypatch.chdir(first)
    assert root_sim() == pytest.approx(0.6)
    monkeypatch.chdir(second)
    assert root_sim() == pytest.approx(1.0)
    (second / "v.txt").write_text("boy 1 0\ngirl 0 1\ncat -1 0\n")  # rewritten: orthogonal now
    assert root_sim() == 0.0

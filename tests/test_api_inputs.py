"""The Python API (issue 22, item 7): penman graphs as inputs, named corpus scores, and the
README's example."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import penman
import pytest

import smatchpp
from clirun import GOLD, PRED
from smatchpp.graphs.read import read_file

README = Path(__file__).resolve().parents[1] / "README.md"

# roles whose direction as written matters to smatch's rules: penman's decoder stores
# :ARG0-of, :consist-of and :mod-of as the normal triple (:consist-of is not inverted by
# smatch 1.0.4, and an inverted role onto a constant is lost)
WRITTEN = [
    ("(d / dog :ARG0-of (b / bark-01) :consist-of (c / cat) :mod \"x\")",
     "(b / bark-01 :ARG0 (d / dog :consist-of (c / cat)) :mod-of (z / zoo))"),
    ("(a / and :op1 (p / person :name (n / name :op1 \"Al\")) :polarity -)",
     "(a / and :op1 (p / person :name (n / name :op1 \"Al\" :op2 \"B\")))"),
]


def counts(pair):
    return pair.matched, pair.upper, pair.test_triples, pair.gold_triples, pair.status


@pytest.mark.parametrize("preset", ["smatch", "amr"])
@pytest.mark.parametrize("a, b", WRITTEN)
def test_penman_graphs_score_as_their_text(a, b, preset):
    expected = counts(smatchpp.score_pair(a, b, preset=preset))
    assert counts(smatchpp.score_pair(penman.decode(a), penman.decode(b), preset=preset)) == expected
    assert counts(smatchpp.score_pair(penman.decode(a), b, preset=preset)) == expected


def test_penman_graphs_of_the_examples_and_their_aspects():
    texts = [penman.decode(penman.encode(penman.decode(t)))  # round trip: layouts as penman writes
             for t in open(PRED, encoding="utf-8").read().split("\n\n")]
    golds = [e.graph for e in read_file(GOLD)]
    scorer = smatchpp.Scorer(smatchpp.Config(aspects="separate"))
    for a, gold in zip(texts, open(GOLD, encoding="utf-8").read().split("\n\n")):
        by_text = scorer.score_pair(penman.encode(a), gold)
        by_graph = scorer.score_pair(a, penman.decode(gold))
        assert counts(by_graph) == counts(by_text)
        assert by_graph.aspects == by_text.aspects
    assert len(golds) == len(texts) == 4
    corpus = smatchpp.score_corpus(texts, [penman.decode(g) for g in open(GOLD, encoding="utf-8").read().split("\n\n")])
    assert [p.id for p in corpus.pairs] == ["ex1", "ex2", "ex3", "ex4"]
    assert corpus.micro == smatchpp.score_files(PRED, GOLD).micro


def test_a_penman_graph_without_a_concept_is_a_read_error():
    with pytest.raises(smatchpp.ReadError, match="variable 'a' has no concept"):
        smatchpp.score_pair(penman.Graph([("a", ":instance", None)]), "(a / dog)")
    bad = penman.Graph([("a", ":instance", None)])
    with pytest.raises(smatchpp.ReadError) as caught:
        smatchpp.score_corpus([bad], ["(a / dog)"])
    assert str(caught.value) == "<a[0]>:1: graph 0: variable 'a' has no concept"
    corpus = smatchpp.score_corpus([bad, penman.decode("(a / dog)")], ["(a / dog)"] * 2, on_error="skip")
    assert [p.status for p in corpus.pairs] == ["skipped", "optimal"] and corpus.micro.f1 == 1.0
    with pytest.raises(TypeError, match="a PENMAN string, a penman.Graph or a TripleGraph, got int"):
        smatchpp.score_pair(3, "(a / dog)")


def test_corpus_scores_are_named_and_still_tuples():
    corpus = smatchpp.score_files(PRED, GOLD)
    for name in ("micro", "macro", "micro_upper"):
        prf = getattr(corpus, name)
        assert isinstance(prf, smatchpp.PRF) and isinstance(prf, tuple)
        p, r, f = prf
        assert (prf.precision, prf.recall, prf.f1) == (p, r, f)
    s = corpus.summary()
    assert corpus.micro._asdict() == s["micro"] and corpus.macro._asdict() == s["macro"]


def test_the_readme_example_runs_and_is_deterministic(tmp_path, monkeypatch):
    block = re.search(r"## Python\n\n```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S).group(1)
    shutil.copy(PRED, tmp_path / "pred.amr")
    shutil.copy(GOLD, tmp_path / "gold.amr")
    monkeypatch.chdir(tmp_path)
    names: dict = {}
    exec(compile(block, "README.md", "exec"), names)
    assert names["scorer"].signature.endswith("|deterministic:yes")
    assert names["corpus"].micro.f1 == smatchpp.score_files(PRED, GOLD).micro[2]

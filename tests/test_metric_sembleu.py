"""SemBleu (smatchpp.metrics.sembleu): hand-computed cases per rule, properties, the CLI.

Every expected number below is worked out by hand in the comment beside it
(k-grams, lengths = nodes + relations, clipped counts, smoothing, brevity penalty).
"""

from __future__ import annotations

import json
import math

import numpy as np
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


def score(hyp: str, ref: str, **params) -> float:
    m = get_metric("sembleu", **params)
    return m.pair_score(m.features(graph(hyp)), m.features(graph(ref)))


def stats(hyp: str, ref: str, **params) -> tuple:
    m = get_metric("sembleu", **params)
    return tuple(m.stats(m.features(graph(hyp)), m.features(graph(ref))))


DOG = "(d / dog :ARG0-of (b / bark-01))"
BARK = "(b / bark-01 :ARG0 (d / dog))"


def test_inverse_roles_flip_by_default_and_keep_as_bamboo():
    # flip: DOG is bark-01 -:ARG0-> dog, as BARK: unigrams 2/2, bigram 1/1, lengths 3 = 3
    assert stats(DOG, BARK, k=2) == (2, 1, 2, 1, 3, 3)
    assert score(DOG, BARK, k=2) == 1.0
    # keep (530bc05): (dog :ARG0-of bark-01) against (bark-01 :ARG0 dog): bigram 0 of 1,
    # smoothed 1 / (2 * 1); sqrt(1 * 0.5)
    assert stats(DOG, BARK, k=2, inverse="keep") == (2, 0, 2, 1, 3, 3)
    assert score(DOG, BARK, k=2, inverse="keep") == pytest.approx(math.sqrt(0.5), abs=1e-15)


def test_flip_turns_every_of_role_consist_of_included():
    # the head's rule: consist-of turns round too (bigram (boy :consist group))
    m = get_metric("sembleu", k=2)
    f = m.features(graph("(g / group :consist-of (b / boy))"))
    assert dict(f.grams[2]) == {("boy", ":consist", "group"): 1}
    keep = get_metric("sembleu", k=2, inverse="keep").features(graph("(g / group :consist-of (b / boy))"))
    assert dict(keep.grams[2]) == {("group", ":consist-of", "boy"): 1}


def test_auto_reweigh_and_brevity_penalty():
    # hypothesis (dog): 1 unigram, no bigram: weights become (1,); p1 = 1;
    # lengths 1 against 3: exp(1 - 3/1)
    assert stats("(d / dog)", "(d / dog :mod (b / big))", k=2) == (1, 0, 1, 0, 1, 3)
    assert score("(d / dog)", "(d / dog :mod (b / big))", k=2) == pytest.approx(math.exp(-2), abs=1e-15)


def test_asymmetry_the_first_graph_is_the_hypothesis():
    # the other way: unigrams 1 of 2, bigram 0 of 1 -> 1/(2*1); hypothesis longer: bp 1;
    # sqrt(0.5 * 0.5)
    assert score("(d / dog :mod (b / big))", "(d / dog)", k=2) == pytest.approx(0.5, abs=1e-15)


def test_method3_smoothing_counts_the_unmatched_orders():
    # x-ARG0->y-ARG1->z against x-ARG1->y-ARG0->z: unigrams 3/3, bigrams 0/2, trigram 0/1:
    # p2 = 1/(2^1 * 2), p3 = 1/(2^2 * 1); lengths 5 = 5: (1 * 1/4 * 1/4) ** (1/3)
    hyp = "(a / x :ARG0 (b / y :ARG1 (c / z)))"
    ref = "(a / x :ARG1 (b / y :ARG0 (c / z)))"
    assert stats(hyp, ref) == (3, 0, 0, 3, 2, 1, 5, 5)
    assert score(hyp, ref) == pytest.approx((1 / 16) ** (1 / 3), abs=1e-15)
    # the repository's eval.py weights: 0.34 * log 1 + 0.33 * log(1/4) + 0.34 * log(1/4)
    assert score(hyp, ref, weights="0.34,0.33,0.34") == pytest.approx(0.25 ** 0.67, abs=1e-15)


def test_clipped_counts():
    # two roses in the hypothesis, one in the reference: unigrams and + rose = 2 of 3;
    # hypothesis 3 nodes + 2 relations > 2 + 1: no penalty
    hyp = "(a / and :op1 (r / rose) :op2 (r2 / rose))"
    assert stats(hyp, "(a / and :op1 (r / rose))", k=1) == (2, 3, 5, 3)
    assert score(hyp, "(a / and :op1 (r / rose))", k=1) == pytest.approx(2 / 3, abs=1e-15)


def test_no_unigram_match_scores_zero():
    assert score("(a / cat)", "(b / dog)") == 0.0


def test_paths_from_every_node_and_an_edge_once_per_path():
    # a cycle a -> b -> a: from a: (x), (x ARG0 y), (x ARG0 y ARG1 x); from b: (y), (y ARG1 x),
    # (y ARG1 x ARG0 y); lengths 2 nodes + 2 relations
    f = get_metric("sembleu").features(graph("(a / x :ARG0 (b / y :ARG1 a))"))
    assert dict(f.grams[1]) == {("x",): 1, ("y",): 1}
    assert dict(f.grams[3]) == {("x", ":ARG0", "y", ":ARG1", "x"): 1, ("y", ":ARG1", "x", ":ARG0", "y"): 1}
    assert f.length == 4


def test_forward_reference_under_a_name_the_reference_parser_rejects_is_a_leaf():
    # xv2 is used before (xv2 / toy ...) is written and is not letter+digits: the reference's
    # parser makes it a new leaf "toy" (no path boy :poss toy :mod red; one node more)
    forward = "(xv0 / want :ARG0 (xv1 / boy :poss xv2) :ARG1 (xv2 / toy :mod (xv3 / red)))"
    backward = "(xv0 / want :ARG1 (xv2 / toy :mod (xv3 / red)) :ARG0 (xv1 / boy :poss xv2))"
    m = get_metric("sembleu")
    fwd, bwd = m.features(graph(forward)), m.features(graph(backward))
    assert (fwd.length, bwd.length) == (5 + 4, 4 + 4)
    gram = ("boy", ":poss", "toy", ":mod", "red")
    assert fwd.grams[3][gram] == 0 and bwd.grams[3][gram] == 1
    # names the parser takes for variables (a letter, then digits) are edges either way
    short = m.features(graph(forward.replace("xv", "v")))
    assert short.length == 8 and short.grams[3][gram] == 1


def test_constants_quotes_and_variable_names():
    m = get_metric("sembleu", k=1)
    # quotes dropped, whitespace split into tokens, ':' dropped inside quotes, lower-cased
    f = m.features(graph('(n / name :op1 "New  York" :time "12:30")'))
    assert dict(f.grams[1]) == {("name",): 1, ("new", "york"): 1, ("1230",): 1}
    # a constant spelled like a variable takes that variable's concept (the reference's lookup)
    g = m.features(graph('(a / x :ARG0 (b / y) :op1 "b")'))
    assert dict(g.grams[1]) == {("x",): 1, ("y",): 2}


def test_empty_graphs():
    m = get_metric("sembleu")
    empty = RawGraph(top=None, triples=(), variables=())
    dog = graph("(d / dog)")
    assert m.pair_score(m.features(empty), m.features(empty)) == 1.0
    assert m.pair_score(m.features(empty), m.features(dog)) == 0.0
    assert m.pair_score(m.features(dog), m.features(empty)) == 0.0


def test_corpus_score_is_bleu_of_summed_statistics():
    # micro: unigrams 3/3, bigrams 1/1, lengths 4 against 6: exp(1 - 6/4); macro: (1 + e^-2) / 2
    m = get_metric("sembleu", k=2)
    corpus = m.score_graphs([graph(DOG), graph("(d / dog)")], [graph(BARK), graph("(d / dog :mod (b / big))")])
    assert corpus.micro["score"] == pytest.approx(math.exp(-0.5), abs=1e-15)
    assert corpus.macro["score"] == pytest.approx((1 + math.exp(-2)) / 2, abs=1e-15)


def test_scores_are_vectorised_over_leading_axes():
    m = get_metric("sembleu", k=2)
    rows = np.array([[2, 1, 2, 1, 3, 3], [1, 0, 1, 0, 1, 3]], dtype=float)
    assert np.allclose(m.scores(rows[None])["score"], [[1.0, math.exp(-2)]], atol=1e-15)


def test_parameters_are_in_the_signature_and_checked():
    sig = get_metric("sembleu", k=2, inverse="keep", weights="0.5,0.5").signature()
    assert sig == (f"smatchpp:{__version__}|metric:sembleu|sembleu-k:2|sembleu-inverse:keep|"
                   "sembleu-weights:0.5,0.5|errors:raise|deterministic:yes")
    with pytest.raises(ValueError, match="weights must be 3"):
        get_metric("sembleu", weights="0.5,0.5")
    with pytest.raises(ValueError, match="inverse must be"):
        get_metric("sembleu", inverse="maybe")
    with pytest.raises(ValueError, match="k must be"):
        get_metric("sembleu", k=0)


@settings(max_examples=60, deadline=None)
@given(spec=penman_specs(), k=st.integers(1, 4), inverse=st.sampled_from(["flip", "keep"]))
def test_self_similarity_is_one(spec, k, inverse):
    m = get_metric("sembleu", k=k, inverse=inverse)
    f = m.features(graph(render_penman(spec)))
    assert m.pair_score(f, f) == pytest.approx(1.0, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(data=st.data(), inverse=st.sampled_from(["flip", "keep"]))
def test_renaming_variables_and_reordering_branches_changes_nothing(data, inverse):
    # variable names of the strategies are letter+digits: every re-entrancy is an edge
    spec = data.draw(penman_specs())
    names, orders = data.draw(renamings(spec))
    m = get_metric("sembleu", inverse=inverse)
    a = m.features(graph(render_penman(spec)))
    b = m.features(graph(render_penman(spec, names, orders)))
    assert a.grams == b.grams and a.length == b.length


@settings(max_examples=60, deadline=None)
@given(a=penman_specs(), b=penman_specs(), k=st.integers(1, 3))
def test_scores_lie_in_the_unit_interval(a, b, k):
    m = get_metric("sembleu", k=k)
    s = m.pair_score(m.features(graph(render_penman(a))), m.features(graph(render_penman(b))))
    assert 0.0 <= s <= 1.0 + 1e-12


def test_cli_score_keep_and_flip(tmp_path):
    (tmp_path / "h.amr").write_text(f"{DOG}\n\n(d / dog)\n")
    (tmp_path / "r.amr").write_text(f"{BARK}\n\n(d / dog :mod (b / big))\n")
    r = run("score", "h.amr", "r.amr", "--metric", "sembleu", "--sembleu-k", "2", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    # micro: exp(-1/2) = 60.65; macro: (1 + e^-2) / 2 = 56.77
    assert r.stdout.splitlines() == [
        f"smatchpp:{__version__}|metric:sembleu|sembleu-k:2|sembleu-inverse:flip|sembleu-weights:uniform"
        "|errors:raise|deterministic:yes",
        "pairs: 2 scored: 2", "micro  score 60.65", "macro  score 56.77"]
    r = run("score", "h.amr", "r.amr", "--metric", "sembleu", "--sembleu-k", "2", "--sembleu-inverse",
            "keep", "--format", "json", "--pairs-out", "p.jsonl", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    pairs = [json.loads(line) for line in (tmp_path / "p.jsonl").read_text().splitlines()]
    assert pairs[0] == {"index": 0, "id": None, "match1": 2, "match2": 0, "count1": 2, "count2": 1,
                        "hyp_length": 3, "ref_length": 3, "score": pytest.approx(math.sqrt(0.5), abs=1e-15)}
    # micro: unigrams 3/3, bigrams 0/1 -> 1/2; sqrt(1/2) * exp(1 - 6/4)
    assert json.loads(r.stdout)["micro"]["score"] == pytest.approx(math.sqrt(0.5) * math.exp(-0.5), abs=1e-15)


def test_tsv_input_without_a_layout_counts_a_variable_as_written_at_its_first_reference():
    # TSV has no layout (RawGraph.inline is None): the same k-grams as the PENMAN graph whose
    # re-entrancies come after their nodes
    (tsv,) = read_text("w\t:instance\twant\nb\t:instance\tboy\nw\t:ARG0\tb\nw\t:ARG1\tb\n", fmt="tsv")
    assert tsv.error is None and tsv.graph.inline is None
    m = get_metric("sembleu")
    a = m.features(tsv.graph)
    b = m.features(graph("(w / want :ARG0 (b / boy) :ARG1 b)"))
    assert a.grams == b.grams and a.length == b.length == 4


@pytest.mark.parametrize("metric", ["sembleu", "sema"])
def test_the_same_numbers_for_any_worker_count(tmp_path, metric):
    graphs_a = [DOG, "(d / dog)", "(a / x :ARG0 (b / y :ARG1 (c / z)))", "(a / cat)"] * 3
    graphs_b = [BARK, "(d / dog :mod (b / big))", "(a / x :ARG1 (b / y :ARG0 (c / z)))", "(b / dog)"] * 3
    (tmp_path / "a.amr").write_text("\n\n".join(graphs_a) + "\n")
    (tmp_path / "b.amr").write_text("\n\n".join(graphs_b) + "\n")
    outs = []
    for workers in ("1", "2"):
        r = run("score", "a.amr", "b.amr", "--metric", metric, "--workers", workers, "--force-workers",
                "--pairs-out", f"p{workers}.jsonl", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        outs.append((r.stdout, (tmp_path / f"p{workers}.jsonl").read_text()))
    assert outs[0] == outs[1]


@settings(max_examples=60, deadline=None)
@given(a=penman_specs(), b=penman_specs(), k=st.integers(1, 3))
def test_upper_stats_bound_the_score(a, b, k):
    m = get_metric("sembleu", k=k)
    fa, fb = m.features(graph(render_penman(a))), m.features(graph(render_penman(b)))
    assert m.pair_scores(m.upper_stats(fa, fb))["score"] >= m.pair_score(fa, fb) - 1e-12

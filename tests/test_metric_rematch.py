"""REMATCH (smatchpp.metrics.rematch): hand-computed cases per rule, VerbAtlas, properties,
the all-pairs path."""

from __future__ import annotations

import hashlib
import json
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smatchpp.metrics import get_metric
from smatchpp.metrics.rematch import REMATCH, rematch_motifs
from smatchpp.graphs.read import RawGraph, read_text
from strategies import penman_specs, render_penman, renamings

EMPTY = RawGraph(None, (), ())


def g(text: str) -> RawGraph:
    return read_text(text)[0].graph


def motifs(text: str, **kw) -> set:
    return set(rematch_motifs(g(text), **kw))


# --- triples as smatch 1.0.4 reads them ----------------------------------------------------------

def test_concepts_normalized_relation_labels_as_written():
    assert motifs("(x / Dog_ :ARG0 (y / Cat))") == {("dog",), ("cat",), (("dog",), "ARG0", ("cat",))}
    # case matters for relation labels: :arg0 is another motif
    assert motifs("(x / dog :arg0 (y / cat))") != motifs("(x / dog :ARG0 (y / cat))")


def test_inverse_roles_flipped_except_smatchs_three_and_mod_becomes_domain():
    assert (("b",), "ARG0", ("a",)) in motifs("(x / a :ARG0-of (y / b))")
    assert (("a",), "consist-of", ("b",)) in motifs("(x / a :consist-of (y / b))")
    assert (("a",), "prep-out-of", ("b",)) in motifs("(x / a :prep-out-of (y / b))")
    assert (("b",), "domain", ("a",)) in motifs("(x / a :mod (y / b))")
    # case-sensitive, as smatch: :Mod is not inverted
    assert (("a",), "Mod", ("b",)) in motifs("(x / a :Mod (y / b))")


def test_attributes_normalized_quoted_constants_keep_their_first_word():
    assert motifs('(x / city :Name "New York")') == {("name", "new"), ("city", ("name", "new"))}


def test_top_dropped_by_value_as_written():
    # the TOP attribute never appears; an unquoted constant top is dropped as well,
    # a quoted "top" (smatch reads it as top_) and Top are kept
    # (each checked with the reference)
    assert motifs("(x / a :quant top)") == {("a",)}
    assert motifs('(x / a :quant "top")') == {("quant", "top"), ("a", ("quant", "top"))}
    assert motifs("(x / a :quant Top)") == {("quant", "top"), ("a", ("quant", "top"))}


def test_an_inverted_role_onto_a_constant_is_lost():
    assert motifs('(x / a :ARG0-of "b")') == {("a",)}
    assert motifs('(x / a :mod "top")') == {("a",)}


def test_instance_and_relation_motifs_combine_every_attribute():
    m = motifs("(x / a :polarity - :quant 2 :r (y / b :mode imperative))")
    assert {x for x in m if len(x) == 2 and isinstance(x[1], tuple)} == {
        ("a", ("polarity", "-")), ("a", ("quant", "2")), ("b", ("mode", "imperative"))}
    assert {x for x in m if len(x) == 3} == {
        (("a", ("polarity", "-")), "r", ("b", ("mode", "imperative"))),
        (("a", ("quant", "2")), "r", ("b", ("mode", "imperative")))}
    assert {x for x in m if len(x) == 2 and isinstance(x[1], str)} == {
        ("polarity", "-"), ("quant", "2"), ("mode", "imperative")}


def test_hand_computed_pair():
    m = REMATCH()
    a, b = m.features(g("(x / a :r (y / b))")), m.features(g("(x / a :r (y / c))"))
    # {(a,), (b,), ((a,), r, (b,))} vs {(a,), (c,), ((a,), r, (c,))}: 1 of 5
    assert m.stats(a, b) == (1, 5) and m.pair_score(a, b) == 0.2


# --- VerbAtlas ----------------------------------------------------------------------------------

def test_verbatlas_maps_concepts_and_is_named_in_the_signature(tmp_path):
    path = tmp_path / "pb2va.json"
    path.write_text(json.dumps({"give-01": {"label": "GIVE"}, "hand-01": {"label": "GIVE"}}))
    plain, mapped = REMATCH(), REMATCH(verbatlas=str(path))
    a, b = g("(x / give-01 :ARG0 (y / boy))"), g("(x / hand-01 :ARG0 (y / boy))")
    assert plain.pair_score(plain.features(a), plain.features(b)) == 0.2
    assert mapped.pair_score(mapped.features(a), mapped.features(b)) == 1.0
    assert "without the VerbAtlas mapping" in plain.note() and mapped.note() is None
    assert "|rematch-verbatlas:none|" in plain.signature()
    sig = mapped.signature()
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    assert f"|rematch-verbatlas:{path}@sha256={digest}|" in sig
    # the signature's value given back loads the same map, and refuses another content
    name, tokens = REMATCH.parse_signature(sig)
    again = get_metric(name, verbatlas=tokens["rematch-verbatlas"])
    assert again.signature() == sig and again.features(a) == mapped.features(a)
    boot = mapped.signature("skip", 100, 3)
    assert f"|rematch-verbatlas:{path}@sha256={digest}|errors:skip|bootstrap:100|bootstrap-seed:3|" in boot
    path.write_text(json.dumps({"give-01": {"label": "OTHER"}}))
    assert REMATCH(verbatlas=str(path)).signature() != sig
    with pytest.raises(ValueError, match="not the one of the signature"):
        REMATCH(verbatlas=tokens["rematch-verbatlas"])
    assert pickle.loads(pickle.dumps(mapped)).features(a) == mapped.features(a)


def test_a_bad_verbatlas_file_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="missing.json: cannot read"):
        REMATCH(verbatlas=str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{\n  oops")
    with pytest.raises(ValueError, match="bad.json: line 2: not JSON"):
        REMATCH(verbatlas=str(bad))
    bad.write_text('{"give-01": "GIVE"}')
    with pytest.raises(ValueError, match="bad.json: not a VerbAtlas map"):
        REMATCH(verbatlas=str(bad))


# --- corpus, empty graphs, signature ----------------------------------------------------------------

def test_empty_graphs_and_corpus_sums():
    m = get_metric("rematch")
    assert m.pair_score(m.features(EMPTY), m.features(EMPTY)) == 1.0
    assert m.pair_score(m.features(EMPTY), m.features(g("(x / a)"))) == 0.0
    corpus = m.score_graphs([g("(x / a :r (y / b))"), g("(x / a)")], [g("(x / a :r (y / c))"), g("(x / a)")])
    assert corpus.micro["score"] == (1 + 1) / (5 + 1)
    assert corpus.macro["score"] == (0.2 + 1.0) / 2


# --- properties --------------------------------------------------------------------------------------

@given(penman_specs(), penman_specs())
def test_self_similarity_symmetry_and_the_all_pairs_path(s1, s2):
    a, b = g(render_penman(s1)), g(render_penman(s2))
    m = REMATCH()
    fa, fb = m.features(a), m.features(b)
    assert m.pair_score(fa, fa) == 1.0
    assert m.stats(fa, fb) == m.stats(fb, fa)
    inter, union = m.stats(fa, fb)
    upper = m.upper_stats(fa, fb)
    assert upper[0] >= inter and upper[1] <= union
    matrix = m.stats_matrix([fa, fb], [fb, fa, fa])
    for i, x in enumerate([fa, fb]):
        for j, y in enumerate([fb, fa, fa]):
            assert tuple(matrix[i, j]) == m.stats(x, y)


@given(st.data())
def test_renaming_variables_and_reordering_branches_changes_nothing(data):
    spec = data.draw(penman_specs())
    names, orders = data.draw(renamings(spec))
    m = REMATCH()
    assert m.features(g(render_penman(spec))) == m.features(g(render_penman(spec, names, orders)))


def test_all_pairs_matrix_of_a_small_corpus_equals_pair_by_pair():
    graphs = [g(t) for t in ("(x / a :r (y / b))", "(x / a)", "(x / a :polarity - :r (y / b))")]
    m = REMATCH()
    feats = [m.features(x) for x in graphs]
    matrix = m.stats_matrix(feats, feats)
    assert np.array_equal(matrix, np.array([[m.stats(x, y) for y in feats] for x in feats], dtype=float))

"""WLK (smatchpp.metrics.wlk): hand-computed cases per rule, properties, the all-pairs path."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from smatchpp.metrics import get_metric
from smatchpp.metrics.wlk import WLK, WLGraph, wl_graph, wl_labels
from smatchpp.graphs.read import RawGraph, read_text
from strategies import penman_specs, render_penman, renamings

EMPTY = RawGraph(None, (), ())


def g(text: str) -> RawGraph:
    return read_text(text)[0].graph


def score(a: RawGraph, b: RawGraph, **params) -> float:
    m = WLK(**params)
    return m.pair_score(m.features(a), m.features(b))


# --- standardization ---------------------------------------------------------------------

def test_lower_cased_and_quotes_removed():
    assert wl_graph(g('(x / Dog :Name "Rex" :op1 "don\'t")')) == WLGraph(
        ("dog", "rex", "dont"), ((0, ":name", 1), (0, ":op1", 2)))


def test_every_of_role_is_flipped_and_cut_at_its_first_of():
    # :consist-of included (smatch keeps it); a role with -of inside is cut there
    graph = wl_graph(g("(x / a :ARG0-of (y / b) :consist-of (z / c) :prep-out-of (w / d))"))
    assert graph.edges == ((1, ":arg0", 0), (2, ":consist", 0), (3, ":prep-out", 0))


def test_duplicates_removed_but_each_constant_triple_is_a_node():
    graph = wl_graph(g('(x / a :mod (y / b) :mod y :op1 "c" :op2 "c")'))
    assert graph.labels == ("a", "b", "c", "c")
    assert graph.edges == ((0, ":mod", 1), (0, ":op1", 2), (0, ":op2", 3))


def test_a_quoted_constant_that_reads_like_a_variable_stays_a_constant():
    graph = wl_graph(g('(x / a :op1 "x")'))
    assert graph.labels == ("a", "x") and graph.edges == ((0, ":op1", 1),)


def test_a_triple_from_a_constant_is_dropped():
    # :op1-of onto a constant flips into (constant, :op1, x): the reference drops it
    assert wl_graph(g('(x / a :op1-of "c")')).edges == ()


# --- iterations ----------------------------------------------------------------------------

def test_iteration_labels_have_no_direction_marker_and_count_self_loops_twice():
    one = wl_labels(wl_graph(g("(x / a :r (y / b))")), 1)[1]
    other = wl_labels(wl_graph(g("(y / b :r (x / a))")), 1)[1]
    assert sorted(one) == sorted(other) == [":r_a ::: b", ":r_b ::: a"]
    assert wl_labels(wl_graph(g("(x / a :r x)")), 1)[1] == (":r_a ::: :r_a ::: a",)


def test_label_keyed_nodes_take_the_last_nodes_neighbourhood():
    graph = wl_graph(g("(x / a :r (y / b) :s (z / b :t (w / c)))"))
    own = wl_labels(graph, 1)[1]
    keyed = wl_labels(graph, 1, label_keyed=True)[1]
    assert own[1] == ":r_a ::: b" and own[2] == ":s_a ::: :t_c ::: b"
    assert keyed[1] == keyed[2] == own[2]
    unique = wl_graph(g("(x / a :r (y / b))"))
    assert wl_labels(unique, 2) == wl_labels(unique, 2, label_keyed=True)


def test_label_keyed_attaches_a_constant_equal_to_a_concept_as_the_reference():
    # default: the constant "b" is its own node; label-keyed: the edge goes to the last
    # node with concept b, and is dropped when that node is node 0
    graph = g('(x / a :r (y / b) :op1 "b")')
    assert wl_graph(graph).edges == ((0, ":r", 1), (0, ":op1", 2))
    assert wl_graph(graph, label_keyed=True).edges == ((0, ":r", 1), (0, ":op1", 1))
    assert wl_graph(g('(x / b :op1 "b")'), label_keyed=True).edges == ()


# --- scores ----------------------------------------------------------------------------------

def test_hand_computed_score():
    # A = (x / a :r (y / b)), B = (x / a :r (y / c))
    # nodes {a, b} vs {a, c}: 1 shared; edges {a_:r_b} vs {a_:r_c}: 0;
    # iteration 1 {":r_b ::: a", ":r_a ::: b"} vs {":r_c ::: a", ":r_a ::: c"}: 0; iteration 2: 0
    # |A|^2 = 2 + 1 + 2/4 + 2/9 on both sides
    expected = 1 / (2 + 1 + 2 / 4 + 2 / 9)
    assert math.isclose(score(g("(x / a :r (y / b))"), g("(x / a :r (y / c))")), expected, rel_tol=1e-12)
    # K = 0: nodes and edges only
    assert math.isclose(score(g("(x / a :r (y / b))"), g("(x / a :r (y / c))"), iterations=0), 1 / 3,
                        rel_tol=1e-12)


def test_weights_are_one_one_then_one_over_one_plus_k():
    assert WLK(iterations=3).weights().tolist() == [1.0, 1.0, 0.5, 1 / 3, 0.25]


def test_empty_graphs():
    assert score(EMPTY, EMPTY) == 1.0
    assert score(EMPTY, g("(x / a)")) == 0.0 == score(g("(x / a)"), EMPTY)
    m = WLK()
    stats = m.stats_matrix([m.features(EMPTY), m.features(g("(x / a)"))],
                           [m.features(EMPTY), m.features(g("(x / a)"))])
    assert stats[..., 0].tolist() == [[1.0, 0.0], [0.0, 1.0]]


def test_corpus_scores_are_the_mean_of_the_pair_scores():
    a = [g("(x / a :r (y / b))"), g("(x / a)")]
    b = [g("(x / a :r (y / c))"), g("(x / a)")]
    corpus = WLK().score_graphs(a, b)
    pair = [score(x, y) for x, y in zip(a, b)]
    assert math.isclose(corpus.micro["score"], np.mean(pair)) and math.isclose(corpus.macro["score"], np.mean(pair))


def test_parameters_are_in_the_signature_and_checked():
    assert "|metric:wlk|wlk-iterations:2|wlk-label-keyed:no|" in WLK().signature()
    assert "|wlk-iterations:3|wlk-label-keyed:yes|" in get_metric("wlk", iterations=3, label_keyed=True).signature()
    with pytest.raises(ValueError, match="iterations"):
        WLK(iterations=-1)


def test_features_pickle():
    m = WLK()
    f = m.features(g("(x / a :r (y / b))"))
    assert pickle.loads(pickle.dumps(f)) == f and pickle.loads(pickle.dumps(m)) == m


# --- properties --------------------------------------------------------------------------------

@given(penman_specs(), penman_specs(), st.booleans())
def test_self_similarity_symmetry_and_the_all_pairs_path(s1, s2, keyed):
    a, b = g(render_penman(s1)), g(render_penman(s2))
    m = WLK(label_keyed=keyed)
    fa, fb = m.features(a), m.features(b)
    assert m.pair_score(fa, fa) == 1.0
    assert m.pair_score(fa, fb) == m.pair_score(fb, fa)
    assert 0.0 <= m.pair_score(fa, fb) <= 1.0
    matrix = m.stats_matrix([fa, fb], [fb, fa, fa])
    for i, x in enumerate([fa, fb]):
        for j, y in enumerate([fb, fa, fa]):
            assert np.allclose(matrix[i, j], m.stats(x, y), rtol=0, atol=1e-12)


@given(st.data())
def test_renaming_variables_and_reordering_branches_changes_nothing(data):
    spec = data.draw(penman_specs())
    names, orders = data.draw(renamings(spec))
    a, b = g(render_penman(spec)), g(render_penman(spec, names, orders))
    m = WLK()
    assert m.features(a) == m.features(b)


# --- compressed labels (issue 33, fault 1) -------------------------------------------------

def _string_score(a: RawGraph, b: RawGraph, iterations: int, label_keyed: bool = False) -> float:
    """WLK from the labels' full text (wl_labels), the form before compression."""
    m = WLK(iterations=iterations, label_keyed=label_keyed)

    def sets(raw):
        graph = wl_graph(raw, label_keyed)
        labels = wl_labels(graph, iterations, label_keyed)
        edges = frozenset(graph.labels[s] + "_" + r + "_" + graph.labels[t] for s, r, t in graph.edges)
        return [frozenset(labels[0]), edges] + [frozenset(x) for x in labels[1:]]

    x, y = sets(a), sets(b)
    w2 = m.weights() ** 2
    dot = sum(w * len(p & q) for w, p, q in zip(w2, x, y))
    na = sum(w * len(p) for w, p in zip(w2, x))
    nb = sum(w * len(q) for w, q in zip(w2, y))
    return dot / math.sqrt(na * nb)


def test_labels_are_compressed_to_short_ids_at_every_iteration():
    # a wheel: every iteration's text is several times the last one's; the ids stay 16 bytes
    spokes = " ".join(f":op{i} (y{i} / b{i % 2} :mod x)" for i in range(6))
    wheel = g(f"(x / a {spokes})")
    feats = WLK(iterations=5).features(wheel)
    assert all(len(item) <= 16 for s in feats.sets[2:] for item in s)
    assert len(wl_labels(wl_graph(wheel), 4)[4][0]) > 10_000  # what the text would be


@pytest.mark.parametrize("iterations", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("label_keyed", [False, True])
def test_compressed_labels_score_as_their_text(iterations, label_keyed):
    from clirun import GOLD, PRED  # the repository's examples, wherever the tests run from

    graphs = [e.graph for e in read_text(PRED.read_text() + "\n\n" + GOLD.read_text())]
    m = WLK(iterations=iterations, label_keyed=label_keyed)
    feats = [m.features(x) for x in graphs]
    for i, a in enumerate(graphs):
        for j, b in enumerate(graphs):
            assert m.pair_score(feats[i], feats[j]) == pytest.approx(
                _string_score(a, b, iterations, label_keyed), abs=1e-12)

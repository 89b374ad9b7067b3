"""All-pairs matrices and exact top-k search (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smatchpp.api import Scorer, parse_graph
from smatchpp.alignment.matchers import ExactMatcher
from smatchpp.alignment.config import Config
from smatchpp.matrix import chunk_sizes, label_bound_matrix, pair_chunks, score_pairs, search, top_k
from strategies import triple_graphs
from clirun import run

# a small collection with exact duplicates (ties) and an empty-ish variety
TEXTS = ["(a / dog)", "(a / dog :ARG0 (b / cat))", "(a / cat)", "(a / dog :ARG0 (b / cat))",
         "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))",
         "(w / want-01 :ARG0 (g / girl) :ARG1 (g2 / go-02 :ARG0 g))",
         "(b / bark-01 :ARG0 (d / dog) :polarity -)", "(c / cat :mod (b / big))"]
GRAPHS = [parse_graph(t) for t in TEXTS]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(triple_graphs(max_vars=4), min_size=1, max_size=4),
       st.lists(triple_graphs(max_vars=4), min_size=1, max_size=4))
def test_label_bound_matrix_is_the_matchers_bound_and_bounds_the_optimum(ga, gb):
    bounds = label_bound_matrix(ga, gb).toarray()
    scorer = Scorer()
    for i, a in enumerate(ga):
        for j, b in enumerate(gb):
            assert bounds[i, j] == ExactMatcher().label_bound(a, b)
            assert scorer.score_pair(a, b).matched <= bounds[i, j] + 1e-9


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("chunk", [1, 3, 100])
@pytest.mark.parametrize("square", [True, False])
def test_pair_chunks_cover_every_pair_once_in_order(chunk, square, workers):
    chunks = list(pair_chunks(5, None if square else 4, chunk, workers))
    pairs = np.concatenate(chunks)
    expected = [(i, j) for i in range(5) for j in (range(i + 1, 5) if square else range(4))]
    assert [tuple(p) for p in pairs.tolist()] == expected
    assert [len(b) for b in chunks] == list(chunk_sizes(len(expected), chunk, workers))


@pytest.mark.parametrize("total, chunk, workers", [(124_750, 3898, 2), (1000, 256, 4), (7, 3, 2), (0, 5, 2)])
def test_chunk_sizes_cover_the_total_and_shrink_only_in_the_tail(total, chunk, workers):
    sizes = list(chunk_sizes(total, chunk, workers))
    assert sum(sizes) == total and all(0 < s <= chunk for s in sizes)
    assert sizes == sorted(sizes, reverse=True)  # full chunks first, then the tail shrinks
    left = total
    for s in sizes:  # a chunk short of full takes at most a quarter of what is left (64 pairs at least)
        assert s == chunk or s <= max(-(-left // (2 * workers)), 64)
        left -= s
    assert list(chunk_sizes(total, chunk, 1)) == [chunk] * (total // chunk) + ([total % chunk] if total % chunk else [])
    if total == 124_750:  # the tail: the last chunks of a 2-worker run are about 64 pairs
        assert sizes[:28] == [chunk] * 28 and sizes[-1] <= 64 and len(sizes) < 50


@pytest.mark.parametrize("workers, chunk", [(1, 5), (2, 2), (2, 50)])
def test_matrix_equals_score_on_the_same_pairs(workers, chunk):
    scorer = Scorer()
    got = [r for results in score_pairs(GRAPHS, GRAPHS, pair_chunks(len(GRAPHS), None, chunk),
                                        workers=workers) for r in results]
    assert len(got) == len(GRAPHS) * (len(GRAPHS) - 1) // 2
    for r in got:
        s = scorer.score_pair(GRAPHS[r.i], GRAPHS[r.j])
        assert (r.matched, r.upper, r.test, r.gold, r.status) == (
            s.matched, s.upper, s.test_triples, s.gold_triples, s.status)
        assert abs(r.f1 - s.f1) < 1e-12


@pytest.mark.parametrize("k", [1, 2, 3, 5, 8])
def test_top_k_equals_sorting_the_full_matrix(k):
    scorer = Scorer()
    for q, result in enumerate(top_k(GRAPHS, GRAPHS, k)):
        f1 = [2 * scorer.score_pair(GRAPHS[q], g).matched / (GRAPHS[q].n_triples + g.n_triples)
              for g in GRAPHS]
        expected = sorted(range(len(GRAPHS)), key=lambda j: (-f1[j], j))[:k]
        assert [h.index for h in result.hits] == expected
        assert result.solved + result.bounded + result.pruned == len(GRAPHS)
        assert result.certified == result.solved


def _sorted_hits(query, corpus, k, config=None):
    """The top ``k`` by solving every pair: indices and F1, ties to the lower index.  Ranked
    by ``2 m / (|A| + |B|)``, as top_k ranks: ``2PR / (P + R)`` is the same number but may
    round differently (12/66 and 10/55 differ in the last bit there, and not here)."""
    scorer = Scorer(config)
    scores = [scorer.score_pair(query, g) for g in corpus]
    key = [2 * s.matched / (s.test_weight + s.gold_weight) if s.test_weight and s.gold_weight else 0.0
           for s in scores]
    order = sorted(range(len(corpus)), key=lambda j: (-key[j], j))[:k]
    return [(j, scores[j].f1) for j in order]


@settings(max_examples=80, deadline=None, derandomize=True)
@given(triple_graphs(max_vars=4), st.lists(triple_graphs(max_vars=4), min_size=1, max_size=7),
       st.integers(1, 4))
def test_top_k_with_both_bounds_equals_solving_every_pair(query, corpus, k):
    result = top_k([query], corpus, k)[0]
    assert [(h.index, h.f1) for h in result.hits] == _sorted_hits(query, corpus, k)
    assert result.solved + result.bounded + result.pruned == len(corpus)
    assert result.solved >= min(k, len(corpus))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(triple_graphs(max_vars=4), st.lists(triple_graphs(max_vars=4), min_size=1, max_size=6),
       st.integers(1, 3))
def test_weighted_top_k_with_the_star_bound_equals_solving_every_pair(query, corpus, k):
    """WSMATCH: no label bound (every pair is compiled), fractional coefficients."""
    config = Config(match="wsmatch")
    result = top_k([query], corpus, k, config)[0]
    expected = _sorted_hits(query, corpus, k, config)
    assert [h.index for h in result.hits] == [j for j, _ in expected]
    assert [h.f1 for h in result.hits] == pytest.approx([f for _, f in expected], abs=1e-9)
    assert result.pruned == 0 and result.solved + result.bounded == len(corpus)


def test_top_k_star_bound_keeps_out_a_pair_the_label_bound_lets_in():
    """Roles swapped: the label counts cannot tell (same concepts, same roles), the star
    bound can; the pair is compiled, never solved, and the hits are unchanged."""
    texts = ["(a / dog :ARG0 (b / cat) :ARG1 (c / mouse))", "(a / dog :ARG1 (b / cat) :ARG0 (c / mouse))",
             "(a / cat :ARG0 (b / dog) :ARG1 (c / mouse))"]
    corpus = [parse_graph(t) for t in texts]
    result = top_k(corpus[:1], corpus, 2)[0]
    assert (result.solved, result.bounded, result.pruned) == (2, 1, 0)
    assert [(h.index, h.f1) for h in result.hits] == _sorted_hits(corpus[0], corpus, 2)


@pytest.mark.parametrize("k", [1, 3, 8])
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_search_by_a_pool_equals_top_k(k, workers):
    expected = [(r.query, [(h.index, h.f1, h.status) for h in r.hits], r.solved, r.bounded, r.pruned)
                for r in top_k(GRAPHS, GRAPHS, k)]
    got = [(r.query, [(h.index, h.f1, h.status) for h in r.hits], r.solved, r.bounded, r.pruned)
           for r in search(GRAPHS, GRAPHS, k, workers=workers)]
    assert got == expected
    with pytest.raises(ValueError):
        list(search(GRAPHS, GRAPHS, 0, workers=workers))


def test_top_k_prunes_with_bounds():
    results = top_k(GRAPHS[:1], GRAPHS, 1)
    assert results[0].hits[0].index == 0 and results[0].hits[0].f1 == 1.0
    assert results[0].pruned > 0  # self-match is 1: nothing else can beat it


def _run(*args, fresh=False):
    return run(*args, "--quiet", cwd=Path.cwd(), fresh=fresh)


def test_matrix_cli_writes_what_score_computes(tmp_path: Path):
    path = tmp_path / "g.amr"
    path.write_text("\n\n".join(TEXTS) + "\n")
    out = tmp_path / "m.npz"
    run = _run("matrix", str(path), "-o", str(out), "--all", "--workers", "2", "--chunk", "3")
    assert run.returncode == 0, run.stderr
    data = np.load(out)
    scorer = Scorer()
    for i, a in enumerate(GRAPHS):
        for j, b in enumerate(GRAPHS):
            s = scorer.score_pair(a, b)
            assert data["matched"][i, j] == s.matched
            assert abs(data["f1"][i, j] - s.f1) < 1e-12
            assert abs(data["precision"][i, j] - s.precision) < 1e-12
            assert abs(data["recall"][i, j] - s.recall) < 1e-12
    assert bool(data["certified"].all())
    assert str(data["signature"]).startswith("smatchpp:")


def test_search_cli_matches_top_k(tmp_path: Path):
    path = tmp_path / "g.amr"
    path.write_text("\n\n".join(TEXTS) + "\n")
    run = _run("search", str(path), str(path), "--top", "2")
    assert run.returncode == 0, run.stderr
    pooled = _run("search", str(path), str(path), "--top", "2", "--workers", "2", "--force-workers")
    assert pooled.returncode == 0 and pooled.stdout == run.stdout, pooled.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    expected = top_k(GRAPHS, GRAPHS, 2)
    assert [[h["index"] for h in r["hits"]] for r in rows] == [[h.index for h in e.hits] for e in expected]
    assert [(r["solved"], r["bounded"], r["pruned"]) for r in rows] == \
        [(e.solved, e.bounded, e.pruned) for e in expected]
    solved, bounded, pruned = (sum(getattr(e, key) for e in expected) for key in ("solved", "bounded", "pruned"))
    assert (f"{solved} pairs solved ({solved} certified), {bounded + pruned} pruned by bounds "
            f"({pruned} by label counts, {bounded} by the star bound)") in run.stderr


def test_matrix_parquet_streams_the_same_pairs(tmp_path: Path):
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs the matrix extra (pyarrow)")
    path = tmp_path / "g.amr"
    path.write_text("\n\n".join(TEXTS) + "\n")
    out = tmp_path / "m.parquet"
    run = _run("matrix", str(path), "-o", str(out), "--chunk", "4")
    assert run.returncode == 0, run.stderr
    table = pq.read_table(out).to_pydict()
    scorer = Scorer()
    assert len(table["i"]) == len(GRAPHS) * (len(GRAPHS) - 1) // 2
    for i, j, m in zip(table["i"], table["j"], table["matched"]):
        assert i < j and m == scorer.score_pair(GRAPHS[i], GRAPHS[j]).matched


def test_parquet_sink_groups_chunks_and_flushes_the_rest_on_close(tmp_path: Path, monkeypatch):
    """Chunks are written in row groups of at least ROW_GROUP rows, in order; the rest at close."""
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs the matrix extra (pyarrow)")
    from smatchpp.matrix import PairChunk, PairResult
    from smatchpp.reporting.matrix_files import ParquetFile, ParquetPairs

    monkeypatch.setattr(ParquetFile, "ROW_GROUP", 5)
    sink = ParquetPairs(str(tmp_path / "m.parquet"))
    pairs = [(i, j) for i in range(7) for j in range(i + 1, 7)][:19]
    for start in range(0, len(pairs), 4):  # chunks of 4, 4, 4, 4, 3
        sink.add(PairChunk.of([PairResult(i, j, 1.0, 2.0, 3, 4, "optimal" if j % 2 else "time_limit")
                               for i, j in pairs[start:start + 4]]))
    sink.close(False, "sig")
    f = pq.ParquetFile(tmp_path / "m.parquet")
    assert [f.metadata.row_group(g).num_rows for g in range(f.metadata.num_row_groups)] == [8, 8, 3]
    table = f.read().to_pydict()
    assert list(zip(table["i"], table["j"])) == pairs
    assert sink.certified == sum(j % 2 for _, j in pairs)


def test_matrix_parquet_of_a_single_graph_is_a_file_with_no_rows(tmp_path: Path):
    """No pair to score still writes the Parquet file the summary names (once nothing was written)."""
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs the matrix extra (pyarrow)")
    path = tmp_path / "one.amr"
    path.write_text("(a / dog)\n")
    out = tmp_path / "m.parquet"
    run = _run("matrix", str(path), "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert "0 of 0 pairs scored" in run.stdout
    table = pq.read_table(out)
    assert table.num_rows == 0
    assert table.schema.names == ["i", "j", "id_i", "id_j", "matched", "upper", "test_triples",
                                  "gold_triples", "f1", "status"]


def test_matrix_cli_with_dask_and_the_default_chunk_writes_the_local_numbers(tmp_path: Path):
    """`matrix --dask` in a fresh process (its chunk size chosen from the cluster) = the local run."""
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    path = tmp_path / "g.amr"
    path.write_text("\n\n".join(TEXTS) + "\n")
    runs = {}
    for name, options in (("local", ["--workers", "1"]), ("dask", ["--workers", "2", "--dask"])):
        out = tmp_path / f"{name}.npz"
        run = _run("matrix", str(path), "-o", str(out), "--all", *options, fresh=True)  # Dask
        assert run.returncode == 0, run.stderr
        runs[name] = np.load(out)
    for key in ("f1", "precision", "recall", "matched", "upper", "certified"):
        assert np.array_equal(runs["dask"][key], runs["local"][key]), key
    scorer = Scorer()
    assert runs["dask"]["matched"][4, 5] == scorer.score_pair(GRAPHS[4], GRAPHS[5]).matched


@pytest.mark.parametrize("total, threads, chunk", [(10, 2, 256), (124_750, 2, 3898), (10**8, 4, 8192),
                                                  (124_750, 1, 7796)])
def test_default_chunk(total, threads, chunk):
    from smatchpp.reporting.matrix_files import default_chunk

    class Client:
        def nthreads(self):
            return {f"w{k}": 1 for k in range(threads)}

    assert default_chunk(total, None, threads) == chunk  # the process pool: its workers
    assert default_chunk(total, Client()) == chunk  # Dask: the cluster's threads


def test_matrix_and_search_warn_about_a_file_with_no_graph(tmp_path: Path):
    """An empty input is scored as nothing (exit 0, as `score`), but never silently."""
    empty = tmp_path / "empty.amr"
    empty.write_text("# only a comment\n")
    graphs = tmp_path / "g.amr"
    graphs.write_text("\n\n".join(TEXTS[:3]) + "\n")
    out = tmp_path / "m.npz"
    run = _run("matrix", str(empty), "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert f"{empty} holds no graph" in run.stderr
    assert "0 of 0 pairs scored" in run.stdout and np.load(out)["f1"].shape == (0, 0)
    run = _run("matrix", str(empty), str(graphs), "-o", str(out))
    assert run.returncode == 0 and f"{empty} holds no graph" in run.stderr
    assert np.load(out)["f1"].shape == (0, 3)
    run = _run("search", str(graphs), str(empty), "--top", "2")
    assert run.returncode == 0, run.stderr
    assert f"{empty} holds no graph" in run.stderr and f"{graphs} holds" not in run.stderr
    run = _run("matrix", str(graphs), "-o", str(out))  # a file with graphs: no warning
    assert "holds no graph" not in run.stderr


def test_npz_output_is_compressed_and_reads_back(tmp_path):
    """``matrix`` writes its ``.npz`` at deflate level 1 (faster than numpy's level 6):
    still deflated, and ``np.load`` gives back every array, dtype and the signature."""
    import zipfile

    from smatchpp.reporting.matrix_files import write_npz

    arrays = {"signature": np.array("smatchpp:x|preset:smatch"), "f1": np.linspace(0, 1, 12).reshape(3, 4),
              "certified": np.eye(3, 4, dtype=bool), "matched": np.full((3, 4), np.nan)}
    path = tmp_path / "m.npz"
    write_npz(str(path), arrays)
    with zipfile.ZipFile(path) as z:
        assert {i.filename for i in z.infolist()} == {k + ".npy" for k in arrays}
        assert all(i.compress_type == zipfile.ZIP_DEFLATED for i in z.infolist())
    back = np.load(path)
    for key, value in arrays.items():
        assert back[key].dtype == value.dtype
        assert np.array_equal(back[key], value, equal_nan=value.dtype.kind == "f"), key
    big = np.zeros((300, 300))
    write_npz(str(path), {"f1": big})
    assert path.stat().st_size < big.nbytes / 50  # compressed, not stored


def test_top_k_takes_the_linear_star_bound_on_big_problems(monkeypatch):
    """From BIG_PAIRS candidate pairs up, the row/column bound (as the solver's first step on
    big problems), not the assignment; the hits stay those of solving every pair."""
    import smatchpp.matrix as matrix

    seen = []

    def recording(problem, assignment=None, limits=None):
        seen.append(assignment)
        return star_bound(problem, assignment, limits)

    from smatchpp.alignment.solvers.bounds import star_bound
    monkeypatch.setattr(matrix, "star_bound", recording)
    for big, expected in ((10**9, {True}), (0, {False})):
        seen.clear()
        monkeypatch.setattr(matrix, "BIG_PAIRS", big)
        for q, result in enumerate(top_k(GRAPHS, GRAPHS, 2)):
            assert [(h.index, h.f1) for h in result.hits] == _sorted_hits(GRAPHS[q], GRAPHS, 2)
        assert set(seen) == expected


def test_a_worker_builds_the_corpus_label_index_once(monkeypatch):
    """Task after task on the same corpus object, one LabelIndex; another corpus, another."""
    import smatchpp.matrix as matrix

    built = []

    class Counting(matrix.LabelIndex):
        def __init__(self, graphs):
            built.append(graphs)
            super().__init__(graphs)

    monkeypatch.setattr(matrix, "LabelIndex", Counting)
    monkeypatch.setattr(matrix, "_WORKER", type(matrix._WORKER)())
    expected = top_k(GRAPHS, GRAPHS, 2)
    built.clear()
    corpus = list(GRAPHS)
    got = [r for q in range(len(GRAPHS)) for r in matrix.top_k_chunk([q], Config(), GRAPHS, corpus, k=2)]
    assert len(built) == 1 and built[0] is corpus
    assert [(r.query, [h.index for h in r.hits], r.solved, r.bounded, r.pruned) for r in got] == \
        [(r.query, [h.index for h in r.hits], r.solved, r.bounded, r.pruned) for r in expected]
    matrix.top_k_chunk([0], Config(), GRAPHS, list(GRAPHS), k=2)
    assert len(built) == 2


def test_search_cli_bad_input_exits_2_naming_the_graph(tmp_path: Path):
    good = tmp_path / "g.amr"
    good.write_text("\n\n".join(TEXTS) + "\n")
    bad = tmp_path / "bad.amr"
    bad.write_text("(a / dog)\n\n(b / cat :ARG0 (c / mouse)\n\n(d / bird)\n")
    for workers in ("1", "2"):
        run = _run("search", str(good), str(bad), "--top", "2", "--workers", workers, "--force-workers")
        assert run.returncode == 2 and f"{bad}:3: graph 1:" in run.stderr and run.stdout == ""
    run = _run("search", str(good), str(bad), "--top", "2", "--workers", "2", "--force-workers",
               "--on-error", "empty")
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 0 and len(rows) == len(TEXTS)
    assert all(r["solved"] + r["bounded"] + r["pruned"] == 3 for r in rows)
    assert _run("search", str(good), str(good), "--workers", "0").returncode == 2


def test_search_bounds_count_the_triples_without_a_variable():
    """``TripleGraph.free`` triples (between two constants, as ``smatchpp18-amr`` keeps them)
    match whatever the alignment (compile_pair's constant), so the label bound that prunes
    ``search`` must count them: without them the best graph here got a bound of 0 and was
    pruned behind a worse one."""
    from smatchpp.graphs.triples import TripleGraph

    free = (("a", "r", "b"), ("c", "r", "d"))
    query = TripleGraph(("x",), ("dog",), (), (), free)
    corpus = [TripleGraph(("y",), ("dog",), (), ()), TripleGraph(("z",), ("cat",), (), (), free)]
    scorer = Scorer()
    bounds = label_bound_matrix([query], corpus).toarray()[0]
    for j, g in enumerate(corpus):
        assert scorer.score_pair(query, g).matched <= bounds[j] + 1e-9
    assert bounds.tolist() == [1.0, 2.0]
    assert [h.index for h in top_k([query], corpus, 1)[0].hits] == [j for j, _ in _sorted_hits(query, corpus, 1)] == [1]

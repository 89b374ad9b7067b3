"""Every output of ``matrix`` and ``search`` names its graphs and its settings (issue 22, item 6):
ids from ``# ::id`` (else the 0-based index) and the run's signature."""

from __future__ import annotations

import json

import numpy as np
import pytest

from clirun import GOLD, PRED, run

IDS = ["ex1", "ex2", "ex3", "ex4"]


@pytest.fixture
def unnamed(tmp_path):
    """GOLD's graphs without their ``# ::id`` lines, but for the third."""
    blocks = GOLD.read_text(encoding="utf-8").strip().split("\n\n")
    kept = [b if k == 2 else "\n".join(x for x in b.splitlines() if not x.startswith("# ::id"))
            for k, b in enumerate(blocks)]
    path = tmp_path / "unnamed.amr"
    path.write_text("\n\n".join(kept) + "\n", encoding="utf-8")
    return path


def signature(tmp_path) -> str:
    return run("score", PRED, GOLD, "--quiet", cwd=tmp_path).stdout.splitlines()[0]


def test_npz_names_rows_columns_and_settings(tmp_path, unnamed):
    done = run("matrix", PRED, unnamed, "-o", "m.npz", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = np.load(tmp_path / "m.npz")
    assert sorted(data.files) == ["f1", "ids_a", "ids_b", "score", "signature"]  # score: the headline of every .npz
    assert data["ids_a"].tolist() == IDS
    assert data["ids_b"].tolist() == ["0", "1", "ex3", "3"]
    assert str(data["signature"]) == signature(tmp_path)
    square = run("matrix", PRED, "-o", "s.npz", "--quiet", "--all", cwd=tmp_path)
    assert square.returncode == 0, square.stderr
    data = np.load(tmp_path / "s.npz")
    assert data["ids_a"].tolist() == data["ids_b"].tolist() == IDS
    assert data["f1"].shape == (4, 4)


def test_parquet_rows_name_their_graphs_and_the_schema_the_settings(tmp_path, unnamed):
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs the matrix extra (pyarrow)")
    done = run("matrix", PRED, unnamed, "-o", "m.parquet", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    table = pq.read_table(tmp_path / "m.parquet")
    assert table.schema.metadata == {b"signature": signature(tmp_path).encode()}
    rows = table.to_pydict()
    names_b = ["0", "1", "ex3", "3"]
    assert len(rows["i"]) == 16
    assert rows["id_i"] == [IDS[i] for i in rows["i"]]
    assert rows["id_j"] == [names_b[j] for j in rows["j"]]


def test_intervals_name_their_graphs(tmp_path):
    done = run("matrix", PRED, GOLD, "-o", "m.npz", "--quiet", "--solver", "hillclimber", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in (tmp_path / "m.intervals.jsonl").read_text().splitlines()]
    assert lines and all((x["id_i"], x["id_j"]) == (IDS[x["i"]], IDS[x["j"]]) for x in lines)


def test_search_names_queries_hits_and_settings(tmp_path, unnamed):
    done = run("search", PRED, unnamed, "--top", "2", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    names_b = ["0", "1", "ex3", "3"]
    assert [x["id"] for x in lines] == IDS and [x["query"] for x in lines] == [0, 1, 2, 3]
    assert {x["signature"] for x in lines} == {signature(tmp_path)}
    assert all(h["id"] == names_b[h["index"]] for x in lines for h in x["hits"])
    assert all(len(x["hits"]) == 2 for x in lines)


def test_metric_outputs_use_the_same_names(tmp_path, unnamed):
    """``--metric`` (here Jaccard) writes the same names: ids (index when no ``# ::id``) and the
    signature on every search line; the Parquet id columns of both paths agree."""
    done = run("search", PRED, unnamed, "--top", "2", "--metric", "jaccard", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(x) for x in done.stdout.splitlines()]
    names_b = ["0", "1", "ex3", "3"]
    assert [x["id"] for x in lines] == IDS
    assert all(h["id"] == names_b[h["index"]] for x in lines for h in x["hits"])
    assert {x["signature"] for x in lines} == {done.stderr.splitlines()[0]}
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs the matrix extra (pyarrow)")
    both = [run("matrix", PRED, unnamed, "-o", f"{name}.parquet", "--quiet", *extra, cwd=tmp_path)
            for name, extra in (("smatch", ()), ("jaccard", ("--metric", "jaccard")))]
    assert all(r.returncode == 0 for r in both), [r.stderr for r in both]
    smatch, jaccard = (pq.read_table(tmp_path / f"{name}.parquet") for name in ("smatch", "jaccard"))
    assert smatch.column_names[:4] == jaccard.column_names[:4] == ["i", "j", "id_i", "id_j"]
    assert smatch.to_pydict()["id_j"] == jaccard.to_pydict()["id_j"]

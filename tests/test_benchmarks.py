"""The BAMBOO and AMRParseEval runners (``experiments/bamboo.py``, ``experiments/parseval.py``).

The protocol pieces are checked on their own (tie rules, normalization), then
each script runs in a fresh process on a tiny hand-made copy of its data
whose pair F1 are known by hand, and its printed and JSON numbers are
compared with Pearson/accuracy computed here by scipy from those F1.  The real
data (``../shared``) is used only in the checks at the end, which skip
without it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from clirun import child_env  # noqa: E402  (the tested smatchpp, not the cwd's)
from scipy.stats import pearsonr

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = ROOT / "experiments"
SHARED = Path(__file__).resolve().parents[2] / "shared"
sys.path.insert(0, str(EXPERIMENTS))

import bamboo  # noqa: E402
import parseval  # noqa: E402

# pairs with hand-computed F1 under smatch / smatch-legacy / generic
SAME = ("(a / dog)", "(a / dog)")                     # 1, 1, 1
ROOTS = ("(a / dog)", "(b / cat)")                    # TOP matches: 1/2; legacy: 0; generic 1/2
MORE = ("(a / dog :ARG0 (b / cat))", "(a / dog)")     # 2 of (4, 2): P 1/2, R 1, F1 2/3 (all)
NY = ('(n / name :op1 "New York")', '(n / name :op1 "New")')  # smatch 1; generic 2 of 3: 2/3
F1 = {"smatch": {SAME: 1, ROOTS: 0.5, MORE: 2 / 3, NY: 1},
      "smatch-legacy": {SAME: 1, ROOTS: 0, MORE: 2 / 3, NY: 1},
      "generic": {SAME: 1, ROOTS: 0.5, MORE: 2 / 3, NY: 2 / 3}}


def run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(EXPERIMENTS / script), *args],
                          capture_output=True, text=True, cwd=ROOT, env=child_env())


# ---------------------------------------------------------------------------
# protocol pieces


def test_pair_accuracy_counts_a_tie_as_wrong():
    # pairs (foil, paraphrase): right, tie, wrong, right
    assert bamboo.pair_accuracy100([0.2, 0.9, 0.5, 0.5, 0.7, 0.3, 0.0, 0.1]) == 50.0
    with pytest.raises(ValueError):
        bamboo.pair_accuracy100([0.1, 0.2, 0.3])


def test_pearson_is_scale_free_and_nan_on_constant():
    x, y = [0.1, 0.5, 0.2, 0.9], [3, 4, 1, 5]
    assert bamboo.pearson100(x, y) == pytest.approx(100 * pearsonr(x, y)[0])
    assert bamboo.pearson100(x, np.array(y) * 7 + 2) == pytest.approx(bamboo.pearson100(x, y))
    assert np.isnan(bamboo.pearson100([1, 1, 1], [1, 2, 3]))


def test_parse_set_converts_to_the_field_types():
    assert bamboo.parse_set(["seed=3", "time_limit=2.5", "solver=highs"]) == \
        {"seed": 3, "time_limit": 2.5, "solver": "highs"}
    assert bamboo.parse_set(["time-limit=none", "keep_wiki=true"]) == {"time_limit": None, "keep_wiki": True}
    with pytest.raises(ValueError, match="expected field=value"):
        bamboo.parse_set(["nope=1"])
    with pytest.raises(ValueError):
        bamboo.parse_set(["seed=abc"])


def test_parseval_pairwise_accuracy_leaves_ties_out():
    pref = [1, -1, 0, 1, 1]
    first, second = [0.9, 0.9, 0.1, 0.5, 0.2], [0.1, 0.2, 0.9, 0.5, 0.3]
    # right, wrong, (human tie), (metric tie), wrong
    assert parseval.pairwise_accuracy(pref, first, second) == (pytest.approx(1 / 3), 3)


# ---------------------------------------------------------------------------
# BAMBOO on a tiny copy, in a fresh process

RATED = [SAME, ROOTS, MORE, NY]
HUMAN = [5.0, 1.0, 2.0, 4.0]
ROLE = [ROOTS, SAME, SAME, SAME, MORE, SAME]  # (foil, paraphrase): right; tie; right


def _write_pairs(folder: Path, pairs) -> None:
    folder.mkdir(parents=True)
    (folder / "src.test.amr").write_text("\n\n".join(a for a, _ in pairs) + "\n")
    (folder / "tgt.test.amr").write_text("\n\n".join(b for _, b in pairs) + "\n")


def make_bamboo(root: Path) -> None:
    """STS rows from line 0; SICK and PARA have a header line and a header graph."""
    header_graph = ("(h / header)", "(h / header)")
    for dataset, (_, column) in bamboo.PROTOCOL.items():
        rows = [["x"] * 6 for _ in HUMAN]
        for row, h in zip(rows, HUMAN):
            row[column] = str(h)
        lines = ["\t".join(r) for r in rows]
        pairs = list(RATED)
        if dataset != "sts":
            lines.insert(0, "header")
            pairs.insert(0, header_graph)
        (root / dataset).mkdir(parents=True)
        (root / dataset / "orig.test.txt").write_text("\n".join(lines))
        for subset in bamboo.SUBSETS:
            _write_pairs(root / dataset / subset, pairs)
        _write_pairs(root / dataset / "role_confusion", ROLE)


@pytest.mark.parametrize("preset", ["smatch", "smatch-legacy", "generic"])
def test_bamboo_script_numbers(tmp_path, preset):
    make_bamboo(tmp_path / "bamboo")
    out = tmp_path / "cells.json"
    r = run("bamboo.py", "--data", str(tmp_path / "bamboo"), "--preset", preset, "--workers", "1",
            "--quiet", "--json", str(out), "--compare", "Smatch", "S2match")
    assert r.returncode == 0, r.stderr
    f1 = [F1[preset][p] for p in RATED]
    pearson = 100 * pearsonr(f1, HUMAN)[0]
    role = 100 * np.mean([F1[preset][ROLE[2 * k + 1]] > F1[preset][ROLE[2 * k]] for k in range(3)])
    cells = json.loads(out.read_text())["cells"]
    for cell in bamboo.CELLS:
        expected = role if cell.endswith("role_confusion") else pearson
        assert cells[cell] == pytest.approx(expected, abs=1e-9), cell
    amean = (9 * pearson + 3 * role) / 12
    assert cells["amean"] == pytest.approx(amean, abs=1e-9)
    ours_row = next(line for line in r.stdout.splitlines() if line.startswith(f"| ours ({preset})"))
    assert f"{pearson:.2f}" in ours_row and f"{amean:.2f}" in ours_row
    assert f"preset:{preset}" in r.stdout.splitlines()[0]
    assert "| Smatch " in r.stdout and "| S2match " in r.stdout and "difference to Smatch" in r.stdout


def test_bamboo_script_rounds_and_takes_config_fields(tmp_path):
    make_bamboo(tmp_path / "bamboo")
    out = tmp_path / "cells.json"
    r = run("bamboo.py", "--data", str(tmp_path / "bamboo"), "--set", "solver=highs", "--set",
            "seed=7", "--digits", "1", "--workers", "2", "--quiet", "--json", str(out))
    assert r.returncode == 0, r.stderr
    assert "solver:highs" in r.stdout and "seed:7" in r.stdout and "rounded to 1 digits" in r.stdout
    f1 = np.round([F1["smatch"][p] for p in RATED], 1)  # 2/3 -> 0.7
    assert json.loads(out.read_text())["cells"]["sts/main"] == pytest.approx(100 * pearsonr(f1, HUMAN)[0])


# SemBleu k=1 of the same pairs with the target file as the hypothesis (BAMBOO's order):
# ROOTS no unigram; MORE: (dog) against (dog :ARG0 cat): 1 of 1, lengths 1 and 3: e^-2;
# NY: unigrams (name), (new) against (name), (new york): 1 of 2, lengths 3 = 3: 1/2
SEMBLEU_K1_TGT = {SAME: 1.0, ROOTS: 0.0, MORE: float(np.exp(-2)), NY: 0.5}


def test_bamboo_script_takes_any_metric_and_the_first_side(tmp_path):
    make_bamboo(tmp_path / "bamboo")
    out = tmp_path / "cells.json"
    r = run("bamboo.py", "--data", str(tmp_path / "bamboo"), "--metric", "sembleu", "--metric-set", "k=1",
            "--metric-set", "inverse=keep", "--first", "tgt", "--quiet", "--json", str(out),
            "--compare", "SemBleu(k1)")
    assert r.returncode == 0, r.stderr
    cells = json.loads(out.read_text())["cells"]
    f1 = [SEMBLEU_K1_TGT[p] for p in RATED]
    assert cells["sts/main"] == pytest.approx(100 * pearsonr(f1, HUMAN)[0], abs=1e-9)
    # role pairs: (0 < 1) right, (1 = 1) wrong, (e^-2 < 1) right
    assert cells["sick/role_confusion"] == pytest.approx(200 / 3, abs=1e-9)
    assert r.stdout.splitlines()[0].startswith("smatchpp:") and "|metric:sembleu|sembleu-k:1|" in r.stdout
    assert "| ours (sembleu), tgt first" in r.stdout and "| SemBleu(k1)" in r.stdout


def test_bamboo_script_role_pearson_is_the_papers_protocol(tmp_path):
    # evaluate4tasks.py at bcfb55d: every cell Pearson's r, role_confusion against 0/1 labels
    make_bamboo(tmp_path / "bamboo")
    out = tmp_path / "cells.json"
    r = run("bamboo.py", "--data", str(tmp_path / "bamboo"), "--metric", "sembleu", "--metric-set", "k=1",
            "--metric-set", "inverse=keep", "--first", "tgt", "--role-pearson", "--quiet", "--json", str(out))
    assert r.returncode == 0, r.stderr
    cells = json.loads(out.read_text())["cells"]
    role_scores = [SEMBLEU_K1_TGT[p] for p in ROLE]
    role = 100 * pearsonr([0, 1] * (len(ROLE) // 2), role_scores)[0]
    main = 100 * pearsonr([SEMBLEU_K1_TGT[p] for p in RATED], HUMAN)[0]
    for cell in bamboo.CELLS:
        assert cells[cell] == pytest.approx(role if cell.endswith("role_confusion") else main, abs=1e-9), cell
    assert cells["amean"] == pytest.approx((9 * main + 3 * role) / 12, abs=1e-9)
    assert "role_confusion: Pearson's r against 0/1 labels" in r.stdout.splitlines()[0]


@pytest.mark.parametrize("args, message", [
    (["--metric", "sembleu", "--metric-set", "colour=red"], "expected field=value"),
    (["--preset", "nope"], "unknown preset"),
    (["--set", "colour=red"], "expected field=value"),
    (["--data", "/nonexistent"], "BAMBOO not found"),
])
def test_bamboo_script_errors(args, message):
    r = run("bamboo.py", *args)
    assert r.returncode == 2 and message in r.stderr


# ---------------------------------------------------------------------------
# AMRParseEval on a tiny copy, in a fresh process

WORSE = "(n / name :op1 (x / other))"
ITEMS = [  # (preference, first parse, second parse, reference)
    ("1.0", SAME[0], "(a / cat)", SAME[0]),           # first better: metric agrees
    ("0.0", SAME[0], "(a / cat)", SAME[0]),           # second better: metric disagrees
    ("0.5", SAME[0], "(a / cat)", SAME[0]),           # human tie: left out
    ("1.0", NY[0], NY[1], NY[0]),                     # smatch tie (left out); generic agrees
]


def make_parseval(root: Path) -> None:
    root.mkdir()
    labels = []
    for k, (pref, *_rest) in enumerate(ITEMS):
        labels += [f"{pref}\t1\t1\tid.{k}", "see above"]
    (root / "LABEL.txt").write_text("\n".join(labels))
    (root / "src.test.amr").write_text("\n\n".join(p for _, a, b, _r in ITEMS for p in (a, b)) + "\n")
    (root / "tgt.test.amr").write_text("\n\n".join(p for *_x, r in ITEMS for p in (r, r)) + "\n")


def test_parseval_script_numbers(tmp_path):
    make_parseval(tmp_path / "pe")
    r = run("parseval.py", "--data", str(tmp_path / "pe"), "--presets", "smatch", "generic",
            "--workers", "1")
    assert r.returncode == 0, r.stderr
    rows = {line.split("|")[1].strip(): line for line in r.stdout.splitlines() if line.startswith("| ")}
    # smatch: item 1 right, item 2 wrong, item 4 a metric tie -> 1/2 of 2
    assert "| 0.5000 | 2 of 4 (1 human ties) | 1 |" in rows["smatch"]
    # generic: item 4 right as well -> 2/3 of 3
    assert "| 0.6667 | 3 of 4 (1 human ties) | 0 |" in rows["generic"]
    assert "0.72" in rows["published Smatch (thesis)"]


def test_parseval_script_takes_a_metric(tmp_path):
    make_parseval(tmp_path / "pe")
    r = run("parseval.py", "--data", str(tmp_path / "pe"), "--metric", "sembleu", "--metric-set", "k=1")
    assert r.returncode == 0, r.stderr
    rows = {line.split("|")[1].strip(): line for line in r.stdout.splitlines() if line.startswith("| ")}
    # SemBleu k=1, the parse as hypothesis: items 1 and 2 score 1 against 0 (right, wrong);
    # item 4: (name), (new) against (name), (new york): 1 of 2 unigrams, lengths 3 = 3: 1/2 < 1,
    # right -> 2/3 of 3
    assert "| 0.6667 | 3 of 4 (1 human ties) | 0 |" in rows["sembleu"]
    assert "|metric:sembleu|sembleu-k:1|" in r.stdout


# ---------------------------------------------------------------------------
# the real data (skipped without ../shared)


def test_bamboo_real_data_role_confusion_sts_legacy():
    data = SHARED / "data" / "bamboo"
    if not (data / "sts" / "role_confusion" / "src.test.amr").is_file():
        pytest.skip(f"shared data not found at {data}")
    from smatchpp.api import Config

    f1 = bamboo.pair_f1(Config(preset="smatch-legacy"), data / "sts" / "role_confusion" / "src.test.amr",
                        data / "sts" / "role_confusion" / "tgt.test.amr", workers=1)
    assert len(f1) == bamboo.ROLE_PAIRS["sts"]
    # the published v0.2 STS(role) cell of Smatch
    assert bamboo.pair_accuracy100(f1) == pytest.approx(bamboo.PUBLISHED["Smatch"][9], abs=0.01)
    assert len(bamboo.human_scores("sts", data)) == 1379
    assert len(bamboo.human_scores("sick", data)) == 4927
    assert len(bamboo.human_scores("para", data)) == 1725


def test_parseval_real_data_labels():
    data = SHARED / "data" / "parseval-lp"
    if not (data / "LABEL.txt").is_file():
        pytest.skip(f"shared data not found at {data}")
    pref = parseval.preferences(data)
    assert len(pref) == 200 and set(pref.tolist()) == {-1, 0, 1}


def test_bamboo_pair_scores_have_a_row_per_aspect(tmp_path):
    """``--set aspects=...``: every aspect's pair F1 beside the main one.  Pair 0's AGENT is
    {hit-01, boy, h arg0 b} against {hit-01, girl, h arg0 g}: 2 of 3 / 3; pair 1 has no
    :ARG0, and CAUSE is empty everywhere: 1 (vacuous agreement)."""
    from smatchpp.aspects.smatchpp18 import NAMES

    a, b = tmp_path / "a.amr", tmp_path / "b.amr"
    a.write_text("(h / hit-01 :ARG0 (b / boy) :ARG2 (s / stick))\n\n(c / city :name (n / name :op1 \"X\"))\n")
    b.write_text("(h / hit-01 :ARG0 (g / girl) :ARG2 (s / stick))\n\n(c / city :name (n / name :op1 \"X\"))\n")
    config = bamboo.Config(preset="smatchpp18-amr", aspects="separate", aspect_set="smatchpp18")
    out = bamboo.pair_f1s(config, a, b, 1)
    assert list(out) == ["main", *NAMES]
    assert out["AGENT"].tolist() == pytest.approx([2 / 3, 1.0])
    assert out["CAUSE"].tolist() == [1.0, 1.0]
    assert out["main"].tolist() == pytest.approx([5 / 6, 1.0])


def test_bamboo_pair_scores_have_a_row_per_thesis_aspect(tmp_path, monkeypatch):
    """The thesis set: a row per aspect.  Pair 0: Concepts {hit-01, boy, stick} against
    {hit-01, girl, stick}: 2 of 3 / 3; rootSim hit vs hit 1; maxIndegreeSim boy (the first
    of the nodes with one parent) against girl: cos 0.6.  Negation: pair 0 has none on either
    side, 1 (vacuous agreement); pair 1 only in A, 0."""
    from smatchpp.aspects.thesis import NAMES

    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))
    (tmp_path / "v.txt").write_text("boy 1 0\ngirl 0.6 0.8\n")
    a, b = tmp_path / "a.amr", tmp_path / "b.amr"
    a.write_text("(h / hit-01 :ARG0 (b / boy) :ARG2 (s / stick))\n\n(c / city :polarity -)\n")
    b.write_text("(h / hit-01 :ARG0 (g / girl) :ARG2 (s / stick))\n\n(c / city)\n")
    config = bamboo.Config(aspects="separate", aspect_set="thesis", vectors=str(tmp_path / "v.txt"))
    out = bamboo.pair_f1s(config, a, b, 1)
    assert list(out) == ["main", *NAMES]
    assert out["Concepts"].tolist() == pytest.approx([2 / 3, 1.0])
    assert out["rootSim"].tolist() == [1.0, 1.0]
    assert out["maxIndegreeSim"].tolist() == pytest.approx([0.6, 1.0])
    assert out["Negation"].tolist() == [1.0, 0.0]

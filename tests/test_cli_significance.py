"""``score --bootstrap`` and ``compare`` on the command line: the numbers, not only the format."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

import pytest
from clirun import run as clirun

from smatchpp.api import Config, Scorer
from smatchpp.graphs.read import read_file
from smatchpp.statistics.significance import PairStats, bootstrap, compare, paired_stats

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ROOT = Path(__file__).resolve().parents[1]


def smatchpp(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    run = clirun(*args, "--quiet", cwd=tempfile.gettempdir())
    if check:
        assert run.returncode == 0, run.stderr
    return run


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


# --- score --bootstrap --------------------------------------------------------------

def _in_process_bootstrap(test: Path, gold: Path, resamples: int, seed: int):
    corpus = Scorer(Config()).score_corpus(read_file(test), read_file(gold))
    return bootstrap(PairStats.from_pairs(corpus.scored), resamples, seed)


def test_score_bootstrap_json_numbers_and_determinism():
    pred, gold = EXAMPLES / "pred.amr", EXAMPLES / "gold.amr"
    runs = [smatchpp("score", str(pred), str(gold), "--format", "json", "--bootstrap") for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout  # seeded: identical run to run
    summary = json.loads(runs[0].stdout)
    assert "|bootstrap:1000|bootstrap-seed:12345|" in summary["signature"]
    expected = _in_process_bootstrap(pred, gold, 1000, 12345).to_json()
    assert summary["bootstrap"] == expected
    lo, hi = summary["bootstrap"]["micro"]["f1"]
    assert lo <= summary["micro"]["f1"] <= hi
    lo, hi = summary["bootstrap"]["macro"]["f1"]
    assert lo <= summary["macro"]["f1"] <= hi


def test_score_bootstrap_text_and_signature_round_trip():
    pred, gold = EXAMPLES / "pred.amr", EXAMPLES / "gold.amr"
    text = smatchpp("score", str(pred), str(gold), "--bootstrap=200", "--bootstrap-seed", "3").stdout
    ci = _in_process_bootstrap(pred, gold, 200, 3)
    (lo, hi), (mlo, mhi) = ci.lower.micro["f1"], ci.lower.macro["f1"]
    assert "95% bootstrap intervals (200 resamples of 4 pairs, seed 3, percentile)" in text
    assert f"F1 [{_pct(lo)}, {_pct(hi)}]" in text and f"F1 [{_pct(mlo)}, {_pct(mhi)}]" in text
    signature = text.splitlines()[0]
    assert "|bootstrap:200|bootstrap-seed:3|" in signature
    again = smatchpp("score", str(pred), str(gold), "--signature", signature).stdout
    assert again == text


def test_score_without_bootstrap_has_no_intervals():
    run = smatchpp("score", str(EXAMPLES / "pred.amr"), str(EXAMPLES / "gold.amr"), "--format", "json")
    summary = json.loads(run.stdout)
    assert "bootstrap" not in summary and "bootstrap" not in summary["signature"]


@pytest.mark.parametrize("option", ["--bootstrap=0", "--bootstrap=x", "--bootstrap-seed=-1"])
def test_bad_bootstrap_values_exit_2(option):
    run = smatchpp("score", str(EXAMPLES / "pred.amr"), str(EXAMPLES / "gold.amr"), option, check=False)
    assert run.returncode == 2 and "bootstrap" in run.stderr


# --- compare ------------------------------------------------------------------------------

GOLD = [f"(w{i} / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :ARG4 (c / city :name (n / name "
        f":op1 \"City{i}\"))) :time (d / date-entity :year {2000 + i}))" for i in range(14)]
# wrong: the wanter, a role, the year
WORSE = [f"(w{i} / want-01 :ARG0 (b / girl) :ARG1 (g / go-02 :ARG1 b :ARG4 (c / city :name (n / name "
         f":op1 \"City{i}\"))) :time (d / date-entity :year {1900 + i}))" for i in range(14)]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("compare")
    paths = {}
    for name, graphs in (("gold", GOLD), ("better", GOLD), ("worse", WORSE)):
        paths[name] = folder / f"{name}.amr"
        paths[name].write_text("\n\n".join(graphs) + "\n")
    return paths


def _in_process_compare(sys1: Path, sys2: Path, gold: Path, resamples: int, trials: int, seed: int):
    scorer = Scorer(Config())
    c1 = scorer.score_corpus(read_file(sys1), read_file(gold))
    c2 = scorer.score_corpus(read_file(sys2), read_file(gold))
    s1, s2, _ = paired_stats(c1.pairs, c2.pairs)
    return compare(s1, s2, resamples, trials, seed)


def test_compare_a_system_against_itself(files):
    run = smatchpp("compare", str(files["worse"]), str(files["worse"]), str(files["gold"]),
                   "--format", "json")
    result = json.loads(run.stdout)["comparisons"][0]
    assert result["delta_f1"] == 0.0 and result["delta_interval"] == [0.0, 0.0]
    assert result["p_value_bootstrap"] == 1.0 and result["p_value_randomization"] == 1.0
    text = smatchpp("compare", str(files["worse"]), str(files["worse"]), str(files["gold"])).stdout
    assert "delta F1 (sys1 - sys2) +0.000 points, 95% interval [+0.00, +0.00]" in text
    assert "p-value: paired bootstrap 1.0000 (1000 resamples), approximate randomization 1.0000 " \
           "(10000 trials)" in text


def test_compare_a_clearly_better_system(files):
    args = [str(files["better"]), str(files["worse"]), str(files["gold"]), "--bootstrap", "500",
            "--ar-trials", "2000", "--bootstrap-seed", "11"]
    runs = [smatchpp("compare", *args, "--format", "json") for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout
    summary = json.loads(runs[0].stdout)
    assert "|bootstrap:500|bootstrap-seed:11|ar-trials:2000|" in summary["signature"]
    assert summary["pairs"] == 14 and summary["certified_optimal"] == {"sys1": 14, "sys2": 14}
    result = summary["comparisons"][0]
    expected = _in_process_compare(files["better"], files["worse"], files["gold"], 500, 2000, 11)
    assert result == expected.to_json()
    assert result["f1_sys1"] == 1.0 and result["delta_f1"] == pytest.approx(3 / 15)  # 3 of 15 wrong
    assert result["p_value_bootstrap"] < 0.05 and result["p_value_randomization"] < 0.05
    assert 0 < result["delta_interval"][0] <= result["delta_f1"] <= result["delta_interval"][1]
    # reversed order: the same p-values, the difference negated
    back = json.loads(smatchpp("compare", args[1], args[0], *args[2:], "--format", "json").stdout)
    back = back["comparisons"][0]
    assert back["delta_f1"] == -result["delta_f1"]
    assert back["p_value_randomization"] == result["p_value_randomization"]


def test_compare_pairs_out_and_text(files, tmp_path):
    out = tmp_path / "pairs.jsonl"
    text = smatchpp("compare", str(files["better"]), str(files["worse"]), str(files["gold"]),
                    "--bootstrap", "300", "--ar-trials", "300", "--pairs-out", str(out)).stdout
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["index"] for r in rows] == list(range(14))
    assert all(r["sys1"]["f1"] == 1.0 and r["f1_difference"] == 1.0 - r["sys2"]["f1"] for r in rows)
    c = _in_process_compare(files["better"], files["worse"], files["gold"], 300, 300, 12345)
    assert f"F1 sys1 {_pct(c.f1[0])} [{_pct(c.system_intervals[0][0])}, " in text
    assert f"delta F1 (sys1 - sys2) {100 * c.delta:+.3f} points" in text
    assert f"paired bootstrap {c.p_bootstrap:.4f} (300 resamples)" in text
    assert f"approximate randomization {c.p_randomization:.4f} (300 trials)" in text


def test_compare_refuses_files_that_are_not_parallel(files, tmp_path):
    short = tmp_path / "short.amr"
    short.write_text("\n\n".join(GOLD[:3]) + "\n")
    run = smatchpp("compare", str(files["better"]), str(short), str(files["gold"]), check=False)
    assert run.returncode == 2 and "short.amr has 3 graphs" in run.stderr
    run = smatchpp("compare", str(files["better"]), str(files["worse"]), str(files["gold"]),
                   "--ar-trials", "0", check=False)
    assert run.returncode == 2 and "--ar-trials" in run.stderr


def test_score_bootstrap_with_uncertified_pairs_resamples_both_bounds():
    # a work limit of 1 leaves a pair of the examples uncertified, the same one on every run
    pred, gold = EXAMPLES / "pred.amr", EXAMPLES / "gold.amr"
    run = smatchpp("score", str(pred), str(gold), "--work-limit", "1", "--bootstrap=200",
                   "--format", "json")
    summary = json.loads(run.stdout)
    assert summary["scores_are_lower_bounds"]
    corpus = Scorer(Config(work_limit=1)).score_corpus(read_file(pred), read_file(gold))
    expected = bootstrap(PairStats.from_pairs(corpus.scored), 200, 12345)
    assert expected.upper is not None and summary["bootstrap"] == expected.to_json()
    lo, hi = summary["bootstrap"]["from_upper_bounds"]["micro"]["f1"]
    assert lo <= summary["f1_interval"][1] <= hi
    text = smatchpp("score", str(pred), str(gold), "--work-limit", "1", "--bootstrap=200").stdout
    ulo, uhi = expected.upper.micro["f1"]
    assert f"upper bounds micro  P [{_pct(expected.upper.micro['precision'][0])}, " in text
    assert f"F1 [{_pct(ulo)}, {_pct(uhi)}]" in text and "lower bounds micro" in text


def test_compare_aspects(files):
    from smatchpp.aspects.core import ASPECTS

    args = [str(files["better"]), str(files["worse"]), str(files["gold"]), "--bootstrap", "300",
            "--ar-trials", "500", "--aspects", "joint"]
    summary = json.loads(smatchpp("compare", *args, "--format", "json").stdout)
    assert summary["aspects"] == "joint" and "|aspects:joint|" in summary["signature"]
    scorer = Scorer(Config(aspects="joint"))
    c1 = scorer.score_corpus(read_file(files["better"]), read_file(files["gold"]))
    c2 = scorer.score_corpus(read_file(files["worse"]), read_file(files["gold"]))
    names = [c["name"] for c in summary["comparisons"]]
    assert names == ["smatch"] + [ASPECTS[n].title for n in c1.pairs[0].aspects]
    for key, got in zip(c1.pairs[0].aspects, summary["comparisons"][1:]):
        stats = [PairStats.from_counts([p.aspects[key].matched for p in c.pairs],
                                       [p.aspects[key].test for p in c.pairs],
                                       [p.aspects[key].gold for p in c.pairs],
                                       upper=[p.aspects[key].upper for p in c.pairs]) for c in (c1, c2)]
        expected = compare(*stats, 300, 500, 12345, name=ASPECTS[key].title).to_json()
        if not any(s.test.sum() or s.gold.sum() for s in stats):  # no items anywhere: no F1 (n/a)
            expected.update(f1_sys1=None, f1_sys2=None, no_items=True)
        assert got == expected
    # SRL: sys1 is the gold itself; sys2 has a wrong role (:ARG1 for :ARG0) in every graph
    srl = next(c for c in summary["comparisons"] if c["name"] == "SRL")
    assert srl["f1_sys1"] == 1.0 and srl["delta_f1"] > 0 and srl["p_value_randomization"] < 0.05
    text = smatchpp("compare", *args).stdout
    assert "aspects (joint alignment)" in text
    row = next(line for line in text.splitlines() if line.startswith("SRL "))
    assert f"{100 * srl['f1_sys1']:.2f}" in row and f"{srl['p_value_randomization']:.4f}" in row

"""``smatchpp score --aspects`` on the command line: the numbers, counted by hand.

Pair 0: A ``(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))``
        B ``(w / want-02 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (c / cat)))``
  smatch       A: 3 instances, polarity, TOP, 3 relations = 8; B: 4 instances, TOP, 3 relations = 8;
               w->w, b->b, g->g matches TOP, boy, go-02, ARG0 w b, ARG1 w g = 5
  unlabeled    the same shapes with :label (polarity too): 8 and 8, 5 matched
  no_wsd       want-01 ~ want-02: 6
  concepts     {want-01, boy, go-02} vs {want-02, boy, go-02, cat}: 2 of 3 / 4
  negations    go-02 vs nothing: 0 of 1 / 0
  reentrancies A: b has parents w and g -> w, b, g + 2 relations + TOP = 6; B: none -> 0
  srl          A: 3 ARG relations over w, b, g + TOP = 7; B: 3 over w, b, g, c + TOP = 8;
               boy, go-02, ARG0 w b, ARG1 w g = 4 (TOP values want-01 / want-02 differ)
Pair 1: the same graph on both sides ``(c / city :wiki "Paris" :name (n / name :op1 "Paris"))``:
  smatch = unlabeled = no_wsd = 6 of 6; concepts 2; named_ent 1 (city); wikification 1 (paris).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from clirun import run

A = ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))",
     '(c / city :wiki "Paris" :name (n / name :op1 "Paris"))']
B = ["(w / want-02 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (c / cat)))",
     '(c / city :wiki "Paris" :name (n / name :op1 "Paris"))']

#: (matched, test, gold) per aspect, summed over both pairs
CORPUS = {"smatch": (11, 14, 14), "unlabeled": (11, 14, 14), "no_wsd": (12, 14, 14),
          "concepts": (4, 5, 6), "named_ent": (1, 1, 1), "negations": (0, 1, 0),
          "wikification": (1, 1, 1), "reentrancies": (0, 6, 0), "srl": (4, 7, 8)}
PAIR0 = {"smatch": (5, 8, 8), "no_wsd": (6, 8, 8), "concepts": (2, 3, 4), "reentrancies": (0, 6, 0),
         "srl": (4, 7, 8)}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("aspects")
    (folder / "a.amr").write_text("\n\n".join(A) + "\n")
    (folder / "b.amr").write_text("\n\n".join(B) + "\n")
    return folder


def smatchpp(*args: str) -> subprocess.CompletedProcess:
    done = run("score", *args, "--quiet", cwd=Path.cwd())
    done.check_returncode()
    return done


@pytest.mark.parametrize("mode", ["separate", "joint"])
def test_json_summary_and_pairs_out(files, mode):
    pairs = files / f"pairs-{mode}.jsonl"
    run = smatchpp(str(files / "a.amr"), str(files / "b.amr"), "--aspects", mode, "--format", "json",
                   "--pairs-out", str(pairs))
    summary = json.loads(run.stdout)
    assert f"|aspects:{mode}|" in summary["signature"]
    assert summary["aspects"]["mode"] == mode
    scores = summary["aspects"]["scores"]
    assert list(scores) == list(CORPUS)  # the order papers print them in
    assert {k: (v["matched"], v["test"], v["gold"]) for k, v in scores.items()} == CORPUS
    assert scores["srl"]["precision"] == pytest.approx(4 / 7)
    # the Smatch row is the run's own score
    assert (summary["matched_lower"], summary["test_triples"]) == CORPUS["smatch"][:2]
    rows = [json.loads(line) for line in pairs.read_text().splitlines()]
    first = {k: (v["matched"], v["test"], v["gold"]) for k, v in rows[0]["aspects"].items()}
    assert {k: first[k] for k in PAIR0} == PAIR0


def test_text_table(files):
    out = smatchpp(str(files / "a.amr"), str(files / "b.amr"), "--aspects").stdout
    assert "|aspects:separate|" in out.splitlines()[0]
    rows = {line[:30].strip(): line[30:].split() for line in out.splitlines()
            if line[:30].strip() in ("No WSD", "SRL", "Negations")}
    assert rows["No WSD"][:3] == ["85.71", "85.71", "85.71"]        # 12 of 14
    assert rows["SRL"][:6] == ["57.14", "50.00", "53.33", "4", "7", "8"]
    assert rows["Negations"][:3] == ["0.00", "0.00", "0.00"]        # no gold negation


def test_without_aspects_nothing_changes(files):
    run = smatchpp(str(files / "a.amr"), str(files / "b.amr"), "--format", "json")
    summary = json.loads(run.stdout)
    assert "aspects" not in summary and "aspects:" not in summary["signature"]

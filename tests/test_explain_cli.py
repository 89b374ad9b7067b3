"""``smatchpp explain`` in a fresh process: terminal view, HTML, JSON, pair selection, errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from smatchpp.api import Config, Scorer
from smatchpp.read import read_file

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PRED, GOLD = str(EXAMPLES / "pred.amr"), str(EXAMPLES / "gold.amr")


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "smatchpp", "explain", PRED, GOLD, "--quiet", *args],
                          capture_output=True, text=True)


def test_terminal_view_of_one_pair():
    run = _run("--pair", "2", "--color", "never")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.startswith("pair 2 (id ex3)") and "\033[" not in out
    assert "(m[1] / meet-03(!)" in out and "(m[1] / meet-02(!)" in out
    assert "unmatched triples of A (test): 1\n  (m, instance, meet-03)" in out
    colored = _run("--pair", "2", "--color", "always").stdout
    assert "\033[" in colored


def test_html_and_json_for_the_worst_pairs(tmp_path):
    html, js = tmp_path / "r.html", tmp_path / "e.jsonl"
    run = _run("--worst", "2", "--html", str(html), "--json", str(js))
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""  # the report goes to the file, the summary to stderr
    rows = [json.loads(line) for line in js.read_text().splitlines()]
    scores = Scorer(Config()).score_corpus(read_file(PRED), read_file(GOLD)).pairs
    worst = sorted(scores, key=lambda p: (p.f1, p.index))[:2]
    assert [r["index"] for r in rows] == sorted(p.index for p in worst)
    for r in rows:
        p = scores[r["index"]]
        assert (r["matched"], r["test_triples"], r["gold_triples"], r["f1"]) == \
            (p.matched, p.test_triples, p.gold_triples, p.f1)
        assert len(r["unmatched_a"]) == p.test_triples - p.matched
    page = html.read_text()
    assert page.count('<script type="text/html" id=') == 2


def test_bad_pair_index_is_a_usage_error():
    run = _run("--pair", "99")
    assert run.returncode == 2 and "out of range" in run.stderr
    run = _run("--pairs", "1,x")
    assert run.returncode == 2 and "--pairs" in run.stderr

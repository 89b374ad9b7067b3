"""WSMATCH beside the reference tool (``experiments/compare_wsmatch.py`` and its peer driver).

The reference's triples are hand-written here as its driver dumps them (weights
by hand: the root ``want-01`` is level 0, weight 5; ``boy``/``go-02`` level 1,
weight 4; the ``-`` constant level 2, so ``:polarity`` weighs min(4, 3) = 3).
The driver itself runs only when the reference is set up in
``~/.cache/wsmatch-peer`` (``experiments/setup_peers.sh``); else that test skips.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import child_env  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "experiments"))

import bamboo  # noqa: E402
import compare_wsmatch  # noqa: E402

from smatchpp.api import Config, Scorer  # noqa: E402

PEER = Path.home() / ".cache" / "wsmatch-peer"
A = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))"
B = "(w / want-01 :ARG0 (b / girl) :ARG1 (g / go-02 :ARG0 b))"
TRIPLES_A = [[["instance", "a0", "want-01", 5], ["instance", "a1", "boy", 4],
              ["instance", "a2", "go-02", 4]],
             [["TOP", "a0", "want-01", 5], ["polarity", "a2", "-", 3]],
             [["ARG0", "a0", "a1", 4], ["ARG1", "a0", "a2", 4], ["ARG0", "a2", "a1", 4]]]
TRIPLES_B = [[["instance", "b0", "want-01", 5], ["instance", "b1", "girl", 4],
              ["instance", "b2", "go-02", 4]],
             [["TOP", "b0", "want-01", 5]],
             [["ARG0", "b0", "b1", 4], ["ARG1", "b0", "b2", 4], ["ARG0", "b2", "b1", 4]]]


def test_our_weights_of_the_reference_triples_are_its_weights():
    for triples in (TRIPLES_A, TRIPLES_B):
        graph, weights = compare_wsmatch.reference_graph(triples)
        assert compare_wsmatch.same_weights(graph, weights)
    graph, (inst, attr, rel) = compare_wsmatch.reference_graph(TRIPLES_A)
    assert not compare_wsmatch.same_weights(graph, (inst, [5, 4], rel))


def test_ours_on_the_reference_triples_and_from_penman():
    (ga, _), (gb, _) = (compare_wsmatch.reference_graph(t) for t in (TRIPLES_A, TRIPLES_B))
    # matched by hand: want-01 5 + go-02 4 + TOP 5 + three relations 4 each = 26
    s = Scorer(Config(match="wsmatch")).score_pair(ga, gb)
    assert (s.matched, s.test_weight, s.gold_weight, s.status) == (26, 33, 30, "optimal")
    legacy = Scorer(Config(preset="smatch-legacy", match="wsmatch")).score_pair(A, B)
    assert (legacy.matched, legacy.test_weight, legacy.gold_weight) == (26, 33, 30)
    assert compare_wsmatch.f1(26, 33, 30) == pytest.approx(s.f1)
    assert compare_wsmatch.f1(0, 33, 30) == 0.0 and compare_wsmatch.f1(3, 0, 30) == 0.0


def test_cell_score_follows_the_protocol():
    assert bamboo.cell_score("sts/role_confusion", [0.1, 0.9] * 79) == 100.0
    assert bamboo.cell_score("sts/role_confusion", [0.5, 0.5] * 79) == 0.0


@pytest.mark.skipif(not (PEER / "venv" / "bin" / "python").exists(),
                    reason="reference WSMATCH not set up (experiments/setup_peers.sh)")
def test_reference_driver_on_a_tiny_pair(tmp_path):
    (tmp_path / "a.amr").write_text(A + "\n\n(a / and :op1 (n / name :op1 \"Jo\"))\n")
    (tmp_path / "b.amr").write_text(B + "\n\n(a / and :op1 (n / name :op1 \"Jo\"))\n")
    out = tmp_path / "pairs.jsonl"
    r = subprocess.run([str(PEER / "venv" / "bin" / "python"),
                        str(ROOT / "experiments" / "wsmatch_peer_driver.py"),
                        str(tmp_path / "a.amr"), str(tmp_path / "b.amr"),
                        "--peer-src", str(PEER / "src"), "--out", str(out)],
                       capture_output=True, text=True, env=child_env())
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["triples_a"] == TRIPLES_A and records[0]["triples_b"] == TRIPLES_B
    assert [(x["matched"], x["test_weight"], x["gold_weight"]) for x in records] == \
        [(26, 33, 30), (21, 21, 21)]
    summary = json.loads(r.stdout.splitlines()[-1])
    assert summary["f1"] == pytest.approx(compare_wsmatch.f1(47, 54, 51))

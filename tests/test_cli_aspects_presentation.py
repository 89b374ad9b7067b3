"""How ``--aspects`` presents what it cannot score and what differs from Smatch (issue 22,
item 9), on the command line.

The pair: A has ``:mod 1`` (smatch 1.0.4 turns ``:mod`` into an inverted ``:domain`` and
drops it, as the target is a constant), no graph has ``:wiki``.  Hand counts:

* Smatch: A has 3 instances + TOP + ``:ARG0`` + ``:ARG1`` = 6 triples (``:mod 1`` dropped),
  B the same 6; all 6 match.
* Unlabeled: ``:mod 1`` becomes ``:label 1``, no longer inverted: A has 7 triples, B 6; 6 match
  (P 6/7 = 85.71, R 100, F1 92.31).
* SRL: the two ``:ARG`` edges, the instances of their 3 nodes and TOP: 6 a side, all match.
* Named Ent., Negations, Wikification, Reentrancies: no item on either side: n/a, not 0.
"""

from __future__ import annotations

import json

import pytest

from clirun import run

A = "# ::id p1\n(w / want-01 :ARG0 (b / boy) :mod 1 :ARG1 (g / go-02))\n"
B = "# ::id p1\n(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02))\n"
NOTE = ("Unlabeled counts 7 test / 6 gold triples against Smatch's 6 / 6: a role onto a constant "
        "that smatch 1.0.4 drops as inverted (:mod 1, :ARG0-of \"x\") is kept once relabelled as "
        ":label, as in amr-evaluation")


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.amr").write_text(A, encoding="utf-8")
    (tmp_path / "b.amr").write_text(B, encoding="utf-8")
    return tmp_path / "a.amr", tmp_path / "b.amr"


def test_text_says_n_a_and_notes_unlabeled(tmp_path, files):
    done = run("score", *files, "--aspects", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    table = done.stdout[done.stdout.index("aspects (separate alignment)"):]
    assert table.splitlines() == [
        "aspects (separate alignment)       P       R      F1  matched    test    gold",
        "Smatch                        100.00  100.00  100.00        6       6       6",
        "Unlabeled                      85.71  100.00   92.31        6       7       6",
        "No WSD                        100.00  100.00  100.00        6       6       6",
        "Concepts                      100.00  100.00  100.00        3       3       3",
        "Named Ent.                       n/a     n/a     n/a        0       0       0  (no items on either side)",
        "Negations                        n/a     n/a     n/a        0       0       0  (no items on either side)",
        "Wikification                     n/a     n/a     n/a        0       0       0  (no items on either side)",
        "Reentrancies                     n/a     n/a     n/a        0       0       0  (no items on either side)",
        "SRL                           100.00  100.00  100.00        6       6       6",
        "note: " + NOTE]


def test_json_gives_null_and_the_note(tmp_path, files):
    done = run("score", *files, "--aspects", "--quiet", "--format", "json", "--pairs-out", "p.jsonl",
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    aspects = json.loads(done.stdout)["aspects"]
    assert aspects["notes"] == [NOTE]
    wiki = aspects["scores"]["wikification"]
    assert wiki == {"matched": 0, "upper": 0, "test": 0, "gold": 0, "precision": None, "recall": None,
                    "f1": None}
    assert aspects["scores"]["unlabeled"]["test"] == 7 and aspects["scores"]["smatch"]["test"] == 6
    pair = json.loads((tmp_path / "p.jsonl").read_text())
    assert pair["aspects"]["wikification"]["f1"] is None
    assert pair["aspects"]["concepts"]["f1"] == 1.0


def test_no_note_when_the_counts_agree(tmp_path, files):
    _, b = files
    done = run("score", b, b, "--aspects", "--quiet", "--format", "json", cwd=tmp_path)
    assert json.loads(done.stdout)["aspects"]["notes"] == []


def test_compare_says_n_a_for_an_aspect_without_items(tmp_path, files):
    a, b = files
    common = ("compare", a, b, b, "--aspects", "--quiet", "--bootstrap", "50", "--ar-trials", "50")
    done = run(*common, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {line[:30].strip(): line for line in done.stdout.splitlines()}
    assert rows["Wikification"] == ("Wikification                        n/a      n/a       n/a  n/a                  "
                                    "          n/a     n/a  (no items on either side)")  # issue 33
    assert rows["Concepts"].startswith("Concepts                         100.00   100.00    +0.000")
    data = json.loads(run(*common, "--format", "json", cwd=tmp_path).stdout)
    by_name = {c["name"]: c for c in data["comparisons"]}
    assert (by_name["Wikification"]["f1_sys1"], by_name["Wikification"]["f1_sys2"]) == (None, None)
    assert by_name["Wikification"]["no_items"] is True
    assert by_name["Unlabeled"]["f1_sys1"] == pytest.approx(12 / 13) and "no_items" not in by_name["Unlabeled"]

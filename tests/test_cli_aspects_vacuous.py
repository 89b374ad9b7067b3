"""``compare`` follows ``score``'s vacuous-agreement rule for the sets that have it.

An aspect whose subgraphs are empty on both sides scores 1 in ``score`` (smatchpp 1.8's
and the thesis' sets).  ``compare`` gives each system's micro F1 of the same summed counts,
so each system's F1 per aspect must be the one ``score`` prints for that system against
the gold: 100 for an aspect empty everywhere (MATHS here), and 100 for the system that,
like the gold, has no negation, while the other system has one.
"""

from __future__ import annotations

import json

import pytest

from clirun import run

SYS1 = ["(h / hit-01 :ARG0 (b / boy) :ARG2 (s / stick) :polarity -)", "(g / go-02 :ARG0 (b / boy))"]
SYS2 = ["(h / hit-01 :ARG0 (g / girl) :ARG2 (s / stick))", "(g / go-02 :ARG0 (c / cat))"]
GOLD = ["(h / hit-01 :ARG0 (g / girl) :ARG2 (s / stick))", "(g / go-02 :ARG0 (b / boy))"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("vacuous")
    for name, graphs in (("s1", SYS1), ("s2", SYS2), ("gold", GOLD)):
        (d / f"{name}.amr").write_text("\n\n".join(graphs) + "\n")
    return d


@pytest.mark.parametrize("aspect_set", ["smatchpp18", "thesis"])
def test_compare_scores_each_system_as_score_does(files, aspect_set):
    common = ("--aspects", aspect_set, "--format", "json", "--quiet")
    f1 = {}
    for system in ("s1", "s2"):
        r = run("score", f"{system}.amr", "gold.amr", *common, cwd=files)
        assert r.returncode == 0, r.stderr
        f1[system] = {k: v["f1"] for k, v in json.loads(r.stdout)["aspects"]["scores"].items()}
    r = run("compare", "s1.amr", "s2.amr", "gold.amr", *common, "--bootstrap", "50", "--ar-trials", "50",
            cwd=files)
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)["comparisons"][1:]
    assert [c["name"] for c in rows] == list(f1["s1"])
    for c in rows:
        assert (c["f1_sys1"], c["f1_sys2"]) == pytest.approx((f1["s1"][c["name"]], f1["s2"][c["name"]])), c
    negation = "POLARITY" if aspect_set == "smatchpp18" else "Negation"
    by_name = {c["name"]: c for c in rows}
    assert (by_name[negation]["f1_sys1"], by_name[negation]["f1_sys2"]) == (0.0, 1.0)
    assert by_name[negation]["sys2_interval"] == [1.0, 1.0]


def test_compare_text_marks_an_aspect_empty_everywhere(files):
    r = run("compare", "s1.amr", "s2.amr", "gold.amr", "--aspects", "smatchpp18", "--quiet",
            "--bootstrap", "50", "--ar-trials", "50", cwd=files)
    assert r.returncode == 0, r.stderr
    rows = {line[:30].strip(): line for line in r.stdout.splitlines()}
    assert rows["MATHS"] == ("MATHS                            100.00   100.00    +0.000  [+0.00, +0.00]"
                             "              1.0000  1.0000  (empty on both sides: vacuous agreement)")
    data = json.loads(run("compare", "s1.amr", "s2.amr", "gold.amr", "--aspects", "smatchpp18", "--quiet",
                          "--bootstrap", "50", "--ar-trials", "50", "--format", "json", cwd=files).stdout)
    maths = {c["name"]: c for c in data["comparisons"]}["MATHS"]
    assert (maths["f1_sys1"], maths["f1_sys2"], maths["delta_f1"]) == (1.0, 1.0, 0.0)
    assert maths["sys1_interval"] == maths["sys2_interval"] == [1.0, 1.0]
    assert maths["no_items"] is True and maths["vacuous"] is True

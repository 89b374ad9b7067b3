"""The command line's numbers, against values computed by hand.

The shipped examples (``examples/pred.amr`` = A = test, ``examples/gold.amr`` =
B = gold) have 4 pairs.  smatch 1.0.4's triples are: one instance triple per
variable, a ``TOP`` attribute ``(root, TOP, top)``, the attributes (constants)
and the relations (``:mod`` becomes an inverse ``:domain``).

* ex1 "The boy wants to go": A ``go-02``, B ``go-01``.  Triples: 3 instances
  (want-01, boy, go-0x) + TOP + 3 relations (ARG0 w b, ARG1 w g, ARG0 g b) = 7
  on each side.  Identity alignment: every triple but the go instance = 6.
* ex2 "The dog did not bark": 3 instances + TOP + polarity + ARG0 + (A ARG2 /
  B ARG1) = 7 each.  Everything matches except ARG2 vs ARG1 = 6.
* ex3 "Anna met Bob": 7 instances + TOP + 4 attributes (op1 Anna, op1 Bob, op1
  New, op2 York) + 6 relations (ARG0, ARG1, location, 3 x name) = 18 each.  Only
  meet-03 vs meet-02 differs (TOP's value is ``top``, not the concept) = 17.
* ex4 "a small rose and a big rose": 8 instances + TOP + 7 relations (ARG0,
  ARG1, op1, op2, 3 x domain) = 16 each.  A's op1 rose is small, B's op1 rose
  is big.  Aligning the roses by op keeps op1/op2 and loses both rose domains;
  aligning them by size keeps the domains and loses op1/op2; mapping small to
  big loses two instances for two domains.  So 16 - 2 = 14.

Every pair has as many test as gold triples, so P = R there: the asymmetric
pairs further down catch a swap of precision and recall.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import penman
import pytest

from clirun import GOLD, PRED, run

#: (id, matched, test triples, gold triples), derived in the module docstring
PAIRS = [("ex1", 6, 7, 7), ("ex2", 6, 7, 7), ("ex3", 17, 18, 18), ("ex4", 14, 16, 16)]
MATCHED = 6 + 6 + 17 + 14          # 43
TRIPLES = 7 + 7 + 18 + 16          # 48 on each side
MICRO = MATCHED / TRIPLES          # P = R = F1 = 0.8958...
MACRO = (6 / 7 + 6 / 7 + 17 / 18 + 14 / 16) / 4   # P = R = F1 per pair here: 0.8834...

#: A vs B pairs with different triple counts.  Pair 0: A ``(d / dog)`` has 2
#: triples (instance, TOP); B ``(b / bark-01 :ARG0 (d / dog))`` has 4 (2
#: instances, TOP, ARG0).  d->d matches the dog instance, d->b the TOP triple,
#: never both: matched 1, P 1/2, R 1/4.  Pair 1: A ``(b / bark-01 :ARG0 (d /
#: dog))`` (4) vs B with ``:ARG1 (c / cat) :time (n / now)`` added (4 instances +
#: TOP + 3 relations = 8): all of A matches, 4; P 1, R 1/2.
ASYM_A = "(d / dog)\n\n(b / bark-01 :ARG0 (d / dog))\n"
ASYM_B = ("(b / bark-01 :ARG0 (d / dog))\n\n"
          "(b / bark-01 :ARG0 (d / dog) :ARG1 (c / cat) :time (n / now))\n")
ASYM = [(1, 2, 4), (4, 4, 8)]


def pct(x: float) -> str:
    return f"{100 * x:.2f}"


def f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def example_run(workdir):
    """One run with every output: text summary, pairs (with alignments), stats."""
    pairs = workdir / "pairs.jsonl"
    done = run("score", PRED, GOLD, "--quiet", "--pairs-out", pairs, "--alignments", "--stats",
               "--workers", "1", cwd=workdir)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in pairs.read_text().splitlines()]
    return done, rows


def test_text_summary_numbers(example_run):
    done, _ = example_run
    lines = done.stdout.splitlines()
    assert lines[0].startswith("smatchpp:0.1.0|") and lines[0].endswith("|deterministic:yes")
    assert "pairs: 4 scored: 4 certified optimal: 4" in lines
    assert f"micro  P {pct(MICRO)}  R {pct(MICRO)}  F1 {pct(MICRO)}" in lines
    assert f"macro  P {pct(MACRO)}  R {pct(MACRO)}  F1 {pct(MACRO)}" in lines
    assert (f"matched: {MATCHED} (upper bound {MATCHED}) of test {TRIPLES} / gold {TRIPLES} triples; "
            f"micro F1 in [{pct(MICRO)}, {pct(MICRO)}]") in lines
    certified = next(line for line in lines if line.startswith("certified by: "))
    assert sum(int(n) for n in re.findall(r" (\d+)(?:,|$)", certified)) == 4
    assert "lower bounds" not in done.stdout and "not certified" not in done.stdout


def test_json_summary_numbers(workdir):
    done = run("score", PRED, GOLD, "--quiet", "--format", "json", cwd=workdir)
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)
    for name, value in (("micro", MICRO), ("macro", MACRO)):
        assert s[name] == pytest.approx({"precision": value, "recall": value, "f1": value}, abs=1e-12)
    assert s["f1_interval"] == pytest.approx([MICRO, MICRO], abs=1e-12)
    assert (s["matched_lower"], s["matched_upper"]) == (MATCHED, MATCHED)
    assert (s["test_triples"], s["gold_triples"]) == (TRIPLES, TRIPLES)
    assert (s["pairs"], s["scored"], s["optimal"]) == (4, 4, 4)
    assert s["status_counts"] == {"optimal": 4}
    assert sum(s["certified_by"].values()) == 4 and s["bounded_by"] == {}
    assert s["scores_are_lower_bounds"] is False and s["errors"] == []


def test_every_pairs_out_key(example_run):
    _, rows = example_run
    assert [r["index"] for r in rows] == [0, 1, 2, 3]
    for row, (pid, matched, test, gold) in zip(rows, PAIRS):
        assert row["id"] == pid
        assert (row["matched"], row["lower"], row["upper"]) == (matched, matched, matched)
        assert (row["test_triples"], row["gold_triples"]) == (test, gold)
        assert row["status"] == "optimal" and row["solver"] == "exact" and row["stage"]
        assert row["precision"] == pytest.approx(matched / test, abs=1e-12)
        assert row["recall"] == pytest.approx(matched / gold, abs=1e-12)
        assert row["f1"] == pytest.approx(f1(matched / test, matched / gold), abs=1e-12)
        assert 0 <= row["seconds"] < 600
        assert "error" not in row


def test_precision_is_over_test_and_recall_over_gold(workdir):
    """Pairs with more gold than test triples: a swap of P and R fails here."""
    (workdir / "asym_a.amr").write_text(ASYM_A)
    (workdir / "asym_b.amr").write_text(ASYM_B)
    pairs = workdir / "asym.jsonl"
    done = run("score", "asym_a.amr", "asym_b.amr", "--quiet", "--pairs-out", pairs, cwd=workdir)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in pairs.read_text().splitlines()]
    for row, (matched, test, gold) in zip(rows, ASYM):
        assert (row["matched"], row["test_triples"], row["gold_triples"]) == (matched, test, gold)
        assert row["precision"] == pytest.approx(matched / test)
        assert row["recall"] == pytest.approx(matched / gold)
    # micro: 5 matched of 6 test / 12 gold triples; macro: P (1/2 + 1)/2, R (1/4 + 1/2)/2,
    # F1 the mean of 1/3 and 2/3
    micro_p, micro_r = 5 / 6, 5 / 12
    assert f"micro  P {pct(micro_p)}  R {pct(micro_r)}  F1 {pct(f1(micro_p, micro_r))}" in done.stdout
    assert f"macro  P {pct(0.75)}  R {pct(0.375)}  F1 {pct(0.5)}" in done.stdout
    assert "matched: 5 (upper bound 5) of test 6 / gold 12 triples" in done.stdout
    done = run("score", "asym_a.amr", "asym_b.amr", "--quiet", "--format", "json", cwd=workdir)
    s = json.loads(done.stdout)
    assert s["micro"] == pytest.approx({"precision": micro_p, "recall": micro_r,
                                        "f1": f1(micro_p, micro_r)})
    assert s["macro"] == pytest.approx({"precision": 0.75, "recall": 0.375, "f1": 0.5})
    assert (s["matched_lower"], s["test_triples"], s["gold_triples"]) == (5, 6, 12)


# --stats: variables and the candidate pairs / binary terms the compiler makes.  A candidate pair
# (i, j) has a positive unary term or is part of a relation match; a binary term is a relation
# of A and one of B with the same role, whose two pairs share no variable.
#   ex1: unary pairs w-w (want + TOP), b-b (boy); ARG0 {w b, g b} x {w b, g b} gives 4 terms
#        over w-w, w-g, g-w, g-g with b-b, ARG1 w-w with g-g: pairs {ww bb wg gw gg} = 5, terms 5.
#   ex2: unary b-b, d-d, c-c; only ARG0 has a partner role: 3 pairs, 1 term.
#   ex3: unary: person 2x2, name 3x3, city, m-m (TOP) = 15; 3 x name x 3 x name adds the
#        source pairs p-c, p2-c, c-p, c-p2: 19 pairs; terms ARG0, ARG1, location + 9 = 12.
#   ex4: unary: see, prince, little, and, big, small, rose 2x2 = 10; 3 x domain x 3 x domain adds
#        l-b, l-s2, s2-l, s2-b, b-l, b-s2 (sources) and p-r, p-r2, r-p, r2-p (targets): 20 pairs;
#        terms ARG0, ARG1, op1, op2 + 9 = 13.
STATS = [(3, 3, 5, 5), (3, 3, 3, 1), (7, 7, 19, 12), (8, 8, 20, 13)]


def test_stats_columns(example_run):
    done, _ = example_run
    lines = done.stderr.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("index "))
    columns = lines[head].split()
    rows = [dict(zip(columns, line.split())) for line in lines[head + 1:head + 5]]
    total = dict(zip(columns, lines[head + 5].split()))
    assert [r["index"] for r in rows] == ["0", "1", "2", "3"] and total["index"] == "total"
    for row, expected in zip(rows, STATS):
        got = tuple(int(row[k]) for k in ("vars_a", "vars_b", "pairs_before", "edges_before"))
        assert got == expected
    for k, column in zip(("vars_a", "vars_b", "pairs_before", "edges_before"), zip(*STATS)):
        assert int(total[k]) == sum(column)
    for k in columns[1:-2]:  # every count column: the total is the sum of the numbers above
        assert int(total[k]) == sum(int(r[k]) for r in rows if r[k] != "-"), k


def _triples(text: str) -> list[tuple]:
    """Independent of smatchpp's standardize: penman's triples plus TOP (the examples use no
    inverse roles, and ``:mod`` on both sides counts the same as its ``:domain`` inverse)."""
    g = penman.decode(text)
    return [("TOP", g.top, "top")] + [(role, s, t) for s, role, t in g.triples]


def _rescore(alignment: list, a: str, b: str) -> int:
    ga, gb = penman.decode(a), penman.decode(b)
    mapping = dict(alignment)
    assert len(set(mapping.values())) == len(mapping), "an alignment is one-to-one"
    assert set(mapping) <= set(ga.variables()) and set(mapping.values()) <= set(gb.variables())

    def image(x):
        if x in ga.variables():
            return mapping.get(x, ("unaligned", x))
        return x  # a constant

    mapped = Counter((role, image(s), image(t) if role != ":instance" else t)
                     for role, s, t in _triples(a))
    return sum((mapped & Counter(_triples(b))).values())


def test_alignments_rescore_to_matched(example_run):
    _, rows = example_run
    graphs_a = [g for g in PRED.read_text().split("\n\n") if g.strip()]
    graphs_b = [g for g in GOLD.read_text().split("\n\n") if g.strip()]
    for row, a, b in zip(rows, graphs_a, graphs_b):
        assert _rescore(row["alignment"], a, b) == row["matched"]

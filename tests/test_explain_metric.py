"""``smatchpp explain --metric X``: every metric on the one road (issue 31 item 1), and Counter's
view of a DRS pair (issue 35 item 3): the clauses of each side with the matched ones numbered,
the mapping of boxes and referents, the certificate; ``--pairs-out`` is the metric's
``pair_json(details=True)``; the alignment family's views refused in one place."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clirun import GOLD, PRED, run
from smatchpp.drs import read_clf_text
from smatchpp.explain.metric_view import render
from smatchpp.metrics import get_metric
from test_drs_counter import GOLD as DRS_GOLD, TEST as DRS_TEST
from test_drs_exact import random_drs, renamed

#: pair 0: dog and run match, the roles differ (Theme / Agent); pair 1: cat, all of it
TEST_CLF = DRS_TEST.split("\n\n")[0] + "\n\n" + DRS_GOLD.split("\n\n")[1]


@pytest.fixture()
def drs(tmp_path):
    (tmp_path / "g.clf").write_text(DRS_GOLD)
    (tmp_path / "t.clf").write_text(TEST_CLF)
    return tmp_path


def _lines(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def _drs(raw):
    return read_clf_text("\n".join(" ".join(c) for c in raw))[0]


@settings(max_examples=60, deadline=None)
@given(seeds=st.tuples(st.integers(0, 10 ** 6), st.integers(0, 10 ** 6)), rename=st.booleans())
def test_counter_explanation_marks_as_many_clauses_as_it_matched(seeds, rename):
    """The clauses the explanation marks matched are as many as the pair's ``matched`` (the
    solver's optimum), paired both ways, each pair equal under the mapping (a symmetric
    operator's arguments either way round); no clause is marked twice."""
    m = get_metric("counter", referee="none")
    raw_a, raw_b = random_drs(random.Random(seeds[0])), random_drs(random.Random(seeds[1]))
    fa, fb = m.features(_drs(raw_a)), m.features(_drs(renamed(raw_b) if rename else raw_b))
    e = m.explain(fa, fb)
    matched = [(i, c["match"]) for i, c in enumerate(e["clauses_a"]) if c["match"] is not None]
    assert len(matched) == m.stats(fa, fb)[0]
    assert len({j for _, j in matched}) == len(matched)
    assert all(e["clauses_b"][j]["match"] == i for i, j in matched)
    assert sum(c["match"] is not None for c in e["clauses_b"]) == len(matched)
    to = dict(e["alignment"])
    for i, j in matched:
        a, b = e["clauses_a"][i]["clause"].split(), e["clauses_b"][j]["clause"].split()
        mapped = [to.get(t, t) for t in a]
        assert mapped == b or (b[1] in ("NEQ", "EQU", "APX", "TAB") and mapped[:2] + mapped[2:][::-1] == b)
    assert sorted(map(tuple, e["boxes"] + e["referents"])) == sorted(map(tuple, e["alignment"]))
    assert set(e["unaligned_a"]).isdisjoint(to) and len(e["unaligned_a"]) + len(to) == len(fa.names)


def test_counter_clauses_are_written_as_counter_matches_them():
    """Each clause as a line of clausal form: the input's lines but the pruned REFs, a role
    ``...Of`` turned round."""
    m = get_metric("counter")
    d = read_clf_text('b1 REF x1\nb1 dog "n.01" x1\nb1 REF x2\nb1 Name x2 "tom"\nb1 OwnerOf x1 x2\n'
                      'b1 EQU x1 "now"\nb2 REF e1\nb2 run "v.01" e1\nb2 Agent e1 x1\nb1 NOT b2')[0]
    e = m.explain(m.features(d), m.features(d))
    assert [c["clause"] for c in e["clauses_a"]] == [
        'b1 dog "n.01" x1', 'b1 Name x2 "tom"', "b1 Owner x2 x1", 'b1 EQU x1 "now"',
        'b2 run "v.01" e1', "b2 Agent e1 x1", "b1 NOT b2"]
    assert all(c["match"] == k for k, c in enumerate(e["clauses_b"]))
    assert (e["boxes"], e["status"]) == ([["b1", "b1"], ["b2", "b2"]], "optimal")


def test_explain_metric_counter_terminal_view_and_pairs_out(drs):
    done = run("explain", "--metric", "counter", "t.clf", "g.clf", "--color", "never", "--pairs-out", "e.jsonl",
               cwd=drs)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("smatchpp:") and "|metric:counter|" in out.splitlines()[0]
    pair0 = out.split("\n\npair 0: ")[1].split("\n\npair 1")[0]
    assert pair0.splitlines() == [
        "P 66.67  R 66.67  F1 66.67  (matched 2 of test 3 / gold 3)",
        "certificate: optimal (matched 2 = the proven upper bound)",
        "mapping (A -> B):",
        "  boxes: b2 -> b1",
        "  referents: y1 -> x1, f1 -> e1",
        "clauses of A (test): 3, 2 matched",
        '  [1] b2 dog "n.01" y1',
        '  [2] b2 run "v.01" f1',
        "  [-] b2 Theme f1 y1",
        "clauses of B (gold): 3, 2 matched",
        '  [1] b1 dog "n.01" x1',
        '  [2] b1 run "v.01" e1',
        "  [-] b1 Agent e1 x1"]
    # --pairs-out is the road's line: what score --metric counter --alignments writes
    score = run("score", "--metric", "counter", "t.clf", "g.clf", "--alignments", "--pairs-out", "s.jsonl",
                "--quiet", cwd=drs)
    assert score.returncode == 0, score.stderr
    assert _lines(drs / "e.jsonl") == _lines(drs / "s.jsonl")
    colored = run("explain", "--metric", "counter", "t.clf", "g.clf", "--color", "always", cwd=drs).stdout
    assert "\033[31m  [-] b2 Theme f1 y1\033[0m" in colored and '\033[31m  [1]' not in colored


def test_explain_metric_counter_choice_of_pairs(drs):
    """--pairs/--pair keep the files' indices (the chosen pairs scored alone give the lines of
    the whole run); --worst ranks by F1, lowest first."""
    everything = run("explain", "--metric", "counter", "t.clf", "g.clf", "--pairs-out", "all.jsonl", cwd=drs)
    assert everything.returncode == 0, everything.stderr
    lines = _lines(drs / "all.jsonl")
    one = run("explain", "--metric", "counter", "t.clf", "g.clf", "--pair", "1", "--pairs-out", "one.jsonl",
              "--color", "never", cwd=drs)
    assert one.returncode == 0, one.stderr
    assert _lines(drs / "one.jsonl") == [lines[1]]
    assert re.findall(r"^pair (\d+)", one.stdout, re.M) == ["1"]
    worst = run("explain", "--metric", "counter", "t.clf", "t.clf", "--worst", "1", "--pairs-out", "w.jsonl",
                cwd=drs)  # every pair scores 100: the tie goes to the lower index
    assert [r["index"] for r in _lines(drs / "w.jsonl")] == [0]
    worst = run("explain", "--metric", "counter", "t.clf", "g.clf", "--worst", "2", "--color", "never", cwd=drs)
    assert re.findall(r"^pair (\d+)", worst.stdout, re.M) == ["0", "1"]  # F1 66.67, then 100
    assert run("explain", "--metric", "counter", "t.clf", "g.clf", "--pair", "2", cwd=drs).returncode == 2


@pytest.mark.parametrize("argv, message", [
    (("-o", "r.html"), "-o/--output does nothing under --metric counter (the HTML report draws the alignment "
                       "family's graphs): explain --metric counter prints each pair's explanation in the terminal "
                       "and writes it to --pairs-out"),
    (("--gaps", "--title", "T"), "--title, --gaps do nothing under --metric counter (it titles the HTML report; "
                                 "the hill-climber's gaps are the alignment family's)"),
    (("--gaps-of", "smatch104"), "--gaps-of does nothing under --metric counter"),
    (("--gap-file", "gap.jsonl"), "--gap-file does nothing under --metric counter"),
    (("--max-draw", "5"), "--max-draw does nothing under --metric counter"),
    (("--seed", "3"), "--seed does nothing under --metric counter"),
    (("--match", "s2match"), "--match does nothing under --metric counter"),
    (("--wwlk-iterations", "1"), "--wwlk-iterations does nothing under --metric counter"),
])
def test_options_a_metric_cannot_honour_are_refused(drs, argv, message):
    done = run("explain", "--metric", "counter", "t.clf", "g.clf", *argv, cwd=drs)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert message in done.stderr
    assert not (drs / "r.html").exists()


def test_the_default_metric_refuses_the_metrics_options_and_drs(drs):
    done = run("explain", PRED, GOLD, "--counter-ill", "dummy", cwd=drs)
    assert done.returncode == 2 and "--counter-ill does nothing under --metric smatch" in done.stderr
    done = run("explain", "t.clf", "g.clf", "--metric", "smatch", cwd=drs)
    assert done.returncode == 2 and "t.clf: DRSs in clausal form are compared by --metric counter" in done.stderr


def test_explain_metric_smatch_is_the_default_view(tmp_path):
    plain = run("explain", PRED, GOLD, "--color", "never", "--quiet", cwd=tmp_path)
    named = run("explain", PRED, GOLD, "--color", "never", "--quiet", "--metric", "smatch", cwd=tmp_path)
    assert plain.returncode == named.returncode == 0
    assert (plain.stdout, plain.stderr) == (named.stdout, named.stderr)
    assert plain.stdout.startswith("pair 0 (id ex1): P 85.71")


def test_explain_metric_without_an_explanation_and_wwlk(tmp_path):
    """jaccard has no explanation: its pairs' numbers, as score's --pairs-out; WWLK's plan."""
    done = run("explain", PRED, GOLD, "--metric", "jaccard", "--pairs-out", "e.jsonl", "--worst", "4", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "(jaccard gives no explanation beyond each pair's statistics)" in done.stdout
    score = run("score", PRED, GOLD, "--metric", "jaccard", "--pairs-out", "s.jsonl", cwd=tmp_path)
    assert score.returncode == 0
    rows = _lines(tmp_path / "e.jsonl")
    assert sorted(rows, key=lambda r: r["index"]) == _lines(tmp_path / "s.jsonl")
    assert [r["score"] for r in rows] == sorted(r["score"] for r in rows)
    assert re.findall(r"^pair \d+ \(id ex\d\): score [\d.]+  \(intersection \d+, union \d+\)$", done.stdout, re.M)
    plan = run("explain", PRED, GOLD, "--metric", "wwlk", "--wwlk-iterations", "1", "--pair", "1",
               "--pairs-out", "p.jsonl", "--color", "never", cwd=tmp_path)
    assert plan.returncode == 0, plan.stderr
    flows = _lines(tmp_path / "p.jsonl")[0]["plan"]
    shown = plan.stdout.split("transport plan")[1].splitlines()[1:]
    assert shown == [f"  {f['a_label']} -> {f['b_label']}: mass {f['mass']:.4f}, cost {f['cost']:.4f}" for f in flows]


def test_view_of_an_uncertified_and_a_skipped_pair():
    line = {"index": 4, "id": "d5", "matched": 2, "upper": 3, "test": 4, "gold": 4, "score": 0.5,
            "precision": 0.5, "recall": 0.5, "f1": 0.5, "f1_upper": 0.75, "alignment": [], "status": "time_limit",
            "boxes": [], "referents": [], "unaligned_a": ["b1"], "unaligned_b": [],
            "clauses_a": [{"clause": "b1 Agent x1 x1", "match": None, "never": True}], "clauses_b": []}
    text = render(line)
    assert text.splitlines()[:2] == ["pair 4 (id d5): P 50.00  R 50.00  F1 50.00  (matched 2 of test 4 / gold 4)",
                                     "certificate: not proven (time_limit): matched 2, upper bound 3; "
                                     "F1 in [50.00, 75.00]"]
    assert "  unaligned: A b1; B (none)" in text
    assert "  [-] b1 Agent x1 x1  (Counter never matches this clause)" in text
    skipped = render({"index": 2, "id": None, "status": "skipped", "score": None, "error": "a.clf:3: graph 2: x"})
    assert skipped == "pair 2: skipped\nerror: a.clf:3: graph 2: x"
    # text of the input is shown, never obeyed by the terminal
    assert "\033" not in render({**line, "clauses_a": [{"clause": "b1 \033[2J x1", "match": None}]})


def test_a_symmetric_operator_matches_either_way_round():
    """``b NEQ x y`` against ``b NEQ v u`` under x -> u, y -> v: matched (Counter's symmetric
    operators), and the explanation marks it, as many clauses as ``matched``."""
    m = get_metric("counter")
    a, b = read_clf_text('b1 REF x1\nb1 dog "n.01" x1\nb1 REF x2\nb1 cat "n.01" x2\nb1 NEQ x1 x2\n\n'
                         'b1 REF y1\nb1 dog "n.01" y1\nb1 REF y2\nb1 cat "n.01" y2\nb1 NEQ y2 y1')
    fa, fb = m.features(a), m.features(b)
    e = m.explain(fa, fb)
    assert m.stats(fa, fb)[0] == 3
    assert [c["match"] for c in e["clauses_a"]] == [0, 1, 2]
    assert e["referents"] == [["x1", "y1"], ["x2", "y2"]]


def test_a_run_that_explains_solves_each_pair_once(monkeypatch, tmp_path):
    """The statistics and the explanation of a pair come from one solve (``stats_explained``):
    under a time limit two solves could stop apart and the marks would not add up to
    ``matched``; a second solve is also half the cost of ``--alignments``."""
    from smatchpp.metrics.counter import Counter
    from smatchpp.drs.clf import read_clf_entries
    from smatchpp.running.runs import metric_pairs

    calls = []
    solve = Counter.solve
    monkeypatch.setattr(Counter, "solve", lambda self, a, b: calls.append(1) or solve(self, a, b))
    metric = get_metric("counter")
    (tmp_path / "t.clf").write_text(TEST_CLF)
    (tmp_path / "g.clf").write_text(DRS_GOLD)
    test, gold = read_clf_entries(str(tmp_path / "t.clf")), read_clf_entries(str(tmp_path / "g.clf"))
    pairs = list(metric_pairs(metric, test, gold, "raise", explain=True))
    solved = [p for p, _ in pairs if p.stats is not None]
    assert len(calls) == len(solved) > 0
    for pair, why in pairs:
        if pair.stats is None:
            continue
        pair.explanation = why
        line = metric.pair_json(pair, details=True)
        marked = sum(c["match"] is not None for c in line["clauses_a"])
        assert marked == line["matched"]

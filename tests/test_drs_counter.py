"""The ``counter`` metric: the metric contract on DRSs (test_metric_contract.py's, which reads
AMR), and ``--metric counter`` on the command line (clausal-form input, located errors)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clirun import run
from smatchpp.drs import read_clf_text
from smatchpp.metrics import Metric, bootstrap_metric, get_metric
from smatchpp.metrics.counter import Counter
from test_drs_exact import brute_force, random_drs


def parsed_drs(seed: int):
    rng = random.Random(seed)
    raw = random_drs(rng)
    return read_clf_text("\n".join(" ".join(c) for c in raw))[0]


# random DRSs need not be well formed (a referent of an unrelated box): no Referee here
METRICS = [pytest.param(get_metric("counter", referee="none"), id="counter"),
           pytest.param(get_metric("counter", referee="none", include_ref=True, default_sense=True),
                        id="counter-ic-dse")]


@pytest.mark.parametrize("metric", METRICS)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10 ** 6))
def test_a_drs_scores_one_against_itself(metric, seed):
    f = metric.features(parsed_drs(seed))
    stats = metric.stats(f, f)
    # Counter never matches a three-variable clause with a repeated variable (b1 Agent x1 x1),
    # not even against itself: every other clause matches
    matchable = sum(c.matchable for c in f.clauses)
    assert stats[0] == stats[1] == matchable
    if matchable == f.total:
        assert metric.pair_scores(stats)["f1"] == (1.0 if f.total else 0.0)


@pytest.mark.parametrize("metric", METRICS)
@settings(max_examples=20, deadline=None)
@given(seeds=st.lists(st.integers(0, 10 ** 6), min_size=2, max_size=3))
def test_stats_matrix_scores_and_the_brute_force_optimum(metric, seeds):
    feats = [metric.features(parsed_drs(s)) for s in seeds]
    mat = metric.stats_matrix(feats, feats)
    for i, a in enumerate(feats):
        for j, b in enumerate(feats):
            assert tuple(mat[i, j]) == metric.stats(a, b)
            assert mat[i, j, 0] == mat[i, j, 1] == brute_force(a, b)
            assert metric.pair_scores(mat[i, j]) == {k: float(v[i, j]) for k, v in metric.scores(mat).items()}


def test_bootstrap_and_signature():
    m = get_metric("counter", include_ref=True, referee="none")
    feats = [m.features(parsed_drs(s)) for s in range(8)]
    stats = np.array([m.stats(a, b) for a, b in zip(feats, feats[1:] + feats[:1])])
    ci = bootstrap_metric(m, stats, resamples=200, seed=3)
    point = m.scores(stats.sum(axis=0))["f1"]
    assert ci.micro["f1"][0] <= point <= ci.micro["f1"][1]
    assert bootstrap_metric(m, stats, resamples=200, seed=3) == ci
    assert Metric.from_signature(m.signature()) == m


GOLD = """% gold: a dog runs
b1 REF x1
b1 dog "n.01" x1
b1 REF e1
b1 run "v.01" e1
b1 Agent e1 x1

b1 REF x1
b1 cat "n.01" x1
"""
TEST = """b2 REF y1
b2 dog "n.01" y1
b2 REF f1
b2 run "v.01" f1
b2 Theme f1 y1

b1 REF x1
b1 cat "n.01" x2
"""


def test_score_on_clausal_form_files(tmp_path):
    (tmp_path / "gold.clf").write_text(GOLD)
    (tmp_path / "test.clf").write_text(TEST.split("\n\n")[0] + "\n\n" + GOLD.split("\n\n")[1])
    done = run("score", "--metric", "counter", "test.clf", "gold.clf", "--format", "json",
               "--pairs-out", "pairs.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    # pair 1: dog and run match (the roles differ), 2 of 3 each side; pair 2: cat, 1 of 1
    assert summary["totals"] == {"matched": 3, "upper": 3, "test": 4, "gold": 4}
    rows = [json.loads(x) for x in (tmp_path / "pairs.jsonl").read_text().splitlines()]
    assert [(r["matched"], r["test"], r["gold"]) for r in rows] == [(2, 3, 3), (1, 1, 1)]
    # with two workers the same numbers: the workers' reading in parts is AMR's, so DRSs are
    # read by the command (an AMR reader on clausal form found no graph and warned)
    done2 = run("score", "--metric", "counter", "test.clf", "gold.clf", "--format", "json",
                "--pairs-out", "pairs2.jsonl", "--workers", "2", "--force-workers", cwd=tmp_path)
    assert done2.returncode == 0, done2.stderr
    assert json.loads(done2.stdout)["totals"] == summary["totals"]
    assert (tmp_path / "pairs2.jsonl").read_text() == (tmp_path / "pairs.jsonl").read_text()
    txt = tmp_path / "gold.txt"
    txt.write_text(GOLD)  # a PMB file is .txt: --input-format clf
    done = run("score", "--metric", "counter", "--input-format", "clf", "gold.txt", "gold.txt", cwd=tmp_path)
    assert done.returncode == 0 and "F1 100.00" in done.stdout, done.stderr


def test_an_ill_formed_drs_is_located_and_the_policies_apply(tmp_path):
    (tmp_path / "gold.clf").write_text(GOLD)
    (tmp_path / "test.clf").write_text(TEST)  # DRS 2: x2 bound nowhere, line 8
    done = run("score", "--metric", "counter", "test.clf", "gold.clf", cwd=tmp_path)
    assert done.returncode == 2
    assert "test.clf:8: graph 1: DRS 2: ill-formed: clause 2: unbound referents: x2" in done.stderr
    done = run("score", "--metric", "counter", "--counter-ill", "dummy", "test.clf", "gold.clf", "--format", "json",
               cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["totals"] == {"matched": 2, "upper": 2, "test": 4, "gold": 4}


def test_counter_refuses_amr_input(tmp_path):
    (tmp_path / "a.amr").write_text("(d / dog)\n")
    done = run("score", "--metric", "counter", "a.amr", "a.amr", cwd=tmp_path)
    assert done.returncode == 2 and "--input-format clf" in done.stderr


def test_counters_command_line_prints_counters_lines(tmp_path):
    (tmp_path / "gold.clf").write_text(GOLD)
    (tmp_path / "test.clf").write_text(TEST.split("\n\n")[0] + "\n\n" + GOLD.split("\n\n")[1])
    done = run("-f1", "test.clf", "-f2", "gold.clf", "-prin", "-r", "20", "-p", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # 3 of 4 clauses each side: Counter's compute_f rounds P and R, then F from them
    for expected in ("Comparing 2 DRSs...", "Clauses prod : 4", "Clauses gold : 4",
                     "All shown number are micro-averages calculated over 2 DRS-pairs", "Matching clauses: 3",
                     "Precision: 0.75", "Recall   : 0.75", "F-score  : 0.75",
                     # operators: the REFs are pruned (used in their box), none left; roles: Agent
                     # against Theme; concepts: dog, run, cat (nouns 2 of 2, verbs and events 1 of 1)
                     "Prec, rec, F1 operators: 0.0, 0.0, 0.0", "Prec, rec, F1 roles: 0.0, 0.0, 0.0",
                     "Prec, rec, F1 concepts: 1.0, 1.0, 1.0", "Prec, rec, F1 nouns: 1.0, 1.0, 1.0",
                     "Prec, rec, F1 verbs: 1.0, 1.0, 1.0", "Prec, rec, F1 events: 1.0, 1.0, 1.0"):
        assert expected in lines, (expected, done.stdout)
    assert "-r, -p have no effect" in done.stderr
    done = run("-f1", "test.clf", "-f2", "gold.clf", "-ms", "-sig", "2", "-ic", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # with -ic the REFs count: pair 1 4 of 5 each side (P 0.8), pair 2 2 of 2, corpus 6 of 7
    assert [x for x in done.stdout.splitlines() if x.startswith("F-score")] == [
        "F-score  : 0.8", "F-score  : 1.0", "F-score  : 0.86"]


def test_counters_command_line_says_which_drss_it_replaced(tmp_path):
    (tmp_path / "gold.clf").write_text(GOLD)
    (tmp_path / "test.clf").write_text(TEST)  # DRS 2 is ill-formed
    done = run("-f1", "test.clf", "-f2", "gold.clf", "-ill", "dummy", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[:2] == ["WARNING: by using -ill dummy, ill-formed DRSs are replaced by a dummy DRS",
                                            "WARNING: DRS 2 is ill-formed and replaced by a dummy DRS"]
    assert "Matching clauses: 2" in done.stdout.splitlines()


def test_ill_spar_without_the_spar_drs_names_the_flags_a_user_gives(tmp_path):
    """The message names the command line's flags, once prefixed, not only the metric's
    parameter names."""
    (tmp_path / "gold.clf").write_text(GOLD)
    for argv in (("-f1", "gold.clf", "-f2", "gold.clf", "-ill", "spar"),
                 ("score", "--metric", "counter", "--counter-ill", "spar", "gold.clf", "gold.clf")):
        done = run(*argv, cwd=tmp_path)
        assert done.returncode == 2
        assert "--counter-spar FILE" in done.stderr and "-ill spar" in done.stderr, done.stderr
        assert "counter: counter:" not in done.stderr


def test_the_shared_solving_options_reach_the_counter_metric(tmp_path):
    """--solver, --compression and --time-limit solve each DRS pair as for AMR (the clauses are
    compiled into the shared problem) and are signed; every solver gives the same counts here."""
    (tmp_path / "gold.clf").write_text(GOLD)
    (tmp_path / "test.clf").write_text(TEST.split("\n\n")[0] + "\n\n" + GOLD.split("\n\n")[1])
    sigs = set()
    for options in ((), ("--solver", "highs", "--compression", "none"), ("--solver", "cbc"),
                    ("--time-limit", "30")):
        done = run("score", "--metric", "counter", "test.clf", "gold.clf", "--format", "json", *options,
                   cwd=tmp_path)
        assert done.returncode == 0, (options, done.stderr)
        summary = json.loads(done.stdout)
        assert summary["totals"] == {"matched": 3, "upper": 3, "test": 4, "gold": 4}, options
        sigs.add(summary["signature"])
    assert len(sigs) == 4
    assert any("counter-solver:highs" in s and "counter-compression:none" in s for s in sigs)
    assert any("counter-time-limit:30" in s for s in sigs)


def test_the_metric_equals_the_cross_check_mip_on_symmetric_and_repeated_clauses():
    """The shared road (compile_clauses + the exact portfolio) against drs/exact.py's MIP, kept
    as a cross-check: symmetric operators both ways round on one side, a repeated variable."""
    from smatchpp.drs import read_clf_text
    from smatchpp.drs.exact import solve

    a, b = read_clf_text('''b1 REF x1
b1 REF x2
b1 EQU x1 x2
b1 EQU x2 x1
b1 Theme x1 x2
b1 Agent x2 x2
b1 dog "n.01" x1

b2 REF y1
b2 REF y2
b2 EQU y1 y2
b2 Theme y2 y1
b2 Agent y2 y2
b2 dog "n.01" y2''')
    for include_ref in (False, True):
        m = Counter(referee="none", include_ref=include_ref)
        fa, fb = m.features(a), m.features(b)
        for x, y in ((fa, fb), (fb, fa), (fa, fa)):
            matched, upper, mapping, status = m.solve(x, y)
            mip = solve(x, y)
            assert (matched, upper, status) == (mip.matched, mip.upper, "optimal")


@pytest.mark.parametrize("argv", [("explain", "a.clf", "b.clf", "-o", "e.html"), ("score", "a.clf", "b.clf"),
                                  ("gap", "a.clf", "b.clf"), ("score", "--metric", "wlk", "a.clf", "b.clf")])
def test_a_command_of_amr_refuses_drs_files_by_name(tmp_path, argv):
    """``explain a.clf b.clf`` ended in an internal error (a DRS has no metadata): a run that
    compares AMR refuses clausal-form files with a usage error that names the metric that reads them."""
    (tmp_path / "a.clf").write_text(GOLD)
    (tmp_path / "b.clf").write_text(GOLD)
    done = run(*argv, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "a.clf: DRSs in clausal form are compared by --metric counter" in done.stderr
    assert "internal error" not in done.stderr


def test_counters_max_clauses_counts_the_long_pairs_and_skips_only_a_single_one(tmp_path):
    """Counter's -m (read from its check_input and get_matching_clauses): with several pairs it
    counts those with a DRS above the limit (clauses after REF pruning) and says the limit, but
    scores them all; with one pair above the limit it scores nothing."""
    (tmp_path / "gold.clf").write_text(GOLD)
    (tmp_path / "one.clf").write_text(GOLD.split("\n\n")[0] + "\n")
    plain = run("-f1", "gold.clf", "-f2", "gold.clf", cwd=tmp_path)
    done = run("-f1", "gold.clf", "-f2", "gold.clf", "-m", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # DRS 1 keeps dog, run and Agent (its REFs are used): 3 > 2; DRS 2 keeps cat
    assert "Skipping 1 DRSs due to their length exceeding 2 (--max_clauses)" in lines
    assert "Max number of clauses per DRS:  2" in lines
    assert [x for x in lines if x.startswith(("Clauses", "Matching", "F-score"))] == [
        x for x in plain.stdout.splitlines() if x.startswith(("Clauses", "Matching", "F-score"))]
    assert "Skipping" not in plain.stdout and "Max number" not in plain.stdout
    single = run("-f1", "one.clf", "-f2", "one.clf", "-m", "2", cwd=tmp_path)
    assert single.returncode == 0, single.stderr
    assert single.stdout.splitlines() == ["Skip calculation of DRS, more clauses than max of 2"]
    assert "F-score  : 1.0" in run("-f1", "one.clf", "-f2", "one.clf", "-m", "3", cwd=tmp_path).stdout


def test_counters_baseline_scores_one_drs_against_every_gold_drs(tmp_path):
    (tmp_path / "gold.clf").write_text(GOLD)
    (tmp_path / "one.clf").write_text(GOLD.split("\n\n")[1])  # the cat DRS
    assert run("-f1", "one.clf", "-f2", "gold.clf", cwd=tmp_path).returncode == 2  # 1 vs 2 DRSs
    done = run("-f1", "one.clf", "-f2", "gold.clf", "-b", "-prin", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Testing baseline DRS vs 2 DRSs..." and "Comparing 2 DRSs..." not in lines
    # cat against the dog DRS matches nothing (1 of 3 gold clauses), against the cat DRS 1 of 1
    assert "Clauses prod : 2" in lines and "Clauses gold : 4" in lines and "Matching clauses: 1" in lines
    assert "Prec, rec, F1 nouns: 0.5, 0.5, 0.5" in lines
    many = run("-f1", "gold.clf", "-f2", "gold.clf", "-b", cwd=tmp_path)
    assert many.returncode == 2 and "Using --baseline, but there is more than 1 DRS in prod file (gold.clf: 2 DRSs)" in many.stderr


def test_counters_detailed_stats_list_each_clause_name(tmp_path):
    """Counter's -ds N: each operator, role and concept (with its sense) occurring N times or
    more on a side, by F-score, named as written (AgentOf stays AgentOf), a repeated clause
    counted (experiments/same_counter_lines.py: Counter's lines)."""
    (tmp_path / "gold.clf").write_text(GOLD)
    (tmp_path / "test.clf").write_text(TEST.split("\n\n")[0] + "\nb2 dog \"n.01\" y1\n\n" + GOLD.split("\n\n")[1])
    done = run("-f1", "test.clf", "-f2", "gold.clf", "-ds", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    start = lines.index("Individual clause scores for roles:")
    assert lines[start + 2].split() == ["Roles", "F-score", "Prod", "inst", "Gold", "inst", "Match"]
    assert [x.split() for x in lines[start + 3:start + 5]] == [["Theme", "0.0", "1", "0", "0"],
                                                                ["Agent", "0.0", "0", "1", "0"]]
    concepts = lines[lines.index("Individual clause scores for concepts:") + 3:]
    # dog twice in the test DRS (written twice, matched once): F 0.6667 from P 0.5 and R 1.0
    assert [x.split() for x in concepts] == [["run.v.01", "1.0", "1", "1", "1"], ["cat.n.01", "1.0", "1", "1", "1"],
                                             ["dog.n.01", "0.6667", "2", "1", "1"]]
    assert "Individual clause" not in run("-f1", "test.clf", "-f2", "gold.clf", cwd=tmp_path).stdout
    two = run("-f1", "test.clf", "-f2", "gold.clf", "-ds", "2", cwd=tmp_path).stdout.splitlines()
    assert [x.split()[0] for x in two[two.index("Individual clause scores for concepts:") + 3:]] == ["dog.n.01"]

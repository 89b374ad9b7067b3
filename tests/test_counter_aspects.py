"""Counter's detailed scores as the counter metric's aspect set (``--aspects counter``): the
eight kinds counted under each pair's mapping as Counter counts them (``-prin``), in the
statistics, the per-pair JSON, the summary and report, the signature, the bootstrap; the
set refused where it does not apply.  The check against Counter itself on the PMB files is
``experiments/compare_counter_detail.py`` (docs/benchmarks.md section 25.2)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clirun import GOLD as AMR_GOLD, PRED as AMR_PRED, run
from smatchpp.drs import counter_clauses, read_clf_text
from smatchpp.drs.clauses import DETAIL_NAMES, detail_row
from smatchpp.drs.exact import detailed_counts, solve
from smatchpp.metrics import Metric, MetricCorpus, get_metric
from smatchpp.metrics.counter import CounterCorpus
from test_drs_counter import GOLD, TEST, parsed_drs

# pair 1: dog and run match, Agent against Theme does not; pair 2: cat against cat
EXPECTED = {"operators": (0, 0, 0, None), "roles": (0, 1, 1, 0.0), "concepts": (3, 3, 3, 1.0),
            "nouns": (2, 2, 2, 1.0), "verbs": (1, 1, 1, 1.0), "adjectives": (0, 0, 0, None),
            "adverbs": (0, 0, 0, None), "events": (1, 1, 1, 1.0)}


@pytest.fixture()
def files(tmp_path):
    (tmp_path / "gold.clf").write_text(GOLD)
    (tmp_path / "test.clf").write_text(TEST.split("\n\n")[0] + "\n\n" + GOLD.split("\n\n")[1])
    return tmp_path


def test_a_matched_clause_is_divided_by_its_sense_as_written():
    """Counter divides the matched clauses by the test clause as written (its original line),
    each DRS's clauses by the sense they are matched with: under -dse a matched verb is a
    matched verb of no verb at all (Counter's numbers, which this replicates)."""
    raw = [("b1", "REF", "e1"), ("b1", "run", '"v.01"', "e1"), ("b1", "REF", "x1"), ("b1", "red", '"s.01"', "x1"),
           ("b1", "Theme", "e1", "x1"), ("b1", "fast", '"r.01"', "e1")]
    a = counter_clauses(raw, default_sense=True)
    matched, test, gold = detailed_counts(a, a, solve(a, a).mapping)
    kinds = dict(zip(DETAIL_NAMES, zip(matched, test, gold)))
    assert kinds["verbs"] == (1, 0, 0) and kinds["adjectives"] == (1, 0, 0) and kinds["adverbs"] == (1, 0, 0)
    assert kinds["nouns"] == (0, 3, 3) and kinds["events"] == (2, 0, 0) and kinds["roles"] == (1, 1, 1)
    plain = counter_clauses(raw)
    assert [detail_row(c) for c in plain.clauses] == [detail_row(c, written=True) for c in plain.clauses]


def test_the_metric_counts_the_kinds_on_its_mapping(files):
    m = get_metric("counter", aspects="counter")
    gold, test = read_clf_text(GOLD), read_clf_text((files / "test.clf").read_text())
    stats = [m.stats(m.features(a), m.features(b)) for a, b in zip(test, gold)]
    assert len(m.stat_names) == len(stats[0]) == 4 + 3 * 8 and type(m).stat_names == ("matched", "upper", "test", "gold")
    assert [s[:4] for s in stats] == [get_metric("counter").stats(m.features(a), m.features(b))
                                      for a, b in zip(test, gold)]
    total = np.sum(stats, axis=0)
    got = {k: tuple(int(total[4 + 3 * j + w]) for w in range(3)) for j, k in enumerate(DETAIL_NAMES)}
    assert got == {k: v[:3] for k, v in EXPECTED.items()}
    # the three families partition the clauses, matched included
    assert sum(total[4 + 3 * j] for j in range(3)) == total[0]
    assert m.signature().count("|counter-aspects:counter|") == 1
    assert "counter-aspects" not in get_metric("counter").signature()  # off: the signature as before
    assert Metric.from_signature(m.signature()) == m


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10 ** 6))
def test_the_kinds_add_up_on_random_drss(seed):
    """On any pair: operators + roles + concepts = the clauses (matched, test, gold); the
    parts of speech never exceed the concepts; events are verbs and adjectives."""
    m = get_metric("counter", referee="none", aspects="counter")
    a, b = parsed_drs(seed), parsed_drs(seed + 1)
    s = m.stats(m.features(a), m.features(b))
    for w, main in ((0, s[0]), (1, s[2]), (2, s[3])):
        kind = [s[4 + 3 * j + w] for j in range(8)]
        assert kind[0] + kind[1] + kind[2] == main
        assert sum(kind[3:7]) <= kind[2] and kind[7] == kind[4] + kind[5]
    fa = m.features(a)
    self_pair = m.stats(fa, fa)
    assert all(x <= y for x, y in zip(self_pair[4::3], self_pair[5::3]))


def test_score_reports_the_aspects_in_text_json_and_pairs(files):
    done = run("score", "--metric", "counter", "test.clf", "gold.clf", "--aspects", "counter", "--format", "json",
               "--pairs-out", "pairs.jsonl", cwd=files)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert "|counter-aspects:counter|" in summary["signature"]
    assert summary["totals"] == {"matched": 3, "upper": 3, "test": 4, "gold": 4}
    part = summary["aspects"]
    assert (part["set"], part["mode"]) == ("counter", "joint")
    assert {k: (v["matched"], v["test"], v["gold"], v["f1"]) for k, v in part["scores"].items()} == EXPECTED
    rows = [json.loads(x) for x in (files / "pairs.jsonl").read_text().splitlines()]
    assert [r["aspects"]["roles"]["gold"] for r in rows] == [1, 0]
    assert not any(k.startswith("roles_") for k in rows[0])  # nested, as the alignment family's aspects
    text = run("score", "--metric", "counter", "test.clf", "gold.clf", "--aspects", "counter", "--bootstrap", "50",
               cwd=files)
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert any(x.startswith("aspects counter (joint alignment)") and x.split()[-3:] == ["matched", "test", "gold"] for x in lines)
    assert any(x.startswith("Roles ") and x.split()[1:4] == ["0.00", "0.00", "0.00"] for x in lines), text.stdout
    assert any(x.strip().startswith("Nouns") and "micro [100.00, 100.00]" in x for x in lines), text.stdout
    plain = run("score", "--metric", "counter", "test.clf", "gold.clf", "--format", "json", cwd=files)
    assert "aspects" not in json.loads(plain.stdout)  # without --aspects: as before


def test_the_aspect_options_are_refused_where_they_do_nothing(files):
    for argv, message in ((["--aspects"], "--aspects damonte scores AMR graphs"),
                          (["--aspects", "counter", "--aspects-mode", "separate"], "counted under each pair's"),
                          (["--aspects-mode", "joint"], "--aspects-mode needs --aspects"),
                          (["--aspects", "counter", "--counter-aspects", "none"], "contradicts")):
        done = run("score", "--metric", "counter", "test.clf", "gold.clf", *argv, cwd=files)
        assert done.returncode == 2 and message in done.stderr, (argv, done.stderr)
    same = run("score", "--metric", "counter", "test.clf", "gold.clf", "--counter-aspects", "counter",
               "--aspects-mode", "joint", "--aspects", "counter", "--format", "json", cwd=files)
    assert same.returncode == 0, same.stderr
    amr = run("score", AMR_PRED, AMR_GOLD, "--aspects", "counter", cwd=files)
    assert amr.returncode == 2 and "scores DRSs in clausal form: give --metric counter" in amr.stderr
    aspect = run("score", AMR_PRED, AMR_GOLD, "--metric", "aspect", "--aspect-set", "counter", cwd=files)
    assert aspect.returncode == 2 and "--metric counter" in aspect.stderr


def test_a_table_of_the_run_reads_back_with_its_aspects(files):
    pytest.importorskip("pandas")
    m = get_metric("counter", aspects="counter")
    gold, test = read_clf_text(GOLD), read_clf_text((files / "test.clf").read_text())
    corpus = m.score_graphs(test, gold)
    table = m.corpus(corpus.pairs).to_pandas()
    back = MetricCorpus.from_pandas(table)  # the metric's corpus type: its summary has the aspects
    assert back.metric == m and isinstance(back, CounterCorpus)
    assert back.summary()["aspects"] == m.corpus(corpus.pairs).summary()["aspects"]
    ci, parts = m.intervals(m.corpus(corpus.pairs), 100, 1)
    assert set(parts["aspects"]["f1"]) == set(DETAIL_NAMES)
    assert m.intervals(m.corpus(corpus.pairs), 100, 1)[1] == parts


def test_compare_tests_each_kind_as_the_alignment_family_tests_its_aspects(files):
    done = run("compare", "--metric", "counter", "test.clf", "gold.clf", "gold.clf", "--aspects", "counter",
               "--bootstrap", "50", "--ar-trials", "50", "--format", "json", cwd=files)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)["comparisons"]
    by = {c["name"]: c for c in found}
    assert [c["name"] for c in found][1:] == [t.capitalize() for t in DETAIL_NAMES]
    assert by["Roles"]["f1_sys1"] == 0.0 and by["Roles"]["f1_sys2"] == 1.0  # Theme against Agent
    assert by["Nouns"]["delta_f1"] == 0 and by["Operators"]["f1_sys1"] is None  # no operator anywhere
    plain = run("compare", "--metric", "counter", "test.clf", "gold.clf", "gold.clf", "--format", "json", cwd=files)
    assert len(json.loads(plain.stdout)["comparisons"]) == 1


def test_matrix_writes_an_array_per_kind(files):
    done = run("matrix", "--metric", "counter", "gold.clf", "-o", "m.npz", "--aspects", "counter", cwd=files)
    assert done.returncode == 0, done.stderr
    got = np.load(files / "m.npz")
    assert "|counter-aspects:counter|" in str(got["signature"])
    assert got["aspect:roles:f1"][0].tolist() == [1.0, 0.0] and np.isnan(got["aspect:roles:f1"][1, 1])
    assert got["aspect:nouns:f1"].tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert "aspect:nouns:recall" not in got
    plain = run("matrix", "--metric", "counter", "gold.clf", "-o", "p.npz", cwd=files)
    assert plain.returncode == 0 and not any(k.startswith("aspect:") for k in np.load(files / "p.npz"))


def test_commands_without_a_place_for_the_aspects_refuse_them(files):
    for argv in (["gap", "--metric", "counter", "test.clf", "gold.clf"],
                 ["search", "--metric", "counter", "test.clf", "gold.clf", "--top", "1"],
                 ["explain", "--metric", "counter", "test.clf", "gold.clf"]):
        done = run(*argv, "--counter-aspects", "counter", cwd=files)
        assert done.returncode == 2 and "--counter-aspects does nothing" in done.stderr, (argv, done.stderr)
    done = run("explain", "--metric", "counter", "test.clf", "gold.clf", "--counter-aspects", "counter",
               "--pairs-out", "e.jsonl", "--color", "never", cwd=files)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(x) for x in (files / "e.jsonl").read_text().splitlines()]
    assert [r["aspects"]["nouns"]["matched"] for r in rows] == [1, 1]


def test_an_explained_pair_has_the_same_statistics_aspects_included(files):
    m = get_metric("counter", aspects="counter")
    gold, test = read_clf_text(GOLD), read_clf_text((files / "test.clf").read_text())
    for a, b in zip(test, gold):
        fa, fb = m.features(a), m.features(b)
        stats, explanation = m.stats_explained(fa, fb)
        assert tuple(stats) == m.stats(fa, fb) and len(stats) == len(m.stat_names)
    done = run("score", "--metric", "counter", "test.clf", "gold.clf", "--counter-aspects", "counter",
               "--alignments", "--pairs-out", "p.jsonl", cwd=files)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(x) for x in (files / "p.jsonl").read_text().splitlines()]
    assert rows[0]["aspects"]["roles"]["gold"] == 1 and "clauses_a" in rows[0]


def test_the_three_lists_of_counters_kinds_agree():
    """The metric (which must not import the DRS modules to name its statistics), the aspect set
    and the clause classifier each spell Counter's eight kinds: one order, one spelling."""
    from smatchpp.aspects.counter import NAMES
    from smatchpp.drs.clauses import DETAIL_NAMES
    from smatchpp.metrics.counter import Counter

    detail = [n[: -len("_matched")] for n in Counter(aspects="counter").stat_names if n.endswith("_matched")]
    assert tuple(detail) == NAMES == DETAIL_NAMES

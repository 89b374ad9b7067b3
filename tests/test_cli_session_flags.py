"""The command lines this release added, each once in a fresh process as a user's shell runs it:
its numbers, and its exit code on input that is wrong.  (Their logic is tested in-process in
the files named in each test.)"""

from __future__ import annotations

import json
import re

import pytest

from clirun import GOLD, PRED, run
from test_cli_smatch_flags import DOC_GOLD, DOC_TEST


@pytest.fixture()
def docs(tmp_path):
    (tmp_path / "t.amr").write_text(DOC_TEST)
    (tmp_path / "g.amr").write_text(DOC_GOLD)
    (tmp_path / "unclosed.amr").write_text("(d / document :snt1 (a / dog)\n")
    return tmp_path


def test_docsmatch_options_first(docs):
    """docSmatch's options before ``-f`` (tests/test_cli_smatch_flags.py): its blocks; Total
    Coref by hand, matched 2 of test 4 and gold 2."""
    done = run("--coref-subscore", "--sentence-buckets", "--pr", "--significant", "4",
               "-f", "t.amr", "g.amr", cwd=docs, fresh=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Overall Score:" and lines[4] == "Coref Score"
    assert lines[5:8] == ["Precision: 0.5000", "Recall: 1.0000", "F-score: 0.6667"]
    assert re.fullmatch(r"Time\(s\): \d+\.\d{4}", lines[8])
    bad = run("--coref-subscore", "--sentence-buckets", "-f", "unclosed.amr", "g.amr", cwd=docs, fresh=True)
    assert bad.returncode == 2 and "unclosed.amr:1: graph 0" in bad.stderr


def test_score_sentence_buckets_and_coref_subscore(docs):
    """tests/test_documents.py in-process; here the process: JSON numbers and a bad file."""
    done = run("score", "t.amr", "g.amr", "--sentence-buckets", "--coref-subscore", "--format", "json",
               cwd=docs, fresh=True)
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)
    assert "|buckets:yes|coref:yes|" in s["signature"]
    assert (s["coref"]["Total Coref"]["matched"], s["coref"]["Total Coref"]["test"],
            s["coref"]["Total Coref"]["gold"]) == (2, 4, 2)
    bad = run("score", "unclosed.amr", "g.amr", "--sentence-buckets", cwd=docs, fresh=True)
    assert bad.returncode == 2 and "unclosed.amr:1" in bad.stderr


#: a pair with several optimal alignments under the buckets that match 0 to 2 coreference items
TIES_TEST = "(d / document :snt1 (v0 / see-01 :ARG0 (v1 / person) :ARG1 v1) :snt2 (v2 / see-01 :ARG0 v1 :ARG1 (v3 / dog)))\n"
TIES_GOLD = "(d / document :snt1 (v0 / see-01 :ARG0 (v1 / dog)) :snt2 (v2 / go-02 :ARG0 v1 :ARG1 v1))\n"


def test_score_coref_ties(tmp_path):
    """tests/test_coref_ties.py in-process; here the process: the most coreference items among the
    optimal alignments (tests/test_coref_ties.py's brute force), the signature, and the option's
    refusals (a bad value; without --coref-subscore)."""
    from smatchpp.api import parse_graph
    from test_coref_ties import brute_force

    (tmp_path / "t.amr").write_text(TIES_TEST)
    (tmp_path / "g.amr").write_text(TIES_GOLD)
    best, most, _ = brute_force(parse_graph(TIES_TEST), parse_graph(TIES_GOLD), True)
    done = run("score", "t.amr", "g.amr", "--sentence-buckets", "--coref-subscore", "--coref-ties", "max",
               "--format", "json", cwd=tmp_path, fresh=True)
    assert done.returncode == 0, done.stderr
    s = json.loads(done.stdout)
    assert "|buckets:yes|coref:yes|coref-ties:max|" in s["signature"]
    assert (s["matched_lower"], s["coref"]["Total Coref"]["matched"]) == (best, most) == (7, 2)
    assert s["coref_ties"] == {"proven": 1}
    bad = run("score", "t.amr", "g.amr", "--coref-subscore", "--coref-ties", "most", cwd=tmp_path, fresh=True)
    assert bad.returncode == 2 and "argument --coref-ties: invalid choice: 'most'" in bad.stderr
    idle = run("score", "t.amr", "g.amr", "--coref-ties", "max", cwd=tmp_path, fresh=True)
    assert idle.returncode == 2 and "--coref-ties does nothing without --coref-subscore" in idle.stderr


def test_compare_three_systems_and_metric_workers(tmp_path):
    """compare SYS1 SYS2 SYS3 GOLD and score --metric --workers 2 --pairs-out FILE.parquet
    (tests/test_app.py, tests/test_tables.py in-process)."""
    done = run("compare", PRED, GOLD, PRED, GOLD, "--metric", "jaccard", "--bootstrap", "50",
               "--ar-trials", "50", "--format", "json", cwd=tmp_path, fresh=True)
    assert done.returncode == 0, done.stderr
    comparisons = json.loads(done.stdout)["comparisons"]
    assert [c["system"] for c in comparisons] == ["sys2", "sys3"]
    assert comparisons[1]["delta_f1"] == 0 and comparisons[1]["f1_sys1"] == comparisons[1]["f1_sys2"]  # sys3 is sys1
    assert run("compare", PRED, "--metric", "jaccard", cwd=tmp_path, fresh=True).returncode == 2
    one = run("score", PRED, GOLD, "--metric", "jaccard", "--workers", "1", "--pairs-out", "one.jsonl",
              cwd=tmp_path, fresh=True)
    two = run("score", PRED, GOLD, "--metric", "jaccard", "--workers", "2", "--pairs-out", "two.parquet",
              cwd=tmp_path, fresh=True)
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout == two.stdout
    pandas = pytest.importorskip("pandas")
    table = pandas.read_parquet(tmp_path / "two.parquet")
    rows = [json.loads(line) for line in (tmp_path / "one.jsonl").read_text().splitlines()]
    assert table["score"].tolist() == [r["score"] for r in rows]
    assert run("score", PRED, GOLD, "--metric", "jaccard", "--workers", "0", cwd=tmp_path,
               fresh=True).returncode == 2


def test_one_spelling_of_the_main_output(tmp_path):
    """search -o (was --out) and explain --pairs-out (was --json): tests/test_cli_output_spelling.py."""
    done = run("search", PRED, GOLD, "--top", "1", "-o", "hits.jsonl", cwd=tmp_path, fresh=True)
    assert done.returncode == 0, done.stderr
    hits = [json.loads(line) for line in (tmp_path / "hits.jsonl").read_text().splitlines()]
    assert len(hits) == 4 and all(len(h["hits"]) == 1 for h in hits)
    bad = run("search", PRED, GOLD, "-o", str(GOLD), cwd=tmp_path, fresh=True)
    assert bad.returncode == 2


# the command lines of the second session of 28 November: the counter metric, Counter's own
# command line, gap --metric counter, --aspect-set (their logic: tests/test_drs_counter.py,
# tests/test_gap_counter.py, tests/test_aspect_registry.py)

@pytest.fixture()
def drs(tmp_path):
    from test_drs_counter import GOLD as DRS_GOLD

    (tmp_path / "g.clf").write_text(DRS_GOLD)
    (tmp_path / "t.clf").write_text(DRS_GOLD.split("\n\n")[0] + "\n")  # one DRS: counts differ
    # the second DRS's first clause has lost its referent, and no blank line ends the file
    (tmp_path / "bad.clf").write_text(DRS_GOLD.split("\n\n")[0] + "\n\nb1 REF\nb1 dog \"n.01\" x1")
    return tmp_path


def test_score_metric_counter_and_counter_command_line(drs):
    done = run("score", "--metric", "counter", "g.clf", "g.clf", "--format", "json", cwd=drs, fresh=True)
    assert done.returncode == 0, done.stderr
    totals = json.loads(done.stdout)["totals"]
    assert totals == {"matched": 4, "upper": 4, "test": 4, "gold": 4}
    flags = run("-f1", "g.clf", "-f2", "g.clf", cwd=drs, fresh=True)
    assert flags.returncode == 0, flags.stderr
    assert "Clauses prod : 4" in flags.stdout and "Matching clauses: 4" in flags.stdout
    assert "F-score  : 1.0" in flags.stdout
    assert run("score", "--metric", "counter", "t.clf", "g.clf", cwd=drs, fresh=True).returncode == 2
    bad = run("score", "--metric", "counter", "bad.clf", "g.clf", cwd=drs, fresh=True)
    assert bad.returncode == 2, bad.stderr
    assert "bad.clf:8: graph 1: DRS 2: ill-formed: clause 1: a clause has 3 or 4 tokens, this one 2" in bad.stderr


def test_gap_metric_counter_and_aspect_set(drs):
    done = run("gap", "--metric", "counter", "g.clf", "g.clf", "--format", "json", cwd=drs, fresh=True)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["pairs"], report["exact_certified"], report["exact_f1"]) == (2, 2, 1.0)
    assert report["tools"]["hillclimber"]["wrong_pairs"] == 0
    assert run("gap", "--metric", "jaccard", "g.clf", "g.clf", cwd=drs, fresh=True).returncode == 2
    aspect = run("score", PRED, GOLD, "--metric", "aspect", "--aspect-set", "smatchpp18", "--aspect-name",
                 "CONCEPT", "--format", "json", cwd=drs, fresh=True)
    assert aspect.returncode == 0, aspect.stderr
    assert "aspect-set:smatchpp18" in aspect.stdout
    inside = run("score", PRED, GOLD, "--metric", "aspect", "--aspect-set", "smatchpp18", "--aspect-name",
                 "CONCEPT", "--format", "json", cwd=drs)  # the same numbers as in the test's process
    assert json.loads(aspect.stdout)["micro"] == json.loads(inside.stdout)["micro"]
    assert 0 < json.loads(aspect.stdout)["micro"]["f1"] < 1
    bad = run("score", PRED, GOLD, "--metric", "aspect", "--aspect-set", "nope", cwd=drs, fresh=True)
    assert bad.returncode == 2 and "unknown aspect set 'nope'" in bad.stderr


def test_explain_metric_counter(drs):
    """explain --metric counter (tests/test_explain_metric.py in-process): each pair's clauses,
    matched ones numbered, --pairs-out; a bad DRS named by file, line and graph; the default
    metric still refuses clausal form."""
    done = run("explain", "--metric", "counter", "g.clf", "g.clf", "--pairs-out", "e.jsonl", "--color", "never",
               cwd=drs, fresh=True)
    assert done.returncode == 0, done.stderr
    assert "pair 0: P 100.00  R 100.00  F1 100.00  (matched 3 of test 3 / gold 3)" in done.stdout
    assert "clauses of B (gold): 3, 3 matched\n  [1] b1 dog \"n.01\" x1" in done.stdout
    rows = [json.loads(line) for line in (drs / "e.jsonl").read_text().splitlines()]
    assert [(r["index"], r["matched"], r["status"]) for r in rows] == [(0, 3, "optimal"), (1, 1, "optimal")]
    bad = run("explain", "--metric", "counter", "bad.clf", "g.clf", cwd=drs, fresh=True)
    assert bad.returncode == 2, bad.stderr
    assert "bad.clf:8: graph 1: DRS 2: ill-formed: clause 1: a clause has 3 or 4 tokens, this one 2" in bad.stderr
    refused = run("explain", "g.clf", "g.clf", cwd=drs, fresh=True)
    assert refused.returncode == 2 and "g.clf: DRSs in clausal form are compared by --metric counter" in refused.stderr
    html = run("explain", "--metric", "counter", "g.clf", "g.clf", "-o", "r.html", cwd=drs, fresh=True)
    assert html.returncode == 2 and "-o/--output does nothing under --metric counter" in html.stderr


# the command lines of the third session of 28 November: Counter's -m and -b, and the counter
# metric's aspect set (their logic: tests/test_drs_counter.py, tests/test_counter_aspects.py)

def test_counters_max_clauses_and_baseline_and_the_counter_aspects(drs):
    (drs / "one.clf").write_text((drs / "g.clf").read_text().split("\n\n")[1])
    done = run("-f1", "one.clf", "-f2", "g.clf", "-b", "-m", "1", cwd=drs, fresh=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Testing baseline DRS vs 2 DRSs..."
    assert "Skipping 1 DRSs due to their length exceeding 1 (--max_clauses)" in lines
    assert "Max number of clauses per DRS:  1" in lines and "Clauses gold : 4" in lines
    many = run("-f1", "g.clf", "-f2", "g.clf", "-b", cwd=drs, fresh=True)
    assert many.returncode == 2 and "more than 1 DRS in prod file" in many.stderr
    aspects = run("score", "--metric", "counter", "t.clf", "t.clf", "--aspects", "counter", "--format", "json",
                  cwd=drs, fresh=True)
    assert aspects.returncode == 0, aspects.stderr
    s = json.loads(aspects.stdout)
    assert "|counter-aspects:counter|" in s["signature"]
    assert {k: v["f1"] for k, v in s["aspects"]["scores"].items()}["roles"] == 1.0
    bad = run("score", "--metric", "counter", "bad.clf", "g.clf", "--aspects", "counter", cwd=drs, fresh=True)
    assert bad.returncode == 2 and "bad.clf:8: graph 1: DRS 2: ill-formed" in bad.stderr
    amr = run("score", PRED, GOLD, "--aspects", "counter", cwd=drs, fresh=True)
    assert amr.returncode == 2 and "--metric counter" in amr.stderr


def test_tune_workers(tmp_path):
    """tune --workers N (the S2Match grid on the one road): the same grid file as one worker's;
    a bad count and --metric wwlk refused with exit 2 (the logic: tests/test_tune.py)."""
    (tmp_path / "y.txt").write_text("".join(f"{k / 10}\n" for k in range(len(PRED.read_text().split("\n\n")))))
    argv = ("tune", str(PRED), str(GOLD), "y.txt", "--metric", "smatch", "--dev", str(PRED), str(GOLD), "y.txt",
            "--cutoffs", "0.5", "--diffsenses", "0.5,1")
    one = run(*argv, "-o", "one.tsv", cwd=tmp_path, fresh=True)
    two = run(*argv, "-o", "two.tsv", "--workers", "2", cwd=tmp_path, fresh=True)
    assert one.returncode == two.returncode == 0, (one.stderr, two.stderr)
    assert (tmp_path / "one.tsv").read_text() == (tmp_path / "two.tsv").read_text()
    bad = run(*argv, "-o", "bad.tsv", "--workers", "0", cwd=tmp_path, fresh=True)
    assert bad.returncode == 2 and "--workers: expected at least 1, got 0" in bad.stderr


def test_counters_detailed_stats_and_the_2019_referee(drs):
    """-ds N lists each operator, role and concept with its numbers; --counter-referee 2019 reads
    a segmented DRS of PMB 2.2.0's shape and refuses one whose relation names a box that is not a
    segment (a file wrong in a way the 2021 rules do not check); negative counts are refused."""
    done = run("-f1", "g.clf", "-f2", "g.clf", "-ds", "1", cwd=drs, fresh=True)
    assert done.returncode == 0, done.stderr
    assert "Agent \t1.0     \t1         \t1         \t1     " in done.stdout.splitlines()
    segmented = ("k0 DRS b1\nk0 DRS b2\nk0 CONTINUATION b1 b2\nb1 REF x1\nb1 dog \"n.01\" x1\n"
                 "b2 REF e1\nb2 bark \"v.01\" e1\n")
    (drs / "seg.clf").write_text(segmented)
    (drs / "badseg.clf").write_text(segmented.replace("CONTINUATION b1 b2", "CONTINUATION b1 b3")
                                    + "b3 REF x3\n")
    ok = run("score", "--metric", "counter", "--counter-referee", "2019", "seg.clf", "seg.clf",
             "--format", "json", cwd=drs, fresh=True)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["micro"]["f1"] == 1 and "counter-referee:2019" in json.loads(ok.stdout)["signature"]
    bad = run("score", "--metric", "counter", "--counter-referee", "2019", "badseg.clf", "seg.clf", cwd=drs, fresh=True)
    assert bad.returncode == 2
    assert ("badseg.clf:1: graph 0: DRS 1: ill-formed: the segments of box k0 (b1, b2) are not the boxes "
            "its relations relate (b1, b3)") in bad.stderr
    for flag in ("-ds", "-m"):
        negative = run("-f1", "g.clf", "-f2", "g.clf", flag, "-2", cwd=drs, fresh=True)
        assert negative.returncode == 2 and f"{flag}: expected" in negative.stderr and ">= 0, got -2" in negative.stderr

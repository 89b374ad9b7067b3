"""The command line as a user's shell sees it (in this process: ``tests/clirun.py``)."""

from __future__ import annotations

import json
import subprocess
import tempfile
import sys
from pathlib import Path

from clirun import EXAMPLES, GOLD, PRED, run


def test_json_output_is_only_json(tmp_path):
    # HiGHS 1.16 prints a banner to stdout when its first instance is made;
    # --format json must still be one JSON document
    # (a fresh process: in the tests' process an earlier test may have made the first instance)
    done = run("score", PRED, GOLD, "--format", "json", "--quiet", cwd=tmp_path, fresh=True)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["signature"].startswith("smatchpp:")
    assert 0.0 <= summary["micro"]["f1"] <= 1.0


# ---------------------------------------------------------------------------
# issue 9: robust input reading, as a user's shell sees it

import re  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def _smatchpp(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    """``smatchpp ARGS`` (in this process, ``tests/clirun.py``), bytes in, text out."""
    done = run(*args, "--quiet", "--workers", "1", input=stdin, cwd=tempfile.gettempdir())
    assert "Traceback" not in done.stderr, done.stderr
    return done


def _json(run: subprocess.CompletedProcess) -> dict:
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.fixture
def latin1(tmp_path):
    test = tmp_path / "latin1.amr"
    test.write_bytes(b"(a / caf\xe9)\n\n(b / dog :ARG0 (c / cat))\n")
    gold = tmp_path / "gold.amr"
    gold.write_text("(a / cafe)\n\n(b / dog :ARG0 (c / cat))\n")
    return str(test), str(gold)


def test_cli_non_utf8_is_a_located_error(latin1):
    test, gold = latin1
    run = _smatchpp("score", test, gold)
    assert run.returncode == 2
    assert f"{test}:1: graph 0: not valid UTF-8: byte 0xe9 at column 9" in run.stderr


@pytest.mark.parametrize("policy, recall", [("empty", 4 / 6), ("skip", 4 / 4)])
def test_cli_non_utf8_on_error_scores_the_other_graphs(latin1, policy, recall):
    test, gold = latin1
    run = _smatchpp("score", test, gold, "--on-error", policy, "--format", "json")
    summary = _json(run)
    assert summary["micro"]["precision"] == 1.0 and summary["micro"]["recall"] == pytest.approx(recall)
    assert f"{test}:1: graph 0:" in run.stderr and "0xe9" in run.stderr


def test_cli_utf8_bom(tmp_path):
    test = tmp_path / "bom.amr"
    test.write_bytes("\ufeff# ::id 1\n(a / café)\n".encode())
    summary = _json(_smatchpp("score", str(test), str(test), "--format", "json"))
    assert summary["micro"]["f1"] == 1.0 and summary["pairs"] == 1


def _chain(depth: int) -> str:
    return "".join(f"(v{i} / c{i} :r{i} " for i in range(depth - 1)) + f"(v{depth - 1} / c" + ")" * depth


def test_cli_deep_graphs(tmp_path):
    path = tmp_path / "deep.amr"
    path.write_text(f"{_chain(600)}\n\n(a / dog)\n\n{_chain(5000)}\n")
    summary = _json(_smatchpp("score", str(path), str(path), "--format", "json"))
    # 600 + 599 + 1, 2, 5000 + 4999 + 1 triples, all matched
    assert (summary["pairs"], summary["matched_lower"], summary["test_triples"]) == (3, 11202, 11202)


def test_cli_comment_lines_inside_and_after_graphs(tmp_path):
    test = tmp_path / "c.amr"
    test.write_text("(a / dog\n# a note\n   :ARG0 (b / cat))\n# after\n\n(c / bird)\n")
    gold = tmp_path / "g.amr"
    gold.write_text("(a / dog :ARG0 (b / cat))\n\n(c / bird)\n")
    summary = _json(_smatchpp("score", str(test), str(gold), "--format", "json"))
    assert summary["micro"]["f1"] == 1.0 and summary["test_triples"] == 6


def test_cli_count_mismatch_names_the_graph(tmp_path):
    test = tmp_path / "t.amr"
    test.write_text("# ::id s1\n(a / dog)\n\n# ::id s2\n(b / cat)\n# ::id s3\n(c / bird)\n")
    gold = tmp_path / "g.amr"
    gold.write_text("# ::id s1\n(x / dog)\n\n# ::id s2\n(y / cat)\n\n# ::id s3\n(z / bird)\n")
    run = _smatchpp("score", str(test), str(gold))
    assert run.returncode == 2
    assert f"{test} has 2 graphs but {gold} has 3" in run.stderr
    assert f"{test}:7: graph 1: two graphs without a blank line between them?" in run.stderr


def test_cli_id_disagreement_warns(tmp_path):
    test = tmp_path / "t.amr"
    test.write_text("# ::id s2\n(b / cat)\n\n# ::id s1\n(a / dog)\n")
    gold = tmp_path / "g.amr"
    gold.write_text("# ::id s1\n(a / dog)\n\n# ::id s2\n(b / cat)\n")
    run = _smatchpp("score", str(test), str(gold), "--format", "json")
    assert _json(run)["micro"]["f1"] == 0.5  # the shift costs the concepts, not the TOPs
    assert f"warning: graph 0: {test}:2 has id s2 but {gold}:2 has id s1" in run.stderr
    assert f"graph 1: {test}:5 has id s1 but {gold}:5 has id s2" in run.stderr


def test_cli_empty_inputs_warn(tmp_path):
    empty = tmp_path / "empty.amr"
    empty.write_text("# nothing here\n")
    run = _smatchpp("score", str(empty), str(empty), "--format", "json")
    assert _json(run)["pairs"] == 0  # exit code 0: documented in README
    assert "hold no graph" in run.stderr


def test_cli_all_pairs_skipped_warns(tmp_path):
    test = tmp_path / "t.amr"
    test.write_text("(a / b :ARG0 (a / c))\n")
    run = _smatchpp("score", str(test), str(test), "--on-error", "skip")
    assert run.returncode == 0 and "no pair was scored" in run.stderr


def test_cli_tsv_without_suffix(tmp_path):
    path = tmp_path / "triples.txt"
    path.write_text("d\tinstance\tdog\nd\tARG0\tb\nb\tinstance\tcat\n")
    run = _smatchpp("score", str(path), str(path))
    assert run.returncode == 2 and "did you mean --input-format tsv?" in run.stderr
    summary = _json(_smatchpp("score", str(path), str(path), "--input-format", "tsv", "--format", "json"))
    assert summary["micro"]["f1"] == 1.0 and summary["test_triples"] == 4


def test_cli_stdin(tmp_path):
    pred, gold = EXAMPLES / "pred.amr", EXAMPLES / "gold.amr"
    by_files = _json(_smatchpp("score", str(pred), str(gold), "--format", "json"))
    for args in (("-", str(gold)), (str(pred), "-")):
        data = (pred if args[0] == "-" else gold).read_bytes()
        by_stdin = _json(_smatchpp("score", *args, "--format", "json", stdin=data))
        assert by_stdin["micro"] == by_files["micro"] and by_stdin["pairs"] == by_files["pairs"]
    run = _smatchpp("score", "-", "-", stdin=pred.read_bytes())
    assert run.returncode == 2 and "standard input" in run.stderr


def test_cli_stdin_errors_name_stdin():
    run = _smatchpp("score", "-", str(EXAMPLES / "gold.amr"), stdin=b"(a / b\n")
    assert run.returncode == 2 and re.search(r"<stdin>:1: graph 0: ", run.stderr)


def test_cli_pairs_out_to_stdout():
    pred, gold = EXAMPLES / "pred.amr", EXAMPLES / "gold.amr"
    summary = _json(_smatchpp("score", str(pred), str(gold), "--format", "json"))
    run = _smatchpp("score", str(pred), str(gold), "--pairs-out", "-")
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]  # stdout is JSONL only
    assert [r["index"] for r in rows] == list(range(summary["pairs"]))
    assert sum(r["matched"] for r in rows) == summary["matched_lower"]
    assert "micro" in run.stderr  # the summary went to stderr


def test_cli_gap_reads_stdin_but_smatch_needs_files():
    pred, gold = EXAMPLES / "pred.amr", EXAMPLES / "gold.amr"
    run = _smatchpp("gap", "-", str(gold), "--format", "json", stdin=pred.read_bytes())
    assert _json(run)["pairs"] == 4
    run = _smatchpp("gap", "-", str(gold), "--smatch-python", sys.executable, stdin=pred.read_bytes())
    assert run.returncode == 2 and "give both inputs as files" in run.stderr


@pytest.mark.parametrize("command", [["score"], ["gap"], ["search"], ["matrix", "-o", "m.npz"]])
def test_cli_stdin_for_both_inputs_is_refused(command, tmp_path):
    args = [command[0], "-", "-"] + [str(tmp_path / a) if a.endswith(".npz") else a for a in command[1:]]
    run = _smatchpp(*args, stdin=(EXAMPLES / "pred.amr").read_bytes())
    assert run.returncode == 2 and "only one of the two inputs can be -" in run.stderr

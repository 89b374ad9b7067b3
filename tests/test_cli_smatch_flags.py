"""smatch 1.0.4's and docSmatch's command lines, unchanged but for the program's name, in a fresh
process: exit 0 and 1.0.4's output lines (compared with 1.0.4's own output where its venv is
here: the same lines, our numbers never below), ``-r`` said once on stderr (issue 34 item 2;
issue 33's friction item 10: ``--pr`` exited 2)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from clirun import GOLD, PRED, run

PEER_PYTHON = Path.home() / ".cache" / "smatchpp-peers" / "venv" / "bin" / "python"
LINE = re.compile(r"^(Precision|Recall|F-score): (\d+\.\d+)$")

#: smatch 1.0.4's options as its README and ``--help`` give them; docSmatch's README line
COMMAND_LINES = [
    ("--pr",),
    ("--pr", "--significant", "4"),
    ("--ms",),
    ("--ms", "--pr", "--significant", "3"),
    ("--justinstance", "--pr"),
    ("--justattribute", "--significant", "4"),
    ("--justrelation", "--pr", "--ms"),
    ("-r", "1", "--significant", "4"),  # docSmatch: doc-smatch -r 1 --significant 4 -f A B
]


def smatch_104(*options: str) -> subprocess.CompletedProcess:
    if not PEER_PYTHON.exists():
        pytest.skip("smatch 1.0.4's venv (experiments/setup_peers.sh) is not here")
    code = ("import sys, runpy, smatch; sys.argv = ['smatch.py'] + sys.argv[1:]; "
            "runpy.run_path(smatch.__file__, run_name='__main__')")
    return subprocess.run([str(PEER_PYTHON), "-c", code, "-f", str(PRED), str(GOLD), *options],
                          capture_output=True, text=True, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home())})


def parsed(stdout: str) -> list[tuple[str, float]]:
    out = []
    for line in stdout.splitlines():
        match = LINE.match(line)
        assert match, f"not a line of smatch 1.0.4: {line!r}"
        out.append((match.group(1), float(match.group(2))))
    return out


@pytest.mark.parametrize("options", COMMAND_LINES, ids=" ".join)
def test_smatch_command_lines_print_1_0_4s_lines(tmp_path, options):
    ours = run("-f", PRED, GOLD, *options, cwd=tmp_path)
    assert ours.returncode == 0, ours.stderr
    theirs = smatch_104(*options)
    assert theirs.returncode == 0, theirs.stderr
    mine, peer = parsed(ours.stdout), parsed(theirs.stdout)
    assert [name for name, _ in mine] == [name for name, _ in peer]
    decimals = [len(line.split(".")[-1]) for line in ours.stdout.splitlines()]
    assert decimals == [len(line.split(".")[-1]) for line in theirs.stdout.splitlines()]
    for (_, value), (_, their) in zip(mine, peer):
        assert value >= their
    said = ours.stderr.count("-r 1 has no effect")
    assert said == (1 if "-r" in options else 0) and ours.stderr.count("\n") == said


def test_the_numbers_are_the_optimum(tmp_path):
    done = run("-f", PRED, GOLD, "--pr", "--significant", "4", cwd=tmp_path)
    assert done.stdout == "Precision: 0.8958\nRecall: 0.8958\nF-score: 0.8958\n"  # 43 of 48 and 48
    done = run("score", PRED, GOLD, "--ms", cwd=tmp_path)  # score's own spelling takes them too
    assert done.stdout == "F-score: 0.86\nF-score: 0.86\nF-score: 0.94\nF-score: 0.88\n"


def test_restarts_are_said_once_to_have_no_effect(tmp_path):
    done = run("-f", PRED, GOLD, "-r", "9", "--ms", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stderr == ("smatchpp: note: -r 9 has no effect: every pair is solved exactly, so no "
                           "restarts are needed\n")
    assert done.stdout.count("F-score: ") == 4


def test_verbose_goes_to_stderr(tmp_path):
    done = run("-f", PRED, GOLD, "-v", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "F-score: 0.90\n"
    assert "AMR pair 4" in done.stderr and "best match number 14" in done.stderr


def test_smatchpp_options_are_not_mixed_in(tmp_path):
    done = run("score", PRED, GOLD, "--pr", "--workers", "2", cwd=tmp_path)
    assert done.returncode == 2 and "unrecognized arguments: --workers 2" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unreadable_graph_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.amr"
    bad.write_text("(a / b)\n\n(c / d\n   :ARG0\n\n(e / f)\n\n(g / h)\n")
    done = run("-f", PRED, bad, "--pr", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"Error in parsing amr 2: (c / d:ARG0\nsmatchpp: error: {bad}:3: graph 1: ")


def test_without_smatchs_options_score_is_unchanged(tmp_path):
    done = run("-f", PRED, GOLD, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("smatchpp:")


def test_docsmatchs_readme_line_with_the_options_first(tmp_path):
    """``doc-smatch -r 1 --significant 4 -f A B``, the order of docSmatch's README."""
    done = run("-r", "1", "--significant", "4", "-f", PRED, GOLD, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "F-score: 0.8958\n"
    assert done.stderr.count("has no effect") == 1
    done = run("--pr", PRED, cwd=tmp_path)
    assert done.returncode == 2 and "give two files, TEST GOLD or -f TEST GOLD (got 1)" in done.stderr


DOC_TEST = """(d / document
  :snt1 (g / go-02 :ARG0 (p / person :name (n / name :op1 "Ann")))
  :snt2 (s / sleep-01 :ARG0 p :ARG1 (c / coref-entity)))
"""
DOC_GOLD = """(d / document
  :snt1 (g / go-02 :ARG0 (p / person :name (n / name :op1 "Ann")))
  :snt2 (s / sleep-01 :ARG0 (p2 / person :name (n2 / name :op1 "Ann")) :ARG1 (c / coref-entity)))
"""


def test_docsmatchs_coref_line_prints_its_blocks(tmp_path):
    """``doc-smatch -r 1 --significant 4 --coref-subscore -f A B`` (with docSmatch's restriction,
    ``--sentence-buckets``): docSmatch's ``Overall Score:`` and ``Coref Score`` blocks, then
    ``Time(s)``. Total Coref by hand (tests/test_documents.py): matched 2 of test 4, gold 2."""
    (tmp_path / "t.amr").write_text(DOC_TEST)
    (tmp_path / "g.amr").write_text(DOC_GOLD)
    done = run("-r", "1", "--significant", "4", "--pr", "--coref-subscore", "--sentence-buckets",
               "-f", "t.amr", "g.amr", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "Overall Score:" and lines[4] == "Coref Score"
    assert lines[5:8] == ["Precision: 0.5000", "Recall: 1.0000", "F-score: 0.6667"]
    assert re.fullmatch(r"Time\(s\): \d+\.\d{4}", lines[8]) and len(lines) == 9
    # the overall block is the restricted optimum that score --sentence-buckets prints
    score = run("score", "t.amr", "g.amr", "--sentence-buckets", "--format", "json", cwd=tmp_path)
    import json

    s = json.loads(score.stdout)
    assert lines[3] == "F-score: %.4f" % s["micro"]["f1"]
    assert done.stderr.count("has no effect") == 1 and "unrestricted" not in done.stderr
    # without docSmatch's restriction a note says what the number is
    plain = run("--coref-subscore", "--significant", "4", "-f", "t.amr", "g.amr", cwd=tmp_path)
    assert plain.returncode == 0 and "add --sentence-buckets for docSmatch's setting" in plain.stderr
    assert run("--coref-subscore", "--justinstance", "--pr", "-f", "t.amr", "g.amr",
               cwd=tmp_path).returncode == 2

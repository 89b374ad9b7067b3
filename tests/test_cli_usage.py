"""Usage errors on the command line: smatch's ``-f``, unknown options with their command's usage
and a suggestion, and an optional value that swallowed a file (issue 22, item 5)."""

from __future__ import annotations

import pytest

from clirun import GOLD, PRED, run


def usage_error(done, command: str) -> str:
    """The stderr of a usage error of ``smatchpp COMMAND``: its own usage, exit 2, no traceback."""
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"usage: smatchpp {command} "), done.stderr
    return done.stderr


@pytest.mark.parametrize("argv", [("-f", PRED, GOLD), ("score", "-f", PRED, GOLD),
                                  ("score", "--quiet", "-f", PRED, GOLD)],
                         ids=["-f", "score -f", "score --quiet -f"])
def test_smatch_syntax_is_score(tmp_path, argv):
    plain = run("score", PRED, GOLD, "--quiet", cwd=tmp_path)
    done = run(*argv, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == plain.stdout and plain.stdout.count("\n") >= 5


SUGGESTIONS = [
    (("--json",), "--json: did you mean --format json?"),
    (("--worker", "2"), "--worker: did you mean --workers?"),
    (("--jobs=2",), "--jobs=2: did you mean --workers N?"),
    (("--time-limt", "5"), "--time-limt: did you mean --time-limit?"),
]


@pytest.mark.parametrize("options, hint", SUGGESTIONS, ids=[o[0] for o, _ in SUGGESTIONS])
def test_unknown_option_shows_the_commands_usage_and_a_suggestion(tmp_path, options, hint):
    err = usage_error(run("score", PRED, GOLD, "--quiet", *options, cwd=tmp_path), "score")
    assert "smatchpp score: error: unrecognized arguments: " + " ".join(options) in err
    assert f"\n  {hint}" in err


def test_a_suggestion_names_only_options_of_the_command(tmp_path):
    # matrix has no --format: no habit to suggest, and nothing close enough
    err = usage_error(run("matrix", PRED, "-o", tmp_path / "m.npz", "--json", cwd=tmp_path), "matrix")
    assert err.rstrip().endswith("smatchpp matrix: error: unrecognized arguments: --json")
    err = usage_error(run("explain", PRED, GOLD, "--colour", "never", cwd=tmp_path), "explain")
    assert "\n  --colour: did you mean --color?" in err


@pytest.mark.parametrize("command, option, written", [
    ("score", "--bootstrap", "--bootstrap=1000"), ("score", "--aspects", "--aspects=damonte"),
    ("compare", "--aspects", "--aspects=damonte")])
def test_an_optional_value_that_took_a_file_says_so(tmp_path, command, option, written):
    files = (PRED, PRED, GOLD) if command == "compare" else (PRED, GOLD)
    err = usage_error(run(command, option, *files, cwd=tmp_path), command)
    assert (f"{option} takes an optional value and took the file {PRED} as it: write {written}, "
            f"or put {option} after the files") in err


def test_files_without_a_command_point_to_score(tmp_path):
    done = run(PRED, GOLD, cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.startswith("usage: smatchpp [-h]")
    assert f"to score two files: smatchpp score {PRED} GOLD" in done.stderr

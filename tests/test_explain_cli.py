"""``smatchpp explain`` on the command line: terminal view, HTML, JSON, pair selection, errors."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from clirun import run as clirun

from smatchpp.api import Config, Scorer
from smatchpp.graphs.read import read_file

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PRED, GOLD = str(EXAMPLES / "pred.amr"), str(EXAMPLES / "gold.amr")


def _run(*args: str) -> subprocess.CompletedProcess:
    return clirun("explain", PRED, GOLD, "--quiet", *args, cwd=Path.cwd())


def test_terminal_view_of_one_pair():
    run = _run("--pair", "2", "--color", "never")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.startswith("pair 2 (id ex3)") and "\033[" not in out
    assert "(m[1] / meet-03(!)" in out and "(m[1] / meet-02(!)" in out
    assert "unmatched triples of A (test): 1\n  (m, instance, meet-03)" in out
    colored = _run("--pair", "2", "--color", "always").stdout
    assert "\033[" in colored


def test_html_and_json_for_the_worst_pairs(tmp_path):
    html, js = tmp_path / "r.html", tmp_path / "e.jsonl"
    run = _run("--worst", "2", "--html", str(html), "--json", str(js))
    assert run.returncode == 0, run.stderr
    assert run.stdout == ""  # the report goes to the file, the summary to stderr
    rows = [json.loads(line) for line in js.read_text().splitlines()]
    scores = Scorer(Config()).score_corpus(read_file(PRED), read_file(GOLD)).pairs
    worst = sorted(scores, key=lambda p: (p.f1, p.index))[:2]
    # listed by F1, lowest first (issue 22 item 8), not by index
    assert [r["index"] for r in rows] == [p.index for p in worst]
    assert [r["f1"] for r in rows] == sorted(r["f1"] for r in rows)
    for r in rows:
        p = scores[r["index"]]
        assert (r["matched"], r["test_triples"], r["gold_triples"], r["f1"]) == \
            (p.matched, p.test_triples, p.gold_triples, p.f1)
        assert len(r["unmatched_a"]) == p.test_triples - p.matched
    page = html.read_text()
    assert page.count('<script type="text/html" id=') == 2


def test_bad_pair_index_is_a_usage_error():
    run = _run("--pair", "99")
    assert run.returncode == 2 and "out of range" in run.stderr
    run = _run("--pairs", "1,x")
    assert run.returncode == 2 and "--pairs" in run.stderr


def test_worst_lists_by_f1_in_every_view(tmp_path):
    """Issue 22 item 8: ``--worst N`` lists the pairs by F1 (lowest first) in the terminal, the
    JSON and the report's index, not by index."""
    a = ["(d / dog)", "(d / dog :mod (b / big))", "(c / cat)", "(d / dog :mod (s / small))"]
    b = ["(d / dog)", "(d / dog :mod (b / big :degree (v / very)))", "(d / dog)", "(d / dog :mod (t / tiny))"]
    (tmp_path / "a.amr").write_text("\n\n".join(a) + "\n")
    (tmp_path / "b.amr").write_text("\n\n".join(b) + "\n")
    scores = Scorer(Config()).score_corpus(read_file(tmp_path / "a.amr"), read_file(tmp_path / "b.amr")).pairs
    order = [p.index for p in sorted(scores, key=lambda p: (p.f1, p.index))]
    assert order[:3] == [2, 3, 1]  # not index order
    run = clirun("explain", "a.amr", "b.amr", "--worst", "3", "--color", "never", "--json", "e.jsonl",
                 cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert [int(k) for k in re.findall(r"^pair (\d+)", run.stdout, re.M)] == [2, 3, 1]
    assert [json.loads(x)["index"] for x in (tmp_path / "e.jsonl").read_text().splitlines()] == [2, 3, 1]
    assert clirun("explain", "a.amr", "b.amr", "--worst", "3", "--html", "r.html", cwd=tmp_path).returncode == 0
    rows = re.findall(r'<tr data-i="(\d+)"', (tmp_path / "r.html").read_text())
    assert [int(i) for i in rows] == [2, 3, 1]


@pytest.mark.parametrize("args, message", [
    (("--pairs", "5-3"), "--pairs '5-3': '5-3' is an empty range: write the lower index first (3-5)"),
    (("--pairs", "1--3"), "--pairs '1--3': '1--3' is not a pair index or a range LOW-HIGH of 0-based pair indices"),
    (("--pairs", "-1"), "--pairs '-1': '-1': pair indices are 0-based and not negative"),
    (("--pairs", ","), "--pairs ',': no pair index given"),
    (("--pair", "-1"), "--pair -1: pair indices are 0-based and not negative"),
    (("--pair", "4"), "--pair 4: pair index 4 out of range: the files hold 4 pairs (indices 0 to 3)"),
    # checked before the range is expanded: no memory grows (it ran out of memory before)
    (("--pairs", "0-100000000"), "--pairs '0-100000000': pair index 100000000 out of range: "
                                 "the files hold 4 pairs (indices 0 to 3)"),
])
def test_pairs_that_pick_nothing_are_usage_errors(args, message):
    """Issue 22 items 8 and 19: these picked nothing and exited 0, or grew memory until a MemoryError."""
    run = _run(*args)
    assert (run.returncode, run.stdout, run.stderr) == (2, "", f"smatchpp: error: {message}\n")


GAP_ROWS = [{"index": k, "id": f"ex{k + 1}", "exact": 6, "hillclimber": 6, "gap_hillclimber": 0,
             "smatch104": 6 - g, "gap_smatch104": g} for k, g in enumerate([0, 2, 0, 1])]


def _gap_file(path: Path, rows=GAP_ROWS) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_gap_file_column_and_selection(tmp_path):
    """Issue 22 item 1: the ``gap_smatch104`` column of ``smatchpp gap --pairs-out`` was dropped
    silently; it is now the index's "smatch 1.0.4 gap" column, and ``--gaps-of smatch104`` (or
    ``--gaps``, any tool) selects the pairs where smatch 1.0.4 falls short."""
    gap = _gap_file(tmp_path / "gap.jsonl")
    html = tmp_path / "r.html"
    run = _run("--gap-file", str(gap), "--html", str(html))
    assert run.returncode == 0, run.stderr
    page = html.read_text()
    assert '<th data-type="num">smatch 1.0.4 gap</th>' in page
    cells = re.findall(r'<tr data-i="(\d+)".*?<td data-v="([^"]*)"[^>]*>[^<]*</td></tr>', page)
    assert [(int(i), v) for i, v in cells] == [(0, "0.0"), (1, "2.0"), (2, "0.0"), (3, "1.0")]
    # the index's gap filter (data-gap) counts smatch 1.0.4's gaps too
    assert re.findall(r'<tr data-i="(\d+)" data-status="optimal" data-gap="([^"]*)"', page) == \
        [("0", "0"), ("1", "2"), ("2", "0"), ("3", "1")]
    assert "only pairs where a hill-climber (ours or of the gap file) is below" in page
    for flag in (("--gaps-of", "smatch104"), ("--gaps",)):
        js = tmp_path / "e.jsonl"
        run = _run("--gap-file", str(gap), *flag, "--json", str(js), "--color", "never")
        assert run.returncode == 0, run.stderr
        # the examples' own hill-climber finds every optimum, so only smatch 1.0.4's gaps count
        assert [json.loads(line)["index"] for line in js.read_text().splitlines()] == [1, 3]
    run = _run("--gaps-of", "smatch104")
    assert run.returncode == 2 and "--gaps-of smatch104: no such tool (known: hillclimber)" in run.stderr


@pytest.mark.parametrize("text, message", [
    ("not json\n", "line 1: not JSON (Expecting value: line 1 column 1 (char 0)); "
                    "give the --pairs-out file of `smatchpp gap`"),
    ('{"index": 0, "gap_smatch104": 1}\n[1, 2]\n', "line 2: a JSON object per line expected, not an array"),
    ('{"index": "x", "gap_smatch104": 1}\n', "line 1: \"index\" must be an integer pair index, not the string 'x'"),
    ('{"index": 1.5, "gap_smatch104": 1}\n', "line 1: \"index\" must be an integer pair index, not 1.5"),
    ('\n{"index": 9, "gap_smatch104": 1}\n', "line 2: pair index 9 out of range: the inputs hold 4 pairs"),
    ('{"index": 0, "gap_smatch104": 1}\n{"index": 0, "gap_smatch104": 1}\n',
     "line 2: pair index 0 again (first on line 1)"),
    ('{"index": 0, "id": "other", "gap_smatch104": 1}\n',
     "line 1: pair 0 has id 'other', but the inputs' pair 0 has id 'ex1': the gap file was made from other files"),
    ('{"index": 0, "gap_smatch104": "2"}\n', "line 1: 'gap_smatch104' must be a number or null, not the string '2'"),
])
def test_bad_gap_file_stops_before_any_pair_is_explained(tmp_path, text, message):
    """Issue 22 item 19: a bad --gap-file was read after every pair was explained (and the --json
    file written), and stopped with a traceback and exit 1; now exit 2 naming file and line, first."""
    gap = tmp_path / "gap.jsonl"
    gap.write_text(text, encoding="utf-8")
    js = tmp_path / "e.jsonl"
    run = _run("--gap-file", str(gap), "--json", str(js), "--html", str(tmp_path / "r.html"))
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == f"smatchpp: error: --gap-file {gap}, {message}\n"
    assert not js.exists() and not (tmp_path / "r.html").exists()


def test_gap_file_without_other_tools_is_refused(tmp_path):
    gap = _gap_file(tmp_path / "gap.jsonl", [{"index": 0, "gap_hillclimber": 0}])
    run = _run("--gap-file", str(gap))
    assert run.returncode == 2 and run.stderr.startswith(f"smatchpp: error: --gap-file {gap}: no gap_<tool> column")


def test_gap_file_of_an_earlier_gap_version(tmp_path):
    """``gap --pairs-out`` once keyed its columns by label (``gap smatch 1.0.4 (4 restarts)``, as in
    docs/explain/para_gap.jsonl); such a file gives the same column, and our climber's is left out."""
    rows = [{"index": k, "id": f"ex{k + 1}", "gap hillclimber (ours, 4 restarts, seed 1)": 0,
             "gap smatch 1.0.4 (4 restarts)": g} for k, g in enumerate([0, 2, 0, 1])]
    gap = _gap_file(tmp_path / "old.jsonl", rows)
    js = tmp_path / "e.jsonl"
    run = _run("--gap-file", str(gap), "--gaps-of", "smatch104", "--json", str(js),
               "--html", str(tmp_path / "r.html"))
    assert run.returncode == 0, run.stderr
    assert [json.loads(line)["index"] for line in js.read_text().splitlines()] == [1, 3]
    headers = re.findall(r"<th[^>]*>([^<]*)</th>", (tmp_path / "r.html").read_text().split("<tbody>")[0])
    assert headers[-2:] == ["HC gap", "smatch 1.0.4 gap"]


def test_the_explorer_has_no_command_line_of_its_own():
    """Issue 31 item 4: the options of ``explain`` are the command line's (smatchpp.cli.explain);
    the explorer (smatchpp/explain/) takes them as a Views object and imports no argparse."""
    import ast

    import smatchpp.explain

    folder = Path(smatchpp.explain.__file__).parent
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert "argparse" not in names, f"{path.name} imports argparse"


def test_views_show_the_chosen_pairs_in_process(tmp_path, capsys):
    """What the command shows, called as the library: the worst pair, its JSON line and the report."""
    from smatchpp.explain.command import Views, show
    from smatchpp.explain.model import iter_explanations

    a, b = read_file(PRED), read_file(GOLD)
    explanations = list(iter_explanations(a, b, Config()))
    views = Views(PRED, GOLD, html=str(tmp_path / "r.html"), json=str(tmp_path / "e.jsonl"), worst=1, pair=None)
    show(views, explanations, Config(), stopped="interrupted: 3 of 4 pairs explained")
    worst = min(explanations, key=lambda e: (e.score.f1, e.index))
    assert [json.loads(x)["index"] for x in (tmp_path / "e.jsonl").read_text().splitlines()] == [worst.index]
    report = (tmp_path / "r.html").read_text()
    assert "Chosen: the 1 with the lowest F1, lowest first; Interrupted: 3 of 4 pairs explained" in report
    assert capsys.readouterr().err.startswith(f"wrote {tmp_path / 'r.html'}: 1 pairs")

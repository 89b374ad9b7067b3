"""The aspect metric's flags and the aspect sets' inputs, on the command line: their numbers, and bad input.

``score --metric aspect --aspect-name NAME`` gives the numbers ``score --aspects damonte``
gives the same aspect; ``--aspects thesis --vectors FILE`` and the graph files refuse
files that are wrong in ways the other tests do not try, with exit 2, the file (and the
line) named and no traceback.
"""

from __future__ import annotations

import json

import pytest

from clirun import run

# concepts: test {want-01, boy, go-02}, gold {want-02, boy, go-02, cat}: 2 matched of 3 and 4;
# then cat against dog: 0 of 1 and 1
TEST = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))\n\n(c / cat)\n"
GOLD = "(w / want-02 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (c / cat)))\n\n(c / dog)\n"
VECTORS = "boy 1 0\ngirl 0.6 0.8\nwant 0 1\ncat 0.8 0.6\ndog 0.6 0.8\ngo 0.3 0.3\n"


def _clean(r, code: int = 0) -> None:
    assert r.returncode == code, r.stderr
    assert "Traceback" not in r.stderr + r.stdout


def _pair(tmp_path) -> None:
    (tmp_path / "t.amr").write_text(TEST)
    (tmp_path / "g.amr").write_text(GOLD)


def test_aspect_metric_equals_the_aspect_of_score_aspects(tmp_path):
    _pair(tmp_path)
    m = run("score", "t.amr", "g.amr", "--metric", "aspect", "--aspect-name", "concepts", "--format", "json",
            cwd=tmp_path)
    _clean(m)
    got = json.loads(m.stdout)
    a = run("score", "t.amr", "g.amr", "--aspects", "damonte", "--format", "json", cwd=tmp_path)
    _clean(a)
    aspects = json.loads(a.stdout)["aspects"]
    concepts = aspects["scores"]["concepts"]
    # by hand: micro 2 matched of 4 test and 5 gold; macro over (2/3, 2/4) and (0, 0)
    assert got["totals"] == {"matched": 2, "upper": 2, "test": 4, "gold": 5}
    assert got["micro"] == pytest.approx({"precision": 2 / 4, "recall": 2 / 5, "f1": 4 / 9, "f1_upper": 4 / 9})
    assert got["macro"] == pytest.approx({"precision": (2 / 3) / 2, "recall": (2 / 4) / 2,
                                          "f1": (4 / 7) / 2, "f1_upper": (4 / 7) / 2})
    # and the same as score --aspects damonte's concepts aspect
    assert {k: concepts[k] for k in ("matched", "upper", "test", "gold")} == got["totals"]
    assert {k: concepts[k] for k in ("precision", "recall", "f1")} == pytest.approx(
        {k: got["micro"][k] for k in ("precision", "recall", "f1")})
    assert aspects["macro_f1"]["concepts"] == pytest.approx(got["macro"]["f1"])


@pytest.mark.parametrize("args, fragment", [
    (("--metric", "aspect", "--aspect-name", "nosuch"),
     "unknown damonte aspect 'nosuch'; choose from smatch, unlabeled, no_wsd, concepts, named_ent, "
     "negations, wikification, reentrancies, srl"),
    (("--aspect-name", "concepts"), "--aspect-name does nothing under --metric smatch"),
])
def test_aspect_name_misused_exits_2(tmp_path, args, fragment):
    _pair(tmp_path)
    r = run("score", "t.amr", "g.amr", *args, cwd=tmp_path)
    _clean(r, 2)
    assert fragment in r.stderr and r.stdout == ""


BAD_VECTORS = {
    "nan": ("v.txt", b"boy 1 0\nwant nan 1\n", "v.txt:2: a value that is not finite"),
    "empty": ("v.txt", b"", "v.txt: no word vectors found"),
    # line 3: the first line with a word and a value (bytes 0-9 end at a newline, then 11-13)
    "binary": ("v.bin", bytes(range(256)) * 4, "v.bin:3: the value in column 2 is not a number"),
    "directory": ("vdir", None, "vectors vdir: not a regular file"),
}


@pytest.mark.parametrize("command", ["score", "compare", "matrix"])
@pytest.mark.parametrize("case", sorted(BAD_VECTORS))
def test_bad_vectors_for_thesis_aspects_exit_2(tmp_path, monkeypatch, command, case):
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))
    _pair(tmp_path)
    name, data, fragment = BAD_VECTORS[case]
    if data is None:
        (tmp_path / name).mkdir()
    else:
        (tmp_path / name).write_bytes(data)
    inputs = {"score": ("t.amr", "g.amr"), "compare": ("t.amr", "g.amr", "g.amr"),
              "matrix": ("t.amr", "-o", "m.npz")}[command]
    r = run(command, *inputs, "--aspects", "thesis", "--vectors", name, "--quiet", cwd=tmp_path)
    _clean(r, 2)
    assert fragment in r.stderr
    assert not (tmp_path / "m.npz").exists()


def test_vectors_of_another_length_are_left_out_with_their_line_named(tmp_path, monkeypatch):
    """A row of another length is left out with a warning (docs/user-faults.md, 15), and
    the numbers are those of the file without it."""
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))
    _pair(tmp_path)
    (tmp_path / "ragged.txt").write_text(VECTORS.replace("girl 0.6 0.8\n", "girl 0.6 0.8 0.1\n"))
    (tmp_path / "clean.txt").write_text(VECTORS.replace("girl 0.6 0.8\n", ""))
    runs = {}
    for name in ("ragged.txt", "clean.txt"):
        r = run("score", "t.amr", "g.amr", "--aspects", "thesis", "--vectors", name, "--format", "json",
                "--quiet", cwd=tmp_path)
        _clean(r)
        runs[name] = r
    assert ("vectors ragged.txt: 1 line with another number of values than the first line's 2 left out "
            "(line 2)") in runs["ragged.txt"].stderr
    got, want = (json.loads(runs[n].stdout)["aspects"] for n in ("ragged.txt", "clean.txt"))
    assert got == want
    # by hand: rootSim of want against want (the lemma of want-01 and want-02) and cat against dog
    assert got["scores"]["rootSim"]["f1"] == pytest.approx((1 + 0.96) / 2)


THREE = "(w / want-01 :ARG0 (b / boy))\n\n{}\n\n(d / dog)\n"


@pytest.mark.parametrize("second, fragment", [
    (b"\xef\xbb\xbf(c / cat)", "bad.amr:3: graph 1: a byte-order mark (U+FEFF) at column 1, inside the file"),
    (b"(c / ca\x00t)", "bad.amr:3: graph 1: a NUL byte at column 8 (a binary file, or UTF-16 text"),
    (b"(c / cat\n   :mod \"a\x00\")", "bad.amr:4: graph 1: a NUL byte at column 11"),  # in a constant
])
def test_bad_graph_in_the_middle_exits_2_and_spares_the_others(tmp_path, second, fragment):
    (tmp_path / "bad.amr").write_bytes(THREE.encode().replace(b"{}", second))
    (tmp_path / "ok.amr").write_text(THREE.format("(c / cat)"))
    for args in (("score", "bad.amr", "ok.amr"), ("score", "bad.amr", "ok.amr", "--metric", "aspect"),
                 ("compare", "bad.amr", "ok.amr", "ok.amr"), ("matrix", "bad.amr", "-o", "m.npz")):
        r = run(*args, "--quiet", cwd=tmp_path)
        _clean(r, 2)
        assert fragment in r.stderr, args
    # the other pairs are still scored when asked
    r = run("score", "bad.amr", "ok.amr", "--on-error", "empty", "--pairs-out", "p.jsonl", "--quiet", cwd=tmp_path)
    _clean(r)
    pairs = [json.loads(line) for line in (tmp_path / "p.jsonl").read_text().splitlines()]
    assert [(p["matched"], p["test_triples"], p["gold_triples"]) for p in pairs] == [(4, 4, 4), (0, 0, 2), (2, 2, 2)]
    assert fragment in pairs[1]["error"]
    r = run("score", "bad.amr", "ok.amr", "--metric", "aspect", "--on-error", "empty", "--pairs-out", "a.jsonl",
            "--quiet", cwd=tmp_path)
    _clean(r)
    pairs = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert [(p["matched"], p["test"], p["gold"]) for p in pairs] == [(2, 2, 2), (0, 0, 1), (1, 1, 1)]
    assert fragment in pairs[1]["error"]


def test_a_directory_as_graph_file_exits_2(tmp_path):
    (tmp_path / "dir.amr").mkdir()
    (tmp_path / "ok.amr").write_text(THREE.format("(c / cat)"))
    for args in (("score", "dir.amr", "ok.amr", "--aspects", "damonte"),
                 ("score", "ok.amr", "dir.amr", "--metric", "aspect"),
                 ("compare", "ok.amr", "dir.amr", "ok.amr"), ("matrix", "dir.amr", "-o", "m.npz")):
        r = run(*args, "--quiet", cwd=tmp_path)
        _clean(r, 2)
        assert "dir.amr: Is a directory" in r.stderr, args


def test_an_empty_quoted_concept_is_a_concept_of_its_own(tmp_path):
    """``(c / "")`` reads (smatch 1.0.4 reads it too): it matches itself and nothing else."""
    (tmp_path / "e.amr").write_text(THREE.format('(c / "")'))
    (tmp_path / "ok.amr").write_text(THREE.format("(c / cat)"))
    for gold, want in (("e.amr", (2, 2, 2)), ("ok.amr", (1, 2, 2))):
        r = run("score", "e.amr", gold, "--pairs-out", "p.jsonl", "--quiet", cwd=tmp_path)
        _clean(r)
        pairs = [json.loads(line) for line in (tmp_path / "p.jsonl").read_text().splitlines()]
        assert (pairs[1]["matched"], pairs[1]["test_triples"], pairs[1]["gold_triples"]) == want
    r = run("score", "e.amr", "ok.amr", "--metric", "aspect", "--aspect-name", "concepts", "--format", "json",
            cwd=tmp_path)
    _clean(r)
    # want-01, boy, dog match; "" and cat do not
    assert json.loads(r.stdout)["totals"] == {"matched": 3, "upper": 3, "test": 4, "gold": 4}


def test_compare_thesis_aspects_are_the_score_of_each_system(tmp_path, monkeypatch):
    """``compare S1 S2 G --aspects thesis --vectors F``: each aspect's F1 of a system is the
    F1 ``score S G --aspects thesis --vectors F`` gives it."""
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))
    _pair(tmp_path)
    (tmp_path / "v.txt").write_text(VECTORS)
    vectors = ("--aspects", "thesis", "--vectors", "v.txt", "--format", "json", "--quiet")
    c = run("compare", "t.amr", "g.amr", "t.amr", *vectors, "--bootstrap", "20", "--ar-trials", "20",
            cwd=tmp_path)
    _clean(c)
    got = {x["name"]: (x["f1_sys1"], x["f1_sys2"]) for x in json.loads(c.stdout)["comparisons"]}
    s = run("score", "g.amr", "t.amr", *vectors, cwd=tmp_path)
    _clean(s)
    scored = json.loads(s.stdout)
    want = {name: x["f1"] for name, x in scored["aspects"]["scores"].items()}
    assert set(got) == {"smatch", *want}
    assert got["smatch"] == pytest.approx((1.0, scored["micro"]["f1"]))
    for name, f1 in want.items():
        assert got[name] == pytest.approx((1.0, f1)), name
    # by hand: the roots want/want and dog/cat, cosine 1 and 0.96
    assert got["rootSim"][1] == pytest.approx((1 + 0.96) / 2)

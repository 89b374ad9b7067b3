"""``--aspects smatchpp18`` on the command line, the numbers counted by hand.

Frame file: ``hit-01  ARG0: hitter  ARG1: thing hit  ARG2: instrument, thing hit with``, so
with it ``hit-01 :ARG2`` is ``:instrument``.

Pair 0: A ``(h / hit-01 :ARG0 (b / boy) :ARG2 (s / stick))``, B the same with ``(g / girl)``.
  1.8's triples: hit-01, boy|girl, stick, (h :arg0 b|g), (h :arg2 s), (h :root hit-01).
  AGENT / SRL-core   {hit-01, boy, h arg0 b} vs {hit-01, girl, h arg0 g}: h->h, b->g: 2 of 3 / 3
                     (h is no predicate of b: it has three roles); without frames SRL-core also
                     has h arg2 s and stick: 4 of 5 / 5
  CONCEPT            hit-01, stick match: 2 of 3 / 3
  FOCUS              {hit-01, h root hit-01}: 2 / 2 / 2
  INSTRUMENT         {hit-01, h instrument s, stick}: 3 / 3 / 3; without frames empty, and
                     PATIENT is that subgraph with :arg2 (3 / 3 / 3)
Pair 1: ``(c / city :wiki "Paris" :name (n / name :op1 "Paris"))`` on both sides (6 triples).
  CONCEPT 2; FOCUS 2; LOCATION (spatial): city is in the location group, so every triple of c,
  and n's :op1 two levels down, and n's concept: all 6; NER {city, c name n, name, n op1 paris}: 4;
  WIKI {city, c wiki paris}: 2.
Every other aspect is empty on both sides of both pairs: F1 1 (vacuous agreement).
"""

from __future__ import annotations

import json

import pytest

from clirun import run

A = ["(h / hit-01 :ARG0 (b / boy) :ARG2 (s / stick))",
     '(c / city :wiki "Paris" :name (n / name :op1 "Paris"))']
B = ["(h / hit-01 :ARG0 (g / girl) :ARG2 (s / stick))",
     '(c / city :wiki "Paris" :name (n / name :op1 "Paris"))']
FRAMES = "hit-01  ARG0: hitter  ARG1: thing hit  ARG2: instrument, thing hit with\n"

NAMES = ["AGENT", "CAUSE", "CONCEPT", "FOCUS", "INSTRUMENT", "LOCATION (spatial)", "MATHS", "NER",
         "PATIENT", "POLARITY", "POSSESSION", "PURPOSE", "QUANTIFIER", "QUESTION", "SRL-core",
         "TIME (temporal)", "TOPIC", "WIKI", "REENTRANCIES"]
#: (matched, test, gold) summed over both pairs, with the frame file
WITH_FRAMES = {"AGENT": (2, 3, 3), "CONCEPT": (4, 5, 5), "FOCUS": (4, 4, 4), "INSTRUMENT": (3, 3, 3),
               "LOCATION (spatial)": (6, 6, 6), "NER": (4, 4, 4), "SRL-core": (2, 3, 3), "WIKI": (2, 2, 2)}
WITHOUT_FRAMES = {**{k: v for k, v in WITH_FRAMES.items() if k != "INSTRUMENT"},
                  "PATIENT": (3, 3, 3), "SRL-core": (4, 5, 5)}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("aspects18")
    (d / "a.amr").write_text("\n\n".join(A) + "\n")
    (d / "b.amr").write_text("\n\n".join(B) + "\n")
    (d / "frames.txt").write_text(FRAMES)
    return d


def expected(counts):
    out = {}
    for name in NAMES:
        m, t, g = counts.get(name, (0, 0, 0))
        p, r = (m / t, m / g) if t else (1.0, 1.0)
        f = 2 * p * r / (p + r) if p + r else 0.0
        out[name] = {"matched": m, "upper": m, "test": t, "gold": g, "precision": p, "recall": r, "f1": f}
    return out


@pytest.mark.parametrize("frames, counts", [(True, WITH_FRAMES), (False, WITHOUT_FRAMES)])
def test_score_json_every_aspect_by_hand(files, frames, counts):
    extra = ["--propbank-frames", files / "frames.txt"] if frames else []
    r = run("score", "a.amr", "b.amr", "--preset", "smatchpp18-amr", "--aspects", "smatchpp18",
            *extra, "--format", "json", "--pairs-out", "pairs.jsonl", cwd=files)
    assert r.returncode == 0, r.stderr
    aspects = json.loads(r.stdout)["aspects"]
    assert aspects["set"] == "smatchpp18" and aspects["mode"] == "separate"
    want = expected(counts)
    assert {n: pytest.approx(c) for n, c in aspects["scores"].items()} == want
    assert list(aspects["scores"]) == NAMES
    pair0 = json.loads((files / "pairs.jsonl").read_text().splitlines()[0])["aspects"]
    assert pair0["CAUSE"]["f1"] == 1.0 and pair0["AGENT"]["f1"] == pytest.approx(2 / 3)


def test_text_table_names_the_set_and_vacuous_rows(files):
    r = run("score", "a.amr", "b.amr", "--preset", "smatchpp18-amr", "--aspects", "smatchpp18",
            "--aspects-mode", "joint", "--propbank-frames", files / "frames.txt", cwd=files)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    head = next(k for k, line in enumerate(lines) if line.startswith("aspects"))
    assert lines[head].startswith("aspects smatchpp18 (joint alignment)")
    rows = {line[:37].strip(): line for line in lines[head + 1:head + 20]}
    assert list(rows) == NAMES
    assert rows["CAUSE"].endswith("(empty on both sides: vacuous agreement)")
    assert "aspect-set:smatchpp18|frames:frames.txt@" in r.stdout


def test_old_spelling_still_works_with_a_warning(files):
    old = run("score", "a.amr", "b.amr", "--aspects", "joint", "--format", "json", cwd=files)
    new = run("score", "a.amr", "b.amr", "--aspects", "damonte", "--aspects-mode", "joint",
              "--format", "json", cwd=files)
    assert old.returncode == new.returncode == 0
    assert old.stdout == new.stdout
    assert "--aspects joint is deprecated: it means --aspects damonte --aspects-mode joint" in old.stderr
    assert "deprecated" not in new.stderr
    bare = run("score", "a.amr", "b.amr", "--aspects", "--format", "json", cwd=files)
    assert json.loads(bare.stdout)["aspects"]["mode"] == "separate" and "set" not in json.loads(bare.stdout)["aspects"]


@pytest.mark.parametrize("args, message", [
    (["--propbank-frames", "frames.txt"], "--propbank-frames needs --aspects"),
    (["--aspects", "--propbank-frames", "frames.txt"], "read by the smatchpp18 aspect set only"),
    (["--aspects", "smatchpp18", "--propbank-frames", "missing.txt"], "--propbank-frames: no such file"),
    (["--aspects", "separate", "--aspects-mode", "joint"], "contradicts --aspects-mode joint"),
])
def test_bad_aspect_options_exit_2(files, args, message):
    r = run("score", "a.amr", "b.amr", *args, cwd=files)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_bad_frame_file_exit_2_names_line(files):
    (files / "bad.txt").write_text("hit-01  ARG0: hitter\nrun-01  ARG0 runner\n")
    r = run("score", "a.amr", "b.amr", "--aspects", "smatchpp18", "--propbank-frames", "bad.txt", cwd=files)
    assert r.returncode == 2 and "bad.txt, line 2: role 'arg0 runner' of 'run-01'" in r.stderr
    assert "Traceback" not in r.stderr


def test_compare_has_a_row_per_aspect(files):
    r = run("compare", "a.amr", "b.amr", "b.amr", "--preset", "smatchpp18-amr", "--aspects", "smatchpp18",
            "--propbank-frames", files / "frames.txt", "--bootstrap", "50", "--ar-trials", "50",
            "--format", "json", cwd=files)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    names = [c["name"] for c in out["comparisons"][1:]] if "comparisons" in out else None
    assert names == NAMES, out.keys()


MATRIX_GRAPHS = A + B[:1] + ["(g / go-02 :ARG0 (b / boy) :polarity - :time (d / date-entity :year 2020))"]


def test_matrix_one_array_per_aspect_equals_score(files):
    """Each aspect's matrix cell is the aspect's F1 that ``score`` gives the same pair
    (two code paths: subgraphs cut once per graph and solved as matrices, against the
    scorer's aspects per pair); both-empty pairs and empty diagonals are 1."""
    (files / "m.amr").write_text("\n\n".join(MATRIX_GRAPHS) + "\n")
    r = run("matrix", "m.amr", "-o", "m.npz", "--preset", "smatchpp18-amr", "--aspects", "smatchpp18",
            "--propbank-frames", files / "frames.txt", "--quiet", "--all", cwd=files)
    assert r.returncode == 0, r.stderr
    assert "aspects: 19 matrices, 114 of 114 aspect pairs certified optimal" in r.stdout
    import numpy as np

    m = np.load(files / "m.npz")
    n = len(MATRIX_GRAPHS)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    (files / "left.amr").write_text("\n\n".join(MATRIX_GRAPHS[i] for i, _ in pairs) + "\n")
    (files / "right.amr").write_text("\n\n".join(MATRIX_GRAPHS[j] for _, j in pairs) + "\n")
    s = run("score", "left.amr", "right.amr", "--preset", "smatchpp18-amr", "--aspects", "smatchpp18",
            "--propbank-frames", files / "frames.txt", "--pairs-out", "p.jsonl", "--quiet", cwd=files)
    assert s.returncode == 0, s.stderr
    scored = [json.loads(line)["aspects"] for line in (files / "p.jsonl").read_text().splitlines()]
    for name in NAMES:
        f1 = m[f"aspect:{name}:f1"]
        for (i, j), aspects in zip(pairs, scored):
            assert f1[i, j] == pytest.approx(aspects[name]["f1"]), (name, i, j)
            assert f1[j, i] == f1[i, j]
        assert np.all(np.diag(f1) == 1.0)
    # by hand: CAUSE is empty everywhere; TIME only in graph 3
    assert np.all(m["aspect:CAUSE:f1"] == 1.0)
    assert m["aspect:TIME (temporal):f1"][0, 3] == 0.0 and m["aspect:TIME (temporal):f1"][0, 1] == 1.0


def test_matrix_refuses_what_it_cannot_compute(files):
    r = run("matrix", "a.amr", "-o", "m.npz", "--aspects", "--aspects-mode", "joint", cwd=files)
    assert r.returncode == 2 and "with --aspects-mode separate only" in r.stderr
    r = run("matrix", "a.amr", "-o", "m.parquet", "--aspects", "smatchpp18", cwd=files)
    assert r.returncode == 2 and "matrix --aspects writes .npz only" in r.stderr


def test_macro_and_bootstrap_per_aspect(files):
    """AGENT: pair 0 F1 2/3, pair 1 empty on both sides (1): macro 5/6, micro 2/3.  A resample
    draws pair 0 and/or pair 1: micro is 2/3 (pair 0 drawn) or 1 (only pair 1), macro 2/3, 5/6
    or 1; with 200 resamples both ends are drawn (each about 1 in 4), so the intervals are
    [2/3, 1].  CAUSE is empty everywhere: 1, with the interval [1, 1]."""
    r = run("score", "a.amr", "b.amr", "--preset", "smatchpp18-amr", "--aspects", "smatchpp18",
            "--propbank-frames", files / "frames.txt", "--bootstrap", "200", "--format", "json", cwd=files)
    assert r.returncode == 0, r.stderr
    aspects = json.loads(r.stdout)["aspects"]
    assert aspects["macro_f1"]["AGENT"] == pytest.approx(5 / 6)
    assert aspects["scores"]["AGENT"]["f1"] == pytest.approx(2 / 3)
    assert aspects["macro_f1"]["CAUSE"] == 1.0
    boot = aspects["bootstrap"]
    assert (boot["resamples"], boot["seed"]) == (200, 12345)
    assert boot["f1"]["AGENT"] == {"micro_f1": [pytest.approx(2 / 3), 1.0], "macro_f1": [pytest.approx(2 / 3), 1.0]}
    assert boot["f1"]["CAUSE"] == {"micro_f1": [1.0, 1.0], "macro_f1": [1.0, 1.0]}
    text = run("score", "a.amr", "b.amr", "--preset", "smatchpp18-amr", "--aspects", "smatchpp18",
               "--propbank-frames", files / "frames.txt", "--bootstrap", "200", cwd=files).stdout
    assert "  AGENT                        micro [66.67, 100.00]  macro [66.67, 100.00]" in text

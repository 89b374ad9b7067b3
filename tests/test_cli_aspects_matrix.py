"""``matrix --aspects damonte|thesis``: each aspect's cell is the F1 ``score`` gives the pair.

Two code paths: ``matrix`` cuts each graph's subgraphs, labels and chosen nodes once and
solves (subgraph aspects) or counts (set aspects, graph statistics) each aspect as a matrix
of its own; ``score --pairs-out`` scores the same pairs one by one with the scorer's
aspects.  smatchpp 1.8's set has the same test in ``test_cli_aspects18.py``.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from clirun import run

GRAPHS = ["(w / want-01 :ARG0 (b / boy :quant 3) :ARG1 (g / go-02 :ARG0 b :polarity -))",
          "(w / desire-01 :ARG0 (g2 / girl :quant 3) :ARG1 (g / go-02 :ARG0 g2))",
          '(c / city :wiki "Paris" :name (n / name :op1 "Paris"))',
          "(g / go-02 :ARG0 (b / boy))"]
VECTORS = "boy 1 0\ngirl 0.6 0.8\nwant 0 1\ndesire 0.8 0.6\ngo 0.3 0.3\ncity -1 0\n"


@pytest.mark.parametrize("aspect_set", ["damonte", "thesis"])
def test_matrix_cells_equal_score(tmp_path, monkeypatch, aspect_set):
    (tmp_path / "m.amr").write_text("\n\n".join(GRAPHS) + "\n")
    (tmp_path / "v.txt").write_text(VECTORS)
    vectors = ("--vectors", "v.txt") if aspect_set == "thesis" else ()
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))  # the converted vectors
    r = run("matrix", "m.amr", "-o", "m.npz", "--aspects", aspect_set, *vectors, "--quiet", "--all",
            cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    n = len(GRAPHS)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    (tmp_path / "left.amr").write_text("\n\n".join(GRAPHS[i] for i, _ in pairs) + "\n")
    (tmp_path / "right.amr").write_text("\n\n".join(GRAPHS[j] for _, j in pairs) + "\n")
    s = run("score", "left.amr", "right.amr", "--aspects", aspect_set, *vectors, "--pairs-out", "p.jsonl",
            "--quiet", cwd=tmp_path)
    assert s.returncode == 0, s.stderr
    scored = [json.loads(line)["aspects"] for line in (tmp_path / "p.jsonl").read_text().splitlines()]
    names = [k for k in scored[0] if k != "smatch"]
    m = np.load(tmp_path / "m.npz")
    assert sorted(k for k in m.files if k.endswith(":f1")) == sorted(f"aspect:{k}:f1" for k in names)
    assert f"{len(names)} matrices" in r.stdout
    for name in names:
        f1 = m[f"aspect:{name}:f1"]
        for (i, j), aspects in zip(pairs, scored):
            want = aspects[name]["f1"]
            if want is None:  # Damonte's n/a
                assert np.isnan(f1[i, j]) and np.isnan(f1[j, i]), (name, i, j)
            else:
                assert f1[i, j] == pytest.approx(want) and f1[j, i] == f1[i, j], (name, i, j)
    if aspect_set == "thesis":
        # by hand: rootSim of want vs desire 0.6; city against boy -1, counted 0
        assert m["aspect:rootSim:f1"][0, 1] == pytest.approx(0.6)
        assert m["aspect:maxIndegreeSim:f1"][0, 1] == pytest.approx(0.6)
        assert np.all(np.diag(m["aspect:Negation:f1"]) == 1.0)  # vacuous on the diagonal too
    else:
        assert np.isnan(m["aspect:wikification:f1"][0, 1]) and m["aspect:wikification:f1"][0, 2] == 0.0

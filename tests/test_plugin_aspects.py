"""An aspect set from a separate installed package, found through the entry-point group
``smatchpp.aspects``: one module, one entry point, and it works in ``score --aspects``,
``score --metric aspect --aspect-set`` (its signature replays) and ``matrix --aspects``.

As in ``test_plugins.py``, the package is written to a scratch folder with its ``.dist-info``
and put on a fresh process's ``PYTHONPATH`` (the subject is what a process finds installed).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from clirun import child_env, smatchpp_argv
from test_plugins import install

#: two aspects, one of each shape of the protocol (smatchpp.aspects.base)
PLUGIN = '''
"""An aspect set for the entry-point tests."""
from dataclasses import dataclass

from smatchpp.aspects.base import AspectCount, AspectSet, GraphAspect, UnalignedAspect
from smatchpp.graphs.triples import EMPTY, TripleGraph, smatch_concept


@dataclass(frozen=True)
class Root(GraphAspect):
    """Smatch on the root's instance triple."""
    name: str = "root"
    title: str = "Root"
    vacuous: float = None

    def graph(self, raw, standardizer):
        concept = {s: t for s, r, t in raw.triples if r == ":instance"}
        if raw.top not in concept:
            return EMPTY
        return TripleGraph((raw.top,), (smatch_concept(concept[raw.top]),), (), ())


@dataclass(frozen=True)
class Negations(UnalignedAspect):
    """How many :polarity triples each side has; the smaller number matches."""
    name: str = "negation-count"
    title: str = "Negation count"
    vacuous: float = 1.0

    def features(self, raw):
        return sum(1 for s, r, t in raw.triples if r == ":polarity")

    def count(self, fa, fb):
        return AspectCount(min(fa, fb), min(fa, fb), fa, fb, self.vacuous)

    def size(self, features):
        return features


DEMO = AspectSet(("root", "negation-count"), lambda frames, vectors: [Root(), Negations()],
                 title="a demo set")
'''


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("aspect-site")
    install(root, "smatchpp_demo_aspects", PLUGIN, """\
        [smatchpp.aspects]
        demo = smatchpp_demo_aspects:DEMO
        thesis = smatchpp_demo_aspects:DEMO
        not-a-set = smatchpp_demo_aspects:Root
        """)
    files = {"test.amr": "(d / dog :ARG0-of (b / bark-01))\n\n(c / cat :polarity -)\n",
             "other.amr": "(d / dog)\n\n(c / cat :polarity -)\n",
             "gold.amr": "(b / bark-01 :ARG0 (d / dog))\n\n(c / cat)\n"}
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def run(site: Path, *args: object) -> subprocess.CompletedProcess:
    env = child_env()
    env["PYTHONPATH"] = f"{site}:{env['PYTHONPATH']}"
    return subprocess.run(smatchpp_argv(*args), cwd=site, env=env, capture_output=True, text=True,
                          timeout=300)


def test_score_aspects_takes_a_set_of_another_package(site):
    got = run(site, "score", "test.amr", "gold.amr", "--aspects", "demo", "--format", "json")
    assert got.returncode == 0, got.stderr
    aspects = json.loads(got.stdout)["aspects"]
    assert aspects["set"] == "demo"
    # roots: dog vs bark-01 (no match), cat vs cat; negations: 0 vs 0 (vacuous), 1 vs 0
    assert aspects["scores"]["root"] == {"matched": 1, "upper": 1, "test": 2, "gold": 2,
                                         "precision": 0.5, "recall": 0.5, "f1": 0.5}
    assert aspects["scores"]["negation-count"]["test"] == 1
    assert aspects["scores"]["negation-count"]["gold"] == 0
    assert aspects["macro_f1"] == {"root": 0.5, "negation-count": 0.5}
    assert "aspect-set:demo" in json.loads(got.stdout)["signature"]


def test_the_aspect_metric_takes_it_by_name_and_its_signature_replays(site):
    got = run(site, "score", "test.amr", "gold.amr", "--metric", "aspect", "--aspect-set", "demo",
              "--aspect-name", "negation-count", "--format", "json")
    assert got.returncode == 0, got.stderr
    summary = json.loads(got.stdout)
    assert summary["macro"]["f1"] == pytest.approx(0.5)  # pair 0 vacuous 1, pair 1 0
    signature = summary["signature"]
    assert "|aspect-name:negation-count|" in signature and "aspect-set:demo" in signature
    replay = run(site, "score", "test.amr", "gold.amr", "--signature", signature, "--format", "json")
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout == got.stdout


def test_matrix_aspects_takes_it(site, tmp_path):
    out = tmp_path / "m.npz"
    got = run(site, "matrix", "test.amr", "gold.amr", "-o", out, "--aspects", "demo")
    assert got.returncode == 0, got.stderr
    with np.load(out) as m:
        np.testing.assert_allclose(m["aspect:root:f1"], [[0.0, 0.0], [0.0, 1.0]])
        # negation counts: row 1 has one, neither gold has any; row 0 vs gold: vacuous
        np.testing.assert_allclose(m["aspect:negation-count:f1"], [[1.0, 1.0], [0.0, 0.0]])


def test_joint_mode_and_compare_take_it_with_its_titles(site):
    got = run(site, "score", "test.amr", "gold.amr", "--aspects", "demo", "--aspects-mode", "joint")
    assert got.returncode == 0, got.stderr
    rows = {line.split()[0]: line.split() for line in got.stdout.splitlines() if line.startswith(("Root", "Negation"))}
    assert rows["Root"][1:] == ["50.00", "50.00", "50.00", "1", "2", "2"]  # the printed titles
    got = run(site, "compare", "test.amr", "other.amr", "gold.amr", "--aspects", "demo", "--format", "json",
              "--bootstrap", "50", "--ar-trials", "50")
    assert got.returncode == 0, got.stderr
    summary = json.loads(got.stdout)
    assert "aspect-set:demo" in summary["signature"]
    assert [c["name"] for c in summary["comparisons"]] == ["smatch", "Root", "Negation count"]


def test_a_taken_name_or_a_wrong_object_is_left_out_with_a_warning(site):
    got = run(site, "score", "test.amr", "gold.amr", "--aspects", "demo")
    assert got.returncode == 0, got.stderr
    assert "entry point thesis = smatchpp_demo_aspects:DEMO" in got.stderr
    assert "exists already" in got.stderr
    assert "entry point not-a-set = smatchpp_demo_aspects:Root" in got.stderr
    assert "expected a smatchpp.aspects.base.AspectSet" in got.stderr
    wrong = run(site, "score", "test.amr", "gold.amr", "--aspects", "not-a-set")
    assert wrong.returncode == 2
    assert "unknown aspect set 'not-a-set'" in wrong.stderr

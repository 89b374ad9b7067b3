"""A metric and a preset from a separate installed package, found through entry points.

The package is written to a scratch folder with its ``.dist-info`` (what pip leaves in
site-packages: METADATA and entry_points.txt), and that folder is put on the child's
``PYTHONPATH``: to ``importlib.metadata`` it is an installed distribution.  The commands
run in a fresh process, since the subject is what a process finds installed when it starts.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import numpy as np
import pytest

from clirun import child_env, smatchpp_argv

import subprocess

PLUGIN = '''
"""A metric and a preset for the entry-point tests."""
import numpy as np
import penman
from smatchpp.metrics import Metric, param
from smatchpp.presets import Preset
from smatchpp.presets.graph import GENERIC_RULES
from dataclasses import dataclass


@dataclass(frozen=True)
class ConceptDice(Metric):
    """Dice coefficient of the two graphs' concept sets."""
    name = "concept-dice"
    stat_names = ("common", "sizes")
    headline = "score"
    suffix: str = param("", "a suffix stripped from every concept before comparing")

    def features(self, graph):
        out = set()
        for s, r, t in graph.triples:
            if r == ":instance":
                out.add(t[: -len(self.suffix)] if self.suffix and t.endswith(self.suffix) else t)
        return frozenset(out)

    def stats(self, a, b):
        return (2 * len(a & b), len(a) + len(b))

    def scores(self, stats):
        s = np.asarray(stats, dtype=float)
        common, sizes = s[..., 0], s[..., 1]
        return {"score": np.divide(common, sizes, out=np.ones_like(common), where=sizes > 0)}


def _drop_polarity(graph, options):
    return penman.Graph([t for t in graph.triples if t[1] != ":polarity"], top=graph.top)


NO_POLARITY = Preset("generic, with every :polarity triple dropped", rules=GENERIC_RULES + (_drop_polarity,))
'''

BROKEN = "raise ImportError('this extension is broken on purpose')\n"


def install(root: Path, name: str, module: str, entry_points: str) -> None:
    """``module`` as the package ``name`` with its dist-info, as pip installs it."""
    (root / f"{name}.py").write_text(module)
    info = root / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("site")
    install(root, "smatchpp_demo_plugin", PLUGIN, """\
        [smatchpp.metrics]
        concept-dice = smatchpp_demo_plugin:ConceptDice
        wlk = smatchpp_demo_plugin:ConceptDice

        [smatchpp.presets]
        no-polarity = smatchpp_demo_plugin:NO_POLARITY
        smatch = smatchpp_demo_plugin:NO_POLARITY
        """)
    install(root, "smatchpp_broken_plugin", BROKEN, """\
        [smatchpp.metrics]
        broken = smatchpp_broken_plugin:Anything
        """)
    files = {"test.amr": "(d / dog :ARG0-of (b / bark-01))\n\n(c / cat :polarity -)\n",
             "other.amr": "(d / dog)\n\n(c / cat)\n",
             "third.amr": "(d / dog :ARG0-of (b / bark-02))\n\n(x / mouse)\n",
             "gold.amr": "(d / dog :ARG0-of (b / bark-01))\n\n(c / cat)\n"}
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def run(site: Path, *args: object) -> subprocess.CompletedProcess:
    env = child_env()
    env["PYTHONPATH"] = f"{site}:{env['PYTHONPATH']}"
    return subprocess.run(smatchpp_argv(*args), cwd=site, env=env, capture_output=True, text=True,
                          timeout=300)


def test_a_metric_of_another_package_is_scored(site):
    got = run(site, "score", "test.amr", "other.amr", "--metric", "concept-dice", "--format", "json")
    assert got.returncode == 0, got.stderr
    summary = json.loads(got.stdout)
    assert summary["metric"] == "concept-dice"
    # pair 0: {dog, bark-01} vs {dog}: 2*1/3; pair 1: {cat} vs {cat}: 1; micro 4/5
    assert summary["macro"]["score"] == pytest.approx((2 / 3 + 1) / 2)
    assert summary["micro"]["score"] == pytest.approx(4 / 5)
    assert summary["signature"].split("|")[1:3] == ["metric:concept-dice", "concept-dice-suffix:"]


def test_its_parameter_is_an_option_and_in_the_signature_which_replays(site):
    got = run(site, "score", "test.amr", "third.amr", "--metric", "concept-dice",
              "--concept-dice-suffix", "-02")
    assert got.returncode == 0, got.stderr
    signature = got.stdout.splitlines()[0]
    assert "concept-dice-suffix:-02" in signature
    # "bark-02" is cut to "bark" only with the suffix: the setting changes the number
    plain = run(site, "score", "test.amr", "third.amr", "--metric", "concept-dice")
    assert plain.stdout.splitlines()[1:] == got.stdout.splitlines()[1:]  # bark-01 != bark
    replay = run(site, "score", "test.amr", "third.amr", "--signature", signature)
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout == got.stdout


def test_compare_matrix_and_search_take_it(site, tmp_path):
    got = run(site, "compare", "test.amr", "other.amr", "gold.amr", "--metric", "concept-dice",
              "--bootstrap", "50", "--ar-trials", "50", "--format", "json")
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["signature"].split("|")[1] == "metric:concept-dice"
    out = tmp_path / "m.npz"
    got = run(site, "matrix", "test.amr", "gold.amr", "--metric", "concept-dice", "-o", out)
    assert got.returncode == 0, got.stderr
    with np.load(out) as m:
        np.testing.assert_allclose(m["score"], [[1.0, 0.0], [0.0, 1.0]])
        assert str(m["signature"]).split("|")[1] == "metric:concept-dice"
    hits = tmp_path / "hits.jsonl"
    got = run(site, "search", "other.amr", "gold.amr", "--metric", "concept-dice", "--top", "1",
              "--out", hits)
    assert got.returncode == 0, got.stderr
    assert [json.loads(line)["hits"][0]["index"] for line in hits.read_text().splitlines()] == [0, 1]


def test_a_preset_of_another_package_is_a_choice_and_signed(site):
    got = run(site, "score", "test.amr", "gold.amr", "--preset", "no-polarity")
    assert got.returncode == 0, got.stderr
    assert "|preset:no-polarity|" in got.stdout.splitlines()[0]
    assert "F1 100.00" in got.stdout  # the only difference, :polarity -, is dropped
    generic = run(site, "score", "test.amr", "gold.amr", "--preset", "generic")
    assert "F1 100.00" not in generic.stdout.splitlines()[2]


def test_taken_names_and_broken_packages_are_left_out_with_a_warning(site):
    got = run(site, "score", "test.amr", "gold.amr", "--metric", "wlk")
    assert got.returncode == 0, got.stderr
    assert "|metric:wlk|wlk-iterations:" in got.stdout  # the built-in WLK, not the extension
    assert "entry point wlk = smatchpp_demo_plugin:ConceptDice" in got.stderr
    assert "exists already" in got.stderr
    assert "entry point smatch = smatchpp_demo_plugin:NO_POLARITY" in got.stderr
    assert "entry point broken = smatchpp_broken_plugin:Anything" in got.stderr
    assert "package smatchpp_broken_plugin 0.1" in got.stderr
    assert "broken on purpose" in got.stderr
    assert "|preset:smatch|" in run(site, "score", "test.amr", "gold.amr").stdout

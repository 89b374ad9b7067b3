"""Weights at any scale (issue 22, item 14): F1 does not depend on the unit of the weights.

The solvers' tolerances are absolute (the certification tolerance 1e-6, HiGHS's);
a weighted matcher divides every weight by a power of two that brings the
largest into [1, 2) when it is outside [1, 2^20] (``WeightedMatcher.scale``), and
the scorer multiplies back.  Before, role weights of 1e-9 scored a graph against
itself 0.00, "certified" with an upper bound of 0; 1e-7 gave 99.60 (here: 50.00
macro); weights that overflow gave NaN in JSON, "certified".
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clirun import EXAMPLES, run
from smatchpp.api import Config, Scorer
from smatchpp.core.exceptions import SmatchppError
from smatchpp.alignment.matchers import WeightedMatcher
from smatchpp.alignment.matchers.general import MAX_WEIGHT, unit_weights
from smatchpp.alignment.matchers.levels import focus_weights, level_weights
from strategies import graph_pairs, triple_graphs

PROPS = settings(max_examples=60, deadline=None, derandomize=True)
SMALL = dict(min_vars=2, max_vars=4, max_attributes=3, max_relations=4)
ROLES = ("instance", "top", "op1", "polarity", "arg0", "arg1", "*")
WEIGHERS = {"unit": (unit_weights, 1.0), "levels": (level_weights, 5.0),
            "concept-focus": (focus_weights(3.0, True), 3.0)}
#: a role weight's factor over one of the others stays within 100: a graph's total is then
#: never tiny next to the largest weight, which the certification tolerance is relative to
ROLE_WEIGHTS = st.dictionaries(st.sampled_from(ROLES), st.floats(0.1, 10.0))
PRED, GOLD = str(EXAMPLES / "pred.amr"), str(EXAMPLES / "gold.amr")
FACTORS = st.floats(-12.0, 12.0).map(lambda k: 10.0 ** k)


def _scorer(weigher: str, roles: dict[str, float], factor: float) -> Scorer:
    weigh, largest = WEIGHERS[weigher]
    scaled = {role: w * factor for role, w in {"*": 1.0, **roles}.items()}  # every role: uniform
    return Scorer(Config(), matcher=WeightedMatcher(weigher, weigh, role_weights=scaled,
                                                    largest=largest))


@PROPS
@given(graph_pairs(**SMALL), st.sampled_from(sorted(WEIGHERS)), ROLE_WEIGHTS, FACTORS)
def test_f1_is_invariant_under_a_uniform_scaling_of_the_role_weights(pair, weigher, roles, factor):
    a, b = pair
    base = _scorer(weigher, roles, 1.0).score_pair(a, b)
    scaled = _scorer(weigher, roles, factor).score_pair(a, b)
    assert base.status == scaled.status == "optimal"
    assert scaled.f1 == pytest.approx(base.f1, abs=1e-6)
    assert scaled.precision == pytest.approx(base.precision, abs=1e-6)
    # reported in the weights as given: the totals scale with the factor
    assert scaled.test_total == pytest.approx(base.test_total * factor, rel=1e-9)
    assert scaled.matched <= scaled.upper <= scaled.matched + scaled.tolerance


@PROPS
@given(triple_graphs(**SMALL), st.sampled_from(sorted(WEIGHERS)), ROLE_WEIGHTS, FACTORS)
def test_self_score_is_one_at_every_scale(g, weigher, roles, factor):
    score = _scorer(weigher, roles, factor).score_pair(g, g)
    assert score.status == "optimal"
    assert score.f1 == pytest.approx(1.0, abs=1e-12)
    assert score.upper == pytest.approx(score.matched, rel=1e-9)


def test_weights_that_would_overflow_are_refused():
    with pytest.raises(SmatchppError, match="at most 1e\\+300"):
        WeightedMatcher("w", role_weights={"*": 1e308})
    with pytest.raises(SmatchppError):  # the focus weight times a role weight
        WeightedMatcher("w", focus_weights(1e200, True), role_weights={"arg0": 1e101}, largest=1e200)
    assert WeightedMatcher("w", role_weights={"*": MAX_WEIGHT}).scale > 1


def _roles(tmp_path, weight: str, name: str):
    path = tmp_path / name
    path.write_text(f"*\t{weight}\ninstance\t{weight}\ntop\t{weight}\n")
    return str(path)


def _summary_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith(("micro", "macro", "pairs:"))]


def test_cli_self_score_with_tiny_role_weights_is_100(tmp_path):
    run_ = run("score", GOLD, GOLD, "--format", "json",
               "--role-weights", _roles(tmp_path, "1e-9", "tiny.tsv"), cwd=tmp_path)
    assert run_.returncode == 0, run_.stderr
    summary = json.loads(run_.stdout)
    assert summary["micro"]["f1"] == pytest.approx(1.0, abs=1e-12)
    assert summary["optimal"] == 4


@pytest.mark.parametrize("weight", ["1e-12", "1e-7", "3", "1e12"])
def test_cli_scores_do_not_depend_on_the_unit_of_the_weights(tmp_path, weight):
    one = run("score", PRED, GOLD,
              "--role-weights", _roles(tmp_path, "1", "one.tsv"), cwd=tmp_path)
    other = run("score", PRED, GOLD,
                "--role-weights", _roles(tmp_path, weight, "other.tsv"), cwd=tmp_path)
    assert one.returncode == other.returncode == 0, other.stderr
    assert _summary_lines(other.stdout) == _summary_lines(one.stdout)
    assert "F1 89.58" in other.stdout


@pytest.mark.parametrize("options", [("--role-weights", "HUGE"), ("--match", "concept-focus",
                                                                   "--focus-weight", "1.7e308")])
def test_cli_refuses_weights_that_overflow_with_exit_2_and_no_json(tmp_path, options):
    options = [_roles(tmp_path, "1e308", "huge.tsv") if o == "HUGE" else o for o in options]
    run_ = run("score", PRED, GOLD, "--format", "json", *options, cwd=tmp_path)
    assert run_.returncode == 2
    assert run_.stdout == ""
    assert run_.stderr.startswith("smatchpp: error: the largest triple weight would be")
    assert "Traceback" not in run_.stderr

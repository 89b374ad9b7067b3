"""The corpus-level time budget (``total_time_limit``, ``score --total-time-limit``).

The rule is checked with injected clocks and recorded limits, never by timing a run.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from clirun import GOLD, PRED, run
from oracle import brute_force
from smatchpp.api import Scorer, _entries as entries, parse_graph
from smatchpp.alignment.config import Config
from smatchpp.core.schedule import MIN_SHARE, Schedule

PAIRS = [("(a / dog :ARG0 (b / cat) :mod (c / big))", "(x / dog :ARG1 (y / cat :mod (z / big)))"),
         ("(a / want-01 :ARG0 (b / boy) :ARG1 (c / go-02 :ARG0 b))",
          "(x / want-01 :ARG0 (y / girl) :ARG1 (z / go-02 :ARG0 y))"),
         ("(a / and :op1 (b / cat) :op2 (c / cat))", "(x / and :op1 (y / cat) :op2 (z / dog))")]


class _Recorder:
    """Wraps a solver and records the time limit each pair received."""

    def __init__(self, solver) -> None:
        self.solver, self.limits = solver, []

    def __getattr__(self, name):
        return getattr(self.solver, name)

    def solve(self, problem, time_limit=None, *args, **kwargs):
        self.limits.append(time_limit)
        return self.solver.solve(problem, time_limit, *args, **kwargs)


def _entries(side: int):
    return entries([p[side] for p in PAIRS], "ab"[side])


def test_signature_says_the_total_limit_and_not_deterministic():
    sig = Config(total_time_limit=3600).signature()
    assert "total-timeout:3600" in sig and sig.endswith("deterministic:no")
    assert "total-timeout" not in Config().signature()
    assert Config.from_signature(sig).total_time_limit == 3600.0


@given(total=st.floats(1.0, 1e4), pairs=st.integers(1, 50), workers=st.integers(1, 8),
       spent=st.lists(st.floats(0.0, 100.0), max_size=50))
@settings(max_examples=200, deadline=None)
def test_shares_never_promise_more_than_is_left(total, pairs, workers, spent):
    """Whatever the pairs took, a share never exceeds the time left (nor goes below the floor)."""
    now = [0.0]
    s = Schedule.start(total, pairs, workers, clock=lambda: now[0])
    for position in range(pairs):
        left = s.deadline - now[0]
        share = s.limit(position, clock=lambda: now[0])
        assert share >= MIN_SHARE
        assert share <= max(left, MIN_SHARE) + 1e-9
        if position < len(spent):
            now[0] += min(spent[position], share)


def test_each_pair_gets_its_share_of_what_is_left():
    scorer = Scorer(Config(total_time_limit=120.0))
    scorer.solver = recorder = _Recorder(scorer.solver)
    scores = list(scorer.iter_scores(_entries(0), _entries(1)))
    assert [s.status for s in scores] == ["optimal"] * 3
    # three pairs share 120 s: the first gets about 40 s (minus its compiling), the
    # next ones about a half and all of what is left (the earlier pairs took almost nothing)
    first, second, third = recorder.limits
    assert 39.0 < first <= 40.0
    assert 59.0 < second <= 60.0
    assert 118.0 < third <= 120.0
    # the deadline was this run's: a pair scored afterwards has no limit
    assert scorer.schedule is None
    scorer.score_pair(*PAIRS[0])
    assert recorder.limits[-1] is None


def test_a_per_pair_limit_caps_the_share():
    scorer = Scorer(Config(total_time_limit=120.0, time_limit=5.0))
    scorer.solver = recorder = _Recorder(scorer.solver)
    list(scorer.iter_scores(_entries(0), _entries(1)))
    assert all(4.0 < limit <= 5.0 for limit in recorder.limits)


def test_a_spent_budget_still_gives_every_pair_a_valid_interval():
    """After the deadline each pair gets the floor: its interval must contain the optimum."""
    scorer = Scorer(Config(total_time_limit=1.0))
    scorer.solver = recorder = _Recorder(scorer.solver)
    items = [scorer._item(a, b) for a, b in zip(_entries(0), _entries(1))]
    scorer.schedule = Schedule(deadline=0.0, pairs=len(items))  # long past
    for (a, b), item in zip(PAIRS, items):
        score = scorer._score_item(item)
        best = brute_force(parse_graph(a), parse_graph(b))
        assert score.matched <= best <= score.upper
        assert score.status in ("optimal", "time_limit")
    assert all(limit <= MIN_SHARE for limit in recorder.limits)


def test_cli_total_time_limit_keeps_the_numbers_and_signs_them(tmp_path):
    plain = run("score", PRED, GOLD, "--format", "json", "--quiet", cwd=tmp_path)
    timed = run("score", PRED, GOLD, "--total-time-limit", "600", "--format", "json", "--quiet",
                cwd=tmp_path)
    assert plain.returncode == 0 and timed.returncode == 0, timed.stderr
    a, b = json.loads(plain.stdout), json.loads(timed.stdout)
    assert (b["matched_lower"], b["matched_upper"], b["micro"]) == (
        a["matched_lower"], a["matched_upper"], a["micro"])
    assert "total-timeout:600" in b["signature"] and "deterministic:no" in b["signature"]


@pytest.mark.parametrize("value", ["0", "-3", "inf", "soon"])
def test_cli_refuses_a_bad_total_time_limit(tmp_path, value):
    done = run("score", PRED, GOLD, "--total-time-limit", value, "--quiet", cwd=tmp_path)
    assert done.returncode == 2 and "--total-time-limit" in done.stderr
    assert "Traceback" not in done.stderr

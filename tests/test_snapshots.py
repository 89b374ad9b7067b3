"""The full output of every summary, in every format, on the shipped examples.

Each case runs the command line in a fresh process (``tests/clirun.py``) on a
copy of ``examples/`` and compares its whole standard output, standard error
and exit code with the snapshot in ``__snapshots__/test_snapshots.ambr``
(syrupy).  Only the versions of smatchpp and HiGHS in the signatures are
normalised; every number is kept.  After an intended change of an output, review
and update the snapshots with ``python3 -m pytest tests/test_snapshots.py --snapshot-update``.

The cases: certified; ``--work-limit 1`` (one pair uncertified, deterministic);
a time limit that stops a pair (deterministic through a fake clock: every reading
is one second later, so each deadline has passed when it is first checked);
weighted (``--match wsmatch``); ``--aspects``; ``--bootstrap 200`` certified and
uncertified; a metric without an alignment; ``compare`` (plain, aspects,
uncertified, metric) and ``gap``.  docs/presentation.md shows that each of
three one-character mutations of the formatting makes one of them fail.
"""

from __future__ import annotations

import re
import shutil

import pytest

from clirun import EXAMPLES, run, run_python

FORMATS = ("text", "json", "markdown", "latex")

P, G = "pred.amr", "gold.amr"
SCORE = {
    "certified": ("score", P, G),
    "work-limit": ("score", P, G, "--work-limit", "1"),
    "time-limit": ("score", P, G, "--time-limit", "0.5"),
    "wsmatch": ("score", P, G, "--match", "wsmatch"),
    "aspects": ("score", P, G, "--aspects"),
    "bootstrap": ("score", P, G, "--bootstrap", "200"),
    "bootstrap-uncertified": ("score", P, G, "--bootstrap", "200", "--work-limit", "1"),
    "metric": ("score", P, G, "--metric", "jaccard", "--bootstrap", "200"),
}
COMPARE = {
    "compare": ("compare", P, G, G),
    "compare-aspects": ("compare", P, G, G, "--aspects"),
    "compare-work-limit": ("compare", P, G, G, "--work-limit", "1"),
    "compare-metric": ("compare", P, G, G, "--metric", "jaccard"),
}
GAP = {"gap": ("gap", P, G)}
CASES = {**SCORE, **COMPARE, **GAP}

#: a fake clock for the time-limit case: each reading is one second after the last
FAKE_CLOCK = """
import sys
from smatchpp.solvers import base
from smatchpp import cli

after = base.Limits.after.__func__
ticks = [0.0]
def clock():
    ticks[0] += 1.0
    return ticks[0]
base.Limits.after = classmethod(lambda cls, t, budget=None, clock_=None: after(cls, t, budget, clock))
sys.exit(cli.main(sys.argv[1:]))
"""

_VERSIONS = re.compile(r"\b(smatchpp|highs):\d[^|\"\s`]*")


def normalise(text: str) -> str:
    """The output with the versions in its signatures replaced (``smatchpp:V``, ``highs:V``)."""
    return _VERSIONS.sub(r"\1:V", text)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("snapshots")
    for name in (P, G):
        shutil.copy(EXAMPLES / name, folder / name)
    return folder


def output(case: str, fmt: str, cwd) -> str:
    args = (*CASES[case], "--format", fmt, "--workers", "1", "--quiet")
    if case == "time-limit":
        done = run_python(FAKE_CLOCK, *args, cwd=cwd)
    else:
        done = run(*args, cwd=cwd)
    return normalise(f"exit {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}")


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", list(CASES))
def test_output(case, fmt, workdir, snapshot):
    assert output(case, fmt, workdir) == snapshot


def test_time_limit_case_stops_a_pair(workdir):
    """The fake clock really stops a pair (the snapshot would not show it otherwise)."""
    text = output("time-limit", "json", workdir)
    assert '"time_limit": 1' in text


def test_normalise_keeps_numbers():
    sig = "smatchpp:0.1.0|highs:1.16.0|preset:smatch|timeout:0.5|bootstrap:200|deterministic:yes"
    assert normalise(sig) == "smatchpp:V|highs:V|preset:smatch|timeout:0.5|bootstrap:200|deterministic:yes"
    assert normalise('"signature": "smatchpp:0.1.0|highs:1.16.0|x"') == '"signature": "smatchpp:V|highs:V|x"'

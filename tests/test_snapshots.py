"""The full output of every summary, in every format, on the shipped examples.

Each case runs the command line (``tests/clirun.py``, in this process) on a copy of
``examples/`` and compares its whole standard output, standard error and exit code
with the snapshot in ``__snapshots__/test_snapshots.ambr`` (syrupy).  The versions of
smatchpp and HiGHS in the signatures are normalised, and so is each signature: it is
written as its difference from the signature of the default run of its family
(``<signature>`` when equal, ``<signature +work:1 -aspects>`` for an entry added or
changed and one left out), so that a new signed setting changes one snapshot,
``test_signature``'s, which pins the two default signatures in full.  Every number
is kept.  After an intended change of an output, review and update the snapshots
with ``python3 -m pytest tests/test_snapshots.py --snapshot-update``.

The cases: certified; ``--work-limit 1`` (one pair uncertified, deterministic);
a time limit that stops a pair (deterministic through a fake clock: every reading
is one second later, so each deadline has passed when it is first checked);
weighted (``--match wsmatch``); ``--aspects``; ``--bootstrap 200`` certified and
uncertified; a metric without an alignment; ``compare`` (plain, aspects,
uncertified, metric) and ``gap``.  docs/presentation.md shows that each of
three one-character mutations of the formatting makes some of them fail.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from clirun import EXAMPLES, run

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

#: the default run of each family, whose signature the others are written against
DEFAULTS = {"alignment": ("score", P, G), "metric": ("score", P, G, "--metric", "jaccard")}


def fake_clock(monkeypatch) -> None:
    """A fake clock for the time-limit case: each reading is one second after the last."""
    from smatchpp.alignment.solvers import base

    after = base.Limits.after.__func__
    ticks = [0.0]

    def clock():
        ticks[0] += 1.0
        return ticks[0]

    monkeypatch.setattr(base.Limits, "after",
                        classmethod(lambda cls, t, budget=None, clock_=None: after(cls, t, budget, clock)))


_VERSIONS = re.compile(r"\b(smatchpp|highs):\d[^|\"\s`]*")
#: a signature as printed (after :func:`normalise`): up to a space, quote or backtick
_SIGNATURE = re.compile(r"smatchpp:V(?:\|[^|\"\s`]+)*")


def normalise(text: str) -> str:
    """The output with the versions in its signatures replaced (``smatchpp:V``, ``highs:V``)."""
    return _VERSIONS.sub(r"\1:V", text)


def difference(signature: str, defaults: dict[str, str]) -> str:
    """``signature`` written against the closest of the ``defaults`` signatures: its entries
    that the default lacks or has with another value (``+key:value``, in order) and the
    default's keys it lacks (``-key``).

    >>> difference("smatchpp:V|a:1|b:2", {"x": "smatchpp:V|a:1|b:2"})
    '<signature>'
    >>> difference("smatchpp:V|a:2|c:3", {"x": "smatchpp:V|a:1|b:2", "y": "smatchpp:V|m:j"})
    '<signature +a:2 +c:3 -b>'
    """
    def changes(default: str) -> list[str]:
        entries, base = signature.split("|"), default.split("|")
        keys = {entry.split(":", 1)[0] for entry in entries}
        return ([f"+{e}" for e in entries if e not in base]
                + [f"-{key}" for key in (e.split(":", 1)[0] for e in base) if key not in keys])

    closest = min((changes(d) for d in defaults.values()), key=len)
    return "<signature" + "".join(f" {c}" for c in closest) + ">"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("snapshots")
    for name in (P, G):
        shutil.copy(EXAMPLES / name, folder / name)
    return folder


def signature_of(args: tuple, cwd) -> str:
    done = run(*args, "--format", "json", "--workers", "1", "--quiet", cwd=cwd)
    assert done.returncode == 0, done.stderr
    return normalise(json.loads(done.stdout)["signature"])


@pytest.fixture(scope="module")
def defaults(workdir) -> dict[str, str]:
    """The signature of each family's default run (version-normalised)."""
    return {family: signature_of(args, workdir) for family, args in DEFAULTS.items()}


#: (case, format) -> its output; each case runs once per module, whichever test asks first
_OUTPUTS: dict[tuple[str, str], str] = {}


def output(case: str, fmt: str, cwd) -> str:
    """The case's exit code, stdout and stderr, versions normalised (signatures in full)."""
    if (case, fmt) not in _OUTPUTS:
        args = (*CASES[case], "--format", fmt, "--workers", "1", "--quiet")
        with pytest.MonkeyPatch.context() as patch:
            if case == "time-limit":
                fake_clock(patch)
            done = run(*args, cwd=cwd)
        _OUTPUTS[case, fmt] = normalise(f"exit {done.returncode}\n--- stdout\n{done.stdout}"
                                        f"--- stderr\n{done.stderr}")
    return _OUTPUTS[case, fmt]


def json_signature(case: str, cwd) -> str:
    text = output(case, "json", cwd)
    return json.loads(text.split("--- stdout\n", 1)[1].split("--- stderr\n", 1)[0])["signature"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", list(CASES))
def test_output(case, fmt, workdir, defaults, snapshot):
    text = output(case, fmt, workdir)
    # the signature, checked in full before the snapshot sees only its difference: the one
    # of the case's JSON, printed once, found whole by the pattern (nothing of it left over)
    assert _SIGNATURE.findall(text) == [json_signature(case, workdir)]
    shown = _SIGNATURE.sub(lambda m: difference(m.group(), defaults), text)
    assert "smatchpp:" not in shown and "highs:" not in shown
    assert shown == snapshot


def test_signature(defaults, snapshot):
    """The one snapshot that pins the signatures in full: the default run of each family."""
    assert "".join(f"{family}: {sig}\n" for family, sig in defaults.items()) == snapshot


def test_time_limit_case_stops_a_pair(workdir):
    """The fake clock really stops a pair (the snapshot would not show it otherwise)."""
    text = output("time-limit", "json", workdir)
    assert '"time_limit": 1' in text


def test_normalise_keeps_numbers():
    sig = "smatchpp:0.1.0|highs:1.16.0|preset:smatch|timeout:0.5|bootstrap:200|deterministic:yes"
    assert normalise(sig) == "smatchpp:V|highs:V|preset:smatch|timeout:0.5|bootstrap:200|deterministic:yes"
    assert normalise('"signature": "smatchpp:0.1.0|highs:1.16.0|x"') == '"signature": "smatchpp:V|highs:V|x"'

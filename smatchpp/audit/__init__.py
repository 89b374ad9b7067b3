"""Auditing heuristic Smatch: how far is a hill-climber from the exact optimum?

:func:`measure_gaps` compares per-pair ``matched`` of heuristic runs (our seeded
hill-climber with smatch's default of 4 random restarts, and optionally smatch
1.0.4 itself, run by another interpreter through :mod:`.smatch104_driver`)
with the exact scores.

>>> from smatchpp.api import score_corpus
>>> exact = score_corpus(["(a / b :ARG0 (c / d))"], ["(x / b :ARG0 (y / d))"])
>>> report = measure_gaps(exact, {"same": [4]})
>>> report.tools["same"].wrong_pairs, report.tools["same"].lost_triples
(0, 0.0)
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ..core.exceptions import UsageError
from ..alignment.score import CorpusScore, PairScore, prf
from ..reporting import present

__all__ = ["ToolGap", "GapReport", "measure_gaps", "run_smatch104", "check_smatch_python",
           "check_plotting", "plot_histogram", "SMATCH104_DRIVER", "HILLCLIMBER", "SMATCH104", "why_above",
           "format_gap", "audited", "SolvedCorpus", "solved_pair", "gap_rows"]

SMATCH104_DRIVER = Path(__file__).with_name("smatch104_driver.py")


@dataclass
class ToolGap:
    """How one heuristic tool compares with the exact scores.

    ``matched[k]`` and ``gaps[k]`` belong to the ``k``-th scored pair; both are
    ``None`` for a pair the tool could not read (listed in ``unreadable`` by
    pair index). ``f1`` and ``exact_f1`` cover the pairs the tool read.
    """

    name: str
    label: str
    matched: list[float | None]
    gaps: list[float | None]
    f1: float
    exact_f1: float
    wrong_pairs: int = 0
    lost_triples: float = 0.0
    histogram: dict[float, int] = field(default_factory=dict)
    unreadable: list[int] = field(default_factory=list)
    #: pair indices where the tool scores above a certified optimum (by more than its tolerance)
    above_optimum: list[int] = field(default_factory=list)
    #: pair indices where it scores above the exact solver's best on a pair a limit left uncertified
    above_lower_bound: list[int] = field(default_factory=list)
    #: width of the histogram's bins: 0 (exact values) for integral objectives, else 0.1
    histogram_bin: float = 0.0


@dataclass
class GapReport:
    """Exact corpus scores beside one :class:`ToolGap` per heuristic tool."""

    exact: CorpusScore
    tools: dict[str, ToolGap]

    def to_json(self) -> dict:
        s = self.exact.summary()
        return {
            "signature": s["signature"],
            "pairs": s["scored"], "exact_certified": s["optimal"],
            "exact_f1": s["micro"]["f1"], "exact_f1_interval": s["f1_interval"],
            "tools": {name: {"label": t.label, "f1": t.f1, "exact_f1_same_pairs": t.exact_f1,
                             "f1_difference": t.exact_f1 - t.f1,
                             "wrong_pairs": t.wrong_pairs, "lost_triples": t.lost_triples,
                             "histogram": _histogram(t.histogram), "histogram_bin": t.histogram_bin,
                             "unreadable": t.unreadable, "above_optimum": t.above_optimum,
                             "above_lower_bound": t.above_lower_bound}
                      for name, t in self.tools.items()},
        }


#: stable keys of the audited tools (JSON and --pairs-out keys)
HILLCLIMBER, SMATCH104 = "hillclimber", "smatch104"


def why_above(key: str) -> str:
    """What can make the tool ``key`` score above a certified optimum (the gap report says it)."""
    if key == HILLCLIMBER:
        return ("which our hill-climber cannot do (it scores the same compiled problem): "
                "a bug, please report it")
    duplicates = "which only counting a repeated triple's matches more than once can do"
    if key == SMATCH104:
        return duplicates + " (smatch 1.0.4's duplicate bug, its issues #15 and #28)"
    return duplicates


def format_gap(report: GapReport, fmt: str = "text", interrupted: dict | None = None,
               unit: str = "triple") -> str:
    """The gap report in ``fmt`` (:func:`smatchpp.reporting.present.gap_report`; ``interrupted``:
    ``{"finished": N, "total": M}`` when an interrupt stopped the run; ``unit``: what the metric
    matches, ``clause`` under ``--metric counter``).

    >>> from smatchpp.api import score_corpus
    >>> exact = score_corpus(["(a / b :ARG0 (c / d))"], ["(x / b :ARG0 (y / d))"])
    >>> print(format_gap(measure_gaps(exact, {"t": [3]}, {"t": "a tool"})).split(chr(10), 1)[1])
    pairs: 1, exact certified optimal: 1, exact micro F1 100.00
    a tool: F1 75.00 (25.00 points below exact), 1 pair below the optimum, 1 triple lost
      gap histogram (triples: pairs): 1: 1
    """
    summary = report.to_json()
    if interrupted:
        summary["interrupted"] = interrupted
    return present.gap_report(summary, fmt, why_above, unit)


def audited(cls: type) -> bool:
    """Whether ``gap --metric`` can audit ``cls``: a ``solver`` parameter with both an exact
    value (``exact``) and a heuristic one (``hillclimber``), and ``matched, upper`` as its
    first statistics.

    >>> from smatchpp.metrics import METRICS
    >>> audited(METRICS["counter"]), audited(METRICS["jaccard"])
    (True, False)
    """
    for name, _, f in cls.params():
        if name == "solver":
            choices = set(f.metadata.get("choices") or ())
            return {"exact", HILLCLIMBER} <= choices and tuple(cls.stat_names[:2]) == ("matched", "upper")
    return False


@dataclass
class SolvedCorpus:
    """The exact run of a solving metric as :func:`measure_gaps` reads a corpus (``gap --metric``):
    its scored pairs as :class:`~smatchpp.alignment.score.PairScore` (matched, proven upper
    bound, the two totals) and the summary's keys the gap report shows."""

    pairs: list[PairScore]
    signature: str

    @property
    def scored(self) -> list[PairScore]:
        return [p for p in self.pairs if p.status != "skipped"]

    def summary(self) -> dict:
        s = self.scored
        test, gold = sum(p.test_weight for p in s), sum(p.gold_weight for p in s)
        f1, upper = prf(sum(p.matched for p in s), test, gold)[2], prf(sum(p.upper for p in s), test, gold)[2]
        return {"signature": self.signature, "pairs": len(self.pairs), "scored": len(s),
                "optimal": sum(p.status == "optimal" for p in s), "micro": {"f1": f1},
                "f1_interval": [f1, upper]}


def solved_pair(pair, solver: str) -> PairScore:
    """A metric pair ``(matched, upper, test, gold, ...)`` as a :class:`PairScore`."""
    if pair.stats is None:
        return PairScore(pair.index, pair.id, 0.0, 0.0, 0, 0, "skipped", solver, error=pair.error)
    matched, upper, test, gold = pair.stats[:4]
    return PairScore(pair.index, pair.id, matched, upper, int(test), int(gold),
                     "optimal" if upper == matched else "time_limit", solver, error=pair.error,
                     test_total=test, gold_total=gold)


def gap_rows(scored: list[PairScore], report: GapReport) -> Iterator[dict]:
    """``gap --pairs-out``'s rows: each scored pair's exact result (``scored``: the pairs
    :func:`measure_gaps` audited, in its order) beside every tool's and its gap."""
    for k, p in enumerate(scored):
        row = {"index": p.index, "id": p.id, "exact": p.matched, "upper": p.upper,
               "status": p.status, "test_triples": p.test_triples,
               "gold_triples": p.gold_triples}
        for name, tool in report.tools.items():
            row[name] = tool.matched[k]
            row[f"gap_{name}"] = tool.gaps[k]
        yield row


def _bin(gap: float, step: float) -> float:
    """``gap`` rounded away from 0 to a multiple of ``step`` (``step`` 0: to 9 decimals).

    >>> _bin(0.0009, 0.1), _bin(0.25, 0.1), _bin(-0.25, 0.1), _bin(1.0, 0.1), _bin(0.0, 0.1), _bin(3.0, 0.0)
    (0.1, 0.3, -0.3, 1.0, 0.0, 3.0)
    """
    if step == 0 or gap == 0:
        return round(gap, 9)
    return math.copysign(round(math.ceil(abs(gap) / step - 1e-9) * step, 9), gap)


def _histogram(counts: dict[float, int]) -> dict[str, int]:
    """Gap -> pairs as JSON, in gap order, keyed by ``f"{gap:g}"`` (gaps that print alike add up).

    >>> _histogram({0.12345671: 1, 0.12345674: 2, -1.0: 3})
    {'-1': 3, '0.123457': 3}
    """
    out: dict[str, int] = {}
    for k, v in sorted(counts.items()):
        out[f"{k:g}"] = out.get(f"{k:g}", 0) + v
    return out


def measure_gaps(exact: CorpusScore, heuristic: dict[str, list[float | None]],
                 labels: dict[str, str] | None = None) -> GapReport:
    """Compare per-pair heuristic ``matched`` lists (in pair order) with ``exact``.

    ``heuristic`` maps a stable tool key to its results; ``None`` marks a pair
    the tool could not read, which is left out of that tool's comparison.
    ``labels`` gives each key a readable name (default: the key).
    A gap is ``exact.matched - heuristic``; for pairs whose exact status is
    not optimal it is a lower bound on the true gap.  A gap within the pair's
    certificate tolerance (``PairScore.tolerance``: 0 for integral objectives,
    ``Config.tolerance`` for soft or weighted matching) is 0: summing the same
    fractional weights in another order differs by rounding noise (1e-15), not
    by a triple.  The histogram counts the gaps themselves when every objective
    is integral; otherwise each gap is rounded away from 0 to a multiple of 0.1
    (``histogram_bin``), so that ``0.3`` counts the gaps in (0.2, 0.3].

    >>> from smatchpp.api import score_corpus
    >>> exact = score_corpus(["(a / b)", "(a / b :ARG0 (c / d))"], ["(x / b)", "(x / b :ARG0 (y / d))"])
    >>> t = measure_gaps(exact, {"t": [None, 3]}).tools["t"]
    >>> t.unreadable, t.gaps, t.wrong_pairs, round(t.f1, 2), t.exact_f1
    ([0], [None, 1.0], 1, 0.75, 1.0)
    """
    pairs = exact.scored
    labels = labels or {}
    step = 0.1 if any(p.tolerance > 0 for p in pairs) else 0.0
    tools = {}
    for name, matched in heuristic.items():
        if len(matched) != len(pairs):
            raise ValueError(f"{name}: {len(matched)} results for {len(pairs)} pairs")
        read = [(p, m) for p, m in zip(pairs, matched) if m is not None]
        test = sum(p.test_weight for p, _ in read)  # total weights under a weighted matcher
        gold = sum(p.gold_weight for p, _ in read)
        gaps = [None if m is None else _gap(p.matched - m, p.tolerance) for p, m in zip(pairs, matched)]
        known = [g for g in gaps if g is not None]
        wrong = [g for g in known if g > 0]
        above = [(p.index, p.status == "optimal") for p, g in zip(pairs, gaps) if g is not None and g < 0]
        tools[name] = ToolGap(name, labels.get(name, name), list(matched), gaps,
                              prf(sum(m for _, m in read), test, gold)[2],
                              prf(sum(p.matched for p, _ in read), test, gold)[2],
                              len(wrong), float(sum(wrong)),
                              dict(Counter(_bin(g, step) for g in known)),
                              [p.index for p, m in zip(pairs, matched) if m is None],
                              [i for i, certified in above if certified],
                              [i for i, certified in above if not certified], step)
    return GapReport(exact, tools)


def _gap(difference: float, tolerance: float) -> float:
    """``difference``, or 0 when it is within the certificate's ``tolerance``.

    >>> _gap(-7.105427357601002e-15, 1e-06), _gap(0.25, 1e-06), _gap(1.0, 0.0)
    (0.0, 0.25, 1.0)
    """
    return 0.0 if abs(difference) <= tolerance else float(difference)


def check_smatch_python(python: str) -> None:
    """Raise :class:`UsageError` unless ``python`` runs and can import smatch 1.0.4's modules."""
    try:
        done = subprocess.run([python, "-c", "import amr, smatch"], env=_clean_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              timeout=120)
    except OSError as exc:
        raise UsageError(f"--smatch-python {python}: cannot run it: {exc.strerror}") from None
    except subprocess.TimeoutExpired:
        raise UsageError(f"--smatch-python {python}: did not start within 120 s") from None
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"]
        raise UsageError(f"--smatch-python {python} cannot import smatch 1.0.4 ({tail[0]}); "
                         "give an interpreter with smatch==1.0.4 installed "
                         "(experiments/setup_peers.sh makes one)")


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def run_smatch104(python: str, test: str, gold: str, restarts: int = 4,
                  timeout: float | None = None) -> dict[int, float | None]:
    """Per-pair ``matched`` of smatch 1.0.4 run by ``python`` (an interpreter with smatch 1.0.4).

    Returns pair index -> matched, or ``None`` for a pair smatch 1.0.4 could
    not read (smatch itself would stop there). A failure of the whole run (an
    interpreter that does not start or lacks smatch) raises :class:`UsageError`.
    smatch 1.0.4 seeds its random restarts from the OS, so its results vary
    from run to run; that is the tool being audited.
    """
    check_smatch_python(python)
    with tempfile.TemporaryDirectory(prefix="smatchpp-gap-") as tmp:
        out = os.path.join(tmp, "pairs.jsonl")
        done = subprocess.run([python, str(SMATCH104_DRIVER), os.path.abspath(test),
                               os.path.abspath(gold), "--out", out, "--restarts", str(restarts)],
                              env=_clean_env(), timeout=timeout, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, cwd=tmp)
        if done.returncode != 0 or not os.path.exists(out):
            tail = done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"]
            raise UsageError(f"smatch 1.0.4 run by {python} failed: {tail[0]}")
        with open(out, encoding="utf-8") as handle:
            rows = [json.loads(line) for line in handle if line.strip()]
    return {int(r["index"]): (None if "error" in r else float(r["matched"])) for r in rows}


def check_plotting() -> None:
    """Raise :class:`UsageError` if matplotlib (the ``plot`` extra) is missing; call before scoring."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'smatchpp[plot]'") from None


def plot_histogram(report: GapReport, path: str) -> None:
    """Save the per-pair gaps of every tool as side-by-side bars with their counts (``plot`` extra)."""
    check_plotting()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tools = list(report.tools.values())
    values = sorted({g for t in tools for g in t.histogram}) or [0.0]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 + 0.9 * len(values) * max(1, len(tools)) / 2),
                                    4.0 + 0.2 * len(tools)))
    width = 0.8 / max(1, len(tools))
    top = 1
    for k, tool in enumerate(tools):
        counts = tool.histogram
        xs = [x + (k - (len(tools) - 1) / 2) * width for x in range(len(values))]
        heights = [counts.get(v, 0) for v in values]
        top = max(top, *heights)
        bars = ax.bar(xs, heights, width=width * 0.95,
                      label=f"{tool.label}: {tool.wrong_pairs} pairs below the optimum"
                            + (f", {len(tool.unreadable)} unreadable" if tool.unreadable else ""))
        ax.bar_label(bars, labels=[str(h) if h else "" for h in heights], fontsize=7, padding=1)
    ax.set_xticks(range(len(values)), [f"{v:g}" for v in values])
    ax.set_yscale("log")
    ax.set_ylim(0.8, top * 4)  # room for the counts above the tallest bars
    step = max((t.histogram_bin for t in tools), default=0.0)
    ax.set_xlabel("triples below the exact optimum"
                  + (f", rounded up to a multiple of {step:g}" if step else "")
                  + (" (< 0: repeated triples over-counted)" if values[0] < 0 else ""))
    ax.set_ylabel("pairs (log scale)")
    ax.set_title(f"Hill-climber gaps on {len(report.exact.scored)} pairs")
    # below the axes, where it cannot hide a bar or its count
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=1, frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)

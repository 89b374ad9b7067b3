"""Auditing heuristic Smatch: how far is a hill-climber from the exact optimum?

:func:`gap_report` compares per-pair ``matched`` of heuristic runs (our seeded
hill-climber with smatch's default of 4 random restarts, and optionally smatch
1.0.4 itself, run by another interpreter through :mod:`.smatch104_driver`)
with the exact scores.

>>> from smatchpp.api import score_corpus
>>> exact = score_corpus(["(a / b :ARG0 (c / d))"], ["(x / b :ARG0 (y / d))"])
>>> report = gap_report(exact, {"same": [4]})
>>> report.tools["same"].wrong_pairs, report.tools["same"].lost_triples
(0, 0.0)
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..score import CorpusScore, prf

__all__ = ["ToolGap", "GapReport", "gap_report", "run_smatch104", "SMATCH104_DRIVER"]

SMATCH104_DRIVER = Path(__file__).with_name("smatch104_driver.py")


@dataclass
class ToolGap:
    """How one heuristic tool compares with the exact scores."""

    name: str
    matched: list[float]
    gaps: list[float]
    f1: float
    wrong_pairs: int = 0
    lost_triples: float = 0.0
    histogram: dict[float, int] = field(default_factory=dict)


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
            "tools": {name: {"f1": t.f1, "f1_difference": s["micro"]["f1"] - t.f1,
                             "wrong_pairs": t.wrong_pairs, "lost_triples": t.lost_triples,
                             "histogram": {f"{k:g}": v for k, v in sorted(t.histogram.items())}}
                      for name, t in self.tools.items()},
        }


def gap_report(exact: CorpusScore, heuristic: dict[str, list[float]]) -> GapReport:
    """Compare per-pair heuristic ``matched`` lists (in pair order) with ``exact``.

    A gap is ``exact.matched - heuristic``; for pairs whose exact status is
    not optimal it is a lower bound on the true gap.
    """
    pairs = exact.scored
    test = sum(p.test_triples for p in pairs)
    gold = sum(p.gold_triples for p in pairs)
    tools = {}
    for name, matched in heuristic.items():
        if len(matched) != len(pairs):
            raise ValueError(f"{name}: {len(matched)} results for {len(pairs)} pairs")
        gaps = [p.matched - m for p, m in zip(pairs, matched)]
        wrong = [g for g in gaps if g > 0]
        tools[name] = ToolGap(name, list(matched), gaps, prf(sum(matched), test, gold)[2],
                              len(wrong), float(sum(wrong)), dict(Counter(gaps)))
    return GapReport(exact, tools)


def run_smatch104(python: str, test: str, gold: str, restarts: int = 4,
                  timeout: float | None = None) -> list[float]:
    """Per-pair ``matched`` of smatch 1.0.4 run by ``python`` (an interpreter with smatch 1.0.4).

    smatch 1.0.4 seeds its random restarts from the OS, so its results vary
    from run to run; that is the tool being audited.
    """
    with tempfile.TemporaryDirectory(prefix="smatchpp-gap-") as tmp:
        out = os.path.join(tmp, "pairs.jsonl")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        done = subprocess.run([python, str(SMATCH104_DRIVER), os.path.abspath(test),
                               os.path.abspath(gold), "--out", out, "--restarts", str(restarts)],
                              env=env, timeout=timeout, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, cwd=tmp)
        if done.returncode != 0:
            tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
            raise RuntimeError(f"smatch 1.0.4 run by {python} failed: {tail[0]}")
        with open(out, encoding="utf-8") as handle:
            rows = [json.loads(line) for line in handle if line.strip()]
    rows.sort(key=lambda r: r["index"])
    bad = [r["index"] for r in rows if "error" in r]
    if bad:
        raise RuntimeError(f"smatch 1.0.4 could not read pairs {bad[:10]}")
    return [float(r["matched"]) for r in rows]


def plot_histogram(report: GapReport, path: str) -> None:
    """Save a histogram of the per-pair gaps of every tool (needs the ``plot`` extra)."""
    try:
        import matplotlib
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("plotting needs matplotlib: pip install 'smatchpp[plot]'") from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    top = max((max(t.gaps, default=0) for t in report.tools.values()), default=0)
    low = min((min(t.gaps, default=0) for t in report.tools.values()), default=0)
    bins = [b - 0.5 for b in range(int(low), int(top) + 2)]
    for name, tool in report.tools.items():
        ax.hist(tool.gaps, bins=bins, alpha=0.6, label=f"{name} ({tool.wrong_pairs} pairs wrong)")
    ax.set_yscale("log")
    ax.set_xlabel("triples below the exact optimum"
                  + (" (< 0: repeated triples over-counted)" if low < 0 else ""))
    ax.set_ylabel("pairs")
    ax.set_title(f"Hill-climber gaps on {len(report.exact.scored)} pairs")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)

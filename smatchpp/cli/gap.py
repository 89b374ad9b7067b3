"""``smatchpp gap TEST GOLD``: how far a hill-climber is from the exact optimum.

The hill-climber is ours with smatch's default of 4 random restarts; with
``--smatch-python`` smatch 1.0.4 itself runs too, through that interpreter.
A pair smatch 1.0.4 cannot read is reported as such and left out of its
comparison; the rest is audited.  Tools have stable keys (``hillclimber``,
``smatch104``) in ``--format json`` and ``--pairs-out`` (``gap_<key>``).

``--metric NAME`` audits another metric that solves each pair with a ``solver`` parameter
offering both ``exact`` and ``hillclimber`` (``counter``): the exact run and the heuristic
run are two instances of that metric, differing only in the solver, scored row by row
(:func:`smatchpp.cli.app.score_rows`); their matched counts (the first statistic, the
second being the proven upper bound) give the same report.  A metric without such a solver
is refused.
"""

from __future__ import annotations

import argparse
import sys

from dataclasses import dataclass, replace
from typing import Any

from ..reporting import present
from ..alignment.score import PairScore, prf
from ..alignment.solvers import get_solver
from ..metrics import METRICS, Metric
from ..metrics.alignment import AlignmentMetric
from ..audit import (GapReport, check_plotting, check_smatch_python, measure_gaps, plot_histogram,
                     run_smatch104)
from ..core.exceptions import SmatchppError, UsageError
from ..graphs.read import STDIN
from .app import aligns, collect, read_pairs, score_rows
from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, INTERRUPTS, add_scoring_options, check_outputs,
                     config_from_args, emit, pairs_output, warn, plural, warn_unreadable, workers_from_args)
from .metric import ALIGNMENT, RunSettings, add_metric_options, alignment_run, run_from_args

__all__ = ["add_parser", "run", "format_gap"]


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("gap", help="audit: how far a hill-climber (ours with smatch's default "
                                   "restarts, optionally smatch 1.0.4 itself) is from the exact optimum")
    add_scoring_options(p)
    p.add_argument("--smatch-python", metavar="PYTHON",
                   help="also run smatch 1.0.4 with this interpreter (one that has smatch==1.0.4)")
    p.add_argument("--plot", metavar="FILE.png", help="save a histogram of the gaps (needs matplotlib)")
    p.add_argument("--format", choices=present.FORMATS, default="text")
    p.add_argument("--pairs-out", metavar="FILE.jsonl", help="per-pair exact and heuristic results")
    add_metric_options(p)
    return p


#: stable keys of the audited tools (JSON and --pairs-out keys)
HILLCLIMBER, SMATCH104 = "hillclimber", "smatch104"
#: what a metric's matched count counts, in the text report (the JSON keys stay ``..._triples``)
UNITS = {ALIGNMENT: "triple", "counter": "clause"}


def _why_above(key: str) -> str:
    """What can make a tool score above a certified optimum."""
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
    >>> from smatchpp.audit import measure_gaps
    >>> exact = score_corpus(["(a / b :ARG0 (c / d))"], ["(x / b :ARG0 (y / d))"])
    >>> print(format_gap(measure_gaps(exact, {"t": [3]}, {"t": "a tool"})).split(chr(10), 1)[1])
    pairs: 1, exact certified optimal: 1, exact micro F1 100.00
    a tool: F1 75.00 (25.00 points below exact), 1 pair below the optimum, 1 triple lost
      gap histogram (triples: pairs): 1: 1
    """
    summary = report.to_json()
    if interrupted:
        summary["interrupted"] = interrupted
    return present.gap_report(summary, fmt, _why_above, unit)


def audited(cls: type[Metric]) -> bool:
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
class _MetricCorpus:
    """The exact run of a solving metric as :func:`~smatchpp.audit.measure_gaps` reads a corpus:
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


def _pair_score(pair, solver: str) -> PairScore:
    """A metric pair ``(matched, upper, test, gold, ...)`` as a :class:`PairScore`."""
    if pair.stats is None:
        return PairScore(pair.index, pair.id, 0.0, 0.0, 0, 0, "skipped", solver, error=pair.error)
    matched, upper, test, gold = pair.stats[:4]
    return PairScore(pair.index, pair.id, matched, upper, int(test), int(gold),
                     "optimal" if upper == matched else "time_limit", solver, error=pair.error,
                     test_total=test, gold_total=gold)


def _audited(args: argparse.Namespace) -> tuple[Metric, Metric, RunSettings, str]:
    """The one place where the families differ: the exact metric of the options (or of
    ``--signature``), its heuristic twin (the same metric with the hill-climber and no
    compression), the run's settings, and the heuristic's label.  The alignment family's
    settings are its Config's (``--solver`` is fixed to ``exact``); another metric must be
    :func:`audited` and takes no ``--smatch-python`` or ``--bootstrap``."""
    if not _names_alignment(args):
        if args.smatch_python:
            raise UsageError(f"--smatch-python runs smatch 1.0.4, which scores AMR: it does nothing under "
                             f"--metric {args.metric}")
        if getattr(args, "solver", None) not in (None, "exact"):
            raise UsageError(f"--solver {args.solver} does nothing here: this command uses --solver exact "
                             f"and {HILLCLIMBER}")
        plot = args.plot
        args.plot = None  # gap's own option, not the metric's
        exact, settings = run_from_args(args)  # the metric of the options, or of --signature
        args.plot = plot
    else:
        exact, settings = alignment_run(config_from_args(args, solver="exact"))
    if aligns(exact):
        config = exact.config.replace(solver=HILLCLIMBER, compression="none")
        return (exact, AlignmentMetric(config), settings,
                f"{HILLCLIMBER} (ours, {plural(config.restarts, 'restart')}, seed {config.seed})")
    if not audited(type(exact)):
        raise UsageError(f"gap --metric {args.metric}: {args.metric} has no solver with an exact and a "
                         f"heuristic value to compare; gap audits {ALIGNMENT} (the default) or "
                         + ", ".join(sorted(n for n, c in METRICS.items() if n != ALIGNMENT and audited(c))))
    if settings.bootstrap:
        raise UsageError("--bootstrap does nothing here: gap reports the exact and the heuristic scores")
    if exact.solver != "exact":  # a signature's
        raise UsageError(f"--signature sets {exact.name}-solver:{exact.solver}, which this command does not "
                         f"take: it uses solver exact and {HILLCLIMBER}")
    hc = get_solver(HILLCLIMBER)
    return (exact, replace(exact, solver=HILLCLIMBER, compression="none"), settings,
            f"{HILLCLIMBER} (ours, {plural(hc.restarts, 'restart')}, seed {hc.seed})")


def _names_alignment(args: argparse.Namespace) -> bool:
    """Whether the options name the alignment family (``--metric`` or ``--signature``)."""
    return getattr(args, "metric", ALIGNMENT) == ALIGNMENT and "|metric:" not in (getattr(args, "signature", None) or "")


def _exact_corpus(exact: Metric, rows: list, settings: RunSettings) -> tuple[Any, dict[int, float | None]]:
    """The exact run as :func:`~smatchpp.audit.measure_gaps` reads it (the pairs' certificates:
    the alignment family's own corpus, another metric's :class:`_MetricCorpus`) and each pair's
    heuristic matched count by index."""
    if aligns(exact):
        corpus = exact.corpus([e for e, _ in rows], settings.on_error, settings.bootstrap,
                              settings.bootstrap_seed).detail
        return corpus, {h.index: h.detail.matched for _, h in rows}
    corpus = _MetricCorpus([_pair_score(e, "exact") for e, _ in rows], settings.signature(exact))
    return corpus, {h.index: (None if h.stats is None else h.stats[0]) for _, h in rows}


def _write_pairs(path: str | None, signature: str, scored: list, report: GapReport) -> None:
    """``--pairs-out``: each scored pair's exact result beside every tool's and its gap."""
    if not path:
        return
    with pairs_output(path, signature) as out:
        for k, p in enumerate(scored):
            row = {"index": p.index, "id": p.id, "exact": p.matched, "upper": p.upper,
                   "status": p.status, "test_triples": p.test_triples,
                   "gold_triples": p.gold_triples}
            for name, tool in report.tools.items():
                row[name] = tool.matched[k]
                row[f"gap_{name}"] = tool.gaps[k]
            out.write(row)


def run(args: argparse.Namespace) -> int:
    """One road for every audited metric: the exact and the heuristic metric (:func:`_audited`),
    the inputs read and paired, both scored row by row (an interrupt keeps whole pairs), smatch
    1.0.4 too under ``--smatch-python`` (the alignment family's), the report, ``--pairs-out``
    and ``--plot``, the exit code."""
    exact, climber, settings, label = _audited(args)
    check_outputs({"--pairs-out": args.pairs_out, "--plot": args.plot}, [args.test, args.gold])
    if args.smatch_python and STDIN in (args.test, args.gold):
        raise UsageError("--smatch-python runs smatch 1.0.4 on the files themselves: give both "
                         "inputs as files, not - (standard input)")
    if args.plot:
        check_plotting()
    if args.smatch_python:
        check_smatch_python(args.smatch_python)
    workers = workers_from_args(args)
    inputs = read_pairs(args, ("test", "gold"), settings.on_error)
    if inputs is None:
        return EXIT_USAGE
    entries_a, entries_b = inputs.entries
    # the exact and the heuristic score of a pair come together: an interrupt keeps whole pairs
    run = collect(args, lambda client: score_rows([(exact, entries_a, entries_b), (climber, entries_a, entries_b)],
                                                  settings.on_error, workers),
                  workers, inputs.total, progress=True)
    rows, interrupted = run.results, run.interrupted
    total = len(entries_a)
    signature = settings.signature(exact)
    corpus, by_index = _exact_corpus(exact, rows, settings)
    heuristic: dict[str, list] = {HILLCLIMBER: [by_index[p.index] for p in corpus.scored]}
    labels = {HILLCLIMBER: label}
    if args.smatch_python and not interrupted:
        try:
            smatch = run_smatch104(args.smatch_python, args.test, args.gold, exact.config.restarts)
        except INTERRUPTS:
            interrupted = True
        else:
            if len(smatch) != len(entries_a):
                raise SmatchppError(f"smatch 1.0.4 found {plural(len(smatch), 'pair')} in the inputs, "
                                    f"smatchpp {len(entries_a)}: the pairs cannot be matched up")
            heuristic[SMATCH104] = [smatch[p.index] for p in corpus.scored]
            labels[SMATCH104] = f"smatch 1.0.4 ({plural(exact.config.restarts, 'restart')})"
    if interrupted:
        print(f"smatchpp: interrupted: {len(rows)} of {plural(total, 'pair')} finished"
              + ("; smatch 1.0.4 not run" if args.smatch_python and SMATCH104 not in heuristic else "")
              + "; the report covers those only", file=sys.stderr)
    report = measure_gaps(corpus, heuristic, labels)  # type: ignore[arg-type]
    _write_pairs(args.pairs_out, signature, corpus.scored, report)
    if args.plot:
        plot_histogram(report, args.plot)
    emit(format_gap(report, args.format, {"finished": len(rows), "total": total} if interrupted else None,
                    UNITS.get(exact.name, "item")))
    warn_unreadable(inputs.errors, settings.on_error)
    if corpus.pairs and not corpus.scored:
        warn(f"no pair was scored (all {plural(len(corpus.pairs), 'pair')} skipped): "
             "the scores above are 0 by convention")
    return EXIT_INTERRUPTED if interrupted else EXIT_OK

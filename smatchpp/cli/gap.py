"""``smatchpp gap TEST GOLD``: how far a hill-climber is from the exact optimum.

The hill-climber is ours with smatch's default of 4 random restarts; with
``--smatch-python`` smatch 1.0.4 itself runs too, through that interpreter.
A pair smatch 1.0.4 cannot read is reported as such and left out of its
comparison; the rest is audited.  Tools have stable keys (``hillclimber``,
``smatch104``) in ``--format json`` and ``--pairs-out`` (``gap_<key>``).
"""

from __future__ import annotations

import argparse
import sys

from ..reporting import present
from ..api import Scorer, iter_score_rows
from ..audit import (GapReport, check_plotting, check_smatch_python, measure_gaps, plot_histogram,
                     run_smatch104)
from ..core.exceptions import SmatchppError, UsageError
from ..graphs.read import STDIN
from .app import collect, read_pairs
from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, INTERRUPTS, add_scoring_options, check_outputs,
                     config_from_args, emit, pairs_output, plural, warn_unreadable, workers_from_args)
from .score import warn_nothing_scored

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
    return p


#: stable keys of the audited tools (JSON and --pairs-out keys)
HILLCLIMBER, SMATCH104 = "hillclimber", "smatch104"


def _why_above(key: str) -> str:
    """What can make a tool score above a certified optimum."""
    if key == HILLCLIMBER:
        return ("which our hill-climber cannot do (it scores the same compiled problem): "
                "a bug, please report it")
    duplicates = "which only counting a repeated triple's matches more than once can do"
    if key == SMATCH104:
        return duplicates + " (smatch 1.0.4's duplicate bug, its issues #15 and #28)"
    return duplicates


def format_gap(report: GapReport, fmt: str = "text", interrupted: dict | None = None) -> str:
    """The gap report in ``fmt`` (:func:`smatchpp.reporting.present.gap_report`; ``interrupted``:
    ``{"finished": N, "total": M}`` when an interrupt stopped the run).

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
    return present.gap_report(summary, fmt, _why_above)




def run(args: argparse.Namespace) -> int:
    config = config_from_args(args, solver="exact")
    check_outputs({"--pairs-out": args.pairs_out, "--plot": args.plot}, [args.test, args.gold])
    if args.smatch_python and STDIN in (args.test, args.gold):
        raise UsageError("--smatch-python runs smatch 1.0.4 on the files themselves: give both "
                         "inputs as files, not - (standard input)")
    if args.plot:
        check_plotting()
    if args.smatch_python:
        check_smatch_python(args.smatch_python)
    workers = workers_from_args(args)
    inputs = read_pairs(args, ("test", "gold"), config.on_error)
    if inputs is None:
        return EXIT_USAGE
    entries_a, entries_b = inputs.entries
    errors = inputs.errors
    exact_scorer = Scorer(config)
    climber = Scorer(config.replace(solver="hillclimber", compression="none"))
    # the exact and the heuristic score of a pair come together: an interrupt keeps whole pairs
    run = collect(args, lambda client: iter_score_rows([(exact_scorer, entries_a, entries_b),
                                                        (climber, entries_a, entries_b)], workers, False),
                  workers, inputs.total, progress=True)
    rows, interrupted = run.results, run.interrupted
    total = len(entries_a)
    exact = exact_scorer.corpus([e for e, _ in rows])
    by_index = {h.index: h.matched for _, h in rows}
    heuristic: dict[str, list] = {HILLCLIMBER: [by_index[p.index] for p in exact.scored]}
    labels = {HILLCLIMBER: f"hillclimber (ours, {plural(config.restarts, 'restart')}, seed {config.seed})"}
    if args.smatch_python and not interrupted:
        try:
            smatch = run_smatch104(args.smatch_python, args.test, args.gold, config.restarts)
        except INTERRUPTS:
            interrupted = True
        else:
            if len(smatch) != len(entries_a):
                raise SmatchppError(f"smatch 1.0.4 found {plural(len(smatch), 'pair')} in the inputs, "
                                    f"smatchpp {len(entries_a)}: the pairs cannot be matched up")
            heuristic[SMATCH104] = [smatch[p.index] for p in exact.scored]
            labels[SMATCH104] = f"smatch 1.0.4 ({plural(config.restarts, 'restart')})"
    if interrupted:
        print(f"smatchpp: interrupted: {len(rows)} of {plural(total, 'pair')} finished"
              + ("; smatch 1.0.4 not run" if args.smatch_python and SMATCH104 not in heuristic else "")
              + "; the report covers those only", file=sys.stderr)
    report = measure_gaps(exact, heuristic, labels)
    if args.pairs_out:
        with pairs_output(args.pairs_out, exact_scorer.signature) as out:
            for k, p in enumerate(exact.scored):
                row = {"index": p.index, "id": p.id, "exact": p.matched, "upper": p.upper,
                       "status": p.status, "test_triples": p.test_triples,
                       "gold_triples": p.gold_triples}
                for name, tool in report.tools.items():
                    row[name] = tool.matched[k]
                    row[f"gap_{name}"] = tool.gaps[k]
                out.write(row)
    if args.plot:
        plot_histogram(report, args.plot)
    emit(format_gap(report, args.format,
                    {"finished": len(rows), "total": total} if interrupted else None))
    warn_unreadable(errors, config.on_error)
    warn_nothing_scored(exact)
    return EXIT_INTERRUPTED if interrupted else EXIT_OK

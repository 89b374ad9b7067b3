"""``smatchpp gap TEST GOLD``: how far a hill-climber is from the exact optimum.

The hill-climber is ours with smatch's default of 4 random restarts; with
``--smatch-python`` smatch 1.0.4 itself runs too, through that interpreter.
"""

from __future__ import annotations

import argparse
import json

from ..api import Scorer, read_errors
from ..audit import GapReport, gap_report, plot_histogram, run_smatch104
from ..exceptions import UsageError
from ..read import STDIN
from .common import (EXIT_OK, EXIT_USAGE, add_scoring_options, check_outputs, config_from_args,
                     open_output, read_inputs, workers_from_args)
from .score import report_unreadable, warn_nothing_scored, warn_unreadable

__all__ = ["add_parser", "run", "format_gap"]


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("gap", help="audit: how far a hill-climber (ours with smatch's default "
                                   "restarts, optionally smatch 1.0.4 itself) is from the exact optimum")
    add_scoring_options(p)
    p.add_argument("--smatch-python", metavar="PYTHON",
                   help="also run smatch 1.0.4 with this interpreter (one that has smatch==1.0.4)")
    p.add_argument("--plot", metavar="FILE.png", help="save a histogram of the gaps (needs matplotlib)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--pairs-out", metavar="FILE.jsonl", help="per-pair exact and heuristic results")
    return p


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def format_gap(report: GapReport) -> str:
    """The human-readable gap report."""
    s = report.to_json()
    lines = [s["signature"],
             f"pairs: {s['pairs']}, exact certified optimal: {s['exact_certified']}, "
             f"exact micro F1 {_pct(s['exact_f1'])}"]
    for name, t in s["tools"].items():
        lines.append(f"{name}: F1 {_pct(t['f1'])} ({100 * t['f1_difference']:+.2f} points below exact), "
                     f"{t['wrong_pairs']} pairs below the optimum, {t['lost_triples']:g} triples lost")
        lines.append("  gap histogram (triples: pairs): "
                     + ", ".join(f"{k}: {v}" for k, v in t["histogram"].items()))
        above = sum(v for k, v in t["histogram"].items() if float(k) < 0)
        if above:
            lines.append(f"  {above} pairs score above the certified optimum, which only counting a "
                         "repeated triple's matches more than once can do (smatch 1.0.4's duplicate "
                         "bug, its issues #15 and #28)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args, solver="exact")
    check_outputs({"--pairs-out": args.pairs_out, "--plot": args.plot}, [args.test, args.gold])
    if args.smatch_python and STDIN in (args.test, args.gold):
        raise UsageError("--smatch-python runs smatch 1.0.4 on the files themselves: give both "
                         "inputs as files, not - (standard input)")
    workers = workers_from_args(args)
    entries_a, entries_b = read_inputs(args)
    errors = read_errors(entries_a, entries_b)
    if report_unreadable(errors, config.on_error):
        return EXIT_USAGE
    exact = Scorer(config).score_corpus(entries_a, entries_b, workers=workers, progress=not args.quiet)
    climber = Scorer(config.replace(solver="hillclimber", compression="none"))
    heuristic_run = climber.score_corpus(entries_a, entries_b, workers=workers)
    by_index = {p.index: p.matched for p in heuristic_run.pairs}
    label = f"hillclimber (ours, {args.restarts} restarts, seed {args.seed})"
    heuristic = {label: [by_index[p.index] for p in exact.scored]}
    if args.smatch_python:
        smatch = run_smatch104(args.smatch_python, args.test, args.gold, args.restarts)
        heuristic[f"smatch 1.0.4 ({args.restarts} restarts)"] = [smatch[p.index] for p in exact.scored]
    report = gap_report(exact, heuristic)
    if args.pairs_out:
        with open_output(args.pairs_out) as out:
            for k, p in enumerate(exact.scored):
                row = {"index": p.index, "id": p.id, "exact": p.matched, "upper": p.upper,
                       "status": p.status, "test_triples": p.test_triples,
                       "gold_triples": p.gold_triples}
                for name, tool in report.tools.items():
                    row[name] = tool.matched[k]
                    row[f"gap {name}"] = tool.gaps[k]
                out.write(json.dumps(row) + "\n")
    if args.plot:
        plot_histogram(report, args.plot)
    if args.format == "json":
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(format_gap(report))
    warn_unreadable(errors, config.on_error)
    warn_nothing_scored(exact)
    return EXIT_OK

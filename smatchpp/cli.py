"""Command line: a thin layer over :mod:`smatchpp.api`.

    smatchpp score PRED.amr GOLD.amr [--solver exact] [--time-limit S] [--format json]
                                     [--pairs-out pairs.jsonl] [--on-error raise|empty|skip]

Exit codes: 0 success, 2 unreadable input or bad usage.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
import json
import sys
from typing import Sequence

from . import __version__


from .api import Config, Scorer, default_workers, read_errors
from .audit import GapReport, gap_report, plot_histogram, run_smatch104
from .exceptions import InputMismatchError, ReadError
from .read import read_file
from .score import CorpusScore
from .solvers import SOLVERS

__all__ = ["main", "build_parser"]


def _add_scoring_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("test", help="graphs to evaluate (A: parser output / prediction)")
    p.add_argument("gold", help="reference graphs (B: gold), same number and order")
    p.add_argument("--input-format", choices=("auto", "penman", "tsv"), default="auto",
                   help="input format (auto: .tsv files are TSV, others PENMAN)")
    p.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                   help="time limit per pair; on timeout the pair reports [lower, upper]")
    p.add_argument("--seed", type=int, default=1, help="seed of the hill-climber (default 1)")
    p.add_argument("--restarts", type=int, default=4,
                   help="random restarts of the hill-climber when it is the solver, and in gap "
                        "(default 4, as smatch); the exact solver needs none")
    p.add_argument("--on-error", choices=("raise", "empty", "skip"), default="raise",
                   help="unreadable graph: stop (default), score it as empty, or skip the pair")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes (default: all cores); results do not depend on it")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--compression", choices=("exact", "none", "smatchpp"), default="exact",
                   help="exact (default): shrink each problem without changing its optimum; "
                        "none; smatchpp: smatchpp 1.8's concept-as-identity rewrite, "
                        "a different metric (not Smatch)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="smatchpp", description="Exact, certified Smatch.")
    parser.add_argument("--version", action="version", version=f"smatchpp {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="score a test file against a gold file")
    _add_scoring_options(score)
    score.add_argument("--solver", choices=SOLVERS, default="exact",
                       help="exact (default: hill-climber + bounds + HiGHS), highs, cbc, hillclimber")
    score.add_argument("--format", choices=("text", "json"), default="text",
                       help="format of the corpus summary on stdout")
    score.add_argument("--pairs-out", metavar="FILE.jsonl",
                       help="write one JSON object per pair to this file")
    score.add_argument("--alignments", action="store_true",
                       help="include each pair's variable alignment in --pairs-out")
    score.add_argument("--stats", action="store_true",
                       help="print problem sizes before/after compression per pair and in total (stderr)")
    gap = sub.add_parser("gap", help="audit: how far a hill-climber (ours with smatch's default "
                                     "restarts, optionally smatch 1.0.4 itself) is from the exact optimum")
    _add_scoring_options(gap)
    gap.add_argument("--smatch-python", metavar="PYTHON",
                     help="also run smatch 1.0.4 with this interpreter (one that has smatch==1.0.4)")
    gap.add_argument("--plot", metavar="FILE.png", help="save a histogram of the gaps (needs matplotlib)")
    gap.add_argument("--format", choices=("text", "json"), default="text")
    gap.add_argument("--pairs-out", metavar="FILE.jsonl", help="per-pair exact and heuristic results")
    return parser


def _read_inputs(args: argparse.Namespace):
    entries_a = read_file(args.test, args.input_format)
    entries_b = read_file(args.gold, args.input_format)
    if len(entries_a) != len(entries_b):
        raise InputMismatchError(f"{args.test} has {len(entries_a)} graphs but "
                                 f"{args.gold} has {len(entries_b)}: the files must be parallel")
    return entries_a, entries_b


def _pct(x: float) -> str:
    return f"{100 * x:.2f}"


def format_text(corpus: CorpusScore) -> str:
    """The human-readable corpus summary."""
    s = corpus.summary()
    lines = [s["signature"]]
    if "compression:smatchpp" in s["signature"]:
        lines.append("NOTE: compression=smatchpp is smatchpp 1.8's concept-as-identity metric: "
                     "these are not Smatch scores")
    skipped = s["status_counts"].get("skipped", 0)
    lines.append(f"pairs: {s['pairs']} scored: {s['scored']}"
                 + (f" skipped: {skipped}" if skipped else "")
                 + f" certified optimal: {s['optimal']}")
    for name in ("micro", "macro"):
        m = s[name]
        lines.append(f"{name:5s}  P {_pct(m['precision'])}  R {_pct(m['recall'])}  F1 {_pct(m['f1'])}")
    lo, hi = s["f1_interval"]
    lines.append(f"matched: {s['matched_lower']} (upper bound {s['matched_upper']}) "
                 f"of test {s['test_triples']} / gold {s['gold_triples']} triples; "
                 f"micro F1 in [{_pct(lo)}, {_pct(hi)}]")
    if s["certified_by"]:
        lines.append("certified by: " + ", ".join(f"{k} {v}" for k, v in sorted(s["certified_by"].items())))
    return "\n".join(lines)


def format_stats(corpus: CorpusScore) -> str:
    """Per pair and total problem sizes before/after compression, with time and stage."""
    keys = ("vars_a", "vars_b", "pairs_before", "pairs_after", "edges_before", "edges_after",
            "components_before", "components_after", "pairs_fixed", "pairs_dropped",
            "elimination_steps", "mip_pairs", "symmetric_vars")
    head = "index " + " ".join(f"{k:>17s}" for k in keys) + "   seconds stage"
    lines = [head]
    total = dict.fromkeys(keys, 0)
    for p in corpus.scored:
        s = {k: p.stats.get(k, "-") for k in keys}
        for k in keys:
            if isinstance(s[k], int):
                total[k] += s[k]
        lines.append(f"{p.index:5d} " + " ".join(f"{s[k]!s:>17s}" for k in keys)
                     + f" {p.seconds:9.3f} {p.stage}")
    lines.append("total " + " ".join(f"{total[k]!s:>17s}" for k in keys)
                 + f" {sum(p.seconds for p in corpus.scored):9.3f}")
    lines.append("('-': not reached; e.g. certified by a bound before compression was needed. "
                 "pairs_dropped: ruled out by LP reduced costs in the last elimination step; "
                 "elimination_steps: problems solved without them; mip_pairs: sent to the MIP; "
                 "symmetric_vars: interchangeable variables the MIP ordered)")
    return "\n".join(lines)


def _config(args: argparse.Namespace, solver: str) -> Config:
    return Config(solver=solver, time_limit=args.time_limit, seed=args.seed,
                  restarts=args.restarts, on_error=args.on_error, compression=args.compression)


def _run(args: argparse.Namespace, config: Config):
    """Read both files and score them; ``None`` (after printing why) if input is unreadable."""
    entries_a, entries_b = _read_inputs(args)
    errors = read_errors(entries_a, entries_b)
    if errors and config.on_error == "raise":
        for e in errors:
            print(f"smatchpp: error: {e}", file=sys.stderr)
        print(f"smatchpp: {len(errors)} unreadable graph(s); nothing scored. "
              "Use --on-error empty or --on-error skip to score the rest.", file=sys.stderr)
        return None
    workers = args.workers if args.workers is not None else default_workers()
    corpus = Scorer(config).score_corpus(entries_a, entries_b, workers=workers,
                                         progress=not args.quiet)
    return entries_a, entries_b, errors, corpus


def _warn(errors: list, config: Config) -> None:
    if errors:
        action = "scored as empty graphs" if config.on_error == "empty" else "pairs skipped"
        print(f"smatchpp: warning: {len(errors)} unreadable graph(s), {action}:", file=sys.stderr)
        for e in errors:
            print(f"  {e}", file=sys.stderr)


def _gap(args: argparse.Namespace) -> int:
    config = _config(args, "exact")
    loaded = _run(args, config)
    if loaded is None:
        return 2
    entries_a, entries_b, errors, exact = loaded
    climber = Scorer(replace(config, solver="hillclimber", compression="none"))
    heuristic_run = climber.score_corpus(entries_a, entries_b, workers=args.workers or default_workers())
    by_index = {p.index: p.matched for p in heuristic_run.pairs}
    label = f"hillclimber (ours, {args.restarts} restarts, seed {args.seed})"
    heuristic = {label: [by_index[p.index] for p in exact.scored]}
    if args.smatch_python:
        smatch = run_smatch104(args.smatch_python, args.test, args.gold, args.restarts)
        heuristic[f"smatch 1.0.4 ({args.restarts} restarts)"] = [smatch[p.index] for p in exact.scored]
    report = gap_report(exact, heuristic)
    if args.pairs_out:
        with open(args.pairs_out, "w", encoding="utf-8") as out:
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
    _warn(errors, config)
    return 0


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


def _score(args: argparse.Namespace) -> int:
    config = _config(args, args.solver)
    loaded = _run(args, config)
    if loaded is None:
        return 2
    _, _, errors, corpus = loaded
    if args.pairs_out:
        with open(args.pairs_out, "w", encoding="utf-8") as out:
            for pair in corpus.pairs:
                out.write(json.dumps(pair.to_json(args.alignments)) + "\n")
    if args.stats:
        print(format_stats(corpus), file=sys.stderr)
    if args.format == "json":
        print(json.dumps(corpus.summary(), indent=2))
    else:
        print(format_text(corpus))
    _warn(errors, config)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``smatchpp`` console script."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "score":
            return _score(args)
        if args.command == "gap":
            return _gap(args)
    except (InputMismatchError, ReadError, OSError, RuntimeError) as exc:
        print(f"smatchpp: error: {exc}", file=sys.stderr)
        return 2
    return 0  # pragma: no cover


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

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

from dataclasses import replace

from ..reporting import present
from ..alignment.solvers import get_solver
from ..metrics import METRICS
from ..metrics.alignment import AlignmentMetric
from ..audit import (HILLCLIMBER, SMATCH104, GapReport, SolvedCorpus, audited, check_plotting, check_smatch_python,
                     format_gap, gap_rows, measure_gaps, plot_histogram, run_smatch104, solved_pair)
from ..core.exceptions import SmatchppError, UsageError
from ..graphs.read import STDIN
from .app import Inputs, Run, collect, interrupted_message, read_pairs, score_rows
from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, INTERRUPTS, add_scoring_options, check_outputs,
                     config_from_args, emit, pairs_output, plural, warn_unreadable, workers_from_args)
from .metric import ALIGNMENT, add_metric_options, alignment_run, run_from_args
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
    add_metric_options(p)
    return p


def _run_metric(args: argparse.Namespace) -> int:
    """``gap --metric NAME``: the exact and the heuristic solver of one metric."""
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
    if not audited(type(exact)):
        raise UsageError(f"gap --metric {args.metric}: {args.metric} has no solver with an exact and a "
                         f"heuristic value to compare; gap audits {ALIGNMENT} (the default) or "
                         + ", ".join(sorted(n for n, c in METRICS.items() if n != ALIGNMENT and audited(c))))
    if settings.bootstrap:
        raise UsageError("--bootstrap does nothing here: gap reports the exact and the heuristic scores")
    if exact.solver != "exact":  # a signature's
        raise UsageError(f"--signature sets {exact.name}-solver:{exact.solver}, which this command does not "
                         f"take: it uses solver exact and {HILLCLIMBER}")
    climber = replace(exact, solver=HILLCLIMBER, compression="none")
    check_outputs({"--pairs-out": args.pairs_out, "--plot": args.plot}, [args.test, args.gold])
    if args.plot:
        check_plotting()
    workers = workers_from_args(args)
    inputs = read_pairs(args, ("test", "gold"), settings.on_error)
    if inputs is None:
        return EXIT_USAGE
    entries_a, entries_b = inputs.entries
    run = collect(args, lambda client: score_rows([(exact, entries_a, entries_b), (climber, entries_a, entries_b)],
                                                  settings.on_error, workers),
                  workers, inputs.total, progress=True)
    rows = run.results
    corpus = SolvedCorpus([solved_pair(e, "exact") for e, _ in rows], settings.signature(exact))
    by_index = {h.index: (None if h.stats is None else h.stats[0]) for _, h in rows}
    heuristic: dict[str, list] = {HILLCLIMBER: [by_index[p.index] for p in corpus.scored]}
    hc = get_solver(HILLCLIMBER)
    labels = {HILLCLIMBER: f"hillclimber (ours, {plural(hc.restarts, 'restart')}, seed {hc.seed})"}
    return _report(args, run, inputs, corpus, heuristic, labels, settings.signature(exact),
                   UNITS.get(args.metric, "item"))


#: what a metric's matched count counts, in the text report (the JSON keys stay ``..._triples``)
UNITS = {"counter": "clause"}


def _write_pairs(path: str | None, signature: str, scored: list, report: GapReport) -> None:
    """``--pairs-out``: each scored pair's exact result beside every tool's and its gap
    (:func:`smatchpp.audit.gap_rows`)."""
    if not path:
        return
    with pairs_output(path, signature) as out:
        for row in gap_rows(scored, report):
            out.write(row)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "metric", ALIGNMENT) != ALIGNMENT or "|metric:" in (getattr(args, "signature", None) or ""):
        return _run_metric(args)
    config = config_from_args(args, solver="exact")
    exact, settings = alignment_run(config)
    climber = AlignmentMetric(exact.config.replace(solver="hillclimber", compression="none"))
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
    # the exact and the heuristic score of a pair come together: an interrupt keeps whole pairs
    run = collect(args, lambda client: score_rows([(exact, entries_a, entries_b), (climber, entries_a, entries_b)],
                                                  settings.on_error, workers),
                  workers, inputs.total, progress=True)
    rows, interrupted = run.results, run.interrupted
    signature = settings.signature(exact)
    # the audit reads the exact pairs' certificates: the family's per-pair data (PairScore)
    exact = exact.corpus([e for e, _ in rows], settings.on_error, settings.bootstrap, settings.bootstrap_seed).detail
    by_index = {h.index: h.detail.matched for _, h in rows}
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
    return _report(args, run, inputs, exact, heuristic, labels, signature, stopped=interrupted,
                   note="; smatch 1.0.4 not run" if args.smatch_python and SMATCH104 not in heuristic else "")


def _report(args: argparse.Namespace, run: Run, inputs: Inputs, corpus, heuristic: dict[str, list],
            labels: dict[str, str], signature: str, unit: str = "triple", stopped: bool = False,
            note: str = "") -> int:
    """The audit's end, the same for every metric: the interrupt (of the rows, or ``stopped``: of
    smatch 1.0.4's run; ``note``: what it left out) said, the gaps of the finished pairs measured
    and written (``--pairs-out``, ``--plot``, the report), the unreadable graphs recalled, a corpus
    without a scored pair warned about, the exit code."""
    interrupted = run.interrupted or stopped
    if interrupted:
        interrupted_message(run, note + "; the report covers those only")
    report = measure_gaps(corpus, heuristic, labels)
    _write_pairs(args.pairs_out, signature, corpus.scored, report)
    if args.plot:
        plot_histogram(report, args.plot)
    emit(format_gap(report, args.format,
                    {"finished": len(run.results), "total": run.total} if interrupted else None, unit))
    warn_unreadable(inputs.errors, inputs.on_error)
    warn_nothing_scored(corpus)
    return EXIT_INTERRUPTED if interrupted else EXIT_OK

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

from dataclasses import replace
from typing import Any

from ..reporting import present
from ..alignment.solvers import get_solver
from ..metrics import METRICS, Metric
from ..metrics.alignment import AlignmentMetric
from ..audit import (HILLCLIMBER, SMATCH104, GapReport, SolvedCorpus, audited, check_plotting, check_smatch_python,
                     format_gap, gap_rows, measure_gaps, plot_histogram, run_smatch104, solved_pair)
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


#: what a metric's matched count counts, in the text report (the JSON keys stay ``..._triples``)
UNITS = {ALIGNMENT: "triple", "counter": "clause"}


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
    the alignment family's own corpus, another metric's :class:`~smatchpp.audit.SolvedCorpus`) and each pair's
    heuristic matched count by index."""
    if aligns(exact):
        corpus = exact.corpus([e for e, _ in rows], settings.on_error, settings.bootstrap,
                              settings.bootstrap_seed).detail
        return corpus, {h.index: h.detail.matched for _, h in rows}
    corpus = SolvedCorpus([solved_pair(e, "exact") for e, _ in rows], settings.signature(exact))
    return corpus, {h.index: (None if h.stats is None else h.stats[0]) for _, h in rows}


def _write_pairs(path: str | None, signature: str, scored: list, report: GapReport) -> None:
    """``--pairs-out``: each scored pair's exact result beside every tool's and its gap
    (:func:`smatchpp.audit.gap_rows`)."""
    if not path:
        return
    with pairs_output(path, signature) as out:
        for row in gap_rows(scored, report):
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

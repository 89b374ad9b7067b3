"""``smatchpp score TEST GOLD``: exact Smatch of two parallel files.

Pairs are written to ``--pairs-out`` in index order as they finish (one JSON
object per line, flushed), so an interrupted run keeps every finished pair;
the summary then covers those pairs and says ``interrupted: N of M pairs``.
``--bootstrap [N]`` adds seeded 95% intervals (:mod:`smatchpp.statistics.significance`).

>>> from smatchpp.alignment.config import Config
>>> from smatchpp.alignment.score import CorpusScore, PairScore
>>> corpus = CorpusScore([PairScore(0, "a", 3, 3, 4, 4, "optimal", "exact", "star_bound")], Config())
>>> print(format_text(corpus))  # doctest: +ELLIPSIS
smatchpp:...|preset:smatch|match:exact|...|deterministic:yes
pairs: 1 scored: 1 certified optimal: 1
micro  P 75.00  R 75.00  F1 75.00
macro  P 75.00  R 75.00  F1 75.00
matched: 3 (upper bound 3) of test 4 / gold 4 triples; micro F1 in [75.00, 75.00]
certified by: star_bound 1
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack, nullcontext

from typing import TYPE_CHECKING

from ..reporting import present
from ..alignment.config import ASPECT_MODES  # noqa: F401 (the modes --aspects-mode offers, and none)
from ..alignment.score import CorpusScore
from ..core.bulk import no_cycle_collection
from ..metrics import Metric
from ..metrics.alignment import AlignmentMetric
from .app import (collect, conclude, explained, read_in_parts, read_pairs, score_pairs, summary_stream,
                  workers_for)
from .common import (EXIT_USAGE, INTERRUPTS, add_aspect_options, add_bootstrap_options, add_dask_option,
                     add_scoring_options, add_setting, emit, plural, warn)
from .metric import RunSettings, add_metric_options, run_from_args

if TYPE_CHECKING:
    from ..metrics.base import MetricIntervals
    from ..statistics.significance import BootstrapCI

__all__ = ["add_parser", "run", "format_text", "warn_nothing_scored"]



def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("score", help="score a test file against a gold file",
                       epilog="To compare with a number another tool printed (smatch 1.0.4, BAMBOO's "
                              "Smatch/S2Match/WSMATCH rows, AMRParseEval, Damonte et al.'s aspects, "
                              "smatchpp 1.8), choose the preset and matcher from the table 'To compare "
                              "with X, use Y' in docs/reference-readers.md: e.g. --preset amr-suite for "
                              "BAMBOO's rows. smatch 1.0.4's options (--pr, --ms, -r N, --significant N, -v, "
                              "--justinstance, --justattribute, --justrelation) take smatch's command line "
                              "and print its lines (F-score: ...), scored exactly: docs/smatch-api.md.")
    add_scoring_options(p)
    p.add_argument("--format", choices=present.FORMATS, default="text",
                   help="format of the corpus summary on stdout (markdown and latex: tables to paste)")
    p.add_argument("--pairs-out", metavar="FILE.jsonl",
                   help="write one JSON object per pair (in index order, as pairs finish); "
                        "- for stdout (the summary then goes to stderr); FILE.parquet or FILE.csv: "
                        "a table with the signature (extra 'tables')")
    p.add_argument("--alignments", action="store_true",
                   help="include each pair's variable alignment in --pairs-out (--metric wwlk: its "
                        "transport plan, key plan)")
    add_setting(p, "total_time_limit")
    add_setting(p, "coref_subscore")
    add_setting(p, "coref_ties")
    add_dask_option(p)
    p.add_argument("--stats", action="store_true",
                   help="print problem sizes before/after compression per pair and in total (stderr)")
    add_aspect_options(p, "also score")
    add_bootstrap_options(p)
    add_metric_options(p)
    return p


def format_text(corpus, total: int | None = None, fmt: str = "text",
                intervals: BootstrapCI | MetricIntervals | None = None, aspect_intervals: dict | None = None,
                coref_intervals: dict | None = None, metric: Metric | None = None) -> str:
    """The corpus summary in ``fmt`` (:func:`smatchpp.reporting.present.corpus_report`), of any metric's
    corpus (``metric``: its metric, default the corpus's own or the alignment family of its
    Config; ``total``: pairs in the input, if interrupted; ``aspect_intervals`` and
    ``coref_intervals``: the parts of :meth:`Metric.intervals`, with ``--bootstrap``)."""
    if metric is None:
        metric = getattr(corpus, "metric", None) or _alignment(corpus.config)
    summary = corpus.summary()
    for key, part in (("aspects", aspect_intervals), ("coref", coref_intervals)):
        if part:
            summary[key]["bootstrap"] = part
    return present.corpus_report(summary, fmt, total=total, bootstrap=intervals, note=metric.note(),
                                 mean_only=metric.micro_is_macro)


def _alignment(config) -> Metric:
    from ..metrics.alignment import without_run

    return AlignmentMetric(without_run(config))


def _without_intervals(text: str, fmt: str) -> str:
    """The summary ``text`` marked as having no bootstrap intervals (an interrupt stopped them)."""
    note = "bootstrap: interrupted, no intervals"
    if fmt == "json":
        summary = json.loads(text)
        summary.setdefault("interrupted", {})["bootstrap"] = "interrupted: no intervals"
        return present.emit_json(summary)
    return text + ("\n% " if fmt == "latex" else "\n\n" if fmt == "markdown" else "\n") + note


def warn_nothing_scored(corpus: CorpusScore) -> None:
    """Warn when pairs were read but none was scored (the summary's zeros mean nothing)."""
    s = corpus.summary()
    if s["pairs"] and not s["scored"]:
        warn(f"no pair was scored (all {plural(s['pairs'], 'pair')} skipped): the scores above are 0 "
             "by convention")


def run(args: argparse.Namespace) -> int:
    """One road for every metric: read and pair the inputs, score each pair on the chosen
    backend (written to ``--pairs-out`` as it finishes), the corpus result, its bootstrap
    intervals, one summary (:func:`format_text`), the exit code."""
    metric, settings = run_from_args(args)
    # a cheap metric's graphs, features and statistics make no reference cycles: the cycle
    # collector, which would walk them again and again, is paused for the run (smatchpp.core.bulk)
    with no_cycle_collection() if metric.cheap_pairs else nullcontext():
        return _score(args, metric, settings)


def _score(args: argparse.Namespace, metric: Metric, settings: RunSettings) -> int:
    outputs = {"--pairs-out": args.pairs_out}
    details = bool(getattr(args, "alignments", False))
    with ExitStack() as stack:
        # the workers read a part each (runs.FileRun), where the metric's engine lets them
        inputs, parts, client = read_in_parts(args, metric, settings.on_error, outputs,
                                              details and metric.explains(), stack)
        if parts is not None and inputs is None:  # unreadable graphs stop the run (reported)
            return EXIT_USAGE
        if parts is None:
            inputs = read_pairs(args, ("test", "gold"), settings.on_error, outputs)
            if inputs is None:
                return EXIT_USAGE
            entries_a, entries_b = inputs.entries

            def stream(client):
                return score_pairs(metric, entries_a, entries_b, settings.on_error, workers, client, details)
        else:
            def stream(client):
                return explained(parts.results())
        workers = workers_for(args, metric, inputs.total)
        run = collect(args, stream, workers, inputs.total, lambda pair: metric.pair_json(pair, details),
                      progress=True, signature=settings.signature(metric), client=client)
    corpus = metric.corpus(run.results, settings.on_error, settings.bootstrap, settings.bootstrap_seed)
    if args.stats:  # the alignment family's option (refused under another metric): its pairs' details
        print(present.problem_sizes(corpus.detail), file=sys.stderr)
    intervals = None
    parts: dict = {}
    # an interrupt, during the scoring or during the bootstrap: the summary goes out without
    # intervals (resampling after an interrupt could take long: the user asked to stop)
    bootstrap_cut = bool(settings.bootstrap) and run.interrupted
    if settings.bootstrap and not run.interrupted:
        try:
            intervals, parts = metric.intervals(corpus, settings.bootstrap, settings.bootstrap_seed)
        except INTERRUPTS:
            intervals, parts, bootstrap_cut = None, {}, True
    text = format_text(corpus, inputs.total if run.interrupted or bootstrap_cut else None, args.format,
                       intervals, parts.get("aspects"), parts.get("coref"), metric)
    if bootstrap_cut:
        text = _without_intervals(text, args.format)
    emit(text, summary_stream(args))
    return conclude(run, inputs, [lambda: warn_nothing_scored(corpus)],
                    "; no bootstrap intervals" if bootstrap_cut else "", stopped=bootstrap_cut)

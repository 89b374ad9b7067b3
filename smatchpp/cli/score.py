"""``smatchpp score TEST GOLD``: exact Smatch of two parallel files.

Pairs are written to ``--pairs-out`` in index order as they finish (one JSON
object per line, flushed), so an interrupted run keeps every finished pair;
the summary then covers those pairs and says ``interrupted: N of M pairs``.
``--bootstrap [N]`` adds seeded 95% intervals (:mod:`smatchpp.significance`).

>>> from smatchpp.config import Config
>>> from smatchpp.score import CorpusScore, PairScore
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

from typing import TYPE_CHECKING

from ..executor import deferred_interrupts
from .. import present
from ..config import ASPECT_MODES  # noqa: F401 (the modes --aspects-mode offers, and none)
from ..score import CorpusScore
from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, INTERRUPTS,
                     add_aspect_options, add_bootstrap_options, add_dask_option, add_scoring_options, add_setting,
                     dask_client,
                     check_outputs, config_from_args, emit, interrupts, open_output, plural,
                     read_inputs, report_unreadable, warn, warn_unreadable, workers_from_args)
from .metric import add_metric_options, metric_from_args, run_score

if TYPE_CHECKING:
    from ..significance import BootstrapCI

__all__ = ["add_parser", "run", "format_text", "format_stats", "warn_nothing_scored"]



def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("score", help="score a test file against a gold file",
                       epilog="To compare with a number another tool printed (smatch 1.0.4, BAMBOO's "
                              "Smatch/S2Match/WSMATCH rows, AMRParseEval, Damonte et al.'s aspects, "
                              "smatchpp 1.8), choose the preset and matcher from the table 'To compare "
                              "with X, use Y' in docs/reference-readers.md: e.g. --preset amr-suite for "
                              "BAMBOO's rows.")
    add_scoring_options(p)
    p.add_argument("--format", choices=present.FORMATS, default="text",
                   help="format of the corpus summary on stdout (markdown and latex: tables to paste)")
    p.add_argument("--pairs-out", metavar="FILE.jsonl",
                   help="write one JSON object per pair (in index order, as pairs finish); "
                        "- for stdout (the summary then goes to stderr)")
    p.add_argument("--alignments", action="store_true",
                   help="include each pair's variable alignment in --pairs-out (--metric wwlk: its "
                        "transport plan, key plan)")
    add_setting(p, "total_time_limit")
    add_dask_option(p)
    p.add_argument("--stats", action="store_true",
                   help="print problem sizes before/after compression per pair and in total (stderr)")
    add_aspect_options(p, "also score")
    add_bootstrap_options(p)
    add_metric_options(p)
    return p


def aspect_bootstrap(corpus: CorpusScore, config) -> dict:
    """Each aspect's bootstrap intervals of F1 (:func:`smatchpp.aspects.aspect_intervals`),
    from the pairs the main score's intervals resample."""
    from ..aspects import aspect_intervals

    scored = [p.aspects for p in corpus.scored if p.aspects is not None]
    if not scored:
        return {}
    found = aspect_intervals(scored, config.bootstrap, config.bootstrap_seed)
    return {"resamples": config.bootstrap, "seed": config.bootstrap_seed, "level": 0.95,
            "method": "percentile", "f1": found}


def _preset_note(config) -> str:
    """The warning of the Config's preset (presets that are not Smatch have one)."""
    from ..presets import get_preset

    return get_preset(config.preset).note


def format_text(corpus: CorpusScore, total: int | None = None, fmt: str = "text",
                intervals: BootstrapCI | None = None, aspect_intervals: dict | None = None) -> str:
    """The corpus summary in ``fmt`` (``total``: pairs in the input, if interrupted;
    ``aspect_intervals``: :func:`aspect_bootstrap`'s, with ``--bootstrap`` and ``--aspects``)."""
    summary = corpus.summary()
    if aspect_intervals:
        summary["aspects"]["bootstrap"] = aspect_intervals
    return present.score_report(summary, fmt, total=total, bootstrap=intervals,
                                preset_note=_preset_note(corpus.config))


def _without_intervals(text: str, fmt: str) -> str:
    """The summary ``text`` marked as having no bootstrap intervals (an interrupt stopped them)."""
    note = "bootstrap: interrupted, no intervals"
    if fmt == "json":
        summary = json.loads(text)
        summary.setdefault("interrupted", {})["bootstrap"] = "interrupted: no intervals"
        return present.emit_json(summary)
    return text + ("\n% " if fmt == "latex" else "\n\n" if fmt == "markdown" else "\n") + note


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


def warn_nothing_scored(corpus: CorpusScore) -> None:
    """Warn when pairs were read but none was scored (the summary's zeros mean nothing)."""
    s = corpus.summary()
    if s["pairs"] and not s["scored"]:
        warn(f"no pair was scored (all {plural(s['pairs'], 'pair')} skipped): the scores above are 0 "
             "by convention")


def run(args: argparse.Namespace) -> int:
    metric = metric_from_args(args)
    if metric is not None:
        return run_score(args, metric)
    # imported here: a --metric run never loads the Smatch API (solvers, HiGHS, numba)
    from ..api import Scorer, read_errors
    from ..significance import PairStats, bootstrap

    config = config_from_args(args)
    check_outputs({"--pairs-out": args.pairs_out}, [args.test, args.gold])
    workers = workers_from_args(args)
    entries_a, entries_b = read_inputs(args)
    errors = read_errors(entries_a, entries_b)
    if report_unreadable(errors, config.on_error):
        return EXIT_USAGE
    scorer = Scorer(config)
    summary_out = sys.stderr if args.pairs_out == "-" else sys.stdout
    pairs = []
    interrupted = False
    with interrupts(), dask_client(args, workers) as client:
        try:
            stream = scorer.iter_scores(entries_a, entries_b, workers=workers, progress=not args.quiet,
                                        dask=client)
            if args.pairs_out:
                with open_output(args.pairs_out) as out:
                    for pair in stream:
                        with deferred_interrupts():  # the pair is in both the file and the summary
                            pairs.append(pair)
                            out.write(present.json_line(pair.to_json(args.alignments)) + "\n")
                            out.flush()
            else:
                pairs.extend(stream)
        except INTERRUPTS:
            interrupted = True
    corpus = scorer.corpus(pairs)
    if args.stats:
        print(format_stats(corpus), file=sys.stderr)
    total = len(entries_a)
    intervals = None
    aspect_intervals: dict = {}
    # an interrupt, during the scoring or during the bootstrap: the summary goes out without
    # intervals (resampling after an interrupt could take long: the user asked to stop)
    bootstrap_cut = bool(config.bootstrap) and interrupted
    if config.bootstrap and not interrupted:
        try:
            intervals = bootstrap(PairStats.from_pairs(corpus.scored), config.bootstrap,
                                  config.bootstrap_seed)
            aspect_intervals = aspect_bootstrap(corpus, config)
        except INTERRUPTS:
            intervals, aspect_intervals, bootstrap_cut = None, {}, True
    text = format_text(corpus, total if interrupted or bootstrap_cut else None, args.format, intervals,
                       aspect_intervals)
    if bootstrap_cut:
        text = _without_intervals(text, args.format)
    emit(text, summary_out)
    warn_unreadable(errors, config.on_error)
    warn_nothing_scored(corpus)
    if interrupted or bootstrap_cut:
        print(f"smatchpp: interrupted: {len(pairs)} of {plural(total, 'pair')} finished"
              + (f", written to {args.pairs_out}" if args.pairs_out and args.pairs_out != "-" else "")
              + ("; no bootstrap intervals" if bootstrap_cut else ""),
              file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK

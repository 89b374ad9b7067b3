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

from typing import TYPE_CHECKING

from ..reporting import present
from ..alignment.config import ASPECT_MODES  # noqa: F401 (the modes --aspects-mode offers, and none)
from ..alignment.score import CorpusScore
from .app import collect, conclude, read_pairs, summary_stream
from .common import (EXIT_USAGE, INTERRUPTS, add_aspect_options, add_bootstrap_options, add_dask_option,
                     add_scoring_options, add_setting, config_from_args, emit, plural, warn,
                     workers_from_args)
from .metric import add_metric_options, metric_from_args, run_score

if TYPE_CHECKING:
    from ..statistics.significance import BootstrapCI

__all__ = ["add_parser", "run", "format_text", "format_stats", "warn_nothing_scored"]



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
    add_dask_option(p)
    p.add_argument("--stats", action="store_true",
                   help="print problem sizes before/after compression per pair and in total (stderr)")
    add_aspect_options(p, "also score")
    add_bootstrap_options(p)
    add_metric_options(p)
    return p


def aspect_bootstrap(corpus: CorpusScore, config) -> dict:
    """Each aspect's bootstrap intervals of F1 (:func:`smatchpp.aspects.core.aspect_intervals`),
    from the pairs the main score's intervals resample."""
    from ..aspects.core import aspect_intervals

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


def coref_bootstrap(corpus: CorpusScore, config) -> dict:
    """The bootstrap intervals of the coreference subscores (``--coref-subscore``): the pairs the
    main score's intervals resample (same seed), Total Coref and Non-Coref counts of each."""
    from ..statistics.significance import PairStats, bootstrap

    scored = [p for p in corpus.scored if p.coref is not None]
    if not scored:
        return {}
    out = {}
    for name, part in (("Total Coref", lambda p: p.coref),
                       ("Non-Coref", lambda p: (p.matched - p.coref[0], p.test_weight - p.coref[1],
                                                p.gold_weight - p.coref[2]))):
        rows = [part(p) for p in scored]
        stats = PairStats.from_counts([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])
        out[name] = bootstrap(stats, config.bootstrap, config.bootstrap_seed).to_json()
    return out


def format_text(corpus: CorpusScore, total: int | None = None, fmt: str = "text",
                intervals: BootstrapCI | None = None, aspect_intervals: dict | None = None,
                coref_intervals: dict | None = None) -> str:
    """The corpus summary in ``fmt`` (``total``: pairs in the input, if interrupted;
    ``aspect_intervals``: :func:`aspect_bootstrap`'s, with ``--bootstrap`` and ``--aspects``;
    ``coref_intervals``: :func:`coref_bootstrap`'s, with ``--coref-subscore``)."""
    summary = corpus.summary()
    if aspect_intervals:
        summary["aspects"]["bootstrap"] = aspect_intervals
    if coref_intervals:
        summary["coref"]["bootstrap"] = coref_intervals
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
    from ..api import Scorer
    from ..statistics.significance import PairStats, bootstrap

    config = config_from_args(args)
    workers = workers_from_args(args)
    inputs = read_pairs(args, ("test", "gold"), config.on_error, {"--pairs-out": args.pairs_out})
    if inputs is None:
        return EXIT_USAGE
    scorer = Scorer(config)
    entries_a, entries_b = inputs.entries
    run = collect(args, lambda client: scorer.iter_scores(entries_a, entries_b, workers=workers, dask=client),
                  workers, inputs.total, lambda pair: pair.to_json(args.alignments), progress=True,
                  signature=scorer.signature)
    corpus = scorer.corpus(run.results)
    if args.stats:
        print(format_stats(corpus), file=sys.stderr)
    intervals = None
    aspect_intervals: dict = {}
    coref_intervals: dict = {}
    # an interrupt, during the scoring or during the bootstrap: the summary goes out without
    # intervals (resampling after an interrupt could take long: the user asked to stop)
    bootstrap_cut = bool(config.bootstrap) and run.interrupted
    if config.bootstrap and not run.interrupted:
        try:
            intervals = bootstrap(PairStats.from_pairs(corpus.scored), config.bootstrap,
                                  config.bootstrap_seed)
            aspect_intervals = aspect_bootstrap(corpus, config)
            coref_intervals = coref_bootstrap(corpus, config)
        except INTERRUPTS:
            intervals, aspect_intervals, bootstrap_cut = None, {}, True
    text = format_text(corpus, inputs.total if run.interrupted or bootstrap_cut else None, args.format,
                       intervals, aspect_intervals, coref_intervals)
    if bootstrap_cut:
        text = _without_intervals(text, args.format)
    emit(text, summary_stream(args))
    return conclude(run, inputs, [lambda: warn_nothing_scored(corpus)],
                    "; no bootstrap intervals" if bootstrap_cut else "", stopped=bootstrap_cut)

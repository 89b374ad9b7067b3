"""``smatchpp compare SYS1 SYS2 GOLD``: is the difference in micro F1 significant?

Both systems are scored exactly against the same gold; then a paired
bootstrap gives Delta F1 = F1(SYS1) - F1(SYS2) with its 95% interval and a
p-value, and an approximate-randomization test another p-value
(:func:`smatchpp.statistics.significance.compare` has the exact definitions).  Every metric
takes this road (``--metric NAME``: the difference of its headline score,
:meth:`Metric.compare_systems`, the same paired test).  Both are
seeded (``--bootstrap-seed``), so the numbers are the same on every run; the
signature names the resamples, the trials and the seed.
(The text of one comparison: :func:`smatchpp.reporting.present.comparison_text`.)
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from ..reporting import present
from ..statistics.significance import DEFAULT_RESAMPLES, DEFAULT_TRIALS
from .app import collect, interrupted_message, read_pairs, score_rows, summary_stream, system_names, workers_for
from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, INTERRUPTS, add_aspect_options,
                     add_bootstrap_options, add_dask_option, add_setting, add_setting_options,
                     emit, plural, warn, warn_unreadable)
from .metric import add_metric_options, run_from_args

__all__ = ["add_parser", "run", "format_comparison", "format_table"]


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("compare", help="significance of the micro F1 difference of two systems "
                                       "on the same gold (paired bootstrap, approximate randomization)")
    p.add_argument("sys1", help="graphs of the first system")
    p.add_argument("sys2", help="graphs of the second system, parallel to sys1")
    p.add_argument("more", nargs="*", metavar="SYS",
                   help="more systems, parallel to sys1: each is compared with sys1, the baseline, as "
                        "sys2 is (the same resamples for every system, as sacreBLEU's paired tests)")
    p.add_argument("gold", help="reference graphs, parallel to both")
    add_setting_options(p)
    add_bootstrap_options(p, default=DEFAULT_RESAMPLES)
    add_setting(p, "ar_trials")
    add_setting(p, "coref_subscore", help="also compare docSmatch's coreference subscores (Total Coref, "
                "Non-Coref), each with its own delta F1, interval and p-values (paired, as Smatch)")
    add_setting(p, "coref_ties")
    add_aspect_options(p, "also compare (each aspect with its own delta F1, interval and p-values)")
    add_dask_option(p)
    p.add_argument("--format", choices=present.FORMATS, default="text",
                   help="format of the summary (markdown and latex: a table to paste)")
    p.add_argument("--pairs-out", metavar="FILE.jsonl",
                   help="one JSON object per pair: both systems' scores and their F1 difference")
    add_metric_options(p, ("A", "B", "C"))
    return p


#: one comparison, and the aspects' rows, as text (kept under their old names)
format_comparison = present.comparison_text
format_table = present.comparison_table_text


def run(args: argparse.Namespace) -> int:
    """One road for every metric: every system scored against the gold row by row (each row
    written to ``--pairs-out`` as it is done, so that an interrupted run keeps and compares
    every finished row), then each system against sys1 on the rows no system skipped, with the
    same resamples and trials (:meth:`Metric.compare_systems`), one summary."""
    metric, settings = run_from_args(args)
    settings = replace(settings, bootstrap=DEFAULT_RESAMPLES if settings.bootstrap is None else settings.bootstrap,
                       ar_trials=DEFAULT_TRIALS if settings.ar_trials is None else settings.ar_trials)
    names = system_names(args)
    many = len(names) > 2
    inputs = read_pairs(args, (*names, "gold"), settings.on_error, {"--pairs-out": args.pairs_out})
    if inputs is None:
        return EXIT_USAGE
    *systems, entries_gold = inputs.entries
    workers = workers_for(args, metric, len(systems) * inputs.total)
    signature = settings.signature(metric)
    run = collect(args, lambda client: score_rows([(metric, entries, entries_gold) for entries in systems],
                                                     settings.on_error, workers, client),
                  workers, inputs.total, lambda row: metric.compare_line(row, names, entries_gold[row[0].index].id),
                  progress=True, signature=signature)
    rows = run.results
    if run.interrupted:
        interrupted_message(run, "; comparing those")
        if not rows:
            return EXIT_INTERRUPTED
    kept = [row for row in rows if not any(p.skipped for p in row)]
    dropped = [row[0].index for row in rows if any(p.skipped for p in row)]
    try:
        blocks = metric.compare_systems(kept, settings.bootstrap, settings.ar_trials, settings.bootstrap_seed)
    except INTERRUPTS:
        print("smatchpp: interrupted again: no comparison", file=sys.stderr)
        return EXIT_INTERRUPTED
    first = blocks[0][0]
    notes = metric.compare_notes(rows, kept, dropped, names, first.pairs)
    summary: dict = {"signature": signature}
    if many:
        summary["baseline"] = "sys1"
    summary.update((name, getattr(args, name)) for name in names)
    summary.update({"gold": args.gold, "pairs": first.pairs, "left_out": dropped, **notes["summary"],
                    "comparisons": [{"system": name, **c.to_json()} for name, found in zip(names[1:], blocks)
                                    for c in found] if many else [c.to_json() for c in blocks[0]]})
    if run.interrupted:
        summary["interrupted"] = {"finished": len(rows), "total": inputs.total}
    if len(blocks[0]) > 1:  # parts compared too (the alignment family's aspects, subscores)
        summary["aspects"] = notes["mode"]
    header = [signature, "  ".join(f"{name}: {getattr(args, name)}" for name in names) + f"  gold: {args.gold}"]
    if run.interrupted:
        header.append(f"interrupted: {len(rows)} of {plural(inputs.total, 'pair')} finished; "
                      + ("the comparisons below cover those only" if many else "the comparison below covers those only"))
    header.append(notes["line"])
    score = metric.headline_title or metric.headline
    if many:
        text = present.systems_report(summary, list(zip(names[1:], blocks)), args.format, header=header,
                                      mode=notes["mode"], score=score)
    else:
        text = present.compare_report(summary, blocks[0], args.format, header=header, mode=notes["mode"],
                                      score=score)
    emit(text, summary_stream(args))
    if notes["warning"]:
        warn(notes["warning"])
    warn_unreadable(inputs.errors, settings.on_error)
    return EXIT_INTERRUPTED if run.interrupted else EXIT_OK

"""``smatchpp compare SYS1 SYS2 GOLD``: is the difference in micro F1 significant?

Both systems are scored exactly against the same gold; then a paired
bootstrap gives Delta F1 = F1(SYS1) - F1(SYS2) with its 95% interval and a
p-value, and an approximate-randomization test another p-value
(:func:`smatchpp.statistics.significance.compare` has the exact definitions).  Both are
seeded (``--bootstrap-seed``), so the numbers are the same on every run; the
signature names the resamples, the trials and the seed.
(The text of one comparison: :func:`smatchpp.reporting.present.comparison_text`.)
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import Iterable, Iterator

import numpy as np

from ..reporting import present
from ..api import Scorer, iter_score_rows
from ..aspects.core import AspectCount, aspect_title
from ..alignment.config import Config
from ..alignment.score import CorpusScore
from ..statistics.significance import (DEFAULT_RESAMPLES, DEFAULT_TRIALS, Comparison, PairStats, compare,
                            compare_columns, paired_stats, prf_arrays)
from .app import collect, interrupted_message, read_pairs, summary_stream, system_names
from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, INTERRUPTS, add_aspect_options,
                     add_bootstrap_options, add_dask_option, add_setting, add_setting_options,
                     config_from_args, plural, warn, warn_unreadable, workers_from_args)
from .metric import add_metric_options, metric_from_args, run_compare

__all__ = ["add_parser", "run", "format_comparison", "format_table", "comparisons"]


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


def comparisons(corpus1: CorpusScore, corpus2: CorpusScore, config: Config
                ) -> tuple[list[Comparison], list[int]]:
    """Smatch (and, when a pair carries them, further named counts) of two scored corpora.

    Returns the comparisons and the indices of pairs left out (skipped in
    either system).  Each comparison is made with ``config``'s resamples,
    trials and seed.  :func:`_named_stats` yields ``(name, stats1, stats2, vacuous)``
    for every further score the pairs carry (the aspects, with ``--aspects``).
    """
    s1, s2, dropped = paired_stats(corpus1.pairs, corpus2.pairs)
    named = [("smatch", s1, s2, None)] + list(_named_stats(corpus1, corpus2, dropped))
    kwargs = {"resamples": config.bootstrap or DEFAULT_RESAMPLES,
              "trials": config.ar_trials or DEFAULT_TRIALS, "seed": config.bootstrap_seed}
    out = []
    for name, a, b, vacuous in named:
        c = compare(a, b, name=name, **kwargs)
        if vacuous is not None:
            # the set scores an aspect empty on both sides as ``vacuous`` (as score does): a
            # system whose summed counts are empty, in the data or in a resample, scores it
            c = compare_columns(_vacuous_f1(vacuous), (a.matched, a.test, a.gold), (b.matched, b.test, b.gold),
                                name=name, certified=c.certified, delta_range=c.delta_range, **kwargs)
        if name != "smatch" and not any(x.sum() for s in (a, b) for x in (s.test, s.gold)):
            # an aspect with no items in either system or the gold: n/a, as in score (Damonte's
            # set), or vacuous agreement
            c = (replace(c, f1=(None, None), extra={**c.extra, "no_items": True}) if vacuous is None
                 else replace(c, extra={**c.extra, "no_items": True, "vacuous": True}))
        out.append(c)
    return out, dropped


def _vacuous_f1(vacuous: float):
    """Micro F1 of summed counts, ``vacuous`` where both sums are 0 (vectorised)."""
    def f1(matched, test, gold):
        test, gold = np.asarray(test), np.asarray(gold)
        return np.where((test == 0) & (gold == 0), vacuous, prf_arrays(matched, test, gold)[2])
    return f1


def _named_stats(corpus1: CorpusScore, corpus2: CorpusScore, dropped: list[int]
                 ) -> Iterator[tuple[str, PairStats, PairStats, float | None]]:
    """Further per-pair counts to compare: the aspects (``--aspects``), in the papers' order,
    each with the F1 of an aspect empty on both sides (:attr:`AspectCount.vacuous`)."""
    left_out = set(dropped)
    kept = [(p, q) for k, (p, q) in enumerate(zip(corpus1.pairs, corpus2.pairs)) if k not in left_out]
    if kept and all(p.coref is not None and q.coref is not None for p, q in kept):
        # docSmatch's coreference subscores (--coref-subscore): Total Coref, and the rest
        for name, part in (("Total Coref", lambda p: p.coref),
                           ("Non-Coref", lambda p: (p.matched - p.coref[0], p.test_weight - p.coref[1],
                                                    p.gold_weight - p.coref[2]))):
            yield name, _count_stats(part(p) for p, _ in kept), _count_stats(part(q) for _, q in kept), None
    if not kept or any(p.aspects is None or q.aspects is None for p, q in kept):
        return
    for name in kept[0][0].aspects:  # the set's order
        yield aspect_title(name), _aspect_stats(p.aspects[name] for p, _ in kept), \
            _aspect_stats(q.aspects[name] for _, q in kept), kept[0][0].aspects[name].vacuous


def _count_stats(rows: Iterable[tuple[float, float, float]]) -> PairStats:
    """Per-pair ``(matched, test, gold)`` (found on the pair's alignment: its upper bound too)."""
    cols = np.array(list(rows), dtype=np.float64).reshape(-1, 3)
    return PairStats(cols[:, 0], cols[:, 0], cols[:, 1], cols[:, 2])


def _aspect_stats(counts: Iterable[AspectCount]) -> PairStats:
    rows = [(c.matched, c.upper, c.test, c.gold) for c in counts]
    cols = np.array(rows, dtype=np.float64).reshape(-1, 4)
    return PairStats(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3])


def _pair_row(p1, p2) -> dict:
    row = {"index": p1.index, "id": p1.id or p2.id, "sys1": p1.to_json(), "sys2": p2.to_json()}
    if "skipped" not in (p1.status, p2.status):
        row["f1_difference"] = p1.f1 - p2.f1
    return row


def run(args: argparse.Namespace) -> int:
    metric = metric_from_args(args)
    if metric is not None:
        return run_compare(args, metric)
    config = config_from_args(args)
    if config.bootstrap is None:
        config = config.replace(bootstrap=DEFAULT_RESAMPLES)
    if config.ar_trials is None:
        config = config.replace(ar_trials=DEFAULT_TRIALS)
    workers = workers_from_args(args)
    if getattr(args, "more", None):
        return _run_systems(args, config, workers)
    inputs = read_pairs(args, ("sys1", "sys2", "gold"), config.on_error, {"--pairs-out": args.pairs_out})
    if inputs is None:
        return EXIT_USAGE
    entries_1, entries_2, entries_gold = inputs.entries
    errors = inputs.errors
    scorer = Scorer(config)
    # both systems' scores of a pair come together, and each row is written as it is done,
    # so that an interrupted run keeps (and compares) every finished pair
    run = collect(args, lambda client: iter_score_rows([(scorer, entries_1, entries_gold),
                                                        (scorer, entries_2, entries_gold)],
                                                       workers, False, client),
                  workers, inputs.total, lambda row: _pair_row(*row), progress=True,
                  signature=scorer.signature)
    rows, interrupted, total = run.results, run.interrupted, run.total
    corpus1, corpus2 = (scorer.corpus([row[k] for row in rows]) for k in (0, 1))
    if interrupted:
        interrupted_message(run, "; comparing those")
    if interrupted and not rows:
        return EXIT_INTERRUPTED
    try:
        results, dropped = comparisons(corpus1, corpus2, config)
    except INTERRUPTS:
        print("smatchpp: interrupted again: no comparison", file=sys.stderr)
        return EXIT_INTERRUPTED
    summary_out = sys.stderr if args.pairs_out == "-" else sys.stdout
    certified = [sum(p.status == "optimal" for p in c.scored) for c in (corpus1, corpus2)]
    summary = {"signature": scorer.signature, "sys1": args.sys1, "sys2": args.sys2,
               "gold": args.gold, "pairs": results[0].pairs, "left_out": dropped,
               "certified_optimal": {"sys1": certified[0], "sys2": certified[1]},
               "comparisons": [c.to_json() for c in results]}
    if interrupted:
        summary["interrupted"] = {"finished": len(rows), "total": total}
    if len(results) > 1:
        summary["aspects"] = config.aspects
    header = [scorer.signature, f"sys1: {args.sys1}  sys2: {args.sys2}  gold: {args.gold}"]
    if interrupted:
        header.append(f"interrupted: {len(rows)} of {plural(total, 'pair')} finished; "
                      "the comparison below covers those only")
    header.append(f"pairs: {results[0].pairs} compared"
                  + (f", {len(dropped)} left out (skipped in either system)" if dropped else "")
                  + f"; certified optimal: sys1 {certified[0]}, sys2 {certified[1]}")
    print(present.compare_report(summary, results, args.format, header=header, mode=config.aspects),
          file=summary_out)
    if dropped:
        warn(f"{plural(len(dropped), 'pair')} left out of the comparison (skipped in either system)")
    warn_unreadable(errors, config.on_error)
    return EXIT_INTERRUPTED if interrupted else EXIT_OK



def _run_systems(args: argparse.Namespace, config: Config, workers: int) -> int:
    """``compare SYS1 SYS2 SYS3 ... GOLD``: every system against sys1, the baseline, on the
    pairs no system skipped (the same pairs, resamples and trials for every comparison)."""
    names = system_names(args)
    inputs = read_pairs(args, (*names, "gold"), config.on_error, {"--pairs-out": args.pairs_out})
    if inputs is None:
        return EXIT_USAGE
    *systems, entries_gold = inputs.entries
    scorer = Scorer(config)

    def line(row) -> dict:
        out = {"index": row[0].index, "id": next((p.id for p in row if p.id), None)}
        out.update((name, p.to_json()) for name, p in zip(names, row))
        if all(p.status != "skipped" for p in row):
            out.update((f"f1_difference_{name}", row[0].f1 - p.f1) for name, p in zip(names[1:], row[1:]))
        return out

    run = collect(args, lambda client: iter_score_rows([(scorer, entries, entries_gold) for entries in systems],
                                                       workers, False, client),
                  workers, inputs.total, line, progress=True, signature=scorer.signature)
    rows = run.results
    if run.interrupted:
        interrupted_message(run, "; comparing those")
        if not rows:
            return EXIT_INTERRUPTED
    dropped = [row[0].index for row in rows if any(p.status == "skipped" for p in row)]
    kept = [row for row in rows if all(p.status != "skipped" for p in row)]
    corpora = [scorer.corpus([row[k] for row in kept]) for k in range(len(names))]
    try:
        blocks = [(name, comparisons(corpora[0], corpus, config)[0])
                  for name, corpus in zip(names[1:], corpora[1:])]
    except INTERRUPTS:
        print("smatchpp: interrupted again: no comparison", file=sys.stderr)
        return EXIT_INTERRUPTED
    certified = [sum(p.status == "optimal" for p in c.scored) for c in corpora]
    first = blocks[0][1][0]
    summary: dict = {"signature": scorer.signature, "baseline": "sys1"}
    summary.update((name, getattr(args, name)) for name in names)
    summary.update({"gold": args.gold, "pairs": first.pairs, "left_out": dropped,
                    "certified_optimal": dict(zip(names, certified)),
                    "comparisons": [{"system": name, **c.to_json()} for name, results in blocks
                                    for c in results]})
    if run.interrupted:
        summary["interrupted"] = {"finished": len(rows), "total": run.total}
    if len(blocks[0][1]) > 1:
        summary["aspects"] = config.aspects
    header = [scorer.signature, "  ".join(f"{name}: {getattr(args, name)}" for name in names)
              + f"  gold: {args.gold}"]
    if run.interrupted:
        header.append(f"interrupted: {len(rows)} of {plural(run.total, 'pair')} finished; "
                      "the comparisons below cover those only")
    header.append(f"pairs: {first.pairs} compared, each system against sys1"
                  + (f", {len(dropped)} left out (skipped in any system)" if dropped else "")
                  + "; certified optimal: " + ", ".join(f"{n} {c}" for n, c in zip(names, certified)))
    print(present.systems_report(summary, blocks, args.format, header=header, mode=config.aspects),
          file=summary_stream(args))
    if dropped:
        warn(f"{plural(len(dropped), 'pair')} left out of the comparison (skipped in any system)")
    warn_unreadable(inputs.errors, config.on_error)
    return EXIT_INTERRUPTED if run.interrupted else EXIT_OK

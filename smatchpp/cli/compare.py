"""``smatchpp compare SYS1 SYS2 GOLD``: is the difference in micro F1 significant?

Both systems are scored exactly against the same gold; then a paired
bootstrap gives Delta F1 = F1(SYS1) - F1(SYS2) with its 95% interval and a
p-value, and an approximate-randomization test another p-value
(:func:`smatchpp.significance.compare` has the exact definitions).  Both are
seeded (``--bootstrap-seed``), so the numbers are the same on every run; the
signature names the resamples, the trials and the seed.

>>> from smatchpp.significance import PairStats, compare
>>> s = PairStats.from_counts([3, 4, 2], [4, 5, 4], [4, 4, 5])
>>> print(format_comparison(compare(s, s, resamples=100, trials=100)))
smatch: F1 sys1 69.23 [53.85, 88.89]  sys2 69.23 [53.85, 88.89]
  delta F1 (sys1 - sys2) +0.000 points, 95% interval [+0.00, +0.00]
  p-value: paired bootstrap 1.0000 (100 resamples), approximate randomization 1.0000 (100 trials)
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from typing import Iterable, Iterator

import numpy as np

from ..api import Scorer, read_errors
from ..aspects import ASPECTS, AspectCount
from ..config import Config
from ..score import CorpusScore
from ..significance import (DEFAULT_RESAMPLES, DEFAULT_TRIALS, Comparison, PairStats, compare,
                            paired_stats)
from .common import (EXIT_OK, EXIT_USAGE, _positive_int, add_bootstrap_options, add_dask_option,
                     add_setting_options, check_outputs, config_from_args, dask_client, open_output,
                     plural, read_inputs, warn, workers_from_args)
from .metric import add_metric_options, metric_from_args, run_compare
from .common import report_unreadable, warn_unreadable
from .score import ASPECT_MODES

__all__ = ["add_parser", "run", "format_comparison", "format_table", "comparisons"]


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("compare", help="significance of the micro F1 difference of two systems "
                                       "on the same gold (paired bootstrap, approximate randomization)")
    p.add_argument("sys1", help="graphs of the first system")
    p.add_argument("sys2", help="graphs of the second system, parallel to sys1")
    p.add_argument("gold", help="reference graphs, parallel to both")
    add_setting_options(p)
    add_bootstrap_options(p, default=DEFAULT_RESAMPLES)
    p.add_argument("--ar-trials", type=_positive_int, default=None, metavar="R",
                   help=f"approximate-randomization trials (default {DEFAULT_TRIALS})")
    p.add_argument("--aspects", nargs="?", const="separate", default="none", choices=ASPECT_MODES,
                   help="also compare the aspects of Damonte et al. (as score --aspects), each with "
                        "its own delta F1, interval and p-values")
    add_dask_option(p)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--pairs-out", metavar="FILE.jsonl",
                   help="one JSON object per pair: both systems' scores and their F1 difference")
    add_metric_options(p, ("A", "B", "C"))
    return p


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f}"


def _signed(x: float) -> str:
    return f"{100 * x:+.2f}"


def format_comparison(c: Comparison) -> str:
    """One comparison as text (points are percentage points)."""
    (lo1, hi1), (lo2, hi2) = c.system_intervals
    lines = [f"{c.name}: F1 sys1 {_pct(c.f1[0])} [{_pct(lo1)}, {_pct(hi1)}]  "
             f"sys2 {_pct(c.f1[1])} [{_pct(lo2)}, {_pct(hi2)}]",
             f"  delta F1 (sys1 - sys2) {100 * c.delta:+.3f} points, {100 * c.level:g}% interval "
             f"[{_signed(c.interval[0])}, {_signed(c.interval[1])}]",
             f"  p-value: paired bootstrap {c.p_bootstrap:.4f} ({c.resamples} resamples), "
             f"approximate randomization {c.p_randomization:.4f} ({c.trials} trials)"]
    if c.delta_range is not None:
        lines.append(f"  not every pair is certified: the tests use the lower bounds; the observed "
                     f"delta lies in [{_signed(c.delta_range[0])}, {_signed(c.delta_range[1])}]")
    return "\n".join(lines)


def comparisons(corpus1: CorpusScore, corpus2: CorpusScore, config: Config
                ) -> tuple[list[Comparison], list[int]]:
    """Smatch (and, when a pair carries them, further named counts) of two scored corpora.

    Returns the comparisons and the indices of pairs left out (skipped in
    either system).  Each comparison is made with ``config``'s resamples,
    trials and seed.  :func:`_named_stats` yields ``(name, stats1, stats2)``
    for every further score the pairs carry (the aspects, with ``--aspects``).
    """
    s1, s2, dropped = paired_stats(corpus1.pairs, corpus2.pairs)
    named = [("smatch", s1, s2)] + list(_named_stats(corpus1, corpus2, dropped))
    kwargs = {"resamples": config.bootstrap or DEFAULT_RESAMPLES,
              "trials": config.ar_trials or DEFAULT_TRIALS, "seed": config.bootstrap_seed}
    out = []
    for name, a, b in named:
        c = compare(a, b, name=name, **kwargs)
        if name != "smatch" and not any(x.sum() for s in (a, b) for x in (s.test, s.gold)):
            # an aspect with no items in either system or the gold: no F1 to compare (as in score)
            c = replace(c, f1=(None, None), extra={**c.extra, "no_items": True})
        out.append(c)
    return out, dropped


def _named_stats(corpus1: CorpusScore, corpus2: CorpusScore, dropped: list[int]
                 ) -> Iterator[tuple[str, PairStats, PairStats]]:
    """Further per-pair counts to compare: the aspects (``--aspects``), in the papers' order."""
    left_out = set(dropped)
    kept = [(p, q) for k, (p, q) in enumerate(zip(corpus1.pairs, corpus2.pairs)) if k not in left_out]
    if not kept or any(p.aspects is None or q.aspects is None for p, q in kept):
        return
    for name in ASPECTS:
        if name in kept[0][0].aspects:
            yield ASPECTS[name].title, _aspect_stats(p.aspects[name] for p, _ in kept), \
                _aspect_stats(q.aspects[name] for _, q in kept)


def _aspect_stats(counts: Iterable[AspectCount]) -> PairStats:
    rows = [(c.matched, c.upper, c.test, c.gold) for c in counts]
    cols = np.array(rows, dtype=np.float64).reshape(-1, 4)
    return PairStats(cols[:, 0], cols[:, 1], cols[:, 2], cols[:, 3])


def format_table(results: list[Comparison], mode: str) -> str:
    """The aspects' comparisons, one row each (F1 and delta in points).

    >>> from smatchpp.significance import PairStats, compare
    >>> s = PairStats.from_counts([3, 4, 2], [4, 5, 4], [4, 4, 5])
    >>> print(format_table([compare(s, s, resamples=50, trials=50, name="SRL")], "joint"))
    aspects (joint alignment)       F1 sys1  F1 sys2     delta  95% interval of delta  p bootstrap    p AR
    SRL                               69.23    69.23    +0.000  [+0.00, +0.00]              1.0000  1.0000
    """
    lines = [f"{f'aspects ({mode} alignment)':30s}  F1 sys1  F1 sys2     delta  95% interval of delta"
             "  p bootstrap    p AR"]
    for c in results:
        interval = f"[{_signed(c.interval[0])}, {_signed(c.interval[1])}]"
        lines.append(f"{c.name:30s}  {_pct(c.f1[0]):>7s}  {_pct(c.f1[1]):>7s}  {100 * c.delta:+8.3f}  "
                     f"{interval:21s}  {c.p_bootstrap:11.4f}  {c.p_randomization:6.4f}"
                     + ("  (lower bounds)" if not c.certified else "")
                     + ("  (no items on either side)" if c.extra.get("no_items") else ""))
    return "\n".join(lines)


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
    check_outputs({"--pairs-out": args.pairs_out}, [args.sys1, args.sys2, args.gold])
    workers = workers_from_args(args)
    entries_1, entries_2, entries_gold = read_inputs(args, ("sys1", "sys2", "gold"))
    errors = read_errors(entries_1, entries_2, entries_gold)
    if report_unreadable(errors, config.on_error):
        return EXIT_USAGE
    scorer = Scorer(config)
    with dask_client(args, workers) as client:
        corpus1, corpus2 = (
            CorpusScore(list(scorer.iter_scores(entries, entries_gold, workers=workers,
                                                progress=not args.quiet, dask=client)), scorer.signature)
            for entries in (entries_1, entries_2))
    results, dropped = comparisons(corpus1, corpus2, config)
    if args.pairs_out:
        with open_output(args.pairs_out) as out:
            for p1, p2 in zip(corpus1.pairs, corpus2.pairs):
                out.write(json.dumps(_pair_row(p1, p2)) + "\n")
    summary_out = sys.stderr if args.pairs_out == "-" else sys.stdout
    certified = [sum(p.status == "optimal" for p in c.scored) for c in (corpus1, corpus2)]
    if args.format == "json":
        summary = {"signature": scorer.signature, "sys1": args.sys1, "sys2": args.sys2,
                   "gold": args.gold, "pairs": results[0].pairs, "left_out": dropped,
                   "certified_optimal": {"sys1": certified[0], "sys2": certified[1]},
                   "comparisons": [c.to_json() for c in results]}
        if len(results) > 1:
            summary["aspects"] = config.aspects
        print(json.dumps(summary, indent=2), file=summary_out)
    else:
        lines = [scorer.signature,
                 f"sys1: {args.sys1}  sys2: {args.sys2}  gold: {args.gold}",
                 f"pairs: {results[0].pairs} compared"
                 + (f", {len(dropped)} left out (skipped in either system)" if dropped else "")
                 + f"; certified optimal: sys1 {certified[0]}, sys2 {certified[1]}"]
        lines.append(format_comparison(results[0]))
        if len(results) > 1:
            lines.append(format_table(results[1:], config.aspects))
        print("\n".join(lines), file=summary_out)
    if dropped:
        warn(f"{plural(len(dropped), 'pair')} left out of the comparison (skipped in either system)")
    warn_unreadable(errors, config.on_error)
    return EXIT_OK


"""``smatchpp explain TEST GOLD``: why two graphs differ, and what a hill-climber got wrong.

    smatchpp explain A B -o report.html [--pairs 3,17] [--worst N] [--gaps]
    smatchpp explain A B --pair 3 [--color auto|always|never]

The work is done by :mod:`smatchpp.explain` (see :mod:`smatchpp.explain.command`);
this module adds the shared scoring options and the exit-code contract.

    smatchpp explain A B --metric X [--pairs 3,17] [--pair 3] [--worst N] [--pairs-out FILE.jsonl]

``--metric X`` (any registered metric; ``smatch``, the default, is the view above) takes the
road of every metric (:func:`smatchpp.cli.app.score_pairs`, ``--metric``'s options as
``score``'s): each chosen pair's ``--pairs-out`` line with the metric's explanation
(:meth:`Metric.pair_json` with ``details``: Counter's clause alignment, WWLK's transport plan)
is printed in the terminal view (:mod:`smatchpp.explain.metric_view`) and written to
``--pairs-out``; ``--worst N`` ranks by the metric's headline score.  The views only the
alignment family has (the HTML report, the hill-climber's gaps) are refused under another
metric (:func:`refuse_views`, the one place).

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> add_parser(sub).parse_args(["a.amr", "b.amr", "--worst", "3"]).worst
3
"""

from __future__ import annotations

import argparse
import json
import sys

from ..api import read_errors
from ..explain.command import MAX_DRAW, add_options, chosen_indices, run_explain
from ..explain.metric_view import render, worst
from ..explain.terminal import supports_color
from ..core.exceptions import UsageError
from ..metrics import Metric
from ..running.runs import FileRun
from .app import aligns, collect, conclude, read_pairs, score_pairs, workers_for
from .common import (EXIT_USAGE, add_scoring_options, check_outputs, config_from_args, read_inputs,
                     workers_from_args)
from .common import report_unreadable, warn_unreadable
from .metric import RunSettings, add_metric_options, run_from_args

__all__ = ["add_parser", "run", "uses_stdout", "refuse_views"]

#: explain's own options: every metric's view takes the first ones (pair choice, the terminal
#: view, --pairs-out); the second are the alignment family's views, which another metric
#: refuses (:func:`refuse_views`: their flag, default and what they draw)
_EVERY_VIEW = ("pair", "pairs", "worst", "json", "color")
_ALIGNMENT_VIEWS = {"html": ("-o/--output", None, "the HTML report draws the alignment family's graphs"),
                    "title": ("--title", None, "it titles the HTML report"),
                    "max_draw": ("--max-draw", MAX_DRAW, "it limits the HTML report's drawings"),
                    "gaps": ("--gaps", False, "the hill-climber's gaps are the alignment family's"),
                    "gaps_of": ("--gaps-of", None, "the hill-climber's gaps are the alignment family's"),
                    "gap_file": ("--gap-file", None, "the hill-climber's gaps are the alignment family's")}


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("explain", help="show why two graphs differ: the optimal alignment, unmatched "
                                       "triples, certificate, and what the hill-climber lost "
                                       "(HTML report or terminal)")
    add_scoring_options(p)
    add_options(p)
    add_metric_options(p)
    p.epilog = ("With --metric other than smatch: each chosen pair's scores and the metric's explanation "
                "(counter: the clauses of each side, matched ones numbered, the mapping of boxes and "
                "referents and the certificate; wwlk: the transport plan) in the terminal and in --pairs-out, "
                "--worst N by the metric's score; -o/--output, --title, --max-draw and the --gaps options "
                "are the alignment family's views")
    # explain's own options are checked by explain (refuse_views), not as a metric's
    p.set_defaults(option_defaults={k: v for k, v in p.get_default("option_defaults").items()
                                    if k not in _EVERY_VIEW and k not in _ALIGNMENT_VIEWS})
    return p


def uses_stdout(args: argparse.Namespace) -> bool:
    """The terminal view goes to stdout; ``--html`` alone writes only its file."""
    return not args.html or args.pair is not None


def run(args: argparse.Namespace) -> int:
    metric, settings = run_from_args(args)  # refuses the options that do nothing under the metric
    if not aligns(metric):  # the alignment family's views, or every other metric's road
        return run_metric(args, metric, settings)
    config = config_from_args(args)
    if config.duplicates != "multiset":
        # the views mark each matched copy of a triple: a product count has no such copies
        raise UsageError("explain shows which copies of a triple match: it needs --duplicates multiset")
    check_outputs({"--output": args.html, "--pairs-out": args.json}, [args.test, args.gold])
    workers = workers_from_args(args)
    entries_a, entries_b = read_inputs(args)
    errors = read_errors(entries_a, entries_b)
    if report_unreadable(errors, config.on_error):
        return EXIT_USAGE
    code = run_explain(args, config, entries_a, entries_b, workers)
    warn_unreadable(errors, config.on_error)
    return code


def refuse_views(args: argparse.Namespace, metric: Metric) -> None:
    """The one place that refuses, under a metric other than the alignment family, the views
    only the family draws (the HTML report, the hill-climber's gaps); every other option of
    ``explain`` is the terminal view's, the pairs' choice or ``--pairs-out``, which every
    metric takes, or a scoring option (refused by :func:`~.metric.run_from_args`)."""
    given = [(flag, why) for dest, (flag, default, why) in _ALIGNMENT_VIEWS.items()
             if getattr(args, dest, default) != default]
    if given:
        flags = ", ".join(flag for flag, _ in given)
        why = "; ".join(dict.fromkeys(why for _, why in given))
        raise UsageError(f"{flags} {'does' if len(given) == 1 else 'do'} nothing under --metric {metric.name} "
                         f"({why}): explain --metric {metric.name} prints each pair's explanation in the "
                         "terminal and writes it to --pairs-out")


def run_metric(args: argparse.Namespace, metric: Metric, settings: RunSettings) -> int:
    """``explain --metric X``: the chosen pairs scored on the road of every metric with their
    explanations, ``--worst N`` by the metric's headline score, the terminal view of each (the
    run's signature first) and ``--pairs-out`` (each pair's :meth:`Metric.pair_json` with
    ``details``)."""
    refuse_views(args, metric)
    inputs = read_pairs(args, ("test", "gold"), settings.on_error, {"--pairs-out": args.json})
    if inputs is None:
        return EXIT_USAGE
    entries_a, entries_b = inputs.entries
    indices = chosen_indices(args, inputs.total)
    if indices is not None and FileRun.possible(metric):  # no metric.prepare over the corpus: the chosen pairs only
        entries_a, entries_b = [entries_a[k] for k in indices], [entries_b[k] for k in indices]
    workers = workers_for(args, metric, len(entries_b))
    run = collect(args, lambda client: score_pairs(metric, entries_a, entries_b, settings.on_error, workers,
                                                   client, details=True),
                  workers, len(entries_b), progress=True)
    pairs = run.results
    if indices is not None:
        if len(entries_b) == inputs.total:  # every pair was scored: keep the chosen
            wanted = set(indices)
            pairs = [p for p in pairs if p.index in wanted]
        else:  # the chosen pairs were scored alone: their indices are the files'
            for pair, k in zip(pairs, indices):
                pair.index = k
    if args.worst is not None:
        pairs = worst(pairs, [None if p.stats is None else float(metric.pair_scores(p.stats)[metric.headline])
                              for p in pairs], args.worst)
    lines = [metric.pair_json(p, details=True) for p in pairs]
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            for line in lines:
                out.write(json.dumps(line) + "\n")
    color = args.color == "always" or (args.color == "auto" and supports_color(sys.stdout))
    shown = [line for line in lines if args.pair is None or line["index"] == args.pair]
    head = settings.signature(metric) + ("" if metric.explains() else
                                         f"\n({metric.name} gives no explanation beyond each pair's statistics)")
    print("\n\n".join([head] + [render(line, color, metric.stat_names) for line in shown]))
    return conclude(run, inputs)

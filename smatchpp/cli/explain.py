"""``smatchpp explain TEST GOLD``: why two graphs differ, and what a hill-climber got wrong.

    smatchpp explain A B -o report.html [--pairs 3,17] [--worst N] [--gaps]
    smatchpp explain A B --pair 3 [--color auto|always|never]

The pairs are read and explained through the command template (:mod:`smatchpp.cli.app`:
:func:`~smatchpp.cli.app.read_pairs`, :func:`~smatchpp.cli.app.collect`, whose interrupt keeps
the pairs explained so far); what is shown of them is :mod:`smatchpp.explain`'s
(:func:`smatchpp.explain.command.show`); this module adds the options and the exit-code contract.

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
>>> p = argparse.ArgumentParser()
>>> add_view_options(p)
>>> a = p.parse_args(["--pairs", "1,3", "--worst", "1"])
>>> a.pairs, a.worst, a.gaps, a.html
('1,3', 1, False, None)
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from ..explain.command import MAX_DRAW, Views, show
from ..explain.metric_view import render, worst
from ..explain.model import iter_explanations
from ..explain.select import OURS, GapFile, parse_pairs
from ..explain.terminal import supports_color
from ..core.exceptions import UsageError
from ..metrics import Metric
from ..running.runs import FileRun
from .app import aligns, collect, conclude, read_pairs, score_pairs, workers_for
from .common import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, add_scoring_options, config_from_args, workers_from_args
from .common import warn_unreadable
from .metric import RunSettings, add_metric_options, run_from_args

__all__ = ["add_parser", "add_view_options", "run", "uses_stdout", "refuse_views", "chosen_indices"]

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
    add_view_options(p)
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


def add_view_options(p: argparse.ArgumentParser) -> None:
    """The options of ``explain`` beside the shared scoring options: the views and the choice
    of pairs (:class:`smatchpp.explain.command.Views`)."""
    p.add_argument("-o", "--output", "--html", dest="html", metavar="REPORT.html",
                   help="write a self-contained HTML report (index + one page per pair); "
                        "--html: its old spelling")
    p.add_argument("--pair", type=int, metavar="N",
                   help="print pair N (0-based) in the terminal: PENMAN with aligned variables marked")
    p.add_argument("--pairs", metavar="3,17,20-25", help="only these pairs (0-based indices)")
    p.add_argument("--worst", type=int, metavar="N", help="only the N pairs with the lowest F1")
    p.add_argument("--gaps", action="store_true",
                   help="only pairs where a hill-climber is below the optimum: the seeded one "
                        "(--restarts, --seed), and each tool of --gap-file (e.g. smatch 1.0.4)")
    p.add_argument("--gaps-of", action="append", metavar="TOOL", default=None,
                   help="only pairs where this tool is below the optimum: hillclimber (ours) or a "
                        "tool of --gap-file (smatch104); repeat for any of several")
    p.add_argument("--gap-file", metavar="GAP.jsonl",
                   help="the --pairs-out file of `smatchpp gap` on the same inputs: its per-tool gap "
                        "columns (smatch 1.0.4's) join the index, and --gaps/--gaps-of can use them")
    p.add_argument("--pairs-out", "--json", dest="json", metavar="FILE.jsonl",
                   help="write each chosen pair's explanation as JSON, one object per line; "
                        "--json: its old spelling")
    p.add_argument("--max-draw", type=int, default=MAX_DRAW, metavar="VARS",
                   help=f"graphs with more variables are shown as PENMAN text (default {MAX_DRAW})")
    p.add_argument("--title", default=None, help="title of the HTML report")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colours in the terminal view (auto: when stdout is a terminal). The view "
                        "tags each aligned variable with its pair's number (x[3] in A and y[3] in B "
                        "are aligned; [-]: unaligned); a concept or role of an unmatched triple is "
                        "underlined in red, or, without colour, followed by (!)")


def chosen_indices(args: argparse.Namespace, n: int) -> list[int] | None:
    """The pair indices of ``--pairs`` and ``--pair``, checked against the ``n`` pairs of the inputs."""
    chosen = None
    if args.pairs is not None:
        try:
            chosen = parse_pairs(args.pairs, n)
        except ValueError as exc:
            raise UsageError(f"--pairs {args.pairs!r}: {exc}") from None
    if args.pair is not None:
        if args.pair < 0:
            raise UsageError(f"--pair {args.pair}: pair indices are 0-based and not negative")
        if args.pair >= n:
            raise UsageError(f"--pair {args.pair}: pair index {args.pair} out of range: the files hold "
                             f"{n} {'pair' if n == 1 else 'pairs'}" + (f" (indices 0 to {n - 1})" if n else ""))
        chosen = sorted(set(chosen or []) | {args.pair})
    if args.worst is not None and args.worst < 1:
        raise UsageError("--worst needs a positive number")
    return chosen


def _gap_tools(args: argparse.Namespace, gap_file: GapFile | None) -> bool | list[str]:
    """What ``--gaps`` / ``--gaps-of`` select (see :func:`~smatchpp.explain.select.select`),
    checked before explaining."""
    if not args.gaps_of:
        return bool(args.gaps)
    known = [OURS] + (list(gap_file.columns) if gap_file else [])
    for tool in args.gaps_of:
        if tool not in known:
            hint = "" if gap_file else "; the other tools' gaps come from --gap-file (smatchpp gap --pairs-out)"
            raise UsageError(f"--gaps-of {tool}: no such tool (known: {', '.join(known)}){hint}")
    return list(dict.fromkeys(args.gaps_of))


def run(args: argparse.Namespace) -> int:
    metric, settings = run_from_args(args)  # refuses the options that do nothing under the metric
    if not aligns(metric):  # the alignment family's views, or every other metric's road
        return run_metric(args, metric, settings)
    config = config_from_args(args)
    if config.duplicates != "multiset":
        # the views mark each matched copy of a triple: a product count has no such copies
        raise UsageError("explain shows which copies of a triple match: it needs --duplicates multiset")
    workers = workers_from_args(args)
    inputs = read_pairs(args, ("test", "gold"), config.on_error, {"--output": args.html, "--pairs-out": args.json})
    if inputs is None:
        return EXIT_USAGE
    entries_a, entries_b = inputs.entries
    indices = chosen_indices(args, len(entries_a))
    gap_file = None
    if args.gap_file:  # checked before any pair is explained
        ids = [ea.id or eb.id for ea, eb in zip(entries_a, entries_b)]
        gap_file = GapFile(args.gap_file, len(entries_a), ids)
    views = Views(test=args.test, gold=args.gold, html=args.html, json=args.json, title=args.title,
                  max_draw=args.max_draw, pair=args.pair, pairs=args.pairs,
                  listed=len(indices or []) if args.pairs else 0, worst=args.worst,
                  gaps=_gap_tools(args, gap_file), color=args.color)
    began = time.perf_counter()
    wanted = len(entries_a) if indices is None else len(indices)
    # an interrupt keeps the pairs explained so far, and the report shows them
    run = collect(args, lambda client: iter_explanations(entries_a, entries_b, config, indices, workers,
                                                         progress=not getattr(args, "quiet", False)),
                  workers, wanted)
    stopped = f"interrupted: {len(run.results)} of {wanted} pairs explained" if run.interrupted else ""
    show(views, run.results, config, gap_file, stopped, time.perf_counter() - began)
    if run.interrupted:
        print(f"smatchpp: {stopped}" + (f", written to {args.html}" if args.html else ""), file=sys.stderr)
    warn_unreadable(inputs.errors, inputs.on_error)
    return EXIT_INTERRUPTED if run.interrupted else EXIT_OK


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

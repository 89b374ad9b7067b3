"""What ``smatchpp explain`` does once its arguments are parsed (the CLI module wires it in).

    smatchpp explain A B -o report.html [--pairs 3,17] [--worst N] [--gaps]
               [--gap-file GAP.jsonl [--gaps-of smatch104]]
    smatchpp explain A B --pair 3 [--color auto|always|never]

Without ``--html`` the chosen pairs are printed in the terminal view.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_options(p)
>>> a = p.parse_args(["--pairs", "1,3", "--worst", "1"])
>>> a.pairs, a.worst, a.gaps, a.html
('1,3', 1, False, None)
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from ..api import Scorer
from ..core.exceptions import UsageError
from ..running.executor import EXIT_INTERRUPTED, INTERRUPTS
from .html import MAX_DRAW, write_report
from .model import iter_explanations
from .select import OURS, GapFile, parse_pairs, select
from .terminal import render, supports_color

__all__ = ["add_options", "run_explain", "chosen_indices", "MAX_DRAW"]

#: the tools of --gaps-of as the report's note names them
_TOOL_NAMES = {OURS: "the seeded hill-climber", "smatch104": "smatch 1.0.4"}


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``explain`` beside the shared scoring options."""
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
    """What ``--gaps`` / ``--gaps-of`` select (see :func:`~.select.select`), checked before explaining."""
    if not args.gaps_of:
        return bool(args.gaps)
    known = [OURS] + (list(gap_file.columns) if gap_file else [])
    for tool in args.gaps_of:
        if tool not in known:
            hint = "" if gap_file else "; the other tools' gaps come from --gap-file (smatchpp gap --pairs-out)"
            raise UsageError(f"--gaps-of {tool}: no such tool (known: {', '.join(known)}){hint}")
    return list(dict.fromkeys(args.gaps_of))


def run_explain(args: argparse.Namespace, config, entries_a, entries_b, workers: int) -> int:
    """Explain, select, and write the report and/or print the terminal view."""
    indices = chosen_indices(args, len(entries_a))
    gap_file = None
    if args.gap_file:  # checked before any pair is explained
        ids = [ea.id or eb.id for ea, eb in zip(entries_a, entries_b)]
        gap_file = GapFile(args.gap_file, len(entries_a), ids)
    gaps = _gap_tools(args, gap_file)
    began = time.perf_counter()
    explanations = []
    interrupted = False
    try:  # an interrupt keeps the pairs explained so far, and the report shows them
        for e in iter_explanations(entries_a, entries_b, config, indices, workers,
                                   progress=not getattr(args, "quiet", False)):
            explanations.append(e)
    except INTERRUPTS:
        interrupted = True
    wanted = len(entries_a) if indices is None else len(indices)
    stopped = (f"interrupted: {len(explanations)} of {wanted} pairs explained"
               if interrupted else "")
    explained = time.perf_counter()
    chosen = select(explanations, worst=args.worst, gaps=gaps,
                    columns=gap_file.columns if gap_file else None)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            for e in chosen:
                out.write(json.dumps(e.to_json()) + "\n")
    if args.html:
        extra = gap_file.headers() if gap_file else {}
        listed = len(indices or []) if args.pairs else 0
        below = ("" if not gaps else
                 "where the seeded hill-climber is below the optimum" if gaps is True and not extra else
                 "where a hill-climber (ours or of the gap file) is below the optimum" if gaps is True else
                 f"where {' or '.join(_TOOL_NAMES.get(t, t) for t in gaps)} is below the optimum")
        how = [(f"pairs {args.pairs}" if len(args.pairs) <= 60 else f"{listed} pairs listed by --pairs")
               if args.pairs else "",
               below,
               f"the {args.worst} with the lowest F1, lowest first" if args.worst else ""]
        note = "; ".join(x for x in how if x)
        note = "; ".join(x for x in (("Chosen: " + note) if note else "", stopped.capitalize()) if x)
        write_report(args.html, chosen, title=args.title or f"smatchpp explain: {args.test} vs {args.gold}",
                     signature=Scorer(config).signature,
                     note=note, max_draw=args.max_draw, extra=extra,
                     corpus=Scorer(config).corpus([e.score for e in explanations]))
        written = time.perf_counter()
        print(f"wrote {args.html}: {len(chosen)} pairs (explained {len(explanations)} in "
              f"{explained - began:.1f} s, report in {written - explained:.1f} s)", file=sys.stderr)
    if not args.html or args.pair is not None:
        color = args.color == "always" or (args.color == "auto" and supports_color(sys.stdout))
        shown = [e for e in chosen if args.pair is None or e.index == args.pair]
        print("\n\n".join(render(e, color) for e in shown))
    if interrupted:
        print(f"smatchpp: {stopped}" + (f", written to {args.html}" if args.html else ""),
              file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0

"""smatch 1.0.4's (and docSmatch's) command line: ``smatchpp -f TEST GOLD --pr --significant 4``.

When one of smatch's own options is given to ``smatchpp score`` (or to ``smatchpp`` with
smatch's ``-f``), the command takes smatch 1.0.4's options and prints smatch 1.0.4's lines,
so that scripts that parse them keep working (the numbers are the exact optimum,
:mod:`smatchpp.smatch`):

* ``--pr``: ``Precision: ...`` and ``Recall: ...`` before each ``F-score: ...``;
* ``--ms``: one ``F-score`` (with ``--pr`` its three lines) per pair, no corpus line;
* ``--significant N``: ``N`` decimals (default 2, as 1.0.4);
* ``-v`` / ``--vv``: smatch's verbose output on stderr (:data:`smatchpp.smatch.verbose`);
* ``--justinstance`` / ``--justattribute`` / ``--justrelation``: only those triples;
* ``-r N``: smatch's restarts; no effect on an exact score (said once on stderr, exit 0).

docSmatch's ``doc-smatch -r 1 --significant 4 -f A B`` is ``smatchpp -r 1 --significant 4 -f A B``.
Its ``--coref-subscore`` is not handled here (a command line with it is left to ``score``).

>>> requested(["score", "a.amr", "b.amr", "--pr"]), requested(["score", "a.amr", "b.amr"])
(True, False)
>>> requested(["-r", "1", "--significant", "4", "-f", "a", "b"]), requested(["matrix", "--pr"])
(True, False)
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .usage import Parser

__all__ = ["SMATCH_OPTIONS", "requested", "parse", "run"]

#: smatch 1.0.4's options (docSmatch has the same) that ``smatchpp score`` does not have
SMATCH_OPTIONS = frozenset({"--pr", "--ms", "-r", "--significant", "-v", "--vv", "--justinstance",
                            "--justattribute", "--justrelation"})
#: docSmatch's option that another part of smatchpp handles (documents)
LEFT_TO_SCORE = frozenset({"--coref-subscore"})


def _names(argv: Sequence[str]) -> list[str]:
    names = []
    for token in argv:
        if token == "--":
            break
        names.append(token.split("=", 1)[0] if token.startswith("--") else token)
    return names


def requested(argv: Sequence[str]) -> bool:
    """Whether ``argv`` (after :func:`~smatchpp.cli.usage.smatch_syntax`) is smatch's command
    line: ``score`` or smatch's options first, and one of :data:`SMATCH_OPTIONS` among them."""
    if not argv or not (argv[0] == "score" or argv[0] == "-f" or argv[0] in SMATCH_OPTIONS):
        return False
    names = _names(argv)
    return any(n in SMATCH_OPTIONS for n in names) and not any(n in LEFT_TO_SCORE for n in names)


def _build() -> argparse.ArgumentParser:
    p = Parser(prog="smatchpp score",
               description="smatch 1.0.4's command line (its options and its output lines), scored "
                           "exactly: the numbers are the optimum 1.0.4's hill-climbing approaches.")
    p.add_argument("files", nargs="*", metavar="FILE", help="TEST GOLD (or -f TEST GOLD)")
    p.add_argument("-f", nargs=2, metavar=("TEST", "GOLD"),
                   help="two files of AMRs separated by blank lines (test, then gold)")
    p.add_argument("-r", type=int, default=None, metavar="N",
                   help="smatch's restarts: no effect here (every pair is solved exactly)")
    p.add_argument("--significant", type=int, default=2, metavar="N",
                   help="decimals of the printed scores (default 2)")
    p.add_argument("-v", action="store_true", help="verbose output on stderr")
    p.add_argument("--vv", action="store_true", help="very verbose output on stderr")
    p.add_argument("--ms", action="store_true", help="one score per pair instead of one for the corpus")
    p.add_argument("--pr", action="store_true", help="print precision and recall as well as F-score")
    p.add_argument("--justinstance", action="store_true", help="only instance triples")
    p.add_argument("--justattribute", action="store_true", help="only attribute triples")
    p.add_argument("--justrelation", action="store_true", help="only relation triples")
    return p


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The arguments of smatch's command line ``argv`` (``score`` first or not), with ``run``."""
    argv = list(argv[1:] if argv and argv[0] == "score" else argv)
    parser = _build()
    args = parser.parse_args(argv)
    files = list(args.files) + list(args.f or [])
    if len(files) != 2:
        parser.error(f"give two files, TEST GOLD or -f TEST GOLD (got {len(files)})")
    if args.significant < 0:
        parser.error(f"--significant: expected a number of decimals >= 0, got {args.significant}")
    args.test, args.gold = files
    args.run, args.uses_stdout, args.command = run, None, "score"
    return args


def run(args: argparse.Namespace) -> int:
    from .. import smatch

    if args.r is not None:
        print(f"smatchpp: note: -r {args.r} has no effect: every pair is solved exactly, so no "
              "restarts are needed", file=sys.stderr)
    smatch.ERROR_LOG = smatch.DEBUG_LOG = sys.stderr
    smatch.single_score = not args.ms
    smatch.verbose, smatch.veryVerbose, smatch.pr_flag = args.v, args.vv, args.pr
    display = "%%.%df" % args.significant
    with open(args.test) as test, open(args.gold) as gold:
        for precision, recall, f_score in smatch.score_amr_pairs(
                test, gold, justinstance=args.justinstance, justattribute=args.justattribute,
                justrelation=args.justrelation):
            if args.pr:
                print("Precision: " + display % precision)
                print("Recall: " + display % recall)
            print("F-score: " + display % f_score, flush=True)
    return 0

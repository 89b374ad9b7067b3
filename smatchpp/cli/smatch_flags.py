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
With docSmatch's ``--coref-subscore`` (or this project's ``--sentence-buckets``, docSmatch's
restriction of the alignment to common sentences), the lines are docSmatch's:
``Overall Score:`` and its ``F-score``, ``Coref Score`` and the Total Coref ``F-score``, then
``Time(s): ...``.  docSmatch always restricts the alignment to common sentence buckets; here that
is ``--sentence-buckets`` (without it the score is the unrestricted optimum, and a note says so).

>>> requested(["score", "a.amr", "b.amr", "--pr"]), requested(["score", "a.amr", "b.amr"])
(True, False)
>>> requested(["-r", "1", "--significant", "4", "-f", "a", "b"]), requested(["matrix", "--pr"])
(True, False)
>>> requested(["--coref-subscore", "-r", "1", "-f", "a", "b"]), requested(["score", "a", "b", "--coref-subscore"])
(True, False)
>>> requested(["--coref-subscore", "--sentence-buckets", "-f", "a", "b"])
True
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .usage import Parser

__all__ = ["SMATCH_OPTIONS", "DOC_OPTIONS", "requested", "parse", "run"]

#: smatch 1.0.4's options (docSmatch has the same) that ``smatchpp score`` does not have
SMATCH_OPTIONS = frozenset({"--pr", "--ms", "-r", "--significant", "-v", "--vv", "--justinstance",
                            "--justattribute", "--justrelation"})
#: docSmatch's options, which ``smatchpp score`` has too: with one of :data:`SMATCH_OPTIONS`
#: they print docSmatch's lines
DOC_OPTIONS = frozenset({"--coref-subscore", "--sentence-buckets"})


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
    if not argv or not (argv[0] in ("score", "-f") or argv[0] in SMATCH_OPTIONS | DOC_OPTIONS):
        return False
    # docSmatch's options first (``--coref-subscore -f A B``) are its command line too; after
    # ``score`` they are score's own options
    return argv[0] in DOC_OPTIONS or any(n in SMATCH_OPTIONS for n in _names(argv))


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
    p.add_argument("--coref-subscore", action="store_true",
                   help="docSmatch's Coref Score (Total Coref) after the Overall Score")
    p.add_argument("--sentence-buckets", action="store_true",
                   help="docSmatch's restriction: align nodes of common sentences only")
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
    if (args.coref_subscore or args.sentence_buckets) and (
            args.justinstance or args.justattribute or args.justrelation or args.v or args.vv):
        parser.error("--coref-subscore and --sentence-buckets take none of --justinstance, "
                     "--justattribute, --justrelation, -v, --vv")
    args.test, args.gold = files
    args.run, args.uses_stdout, args.command = run, None, "score"
    return args


def run(args: argparse.Namespace) -> int:
    from .. import smatch

    if args.r is not None:
        print(f"smatchpp: note: -r {args.r} has no effect: every pair is solved exactly, so no "
              "restarts are needed", file=sys.stderr)
    if args.coref_subscore or args.sentence_buckets:
        return _run_documents(args)
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


def _print_prf(precision: float, recall: float, f_score: float, args: argparse.Namespace) -> None:
    display = "%%.%df" % args.significant
    if args.pr:
        print("Precision: " + display % precision)
        print("Recall: " + display % recall)
    print("F-score: " + display % f_score, flush=True)


def _run_documents(args: argparse.Namespace) -> int:
    """docSmatch's lines: per pair with ``--ms``; else ``Overall Score:`` and, with
    ``--coref-subscore``, ``Coref Score`` (Total Coref), each with its scores; ``Time(s)``."""
    import time

    from ..api import Scorer, read_file
    from ..alignment.config import Config
    from .. import smatch

    if not args.sentence_buckets:
        print("smatchpp: note: docSmatch aligns nodes of common sentences only; this score is the "
              "unrestricted optimum: add --sentence-buckets for docSmatch's setting", file=sys.stderr)
    start = time.time()
    scorer = Scorer(Config(preset="smatch", solver="exact", duplicates=smatch.duplicates,
                           sentence_buckets=args.sentence_buckets, coref_subscore=args.coref_subscore))
    corpus = scorer.score_corpus(read_file(args.test), read_file(args.gold))
    if args.ms:
        for pair in corpus.scored:
            _print_prf(*smatch.compute_f(pair.matched, pair.test_weight, pair.gold_weight), args)
    summary = corpus.summary()
    blocks = [("Overall Score:", summary["matched_lower"], summary["test_total"], summary["gold_total"])]
    if args.coref_subscore:
        coref = corpus.coref_summary()["Total Coref"]
        blocks.append(("Coref Score", coref["matched"], coref["test"], coref["gold"]))
    for label, matched, test, gold in blocks:
        print(label)
        if not args.ms:
            _print_prf(*smatch.compute_f(matched, test, gold), args)
    print("Time(s): " + ("%%.%df" % args.significant) % (time.time() - start))
    return 0

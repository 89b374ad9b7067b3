"""Counter's command line (``RikVN/DRS_parsing``'s ``evaluation/counter.py``):
``smatchpp -f1 TEST -f2 GOLD [-g clf_signature.yaml] [-ic] [-ill dummy] [-ms] [-prin] [-ds N] [-m N] [-b]
[-sig 4]``.

When ``-f1`` is given, the command takes Counter's options and prints Counter's lines
(``## Clause information ##``, ``Clauses prod :``, ``Matching clauses:``, ``Precision:``,
``Recall   :``, ``F-score  :``, with ``-prin`` the detailed scores of operators, roles,
concepts, nouns, verbs, adjectives, adverbs and events), so that scripts that read Counter's
output keep working; the numbers are the exact optimum (the ``counter`` metric,
:mod:`smatchpp.metrics.counter`).  Precision and recall are rounded to ``-sig`` digits and
the F-score computed from them and rounded, as Counter's ``compute_f`` does.

* ``-g``, ``-ic``, ``-ill``, ``-dse``, ``-dr``, ``-dc``: as Counter's (the metric's settings);
  ``-ill spar`` needs ``--counter-spar FILE`` (the release's ``baseline_drs.txt``);
* ``-ms``: each pair's block before the corpus's; ``-prin``: the detailed scores;
* ``-m N`` (``--max_clauses``), as Counter: with several DRS pairs it says how many pairs
  have a DRS of more than ``N`` clauses (after REF pruning, before repeated clauses are
  dropped) and prints the limit in each block, and scores every pair (Counter's totals keep
  them); with one pair whose DRS has more than ``N`` clauses (after both) it says so and
  scores nothing;
* ``-b`` (``--baseline``): the produced file holds one DRS, scored against every gold DRS
  (Counter's way of choosing a baseline DRS); more than one is refused, as Counter does;
* ``-ds N`` (``--detailed_stats``): after the scores, each operator, role and concept (with
  its sense) that occurs at least ``N`` times in the produced or the gold DRSs, with its
  F-score, its clauses on each side and its matches (Counter's lists, by F-score; the
  clauses as written, after REF pruning, a repeated clause included; v.2.2.0's shape with
  ``--counter-version 2019``: more than ``N``, the F-score and the gold clauses);
* ``-r``, ``-p``, ``-s``, ``-runs``, ``-mem``: the hill-climber's; no effect on an exact score
  (said once on stderr);
* ``--counter-wordnet``, ``--counter-spar``, ``--counter-referee``, ``--counter-version``: the
  metric's other settings (Counter imports its WordNet map; here it is a file).

>>> requested(["-f1", "a.clf", "-f2", "b.clf"]), requested(["score", "a", "b"])
(True, False)
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Sequence

from .usage import Parser

__all__ = ["requested", "parse", "run", "counter_prf"]

_NO_EFFECT = ("r", "p", "s", "runs", "mem")


def requested(argv: Sequence[str]) -> bool:
    """Whether ``argv`` is Counter's command line: ``-f1`` before any ``--``, ``score`` or a
    Counter option first."""
    head = list(argv[: argv.index("--")] if "--" in argv else argv)
    return "-f1" in head and (head[0] in ("score", "-f1") or head[0].startswith("-"))


def _build() -> argparse.ArgumentParser:
    p = Parser(prog="smatchpp", description="Counter's command line (its options and its output "
                                            "lines), scored exactly.")
    p.add_argument("-f1", required=True, metavar="TEST", help="DRSs in clausal form (produced)")
    p.add_argument("-f2", required=True, metavar="GOLD", help="DRSs in clausal form (gold)")
    p.add_argument("-g", "--signature", dest="sig_file", default=None, metavar="FILE",
                   help="the signature of clausal forms (clf_signature.yaml)")
    p.add_argument("-ic", "--include_ref", action="store_true", help="keep the redundant REF clauses")
    p.add_argument("-ill", default="error", choices=("error", "dummy", "spar", "score"),
                   help="an ill-formed DRS: an error, a dummy DRS, the SPAR DRS or scored as it is")
    p.add_argument("-dse", "--default_sense", action="store_true", help="every sense n.01")
    p.add_argument("-dr", "--default_role", action="store_true", help="every role Role")
    p.add_argument("-dc", "--default_concept", action="store_true", help="every concept work.n.01")
    p.add_argument("-ms", action="store_true", help="each pair's scores, then the corpus's")
    p.add_argument("-prin", action="store_true", help="the detailed scores (operators, roles, ...)")
    p.add_argument("-m", "--max_clauses", type=int, default=0, metavar="N",
                   help="with several pairs: count the pairs with a DRS above N clauses (all are scored); "
                        "with one: skip it when above N (default 0: no limit)")
    p.add_argument("-b", "--baseline", action="store_true",
                   help="the produced file is one DRS, compared with every gold DRS")
    p.add_argument("-ds", "--detailed_stats", type=int, default=0, metavar="N",
                   help="the F-score of each operator, role and concept that occurs N times or more "
                        "(default 0: none)")
    p.add_argument("-sig", "--significant", type=int, default=4, metavar="N", help="digits (default 4)")
    for name in _NO_EFFECT:
        p.add_argument(f"-{name}", default=None, help="the hill-climber's: no effect here")
    p.add_argument("--counter-wordnet", default=None, metavar="FILE", help="the WordNet map")
    p.add_argument("--counter-spar", default=None, metavar="FILE", help="the SPAR DRS of -ill spar")
    p.add_argument("--counter-referee", default="2021", choices=("2021", "2019", "none"),
                   help="the Referee rules: 2021 (PMB 3.0.0, 4.0.0), 2019 (v.2.2.0, PMB 2.2.0) or none")
    p.add_argument("--counter-version", default="2021", choices=("2021", "2020", "2019"),
                   help="which Counter builds the clauses")
    return p


def parse(argv: Sequence[str]) -> argparse.Namespace:
    """The arguments of Counter's command line ``argv`` (``score`` first or not), with ``run``."""
    argv = list(argv[1:] if argv and argv[0] == "score" else argv)
    parser = _build()
    args = parser.parse_args(argv)
    for flag, value, what in (("-sig", args.significant, "a number of digits"),
                              ("-ds", args.detailed_stats, "a number of occurrences"),
                              ("-m", args.max_clauses, "a number of clauses (0: no limit)")):
        if value < 0:  # Counter takes them silently; a negative count is a typo
            parser.error(f"{flag}: expected {what} >= 0, got {value}")
    args.test, args.gold = args.f1, args.f2
    args.run, args.uses_stdout, args.command = run, None, "score"
    return args


def counter_prf(matched: float, test: float, gold: float, digits: int) -> tuple[float, float, float]:
    """Counter's ``compute_f``: precision and recall rounded, the F-score of the rounded ones rounded.

    >>> counter_prf(2, 3, 4, 4)
    (0.6667, 0.5, 0.5714)
    >>> counter_prf(0, 0, 4, 4)
    (0.0, 0.0, 0.0)
    """
    if test == 0 or gold == 0:
        return 0.0, 0.0, 0.0
    p, r = round(matched / test, digits), round(matched / gold, digits)
    return p, r, (round(2 * p * r / (p + r), digits) if p + r else 0.0)


def _block(matched: float, test: float, gold: float, pairs: int | None, args, division=None,
           start: float = 0.0) -> None:
    digits = args.significant
    p, r, f = counter_prf(matched, test, gold, digits)
    print("\n## Clause information ##\n")
    print(f"Clauses prod : {int(test)}")
    print(f"Clauses gold : {int(gold)}\n")
    if args.max_clauses > 0:
        print(f"Max number of clauses per DRS:  {args.max_clauses}\n")
    print("## Main Results ##\n")
    if pairs is not None:
        print(f"All shown number are micro-averages calculated over {pairs} DRS-pairs\n")
    print(f"Matching clauses: {int(matched)}\n")
    print(f"Precision: {round(p, digits)}")
    print(f"Recall   : {round(r, digits)}")
    print(f"F-score  : {round(f, digits)}")
    if args.prin and division is not None:
        print("\n## Detailed precision, recall, F-score ##\n")
        from ..drs.clauses import DETAIL_NAMES

        for k, name in enumerate(DETAIL_NAMES):
            dp, dr, df = counter_prf(division[0][k], division[1][k], division[2][k], digits)
            print(f"Prec, rec, F1 {name}: {dp}, {dr}, {df}")
    print(f"Total processing time: {round(time.time() - start, digits)} sec", flush=True)


def _tab_list(rows: list[list[str]]) -> list[str]:
    """Counter's ``create_tab_list``: each column padded to its widest cell and one space, tab-joined."""
    widths = [max(len(r[k]) for r in rows) + 1 for k in range(len(rows[0]))]
    return ["\t".join(cell.ljust(widths[k]) for k, cell in enumerate(row)) for row in rows]


def _print_clause_stats(table: dict, args) -> None:
    """Counter's ``save_detailed_stats``: operators, roles and concepts, each by F-score."""
    from ..drs.clauses import all_upper, is_role

    old = args.counter_version == "2019"  # v.2.2.0: more than N, and the gold clauses only
    f = {name: counter_prf(*row, args.significant)[2] for name, row in table.items()}
    lists: list[list[list[str]]] = [[], [], []]
    for name in sorted(f, key=f.get, reverse=True):
        m, prod, gold = table[name]
        limit = args.detailed_stats
        if (prod > limit or gold > limit) if old else (prod >= limit or gold >= limit):
            kind = 0 if all_upper(name) or (not old and name in ("SY1", "SY2")) else 1 if is_role(name) else 2
            lists[kind].append([name, str(f[name]), str(gold)] if old else
                               [name, str(f[name]), str(prod), str(gold), str(m)])
    for head, rows in zip(("Operators", "Roles", "Concepts"), lists):
        print(f"\nIndividual clause scores for {head.lower()}:\n")
        top = [head, "F-score", "Gold inst"] if old else [head, "F-score", "Prod inst", "Gold inst", "Match"]
        for line in _tab_list([top] + rows):
            print(line)


_REPLACED = {"dummy": "is ill-formed and replaced by a dummy DRS",
             "spar": "is ill-formed and replaced by the SPAR DRS",
             "score": "is ill-formed, but try to give a score anyway - might still error later"}


def _warn_ill(drss, args, metric) -> None:
    """Counter's line for each ill-formed DRS that ``-ill`` replaces (or scores as it is)."""
    for d in drss:
        if metric.ill_formed(d) is not None:
            print(f"WARNING: DRS {d.index + 1} {_REPLACED[args.ill]}")


def run(args: argparse.Namespace) -> int:
    from ..core.exceptions import UsageError
    from ..drs.clf import read_clf
    from ..drs.exact import clause_counts, detailed_counts
    from ..metrics import get_metric

    given = [f"-{n}" for n in _NO_EFFECT if getattr(args, n) is not None]
    if given:
        print(f"smatchpp: note: {', '.join(given)} {'has' if len(given) == 1 else 'have'} no effect: every "
              "pair is solved exactly", file=sys.stderr)
    start = time.time()
    try:
        metric = get_metric("counter", include_ref=args.include_ref, default_sense=args.default_sense,
                            default_role=args.default_role, default_concept=args.default_concept,
                            signature_file=args.sig_file, wordnet=args.counter_wordnet, ill=args.ill,
                            spar=args.counter_spar, referee=args.counter_referee, version=args.counter_version)
    except (ValueError, OSError) as exc:
        raise UsageError(f"counter: {exc}") from None
    gold, test = read_clf(args.f2), read_clf(args.f1)
    if args.ill in ("dummy", "spar"):
        print(f"WARNING: by using -ill {args.ill}, ill-formed DRSs are replaced by a {args.ill} DRS")
    elif args.ill == "score":
        print("WARNING: ill-formed DRSs are given a score as if they were valid -- results in unofficial F-scores")
    if args.ill != "error":
        _warn_ill(gold, args, metric)
        _warn_ill(test, args, metric)
    single = len(gold) == 1
    if args.baseline:  # Counter's check_input: one produced DRS against every gold DRS
        if len(test) != 1:
            raise UsageError(f"Using --baseline, but there is more than 1 DRS in prod file ({args.f1}: "
                             f"{len(test)} DRSs)" if test else
                             f"Using --baseline, but {args.f1} holds no DRS (it must hold one)")
        print(f"Testing baseline DRS vs {len(gold)} DRSs...\n")
        test = test * len(gold)
    elif len(test) != len(gold):
        raise UsageError(f"Number of DRSs not equal, {len(test)} vs {len(gold)}")
    elif not single:
        print(f"Comparing {len(gold)} DRSs...\n")
    features = [(metric.features(a), metric.features(b)) for a, b in zip(test, gold)]
    limit = args.max_clauses
    if limit > 0 and not single:  # counted and said, but scored: Counter's totals keep them
        over = sum(fa.listed > limit or fb.listed > limit for fa, fb in features)
        print(f"Skipping {over} DRSs due to their length exceeding {limit} (--max_clauses)\n")
    if limit > 0 and single and (features[0][0].total > limit or features[0][1].total > limit):
        print(f"Skip calculation of DRS, more clauses than max of {limit}")
        return 0
    totals = [0.0, 0.0, 0.0]
    division = [[0] * 8, [0] * 8, [0] * 8]
    table: dict = {}
    for a, (fa, fb) in zip(test, features):
        matched, upper, mapping, _ = metric.solve(fa, fb)  # the shared road (--metric counter's)
        if upper > matched:  # no time limit is set: the exact portfolio proves every optimum
            raise UsageError(f"{a.path}: DRS {a.index + 1}: the optimum was not certified")
        pair = (int(matched), fa.total, fb.total)
        div = detailed_counts(fa, fb, mapping) if args.prin else None
        if div is not None:
            division = [[x + y for x, y in zip(s, d)] for s, d in zip(division, div)]
        if args.detailed_stats > 0:
            clause_counts(fa, fb, mapping, table)
        if args.ms and not single:
            _block(*pair, 1, args, div, start)
        totals = [x + y for x, y in zip(totals, pair)]
    _block(*totals, None if single else len(gold), args, division, start)
    if args.detailed_stats > 0:
        _print_clause_stats(table, args)
    return 0

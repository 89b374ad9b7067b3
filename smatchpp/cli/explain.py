"""``smatchpp explain TEST GOLD``: why two graphs differ, and what a hill-climber got wrong.

    smatchpp explain A B -o report.html [--pairs 3,17] [--worst N] [--gaps]
    smatchpp explain A B --pair 3 [--color auto|always|never]

The work is done by :mod:`smatchpp.explain` (see :mod:`smatchpp.explain.command`);
this module adds the shared scoring options and the exit-code contract.

>>> import argparse
>>> sub = argparse.ArgumentParser().add_subparsers()
>>> add_parser(sub).parse_args(["a.amr", "b.amr", "--worst", "3"]).worst
3
"""

from __future__ import annotations

import argparse

from ..api import read_errors
from ..explain.command import add_options, run_explain
from ..core.exceptions import UsageError
from .common import (EXIT_USAGE, add_scoring_options, check_outputs, config_from_args, read_inputs,
                     workers_from_args)
from .common import report_unreadable, warn_unreadable

__all__ = ["add_parser", "run", "uses_stdout"]


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("explain", help="show why two graphs differ: the optimal alignment, unmatched "
                                       "triples, certificate, and what the hill-climber lost "
                                       "(HTML report or terminal)")
    add_scoring_options(p)
    add_options(p)
    return p


def uses_stdout(args: argparse.Namespace) -> bool:
    """The terminal view goes to stdout; ``--html`` alone writes only its file."""
    return not args.html or args.pair is not None


def run(args: argparse.Namespace) -> int:
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

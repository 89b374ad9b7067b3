"""Command line: a thin layer over :mod:`smatchpp.api`, one module per command.

    smatchpp score PRED.amr GOLD.amr [--time-limit S] [--format json] [--pairs-out pairs.jsonl]
    smatchpp gap PRED.amr GOLD.amr [--smatch-python PYTHON] [--plot gaps.png]
    smatchpp compare SYS1.amr SYS2.amr GOLD.amr [--bootstrap N] [--ar-trials R] [--format json]
    smatchpp explain PRED.amr GOLD.amr [-o report.html] [--pair N] [--worst N] [--gaps]
    smatchpp tune A.amr B.amr SCORES.txt --metric wwlk -o weights.tsv [--dev A B SCORES]

:data:`COMMANDS` is the registry: a command is a module with ``add_parser(subparsers)``
and ``run(args) -> int``.  Exit codes are listed in :mod:`smatchpp.cli.common`.

>>> sorted(COMMANDS)
['compare', 'explain', 'gap', 'matrix', 'score', 'search', 'tune']
>>> build_parser().parse_args(["score", "a.amr", "b.amr"]).command
'score'
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

from ..core.version import __version__
from .common import EXIT_PIPE, EXIT_USAGE, check_option_inputs, exit_code, interrupts, user_warnings
from .usage import Parser, smatch_syntax
from . import smatch_flags
from ..core.text import printable

__all__ = ["main", "build_parser", "command", "COMMANDS"]

#: command -> the module (in this package) that defines it, imported only when it is needed
COMMANDS = {"score": "score", "gap": "gap", "matrix": "matrix", "search": "search", "compare": "compare",
            "explain": "explain", "tune": "tune"}


def command(name: str):
    """The module of the command ``name``."""
    return importlib.import_module(f".{COMMANDS[name]}", __name__)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the command ``only`` (the one being run: the other
    commands' modules, and what they import, are then not loaded)."""
    parser = Parser(
        prog="smatchpp", description="Exact, certified Smatch.",
        epilog="exit codes: 0 ok, 2 unreadable input or bad usage, 1 internal error (a bug), "
               "130 interrupted (finished pairs are kept), 141 output pipe closed")
    parser.add_argument("--version", action="version", version=f"smatchpp {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS if only is None else (only,):
        module = command(name)
        module.add_parser(sub).set_defaults(run=module.run,
                                            uses_stdout=getattr(module, "uses_stdout", None))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``smatchpp`` console script; returns the exit code."""
    argv = smatch_syntax(sys.argv[1:] if argv is None else argv)
    # a command first: only its parser is built (anything else, e.g. --help or a misspelt
    # command, gets the whole parser and its messages)
    only = argv[0] if argv and argv[0] in COMMANDS else None
    # smatch 1.0.4's options (--pr, --ms, -r, ...): its command line and output lines
    args = smatch_flags.parse(argv) if smatch_flags.requested(argv) else build_parser(only).parse_args(argv)
    closed = sys.stdout is None or sys.stdout.closed  # started with stdout closed (``>&-``)
    if closed and (args.uses_stdout is None or args.uses_stdout(args)):
        if sys.stderr is not None:
            print("smatchpp: error: standard output is closed, so nothing could be printed; "
                  "redirect it to a file or to /dev/null instead", file=sys.stderr)
        return EXIT_USAGE
    if sys.stdout is None:  # not needed: fill its descriptor, so that no file we open gets it
        devnull = os.open(os.devnull, os.O_WRONLY)
        if devnull != 1:
            os.dup2(devnull, 1)
            os.close(devnull)
        sys.stdout = open(1, "w", closefd=False)
    try:
        # SIGTERM ends every command as Ctrl-C does: what finished is written, exit 130
        with user_warnings(), interrupts():
            check_option_inputs(args, argv)
            return args.run(args)
    except BaseException as exc:  # noqa: BLE001 - every ending gets its exit code
        if isinstance(exc, SystemExit):
            raise
        code, message = exit_code(exc)
        if code == EXIT_PIPE:
            # stdout is gone: point it at devnull so that the interpreter's final flush is quiet
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        elif message:
            print(printable(message), file=sys.stderr)
        return code

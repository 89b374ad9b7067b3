"""Usage errors that say what was probably meant.

* ``smatchpp -f A B`` (smatch 1.0.4's syntax) is ``smatchpp score A B``, and so is
  ``smatchpp score -f A B`` (:func:`smatch_syntax`).
* An unknown option is reported with the usage of its command (not the top
  level's), with a close match among that command's options or the
  equivalent of a habit from other tools (:data:`HABITS`): ``--json`` is
  ``--format json``.
* An option with an optional value (``--bootstrap [N]``, ``--aspects [SET]``)
  written before the files takes the first file as its value; the message
  says so and how to write it (``--bootstrap=1000``).

>>> smatch_syntax(["-f", "a.amr", "b.amr", "--pr"])
['score', 'a.amr', 'b.amr', '--pr']
>>> smatch_syntax(["score", "--format", "json", "-f", "a.amr", "b.amr"])
['score', '--format', 'json', 'a.amr', 'b.amr']
>>> smatch_syntax(["matrix", "-f", "a.amr"])
['matrix', '-f', 'a.amr']
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
from typing import NoReturn, Sequence

from ..core.text import printable

__all__ = ["Parser", "HABITS", "smatch_syntax", "suggest"]

#: options of other tools (smatch 1.0.4's first) -> (our option it stands for, or None; the hint)
HABITS: dict[str, tuple[str | None, str]] = {
    "--json": ("--format", "did you mean --format json?"),
    "-r": ("--restarts", "smatch's -r is --restarts N (only the hill-climber restarts; the exact "
                         "solver needs none)"),
    "--pr": (None, "precision and recall are always printed: drop --pr"),
    "--ms": ("--pairs-out", "smatch's --ms is --pairs-out FILE.jsonl (one score per pair)"),
    "--significant": ("--format", "--format json prints every digit (the text shows 2 decimals)"),
    "-v": ("--pairs-out", "for the alignments: --pairs-out FILE.jsonl --alignments, or smatchpp explain"),
    "--vv": ("--pairs-out", "for the alignments: --pairs-out FILE.jsonl --alignments, or smatchpp explain"),
    "--justinstance": ("--aspects", "--aspects scores Concepts and the other aspects"),
    "--justattribute": ("--aspects", "--aspects scores Concepts and the other aspects"),
    "--justrelation": ("--aspects", "--aspects scores Unlabeled, SRL and the other aspects"),
    "-j": ("--workers", "did you mean --workers N?"),
    "--jobs": ("--workers", "did you mean --workers N?"),
    "--processes": ("--workers", "did you mean --workers N?"),
    "--cores": ("--workers", "did you mean --workers N?"),
    "--timeout": ("--time-limit", "did you mean --time-limit SECONDS?"),
    "-o": ("--pairs-out", "per pair scores: --pairs-out FILE.jsonl; the summary goes to stdout"),
    "--output": ("--pairs-out", "per pair scores: --pairs-out FILE.jsonl; the summary goes to stdout"),
}


def smatch_syntax(argv: Sequence[str]) -> list[str]:
    """smatch 1.0.4's ``-f TEST GOLD`` as ``score TEST GOLD``."""
    argv = list(argv)
    if argv[:1] == ["-f"]:
        argv = ["score"] + argv
    if argv[:1] == ["score"]:
        for k in range(1, len(argv) - 2):
            if argv[k] == "--":
                break
            if argv[k] == "-f" and all(not t.startswith("-") or t == "-" for t in argv[k + 1:k + 3]):
                return argv[:k] + argv[k + 1:]
    return argv


def _options(parser: argparse.ArgumentParser) -> list[str]:
    return [s for action in parser._actions for s in action.option_strings]


def suggest(parser: argparse.ArgumentParser, option: str) -> str:
    """What ``option`` (unknown to ``parser``) probably meant, or ``""``.

    >>> p = argparse.ArgumentParser()
    >>> _ = p.add_argument("--format"); _ = p.add_argument("--workers"); _ = p.add_argument("--time-limit")
    >>> suggest(p, "--json"), suggest(p, "--jobs=2"), suggest(p, "--time-limt"), suggest(p, "--xyz")
    ('did you mean --format json?', 'did you mean --workers N?', 'did you mean --time-limit?', '')
    """
    name = option.split("=", 1)[0]
    known = _options(parser)
    means, hint = HABITS.get(name, (None, ""))
    if hint and (means is None or means in known):
        return hint
    close = difflib.get_close_matches(name, [s for s in known if s.startswith("--")], n=1, cutoff=0.6)
    return f"did you mean {close[0]}?" if close else ""


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, without breaking a line inside a hyphenated word (an option
    such as ``--wwlk-edge-weights`` or a name such as ``amr-suite`` stays whole)."""

    def _split_lines(self, text, width):
        import textwrap

        return textwrap.wrap(self._whitespace_matcher.sub(" ", text).strip(), width,
                             break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors name the command and suggest what was meant.

    Abbreviated options are refused (``allow_abbrev=False``): with them smatch's ``--pr``
    was taken for ``--preset``, and every new option could change what an abbreviation
    means; a misspelt option gets the close match as a suggestion instead.
    """

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("allow_abbrev", False)
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        # a value that starts with a negative number (``--sembleu-weights -1,1,1``) is a value,
        # so that the option's own check can say what is wrong with it
        self._negative_number_matcher = re.compile(r"^-\d+$|^-\d*\.\d+$|^-\d*\.?\d+(e[-+]?\d+)?(,[^,]*)+$")

    def parse_known_args(self, args=None, namespace=None):
        self._argv = list(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def parse_args(self, args=None, namespace=None):
        args, extras = self.parse_known_args(args, namespace)
        if extras:  # reported by the command that was given, with its usage
            command = self._command_parser(getattr(args, "command", None)) or self
            command.unrecognized(extras)
        return args

    def _command_parser(self, name: str | None) -> "Parser | None":
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction) and name in action.choices:
                return action.choices[name]
        return None

    def unrecognized(self, extras: Sequence[str]) -> NoReturn:
        hints = [f"\n  {x}: {hint}" for x in extras if x.startswith("-") and (hint := suggest(self, x))]
        self.error("unrecognized arguments: " + " ".join(extras) + "".join(hints))

    def error(self, message: str) -> NoReturn:
        hint = self._swallowed()
        if hint:
            message += f"\n  {hint}"
        elif "invalid choice" in message and self._command_parser("score") is not None:
            given = next((t for t in getattr(self, "_argv", []) if not t.startswith("-")), "")
            if given and os.path.isfile(given):
                message += f"\n  to score two files: smatchpp score {given} GOLD (or smatch's -f {given} GOLD)"
        self.print_usage(sys.stderr)
        self.exit(2, printable(f"{self.prog}: error: {message}\n"))

    def _swallowed(self) -> str:
        """The hint for an optional value that took a file (``--bootstrap A.amr B.amr``)."""
        argv = getattr(self, "_argv", [])
        optional = {s: a for a in self._actions if a.nargs == "?" and a.option_strings
                    for s in a.option_strings}
        for k, token in enumerate(argv[:-1]):
            action = optional.get(token)
            value = argv[k + 1]
            if action is None or value.startswith("-") or not os.path.exists(value):
                continue
            example = action.const if action.const not in (None, "") else action.metavar or "VALUE"
            return (f"{token} takes an optional value and took the file {value} as it: write "
                    f"{token}={example}, or put {token} after the files")
        return ""

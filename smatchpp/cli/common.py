"""What every command shares: options, the Config they make, reading, output, exit codes.

Exit codes (the same for every command):

* ``0``: success (warnings, e.g. about empty inputs, go to stderr);
* ``2``: unreadable input, a bad option value or an unusable output path;
  the message names the file (and line and graph index for a graph);
* ``1``: an internal failure, i.e. a bug: the message says so and where to report it;
* ``130``: interrupted (Ctrl-C or SIGTERM): what finished is written and summarized;
* ``141``: stdout closed early (``smatchpp score ... | head``), quietly.

>>> code, message = exit_code(UsageError("--workers must be at least 1"))
>>> code, message
(2, 'smatchpp: error: --workers must be at least 1')
>>> exit_code(ZeroDivisionError("x"))[0]
1
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
import warnings as pywarnings
from contextlib import contextmanager
from dataclasses import fields
from typing import IO, Any, Iterator, Sequence

from ..alignment.config import CONDITIONAL_FIELDS, DEFAULT_RESAMPLES, MAX_RESAMPLES, Config, SignatureError, format_value
from ..running.executor import EXIT_INTERRUPTED, INTERRUPTS, Interrupted, interrupts
from ..core.exceptions import InputMismatchError, ReadError, SmatchppError, SmatchppWarning, UsageError
from ..graphs.pairing import check_pairing
from ..reporting import present
from .options import OPTIONS
from ..reporting.present import plural
from ..graphs.read import STDIN, Entry, read_file
from ..core.text import printable

__all__ = ["add_scoring_options", "add_setting_options", "add_setting", "setting_help", "option_flag", "add_bootstrap_options", "config_from_args",
           "resample_count",
           "read_inputs", "reads_drs", "is_clausal_form", "workers_from_args",
           "one_stdin", "check_outputs", "check_option_inputs", "OUTPUT_DESTS", "open_output", "emit", "exit_code", "Interrupted", "INTERRUPTS",
           "interrupts", "warn", "user_warnings",
           "plural", "EXIT_OK", "EXIT_INTERNAL", "EXIT_USAGE", "EXIT_INTERRUPTED", "EXIT_PIPE"]

EXIT_OK, EXIT_INTERNAL, EXIT_USAGE, EXIT_PIPE = 0, 1, 2, 141

#: where to report a bug (printed with internal errors)
REPORT_BUGS = ("this is a bug in smatchpp; please report it on the smatchpp issue tracker "
               "with the command line and the traceback above")


def warn(message: str) -> None:
    """A warning on stderr; text from the input in it is escaped (:func:`~smatchpp.core.text.printable`)."""
    print(printable(f"smatchpp: warning: {message}"), file=sys.stderr)


def _typed(kind: type, expected: str, valid, rule: str):
    """An argparse type: ``kind(text)``, refused with ``rule`` unless ``valid(value)``."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if not valid(value):
            raise argparse.ArgumentTypeError(f"{rule}, got {text}")
        return value
    parse.__name__ = expected  # argparse names the type in some messages
    return parse


_INF = float("inf")  # v < _INF refuses infinity; nan fails every comparison, so it is refused too
_positive_int = _typed(int, "a whole number", lambda v: v >= 1, "must be at least 1")
_non_negative_int = _typed(int, "a whole number", lambda v: v >= 0, "must be 0 or more")
_seconds = _typed(float, "a number of seconds", lambda v: 0 < v < _INF,
                  "must be a positive, finite number of seconds")
_fraction = _typed(float, "a number in [0, 1]", lambda v: 0 <= v <= 1, "must be in [0, 1]")
_non_negative = _typed(float, "a number", lambda v: 0 <= v < _INF, "must be a finite number >= 0")
#: bootstrap resamples and randomization trials: at most MAX_RESAMPLES (their results are kept)
resample_count = _typed(int, "a whole number", lambda v: 1 <= v <= MAX_RESAMPLES,
                        f"must be between 1 and {MAX_RESAMPLES:,} (their results are kept in "
                        "memory, about 50 bytes each)")


def add_scoring_options(p: argparse.ArgumentParser) -> None:
    """The inputs (``test``, ``gold``) and every setting of :class:`~smatchpp.alignment.config.Config`."""
    p.add_argument("test", help="graphs to evaluate (A: parser output / prediction); - for stdin")
    p.add_argument("gold", help="reference graphs (B: gold), same number and order; - for stdin")
    add_setting_options(p)


#: the value parsers a Config field's option names (``option["type"]``)
PARSERS = {"seconds": _seconds, "positive-int": _positive_int, "non-negative-int": _non_negative_int,
           "fraction": _fraction, "non-negative": _non_negative, "resample-count": resample_count}
#: every Config field by name
_FIELDS = {f.name: f for f in fields(Config)}


def setting_help(name: str, **words: str) -> str:
    """The help of a Config field's option (:data:`smatchpp.cli.options.OPTIONS`), with its
    default (as the signature writes it)."""
    f = _FIELDS[name]
    text = OPTIONS[name].get("help", "")
    text = text() if callable(text) else text
    for key, value in {"default": format_value(f.default), **words}.items():
        text = text.replace("{" + key + "}", value)
    return text


def option_flag(name: str) -> str:
    """The command-line option of a :class:`Config` field (``--time-limit``, ``--aspects-mode``)."""
    return _FIELDS[name].metadata["flag"] or "--" + name.replace("_", "-")


def add_setting(p: Any, name: str, **changes: Any) -> argparse.Action:
    """The option of the Config field ``name``, made from its declaration (``changes``: what
    a command sets otherwise, e.g. ``nargs``); it defaults to ``None`` (not given)."""
    option = OPTIONS[name]
    kwargs: dict[str, Any] = {"default": None, "help": setting_help(name)}
    for key in ("metavar", "action"):
        if option.get(key) is not None:
            kwargs[key] = option[key]
    if option.get("type") is not None:
        kwargs["type"] = PARSERS[option["type"]]
    if option.get("choices") is not None:
        kwargs["choices"] = list(option["choices"]())
    kwargs.update(changes)
    return p.add_argument(option_flag(name), **kwargs)


def add_setting_options(p: argparse.ArgumentParser) -> None:
    """Every scoring setting of :class:`~smatchpp.alignment.config.Config` (for commands with other inputs):
    the fields whose option is in the group ``setting`` or ``matching``."""
    p.add_argument("--input-format", choices=("auto", "penman", "tsv", "clf"), default="auto",
                   help="input format (auto: .tsv files are TSV, .clf files DRSs in clausal form "
                        "(--metric counter), others PENMAN)")
    for f in fields(Config):
        if OPTIONS[f.name].get("group") == "setting":
            add_setting(p, f.name)
    p.add_argument("--workers", type=_positive_int, default=None,
                   help="worker processes (default and maximum: the cores available; a --metric "
                        "other than smatch takes one per 5,000 pairs by default); results do not "
                        "depend on it")
    p.add_argument("--force-workers", action="store_true",
                   help="allow more --workers than cores")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    m = p.add_argument_group("matching (soft and weighted Smatch; see docs/variants.md)")
    for f in fields(Config):
        if OPTIONS[f.name].get("group") == "matching":
            add_setting(m, f.name)
    p.add_argument("--signature", metavar="SIG", default=None,
                   help="re-create every setting from a signature printed by a previous run "
                        "(options given as well must agree with it)")


def name_inputs(p: argparse.ArgumentParser, test: str, gold: str, gold_optional: bool = False) -> None:
    """Re-describe the two positional inputs of :func:`add_scoring_options` for another command."""
    for action in p._actions:
        if action.dest == "test":
            action.help = test
        elif action.dest == "gold":
            action.help = gold
            if gold_optional:
                action.nargs, action.default = "?", None


def _dask_address(text: str) -> str:
    """An argparse type: a scheduler's address (checked before any file is read)."""
    from ..running.distributed import scheduler_address

    if not text:  # --dask "": a local cluster, as --dask alone
        return text
    try:
        return scheduler_address(text)[0]
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc).replace(f"--dask {text}: ", f"{text!r}: ", 1)) from None


def add_dask_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dask", nargs="?", const="", default=None, metavar="ADDRESS", type=_dask_address,
                   help="run on Dask: connect to the scheduler at ADDRESS (tcp://HOST:PORT, tls://, "
                        "ws://, wss://, or HOST:PORT), or without one start a local cluster of "
                        "--workers processes (needs the dask extra)")
    from ..running.distributed import DEFAULT_TIMEOUT

    p.add_argument("--dask-timeout", type=_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help="how long to wait for the scheduler at --dask ADDRESS to answer "
                        f"(default {DEFAULT_TIMEOUT:g})")


def add_bootstrap_options(p: argparse.ArgumentParser, default: int | None = None) -> None:
    """``--bootstrap [N]`` and ``--bootstrap-seed``; ``default``: resamples when not given."""
    if default:
        add_setting(p, "bootstrap", help=f"bootstrap resamples of the graph pairs (default {default})")
    else:
        add_setting(p, "bootstrap", nargs="?", const=DEFAULT_RESAMPLES)
    add_setting(p, "bootstrap_seed")


class _AspectChoices:
    """``--aspects`` values: ``none``, an aspect set (the built-in ones and the installed
    packages', read only when the option is given); ``separate``/``joint`` are the old
    spelling (Damonte's set)."""

    def names(self) -> tuple[str, ...]:
        from ..core.aspect_settings import aspect_set_names

        return ("none", *aspect_set_names(), "separate", "joint")

    def __contains__(self, value: object) -> bool:
        return value in self.names()

    def __iter__(self):
        return iter(self.names())


ASPECT_CHOICES = _AspectChoices()


def add_aspect_options(p: argparse.ArgumentParser, what: str = "also score") -> None:
    """``--aspects [SET]``, ``--aspects-mode`` and ``--propbank-frames``."""
    add_setting(p, "aspect_set", nargs="?", const="damonte", choices=ASPECT_CHOICES,
                help=setting_help("aspect_set", what=what))
    add_setting(p, "aspects")
    add_setting(p, "propbank_frames")


def aspect_values(args: argparse.Namespace) -> dict[str, Any]:
    """The Config values of the aspect options (warns about the deprecated spelling)."""
    chosen = getattr(args, "aspects", None)
    mode = getattr(args, "aspects_mode", None)
    frames = getattr(args, "propbank_frames", None)
    if chosen is None and mode is None and frames is None:
        return {}
    if chosen in ("separate", "joint"):
        if mode is not None and mode != chosen:
            raise UsageError(f"--aspects {chosen} (the old spelling of the mode) contradicts "
                             f"--aspects-mode {mode}")
        warn(f"--aspects {chosen} is deprecated: it means --aspects damonte --aspects-mode {chosen}")
        chosen, mode = "damonte", chosen
    if chosen in (None, "none"):
        if mode is not None or frames is not None:
            raise UsageError(f"--{'aspects-mode' if mode is not None else 'propbank-frames'} "
                             "needs --aspects")
        return {"aspects": "none"}
    if frames is not None and not os.path.isfile(frames):
        raise UsageError(f"--propbank-frames: no such file: {frames}")
    values: dict[str, Any] = {"aspects": mode or "separate", "aspect_set": chosen}
    if frames is not None:
        values["propbank_frames"] = frames
    return values


def config_from_args(args: argparse.Namespace, **overrides: Any) -> Config:
    """The :class:`Config` of the command line (or of ``--signature``); raises :class:`UsageError`.

    One rule: a setting takes effect as given, or the command is refused.  An
    option the other settings do not use (``--vectors`` without ``--match
    s2match``) is refused, and so is an option given beside ``--signature``
    that differs from it, even at its default (a file agrees when its
    ``name@sha1`` does; it is then read from the path given).  ``overrides``
    are settings the command itself fixes (``gap`` solves exactly).
    """
    # every option of a Config field defaults to None: what is not None was given
    given = {f.name: getattr(args, f.name) for f in fields(Config)
             if f.name not in _ASPECT_FIELDS and getattr(args, f.name, None) is not None}
    given.update(aspect_values(args))  # --aspects SET, --aspects-mode, --propbank-frames
    fixed = [_given_option(k, given[k]) for k, v in overrides.items() if k in given and given[k] != v]
    if fixed:
        raise UsageError(f"{', '.join(fixed)} does nothing here: this command uses "
                         + ", ".join(_given_option(k, v) for k, v in overrides.items()))
    try:
        if getattr(args, "signature", None):
            # a file given replaces the identity the signature names it by (same content only)
            files = {f.name: given[f.name] for f in fields(Config)
                     if f.metadata.get("display") is not None and f.name in given}
            config = Config.from_signature(args.signature, files=files)
            return _agree(config, {k: v for k, v in given.items() if k not in files}, overrides)
        # what the other settings make of a conditional one (a matcher's parameter, say)
        idle = Config(**{k: v for k, v in {**given, **overrides}.items()
                         if k not in CONDITIONAL_FIELDS}).idle(given)
        if idle:
            raise UsageError("; ".join(f"{_option(name)} does nothing without {what}: remove it"
                                       for name, what in idle))
        return Config(**{**given, **overrides})
    except SignatureError as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None


#: the Config fields that the aspect options set (through :func:`aspect_values`)
_ASPECT_FIELDS = ("aspects", "aspect_set", "propbank_frames")
#: the signature key of every Config field
_SIG = {f.name: f.metadata["sig"] for f in fields(Config)}


def _option(name: str) -> str:
    """The command-line option of a :class:`Config` field."""
    return option_flag(name)


def _agree(config: Config, given: dict[str, Any], overrides: dict[str, Any]) -> Config:
    """``config`` (from ``--signature``) if the options given agree with it (files given were
    matched by :meth:`Config.from_signature`)."""
    clash = []
    for f in fields(Config):
        if f.name not in given:
            continue
        ours, theirs = given[f.name], getattr(config, f.name)
        if ours != theirs:
            display = f.metadata.get("display")
            shown = display(theirs) if display else _shown_value(theirs)
            clash.append(f"{f.metadata['sig']}:{shown} but the options give "
                         f"{_given_option(f.name, ours)}")
    if clash:
        raise UsageError("--signature sets " + "; ".join(clash) + ": drop the option, or the "
                         "signature (every option given must agree with it)")
    idle = config.idle(given)
    if idle:
        raise UsageError("; ".join(f"{_option(name)} does nothing without {what}: remove it"
                                   for name, what in idle))
    for name, value in overrides.items():
        if getattr(config, name) != value:
            raise UsageError(f"--signature sets {_SIG[name]}:{getattr(config, name)}, which this "
                             f"command does not use: it uses {_given_option(name, value)}")
    return config


def _shown_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def _given_option(name: str, value: Any) -> str:
    """An option as it was given: ``--seed 3``, ``--keep-wiki``."""
    return _option(name) if isinstance(value, bool) else f"{_option(name)} {value}"


def workers_from_args(args: argparse.Namespace) -> int:
    """``--workers``, capped at the available cores unless ``--force-workers``."""
    from ..running.executor import default_workers

    cores = default_workers()
    if args.workers is None:
        return cores
    if args.workers > cores and not args.force_workers:
        warn(f"--workers {args.workers} is more than the {plural(cores, 'core')} available: "
             f"using {cores} (--force-workers to insist)")
        return cores
    return args.workers


def one_stdin(*paths: str | None) -> None:
    """Refuse ``-`` (standard input) for more than one input: the second would read nothing."""
    if sum(path == STDIN for path in paths) > 1:
        raise UsageError("only one of the two inputs can be - (standard input)")


def read_inputs(args: argparse.Namespace,
                names: Sequence[str] = ("test", "gold")) -> tuple[list[Entry], ...]:
    """Read the inputs named by ``names`` (``-`` is stdin, for one of them); each must
    pair up graph by graph with the last one (the gold).

    Different graph counts raise :class:`InputMismatchError` naming the graphs that look
    wrong; ids that disagree and inputs without graphs are warnings (see
    :func:`smatchpp.graphs.pairing.check_pairing`), each given once.
    """
    paths = [getattr(args, name) for name in names]
    one_stdin(*paths)
    drs = reads_drs(args)
    entries = [read_input(path, args.input_format, drs) for path in paths]
    warnings: list[str] = []
    for path, got in zip(paths[:-1], entries[:-1]):
        check = check_pairing(got, entries[-1], _shown(path), _shown(paths[-1]))
        if check.mismatch is not None:
            raise InputMismatchError(check.mismatch)
        warnings += [m for m in check.warnings if m not in warnings]
    for message in warnings:
        warn(message)
    return tuple(entries)


def reads_drs(args: argparse.Namespace) -> bool:
    """Whether the command's metric (``--metric``; none: the alignment family) compares DRSs in
    clausal form (:attr:`smatchpp.metrics.base.Metric.reads_drs`)."""
    name = getattr(args, "metric", None)
    if name is None:
        return False
    from ..metrics import METRICS

    return bool(getattr(METRICS.get(name), "reads_drs", False))


def is_clausal_form(path: str, fmt: str) -> bool:
    """Whether ``path`` is read as DRSs in clausal form: ``fmt`` ``clf``, or ``auto`` and a name
    ending in ``.clf``."""
    return fmt == "clf" or (fmt == "auto" and str(path).endswith(".clf"))


def read_input(path: str, fmt: str, drs: bool = True) -> list[Entry]:
    """:func:`~smatchpp.graphs.read.read_file`, or the DRSs of a clausal-form file (``fmt`` ``clf``, or
    ``auto`` and a name ending in ``.clf``; :func:`smatchpp.drs.clf.read_clf_entries`), which
    ``drs`` false (a metric of AMR) refuses with a usage error."""
    if is_clausal_form(path, fmt):
        if not drs:
            raise UsageError(f"{path}: DRSs in clausal form are compared by --metric counter; this run "
                             "compares AMR graphs")
        from ..drs.clf import read_clf_entries

        return read_clf_entries(path)
    return read_file(path, fmt)


def _shown(path: str) -> str:
    """An input's name in messages (the reader calls standard input ``<stdin>``)."""
    return "<stdin>" if path == STDIN else path


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def check_outputs(outputs: dict[str, str | None], inputs: Sequence[str]) -> None:
    """Refuse an output that is an input, or that cannot be written; before any work is done.

    ``outputs`` maps an option name (for the message) to its path (``None``: not given,
    ``-``: stdout).
    """
    given = {opt: path for opt, path in outputs.items() if path and path != "-"}
    for opt, path in given.items():
        for source in inputs:
            if source != "-" and os.path.exists(path) and _same_file(path, source):
                raise UsageError(f"{opt} {path} is the input file {source}: refusing to overwrite it")
        if os.path.isdir(path):
            raise UsageError(f"{opt} {path} is a directory")
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise UsageError(f"{opt} {path}: folder {folder} does not exist")
        if os.path.exists(path) and not os.access(path, os.W_OK) or not os.access(folder, os.W_OK):
            raise UsageError(f"{opt} {path}: not writable")
    paths = [os.path.abspath(p) for p in given.values()]
    if len(set(paths)) != len(paths):
        raise UsageError("two outputs name the same file: " + ", ".join(given.values()))
    if list(outputs.values()).count("-") > 1:
        raise UsageError("only one output can be - (standard output)")


#: the destinations of every command's output options (``--pairs-out``, ``-o/--output``,
#: ``--out``, ``--curve``, ``--plot``, ``--html``, ``--json``)
OUTPUT_DESTS = ("pairs_out", "output", "out", "curve", "plot", "html", "json")


def check_option_inputs(args: argparse.Namespace, argv: Sequence[str] = ()) -> None:
    """Refuse an output option that names a file any other option reads (``--vectors``,
    ``--role-weights``, ``--wwlk-edge-weights``, ``--propbank-frames``, ``--dev``, ...),
    through a symbolic or a hard link too; before any work is done.

    Every option value that names an existing file and is not an output is an input here,
    so an option added later is protected without being listed.
    """
    outputs = {dest: getattr(args, dest) for dest in OUTPUT_DESTS
               if isinstance(getattr(args, dest, None), str) and getattr(args, dest) != "-"}
    outputs = {dest: path for dest, path in outputs.items() if os.path.exists(path)}
    if not outputs:
        return
    for dest, value in sorted(vars(args).items()):
        if dest in OUTPUT_DESTS or callable(value):
            continue
        for source in value if isinstance(value, (list, tuple)) else [value]:
            if not isinstance(source, (str, os.PathLike)) or source in ("", "-") or not os.path.isfile(source):
                continue
            for out, path in outputs.items():
                if _same_file(path, source):
                    flag = _flag_of(str(source), argv)
                    what = f"the {flag} file" if flag else "the input file"
                    out_flag = "--" + out.replace("_", "-")
                    raise UsageError(f"{out_flag} {path} is {what} {source}: refusing to overwrite it")


def _flag_of(value: str, argv: Sequence[str]) -> str | None:
    """The option that gave ``value`` on the command line ``argv``, if one did."""
    argv = list(argv)
    outputs = {"-o"} | {"--" + dest.replace("_", "-") for dest in OUTPUT_DESTS}
    for i, token in enumerate(argv):
        if token.startswith("--") and "=" in token and token.split("=", 1)[1] == value:
            flag = token.split("=", 1)[0]
        elif token == value and i and argv[i - 1].startswith("-") and argv[i - 1] != "-":
            flag = argv[i - 1]
        else:
            continue
        if flag not in outputs:
            return flag
    return None


@contextmanager
def open_output(path: str) -> Iterator[IO[str]]:
    """A text file to write (``-``: stdout); errors name the path."""
    if path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    try:
        handle = open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise OSError(exc.errno, f"cannot write {path}: {exc.strerror}") from None
    try:
        with handle:  # closing flushes, and can fail as well
            yield handle
    except OSError as exc:
        if exc.filename is None and exc.errno is not None and not isinstance(exc, BrokenPipeError):
            raise OSError(exc.errno, f"writing {path}: {exc.strerror}") from None
        raise


class _RowWriter:
    """``--pairs-out``'s rows: JSON lines written and flushed one by one, or (``.parquet``,
    ``.csv``) kept and written as a table when the output is closed (:mod:`smatchpp.core.tables`)."""

    def __init__(self, handle: IO[str] | None) -> None:
        self.handle, self.rows = handle, []

    def write(self, row: dict) -> None:
        if self.handle is None:
            self.rows.append(row)
            return
        self.handle.write(present.json_line(row) + "\n")  # strict JSON: NaN as null
        self.handle.flush()


@contextmanager
def pairs_output(path: str, signature: str, table: bool = True) -> Iterator[_RowWriter]:
    """The writer of ``--pairs-out PATH``: a table by the name's ending (``.parquet``, ``.csv``,
    with the signature in it; ``table=False``: never), JSON lines otherwise (``-``: stdout).
    An interrupt still writes the rows that were finished."""
    from ..core import tables

    if not table or tables.table_format(path) is None:
        with open_output(path) as handle:
            yield _RowWriter(handle)
        return
    writer = _RowWriter(None)
    try:
        yield writer
    finally:
        tables.write(path, writer.rows, signature)


def emit(text: str, stream: IO[str] | None = None) -> None:
    """Print ``text`` to ``stream`` (stdout) and flush; a failed write names the stream."""
    stream = stream or sys.stdout
    try:
        print(text, file=stream, flush=True)
    except OSError as exc:
        if exc.errno is None or isinstance(exc, BrokenPipeError):
            raise
        name = {sys.stdout: "standard output", sys.stderr: "standard error"}.get(stream, "output")
        try:  # drop what could not be written, so that exiting does not try again
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
        except (OSError, ValueError):
            pass
        raise OSError(exc.errno, f"writing {name}: {exc.strerror}") from None


@contextmanager
def dask_client(args: argparse.Namespace, workers: int) -> Iterator[Any]:
    """The Dask client ``--dask`` asks for, or ``None``."""
    if getattr(args, "dask", None) is None:
        yield None
        return
    from ..running.distributed import connect

    with connect(args.dask or None, workers, timeout=args.dask_timeout) as client:
        yield client


@contextmanager
def user_warnings() -> Iterator[None]:
    """Print a :class:`~smatchpp.core.exceptions.SmatchppWarning` raised below the command line
    as ``smatchpp: warning: ...`` (other warnings as Python prints them)."""
    previous = pywarnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, SmatchppWarning):
            warn(str(message))
        else:
            previous(message, category, filename, lineno, file, line)

    pywarnings.showwarning = show
    try:
        yield
    finally:
        pywarnings.showwarning = previous


def exit_code(exc: BaseException) -> tuple[int, str]:
    """The exit code and message for an exception that ends a command."""
    if isinstance(exc, INTERRUPTS):
        return EXIT_INTERRUPTED, "smatchpp: interrupted"
    if isinstance(exc, BrokenPipeError):
        return EXIT_PIPE, ""
    if isinstance(exc, (UsageError, InputMismatchError, ReadError, SmatchppError)):
        return EXIT_USAGE, f"smatchpp: error: {exc}"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return EXIT_USAGE, f"smatchpp: error: {where}{exc.strerror or exc}"
    detail = "".join(traceback.format_exception(exc))
    return EXIT_INTERNAL, f"{detail}smatchpp: internal error: {type(exc).__name__}: {exc}\n{REPORT_BUGS}"


def _distinct(errors: list) -> list:
    """Each read error once: a file given twice (``score A A``) has its graphs read twice,
    and was reported as "2 unreadable graphs" for one (issue 33)."""
    return list({str(e): e for e in errors}.values())


def report_unreadable(errors: list, on_error: str) -> bool:
    """Print read errors; ``True`` if they stop the run (``--on-error raise``)."""
    errors = _distinct(errors)
    if not errors:
        return False
    if on_error == "raise":
        for e in errors:
            print(printable(f"smatchpp: error: {e}"), file=sys.stderr)
        print(f"smatchpp: {plural(len(errors), 'unreadable graph')}; nothing scored. "
              "Use --on-error empty or --on-error skip to score the rest.", file=sys.stderr)
        return True
    return False


def warn_unreadable(errors: list, on_error: str) -> None:
    errors = _distinct(errors)
    if errors:
        action = "scored as empty graphs" if on_error == "empty" else "pairs skipped"
        warn(f"{plural(len(errors), 'unreadable graph')}, {action}:")
        for e in errors:
            print(printable(f"  {e}"), file=sys.stderr)

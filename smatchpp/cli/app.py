"""The application layer: one template for a command that scores pairs of graphs.

Every such command (``score``, ``compare``, ``gap``, ... with Smatch or any
``--metric``) does the same steps; this module is those steps, once:

1. :func:`read_pairs`: the outputs checked against the inputs (no output may
   overwrite an input), the inputs read and paired graph by graph (different
   counts are an error, disagreeing ids a warning), the unreadable graphs
   reported (``--on-error raise``: listed, nothing scored, exit 2);
2. :func:`collect`: the command's stream of results (in pair order, on this
   process, a pool or Dask) run under the interrupt handlers, with a progress
   bar; each result is written to ``--pairs-out`` as it finishes (whole: an
   interrupt waits for the line and the result list to agree), so an
   interrupted run keeps every finished pair;
3. the command's summary (its own, from the results), on standard output, or
   on standard error when the pairs go to standard output (:func:`summary_stream`);
4. :func:`conclude`: the unreadable graphs recalled, the interrupt reported
   (``interrupted: N of M pairs finished``) and the exit code (0, or 130).

>>> import argparse
>>> args = argparse.Namespace(pairs_out=None, dask=None, quiet=True)
>>> run = collect(args, lambda client: iter([1, 2, 3]), workers=1, total=3)
>>> run.results, run.interrupted
([1, 2, 3], False)
>>> def stopped(client):
...     yield 1
...     raise KeyboardInterrupt
>>> run = collect(args, stopped, workers=1, total=3)
>>> run.results, run.interrupted
([1], True)
>>> conclude(run, Inputs((), (), [], "raise"))  # and "interrupted: 1 of 3 pairs finished" on stderr
130
"""

from __future__ import annotations

import argparse
import signal
import sys
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Iterable, Sequence

from ..running.executor import EXIT_INTERRUPTED, INTERRUPTS, interrupts, progress_bar
from ..graphs.read import Entry
from .common import (EXIT_OK, check_outputs, dask_client, pairs_output, plural, read_inputs,
                     report_unreadable, warn_unreadable)

__all__ = ["Inputs", "Run", "read_pairs", "collect", "conclude", "summary_stream", "interrupted_message",
           "HeldSignals", "system_names"]


@dataclass(frozen=True)
class Inputs:
    """A command's inputs, read and paired: the paths (in the order of ``names``), their
    entries, every read error (in file order) and the ``--on-error`` policy."""

    names: tuple[str, ...]
    paths: tuple[str, ...]
    entries: Sequence[list[Entry]]
    on_error: str
    errors: list = field(default_factory=list)

    @property
    def total(self) -> int:
        """Pairs in the input (graphs of the last input, the gold)."""
        return len(self.entries[-1]) if self.entries else 0


@dataclass
class Run:
    """What :func:`collect` gathered: the results in pair order, whether an interrupt
    stopped the stream, the pairs in the input, and where the pairs went."""

    results: list
    interrupted: bool
    total: int
    pairs_out: str | None = None
    #: what a result is, in messages (``pair``, ``query``)
    unit: str = "pair"


def read_pairs(args: argparse.Namespace, names: Sequence[str], on_error: str,
               outputs: dict[str, str | None] | None = None) -> Inputs | None:
    """Step 1: ``outputs`` (flag -> path) checked against the inputs ``names`` (attributes of
    ``args``), the inputs read and paired, their read errors; ``None`` when the errors stop
    the run (``on_error`` ``raise``: they have been printed)."""
    paths = tuple(getattr(args, name) for name in names)
    check_outputs(outputs or {}, list(paths))
    entries = read_inputs(args, tuple(names))
    errors = [e.error for got in entries for e in got if e.error is not None]
    if report_unreadable(errors, on_error):
        return None
    return Inputs(tuple(names), paths, entries, on_error, errors)


def collect(args: argparse.Namespace, results: Callable[[Any], Iterable], workers: int, total: int,
            line: Callable[[Any], dict] | None = None, progress: bool = False,
            unit: str = "pair", to: str | None = None, signature: str = "", client: Any = None) -> Run:
    """Step 2: every result of ``results(client)`` (``client``: the Dask client of ``--dask``,
    else ``None``), in order, until the end or an interrupt.  With ``line`` and
    ``--pairs-out``, each result's ``line(result)`` is written (one JSON object a line,
    flushed) as it comes, or kept and written as a table when the run ends (``--pairs-out
    FILE.parquet`` or ``.csv``, with ``signature`` in it: :func:`~.common.pairs_output`); a
    result whose line is ``None`` has none.  ``to``: where the lines go instead of
    ``--pairs-out`` (``search``'s ``--out``, always JSON lines; ``-``: standard output).
    ``client``: a Dask client the command opened already (whose workers read the inputs,
    :class:`~smatchpp.running.runs.FileRun`), used instead of opening one for ``--dask``."""
    pairs_out = (to or getattr(args, "pairs_out", None)) if line is not None else None
    found: list = []
    interrupted = False
    bar = progress_bar(total, progress and not getattr(args, "quiet", False), unit)
    # a Dask client the command opened already (its workers read the inputs: runs.FileRun)
    backend = nullcontext(client) if client is not None else dask_client(args, workers)
    with interrupts(), backend as client, HeldSignals() as held:
        try:
            with _output(pairs_out, to, signature) as out:
                for result in results(client):
                    shown = line(result) if out is not None else None
                    if shown is None:
                        found.append(result)
                    else:
                        held.holding = True  # the pair is in both the file and the summary, or in neither
                        found.append(result)
                        out.write(shown)
                        held.release()
                    bar.update(1)
        except INTERRUPTS:
            interrupted = True
        finally:
            bar.close()
    return Run(found, interrupted, total, pairs_out, unit)


def _output(pairs_out: str | None, to: str | None, signature: str):
    """Where :func:`collect` writes its lines: nothing, ``to`` (JSON lines), or ``--pairs-out``
    (JSON lines or a table by the name's ending)."""
    if not pairs_out:
        return nullcontext()
    if to is not None:
        return pairs_output(pairs_out, signature, table=False)
    return pairs_output(pairs_out, signature)


class HeldSignals:
    """SIGINT and SIGTERM held back while ``holding`` (a finished result being recorded) and
    acted on at :meth:`release`: the handlers in force (Ctrl-C's KeyboardInterrupt,
    :func:`smatchpp.running.executor.interrupts`' SIGTERM) are wrapped for the duration, so that
    recording a result costs two assignments, not two system calls
    (:func:`smatchpp.running.executor.deferred_interrupts`).  A signal that is ignored or has its
    default action is left alone."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list = []
        self.previous: dict = {}

    def __enter__(self) -> "HeldSignals":
        for sig in (signal.SIGINT, signal.SIGTERM):
            handler = signal.getsignal(sig)
            if callable(handler):
                self.previous[sig] = handler
                signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)

    def _handle(self, signum, frame) -> None:
        if self.holding:
            self.held.append((signum, frame))
            return
        self.previous[signum](signum, frame)

    def release(self) -> None:
        self.holding = False
        if self.held:
            signum, frame = self.held.pop(0)
            self.held.clear()
            self.previous[signum](signum, frame)


def summary_stream(args: argparse.Namespace) -> IO[str]:
    """Step 3's destination: standard error when the pairs go to standard output."""
    return sys.stderr if getattr(args, "pairs_out", None) == "-" else sys.stdout


def interrupted_message(run: Run, suffix: str = "", written: bool = True) -> None:
    """``smatchpp: interrupted: N of M pairs finished[, written to FILE]SUFFIX`` on stderr."""
    where = run.pairs_out if written and run.pairs_out and run.pairs_out != "-" else None
    units = "queries" if run.unit == "query" else run.unit + "s"
    print(f"smatchpp: interrupted: {len(run.results)} of {plural(run.total, run.unit, units)} finished"
          + (f", written to {where}" if where else "") + suffix, file=sys.stderr)


def conclude(run: Run, inputs: Inputs, warnings: Iterable[Callable[[], None]] = (),
             suffix: str = "", stopped: bool = False) -> int:
    """Step 4: the unreadable graphs recalled, the command's ``warnings``, the interrupt
    (of the stream, or ``stopped``: of a later step) reported, and the exit code."""
    warn_unreadable(inputs.errors, inputs.on_error)
    for warning in warnings:
        warning()
    if run.interrupted or stopped:
        interrupted_message(run, suffix)
        return EXIT_INTERRUPTED
    return EXIT_OK


def system_names(args: argparse.Namespace) -> list[str]:
    """The attributes of ``args`` that name ``compare``'s systems (``sys1``, ``sys2``, then
    ``sys3``, ... set here from the extra systems of the command line, ``args.more``)."""
    names = ["sys1", "sys2"]
    for k, path in enumerate(getattr(args, "more", None) or [], start=3):
        setattr(args, f"sys{k}", path)
        names.append(f"sys{k}")
    return names

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
import os
import signal
import sys
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass, field
from typing import IO, Any, Callable, Iterable, Iterator, Sequence

from ..running.executor import EXIT_INTERRUPTED, INTERRUPTS, default_workers, interrupts, progress_bar
from ..metrics.alignment import AlignmentMetric
from ..graphs.read import STDIN, Entry, input_bytes
from ..running.runs import PAIRS_PER_WORKER, FileRun, auto_workers, metric_pairs, metric_rows
from .common import (EXIT_OK, UsageError, check_outputs, dask_client, is_clausal_form, one_stdin, pairs_output, plural,
                     read_input, read_inputs, reads_drs, warn, report_unreadable, warn_unreadable, workers_from_args)

__all__ = ["Inputs", "Run", "ScoredPairs", "read_pairs", "read_scored_pairs", "read_in_parts", "Graphs",
           "read_graph_files", "fill_matrix", "collect", "score_pairs", "score_rows", "explained", "aligns", "by_engine",
           "workers_for", "conclude", "summary_stream", "interrupted_message", "HeldSignals", "system_names"]


@dataclass(frozen=True)
class Inputs:
    """A command's inputs, read and paired: the paths (in the order of ``names``), their
    entries, every read error (in file order) and the ``--on-error`` policy."""

    names: tuple[str, ...]
    paths: tuple[str, ...]
    entries: Sequence[list[Entry]]
    on_error: str
    errors: list = field(default_factory=list)
    #: the pairs, when the workers read the inputs and ``entries`` is empty (:func:`read_in_parts`)
    pairs: int | None = None

    @property
    def total(self) -> int:
        """Pairs in the input (graphs of the last input, the gold)."""
        if self.pairs is not None:
            return self.pairs
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


@dataclass(frozen=True)
class ScoredPairs:
    """Pairs of graphs with a number each (``tune``'s training pairs or its ``--dev`` pairs,
    with their human scores): the entries of the two files, in pair order, and the scores."""

    entries_a: list[Entry]
    entries_b: list[Entry]
    scores: list[float]


def read_scored_pairs(args: argparse.Namespace, sides: Sequence[Sequence[str]],
                      outputs: dict[str, str | None] | None = None) -> list[ScoredPairs] | None:
    """Step 1 for inputs that come in sides of two graph files and a file of one number per
    pair (``A.amr B.amr SCORES.txt``: ``tune``'s training pairs, then ``--dev``'s): ``outputs``
    (flag -> path) checked against every input, then side by side the two graph files read and
    paired as :func:`read_pairs` reads them (different counts are an error naming the suspicious
    graphs, disagreeing ids a warning; a file without graphs is refused), their unreadable
    graphs reported (always ``raise``: ``None``, nothing is scored and later sides are not
    read), and the scores read (:func:`smatchpp.metrics.tune.read_scores`: one finite number a
    line, a bad line named), one per pair.  The graph files are read as
    :func:`~smatchpp.graphs.read.read_file` reads them (``auto``: a ``.tsv`` file is TSV)."""
    from ..metrics.tune import read_scores

    sides = [tuple(side) for side in sides]
    check_outputs(outputs or {}, [path for side in sides for path in side])
    found = []
    for a, b, y in sides:
        side = argparse.Namespace(a=a, b=b, input_format="auto", metric=getattr(args, "metric", None))
        inputs = read_pairs(side, ("a", "b"), "raise")
        if inputs is None:
            return None
        entries_a, entries_b = inputs.entries
        for path, entries in ((a, entries_a), (b, entries_b)):
            if not entries:
                raise UsageError(f"{path} holds no graph")
        scores = read_scores(y)
        if not len(entries_a) == len(entries_b) == len(scores):
            raise UsageError(f"{a} has {len(entries_a)} graphs, {b} {len(entries_b)}, {y} {len(scores)} scores: "
                             "one graph in each and one score per pair")
        found.append(ScoredPairs(entries_a, entries_b, scores))
    return found


def read_in_parts(args: argparse.Namespace, metric, on_error: str, outputs: dict[str, str | None],
                  explain: bool, stack: ExitStack, names: Sequence[str] = ("test", "gold"),
                  ) -> tuple[Inputs | None, FileRun | None, Any]:
    """Step 1 with the workers reading the inputs ``names`` (attributes of ``args``, the gold
    last), a part each (:class:`~smatchpp.running.runs.FileRun`, entered on ``stack``), for
    ``score --metric`` (or ``compare --metric``: its ``run.results()`` are rows) with two or
    more workers or ``--dask``: the warnings and unreadable graphs that
    :func:`read_pairs` would report, reported the same, before any pair is scored.  Returns
    ``(inputs, run, client)``: ``run`` ``None`` when the workers cannot read the inputs (standard
    input or a pipe, one worker, the alignment family (:func:`score_pairs`' Scorer reads in the
    parent), a metric that prepares on every graph, files the scan and the
    reader disagree on, different counts: the caller calls :func:`read_pairs`, which says what
    is wrong); ``inputs`` ``None`` when the unreadable graphs stop the run (printed); ``client``
    the Dask client of ``--dask``, opened here on ``stack`` (its workers read): the caller hands
    it to :func:`collect`, whose stream is then ``run.results()``."""
    paths = tuple(getattr(args, name) for name in names)
    dask = getattr(args, "dask", None) is not None
    if aligns(metric) or not FileRun.possible(metric) or not all(path != STDIN and os.path.isfile(path) for path in paths):
        return None, None, None
    if any(is_clausal_form(path, args.input_format) for path in paths):
        return None, None, None  # DRSs in clausal form: the parts' reader reads AMR (read_input reads both)
    given = getattr(args, "workers", None)
    if not dask and given is None and os.path.getsize(paths[-1]) < PAIRS_PER_WORKER * 2 * _BYTES_PER_GRAPH:
        return None, None, None  # --workers would be 1 (auto_workers): not worth a scan
    check_outputs(outputs, list(paths))
    one_stdin(*paths)
    sources = [input_bytes(path, args.input_format) for path in paths]
    cores = default_workers()
    if given is not None:  # capped as workers_from_args caps it (which warns, later, as after read_pairs)
        workers = given if getattr(args, "force_workers", False) else min(given, cores)
    elif dask:
        workers = cores
    else:  # about one graph a blank line, a pair for each system; the command decides with the count read
        workers = auto_workers(sources[-1][0].count(b"\n\n") * (len(names) - 1), cores)
    if workers < 2 and not dask:
        return None, None, None
    client = stack.enter_context(dask_client(args, workers)) if dask else None
    run = stack.enter_context(FileRun(metric, sources, on_error, workers, explain, client=client))
    if not run.read():
        run.team.terminate()
        return None, None, client
    for message in run.warnings():
        warn(message)
    if report_unreadable(run.errors, on_error):
        return None, run, client
    return Inputs(tuple(names), paths, (), on_error, run.errors, run.total), run, client


#: a graph's bytes, at least, in a file (a small AMR with its id): a file smaller than
#: PAIRS_PER_WORKER * 2 of them cannot have the pairs for two workers without --workers
_BYTES_PER_GRAPH = 20


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


def score_pairs(metric, entries_a: Sequence[Entry], entries_b: Sequence[Entry], on_error: str = "raise",
                workers: int = 1, client: Any = None, details: bool = False) -> Iterator:
    """The road of every metric: each pair's result, a :class:`~smatchpp.metrics.MetricPair`, in
    index order, on this process, a pool of ``workers`` or the Dask ``client``.

    The one place that picks a pair's engine: the alignment family's pairs are solved by
    :class:`smatchpp.api.Scorer` under the run's Config (its corpus budget, its soft matcher's
    table made once, the aspect counts of ``--aspects``), each result carrying its
    :class:`~smatchpp.alignment.score.PairScore` (certificate, bounds, aspects) as its ``detail``
    (:meth:`AlignmentMetric.result`); every other metric's by
    :func:`smatchpp.running.runs.metric_pairs`, with the metric's explanation when ``details``
    asks for it.  Either way :meth:`Metric.pair_json` writes the pair, :meth:`Metric.corpus`
    sums them."""
    if aligns(metric):  # the Scorer, imported here: another metric never loads it
        from ..api import Scorer

        return map(metric.result, Scorer(metric.run_config(on_error)).iter_scores(
            entries_a, entries_b, workers=workers, dask=client))
    return explained(metric_pairs(metric, entries_a, entries_b, on_error, workers, client,
                                   explain=details and metric.explains()))


def all_pairs(args: argparse.Namespace, metric, intervals: str | None,
              alignment: Callable[..., int], other: Callable[..., int]) -> int:
    """``matrix``'s engine, picked here as :func:`score_pairs` picks a pair's: ``alignment``
    for the alignment family's chunks of pairs (:func:`smatchpp.matrix.score_pairs`, with
    certificates, the uncertified pairs' ``intervals``, aspects and Parquet rows:
    :func:`smatchpp.cli.matrix.alignment_matrix`), ``other`` for every other metric's statistics
    matrix (:func:`smatchpp.cli.metric.run_matrix`); the command hands both in (this module
    imports neither: they import it).  The output's name and the inputs are checked before, the
    same way for every metric (:func:`smatchpp.cli.matrix.run`)."""
    if aligns(metric):
        return alignment(args, metric, intervals)
    return other(args, metric)


def by_engine(metric, alignment: Any, other: Any) -> Any:
    """``alignment`` for a metric of the alignment family, ``other`` for every other metric: the
    one test of a command's engine (:func:`score_pairs`, :func:`score_rows`, :func:`all_pairs`,
    :func:`read_in_parts`, ``search``'s reading and ranking), whose results are the one type
    either way (a command hands in its two helpers; this module imports neither)."""
    return alignment if aligns(metric) else other


def aligns(metric) -> bool:
    """Whether ``metric`` is of the alignment family, whose engine is its own (the Scorer's runs,
    the matrix's chunks, the search's bounds): the one ``isinstance`` of the commands."""
    return isinstance(metric, AlignmentMetric)


def score_rows(jobs: Sequence[tuple[Any, Sequence[Entry], Sequence[Entry]]], on_error: str = "raise",
               workers: int = 1, client: Any = None) -> Iterator[tuple]:
    """:func:`score_pairs` of several jobs ``(metric, test entries, gold entries)`` at once, row by
    row: row ``k`` is every job's result of its ``k``-th pair, so that an interrupt keeps whole
    rows (``compare``: one metric, every system against one gold; ``gap``: the exact and the
    heuristic solver of one metric on one pair of files).  The jobs are of the alignment
    family (each metric's Scorer, one per metric), or of one other metric class and one gold
    (:func:`smatchpp.running.runs.metric_rows`: the gold's features once a row for each
    instance)."""
    metrics = [metric for metric, _, _ in jobs]
    if all(aligns(metric) for metric in metrics):
        from ..api import Scorer, iter_score_rows

        scorers: dict[int, Any] = {}
        for metric in metrics:
            scorers.setdefault(id(metric), Scorer(metric.run_config(on_error)))
        return _results_of(iter_score_rows([(scorers[id(metric)], a, b) for metric, a, b in jobs], workers,
                                           False, client))
    gold = jobs[0][2]
    if any(type(metric) is not type(metrics[0]) for metric in metrics) or any(b is not gold for _, _, b in jobs):
        raise ValueError("rows of a metric without an alignment are of one metric against one gold")
    return _pairs_of(metric_rows(metrics[0] if all(m is metrics[0] for m in metrics) else metrics,
                                 [a for _, a, _ in jobs], gold, on_error, workers, client))


def _results_of(rows: Iterable) -> Iterator[tuple]:
    """The rows of :func:`smatchpp.api.iter_score_rows` as pair results (:meth:`AlignmentMetric.result`)."""
    for row in rows:
        yield tuple(map(AlignmentMetric.result, row))


def _pairs_of(rows: Iterable) -> Iterator[tuple]:
    """The rows of :func:`~smatchpp.running.runs.metric_rows` without their (absent) explanations."""
    for row in rows:
        yield tuple(pair for pair, _ in row)


def explained(found: Iterable) -> Iterator:
    """The pairs of :func:`~smatchpp.running.runs.metric_pairs` with their explanations in them."""
    for pair, explanation in found:
        pair.explanation = explanation
        yield pair


def workers_for(args: argparse.Namespace, metric, pairs: int) -> int:
    """``--workers`` as given (capped at the cores unless ``--force-workers``); without it, all
    cores for a metric whose pair is a solve, else one worker per
    :data:`smatchpp.running.runs.PAIRS_PER_WORKER` pairs, at most the cores (a pool costs more than it
    saves on a few thousand pairs of a metric without an alignment)."""
    if not metric.cheap_pairs or getattr(args, "dask", None) is not None or getattr(args, "workers", None) is not None:
        return workers_from_args(args)
    return auto_workers(pairs, workers_from_args(args))


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


@dataclass(frozen=True)
class Graphs:
    """An all-pairs command's inputs (``matrix``: the rows' file, then the columns' when given),
    read by :func:`read_graph_files`: each file's graphs as its engine takes them (``prepare``'s),
    their ids (:func:`smatchpp.reporting.matrix_files.graph_ids`), every read error, the
    ``--on-error`` policy, and whether the errors are recalled at the end (:func:`fill_matrix`)."""

    paths: tuple[str, ...]
    graphs: tuple
    ids: tuple[list[str], ...]
    errors: list
    on_error: str
    recall: bool

    @property
    def square(self) -> bool:
        """One file: its graphs against themselves."""
        return len(self.paths) == 1


def read_graph_files(args: argparse.Namespace, paths: Sequence[str], on_error: str,
                     prepare: Callable[[list[Entry]], Any] = list, at_once: bool = True) -> Graphs | None:
    """Step 1 of an all-pairs command (``matrix``, either engine): the files ``paths`` read (DRSs
    in clausal form under ``--metric counter``: :func:`~.common.read_input`), each warned about
    when it holds no graph, its unreadable graphs handled by ``on_error``, its graphs given to
    ``prepare`` and its ids kept.  Two orders, each an engine's (outputs kept as they were):

    - ``at_once`` (every metric without an alignment): every file read, then the empty ones
      warned about, then the unreadable graphs of all reported (``raise``: listed, ``None``
      returned, nothing scored); ``empty`` recalls them at the end (:attr:`Graphs.recall`);
    - else (the alignment family): file by file, read, warned about, its unreadable graphs
      reported (``raise``: listed, then a usage error naming the file) or warned about at once
      as scored as empty graphs, then prepared."""
    from ..reporting.matrix_files import graph_ids

    drs = reads_drs(args)
    entries: list = []
    prepared: list = []
    for path in paths:
        entries.append(read_input(path, args.input_format, drs))
        if at_once:
            continue
        _holds_graphs(path, entries[-1])
        errors = [e.error for e in entries[-1] if e.error is not None]
        if report_unreadable(errors, on_error):
            raise UsageError(f"{plural(len(errors), 'unreadable graph')} in {path}")
        if errors:
            warn(f"{plural(len(errors), 'unreadable graph')} in {path} scored as empty graphs")
        prepared.append(prepare(entries[-1]))
    errors = [e.error for got in entries for e in got if e.error is not None]
    if at_once:
        for path, got in zip(paths, entries):
            _holds_graphs(path, got)
        if report_unreadable(errors, on_error):
            return None
        prepared = [prepare(got) for got in entries]
    return Graphs(tuple(paths), tuple(prepared), tuple(graph_ids(got) for got in entries), errors, on_error,
                  recall=at_once)


def _holds_graphs(path: str, entries: list) -> None:
    if not entries:
        warn(f"{path} holds no graph: is it the right file? (no pair with its graphs is scored)")


def fill_matrix(args: argparse.Namespace, graphs: Graphs, engine, workers: int) -> int:
    """Steps 2 to 4 of ``matrix``, for either engine
    (:class:`~smatchpp.reporting.matrix_files.AlignmentMatrix`,
    :class:`~smatchpp.reporting.matrix_files.MetricMatrix`): ``engine.run(workers, client)``
    under the interrupt handlers, on this process, a pool or ``--dask`` (an interrupt keeps what
    finished), the file written whole either way (``engine.write()``: the rest NaN), then
    ``SIGNATURE`` and ``N of M pairs scored (CELLS)[, C certified optimal]; matrix written to
    OUT[, K intervals to FILE]`` (and the aspects' counts), the unreadable graphs recalled
    (:attr:`Graphs.recall`, when not interrupted), the interrupt, and the exit code."""
    from ..reporting.present import matrix_cells

    interrupted = False
    try:
        with interrupts(), engine, dask_client(args, workers) as client:
            engine.run(workers, client)
    except INTERRUPTS:
        interrupted = True
    engine.write()
    done, certified = engine.done, engine.certified
    line = f"{done} of {plural(engine.total, 'pair')} scored ({matrix_cells(engine.n, engine.m, engine.square)})"
    line += (f", {certified} certified optimal" if certified is not None else "") + f"; matrix written to {engine.out}"
    if certified is not None and done > certified:
        line += f", {done - certified} intervals to {engine.intervals}"
    print(f"{engine.signature}\n{line}" + (engine.rest if interrupted else ""), file=sys.stdout)
    aspects = engine.aspect_counts()
    if aspects is not None:
        matrices, solved, sure = aspects
        print(f"aspects: {matrices} matrices, {sure} of {plural(solved, 'aspect pair')} certified optimal"
              + (f", {solved - sure} intervals to {engine.intervals}" if solved > sure else ""), file=sys.stdout)
    if graphs.recall and not interrupted:
        warn_unreadable(graphs.errors, graphs.on_error)
    if interrupted:
        print(f"smatchpp: interrupted: {done} of {plural(engine.total, 'pair')} finished", file=sys.stderr)
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

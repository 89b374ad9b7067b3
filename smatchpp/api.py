"""The Python API: configure once, score pairs or whole corpora.

>>> s = Scorer(Config(solver="exact"))
>>> r = s.score_pair("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> r.matched, r.test_triples, r.gold_triples, r.status  # the TOP triples differ
(3.0, 4, 4, 'optimal')
>>> round(r.f1, 4)
0.75
>>> score_pair("(a / dog)", "(b / dog)").f1
1.0
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Iterable, Iterator, Literal, Sequence

from .alignment.aligner import PairAligner
from .presets import Options, standardize
from .alignment.compile import compile_pair
from .alignment.matchers import TripleMatcher
from .alignment.config import Config
from .running.executor import Work, default_workers, progress_bar, stream  # noqa: F401 (default_workers: part of the API)
from .core.exceptions import InputMismatchError, ReadError
from .graphs.pairing import check_pairing
from .alignment.problem import Problem
from .graphs.read import Entry, Format, RawGraph, from_penman, read_file, read_text
from .core.schedule import Schedule
from .alignment.score import CorpusScore, PairScore
from .graphs.triples import EMPTY, PresetName, TripleGraph

if TYPE_CHECKING:
    import penman

__all__ = ["Config", "Scorer", "score_pair", "score_corpus", "score_files",
           "parse_graph", "compile_strings", "OnError", "iter_score_rows"]

OnError = Literal["raise", "empty", "skip"]


def parse_graph(text: str, preset: PresetName = "smatch", **options) -> TripleGraph:
    """Read one PENMAN graph and standardize it; raises :class:`ReadError` if unreadable.

    ``options`` are preset options (:class:`smatchpp.presets.Options`, e.g. ``keep_wiki``).
    """
    return standardize(_read_one(text), preset, **options)


def _read_one(text: "str | penman.Graph") -> RawGraph:
    """One graph as written: a PENMAN string, or a :class:`penman.Graph`."""
    if not isinstance(text, str):
        return _from_penman(text)
    entries = read_text(text)
    if len(entries) != 1:
        raise ReadError(f"expected one graph, found {len(entries)}")
    if entries[0].error:
        raise entries[0].error
    assert entries[0].graph is not None
    return entries[0].graph


def _from_penman(graph) -> RawGraph:
    import penman

    if not isinstance(graph, penman.Graph):
        raise TypeError(f"expected a PENMAN string, a penman.Graph or a TripleGraph, "
                        f"got {type(graph).__name__}")
    return from_penman(graph)


def compile_strings(a: str, b: str, matcher: TripleMatcher | None = None) -> Problem:
    """Compile two PENMAN strings into a :class:`Problem` (handy in examples and tests)."""
    return compile_pair(parse_graph(a), parse_graph(b), matcher)


class Scorer:
    """Scores graph pairs under one :class:`Config`.

    ``matcher`` overrides the matcher ``config.match`` names (for experiments
    with a matcher that is not registered; the signature then names it).
    """

    def __init__(self, config: Config | None = None, matcher: TripleMatcher | None = None) -> None:
        self.config = config or Config()
        #: the per-pair core (compile, solve, certify), shared with the ``smatch`` metric
        self.aligner = PairAligner(self.config, matcher)
        #: the corpus deadline of ``config.total_time_limit`` (set by :meth:`iter_scores`)
        self.schedule: Schedule | None = None
        self.aspects = None
        if self.config.aspects != "none":
            from .aspects.core import AspectScorer
            self.aspects = AspectScorer.for_scorer(self)

    @property
    def matcher(self) -> TripleMatcher:
        """The matcher that sets the coefficients (the aligner's)."""
        return self.aligner.matcher

    @property
    def solver(self):
        """The solver of every pair (the aligner's; a test may wrap it)."""
        return self.aligner.solver

    @solver.setter
    def solver(self, solver) -> None:
        self.aligner.solver = solver

    @property
    def _options(self) -> dict:
        """The preset options (:class:`smatchpp.presets.Options`) the Config sets."""
        return vars(Options.of(self.config))

    @property
    def signature(self) -> str:
        return self.config.signature(match=self._match)

    @property
    def _match(self) -> str | None:
        """The matcher's name when it is not the Config's (a matcher given to the Scorer)."""
        return self.matcher.name if self.matcher.name != self.config.match else None

    def corpus(self, pairs: Sequence[PairScore]) -> CorpusScore:
        """The :class:`CorpusScore` of pairs this scorer scored (its Config and signature)."""
        pairs = list(pairs)
        aspects = None
        if any(p.aspects is not None for p in pairs):
            from .aspects.core import aspect_summary

            aspects = aspect_summary(pairs, self.config)
        return CorpusScore(pairs, self.config, self._match, aspects)

    def _graph(self, g: "TripleGraph | str | penman.Graph") -> TripleGraph:
        if isinstance(g, TripleGraph):
            return g
        return standardize(_read_one(g), self.config.preset, **self._options)

    def score_pair(self, a: "TripleGraph | str | penman.Graph", b: "TripleGraph | str | penman.Graph",
                   index: int = 0, id: str | None = None) -> PairScore:
        """Align ``a`` (test) to ``b`` (gold) and score the pair.

        ``a`` and ``b`` are PENMAN strings, :class:`penman.Graph` objects (read as
        written: see :func:`smatchpp.graphs.read.from_penman`) or standardized
        :class:`TripleGraph` objects.  With ``config.aspects``, strings and penman
        graphs also get their aspect scores (:class:`TripleGraph` inputs cannot: the
        aspects read the graph as written).
        """
        if self.aspects is not None and not isinstance(a, TripleGraph) and not isinstance(b, TripleGraph):
            raw_a, raw_b = _read_one(a), _read_one(b)
            score = self.score_pair(standardize(raw_a, self.config.preset, **self._options),
                                    standardize(raw_b, self.config.preset, **self._options), index, id)
            self.aspects.attach(score, raw_a, raw_b)
            return score
        a, b = self._graph(a), self._graph(b)
        began = time.perf_counter()
        return self._solve_compiled(*self._compile(a, b), began, index, id)

    def _compile(self, a: TripleGraph, b: TripleGraph) -> tuple[TripleGraph, TripleGraph, Problem]:
        """The pair as :meth:`score_pair` solves it: the preset's pair rewrite (e.g. smatchpp
        1.8's concept-as-identity, preset smatchpp18-lossy), if any, then its problem."""
        return self.aligner.compile(a, b)

    def _solve_compiled(self, a: TripleGraph, b: TripleGraph, problem: Problem, began: float,
                        index: int = 0, id: str | None = None) -> PairScore:
        """:meth:`score_pair` after :meth:`_compile` (``began``: when compiling began)."""
        time_limit = self.config.time_limit
        if self.schedule is not None:  # the pair's share of the corpus budget
            time_limit = self.schedule.limit(index, time_limit)
        return self.aligner.solve(a, b, problem, began, time_limit, index, id)

    def _score_item(self, item: tuple) -> PairScore:
        index, pid, a, b, error, raws = item
        if a is None:
            return PairScore(index, pid, 0, 0, 0, 0, "skipped", self.config.solver, error=error)
        score = self.score_pair(a, b, index, pid)
        score.error = error
        if self.aspects is not None:
            self.aspects.attach(score, *raws)
        return score

    def score_corpus(self, entries_a: Sequence[Entry], entries_b: Sequence[Entry],
                     workers: int = 1, progress: bool = False) -> CorpusScore:
        """Score aligned lists of entries (as returned by :func:`read_file`).

        Unreadable graphs follow ``config.on_error``: ``raise`` raises the first
        :class:`ReadError` (see :func:`read_errors` to list all), ``empty`` scores
        the graph as empty, ``skip`` drops the pair (kept with status ``skipped``).
        Results do not depend on ``workers``.
        """
        return self.corpus(self.iter_scores(entries_a, entries_b, workers, progress))

    def iter_scores(self, entries_a: Sequence[Entry], entries_b: Sequence[Entry],
                    workers: int = 1, progress: bool = False, dask=None,
                    chunk: int | None = None) -> Iterator[PairScore]:
        """Like :meth:`score_corpus`, but yield each pair's score in index order as it is done.

        Stopping the iteration (or an interrupt while it waits) ends the worker
        processes at once; the pairs already yielded are complete.  With ``dask``
        (a ``distributed.Client``) the pairs run on its cluster.  ``chunk``: pairs a worker
        gets at a time (default: an eighth of each worker's share, 1 to 64).
        """
        for row in iter_score_rows([(self, entries_a, entries_b)], workers, progress, dask, chunk):
            yield row[0]

    def _prepare(self, items: list[tuple]) -> None:
        """Let a soft matcher compute, once, the similarities the whole corpus needs.

        Worker processes then receive that table with the matcher, never the
        word vectors it came from.
        """
        self.aligner.prepare((item[2].concepts, item[3].concepts) for item in items
                             if item[2] is not None)

    def _item(self, ea: Entry, eb: Entry) -> tuple:
        errors = [e.error for e in (ea, eb) if e.error is not None]
        if errors and self.config.on_error == "raise":
            raise errors[0]
        message = "; ".join(str(e) for e in errors) or None
        if errors and self.config.on_error == "skip":
            return ea.index, ea.id or eb.id, None, None, message, None
        ga = standardize(ea.graph, self.config.preset, **self._options) if ea.graph else EMPTY
        gb = standardize(eb.graph, self.config.preset, **self._options) if eb.graph else EMPTY
        # the aspects read the graphs as written
        raws = (ea.graph, eb.graph) if self.aspects is not None else None
        return ea.index, ea.id or eb.id, ga, gb, message, raws

    def _map(self, items: list[tuple], workers: int) -> Iterator[PairScore]:
        """Each item's score (items of :meth:`_item`), in order, by ``workers`` processes."""
        for row in _map_jobs([self], [items], workers):
            yield row[0]


def iter_score_rows(jobs: Sequence[tuple[Scorer, Sequence[Entry], Sequence[Entry]]],
                    workers: int = 1, progress: bool = False, dask=None,
                    chunk: int | None = None) -> Iterator[tuple[PairScore, ...]]:
    """Score several pairings of parallel files at once, pair by pair (``compare``: two
    systems against one gold; ``gap``: the exact and the heuristic solver on one pair of
    files).

    ``jobs`` are ``(scorer, entries_a, entries_b)``, all of the same length.  Yields, in
    index order, the tuple of every job's score of that pair, as soon as all of them are
    done, so that an interrupted run keeps whole rows.  Each score is the one
    :meth:`Scorer.iter_scores` gives (pairs are scored independently); ``dask`` and
    ``chunk`` are its.
    """
    began = time.time()
    items = []
    for scorer, entries_a, entries_b in jobs:
        mismatch = check_pairing(entries_a, entries_b).mismatch
        if mismatch is not None:
            raise InputMismatchError(mismatch)
        items.append([scorer._item(ea, eb) for ea, eb in zip(entries_a, entries_b)])
        scorer._prepare(items[-1])
    scorers = [scorer for scorer, _, _ in jobs]
    for scorer, job_items in zip(scorers, items):
        if scorer.config.total_time_limit is not None:  # standardizing the graphs counts too
            parallel = workers if dask is None else sum(dask.nthreads().values())
            scorer.schedule = Schedule(began + scorer.config.total_time_limit, len(job_items), parallel)
    bar = progress_bar(len(items[0]) if items else 0, progress)
    try:
        for row in _map_jobs(scorers, items, workers, dask, chunk):
            bar.update(1)
            yield row
    finally:
        bar.close()
        for scorer in scorers:
            scorer.schedule = None  # the deadline belongs to this run only


def _map_jobs(scorers: Sequence[Scorer], items: Sequence[list[tuple]], workers: int,
              client=None, chunk: int | None = None) -> Iterator[tuple[PairScore, ...]]:
    """Row ``k``: every scorer's score of its ``k``-th item; one pool (or Dask ``client``) for
    all of them, ``chunk`` scores at a time (default: eight batches a worker, at most 64)."""
    jobs = len(scorers)
    tasks = [(j, job_items[k]) for k in range(len(items[0]) if items else 0)
             for j, job_items in enumerate(items)]
    if chunk is None:
        slots = workers if client is None else sum(client.nthreads().values())
        chunk = max(1, min(64, len(tasks) // (max(slots, 1) * 8)))
    # the matcher goes with its prepared similarity table (never the word vectors)
    work = Work(run=_worker_score, local=lambda task: scorers[task[0]]._score_item(task[1]),
                setup=_init_worker, args=([(s.config, s.matcher, s.schedule) for s in scorers],))
    row: list[PairScore] = []
    for score in stream(work, tasks, workers, chunk, client):
        row.append(score)
        if len(row) == jobs:
            yield tuple(row)
            row = []


def _init_worker(scorers: list[tuple]) -> list[Scorer]:
    """A worker's scorers (its state, :class:`~smatchpp.running.executor.Work`): from
    ``(config, matcher, schedule)`` of every job."""
    made = []
    for config, matcher, schedule in scorers:
        scorer = Scorer(config, matcher)
        scorer.schedule = schedule
        made.append(scorer)
    return made


def _worker_score(scorers: list[Scorer], task: tuple) -> PairScore:
    job, item = task
    return scorers[job]._score_item(item)


def read_errors(*files: Iterable[Entry]) -> list[ReadError]:
    """All read errors of the given entry lists, in file order."""
    return [e.error for entries in files for e in entries if e.error is not None]


def score_pair(a: "str | penman.Graph | TripleGraph", b: "str | penman.Graph | TripleGraph",
               **config) -> PairScore:
    """Score one pair (PENMAN strings or :class:`penman.Graph` objects); keyword arguments are
    :class:`Config` fields.

    >>> import penman
    >>> score_pair(penman.decode("(d / dog :ARG0-of (b / bark-01))"), "(b / bark-01 :ARG0 (d / dog))").matched
    3.0
    """
    return Scorer(Config(**config)).score_pair(a, b)


def score_files(path_a: str, path_b: str, fmt: Format = "auto", workers: int = 1,
                progress: bool = False, **config) -> CorpusScore:
    """Score two files of graphs pair by pair (A = test/prediction, B = gold)."""
    return Scorer(Config(**config)).score_corpus(read_file(path_a, fmt), read_file(path_b, fmt),
                                                 workers, progress)


def score_corpus(graphs_a: "Sequence[str | penman.Graph]", graphs_b: "Sequence[str | penman.Graph]",
                 workers: int = 1, **config) -> CorpusScore:
    """Score two lists of PENMAN strings (one graph per string) or penman graphs pair by pair."""
    return Scorer(Config(**config)).score_corpus(_entries(graphs_a, "a"), _entries(graphs_b, "b"),
                                                 workers)


def _entries(graphs: Sequence[str], name: str) -> list[Entry]:
    """One entry per string; a string without exactly one graph is an unreadable entry."""
    out = []
    for i, text in enumerate(graphs):
        where = f"<{name}[{i}]>"
        if not isinstance(text, str):  # a penman.Graph
            try:
                raw = _from_penman(text)
            except ReadError as exc:
                out.append(Entry(i, where, 1, None, ReadError(exc.message, where, 1, i)))
            else:
                out.append(Entry(i, where, 1, raw, metadata=raw.metadata))
            continue
        entries = read_text(text, where)
        if len(entries) == 1:
            e = entries[0]
            error = e.error and ReadError(e.error.message, where, e.error.line, i)
            out.append(replace(e, index=i, error=error))
        else:
            found = "no graph" if not entries else f"{len(entries)} graphs"
            out.append(Entry(i, where, 1, None,
                             ReadError(f"expected one graph, found {found}", where, 1, i)))
    return out

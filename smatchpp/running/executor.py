"""One way to run work items: in this process, in a pool of worker processes, or on Dask.

Every command that scores many things (``score``, ``compare``, ``gap``,
``explain``, ``matrix``, ``search``) hands :func:`stream` a :class:`Work`, which
says how to set a worker up and how to run one task there, and an iterable of
tasks.  Results come back in task order, each as soon as it and every task
before it are done, so a caller can write them out as they come and an
interrupted run keeps every finished result.

Dask.  Given a Dask client (``--dask``; :func:`smatchpp.running.distributed.connect`),
the same tasks run on its cluster, in the same order, with the same results.
The work's ``args`` (the graphs, the configuration, a prepared matcher) are
scattered to every worker once; tasks go out in batches of ``chunksize``, at
most 4 batches per worker thread in flight, so the client holds only a window
of results.  A Dask worker makes the state once per thread and run (a worker
may have several threads, and each needs its own scorer: a HiGHS instance is
not shared between threads), and drops the run's states when the run ends.  This module imports nothing above it: the work's
functions are module-level functions of the modules that give the work, which
a Dask worker imports itself when it unpickles them, and the client is used
through its methods only.

Interrupts.  The parent decides: :func:`interrupts` turns SIGTERM into
:class:`Interrupted` (Ctrl-C is Python's ``KeyboardInterrupt``); when either
ends the iteration, the pool's workers are terminated at once, and the caller
summarizes what it has.  A worker ignores SIGINT (a terminal sends Ctrl-C to
the whole process group: the parent alone must act on it) and dies by SIGTERM.
Between ``fork`` and the worker's own set-up, a child still has the parent's
handlers, so a SIGTERM there (``Pool.terminate`` of a pool that is still
starting) would raise :class:`Interrupted` inside the child and print its
traceback, or leave it holding one of the pool's locks.  The pool is therefore
created with SIGINT and SIGTERM blocked (:func:`signal.pthread_sigmask`); a
worker unblocks them only after setting its own dispositions, and a signal
that arrived meanwhile is delivered then, to the right handler.  No pool is
started for fewer than two tasks, and a pool that finished its work is closed
and joined, not terminated.

>>> def absolute(state, x):  # a worker's state (no setup: None) and a task
...     return abs(x)
>>> work = Work(run=absolute)
>>> list(stream(work, [-3, 1, -2], workers=1))
[3, 1, 2]
>>> list(stream(work, [], workers=2))
[]
>>> list(stream(work, [-3, 1, -2], workers=2))
[3, 1, 2]
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain, islice
from typing import Any, Callable, Iterable, Iterator

__all__ = ["Work", "stream", "Team", "DaskTeam", "Interrupted", "INTERRUPTS", "EXIT_INTERRUPTED", "interrupts",
           "deferred_interrupts", "start_method", "progress_bar", "default_workers"]

#: the signals a worker must not see before it has set its own handlers
_SIGNALS = {signal.SIGINT, signal.SIGTERM}


class Interrupted(Exception):
    """SIGTERM, turned into an exception like Ctrl-C's KeyboardInterrupt."""


#: what a caller catches to keep its finished results
INTERRUPTS = (KeyboardInterrupt, Interrupted)
#: the exit code of an interrupted command (128 + SIGINT, as shells report Ctrl-C)
EXIT_INTERRUPTED = 130


@contextmanager
def interrupts() -> Iterator[None]:
    """Turn SIGTERM into :class:`Interrupted` for the duration (Ctrl-C raises KeyboardInterrupt)."""
    def handler(signum, frame):
        raise Interrupted(signal.Signals(signum).name)
    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back for the duration (a signal that comes meanwhile is
    delivered at the end): for a step that must happen whole, such as recording a finished
    result in memory and in the output file, so that the summary and the file agree."""
    mask = getattr(signal, "pthread_sigmask", None)
    previous = mask(signal.SIG_BLOCK, _SIGNALS) if mask else None
    try:
        yield
    finally:
        if mask:
            mask(signal.SIG_SETMASK, previous)


@dataclass(frozen=True)
class Work:
    """How to run one kind of task.

    A worker (a pool process, or a Dask worker thread) makes its state once,
    ``state = setup(*args)`` (``None`` without ``setup``), then runs each task as
    ``run(state, task)``.  ``setup`` and ``run`` are module-level functions, so that
    they pickle; ``args`` go to every worker once.  ``local(task)`` runs a task in
    this process when no pool is used (default: ``run`` with a state of this
    process's ``setup(*args)``, made once).
    """

    run: Callable[[Any, Any], Any]
    local: Callable[[Any], Any] | None = None
    setup: Callable[..., Any] | None = None
    args: tuple = ()

    def in_process(self) -> Callable[[Any], Any]:
        """How this process runs a task: ``local``, or ``run`` with a state made here."""
        if self.local is not None:
            return self.local
        state = self.setup(*self.args) if self.setup is not None else None
        return lambda task: self.run(state, task)


def start_method() -> str:
    """``fork`` where the platform has it (workers share the parent's memory), else ``spawn``."""
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


def stream(work: Work, tasks: Iterable, workers: int = 1, chunksize: int = 1,
           client: Any = None) -> Iterator:
    """``work``'s result of every task, in task order, as each is done.

    With a Dask ``client``, on its cluster, ``chunksize`` tasks to a Dask task
    (``workers`` is then the cluster's; see the module docstring).
    Otherwise, with ``workers > 1`` and at least two tasks, by a pool of at most
    ``workers`` processes (never more than there are tasks), ``chunksize`` tasks
    at a time; else in this process.  Stopping the iteration, an exception or an
    interrupt while it waits terminates the pool's workers at once (cancels
    Dask's pending tasks); results already yielded are complete.  A task's
    exception reaches the caller as it was raised, from every backend.
    """
    if client is not None:
        yield from _stream_dask(client, work, tasks, chunksize)
        return
    tasks = iter(tasks)
    head = list(islice(tasks, max(workers, 2)))
    if workers <= 1 or len(head) < 2:
        local = work.in_process()
        for task in chain(head, tasks):
            yield local(task)
        return
    pool = _start_pool(work, min(workers, len(head)))
    finished = False
    try:
        yield from pool.imap(_run_pooled, chain(head, tasks), chunksize=chunksize)
        pool.close()
        pool.join()
        finished = True
    finally:
        if not finished:
            pool.terminate()
            pool.join()


def _start_pool(work: Work, processes: int):
    """A pool whose workers start with SIGINT and SIGTERM blocked (see the module docstring).

    The pool's own threads, started here too, keep them blocked: the signals then
    go to the main thread, which is the one that must act on them.
    """
    ctx = multiprocessing.get_context(start_method())
    mask = getattr(signal, "pthread_sigmask", None)
    previous = mask(signal.SIG_BLOCK, _SIGNALS) if mask else None
    try:
        return ctx.Pool(processes, initializer=_start_worker,
                        initargs=(work.setup, work.run, work.args, previous))
    finally:
        if mask:
            mask(signal.SIG_SETMASK, previous)


#: a pool worker's ``(run, state)`` (:func:`_start_worker`)
_WORKER: tuple = ()


def _start_worker(setup: Callable[..., Any] | None, run: Callable[[Any, Any], Any], args: tuple,
                  unblocked) -> None:
    """A worker's first step: its own signal dispositions, then the signals unblocked
    (``unblocked``: the parent's mask before the pool), then the work's set-up."""
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if unblocked is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
    _WORKER = (run, setup(*args) if setup is not None else None)


def _run_pooled(task: Any) -> Any:
    """A pool worker runs a task."""
    run, state = _WORKER
    return run(state, task)


#: on a Dask worker, each run's states: ``{run key: {thread id: state}}``; a run's entry is
#: dropped when the run ends (:func:`_forget`), so a long-lived worker keeps no scorer or
#: graphs of runs that are over
_STATES: dict[str, dict[Any, Any]] = {}
_STATES_LOCK = threading.Lock()


def _scatter(client, objects: tuple) -> list:
    """One future per object of ``objects``, every one on every worker (an object given
    twice, once)."""
    # unique keys (hash=False): a second run that scatters equal objects must not share, and
    # then lose, the first run's keys when those are released
    # each object is one future: scattering a list itself would make a future per element, and
    # every task would then depend on all of them (thousands of dependencies per task for the
    # scheduler to track: 800 graphs in chunks of 1024 with 2 workers took 38 s, now 14 s)
    # the same object twice (a matrix of a collection against itself: rows and columns) is
    # shipped once; 500 graphs took 0.047 s to scatter as rows and columns
    distinct = list({id(obj): obj for obj in objects}.values())
    futures = dict(zip((id(obj) for obj in distinct),
                       client.scatter(distinct, broadcast=True, hash=False) if distinct else []))
    return [futures[id(obj)] for obj in objects]


def _stream_dask(client, work: Work, tasks: Iterable, chunksize: int = 1,
                 window: int | None = None) -> Iterator:
    """``work``'s result of every task, in task order, computed on ``client``'s cluster.

    ``chunksize`` tasks go to a worker at a time; at most ``window`` batches are in flight
    (default: 4 per worker thread).  Stopping the iteration, an exception or an interrupt
    while it waits cancels the batches still pending.
    """
    shared = _scatter(client, tuple(work.args))
    if window is None:
        window = 4 * (sum(client.nthreads().values()) or 1)
    key = os.urandom(16).hex()  # this run's state on a worker thread, never another run's
    tasks = iter(tasks)
    pending: deque = deque()
    try:
        while True:
            batch = list(islice(tasks, max(chunksize, 1)))
            if not batch:
                break
            pending.append(client.submit(_run_batch, work.setup, work.run, key, batch, *shared,
                                         pure=False))
            if len(pending) >= window:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
        try:  # the run's states on every worker; not waited for (an interrupt must end fast)
            client.run(_forget, key, wait=False)
        except Exception:  # noqa: BLE001 - a closed or lost client has no states to drop
            pass


async def _forget(key: str) -> None:
    """Drop the states of the run ``key`` on this worker (run on every worker at the end, in
    the worker's event loop: Dask runs a function without waiting for it only as a coroutine)."""
    with _STATES_LOCK:
        _STATES.pop(key, None)


def _run_batch(setup: Callable[..., Any] | None, run: Callable[[Any, Any], Any], key: str,
               batch: list, *args: Any) -> list:
    """A worker's task: ``run(state, task)`` for each task of ``batch``; ``state`` is this
    thread's ``setup(*args)`` of the run ``key``, made at its first batch."""
    thread = threading.get_ident()
    with _STATES_LOCK:
        states = _STATES.setdefault(key, {})
        made = thread in states
        state = states.get(thread)
    if not made:
        state = setup(*args) if setup is not None else None
        with _STATES_LOCK:
            _STATES.setdefault(key, {})[thread] = state
    return [run(state, task) for task in batch]


class Team:
    """Worker processes that keep what their tasks made: a task sent to a worker runs there,
    after the tasks sent to it before, with that worker's state (``setup(*args)``, made once),
    where those tasks may have left their results.

    :func:`stream` hands any task to any free worker; a team is for work in steps whose later
    steps need what an earlier step made in the same process (graphs a worker read from its
    part of a file, and then scores).  ``send(worker, task, tag)`` queues ``run(state, task)``
    on worker ``worker`` (``run`` and ``setup`` are module-level functions, as for
    :class:`Work`; ``args`` go to each worker once); :meth:`receive` returns the next ``(tag,
    result)`` that any worker finished, and raises a task's exception as it was raised.  Workers start, and
    signals are handled, as for :func:`stream`'s pool (see the module docstring); leaving the
    ``with`` block terminates the workers unless :meth:`finish` ended them first.

    >>> def add(state, x):  # state: the list setup made; a task appends to it
    ...     state.append(x)
    ...     return sum(state)
    >>> with Team(2, add, setup=list) as team:
    ...     for k, x in enumerate([1, 2, 3, 4]):
    ...         team.send(k % 2, x, tag=k)
    ...     got = dict(team.receive() for _ in range(4))
    ...     team.finish()
    >>> [got[k] for k in range(4)]  # worker 0 summed 1 and 3, worker 1 2 and 4
    [1, 2, 4, 6]
    """

    def __init__(self, workers: int, run: Callable[[Any, Any], Any], setup: Callable[..., Any] | None = None,
                 args: tuple = ()) -> None:
        ctx = multiprocessing.get_context(start_method())
        self._outbox = ctx.Queue()
        self._inboxes: list = []
        self._processes: list = []
        mask = getattr(signal, "pthread_sigmask", None)
        previous = mask(signal.SIG_BLOCK, _SIGNALS) if mask else None
        try:
            for _ in range(workers):
                theirs, ours = ctx.Pipe(duplex=False)
                process = ctx.Process(target=_team_worker, args=(theirs, self._outbox, run, setup, args, previous),
                                      daemon=True)
                process.start()
                theirs.close()
                self._inboxes.append(ours)
                self._processes.append(process)
        finally:
            if mask:
                mask(signal.SIG_SETMASK, previous)

    @property
    def size(self) -> int:
        return len(self._processes)

    def send(self, worker: int, task: Any, tag: Any = None) -> None:
        """Queue ``task`` on worker ``worker``; its result comes back with ``tag``."""
        self._inboxes[worker].send((tag, task))

    def receive(self, poll: float = 0.5) -> tuple[Any, Any]:
        """The next finished ``(tag, result)`` of any worker; a task's exception is raised here, and
        a worker that died (killed, out of memory) is an error."""
        import queue

        while True:
            try:
                tag, ok, result = self._outbox.get(timeout=poll)
            except queue.Empty:
                dead = [p.exitcode for p in self._processes if p.exitcode is not None]
                if dead:
                    raise RuntimeError(f"a worker process ended with exit code {dead[0]} before its work "
                                       "was done (killed, or out of memory?)") from None
                continue
            if not ok:
                raise result
            return tag, result

    def finish(self) -> None:
        """End the workers once their queued tasks are done (the results not received are lost)."""
        for inbox in self._inboxes:
            inbox.send(None)
        for process in self._processes:
            process.join()
        self._close()

    def terminate(self) -> None:
        """End the workers at once."""
        for process in self._processes:
            if process.is_alive():
                process.terminate()
        for process in self._processes:
            process.join()
        self._close()

    def _close(self) -> None:
        for inbox in self._inboxes:
            inbox.close()
        self._outbox.close()
        self._outbox.cancel_join_thread()
        self._processes, self._inboxes = [], []

    def __enter__(self) -> "Team":
        return self

    def __exit__(self, *exc) -> None:
        if self._processes:
            self.terminate()


class DaskTeam:
    """A :class:`Team` on a Dask cluster: the same ``send``/``receive``/``finish``/``terminate``,
    each of the cluster's workers one member.  ``args`` are scattered to every worker once; a
    task sent to a member runs on that worker (``workers=[address]``), after the task sent to
    it before (it waits for that task's future), with the state that member's tasks of this
    team share there (made by the first; dropped at the end, as :func:`stream`'s states).
    Results come back in the order the tasks were sent."""

    def __init__(self, client, run: Callable[[Any, Any], Any], setup: Callable[..., Any] | None = None,
                 args: tuple = ()) -> None:
        self._client, self._run, self._setup = client, run, setup
        self._addresses = sorted(client.nthreads())
        self._shared = _scatter(client, tuple(args))
        self._key = os.urandom(16).hex()
        self._last: dict[int, Any] = {}
        self._pending: deque = deque()

    @property
    def size(self) -> int:
        return len(self._addresses)

    def send(self, worker: int, task: Any, tag: Any = None) -> None:
        future = self._client.submit(_dask_member_task, self._run, self._setup, (self._key, worker), task, tag,
                                     self._last.get(worker), *self._shared, workers=[self._addresses[worker]],
                                     allow_other_workers=False, pure=False)
        self._last[worker] = future
        self._pending.append(future)

    def receive(self, poll: float = 0.5) -> tuple[Any, Any]:
        """The next ``(tag, result)`` in the order sent; a task's exception is raised here."""
        return self._pending.popleft().result()

    def finish(self) -> None:
        self._end()

    def terminate(self) -> None:
        self._end()

    def _end(self) -> None:
        for future in self._pending:
            future.cancel()
        self._pending.clear()
        self._last.clear()
        try:  # this team's states on every worker; not waited for (an interrupt must end fast)
            self._client.run(_forget, self._key, wait=False)
        except Exception:  # noqa: BLE001 - a closed or lost client has no states to drop
            pass

    def __enter__(self) -> "DaskTeam":
        return self

    def __exit__(self, *exc) -> None:
        self._end()


def _dask_member_task(run: Callable[[Any, Any], Any], setup: Callable[..., Any] | None, member: tuple,
                      task: Any, tag: Any, previous: Any, *args: Any) -> tuple[Any, Any]:
    """A :class:`DaskTeam` member's task on its worker: ``(tag, run(state, task))``, the state
    this member's first task made (``previous``, the member's task before, has finished: Dask
    passed its result)."""
    with _STATES_LOCK:
        states = _STATES.setdefault(member[0], {})
        made = member in states
        state = states.get(member)
    if not made:
        state = setup(*args) if setup is not None else None
        with _STATES_LOCK:
            _STATES.setdefault(member[0], {})[member] = state
    return tag, run(state, task)


def _team_worker(inbox, outbox, run: Callable[[Any, Any], Any], setup: Callable[..., Any] | None, args: tuple,
                 unblocked) -> None:
    """A team worker: its signal dispositions (as :func:`_start_worker`), its state, then each
    task its inbox brings, until ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if unblocked is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
    try:
        state = setup(*args) if setup is not None else None
    except BaseException as exc:  # noqa: BLE001 - the parent raises it
        outbox.put((None, False, _sendable(exc)))
        state = None
    while True:
        try:
            message = inbox.recv()
        except EOFError:  # the parent is gone
            break
        if message is None:
            break
        tag, task = message
        try:
            outbox.put((tag, True, run(state, task)))
        except BaseException as exc:  # noqa: BLE001 - the parent raises it
            outbox.put((tag, False, _sendable(exc)))
    outbox.close()
    outbox.join_thread()


def _sendable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling, else a RuntimeError with its text and traceback."""
    import pickle
    import traceback

    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any exception that does not pickle
        text = "".join(traceback.format_exception(exc))
        return RuntimeError(f"{type(exc).__name__}: {exc}\n(in a worker process)\n{text}")


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, enabled: bool, unit: str = "pair"):
    """A progress bar on standard error (tqdm) when ``enabled`` and it is a terminal; else
    one that shows nothing."""
    if not enabled or not sys.stderr.isatty():
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, file=sys.stderr, smoothing=0.05)


def default_workers() -> int:
    """All cores this process may use (the default and the cap of ``--workers``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)

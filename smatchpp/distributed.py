"""Running pairs on a Dask cluster (the optional ``dask`` extra).

``--dask`` without an address starts a :class:`distributed.LocalCluster` of
single-threaded worker processes on this machine; ``--dask tcp://HOST:8786``
connects to a running scheduler (e.g. one that dask-jobqueue started on SLURM;
see docs/scale-out.md).  The graphs are scattered to the workers once; tasks are
chunks of work (pairs, or queries), at most ``window`` of them in flight, and
their results come back in submission order, so the client holds only a
window of results and the output never depends on the number of workers, the
chunk size or where a task ran.

Workers started with ``--preload smatchpp.distributed`` (``dask worker ADDRESS
--preload smatchpp.distributed``, or dask-jobqueue's ``worker_extra_args``) import
smatchpp and load its compiled kernels when they start (:func:`dask_setup`), so no
run pays that start on its first tasks.

Each worker thread keeps its own :class:`~smatchpp.api.Scorer` (and its own
HiGHS instance, see :mod:`smatchpp.solvers.highs`), so workers with several
threads are safe too.

>>> from smatchpp.api import parse_graph
>>> from smatchpp.config import Config
>>> graphs = [parse_graph("(a / dog)"), parse_graph("(b / dog :ARG0 (c / cat))")]
>>> with connect(None, workers=1, processes=False) as client:  # doctest: +SKIP
...     [r.matched for chunk in map_chunks(client, score_pair_chunk, [[(0, 1)]], Config(), graphs, graphs)
...      for r in chunk]
[2.0]
"""

from __future__ import annotations

import threading
from collections import deque
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from .config import Config
from .exceptions import UsageError

__all__ = ["connect", "check_scheduler", "scheduler_address", "SCHEMES", "DEFAULT_TIMEOUT", "map_chunks",
           "score_pair_chunk", "score_item_chunk", "top_k_chunk", "warm_up",
           "dask_setup"]

_LOCAL = threading.local()


def _import():
    try:
        import distributed
    except ImportError:
        raise UsageError("--dask needs dask.distributed: pip install 'smatchpp[dask]'") from None
    return distributed


#: the protocols of a scheduler's address (Dask's ``inproc://`` works only inside one process)
SCHEMES = ("tcp", "tls", "ws", "wss")
#: seconds to wait for a scheduler to answer (``--dask-timeout``)
DEFAULT_TIMEOUT = 10.0


def scheduler_address(address: str) -> tuple[str, str, int]:
    """``(address, host, port)`` of a scheduler's ``SCHEME://HOST:PORT`` or ``HOST:PORT``
    (scheme ``tcp``); raises :class:`UsageError` for anything else.

    >>> scheduler_address("127.0.0.1:8786")
    ('tcp://127.0.0.1:8786', '127.0.0.1', 8786)
    >>> scheduler_address("tls://[::1]:8786")[1:]
    ('::1', 8786)
    >>> scheduler_address("http://127.0.0.1:80")
    Traceback (most recent call last):
    smatchpp.exceptions.UsageError: --dask http://127.0.0.1:80: not a scheduler address: the protocol must be one of tcp, tls, ws, wss (e.g. tcp://HOST:8786, or HOST:8786)
    """
    scheme, sep, rest = address.strip().partition("://")
    if not sep:
        scheme, rest = "tcp", address.strip()
    host, colon, port = rest.rpartition(":")
    if host.startswith("[") and host.endswith("]"):  # an IPv6 address
        host = host[1:-1]
    problem = ""
    if scheme.lower() not in SCHEMES:
        problem = "the protocol must be one of " + ", ".join(SCHEMES)
    elif not colon or not host or not port.isdigit() or not 0 < int(port) < 65536 \
            or any(c in host for c in "/?#@ "):
        problem = "expected HOST:PORT with a port from 1 to 65535"
    if problem:
        raise UsageError(f"--dask {address}: not a scheduler address: {problem} "
                         "(e.g. tcp://HOST:8786, or HOST:8786)")
    return f"{scheme.lower()}://{rest}", host, int(port)


def check_scheduler(address: str, timeout: float = DEFAULT_TIMEOUT) -> str:
    """The address of a Dask scheduler that answers at ``address`` within ``timeout``
    seconds; otherwise :class:`UsageError` saying what was found there.

    Dask's client alone can wait much longer than its own timeout: on a port where
    something accepts connections and never answers (and on a plain HTTP server) it
    waited minutes, and a server that answers something else made it read a length
    of 3 EiB and fail with a MemoryError.  So a socket is opened first (a closed port
    fails at once), then the scheduler is asked who it is, both within ``timeout``.
    """
    import socket

    address, host, port = scheduler_address(address)
    where = f"--dask {address}"
    waited = f"within {timeout:g} s (--dask-timeout)"
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except socket.timeout:
        raise UsageError(f"{where}: no connection {waited}") from None
    except OSError as exc:
        raise UsageError(f"{where}: cannot connect: {exc.strerror or exc}") from None
    answer: list = []
    probe = threading.Thread(target=_identify, args=(address, timeout, answer), daemon=True)
    probe.start()
    probe.join(timeout + 1)  # the probe has its own timeout; this one is a safety net
    if not answer or isinstance(answer[0], TimeoutError):
        raise UsageError(f"{where}: something listens there, but no Dask scheduler answered "
                         f"{waited}")
    info = answer[0]
    if not isinstance(info, dict) or info.get("type") != "Scheduler":
        detail = f": {type(info).__name__}" if isinstance(info, BaseException) else ""
        raise UsageError(f"{where}: what answered there is not a Dask scheduler{detail}")
    return address


def _identify(address: str, timeout: float, answer: list) -> None:
    """Ask the server at ``address`` for its identity (in a thread, with its own event
    loop); ``answer`` gets the reply, or the exception."""
    import asyncio

    from distributed.comm import connect as open_comm

    async def identity():
        comm = await open_comm(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        answer.append(asyncio.run(asyncio.wait_for(identity(), timeout)))
    except asyncio.TimeoutError:
        answer.append(TimeoutError())
    except BaseException as exc:  # noqa: BLE001 - e.g. MemoryError: a length read from non-Dask bytes
        answer.append(exc)


@contextmanager
def connect(address: str | None, workers: int = 1, processes: bool = True,
            timeout: float = DEFAULT_TIMEOUT) -> Iterator[Any]:
    """A client of the scheduler at ``address`` (checked by :func:`check_scheduler` within
    ``timeout`` seconds), or of a new local cluster of ``workers``."""
    distributed = _import()
    if address:
        address = check_scheduler(address, timeout)
        try:
            client = distributed.Client(address, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"--dask {address}: cannot connect within {timeout:g} s "
                             f"(--dask-timeout): {exc}") from None
        try:
            yield client
        finally:
            client.close()
        return
    import dask

    # the workers inherit this configuration: no statistical profiler (see dask_setup)
    with dask.config.set({PROFILER: False}):
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                                           dashboard_address=None, silence_logs=40)
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def warm_up() -> None:
    """Import the scoring code and load the compiled kernels (the compile kernel and the branch
    and bound, :mod:`smatchpp.jit`) of this process, by scoring one small pair that needs both:
    about 0.2 s once per process (0.6 s more with numba's JIT), otherwise paid by its first task.
    On a machine without the built module it waits for its build (once per machine, about
    20 s; a line on standard error says so): a worker that starts is ready to score fast."""
    from .api import Scorer, parse_graph
    from .jit import kernel_module

    kernel_module()

    a = parse_graph("(a / dog :ARG0 (b / cat) :ARG1 (c / mouse))")
    b = parse_graph("(a / dog :ARG0 (b / mouse) :ARG1 (c / cat))")
    Scorer(Config()).score_pair(a, b)


#: Dask's statistical profiler samples every worker thread's stack every 10 ms; on scoring,
#: all Python with short kernels, that cost 4 to 7% of the time of 2 workers (the first 500
#: Little Prince graphs: 4.51 s against 4.82 s, 4.38 against 4.69, 4.46 against 4.64)
PROFILER = "distributed.worker.profile.enabled"


def dask_setup(worker=None) -> None:
    """Dask's preload hook (``dask worker ADDRESS --preload smatchpp.distributed``): warm up
    the worker process before it takes tasks (:func:`warm_up`), and stop the worker's
    statistical profiler (:data:`PROFILER`; a preload runs before the worker starts it)."""
    warm_up()
    callbacks = getattr(worker, "periodic_callbacks", {})
    for name in ("profile", "profile-cycle"):
        callbacks.pop(name, None)


def _scorer(config: Config, matcher=None):
    """This thread's scorer for ``config`` and the (scattered, prepared) ``matcher``.

    A soft matcher arrives with the similarity table of the client's corpus, so a
    worker never loads word vectors; keying on the matcher object keeps a
    long-lived worker from reusing another run's table.
    """
    from .api import Scorer

    cache = getattr(_LOCAL, "scorers", None)
    if cache is None:
        cache = _LOCAL.scorers = {}
    key = (config.signature(), id(matcher))
    if key not in cache:
        cache[key] = (Scorer(config, matcher), matcher)  # the reference keeps the id unique
    return cache[key][0]


def score_pair_chunk(chunk, config: Config, graphs_a, graphs_b, matcher=None):
    """Matrix pairs ``(i, j)`` of a chunk -> :class:`~smatchpp.matrix.PairResult` list."""
    from .matrix import score_chunk

    return score_chunk(_scorer(config, matcher), graphs_a, graphs_b, chunk)


def score_item_chunk(items, config: Config, matcher=None, schedule=None):
    """Items of :meth:`~smatchpp.api.Scorer.iter_scores` -> their :class:`~smatchpp.score.PairScore`.

    ``schedule``: the run's corpus deadline (:mod:`smatchpp.schedule`), if any.
    """
    scorer = _scorer(config, matcher)
    scorer.schedule = schedule
    return [scorer._score_item(item) for item in items]


def top_k_chunk(queries, config: Config, query_graphs, corpus, matcher=None, *, k: int):
    """The top ``k`` of each query index in ``queries`` against the whole corpus
    (:func:`smatchpp.matrix.top_k_chunk`; ``matcher``: a scattered, prepared one)."""
    from .matrix import top_k_chunk as chunk

    return chunk(queries, config, query_graphs, corpus, matcher, k=k)


def map_chunks(client, func: Callable, chunks: Iterable, config: Config, *shared: Any,
               window: int | None = None, **kwargs: Any) -> Iterator[Any]:
    """``func(chunk, config, *shared, **kwargs)`` for every chunk, results in chunk order.

    ``shared`` objects (the graphs) are scattered to every worker once (an object given
    twice, once).  At most ``window`` chunks are in flight (default: 4 per worker thread).
    """
    distributed = _import()
    # unique keys (hash=False): a second run that scatters equal objects must not share, and
    # then lose, the first run's keys when those are released
    # each object is one future: scattering a list itself would make a future per element, and
    # every task would then depend on all of them (thousands of dependencies per task for the
    # scheduler to track: 800 graphs in chunks of 1024 with 2 workers took 38 s, now 14 s)
    # the same object twice (a matrix of a collection against itself: rows and columns) is
    # shipped once; 500 graphs took 0.047 s to scatter as rows and columns
    distinct = list({id(obj): obj for obj in shared}.values())
    scattered = dict(zip((id(obj) for obj in distinct),
                         client.scatter(distinct, broadcast=True, hash=False)))
    futures_shared = [scattered[id(obj)] for obj in shared]
    if window is None:
        threads = sum(client.nthreads().values()) or 1
        window = 4 * threads
    pending: deque = deque()
    try:
        for chunk in chunks:
            pending.append(client.submit(func, chunk, config, *futures_shared, pure=False, **kwargs))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
        del distributed

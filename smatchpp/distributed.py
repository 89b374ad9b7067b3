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

__all__ = ["connect", "map_chunks", "score_pair_chunk", "score_item_chunk", "top_k_chunk", "warm_up",
           "dask_setup"]

_LOCAL = threading.local()


def _import():
    try:
        import distributed
    except ImportError:
        raise UsageError("--dask needs dask.distributed: pip install 'smatchpp[dask]'") from None
    return distributed


@contextmanager
def connect(address: str | None, workers: int = 1, processes: bool = True) -> Iterator[Any]:
    """A client of the scheduler at ``address``, or of a new local cluster of ``workers``."""
    distributed = _import()
    if address:
        client = distributed.Client(address)
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

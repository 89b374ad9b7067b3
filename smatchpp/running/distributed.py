"""Connecting to a Dask cluster (the optional ``dask`` extra), and Dask workers' preload.

``--dask`` without an address starts a :class:`distributed.LocalCluster` of
single-threaded worker processes on this machine; ``--dask tcp://HOST:8786``
connects to a running scheduler (e.g. one that dask-jobqueue started on SLURM;
see docs/scale-out.md).  The client :func:`connect` gives runs the commands'
work like a process pool does: :func:`smatchpp.running.executor.stream` with the client.

Workers started with ``--preload smatchpp.running.distributed`` (``dask worker ADDRESS
--preload smatchpp.running.distributed``, or dask-jobqueue's ``worker_extra_args``) import
smatchpp and load its compiled kernels when they start (:func:`dask_setup`), so no
run pays that start on its first tasks.

>>> from smatchpp.api import Scorer
>>> from smatchpp.graphs.read import read_text
>>> a, b = read_text("(a / dog)"), read_text("(b / dog :ARG0 (c / cat))")
>>> with connect(None, workers=1, processes=False) as client:  # doctest: +SKIP
...     [p.matched for p in Scorer().iter_scores(a, b, dask=client)]
[2.0]
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Iterator

from ..alignment.config import Config
from ..core.exceptions import UsageError

__all__ = ["connect", "check_scheduler", "scheduler_address", "SCHEMES", "DEFAULT_TIMEOUT", "warm_up",
           "dask_setup"]


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
    smatchpp.core.exceptions.UsageError: --dask http://127.0.0.1:80: not a scheduler address: the protocol must be one of tcp, tls, ws, wss (e.g. tcp://HOST:8786, or HOST:8786)
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
    # no dashboard; the scheduler's HTTP server (which it starts anyway) on a free port: on its
    # default, 8787, a second cluster (another run, a notebook's) made Dask warn on standard
    # error that the port was in use
    with dask.config.set({PROFILER: False}):
        cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                                           dashboard_address=":0", scheduler_kwargs={"dashboard": False},
                                           silence_logs=40)
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


def warm_up() -> None:
    """Import the compiler and the solvers and load the compiled kernels (the compile kernel and
    the branch and bound, :mod:`smatchpp.alignment.jit`) of this process, by solving one small pair that
    needs both:
    about 0.2 s once per process (0.6 s more with numba's JIT), otherwise paid by its first task.
    On a machine without the built module it waits for its build (once per machine, about
    20 s; a line on standard error says so): a worker that starts is ready to score fast."""
    from ..alignment.compile import compile_pair
    from ..alignment.matchers import build_matcher
    from ..alignment.jit import kernel_module
    from ..presets import standardize
    from ..graphs.read import read_text
    from ..alignment.solvers import get_solver

    kernel_module()

    # the pair a Scorer of the default Config would score (this module sits below the API)
    config = Config()
    a, b = (standardize(read_text(text)[0].graph, config.preset)
            for text in ("(a / dog :ARG0 (b / cat) :ARG1 (c / mouse))",
                         "(a / dog :ARG0 (b / mouse) :ARG1 (c / cat))"))
    solver = get_solver(config.solver, config.seed, config.restarts, compression=config.compression != "none",
                        work_limit=config.work_limit)
    solver.solve(compile_pair(a, b, build_matcher(config), config.tolerance), config.time_limit)


#: Dask's statistical profiler samples every worker thread's stack every 10 ms; on scoring,
#: all Python with short kernels, that cost 4 to 7% of the time of 2 workers (the first 500
#: Little Prince graphs: 4.51 s against 4.82 s, 4.38 against 4.69, 4.46 against 4.64)
PROFILER = "distributed.worker.profile.enabled"


def dask_setup(worker=None) -> None:
    """Dask's preload hook (``dask worker ADDRESS --preload smatchpp.running.distributed``): warm up
    the worker process before it takes tasks (:func:`warm_up`), and stop the worker's
    statistical profiler (:data:`PROFILER`; a preload runs before the worker starts it)."""
    warm_up()
    callbacks = getattr(worker, "periodic_callbacks", {})
    for name in ("profile", "profile-cycle"):
        callbacks.pop(name, None)

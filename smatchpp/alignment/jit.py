"""Compiled kernels: built ahead of time once per machine, numba's JIT as the fallback.

A kernel is a module-level function of numpy arrays and numbers, decorated
with :func:`lazy_jit` and its numba signature.  Every kernel is compiled ahead
of time (``numba.pycc``, about 15 to 20 s) into one extension module in
``kernels`` of the cache directory (:func:`smatchpp.core.paths.cache_root`:
``$SMATCHPP_CACHE``, else ``$XDG_CACHE_HOME/smatchpp`` or
``~/.cache/smatchpp``), keyed by the kernels' source files, numba's and
Python's versions and the machine.  Processes import that module in about a
millisecond, without importing numba: loading numba and its JIT cache cost
every process about 0.6 s (0.26 s of it ``scipy.linalg``, which numba imports
to look for BLAS), which a run of 124,750 sentence pairs with two workers
could not split.

The module is built in the background, never in the way of a run: the first
process that needs a kernel and finds no module starts the build in a
detached process (which holds the directory's lock until the module is in
place, so one process builds while the others go on; it outlives the run
that started it) and says so in one line on standard error.  Until the
module is there, every process runs the kernels' Python source as it is
(the same operations in the same order: the same results, about 100 times
slower; :func:`ready` is False) and looks for the module again every
:data:`POLL_SECONDS`.  A caller with a faster path of its own (the compile
kernel has its numpy twin) asks :func:`ready` first.  Only
:func:`kernel_module` waits for a build in progress (it says so in one line
on standard error); ``python -m smatchpp.alignment.build_kernels`` builds the module now, in
the foreground (for an image or a cluster, before the first run).

If the module cannot be built (no C compiler, numba without ``pycc``, a cache
directory that cannot be written: the failure is kept in ``NAME.failed``
beside the module; delete it to try again) or ``SMATCHPP_AOT=0`` is set,
kernels are compiled by ``numba.njit`` at their first call, cached in
``__pycache__`` (about 13 s once, then about 0.6 s per process to load).  All
three give the same results (``tests/test_jit.py``).  The module is built for
this CPU, as the JIT compiles (for a generic CPU the scoring was 10 to 15%
slower); the CPU's model and features are part of the key, so a cache shared
by different machines holds one module for each.  Its kernels keep the GIL
(pycc cannot release it); the JIT's do not.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import platform
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path
from typing import Any, Callable

from ..core.paths import cache_root

__all__ = ["lazy_jit", "KERNELS", "kernel_module", "ready", "cache_dir", "module_path", "lock_path",
           "POLL_SECONDS"]

#: every kernel: exported name -> (python function, numba signature)
KERNELS: dict[str, tuple[Callable, str]] = {}
#: the modules that define kernels (all are imported before the module is built or loaded)
KERNEL_MODULES = ("smatchpp.alignment.compile", "smatchpp.alignment.solvers.bnb")
#: while the module is being built, a process looks for it at most this often
POLL_SECONDS = 0.25
_MODULE: list[Any] = []  # [module or None (numba's JIT)] once decided
_NEXT_LOOK = [0.0]  # while the module is being built: when to look for it again
_BUILDERS: list[subprocess.Popen] = []  # the build this process started (kept: no warning)
_DECIDING = threading.Lock()  # the threads of a Dask worker decide once, together
_SAID: set[str] = set()  # the lines this process has printed


def lazy_jit(signature: str) -> Callable[[Callable], Callable]:
    """Make ``fn`` a kernel of ``signature`` (numba's syntax), compiled at its first call.

    Until the compiled module is there (:func:`ready`), a call runs ``fn``'s Python.
    """

    def decorate(fn: Callable) -> Callable:
        name = fn.__name__.lstrip("_")
        KERNELS[name] = (fn, signature)
        compiled: list[Any] = []

        def call(*args: Any) -> Any:
            if not compiled:
                if not ready():
                    return fn(*args)  # the same operations, in Python, while the module is built
                module = _MODULE[0]
                if module is not None:
                    compiled.append(getattr(module, name))
                else:
                    from numba import njit

                    compiled.append(njit(cache=True, nogil=True)(fn))
            return compiled[0](*args)

        call.compiled = compiled  # type: ignore[attr-defined]  # empty until the first call
        call.__wrapped__ = fn  # type: ignore[attr-defined]
        call.__doc__ = fn.__doc__
        call.__name__ = fn.__name__
        return call

    return decorate


def cache_dir() -> Path:
    """Where the built module is kept: ``kernels`` in smatchpp's cache directory."""
    return cache_root() / "kernels"


def _key() -> str:
    from importlib.metadata import version

    h = hashlib.sha256()
    for module in KERNEL_MODULES:
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None
        h.update(Path(spec.origin).read_bytes())
    h.update(Path(__file__).read_bytes())
    h.update(f"{version('numba')}|{sys.version}|{platform.machine()}|{sys.platform}|{_cpu()}".encode())
    return h.hexdigest()[:16]


def _cpu() -> str:
    """This CPU's model and features (the module is built for them), from /proc/cpuinfo."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.processor()
    fields = {}
    for line in text.split("\n\n", 1)[0].splitlines():  # the first processor
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return "|".join(fields.get(k, "") for k in ("vendor_id", "model name", "flags", "Features", "CPU part"))


@functools.lru_cache(maxsize=None)
def _name() -> str:
    """The module's name, keyed by everything it is built from (the same for the whole process)."""
    for module in KERNEL_MODULES:
        importlib.import_module(module)
    return f"smatchpp_kernels_{_key()}"


def module_path() -> Path:
    """The built module of this machine's kernels (it may not exist yet)."""
    return cache_dir() / f"{_name()}.so"


def lock_path() -> Path:
    """The lock that the build holds, from its start until the module is in place."""
    return cache_dir() / f"{_name()}.lock"


def _say(line: str) -> None:
    """One line on standard error, once per process."""
    if line not in _SAID:
        _SAID.add(line)
        print(f"smatchpp: {line}", file=sys.stderr, flush=True)


def ready() -> bool:
    """True once the kernels are compiled: the built module is loaded, or numba's JIT is used.

    Never waits: a process that finds no module starts its build in the
    background (unless one is running) and returns False; so does every call
    until the module is there (it looks again every :data:`POLL_SECONDS`).
    """
    if _MODULE:
        return True
    with _DECIDING:
        if _MODULE:
            return True
        now = time.monotonic()
        if now < _NEXT_LOOK[0]:
            return False
        _NEXT_LOOK[0] = now + POLL_SECONDS
        return _decide(wait=False)


def kernel_module() -> Any:
    """The built module of every kernel (built now, or waited for, if missing), or ``None``:
    use numba's JIT."""
    with _DECIDING:
        if not _MODULE:
            _decide(wait=True)
    return _MODULE[0]


def _decide(wait: bool) -> bool:
    """Load the module, or start (``wait``: wait for, or run) its build; False while it is
    being built.  Any failure decides for numba's JIT, which always works."""
    if os.environ.get("SMATCHPP_AOT", "1") == "0":
        _MODULE.append(None)
        return True
    try:
        module = _load_or_build(wait)
    except Exception as exc:  # noqa: BLE001 - any failure leaves the JIT, which always works
        warnings.warn(f"smatchpp: compiled kernels not built ({exc}); using numba's JIT instead "
                      "(it compiles them at their first use, about 15 s once)", RuntimeWarning,
                      stacklevel=4)
        module = None
    else:
        if module is False:
            return False
    _MODULE.append(module)
    return True


def _load(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _load_or_build(wait: bool) -> Any:
    """The module; ``False`` if it is being built (started here unless running) and not ``wait``."""
    import fcntl

    name = _name()
    where = cache_dir()
    path, failed = where / f"{name}.so", where / f"{name}.failed"
    if path.exists():
        return _load(path)
    where.mkdir(parents=True, exist_ok=True)
    with open(where / f"{name}.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # another process is building it
            if not wait:
                return False
            _say("waiting for the compiled kernels, which another process is building "
                 "(once per machine, about 20 s)")
            fcntl.flock(lock, fcntl.LOCK_EX)
        # the lock is ours: nobody else is building
        if path.exists():
            return _load(path)
        if failed.exists():
            raise RuntimeError(f"{failed.read_text().strip()}; delete {failed} to try again")
        command = [sys.executable, "-m", "smatchpp.alignment.jit", "--build", name, str(where)]
        if wait:
            _say("building the compiled kernels (once per machine, about 20 s)")
            subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=900)
        else:
            # the builder inherits the locked file: the lock is held until it exits
            _BUILDERS.append(subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, pass_fds=(lock.fileno(),), start_new_session=True))
            _say("building the compiled kernels in the background (once per machine, about "
                 "20 s); until they are there, pairs are solved without them (same results, slower)")
            return False
    if path.exists():
        return _load(path)
    if failed.exists():
        raise RuntimeError(failed.read_text().strip())
    raise RuntimeError(f"the build left no module {name} in {where}")


def _build(name: str, where: Path) -> None:
    """Build the module into a temporary directory, then move it to ``where/NAME.so`` in one
    step; on failure write its last line to ``where/NAME.failed``.  Runs in its own process
    (numba stays out of the process that scores), which holds the lock."""
    import tempfile
    import traceback

    try:
        with tempfile.TemporaryDirectory(dir=where) as tmp:
            run = subprocess.run([sys.executable, "-m", "smatchpp.alignment.jit", name, tmp], capture_output=True,
                                 text=True, timeout=900)
            if run.returncode != 0:
                last = (run.stderr.strip().splitlines() or [f"exit code {run.returncode}"])[-1]
                raise RuntimeError(f"building failed: {last}")
            built = sorted(Path(tmp).glob(f"{name}*.so"))
            if not built:
                raise RuntimeError(f"the build left no module {name}")
            os.replace(built[0], where / f"{name}.so")
    except Exception as exc:  # noqa: BLE001 - recorded for every later process
        (where / f"{name}.failed").write_text(
            f"{exc}" if isinstance(exc, RuntimeError) else traceback.format_exc().strip().splitlines()[-1])


def _main(name: str, out: str) -> None:
    """``python -m smatchpp.alignment.jit NAME DIR``: compile every kernel into ``DIR/NAME*.so``."""
    warnings.simplefilter("ignore")  # pycc's pending deprecation
    from numba.pycc import CC

    for module in KERNEL_MODULES:
        importlib.import_module(module)
    from smatchpp.alignment.jit import KERNELS as registered  # run as __main__, this module is another copy

    cc = CC(name)
    cc.target_cpu = "host"  # as numba's JIT: a generic CPU made the scoring 10 to 15% slower
    cc.output_dir = out
    cc.verbose = False
    for kernel, (fn, signature) in sorted(registered.items()):
        cc.export(kernel, signature)(fn)
    cc.compile()


if __name__ == "__main__":
    if sys.argv[1] == "--build":
        _build(sys.argv[2], Path(sys.argv[3]))
    else:
        _main(*sys.argv[1:3])

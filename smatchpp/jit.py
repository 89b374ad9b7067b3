"""Compiled kernels: built ahead of time once per machine, numba's JIT as the fallback.

A kernel is a module-level function of numpy arrays and numbers, decorated
with :func:`lazy_jit` and its numba signature.  At the first call of any
kernel, every kernel is compiled ahead of time (``numba.pycc``, in a
subprocess, about 15 s) into one extension module in ``kernels`` of the
cache directory (:func:`smatchpp.config.cache_root`: ``$SMATCHPP_CACHE``,
else ``$XDG_CACHE_HOME/smatchpp`` or ``~/.cache/smatchpp``), keyed by the
kernels' source files, numba's and Python's versions and the machine.
Later processes import that module in about a millisecond, without importing
numba: loading numba and its JIT cache cost every process about 0.6 s (0.26 s
of it ``scipy.linalg``, which numba imports to look for BLAS), which a run of
124,750 sentence pairs with two workers could not split.

If the module cannot be built (no C compiler, numba without ``pycc``, a cache
directory that cannot be written) or ``SMATCHPP_AOT=0`` is set, kernels are
compiled by ``numba.njit`` at their first call, cached in ``__pycache__``
(about 13 s once, then about 0.6 s per process to load).  Both give the same
results (``tests/test_jit.py``).  The module is built for this CPU, as the JIT
compiles (for a generic CPU the scoring was 10 to 15% slower); the CPU's model
and features are part of the key, so a cache shared by different machines
holds one module for each.  Its kernels keep the GIL (pycc cannot release it);
the JIT's do not.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import platform
import subprocess
import sys
import threading
import warnings
from pathlib import Path
from typing import Any, Callable

__all__ = ["lazy_jit", "KERNELS", "kernel_module", "cache_dir"]

#: every kernel: exported name -> (python function, numba signature)
KERNELS: dict[str, tuple[Callable, str]] = {}
#: the modules that define kernels (all are imported before the module is built or loaded)
KERNEL_MODULES = ("smatchpp.compile", "smatchpp.solvers.bnb")
_MODULE: list[Any] = []  # [module or None] once decided
_DECIDING = threading.Lock()  # the threads of a Dask worker decide once, together


def lazy_jit(signature: str) -> Callable[[Callable], Callable]:
    """Make ``fn`` a kernel of ``signature`` (numba's syntax), compiled at its first call."""

    def decorate(fn: Callable) -> Callable:
        name = fn.__name__.lstrip("_")
        KERNELS[name] = (fn, signature)
        compiled: list[Any] = []

        def call(*args: Any) -> Any:
            if not compiled:
                module = kernel_module()
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
    from .config import cache_root

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


def kernel_module() -> Any:
    """The built module of every kernel (built now if missing), or ``None``: use the JIT."""
    with _DECIDING:
        if not _MODULE:
            module = None
            if os.environ.get("SMATCHPP_AOT", "1") != "0":
                try:
                    module = _load_or_build()
                except Exception as exc:  # noqa: BLE001 - any failure leaves the JIT, which always works
                    warnings.warn(f"smatchpp: compiled kernels not built ({exc}); using numba's JIT "
                                  "instead", RuntimeWarning, stacklevel=3)
            _MODULE.append(module)
    return _MODULE[0]


def _load_or_build() -> Any:
    import fcntl

    for name in KERNEL_MODULES:
        importlib.import_module(name)
    name = f"smatchpp_kernels_{_key()}"
    where = cache_dir()
    where.mkdir(parents=True, exist_ok=True)
    with open(where / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one process builds; the others wait, then load it
        built = sorted(where.glob(f"{name}.*.so")) + sorted(where.glob(f"{name}.so"))
        if not built:
            _build(name, where)
            built = sorted(where.glob(f"{name}.*.so")) + sorted(where.glob(f"{name}.so"))
        if not built:
            raise RuntimeError(f"the build left no module {name} in {where}")
    spec = importlib.util.spec_from_file_location(name, built[0])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build(name: str, where: Path) -> None:
    """Build the module in a subprocess (numba stays out of this process), into a
    temporary directory, then move it into ``where`` in one step."""
    import tempfile

    with tempfile.TemporaryDirectory(dir=where) as tmp:
        run = subprocess.run([sys.executable, "-m", "smatchpp.jit", name, tmp], capture_output=True,
                             text=True, timeout=900)
        if run.returncode != 0:
            last = (run.stderr.strip().splitlines() or [f"exit code {run.returncode}"])[-1]
            raise RuntimeError(f"building failed: {last}")
        for so in Path(tmp).glob(f"{name}*.so"):
            os.replace(so, where / so.name)


def _main(name: str, out: str) -> None:
    """``python -m smatchpp.jit NAME DIR``: compile every kernel into ``DIR/NAME*.so``."""
    warnings.simplefilter("ignore")  # pycc's pending deprecation
    from numba.pycc import CC

    for module in KERNEL_MODULES:
        importlib.import_module(module)
    from smatchpp.jit import KERNELS as registered  # run as __main__, this module is another copy

    cc = CC(name)
    cc.target_cpu = "host"  # as numba's JIT: a generic CPU made the scoring 10 to 15% slower
    cc.output_dir = out
    cc.verbose = False
    for kernel, (fn, signature) in sorted(registered.items()):
        cc.export(kernel, signature)(fn)
    cc.compile()


if __name__ == "__main__":
    _main(*sys.argv[1:3])

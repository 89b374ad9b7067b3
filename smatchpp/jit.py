"""Kernels compiled with numba on first use (numba is imported only then).

A kernel is a module-level function of numpy arrays and numbers, decorated
with :func:`lazy_jit`; numba's on-disk cache (``__pycache__``) spares later
processes the compilation (about 13 s for :mod:`smatchpp.solvers.bnb`'s
search, about 1 s to load it from the cache).
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["lazy_jit"]


def lazy_jit(fn: Callable) -> Callable:
    """``fn`` compiled by ``numba.njit`` (cached on disk, without the GIL) at its first call."""
    compiled: list[Any] = []

    def call(*args: Any) -> Any:
        if not compiled:
            from numba import njit

            compiled.append(njit(cache=True, nogil=True)(fn))
        return compiled[0](*args)

    call.compiled = compiled  # type: ignore[attr-defined]  # empty until the first call
    call.__wrapped__ = fn  # type: ignore[attr-defined]
    call.__doc__ = fn.__doc__
    call.__name__ = fn.__name__
    return call

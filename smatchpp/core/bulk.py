"""Building many small objects without Python's cycle collector in the way.

CPython's cyclic garbage collector runs every few hundred container allocations
and walks the objects allocated since.  The reader and the metrics' features
build hundreds of thousands of tuples, lists and dicts that never form a cycle
(the reference counts free them), so that work finds nothing: on the 16,072
graphs of BAMBOO main test it is about a third of the reading's CPU time and
40% of SemBleu's features.  :func:`no_cycle_collection` pauses the collector
for such a stretch and restores its previous state after; a cycle made
meanwhile (an exception kept with its traceback, say) is collected on the next
run after it.

>>> import gc
>>> with no_cycle_collection():
...     gc.isenabled()
False
>>> gc.isenabled()
True
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["no_cycle_collection"]


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Pause the cycle collector inside the ``with`` block (re-enabled after it, if it was
    enabled before; nested and concurrent uses leave it enabled at the end)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

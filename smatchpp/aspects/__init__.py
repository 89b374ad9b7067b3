"""Aspect scores: fine-grained scores of a graph pair, one aspect set a module.

* :mod:`smatchpp.aspects.core`: Damonte et al. (2017)'s set and the machinery every set uses
  (counts, registry, scorer);
* :mod:`smatchpp.aspects.smatchpp18`: smatchpp 1.8's set;
* :mod:`smatchpp.aspects.thesis`: the thesis' set (section 9.5.2).

The names of :mod:`smatchpp.aspects.core` are importable from here too (``from smatchpp.aspects
import AspectScorer``), loaded on first use, so that importing one set does not load the others.
"""

from __future__ import annotations

import importlib


def __getattr__(name: str):
    core = importlib.import_module(".core", __name__)
    if name in core.__all__:
        return getattr(core, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

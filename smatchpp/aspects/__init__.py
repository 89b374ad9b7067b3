"""Aspect scores: fine-grained scores of a graph pair, one aspect set a module.

* :mod:`smatchpp.aspects.base`: the one protocol of an aspect (``GraphAspect``,
  ``UnalignedAspect``), its count (``AspectCount``) and what a set is (``AspectSet``);
* :mod:`smatchpp.aspects.damonte`: Damonte et al. (2017)'s set;
* :mod:`smatchpp.aspects.smatchpp18`: smatchpp 1.8's set;
* :mod:`smatchpp.aspects.thesis`: the thesis' set (section 9.5.2);
* :mod:`smatchpp.aspects.counter`: Counter's detailed scores of DRS clauses (the ``counter``
  metric's set; it scores DRSs, not AMR graphs);
* :mod:`smatchpp.aspects.registry`: name -> set (the built-in ones and the installed
  packages' ``smatchpp.aspects`` entry points), ``aspect_list``;
* :mod:`smatchpp.aspects.features`: each graph's features of every aspect, once a graph
  (``matrix --aspects``);
* :mod:`smatchpp.aspects.core`: the machinery every set uses (scorer, corpus sums,
  intervals, notes).

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

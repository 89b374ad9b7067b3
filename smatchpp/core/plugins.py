"""Extensions from other installed packages, found through entry points.

A package that is installed beside smatchpp can add a metric, a preset or an aspect set
without touching smatchpp: it declares an entry point in one of the groups
below (``[project.entry-points."smatchpp.metrics"]`` in its ``pyproject.toml``),
and the registry loads it when smatchpp's registry is built, so the name
works in every command (``--metric NAME``, ``--preset NAME``), in the API and
in the signature, as a built-in name does.

========================  ==========================================================
group                     the entry point's object
========================  ==========================================================
``smatchpp.metrics``      a :class:`smatchpp.metrics.Metric` subclass; its ``name``
                          must be the entry point's name
``smatchpp.presets``      a :class:`smatchpp.presets.Preset`, registered under the
                          entry point's name
``smatchpp.aspects``      a :class:`smatchpp.aspects.base.AspectSet`, registered under
                          the entry point's name (``--aspects NAME``,
                          ``--metric aspect --aspect-set NAME``)
========================  ==========================================================

A name that is already taken (a built-in name, or another package's) is
refused, never replaced: a signature names exactly one thing.  An extension that
cannot be loaded (an import error, a wrong object) is left out with a warning
that names the entry point and its package, and everything else works.

This module is a leaf: the registries hand it what to check and where to put it.

>>> found = load(GROUPS["metrics"], accept=lambda name, obj: obj, register=lambda name, obj: None)
>>> isinstance(found, list)
True
"""

from __future__ import annotations

import warnings
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Callable

__all__ = ["GROUPS", "PluginWarning", "load", "origin"]

#: the entry-point groups smatchpp reads, by registry
GROUPS = {"metrics": "smatchpp.metrics", "presets": "smatchpp.presets", "aspects": "smatchpp.aspects"}


class PluginWarning(UserWarning):
    """An installed extension could not be loaded (it is left out)."""


def origin(ep: EntryPoint) -> str:
    """``NAME = VALUE`` of the entry point, and the package that declares it."""
    dist = getattr(ep, "dist", None)
    where = f" (package {dist.name} {dist.version})" if dist is not None else ""
    return f"entry point {ep.name} = {ep.value} in group {ep.group}{where}"


def load(group: str, accept: Callable[[str, Any], Any],
         register: Callable[[str, Any], None]) -> list[str]:
    """Load every entry point of ``group`` (in name order, so that the outcome does not
    depend on the order of the installed packages): ``accept(name, obj)`` checks the loaded
    object and returns what to register (raising ``TypeError`` or ``ValueError`` to refuse
    it), ``register(name, value)`` registers it.  Returns the names registered; a refused or
    broken entry point is left out with a :class:`PluginWarning`."""
    found = []
    for ep in sorted(entry_points(group=group), key=lambda e: (e.name, e.value)):
        try:
            value = accept(ep.name, ep.load())
            register(ep.name, value)
        except Exception as exc:  # an extension must never stop smatchpp from working
            warnings.warn(f"smatchpp: {origin(ep)} is left out: {type(exc).__name__}: {exc}",
                          PluginWarning, stacklevel=2)
            continue
        found.append(ep.name)
    return found

"""The registry of aspect sets: a name -> its :class:`~smatchpp.aspects.base.AspectSet`.

The built-in sets are one line each in
:data:`smatchpp.core.aspect_settings.ASPECT_SET_MODULES` (name -> ``module:ASPECT_SET``, the
form of an entry point's value, and the file settings the set reads), which the settings
read to check a name without loading any set; another installed package adds a set through an entry point of the group
``smatchpp.aspects`` (:mod:`smatchpp.core.plugins`), whose object is an ``AspectSet``
registered under the entry point's name.  A set's module is imported on the first look-up
of its name, so naming one set loads neither the others nor their resources; the entry
points are loaded once, on the first look-up of a name that is not built in.

>>> aspect_set_names()[:3]
('damonte', 'smatchpp18', 'thesis')
>>> [a.name for a in aspect_list("damonte", ["srl", "concepts"])]
['srl', 'concepts']
>>> aspect_rank("concepts"), aspect_rank("AGENT"), aspect_rank("rootSim")
((0, 3), (1, 0), (2, 11))
"""

from __future__ import annotations

from importlib.metadata import EntryPoint
from typing import Any, Iterable

from ..core.aspect_settings import ASPECT_SET_MODULES, aspect_set_names, readers, set_reads
from ..core.exceptions import SmatchppError
from ..core.plugins import GROUPS, load
from .base import Aspect, AspectSet

__all__ = ["get_aspect_set", "aspect_set_names", "aspect_list", "aspect_rank", "aspect_title",
           "UnknownAspectSet"]


class UnknownAspectSet(SmatchppError, ValueError):
    """No set of that name (or an installed package's set that could not be loaded)."""

#: name -> set, filled on look-up (the built-in sets first, in their order, then the plugins')
_SETS: dict[str, AspectSet] = {}
_PLUGINS_LOADED: list[bool] = []
#: aspect name -> printed title, of every aspect built in this process
_TITLES: dict[str, str] = {}


def _accept(name: str, obj: Any) -> AspectSet:
    if not isinstance(obj, AspectSet):
        raise TypeError(f"expected a smatchpp.aspects.base.AspectSet, got {type(obj).__name__}")
    if name in ASPECT_SET_MODULES or name in _SETS:
        raise ValueError(f"the aspect set {name!r} exists already")
    return obj


def _register(name: str, aspect_set: AspectSet) -> None:
    _SETS[name] = aspect_set


def get_aspect_set(name: str) -> AspectSet:
    """The set registered under ``name``; an :class:`UnknownAspectSet` (a ``ValueError``)
    names the known sets."""
    if name not in _SETS:
        if name in ASPECT_SET_MODULES:
            found = EntryPoint(name, ASPECT_SET_MODULES[name].value, GROUPS["aspects"]).load()
            if not isinstance(found, AspectSet):
                raise TypeError(f"{ASPECT_SET_MODULES[name].value} is no AspectSet")
            _SETS[name] = found
        elif not _PLUGINS_LOADED:
            _PLUGINS_LOADED.append(True)
            load(GROUPS["aspects"], _accept, _register)
    if name not in _SETS:
        known = list(ASPECT_SET_MODULES) + sorted(n for n in _SETS if n not in ASPECT_SET_MODULES)
        broken = " (its entry point was left out: see the warning)" if name in aspect_set_names() else ""
        raise UnknownAspectSet(f"unknown aspect set {name!r}{broken}; choose from {', '.join(known)}")
    return _SETS[name]


def aspect_list(aspect_set: str = "damonte", names: Iterable[str] | None = None,
                frames: str | None = None, vectors: str | None = None) -> list[Aspect]:
    """The aspects of the set ``aspect_set``, all or those ``names`` (in that order);
    ``frames`` is a PropBank frame file (for a set that reads one: ``smatchpp18``),
    ``vectors`` the word vectors (``None``: the packaged GloVe; the ``thesis`` set reads them)."""
    entry = get_aspect_set(aspect_set)
    if frames is not None and not set_reads(aspect_set, "propbank_frames"):
        raise ValueError(f"a PropBank frame file is read by the {' and '.join(readers('propbank_frames'))} "
                         "aspects only")
    every = {a.name: a for a in entry.build(frames, vectors)}
    _TITLES.update((a.name, a.title) for a in every.values())
    names = list(names or ())
    unknown = [n for n in names if n not in every]
    if unknown:
        raise ValueError(f"unknown {aspect_set} aspect(s) {', '.join(unknown)}; choose from {', '.join(every)}")
    return [every[n] for n in (names or every)]


def aspect_rank(name: str) -> tuple[int, int]:
    """Where an aspect's row goes in a corpus table: the built-in sets in their order, then
    the other packages' sets loaded so far, each set in its own order (a name no set knows
    goes last)."""
    sets = [get_aspect_set(n) for n in ASPECT_SET_MODULES]
    sets += [s for n, s in sorted(_SETS.items()) if n not in ASPECT_SET_MODULES]
    for k, found in enumerate(sets):
        if name in found.names:
            return k, found.names.index(name)
    return len(sets), 0


def aspect_title(name: str) -> str:
    """The printed name of an aspect of any set built in this process (Damonte's set has
    titles of its own: ``named_ent`` is "Named Ent."), else the name."""
    if name not in _TITLES:
        from .damonte import ASPECTS

        return ASPECTS[name].title if name in ASPECTS else name
    return _TITLES[name]

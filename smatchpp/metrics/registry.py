"""The registry of metrics: name -> class (a leaf: the metric modules import it).

>>> "jaccard" in metric_names()
True
>>> get_metric("nope")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown metric 'nope'; known: ...
"""

from __future__ import annotations

from typing import Any

from ..plugins import GROUPS, load
from .base import Metric

__all__ = ["METRICS", "register", "get_metric", "metric_names", "load_plugins"]


#: name -> metric class (the built-in ones; other packages' after :func:`load_plugins`)
METRICS: dict[str, type[Metric]] = {}
#: the names the entry points registered, once they are loaded
_PLUGINS: list[str] = []
_LOADED: list[bool] = []


def register(cls: type[Metric]) -> type[Metric]:
    """Class decorator: make ``cls`` available as ``--metric cls.name``."""
    if cls.name in METRICS and METRICS[cls.name] is not cls:
        raise ValueError(f"metric {cls.name!r} is registered twice")
    METRICS[cls.name] = cls
    return cls


def _accept(name: str, obj: Any) -> type[Metric]:
    """An entry point's metric class, checked: a :class:`Metric` subclass named ``name``
    that takes no name already taken by another class."""
    if not (isinstance(obj, type) and issubclass(obj, Metric)):
        raise TypeError(f"{obj!r} is not a subclass of smatchpp.metrics.Metric")
    if getattr(obj, "name", None) != name:
        raise ValueError(f"its class names itself {getattr(obj, 'name', None)!r}, not {name!r}")
    if name in METRICS and METRICS[name] is not obj:
        raise ValueError(f"metric {name!r} exists already (an extension never replaces a metric)")
    return obj


def load_plugins() -> list[str]:
    """Register the metrics of the installed packages' ``smatchpp.metrics`` entry points
    (:mod:`smatchpp.plugins`), once, on the first look-up by name (not on import: an
    extension imports :mod:`smatchpp.metrics` itself); returns their names."""
    if not _LOADED:
        _LOADED.append(True)  # first: an extension that looks a metric up does not recurse
        _PLUGINS.extend(load(GROUPS["metrics"], _accept, lambda name, cls: register(cls)))
    return list(_PLUGINS)


def metric_names() -> tuple[str, ...]:
    """The registered metric names, sorted (the installed extensions' included)."""
    load_plugins()
    return tuple(sorted(METRICS))


def get_metric(name: str, **params: Any) -> Metric:
    """The metric ``name`` with ``params`` (its dataclass fields); an unknown name raises
    ``ValueError`` listing the known ones."""
    load_plugins()
    try:
        cls = METRICS[name]
    except KeyError:
        raise ValueError(f"unknown metric {name!r}; known: {', '.join(metric_names())}") from None
    return cls(**params)

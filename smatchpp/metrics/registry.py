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

from .base import METRICS, Metric, load_plugins

__all__ = ["METRICS", "register", "get_metric", "metric_names", "load_plugins"]


def register(cls: type[Metric]) -> type[Metric]:
    """Class decorator: make ``cls`` available as ``--metric cls.name``."""
    if cls.name in METRICS and METRICS[cls.name] is not cls:
        raise ValueError(f"metric {cls.name!r} is registered twice")
    METRICS[cls.name] = cls
    return cls


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

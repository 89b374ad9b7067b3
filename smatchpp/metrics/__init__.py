"""Graph similarity metrics, the alignment family (``smatch``) among them, through one interface.

:mod:`smatchpp.metrics.base` defines the contract (:class:`Metric`: features
per graph, sufficient statistics per pair, scores from summed statistics).
Every metric module registers its class here with :func:`register`, and so does
a metric from another installed package through the ``smatchpp.metrics`` entry-point
group (:mod:`smatchpp.core.plugins`); :func:`get_metric` builds one by name with its
parameters.

>>> sorted(METRICS) == sorted(metric_names())
True
"""

from __future__ import annotations

from .base import Metric, MetricCorpus, MetricIntervals, MetricPair, bootstrap_metric, param
from .registry import METRICS, get_metric, load_plugins, metric_names, register

__all__ = ["Metric", "MetricCorpus", "MetricIntervals", "MetricPair", "bootstrap_metric", "param",
           "METRICS", "register", "get_metric", "metric_names", "load_plugins"]

# the metric modules register themselves on import
from . import jaccard  # noqa: E402,F401
from . import wlk  # noqa: E402,F401
from . import rematch  # noqa: E402,F401
from . import sembleu  # noqa: E402,F401
from . import sema  # noqa: E402,F401
from . import wwlk  # noqa: E402,F401
from . import alignment  # noqa: E402,F401
from . import aspect  # noqa: E402,F401

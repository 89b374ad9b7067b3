"""Alignment explorer: why two graphs differ, and what a hill-climber got wrong.

:func:`explain_pair` / :func:`explain_entries` build :class:`Explanation`
objects (the optimal alignment, matched and unmatched triples of each side,
the certificate, the seeded hill-climber's alignment and the triples it
loses); :mod:`.terminal` prints one, :mod:`.html` writes a self-contained
report of many.

>>> e = explain_pair("(d / dog)", "(c / cat)")
>>> e.matched, [e.a.triples()[t] for t in e.unmatched_a()]
(1.0, [('d', 'instance', 'dog')])
"""

from .model import Explanation, explain_entries, explain_pair, hc_label
from . import html  # noqa: F401  (gives Explanation its notebook display, _repr_html_)

__all__ = ["Explanation", "explain_pair", "explain_entries", "hc_label"]

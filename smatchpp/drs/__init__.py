"""Discourse Representation Structures in clausal form, and Counter's objective solved exactly.

:mod:`~smatchpp.drs.clf` reads ``.clf`` files (and the signature and WordNet map files),
:mod:`~smatchpp.drs.referee` checks well-formedness by Referee's rules,
:mod:`~smatchpp.drs.clauses` builds the clauses Counter matches, :mod:`~smatchpp.drs.exact`
finds the best mapping and certifies it.  The ``counter`` metric
(:mod:`smatchpp.metrics.counter`) puts them together.
"""

from .clauses import Clause, CounterDrs, counter_clauses
from .clf import ClfDrs, load_signature, load_wordnet_map, read_clf, read_clf_text
from .exact import CounterSolve, count_matched, solve
from .referee import IllFormed, check

__all__ = ["Clause", "CounterDrs", "counter_clauses", "ClfDrs", "load_signature", "load_wordnet_map",
           "read_clf", "read_clf_text", "CounterSolve", "count_matched", "solve", "IllFormed", "check"]

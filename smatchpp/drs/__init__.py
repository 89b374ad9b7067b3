"""Discourse Representation Structures in clausal form, and Counter's objective solved exactly.

:mod:`~smatchpp.drs.clf` reads ``.clf`` files (and the signature and WordNet map files),
:mod:`~smatchpp.drs.referee` checks well-formedness by Referee's rules,
:mod:`~smatchpp.drs.clauses` builds the clauses Counter matches.  The ``counter`` metric
(:mod:`smatchpp.metrics.counter`) puts them together and solves each pair through the shared
problem (:func:`smatchpp.alignment.clauses.compile_clauses` and the registered solvers).
:mod:`~smatchpp.drs.exact` counts the clauses a mapping matches (``count_matched``,
``matched_clauses``: Counter's ``-prin`` division) and keeps a MIP of its own (``solve``) as
a cross-check only (tests, ``experiments/check_counter_ternary.py``).
"""

from .clauses import Clause, CounterDrs, counter_clauses
from .clf import ClfDrs, load_signature, load_wordnet_map, read_clf, read_clf_text
from .exact import CounterSolve, count_matched, solve
from .referee import IllFormed, check

__all__ = ["Clause", "CounterDrs", "counter_clauses", "ClfDrs", "load_signature", "load_wordnet_map",
           "read_clf", "read_clf_text", "CounterSolve", "count_matched", "solve", "IllFormed", "check"]

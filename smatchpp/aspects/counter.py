"""Counter's detailed scores as an aspect set (``score --metric counter --aspects counter``).

Counter (``RikVN/DRS_parsing``, ``evaluation/counter.py``) prints with ``-prin`` the precision,
recall and F-score of eight kinds of clauses: the three families it builds the clauses in
(operators, roles, concepts) and the concepts divided by the part of speech of their WordNet
sense (nouns, verbs, adjectives, adverbs) and the events (verbs and adjectives).  Each is
counted on the pair's one mapping, Counter's best and here the certified optimum, as the
``joint`` mode counts an AMR aspect set under the full graphs' alignment: a kind's matched
clauses are the clauses of that kind the mapping matches.  The counting is the ``counter``
metric's (:func:`smatchpp.drs.exact.detailed_counts`); this module is the set's entry in the
registry (its names, titles and what each counts), which scores DRSs, not AMR graphs: the
alignment family refuses it (:data:`smatchpp.core.aspect_settings.ASPECT_SET_MODULES`).

A kind with no clause on either side is n/a (``null``), where Counter prints 0.

>>> [a.title for a in ASPECT_SET.build(None, None)][:4]
['Operators', 'Roles', 'Concepts', 'Nouns']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Aspect, AspectSet

__all__ = ["NAMES", "ClauseKind", "ASPECT_SET"]

#: Counter's eight kinds, in its order (``smatchpp.drs.clauses.DETAIL_NAMES``)
NAMES = ("operators", "roles", "concepts", "nouns", "verbs", "adjectives", "adverbs", "events")

_WHAT = {"operators": "clauses whose operator is in capitals (REF, NOT, EQU, ...; SY1, SY2 from Counter 2021)",
         "roles": "clauses whose operator is a role (Agent, Theme, ...; RoleOf inverted)",
         "concepts": "concept clauses (b dog \"n.01\" x)",
         "nouns": "concepts with a noun sense (n)",
         "verbs": "concepts with a verb sense (v)",
         "adjectives": "concepts with an adjective sense (a, s)",
         "adverbs": "concepts with an adverb sense (r)",
         "events": "concepts with a verb or adjective sense"}


@dataclass(frozen=True)
class ClauseKind(Aspect):
    """One of Counter's eight kinds of clauses, counted under the pair's mapping."""

    name: str
    title: str
    what: str
    vacuous: float | None = None
    #: counted on the mapping of the pair's clauses (the counter metric's), never aligned on its own
    aligned: ClassVar[bool] = True


ASPECT_SET = AspectSet(NAMES, lambda frames, vectors: [ClauseKind(n, n.capitalize(), _WHAT[n]) for n in NAMES],
                       title="Counter's detailed scores of DRS clauses (operators, roles, concepts by part of speech)")

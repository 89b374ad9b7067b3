"""Which triples match under a given alignment (multiset-wise, as Smatch counts them).

The solvers return an alignment (``alignment[i]`` is the B variable aligned to
A variable ``i``, or -1); this module says *which* triples it matches.  A
triple of A matches a triple of B when its variables are aligned to the B
triple's variables and the labels are equal.  A triple that A holds ``c_A``
times and whose image B holds ``c_B`` times matches ``min(c_A, c_B)`` times,
exactly as :func:`smatchpp.alignment.compile.compile_pair` counts, so
:func:`count_matched` equals :meth:`smatchpp.alignment.problem.Problem.objective` for
the same alignment.

Triples are keyed over variable indices:
``("instance", i, concept)``, ``("attribute", i, role, value)``,
``("relation", i, role, k)`` and ``("free", source, role, target)`` (the
latter only from the lossy ``smatchpp`` rewrite).

>>> from smatchpp.api import parse_graph
>>> a = parse_graph("(x / dog :ARG0-of (y / bark-01))")
>>> b = parse_graph("(u / bark-01 :ARG0 (v / dog))")
>>> m = matched_triples(a, b, [1, 0])        # x -> v, y -> u
>>> sorted(m)
[('instance', 0, 'dog'), ('instance', 1, 'bark-01'), ('relation', 1, 'arg0', 0)]
>>> count_matched(a, b, [1, 0]), count_matched(a, b, [0, 1])  # the second matches only TOP
(3, 1)

The explain views need each occurrence: :func:`triple_match` pairs the
triples of A with those of B one by one (masks and partners over
``a.triples()`` and ``b.triples()``), with the same counts.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..graphs.triples import TripleGraph

__all__ = ["triple_keys", "matched_triples", "count_matched", "invert_alignment",
           "ordered_keys", "TripleMatch", "triple_match"]


def triple_keys(g: TripleGraph) -> Counter:
    """Every triple of ``g`` as a key over variable indices, with its multiplicity."""
    keys: Counter = Counter(("instance", i, c) for i, c in enumerate(g.concepts))
    keys.update(("attribute", i, r, v) for i, r, v in g.attributes)
    keys.update(("relation", i, r, k) for i, r, k in g.relations)
    keys.update(("free",) + tuple(t) for t in g.free)
    return keys


def _image(key: tuple, alignment: Sequence[int]) -> tuple | None:
    """``key`` with A's variables replaced by their B partners (``None`` if one is unaligned)."""
    kind = key[0]
    if kind == "free":
        return key
    j = alignment[key[1]] if key[1] < len(alignment) else -1
    if j < 0:
        return None
    if kind == "relation":
        l = alignment[key[3]] if key[3] < len(alignment) else -1
        return None if l < 0 else ("relation", j, key[2], l)
    return (kind, j) + key[2:]


def matched_triples(a: TripleGraph, b: TripleGraph, alignment: Sequence[int] | np.ndarray) -> Counter:
    """The triples of ``a`` (keys over A's variables) that match ``b`` under ``alignment``.

    Each key's count is ``min(count in A, count of its image in B)``.  The
    alignment must be injective on its non-negative entries (every solver's is).
    """
    alignment = [int(x) for x in np.asarray(alignment).tolist()]
    keys_b = triple_keys(b)
    out: Counter = Counter()
    for key, count in triple_keys(a).items():
        image = _image(key, alignment)
        if image is not None and keys_b[image] > 0:
            out[key] = min(count, keys_b[image])
    return out


def count_matched(a: TripleGraph, b: TripleGraph, alignment: Sequence[int] | np.ndarray) -> int:
    """How many triples ``alignment`` matches (Smatch's ``matched`` for that alignment)."""
    return sum(matched_triples(a, b, alignment).values())


def invert_alignment(alignment: Sequence[int] | np.ndarray, n_b: int) -> np.ndarray:
    """The B-to-A view of an A-to-B alignment: ``out[j]`` is the A partner of ``j`` or -1.

    >>> invert_alignment([2, -1, 0], 3).tolist()
    [2, -1, 0]
    """
    out = np.full(n_b, -1, dtype=np.int64)
    for i, j in enumerate(np.asarray(alignment).tolist()):
        if j >= 0:
            out[j] = i
    return out


# -- per-triple view (the explain views): which occurrence of A matches which of B -------------


def ordered_keys(g: TripleGraph) -> list[tuple]:
    """Every triple of ``g`` as a key, one per occurrence, in ``g.triples()`` order.

    >>> from smatchpp.api import parse_graph
    >>> ordered_keys(parse_graph("(a / dog :ARG0 (b / cat))"))
    [('instance', 0, 'dog'), ('instance', 1, 'cat'), ('attribute', 0, 'top', 'top'), ('relation', 0, 'arg0', 1)]
    """
    out: list[tuple] = [("instance", i, c) for i, c in enumerate(g.concepts)]
    out += [("attribute", i, r, v) for i, r, v in g.attributes]
    out += [("relation", i, r, k) for i, r, k in g.relations]
    out += [("free",) + tuple(t) for t in g.free]
    return out


@dataclass
class TripleMatch:
    """Matched masks over the triples of A and of B (see :func:`triple_match`).

    ``partner_a[t]`` is the index of the B triple that A triple ``t`` is matched
    with (``-1`` if unmatched), and ``partner_b`` the other way round.
    """

    mask_a: np.ndarray
    mask_b: np.ndarray
    partner_a: np.ndarray
    partner_b: np.ndarray

    @property
    def count(self) -> int:
        """Number of matched triples (the same on both sides)."""
        return int(self.mask_a.sum())

    def unmatched_a(self) -> list[int]:
        return np.flatnonzero(~self.mask_a).tolist()

    def unmatched_b(self) -> list[int]:
        return np.flatnonzero(~self.mask_b).tolist()


def triple_match(a: TripleGraph, b: TripleGraph, alignment: Sequence[int] | np.ndarray) -> TripleMatch:
    """:func:`matched_triples` per occurrence: which triple of A is matched with which of B.

    A key that A has ``c_A`` times and whose image B has ``c_B`` times matches
    ``min(c_A, c_B)`` times: its first occurrences on each side are paired in
    order, so ``triple_match(...).count == count_matched(...)``.

    >>> from smatchpp.api import parse_graph
    >>> a = parse_graph("(d / dog :ARG0-of (b / bark-01))")
    >>> b = parse_graph("(b / bark-01 :ARG0 (d / dog))")
    >>> m = triple_match(a, b, [1, 0])   # a's d -> b's d, a's b -> b's b
    >>> m.count, m.mask_a.tolist(), m.mask_b.tolist()
    (3, [True, True, False, True], [True, True, False, True])
    >>> [a.triples()[k] for k in m.unmatched_a()]   # the TOP triples differ
    [('d', 'top', 'top')]
    """
    alignment = [int(x) for x in np.asarray(alignment).tolist()]
    keys_a, keys_b = ordered_keys(a), ordered_keys(b)
    where_b: dict[tuple, list[int]] = defaultdict(list)
    for t, key in enumerate(keys_b):
        where_b[key].append(t)
    taken: Counter = Counter()
    partner_a = np.full(len(keys_a), -1, dtype=np.int64)
    partner_b = np.full(len(keys_b), -1, dtype=np.int64)
    for t, key in enumerate(keys_a):
        image = _image(key, alignment)
        slots = where_b.get(image) if image is not None else None
        if slots and taken[image] < len(slots):
            u = slots[taken[image]]
            taken[image] += 1
            partner_a[t] = u
            partner_b[u] = t
    return TripleMatch(partner_a >= 0, partner_b >= 0, partner_a, partner_b)

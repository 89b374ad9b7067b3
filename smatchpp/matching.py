"""Which triples match under a given alignment (multiset-wise, as Smatch counts them).

The solvers return an alignment (``alignment[i]`` is the B variable aligned to
A variable ``i``, or -1); this module says *which* triples it matches.  A
triple of A matches a triple of B when its variables are aligned to the B
triple's variables and the labels are equal.  A triple that A holds ``c_A``
times and whose image B holds ``c_B`` times matches ``min(c_A, c_B)`` times,
exactly as :func:`smatchpp.compile.compile_pair` counts, so
:func:`count_matched` equals :meth:`smatchpp.problem.Problem.objective` for
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
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from .standardize import TripleGraph

__all__ = ["triple_keys", "matched_triples", "count_matched", "invert_alignment"]


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

"""The compiled problem: the one contract between compiler, compression and solvers.

A :class:`Problem` is a quadratic assignment over *candidate pairs* ``p =
(i, j)`` (variable ``i`` of graph A aligned to variable ``j`` of graph B)::

    maximize   sum_p unary[p] x_p  +  sum_e weight[e] x_{edge_p[e]} x_{edge_q[e]}
    subject to each variable of A and of B is used by at most one chosen pair

Unary terms are instance and attribute matches (and self-loops), binary terms
are relation matches.  Everything is a numpy array; soft or weighted matching
only changes ``unary`` and ``weight``.

Example (A: ``x :ARG0 y``, B: ``u :ARG0 v``; one binary term):

>>> import numpy as np
>>> p = Problem(2, 2, np.array([0, 1]), np.array([0, 1]), np.array([1.0, 1.0]),
...             np.array([0]), np.array([1]), np.array([1.0]))
>>> p.objective(np.array([0, 1]))
3.0
>>> p.objective(np.array([0, -1]))
1.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..core.settings import Settings, open_unit, setting

__all__ = ["Problem", "Alignment", "CERTIFY_TOLERANCE", "Certification"]

#: A problem with a non-integer coefficient (soft or fractionally weighted
#: matching) is certified when ``upper - lower`` is below this gap (an absolute
#: tolerance on the matched weight).  Integral problems need no tolerance: a
#: gap below 1 proves optimality there.  ``Config.tolerance`` overrides it.
CERTIFY_TOLERANCE = 1e-6


@dataclass(frozen=True)
class Certification(Settings):
    """When a pair with non-integer coefficients is certified: its gap is below ``tolerance``."""

    tolerance: float = setting(CERTIFY_TOLERANCE, "tol", check=open_unit)

#: ``alignment[i]`` is the B variable aligned to A variable ``i``, or -1.
Alignment = np.ndarray


@dataclass(eq=False)
class Problem:
    """Candidate pairs with unary and binary coefficients (see module doc).

    Invariants: pairs are distinct; ``edge_p < edge_q``; the two pairs of an
    edge share no variable; coefficients are non-negative.
    """

    n_a: int
    n_b: int
    pair_a: np.ndarray
    pair_b: np.ndarray
    unary: np.ndarray
    edge_p: np.ndarray
    edge_q: np.ndarray
    weight: np.ndarray
    #: matches that need no variable (e.g. between two empty graphs); usually 0
    constant: float = 0.0
    #: an upper bound known from the labels alone (the matcher's label-count bound)
    label_bound: float = math.inf
    #: sentence of each A / B variable in document graphs (``-1``: none), else ``None``;
    #: a hint for starting solutions only (:mod:`smatchpp.alignment.sentences`), never a constraint
    sentence_a: np.ndarray | None = None
    sentence_b: np.ndarray | None = None
    #: the gap that certifies a non-integral objective (see :data:`CERTIFY_TOLERANCE`)
    tolerance: float = CERTIFY_TOLERANCE

    def __post_init__(self) -> None:
        # contiguous: the compiled kernels (smatchpp.alignment.jit) take C arrays of these dtypes
        self.pair_a = np.ascontiguousarray(self.pair_a, dtype=np.int64)
        self.pair_b = np.ascontiguousarray(self.pair_b, dtype=np.int64)
        self.unary = np.ascontiguousarray(self.unary, dtype=np.float64)
        self.edge_p = np.ascontiguousarray(self.edge_p, dtype=np.int64)
        self.edge_q = np.ascontiguousarray(self.edge_q, dtype=np.int64)
        self.weight = np.ascontiguousarray(self.weight, dtype=np.float64)

    @property
    def n_pairs(self) -> int:
        return len(self.pair_a)

    @property
    def n_edges(self) -> int:
        return len(self.edge_p)

    @cached_property
    def integral(self) -> bool:
        """True if every coefficient is an integer (exact Smatch): gaps < 1 prove optimality."""
        return bool(np.all(self.unary == np.round(self.unary))
                    and np.all(self.weight == np.round(self.weight))
                    and float(self.constant).is_integer())

    @property
    def certified_within(self) -> float:
        """The gap a certificate of this problem tolerates: 0 if integral, else :attr:`tolerance`."""
        return 0.0 if self.integral else self.tolerance

    @cached_property
    def neighbours(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """CSR adjacency of the pair graph: ``(start, other, weight)``.

        The neighbours of pair ``p`` are ``other[start[p]:start[p+1]]`` with the
        binary weights ``weight[start[p]:start[p+1]]``; every edge appears twice.
        """
        src = np.concatenate([self.edge_p, self.edge_q])
        dst = np.concatenate([self.edge_q, self.edge_p])
        w = np.concatenate([self.weight, self.weight])
        order = np.argsort(src, kind="stable")
        start = np.zeros(self.n_pairs + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=self.n_pairs), out=start[1:])
        return start, dst[order], w[order]

    def selected(self, alignment: Alignment) -> np.ndarray:
        """Boolean mask of the candidate pairs used by ``alignment``."""
        alignment = np.asarray(alignment)
        if len(alignment) == 0:
            return np.zeros(self.n_pairs, dtype=bool)
        return alignment[self.pair_a] == self.pair_b

    def objective(self, alignment: Alignment) -> float:
        """Value of an alignment (pairs that are not candidates contribute 0)."""
        x = self.selected(alignment)
        both = x[self.edge_p] & x[self.edge_q]
        return float(self.constant + self.unary[x].sum() + self.weight[both].sum())

    def alignment_from_pairs(self, chosen: np.ndarray) -> Alignment:
        """Turn a 0/1 (or boolean) vector over pairs into an alignment array."""
        alignment = np.full(self.n_a, -1, dtype=np.int64)
        chosen = np.flatnonzero(np.asarray(chosen) > 0.5)
        alignment[self.pair_a[chosen]] = self.pair_b[chosen]
        return alignment

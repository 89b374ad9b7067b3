"""The compiled problem: the one contract between compiler, compression and solvers.

A :class:`Problem` is a quadratic assignment over *candidate pairs* ``p =
(i, j)`` (variable ``i`` of graph A aligned to variable ``j`` of graph B)::

    maximize   sum_p unary[p] x_p  +  sum_e weight[e] x_{edge_p[e]} x_{edge_q[e]}
               +  sum_t tri_weight[t] x_{tri_p[t]} x_{tri_q[t]} x_{tri_r[t]}
    subject to each variable of A and of B is used by at most one chosen pair

Unary terms are instance and attribute matches (and self-loops), binary terms
are relation matches.  Everything is a numpy array; soft or weighted matching
only changes ``unary`` and ``weight``.

*Ternary terms* pay when three pairs are chosen together: a DRS clause such as
``b2 Theme e1 x1`` matches ``b5 Theme e3 x4`` exactly when ``(b2, b5)``,
``(e1, e3)`` and ``(x1, x4)`` are all chosen.  AMR never has them (the arrays are
empty and every solver takes its old path); :meth:`Problem.from_terms` builds a
problem with them from terms over variables, and
:func:`smatchpp.alignment.clauses.compile_clauses` from clauses.

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

_NO_INT = np.zeros(0, dtype=np.int64)
_NO_FLOAT = np.zeros(0, dtype=np.float64)

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
    """Candidate pairs with unary, binary and ternary coefficients (see module doc).

    Invariants: pairs are distinct; ``edge_p < edge_q``; the two pairs of an
    edge share no variable; ``tri_p < tri_q < tri_r``; the three pairs of a
    ternary term share no variable; no two binary (ternary) terms have the same
    pairs; coefficients are non-negative.  :meth:`from_terms` establishes them
    from terms over variables.
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
    #: ternary terms: ``tri_weight[t]`` is earned when the pairs ``tri_p[t] < tri_q[t] <
    #: tri_r[t]`` are all chosen (``None``: none, as in every AMR problem)
    tri_p: np.ndarray | None = None
    tri_q: np.ndarray | None = None
    tri_r: np.ndarray | None = None
    tri_weight: np.ndarray | None = None

    def __post_init__(self) -> None:
        # contiguous: the compiled kernels (smatchpp.alignment.jit) take C arrays of these dtypes
        self.pair_a = np.ascontiguousarray(self.pair_a, dtype=np.int64)
        self.pair_b = np.ascontiguousarray(self.pair_b, dtype=np.int64)
        self.unary = np.ascontiguousarray(self.unary, dtype=np.float64)
        self.edge_p = np.ascontiguousarray(self.edge_p, dtype=np.int64)
        self.edge_q = np.ascontiguousarray(self.edge_q, dtype=np.int64)
        self.weight = np.ascontiguousarray(self.weight, dtype=np.float64)
        given = [t is not None for t in (self.tri_p, self.tri_q, self.tri_r, self.tri_weight)]
        if any(given) and not all(given):
            raise ValueError("ternary terms need all of tri_p, tri_q, tri_r and tri_weight")
        self.tri_p = _NO_INT if self.tri_p is None else np.ascontiguousarray(self.tri_p, dtype=np.int64)
        self.tri_q = _NO_INT if self.tri_q is None else np.ascontiguousarray(self.tri_q, dtype=np.int64)
        self.tri_r = _NO_INT if self.tri_r is None else np.ascontiguousarray(self.tri_r, dtype=np.int64)
        self.tri_weight = (_NO_FLOAT if self.tri_weight is None
                           else np.ascontiguousarray(self.tri_weight, dtype=np.float64))
        if not len(self.tri_p) == len(self.tri_q) == len(self.tri_r) == len(self.tri_weight):
            raise ValueError("tri_p, tri_q, tri_r and tri_weight differ in length")

    @property
    def n_pairs(self) -> int:
        return len(self.pair_a)

    @property
    def n_edges(self) -> int:
        return len(self.edge_p)

    @property
    def n_ternary(self) -> int:
        """How many ternary terms (0 for every AMR problem)."""
        return len(self.tri_p)

    @cached_property
    def integral(self) -> bool:
        """True if every coefficient is an integer (exact Smatch): gaps < 1 prove optimality."""
        return bool(np.all(self.unary == np.round(self.unary))
                    and np.all(self.weight == np.round(self.weight))
                    and np.all(self.tri_weight == np.round(self.tri_weight))
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
        Binary terms only (ternary terms: :attr:`ternary_incidence`).
        """
        src = np.concatenate([self.edge_p, self.edge_q])
        dst = np.concatenate([self.edge_q, self.edge_p])
        w = np.concatenate([self.weight, self.weight])
        order = np.argsort(src, kind="stable")
        start = np.zeros(self.n_pairs + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=self.n_pairs), out=start[1:])
        return start, dst[order], w[order]

    @cached_property
    def ternary_incidence(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """CSR incidence of the ternary terms: ``(start, second, third, weight)``.

        The ternary terms of pair ``p`` are the slots ``start[p]:start[p+1]``: each
        names the term's two other pairs (``second < third``) and its weight;
        every term appears three times, once under each of its pairs.
        """
        t1, t2, t3, w = self.tri_p, self.tri_q, self.tri_r, self.tri_weight
        own = np.concatenate([t1, t2, t3])
        second = np.concatenate([t2, t1, t1])
        third = np.concatenate([t3, t3, t2])
        order = np.argsort(own, kind="stable")
        start = np.zeros(self.n_pairs + 1, dtype=np.int64)
        np.cumsum(np.bincount(own, minlength=self.n_pairs), out=start[1:])
        return start, second[order], third[order], np.concatenate([w, w, w])[order]

    def binary_relaxation(self) -> "Problem":
        """A problem without ternary terms whose value bounds this one's on every alignment.

        Each ternary term ``w x_p x_q x_r`` becomes three binary terms of ``w / 3``
        (``p-q``, ``p-r``, ``q-r``; merged with the binary terms already there).
        Why every upper bound of the result bounds this problem: for 0/1 values
        ``x_p x_q x_r <= (x_p x_q + x_p x_r + x_q x_r) / 3`` (all three chosen:
        ``1 <= 1``; otherwise the left side is 0 and the right side is not
        negative), and ``w >= 0``; so every alignment is worth at least as much in
        the result, and the result's optimum (hence any upper bound on it) is at
        least this problem's optimum.  The two agree on every alignment that never
        chooses exactly two pairs of a ternary term (a self-match, for one).
        Without ternary terms the problem itself is returned.

        >>> p = Problem.from_terms(3, 3, ternary=([0], [0], [1], [1], [2], [2], [3.0]))
        >>> r = p.binary_relaxation()
        >>> r.n_ternary, r.n_edges, r.weight.tolist(), r.objective(np.array([0, 1, 2]))
        (0, 3, [1.0, 1.0, 1.0], 3.0)
        >>> p.objective(np.array([0, 1, -1])), r.objective(np.array([0, 1, -1]))
        (0.0, 1.0)
        """
        if not self.n_ternary:
            return self
        third = self.tri_weight / 3.0
        p = np.concatenate([self.edge_p, self.tri_p, self.tri_p, self.tri_q])
        q = np.concatenate([self.edge_q, self.tri_q, self.tri_r, self.tri_r])
        w = np.concatenate([self.weight, third, third, third])
        n = max(self.n_pairs, 1)
        keys, inverse = np.unique(p * n + q, return_inverse=True)
        weight = np.bincount(inverse.ravel(), weights=w, minlength=len(keys))
        return Problem(self.n_a, self.n_b, self.pair_a, self.pair_b, self.unary, keys // n,
                       keys % n, weight, constant=self.constant, label_bound=self.label_bound,
                       sentence_a=self.sentence_a, sentence_b=self.sentence_b,
                       tolerance=self.tolerance)

    def ternary_values(self, chosen: np.ndarray) -> np.ndarray:
        """Per ternary term: its weight if its three pairs are ``chosen`` (a mask), else 0."""
        both = chosen[self.tri_p] & chosen[self.tri_q] & chosen[self.tri_r]
        return np.where(both, self.tri_weight, 0.0)

    @classmethod
    def from_terms(cls, n_a: int, n_b: int, unary=None, binary=None, ternary=None,
                   constant: float = 0.0, label_bound: float = math.inf,
                   tolerance: float = CERTIFY_TOLERANCE) -> "Problem":
        """A problem from terms over *variables*: the public way to build one with ternary terms.

        * ``unary``: arrays ``(i, j, w)``: ``w`` is earned when A variable ``i`` is
          aligned to B variable ``j``;
        * ``binary``: arrays ``(i1, j1, i2, j2, w)``: earned when ``i1 -> j1`` and
          ``i2 -> j2``;
        * ``ternary``: arrays ``(i1, j1, i2, j2, i3, j3, w)``: earned when all
          three of ``i1 -> j1``, ``i2 -> j2``, ``i3 -> j3`` hold.

        Weights must be non-negative (zeros are dropped).  Terms of the same
        pairs are summed.  A term whose pairs repeat a variable is rewritten on
        its distinct pairs (``i1 == i2`` and ``j1 == j2``: the pair counts once,
        so a ternary term can become binary or unary), and a term that no
        injective alignment can earn (``i1 == i2`` but ``j1 != j2``, or the
        other way round) is dropped.  The candidate pairs are the pairs of the
        terms kept.  So a triple that occurs ``c_A`` times in A and ``c_B``
        times in B is matched at most ``min(c_A, c_B)`` times when the caller
        gives the term weight ``min(c_A, c_B)``, as the compiler does for
        relations (:func:`smatchpp.alignment.clauses.compile_clauses` does it for clauses).
        ``label_bound`` must be a valid upper bound on the optimum (without
        ``constant``; it is added), or ``inf``.

        >>> p = Problem.from_terms(2, 2, unary=([0], [0], [1.0]),
        ...                        ternary=([0, 0], [0, 0], [1, 1], [1, 1], [0, 1], [0, 0], [1.0, 5.0]))
        >>> p.n_pairs, p.n_edges, p.n_ternary  # the first term has pair (0, 0) twice: binary
        (2, 1, 0)
        >>> p.objective(np.array([0, 1]))  # (1, 1) and (1, 0) of the second term clash: dropped
        2.0
        >>> q = Problem.from_terms(3, 3, ternary=([0], [0], [1], [1], [2], [2], [1.0]))
        >>> q.n_ternary, q.objective(np.array([0, 1, 2])), q.objective(np.array([0, 1, -1]))
        (1, 1.0, 0.0)
        """
        ends: list[tuple[np.ndarray, np.ndarray]] = []  # (A vars, B vars) of every term's slots
        weights: list[np.ndarray] = []
        for terms, arity in ((unary, 1), (binary, 2), (ternary, 3)):
            if terms is None:
                continue
            arrays = [np.asarray(t) for t in terms]
            if len(arrays) != 2 * arity + 1 or len({len(a) for a in arrays}) > 1:
                raise ValueError(f"terms of arity {arity} need {2 * arity + 1} arrays of one length")
            cols = [np.asarray(a, dtype=np.int64) for a in arrays[:-1]]
            w = np.asarray(arrays[-1], dtype=np.float64)
            if np.any(w < 0) or not np.all(np.isfinite(w)):
                raise ValueError("term weights must be finite and non-negative")
            for k, col in enumerate(cols):
                bound = n_a if k % 2 == 0 else n_b
                if len(col) and (col.min() < 0 or col.max() >= bound):
                    raise ValueError(f"a term names a variable outside 0..{bound - 1}")
            # missing slots repeat the first pair, which then counts once
            ends.append((np.stack(cols[0::2] + [cols[0]] * (3 - arity), axis=1),
                         np.stack(cols[1::2] + [cols[1]] * (3 - arity), axis=1)))
            weights.append(w)
        if ends:
            va = np.concatenate([e[0] for e in ends]).reshape(-1, 3)
            vb = np.concatenate([e[1] for e in ends]).reshape(-1, 3)
            w = np.concatenate(weights)
        else:
            va = vb = np.zeros((0, 3), dtype=np.int64)
            w = np.zeros(0)
        nb = max(n_b, 1)
        key = va * nb + vb  # pair key of each slot
        # a term is consistent when equal A variables come with equal B variables and back
        ok = w > 0
        for s, t in ((0, 1), (0, 2), (1, 2)):
            ok &= (va[:, s] == va[:, t]) == (vb[:, s] == vb[:, t])
        key, w = np.sort(key[ok], axis=1), w[ok]
        # distinct pairs of each term, in increasing key order (repeats become -1)
        distinct = key.copy()
        distinct[:, 1] = np.where(key[:, 1] == key[:, 0], -1, key[:, 1])
        distinct[:, 2] = np.where(key[:, 2] == key[:, 1], -1, key[:, 2])
        keys = np.unique(key)
        index = np.searchsorted(keys, key)
        width = np.int64(max(len(keys), 1))
        arity = 1 + (distinct[:, 1] >= 0) + (distinct[:, 2] >= 0)
        # the distinct pair indices of a term, smallest first
        first = index[:, 0]
        rest = [np.where(distinct[:, c] >= 0, index[:, c], -1) for c in (1, 2)]
        second = np.where(rest[0] >= 0, rest[0], rest[1])
        third = np.where(rest[0] >= 0, rest[1], -1)
        unary_w = np.bincount(first[arity == 1], weights=w[arity == 1], minlength=len(keys))
        two = arity == 2
        ekeys, einv = np.unique(first[two] * width + second[two], return_inverse=True)
        ew = np.bincount(einv.ravel(), weights=w[two], minlength=len(ekeys))
        three = arity == 3
        tkeys, tinv = np.unique((first[three] * width + second[three]) * width + third[three],
                                return_inverse=True)
        tw = np.bincount(tinv.ravel(), weights=w[three], minlength=len(tkeys))
        return cls(n_a, n_b, keys // nb, keys % nb, unary_w.astype(np.float64), ekeys // width,
                   ekeys % width, ew.astype(np.float64), constant=float(constant),
                   label_bound=float(label_bound) + float(constant), tolerance=tolerance,
                   tri_p=tkeys // (width * width), tri_q=(tkeys // width) % width,
                   tri_r=tkeys % width, tri_weight=tw.astype(np.float64))

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
        value = self.constant + self.unary[x].sum() + self.weight[both].sum()
        if self.n_ternary:
            value += self.ternary_values(x).sum()
        return float(value)

    def alignment_from_pairs(self, chosen: np.ndarray) -> Alignment:
        """Turn a 0/1 (or boolean) vector over pairs into an alignment array."""
        alignment = np.full(self.n_a, -1, dtype=np.int64)
        chosen = np.flatnonzero(np.asarray(chosen) > 0.5)
        alignment[self.pair_a[chosen]] = self.pair_b[chosen]
        return alignment

"""Cutting planes for the linearised binary terms: a matched term blocks a third variable.

In the MIP of :mod:`.formulation`, a binary term ``y_e`` (``e = (p, q)``, ``p = (i, j)``,
``q = (k, l)``: A variables ``i, k``, B variables ``j, l``, all distinct) is bounded by
``x_p`` and ``x_q`` through the linking rows, and the assignment rows keep every variable
in one chosen pair.  Neither sees that choosing *both* ``p`` and ``q`` takes ``j`` and
``l`` at once.  For every A variable ``m`` other than ``i`` and ``k``:

    y_e + x_(m, j) + x_(m, l) <= 1                                  (A side)

and for every B variable ``n`` other than ``j`` and ``l``:

    y_e + x_(i, n) + x_(k, n) <= 1                                  (B side)

Valid for every alignment (``x`` integral, ``y_e = x_p x_q``): if ``p`` and ``q`` are both
chosen, ``j`` and ``l`` (``i`` and ``k``) are taken and the two ``x`` are 0; otherwise
``y_e = 0`` and the two ``x`` share the variable ``m`` (``n``), so at most one is 1.
(With ``m = k`` the pair ``(k, l)`` is ``q`` itself and the row would be false: ``m``
must differ from both.)  The LP does not imply them: half of each of the two
alignments of a 6-cycle ``i - j - m - l - k - n - i`` satisfies every row and puts 1.5
on the left.  On lp-doc100's first pair (docs/benchmarks.md section 19.3) 21 such rows
took the LP of the last elimination step from 1595 to 1593.39 (its optimum 1593).

A row is added only where the LP solution violates it, so every pair in it has a positive
value there (``y_e <= x_p`` and ``x_p + x_(m, j) <= 1`` make ``y_e + x_(m, j) <= 1``): cuts
separated on a restricted LP (:mod:`.pricing`) touch only its pairs.

>>> from smatchpp.alignment.problem import Problem
>>> # A: i=0, k=1, m=2; B: j=0, l=1, n=2.  Pairs: p=(0,0), q=(1,1), (2,0), (2,1)
>>> pr = Problem(3, 3, np.array([0, 1, 2, 2]), np.array([0, 1, 0, 1]), np.zeros(4),
...              np.array([0]), np.array([1]), np.array([1.0]))
>>> half = np.array([0.5, 0.5, 0.5, 0.5, 0.5])  # x of the four pairs, then y_e
>>> separate(pr, half).tolist()  # y_0 + x_2 + x_3 <= 1 is violated (1.5)
[[0, 2, 3]]
"""

from __future__ import annotations

import numpy as np

from ..problem import Problem

__all__ = ["separate", "cut_rows", "CUT_TOLERANCE"]

#: a row enters when the LP solution violates it by more than this
CUT_TOLERANCE = 1e-6


def separate(problem: Problem, values: np.ndarray, tol: float = CUT_TOLERANCE) -> np.ndarray:
    """The rows of the module docstring that ``values`` violates, as ``(edge, r1, r2)`` rows.

    ``values``: an LP solution of ``problem`` (``x`` of the pairs, then ``y`` of the
    binary terms; columns after those are ignored).  Each row of the answer stands
    for ``y_edge + x_r1 + x_r2 <= 1`` (``r1 < r2``), sorted and without repeats.
    """
    P = problem.n_pairs
    x, y = values[:P], values[P: P + problem.n_edges]
    e = np.flatnonzero(y > tol)
    if not len(e):
        return np.zeros((0, 3), dtype=np.int64)
    pa, pb = problem.pair_a, problem.pair_b
    width = max(problem.n_a, problem.n_b) + 1
    pair_key = pa * width + pb
    order = np.argsort(pair_key, kind="stable")
    sorted_key = pair_key[order]
    positive = np.flatnonzero(x > tol)
    p, q = problem.edge_p[e], problem.edge_q[e]
    found = []
    # A side: r1 = (m, j) with x > 0 found through j = b(p); r2 = (m, l), l = b(q).
    # B side: r1 = (i, n) with x > 0 found through i = a(p); r2 = (k, n), k = a(q).
    # (Through p's variable only: a violated row has x_r1 > 0 and x_r2 > 0 both.)
    for shared, other_var, a_side in ((pb, pa, True), (pa, pb, False)):
        by_var = positive[np.argsort(shared[positive], kind="stable")]
        var_sorted = shared[by_var]
        lo = np.searchsorted(var_sorted, shared[p], side="left")
        hi = np.searchsorted(var_sorted, shared[p], side="right")
        count = hi - lo
        edge = np.repeat(np.arange(len(e)), count)
        r1 = by_var[np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
                    + np.repeat(lo, count)]
        m = other_var[r1]  # the third variable, on the side the two pairs share
        ok = (m != other_var[p[edge]]) & (m != other_var[q[edge]])
        edge, r1, m = edge[ok], r1[ok], m[ok]
        # r2 = (m, l) on the A side, (k, n) on the B side
        key = (m * width + pb[q[edge]]) if a_side else (pa[q[edge]] * width + m)
        pos = np.minimum(np.searchsorted(sorted_key, key), len(sorted_key) - 1)
        exists = sorted_key[pos] == key
        edge, r1, r2 = edge[exists], r1[exists], order[pos[exists]]
        violated = y[e[edge]] + x[r1] + x[r2] > 1.0 + tol
        found.append(np.stack([e[edge[violated]], np.minimum(r1, r2)[violated],
                               np.maximum(r1, r2)[violated]], axis=1))
    rows = np.concatenate(found)
    return np.unique(rows, axis=0) if len(rows) else rows.reshape(0, 3)


def cut_rows(n_pairs: int, cuts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR arrays (start, column, value) of ``cuts`` as ``<= 1`` rows of the MIP's columns.

    ``cuts``: ``(edge, r1, r2)`` rows in ``problem``'s numbering (``n_pairs`` of it):
    the column of ``y_edge`` is ``n_pairs + edge``.
    """
    cuts = np.asarray(cuts, dtype=np.int64).reshape(-1, 3)
    cols = np.stack([n_pairs + cuts[:, 0], cuts[:, 1], cuts[:, 2]], axis=1).ravel()
    start = np.arange(0, 3 * len(cuts) + 1, 3, dtype=np.int64)
    return start, cols, np.ones(len(cols))

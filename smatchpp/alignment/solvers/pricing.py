"""The LP bound of a big problem from the LP of a few of its pairs (column generation).

The LP relaxation of a document pair has hundreds of thousands of pairs, and
most of them are zero in its solution.  :func:`priced_lp` solves the LP of a
*restricted* problem (a subset ``S`` of the pairs and the binary terms among
them), extends its row duals to a dual solution of the *whole* LP, and adds
to ``S`` the pairs whose reduced cost under those duals is positive, until
none is left (then the restricted LP's value is the whole LP's value) or the
limits expire.  Every round's bound is valid on its own.

Validity.  The whole LP (:mod:`.formulation`, aggregated linking) is
``max c.x`` over ``A x <= b, 0 <= x <= 1``; for *any* row duals ``pi >= 0``,
``b.pi + sum_j max(c_j - A_j.pi, 0)`` bounds it (weak duality with the column
bounds), and every solution that uses pair ``p`` is worth at most that bound
plus ``min(reduced_p, 0)`` (the term of ``x_p`` is then ``reduced_p``, not
``max(reduced_p, 0)``).  The duals of the whole LP are built from the
restricted LP's (clipped, checked) duals:

* assignment rows and the linking rows of pairs in ``S`` keep their restricted
  duals (``0`` for rows the restricted LP does not have); a pair in ``S`` has
  the same reduced cost as in the restricted LP, since its other rows get ``0``;
* a binary term inside ``S`` is a column of the restricted LP: its reduced
  cost is counted in the restricted bound;
* a binary term ``y_e`` with an endpoint outside ``S`` has a residual
  ``r_e = w_e - (duals of its rows owned by pairs in S)``; where it is
  positive, the rows of its endpoints outside ``S`` cover it (the whole of it
  for one such endpoint, half each for two).  A pair ``q`` outside ``S``
  covers its shares with its A-side rows or with its B-side rows (``y_e`` is
  in one of each), whichever sum is smaller: the row towards variable ``k``
  gets the largest share of the terms in it.  Every such ``y_e`` then has
  reduced cost ``<= 0``, and ``x_q`` (coefficient ``-1`` in its own linking
  rows, ``b = 0`` there) has reduced cost ``c_q - alpha_a(q) - beta_b(q) +
  cover_q``.

So the whole LP's bound is the restricted bound plus ``sum_{q not in S}
max(reduced_q, 0)``: the pairs that price out positive are the columns the
restricted LP lacks, and when there are none it is the whole LP's value.

>>> from smatchpp.api import compile_strings
>>> p = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> from smatchpp.alignment.solvers.highs import lp_bound
>>> round(priced_lp(p, p.selected(np.array([1, 0]))).bound, 6), round(lp_bound(p), 6)
(3.0, 3.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..problem import Problem
from .base import Budget, Limits, certified
from .cuts import separate
from .formulation import link_key, linking_keys
from .highs import LpSolution, solve_lp

__all__ = ["PricedLp", "priced_lp", "restrict", "entering", "PRICING_MIN_PAIRS", "PRICING_PASSES",
           "ENTER_ALL", "ENTER_MORE", "ENTER_PER_VARIABLE"]

#: problems with at least this many candidate pairs get their LP bound by pricing
PRICING_MIN_PAIRS = 30_000
#: a pair outside the restricted set enters it when its reduced cost exceeds this
PRICE_TOLERANCE = 1e-7
#: at most this many rounds
MAX_ROUNDS = 100
#: a round's entering pairs: the ones of largest reduced cost, one per variable of A and
#: one per variable of B (:func:`entering`); once at most :data:`ENTER_MORE` times
#: ``n_a + n_b`` pairs price out positive, up to this many per variable ...
ENTER_PER_VARIABLE = 3
#: ... (sooner, on a 100-sentence Bio pair, the restricted set grew to 62,893 pairs
#: instead of 17,358, and the pricing took twice the rounds)
ENTER_MORE = 2.0
#: ... and once at most this many times ``n_a + n_b`` price out positive, all of them
ENTER_ALL = 0.5
#: cut rounds stop once the last rows, priced again, lowered the restricted LP by less
#: (an interior-point solve's primal value moves by 1e-6 to 1e-5 between rounds that
#: change nothing, on lp-doc100)
CUT_PROGRESS = 1e-4
#: ``settle`` reads the restricted LP's value as its primal value plus the gap its solve
#: left to its dual bound, up to this much
SETTLE_GAP = 1e-4
#: a round's linear passes over the whole problem's pairs, outside its (small)
#: restricted LP: restricting, extending the duals, choosing the pairs that enter
PRICING_PASSES = 6


@dataclass
class PricedLp:
    """The whole problem's LP bound, reduced costs and (restricted) primal values.

    The same three fields as :class:`~.highs.LpSolution` that the portfolio uses;
    ``rounds`` restricted LPs were solved, the last on ``pairs`` pairs;
    ``exact``: in some round no pair priced out positive (that round's bound,
    and so ``bound``, is the whole LP's value up to float error).
    """

    bound: float
    reduced: np.ndarray
    x: np.ndarray
    rounds: int
    pairs: int
    exact: bool
    #: rows of :mod:`.cuts` in the LP of ``bound`` (0: the LP relaxation's own bound)
    cuts: int = 0
    #: the restricted set when pricing stopped (a start to go on from)
    restricted: np.ndarray | None = None
    #: the last round, when its restricted set is ``restricted``: what going on from here
    #: (``priced_lp(problem, this)``) takes instead of solving that restricted LP again
    last: _Round | None = None


@dataclass
class _Round:
    """One round of :func:`priced_lp`: its restricted LP and that LP's extension."""

    keep: np.ndarray
    sub: Problem
    index: np.ndarray
    edges: np.ndarray
    lp: LpSolution
    bound: float
    reduced: np.ndarray
    #: the cut rows in that LP, in the whole problem's numbers
    cuts: np.ndarray


def restrict(problem: Problem, keep: np.ndarray) -> tuple[Problem, np.ndarray]:
    """The problem on the pairs of mask ``keep`` and the binary terms among them; and their indices."""
    index = np.flatnonzero(keep)
    local = np.full(problem.n_pairs, -1, dtype=np.int64)
    local[index] = np.arange(len(index))
    alive = keep[problem.edge_p] & keep[problem.edge_q]
    sub = Problem(problem.n_a, problem.n_b, problem.pair_a[index], problem.pair_b[index],
                  problem.unary[index], local[problem.edge_p[alive]],
                  local[problem.edge_q[alive]], problem.weight[alive],
                  constant=problem.constant, tolerance=problem.tolerance)
    return sub, index


class CoverGroups:
    """The groups of :func:`extend`'s cover, sorted once per problem.

    Each binary term ``e = (p, q)`` has two entries, ``(owner p, other q)`` and ``(owner
    q, other p)``; an entry's group is its owner and the other pair's A variable (for the
    A side) or B variable (for the B side).  The entries sorted by group (stably, as
    :func:`~.bounds.group_max_sum` sorts them) and the start of each group do not change
    from round to round, only which entries count; so a round takes a segmented maximum
    in this order instead of sorting again (on lp-doc100's first pair one extension took
    0.07 s, most of it in the two sorts).
    """

    def __init__(self, problem: Problem) -> None:
        n_edges = problem.n_edges
        self.owner = np.concatenate([problem.edge_p, problem.edge_q])
        other = np.concatenate([problem.edge_q, problem.edge_p])
        self.edge = np.tile(np.arange(n_edges, dtype=np.int64), 2)
        width = max(problem.n_a, problem.n_b) + 1
        self.sides = []
        for side in (problem.pair_a, problem.pair_b):
            key = self.owner * width + side[other]
            order = np.argsort(key, kind="stable")
            key = key[order]
            starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]]) if len(key) else key
            self.sides.append((order, starts, self.owner[order[starts]]))

    def cover(self, share: np.ndarray, outside: np.ndarray, n_pairs: int) -> np.ndarray:
        """Each pair's cover: per side, the sum over its groups of the largest share of an
        entry it owns while outside; the smaller side.  ``share``: per term, ``>= 0``."""
        if not len(self.owner):
            return np.zeros(n_pairs)
        counted = np.where(outside[self.owner], share[self.edge], 0.0)
        sums = [np.bincount(group_owner, weights=np.maximum.reduceat(counted[order], starts),
                            minlength=n_pairs).astype(np.float64)
                for order, starts, group_owner in self.sides]
        return np.minimum(sums[0], sums[1])


def extend(problem: Problem, keep: np.ndarray, index: np.ndarray, sub: Problem,
           lp: LpSolution, groups: CoverGroups | None = None) -> tuple[float, np.ndarray]:
    """The whole problem's bound and reduced costs from the restricted LP's duals (module doc).

    ``groups``: :class:`CoverGroups` of ``problem`` (made here if not given).
    """
    pi = lp.row_dual
    a_vars, b_vars = np.unique(sub.pair_a), np.unique(sub.pair_b)
    alpha = np.zeros(problem.n_a)
    beta = np.zeros(problem.n_b)
    alpha[a_vars] = pi[: len(a_vars)]
    beta[b_vars] = pi[len(a_vars): len(a_vars) + len(b_vars)]
    # the restricted linking rows, keyed by the whole problem's pair numbers
    # (``index`` is increasing, so the keys stay sorted); rows after them are cuts
    # (:mod:`.cuts`), whose pairs are all in the restricted set: no column outside has them
    owner, key = linking_keys(sub)
    row_keys = np.unique(key)
    link_dual = pi[len(a_vars) + len(b_vars): len(a_vars) + len(b_vars) + len(row_keys)]
    width = max(problem.n_a, problem.n_b) + 1
    side_owner, other = np.divmod(row_keys, width)
    row_keys = link_key(problem, index[side_owner // 2], side_owner % 2, other)
    reduced = np.zeros(problem.n_pairs)
    reduced[index] = lp.reduced
    outside = ~keep
    if problem.n_edges:
        pa, pb = problem.pair_a, problem.pair_b
        ep_all, eq_all = problem.edge_p, problem.edge_q
        out_p, out_q = outside[ep_all], outside[eq_all]
        # a term's residual: its weight less the duals of its rows owned by a pair in the
        # restricted set (only a term with one endpoint inside has such rows: one inside
        # and one outside; a term with both inside is a column of the restricted LP)
        residual = problem.weight.copy()
        if len(row_keys):
            for inside, own, far in ((~out_p & out_q, ep_all, eq_all),
                                     (out_p & ~out_q, eq_all, ep_all)):
                e = np.flatnonzero(inside)
                for side, var in ((0, pa), (1, pb)):
                    k = link_key(problem, own[e], side, var[far[e]])
                    pos = np.minimum(np.searchsorted(row_keys, k), len(row_keys) - 1)
                    residual[e] -= np.where(row_keys[pos] == k, link_dual[pos], 0.0)
        # each outside endpoint covers its share (the whole residual, or half each when
        # both endpoints are outside), towards the other endpoint's variables
        share = np.where(out_p & out_q, 0.5 * residual, residual)
        share = np.where((out_p | out_q) & (residual > 0), share, 0.0)
        cover = (groups or CoverGroups(problem)).cover(share, outside, problem.n_pairs)
    else:
        cover = np.zeros(problem.n_pairs)
    out = np.flatnonzero(outside)
    reduced[out] = (problem.unary[out] - alpha[problem.pair_a[out]] - beta[problem.pair_b[out]]
                    + cover[out])
    return lp.bound + float(np.maximum(reduced[out], 0.0).sum()), reduced


def entering(problem: Problem, candidates: np.ndarray, reduced: np.ndarray) -> np.ndarray:
    """Mask of the pairs that enter: of ``candidates``, each variable's largest reduced costs.

    One pair per variable of A and one per variable of B, so a round adds at
    most ``n_a + n_b`` pairs (adding every positive pair at once brought in all
    642,182 pairs of a 70-sentence Bio document in the first round, the
    restricted duals being far from the whole LP's).  In the tail of pricing
    most of the positive pairs share a variable with another: with one pair per
    variable, lp-doc100's first pair had 220 positive pairs and 66 entering in
    round 19 of 25, each round a full interior-point solve (docs/benchmarks.md,
    19.7).  So once at most :data:`ENTER_MORE` times ``n_a + n_b`` price out
    positive, up to :data:`ENTER_PER_VARIABLE` pairs enter per variable; and once
    at most :data:`ENTER_ALL` times ``n_a + n_b``, every one of them.

    >>> from smatchpp.alignment.problem import Problem
    >>> def pairs(n):  # (0, j) for j < 4; (i, 3) for 0 < i < 4; (1, 1), (2, 2); n variables a side
    ...     none = np.zeros(0, dtype=np.int64)
    ...     return Problem(n, n, np.array([0, 0, 0, 0, 1, 2, 3, 1, 2]),
    ...                    np.array([0, 1, 2, 3, 3, 3, 3, 1, 2]), np.ones(9),
    ...                    none, none, np.zeros(0))
    >>> reduced = np.array([0.5, 0.4, 0.3, 0.2, 0.9, 0.8, 0.7, 0.95, 0.85])
    >>> every = np.ones(9, dtype=bool)
    >>> # 3 per variable: (0, 1) and (0, 2) are second at each of their variables,
    >>> # (0, 3) fourth at both
    >>> entering(pairs(4), every, reduced).astype(int).tolist()  # 9 > 0.5 * (4 + 4), <= 2 * (4 + 4)
    [1, 1, 1, 0, 1, 1, 1, 1, 1]
    >>> entering(pairs(9), every, reduced).astype(int).tolist()  # 9 <= 0.5 * (9 + 9): every one
    [1, 1, 1, 1, 1, 1, 1, 1, 1]
    """
    index = np.flatnonzero(candidates)
    enter = np.zeros(problem.n_pairs, dtype=bool)
    if len(index) <= ENTER_ALL * (problem.n_a + problem.n_b):
        enter[index] = True
        return enter
    order = index[np.argsort(-reduced[index], kind="stable")]
    crowded = len(index) <= ENTER_MORE * (problem.n_a + problem.n_b)
    per_variable = ENTER_PER_VARIABLE if crowded else 1
    for side in (problem.pair_a, problem.pair_b):
        # the candidates by variable, each variable's by decreasing reduced cost
        by_var = order[np.argsort(side[order], kind="stable")]
        var = side[by_var]
        first = np.flatnonzero(np.r_[True, var[1:] != var[:-1]])
        rank = np.arange(len(var)) - np.repeat(first, np.diff(np.r_[first, len(var)]))
        enter[by_var[rank < per_variable]] = True
    return enter


def priced_lp(problem: Problem, start: np.ndarray | PricedLp, limits: Limits | None = None,
              budget: Budget | None = None, max_rounds: int = MAX_ROUNDS,
              lower: float | None = None, settle: bool = False,
              cut_rounds: int = 0, price_out: bool = False) -> PricedLp | None:
    """The LP bound of ``problem`` by pricing from the pairs of mask ``start`` (module doc).

    Rounds run while ``limits`` hold, and stop once a bound certifies
    ``lower`` (a solution's value) if it is given; the round with the
    smallest bound is returned (``None`` if no restricted LP gave duals).
    The restricted LPs are solved for central duals (interior point, no
    crossover): on a 70-sentence Bio pair, vertex duals left 28,561 pairs
    pricing out positive after 25 rounds, central ones none after 20.

    ``settle`` (integral problems only): stop as soon as a bound, floored, is
    the floor of the restricted LP's primal value.  That value belongs to a
    solution of the whole LP (the pairs outside at zero), so no later round
    can floor lower: the rounds after it only sharpen the reduced costs.  On
    lp-doc100's first pair the floored bound 1597 was reached in round 25 of 33,
    the last 8 rounds adding 1 to 14 pairs each at 0.65 s of interior point.
    The restricted LP's value is taken as its primal value up to the gap its solve
    left to its dual bound (at most :data:`SETTLE_GAP`): an interior-point solve of
    that LP (worth 1597) returned primal values of 1596.9999963 to 1596.9999995,
    which floored to 1596, and pricing went on for two rounds after the bound had
    reached 1597.80 (1.3 s).

    ``cut_rounds``: where pricing would stop without certifying ``lower``, up to this
    many times the restricted LP's solution is cut off by the rows of :mod:`.cuts` that
    it violates, and pricing goes on with them.  Those rows are valid for every
    alignment and hold only pairs of the restricted set (which never shrinks), so the
    duals extend as before; the bound is then one of the problem, below its LP.  The cut
    rounds stop once one does not pay: when the restricted LP, once its new rows are in
    and it is priced again (up to ``done``: priced out, or settled), is worth no less
    than it was when those rows were separated.  On lp-doc100's second pair the first
    rows took the restricted LP from 1425.833 to 1424.833 and, priced again, to 1425.197;
    the next 12 rows and the pairs priced in with them gave 1425.25, and two more rounds
    of rows (14) stayed at 1425.19-1425.25 (3.6 s in all, the bound never below 1425.833).

    ``price_out``: once the cut rounds are over (or if there are none), pricing goes on
    until no pair prices out positive, whatever ``settle`` says: a settled LP's bound
    floors as low as it can, but its reduced costs are weak, and an elimination step
    that keeps pairs by them keeps many more.

    ``start``: a mask of pairs, or a priced LP to go on from: its restricted set and, if
    its last restricted LP was solved on that set (``PricedLp.last``), that LP with its
    rows, taken as this call's first round instead of being solved again (without it,
    pricing starts from the set alone, with no rows, as from a mask).
    """
    if problem.n_ternary:
        # the dual extension below covers binary terms only: the portfolio solves the
        # whole LP of a problem with ternary terms (solve_lp) instead
        raise ValueError("priced_lp takes no ternary terms: use solve_lp")
    cuts = np.zeros((0, 3), dtype=np.int64)  # (edge, r1, r2) in the whole problem's numbers
    resumed: _Round | None = None
    if isinstance(start, PricedLp):
        if start.restricted is None:
            raise ValueError("priced_lp: the priced LP to go on from has no restricted set")
        resumed = start.last
        if resumed is not None:
            cuts = resumed.cuts
        start = start.restricted
    keep = np.asarray(start, dtype=bool).copy()
    best: PricedLp | None = None
    last: _Round | None = None
    cut_value = None  # the restricted LP's value when this call last added rows
    groups = CoverGroups(problem)
    for rounds in range(1, max_rounds + 1):
        if resumed is not None:
            # the round the priced LP went on from: the same restricted LP, already solved
            last, resumed = resumed, None
        else:
            if limits is not None and not limits.affords(PRICING_PASSES * problem.n_pairs):
                break
            sub, index = restrict(problem, keep)
            edges = np.flatnonzero(keep[problem.edge_p] & keep[problem.edge_q])  # sub's, in order
            # the restricted LP leaves the time of extending its duals to the whole problem
            sub_limits = None if limits is None else limits.reserving(PRICING_PASSES * problem.n_pairs)
            lp = solve_lp(sub, time_limit=None if sub_limits is None else sub_limits.time_left(),
                          budget=budget, limits=sub_limits, central=True,
                          cuts=_localize(cuts, edges, index))
            if lp is None:
                break
            bound, reduced = extend(problem, keep, index, sub, lp, groups)
            last = _Round(keep.copy(), sub, index, edges, lp, bound, reduced, cuts)
        sub, index, edges, lp = last.sub, last.index, last.edges, last.lp
        bound, reduced = last.bound, last.reduced
        enter = entering(problem, ~keep & (reduced > PRICE_TOLERANCE), reduced)
        if best is None or bound <= best.bound:  # ties: the later round, priced further
            x = np.zeros(problem.n_pairs)
            x[index] = lp.x
            best = PricedLp(bound, reduced, x, rounds, len(index), False, len(cuts))
        # priced out: this round's bound is the whole LP's value (with its cuts), and no
        # valid bound of that LP is below it (up to the restricted LP's float error)
        best.exact = best.exact or not enter.any()
        if (limits is not None and limits.expired()) or (
                lower is not None and certified(problem, lower, _floored(problem, bound))):
            break
        done = not enter.any() or (settle and problem.integral
                                   and _floored(problem, best.bound) <= _floored(problem, _value(lp)))
        if done and cut_value is not None and lp.primal >= cut_value - CUT_PROGRESS:
            cut_rounds = 0  # the last rows, priced again, did not lower the restricted LP
        if done and cut_rounds > 0 and lp.values is not None:
            found = separate(sub, lp.values)
            found = np.stack([edges[found[:, 0]], index[found[:, 1]], index[found[:, 2]]], axis=1)
            if len(found):
                cuts = np.unique(np.concatenate([cuts, found]), axis=0)
                cut_rounds -= 1
                done, cut_value = False, lp.primal
        if done and price_out and enter.any():
            done, cut_rounds = False, 0  # no more rows: priced out for the reduced costs
        if done:
            break
        keep |= enter
    if best is not None:
        best.restricted = keep
        if last is not None and np.array_equal(last.keep, keep) and len(last.cuts) == len(cuts):
            best.last = last
    return best


def _localize(cuts: np.ndarray, edges: np.ndarray, index: np.ndarray) -> np.ndarray | None:
    """``cuts`` in the numbering of the restricted problem of pairs ``index`` and terms ``edges``
    (both increasing, both holding every pair and term of every cut)."""
    if not len(cuts):
        return None
    return np.stack([np.searchsorted(edges, cuts[:, 0]), np.searchsorted(index, cuts[:, 1]),
                     np.searchsorted(index, cuts[:, 2])], axis=1)


def _value(lp: LpSolution) -> float:
    """The restricted LP's value as ``settle`` reads it: its primal value, raised by the gap
    the solve left to its dual bound (at most :data:`SETTLE_GAP`).

    >>> lp = LpSolution(None, None, None, None, bound=1597.0000016, primal=1596.9999963)
    >>> float(np.floor(lp.primal + 1e-6)), float(np.floor(_value(lp) + 1e-6))  # lp-doc100's IPM
    (1596.0, 1597.0)
    >>> _value(LpSolution(None, None, None, None, bound=1600.0, primal=1596.5)) == 1596.5 + SETTLE_GAP
    True
    """
    return lp.primal + min(max(lp.bound - lp.primal, 0.0), SETTLE_GAP)


def _floored(problem: Problem, bound: float) -> float:
    """An integral problem's bound rounded down (its optimum is an integer)."""
    return float(np.floor(bound + 1e-6)) if problem.integral else bound

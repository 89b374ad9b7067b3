"""Exact compression: shrink a :class:`~smatchpp.alignment.problem.Problem` without changing its optimum.

Every reduction below keeps at least one optimal solution of the original
problem, and :meth:`Compressed.lift` maps the solutions of the parts back to
an alignment of the original variables whose objective is the sum of the
parts' objectives plus the fixed part.  All coefficients are non-negative,
which the arguments rely on.

1. **Fix forced pairs.**  If pair ``p = (i, j)`` is the only candidate of
   ``i`` and the only candidate of ``j``, adding ``p`` to any solution keeps
   it feasible (nothing else can use ``i`` or ``j``) and does not lower its
   value; so some optimum contains ``p``.  Fix it: its unary term goes to the
   constant and each binary term ``w_pq`` moves into ``q``'s unary term
   (``q`` earns it exactly when it is chosen, since ``p`` always is).  A
   ternary term ``w_pqr`` becomes a binary term ``w_qr`` (earned exactly when
   ``q`` and ``r`` are chosen), or a unary term of the one pair not fixed, or
   the constant.
2. **Drop dead pairs.**  A pair with no unary, binary or ternary term adds
   nothing; removing it from a solution keeps the value.  (Dropping pairs can
   make new forced pairs, so 1 and 2 repeat until nothing changes.)
3. **Split into components.**  Two pairs interact if they share a variable, a
   binary term or a ternary term.  Constraints and objective terms never cross components, so
   the optimum is the sum of the components' optima.
4. **Solve pure assignment components exactly.**  A component without binary
   or ternary terms is a maximum-weight bipartite matching, solved by the Hungarian
   method (scipy) and therefore optimal.
5. **Drop pairs that bounds rule out** (``drop``, chosen by the caller).  If an
   incumbent of value ``L`` avoids pair ``p`` and every solution using ``p`` is
   worth at most ``L`` (below ``L + 1`` for integer objectives), no solution
   using ``p`` beats the incumbent, which survives the removal: the optimum is
   unchanged.  With a *target* ``T`` instead of an incumbent: if every
   solution using ``p`` is worth less than ``T``, every solution worth ``T``
   or more survives the removal, so the reduced optimum is the optimum
   whenever the optimum reaches ``T``, and otherwise ``T - 1`` bounds it.
   The portfolio uses LP reduced costs for these bounds and lowers ``T`` from
   the LP bound step by step.

Symmetry breaking (:mod:`smatchpp.alignment.solvers.symmetry`) does not shrink the problem: the MIP
gets ordering rows between interchangeable variables instead.

Example: two sentences' worth of unrelated structure split in two parts.

>>> from smatchpp.api import compile_strings
>>> p = compile_strings("(a / and :op1 (b / dog :ARG0-of (c / bark-01)) :op2 (d / cat))",
...                     "(x / and :op1 (y / dog :ARG0-of (z / bark-01)) :op2 (w / cat))")
>>> c = compress(p)
>>> s = c.stats()
>>> s["pairs_before"], s["pairs_fixed"], s["components_after"]
(4, 4, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

import numpy as np

from ..problem import Alignment, Problem


class PartResult(Protocol):
    """What :meth:`Compressed.combine` needs of a part's solution (a solver's result has it)."""

    alignment: Alignment
    upper_bound: float

__all__ = ["Part", "Compressed", "compress", "solve_assignment"]


@dataclass
class Part:
    """One independent component, with local variable numbering."""

    problem: Problem
    pairs: np.ndarray  # original pair index of each local pair


@dataclass
class Compressed:
    """The reduced problem: fixed pairs, a constant, and independent parts."""

    original: Problem
    fixed: np.ndarray  # original pair indices fixed to 1
    constant: float
    parts: list[Part]
    #: components without binary terms, already solved exactly (their pairs are in ``fixed``)
    assignment_components: int = 0
    #: pairs removed by the caller's bounds (``drop``)
    dropped: int = 0

    def starts(self, alignment: Alignment | None) -> list[Alignment | None]:
        """An alignment of the original restricted to each part (warm starts), or ``None``s."""
        if alignment is None:
            return [None] * len(self.parts)
        chosen = self.original.selected(alignment)
        return [part.problem.alignment_from_pairs(chosen[part.pairs]) for part in self.parts]

    def combine(self, results: Sequence[PartResult]) -> tuple[Alignment, float, float]:
        """Lifted alignment, its objective, and the upper bound implied by the parts' bounds."""
        alignment = self.lift([r.alignment for r in results])
        value = self.original.objective(alignment)
        return alignment, value, max(value, self.constant + sum(r.upper_bound for r in results))

    def lift(self, part_alignments: list[Alignment]) -> Alignment:
        """Alignment of the original problem from one alignment per entry of :attr:`parts`."""
        chosen = np.zeros(self.original.n_pairs, dtype=bool)
        chosen[self.fixed] = True
        for part, alignment in zip(self.parts, part_alignments):
            chosen[part.pairs[part.problem.selected(alignment)]] = True
        return self.original.alignment_from_pairs(chosen)

    def stats(self) -> dict[str, int]:
        """Sizes before and after, for ``--stats``."""
        o = self.original
        return {
            "vars_a": o.n_a, "vars_b": o.n_b,
            "pairs_before": o.n_pairs, "edges_before": o.n_edges,
            "components_before": _count_components(o),
            "pairs_fixed": int(len(self.fixed)),
            "pairs_dropped": self.dropped,
            "pairs_after": int(sum(p.problem.n_pairs for p in self.parts)),
            "edges_after": int(sum(p.problem.n_edges for p in self.parts)),
            "components_after": len(self.parts),
            "assignment_components": self.assignment_components,
        }


def solve_assignment(problem: Problem) -> Alignment:
    """Optimal alignment of a problem without binary terms (Hungarian method)."""
    from scipy.optimize import linear_sum_assignment  # slow import: only when needed
    dense = np.zeros((problem.n_a, problem.n_b))
    dense[problem.pair_a, problem.pair_b] = problem.unary
    rows, cols = linear_sum_assignment(dense, maximize=True)
    alignment = np.full(problem.n_a, -1, dtype=np.int64)
    keep = dense[rows, cols] > 0
    alignment[rows[keep]] = cols[keep]
    return alignment


def _components(n_pairs: int, pa: np.ndarray, pb: np.ndarray, ep: np.ndarray,
                eq: np.ndarray) -> np.ndarray:
    """Component label of each pair: pairs sharing a variable or a binary term are linked."""
    links_p, links_q = [ep], [eq]
    for side in (pa, pb):
        order = np.argsort(side, kind="stable")
        same = side[order[1:]] == side[order[:-1]]
        links_p.append(order[:-1][same])
        links_q.append(order[1:][same])
    lp, lq = np.concatenate(links_p), np.concatenate(links_q)
    # label propagation with pointer jumping: each round every link pulls both
    # ends to the smaller label; labels then follow their own label's label
    labels = np.arange(n_pairs)
    while True:
        low = np.minimum(labels[lp], labels[lq])
        new = labels.copy()
        np.minimum.at(new, lp, low)
        np.minimum.at(new, lq, low)
        new = new[new]
        if np.array_equal(new, labels):
            break
        labels = new
    return np.unique(labels, return_inverse=True)[1].ravel()


def _count_components(problem: Problem) -> int:
    if problem.n_pairs == 0:
        return 0
    ep, eq = problem.edge_p, problem.edge_q
    if problem.n_ternary:  # a ternary term links its three pairs
        ep = np.concatenate([ep, problem.tri_p, problem.tri_q])
        eq = np.concatenate([eq, problem.tri_q, problem.tri_r])
    labels = _components(problem.n_pairs, problem.pair_a, problem.pair_b, ep, eq)
    return int(labels.max()) + 1


def compress(problem: Problem, drop: np.ndarray | None = None) -> Compressed:
    """Apply the reductions of the module docstring; ``drop`` masks pairs ruled out by bounds."""
    P = problem.n_pairs
    alive = np.ones(P, dtype=bool) if drop is None else ~np.asarray(drop, dtype=bool)
    unary = problem.unary.copy()
    ep, eq, w = problem.edge_p, problem.edge_q, problem.weight
    edge_alive = alive[ep] & alive[eq]
    fixed_mask = np.zeros(P, dtype=bool)
    constant = problem.constant
    ternary = problem.n_ternary > 0  # else none of the ternary steps runs (AMR)
    if ternary:
        tri = np.stack([problem.tri_p, problem.tri_q, problem.tri_r], axis=1)
        tw = problem.tri_weight
        tri_alive = alive[tri].all(axis=1)
    while True:
        na = np.bincount(problem.pair_a[alive], minlength=problem.n_a)
        nb = np.bincount(problem.pair_b[alive], minlength=problem.n_b)
        forced = alive & (na[problem.pair_a] == 1) & (nb[problem.pair_b] == 1)
        degree = np.bincount(np.concatenate([ep[edge_alive], eq[edge_alive]]), minlength=P)
        if ternary:
            degree += np.bincount(tri[tri_alive].ravel(), minlength=P)
        dead = alive & ~forced & (unary <= 0) & (degree == 0)
        if not forced.any() and not dead.any():
            break
        if ternary:
            # a ternary term with fixed pairs: what is left of it is earned exactly when
            # its other pairs are chosen (binary, unary or constant); done before the
            # binary terms so that the new binary terms are fixed with them below
            ft = forced[tri] & tri_alive[:, None]
            count = ft.sum(axis=1)
            constant += tw[count == 3].sum()
            two = np.flatnonzero(count == 2)
            np.add.at(unary, tri[two][~ft[two]], tw[two])
            one = np.flatnonzero(count == 1)
            rest = np.sort(np.where(ft[one], -1, tri[one]), axis=1)[:, 1:]
            ep = np.concatenate([ep, rest[:, 0]])
            eq = np.concatenate([eq, rest[:, 1]])
            w = np.concatenate([w, tw[one]])
            edge_alive = np.concatenate([edge_alive, np.ones(len(one), dtype=bool)])
            tri_alive &= count == 0
        constant += unary[forced].sum()
        # binary terms of a fixed pair move into the other pair's unary term
        fp, fq = forced[ep] & edge_alive, forced[eq] & edge_alive
        both = fp & fq
        constant += w[both].sum()
        np.add.at(unary, eq[fp & ~fq], w[fp & ~fq])
        np.add.at(unary, ep[fq & ~fp], w[fq & ~fp])
        edge_alive &= ~(fp | fq)
        fixed_mask |= forced
        alive &= ~(forced | dead)
        if ternary:
            tri_alive &= alive[tri].all(axis=1)
    keep = np.flatnonzero(alive)
    parts: list[Part] = []
    n_assignment = 0
    if len(keep):
        local = np.full(P, -1, dtype=np.int64)
        local[keep] = np.arange(len(keep))
        e_keep = np.flatnonzero(edge_alive)
        lp, lq = local[ep[e_keep]], local[eq[e_keep]]
        if ternary:
            t_keep = np.flatnonzero(tri_alive)
            lt = local[tri[t_keep]].reshape(-1, 3)
            labels = _components(len(keep), problem.pair_a[keep], problem.pair_b[keep],
                                 np.concatenate([lp, lt[:, 0], lt[:, 1]]),
                                 np.concatenate([lq, lt[:, 1], lt[:, 2]]))
            t_label = labels[lt[:, 0]]
            t_order = np.argsort(t_label, kind="stable")
            t_bounds = np.searchsorted(t_label[t_order], np.arange(labels.max() + 2))
        else:
            labels = _components(len(keep), problem.pair_a[keep], problem.pair_b[keep], lp, lq)
        order = np.argsort(labels, kind="stable")
        bounds = np.flatnonzero(np.diff(labels[order])) + 1
        e_label = labels[lp]
        e_order = np.argsort(e_label, kind="stable")
        e_bounds = np.searchsorted(e_label[e_order], np.arange(labels.max() + 2))
        position = np.empty(len(keep), dtype=np.int64)
        for c, members in enumerate(np.split(order, bounds)):
            edges = e_order[e_bounds[c]:e_bounds[c + 1]]
            position[members] = np.arange(len(members))
            terms = None
            if ternary:
                local_t = t_order[t_bounds[c]:t_bounds[c + 1]]
                terms = (position[lt[local_t]].reshape(-1, 3), tw[t_keep[local_t]])
            part = _subproblem(problem, keep[members], unary[keep[members]],
                               position[lp[edges]], position[lq[edges]], w[e_keep[edges]], terms)
            if part.problem.n_edges or part.problem.n_ternary:
                parts.append(part)
                continue
            # a pure assignment component: solve it now, exactly
            chosen = part.problem.selected(solve_assignment(part.problem))
            fixed_mask[part.pairs[chosen]] = True
            constant += float(part.problem.unary[chosen].sum())
            n_assignment += 1
    dropped = 0 if drop is None else int(np.count_nonzero(drop))
    return Compressed(problem, np.flatnonzero(fixed_mask), constant, parts, n_assignment, dropped)


def _subproblem(problem: Problem, original: np.ndarray, unary: np.ndarray,
                p: np.ndarray, q: np.ndarray, w: np.ndarray,
                ternary: tuple[np.ndarray, np.ndarray] | None = None) -> Part:
    """Renumber one component's pairs and variables from 0.

    ``ternary``: the component's ternary terms (local pair triples, weights); with
    them, binary terms of the same two pairs (one may come from a fixed pair's
    ternary term) are merged into one.
    """
    a_vars, a_local = np.unique(problem.pair_a[original], return_inverse=True)
    b_vars, b_local = np.unique(problem.pair_b[original], return_inverse=True)
    lo, hi = np.minimum(p, q), np.maximum(p, q)
    if ternary is None:
        sub = Problem(len(a_vars), len(b_vars), a_local.ravel(), b_local.ravel(), unary, lo, hi,
                      w, tolerance=problem.tolerance)
        return Part(sub, original)
    n = max(len(original), 1)
    ekeys, inverse = np.unique(lo * n + hi, return_inverse=True)
    weight = np.bincount(inverse.ravel(), weights=w, minlength=len(ekeys)).astype(np.float64)
    tri, tw = ternary
    tri = np.sort(tri, axis=1)
    sub = Problem(len(a_vars), len(b_vars), a_local.ravel(), b_local.ravel(), unary, ekeys // n,
                  ekeys % n, weight, tolerance=problem.tolerance, tri_p=tri[:, 0],
                  tri_q=tri[:, 1], tri_r=tri[:, 2], tri_weight=tw)
    return Part(sub, original)

"""Depth-first branch and bound for small problems, compiled with numba.

Most pairs of a corpus are small (sentence graphs: 15 candidate pairs and 10
binary terms on average in the Little Prince), and for them the per-pair cost
of the general path (the hill-climber in Python, then an LP through HiGHS) is
mostly overhead.  This solver enumerates alignments directly and proves its
answer; it gives up after :data:`NODE_LIMIT` nodes, and the portfolio then
takes the problem on with the incumbent as a warm start.

The search fixes A's variables one at a time (in decreasing order of their
best pair's potential): to one of their candidate pairs whose B variable is
still free (best immediate gain first), or to nothing (last).  At a node, with
``C`` the value of the chosen pairs, every undecided pair ``p`` can add at most

    ``g_p = unary_p + link_p + 1/2 fut_p``

where ``link_p`` sums its binary terms towards chosen pairs and ``fut_p`` its
binary terms towards pairs of undecided variables.  Validity: the value any
completion adds is ``sum_{p new} (unary_p + link_p) + sum_{p, q new, pq edge}
w_pq``, and each term between two new pairs is split evenly between its two
ends, each of which is a pair of an undecided variable, so it is counted in
``fut`` of both.  A completion picks at most one new pair per undecided A
variable and per free B variable, so ``C + min(rows, cols)`` bounds every
completion, with ``rows = sum_i max(0, max_{p of i} g_p)`` over undecided
``i`` and ``cols`` the same over free B variables (their pairs of undecided
variables).  A node is pruned when its bound cannot beat the incumbent by
more than ``slack`` (integral problems: ``1 - 1e-6``, a bound below
``best + 1`` admits no better integer; fractional: the certification
tolerance).  When the search ends, the optimum is at most the largest pruned
bound or the incumbent, whichever is larger; the search also ends as soon as
the incumbent reaches ``cap``, an upper bound known beforehand (the label
bound).

>>> from smatchpp.api import compile_strings
>>> r = branch_and_bound(compile_strings("(a / dog :ARG0-of (b / bark-01))",
...                                      "(x / bark-01 :ARG0 (y / dog))"))
>>> r.complete, r.objective, r.upper, r.alignment.tolist()
(True, 3.0, 3.0, [1, 0])
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..jit import lazy_jit
from ..problem import Alignment, Problem

__all__ = ["branch_and_bound", "BnbResult", "NODE_LIMIT", "WORK_LIMIT", "MAX_PAIRS"]

#: nodes before the search gives up (deterministic: the same on every machine);
#: measured on the first 150 Little Prince graphs: (see docs/results.md)
NODE_LIMIT = 20_000
#: node visits times candidate pairs (a node's bound is linear in the pairs): at most
#: about 40 ms on this machine, whatever the problem's size
WORK_LIMIT = 2_000_000
#: problems with more candidate pairs go to the general path without trying
MAX_PAIRS = 400


@dataclass
class BnbResult:
    alignment: Alignment
    objective: float
    #: an upper bound on the optimum (equal to ``objective`` when proven)
    upper: float
    #: True if the search finished or reached ``cap``: ``objective`` is then optimal
    complete: bool
    #: True if it ended because the incumbent reached ``cap``
    capped: bool
    nodes: int


def branch_and_bound(problem: Problem, node_limit: int | None = None,
                     cap: float | None = None) -> BnbResult:
    """Search ``problem`` (see module docstring).

    ``cap``: an upper bound known beforehand (default: the label bound);
    a problem with ternary terms is refused (``ValueError``);
    ``node_limit``: at most :data:`NODE_LIMIT`, and fewer on bigger problems
    (at most :data:`WORK_LIMIT` node visits times candidate pairs).
    """
    if problem.n_ternary:
        # the compiled kernel knows unary and binary terms only; the portfolio searches a
        # problem with ternary terms on its binary relaxation (Portfolio._relaxed_search)
        raise ValueError("the compiled branch and bound takes no ternary terms")
    if cap is None:
        cap = problem.label_bound
    node_limit = min(node_limit or NODE_LIMIT, max(1, WORK_LIMIT // max(problem.n_pairs, 1)))
    best_a, best, pruned, nodes, complete, capped, integral = _search(
        problem.n_a, problem.n_b, problem.pair_a, problem.pair_b, problem.unary,
        problem.edge_p, problem.edge_q, problem.weight, float(problem.constant),
        float(cap) if math.isfinite(cap) else np.inf, float(problem.tolerance), int(node_limit))
    problem.__dict__.setdefault("integral", bool(integral))  # the kernel has checked it
    objective = float(best) + problem.constant
    if capped:
        upper = cap
    elif complete:
        upper = max(objective, float(pruned) + problem.constant)
        if integral:
            upper = math.floor(upper + 1e-6)
        upper = min(upper, cap)
    else:
        upper = cap
    return BnbResult(best_a, objective, max(float(upper), objective), bool(complete),
                     bool(capped), int(nodes))


@lazy_jit("Tuple((int64[::1], float64, float64, int64, boolean, boolean, boolean))(int64, int64, "
          "int64[::1], int64[::1], float64[::1], int64[::1], int64[::1], float64[::1], float64, float64, "
          "float64, int64)")
def _search(n_a, n_b, pair_a, pair_b, unary, edge_p, edge_q, weight, constant, cap, tolerance,
            node_limit):
    n = len(pair_a)
    integral = constant == np.floor(constant)
    for p in range(n):
        if unary[p] != np.floor(unary[p]):
            integral = False
    for e in range(len(weight)):
        if weight[e] != np.floor(weight[e]):
            integral = False
    # prune a node whose bound cannot beat the incumbent by more than slack; stop at stop_at
    slack = 1.0 - 1e-6 if integral else tolerance
    stop_at = cap - constant - (0.0 if integral else tolerance)
    # CSR adjacency of the pair graph (every edge twice)
    deg = np.zeros(n + 1, dtype=np.int64)
    for e in range(len(edge_p)):
        deg[edge_p[e] + 1] += 1
        deg[edge_q[e] + 1] += 1
    nb_start = np.cumsum(deg)
    fill = nb_start[:-1].copy()
    nb_other = np.empty(nb_start[-1], dtype=np.int64)
    nb_w = np.empty(nb_start[-1], dtype=np.float64)
    for e in range(len(edge_p)):
        p, q, w = edge_p[e], edge_q[e], weight[e]
        nb_other[fill[p]] = q
        nb_w[fill[p]] = w
        fill[p] += 1
        nb_other[fill[q]] = p
        nb_w[fill[q]] = w
        fill[q] += 1
    # candidate pairs of each A variable (pairs are sorted by (a, b) or not: count first)
    cnt = np.zeros(n_a + 1, dtype=np.int64)
    for p in range(n):
        cnt[pair_a[p] + 1] += 1
    a_start = np.cumsum(cnt)
    fill = a_start[:-1].copy()
    a_pairs = np.empty(n, dtype=np.int64)
    for p in range(n):
        a_pairs[fill[pair_a[p]]] = p
        fill[pair_a[p]] += 1
    # the star rule: towards each other A variable, a pair's binary terms count
    # with their maximum only (one pair of that variable at most is chosen);
    # kg_*: for each A variable k, the pairs p with a term towards k and that maximum
    kg_start = np.zeros(n_a + 1, dtype=np.int64)
    kg_p = np.empty(nb_start[-1], dtype=np.int64)
    kg_w = np.empty(nb_start[-1], dtype=np.float64)
    seen = np.full(n, -1, dtype=np.int64)
    ptr = 0
    for k in range(n_a):
        kg_start[k] = ptr
        for t in range(a_start[k], a_start[k + 1]):
            q = a_pairs[t]
            for u in range(nb_start[q], nb_start[q + 1]):
                p = nb_other[u]
                if seen[p] < kg_start[k]:
                    seen[p] = ptr
                    kg_p[ptr] = p
                    kg_w[ptr] = nb_w[u]
                    ptr += 1
                elif nb_w[u] > kg_w[seen[p]]:
                    kg_w[seen[p]] = nb_w[u]
    kg_start[n_a] = ptr
    fut = np.zeros(n)
    for e in range(ptr):
        fut[kg_p[e]] += kg_w[e]
    # the same rule towards B's variables, over all pairs (an over-estimate that
    # stays valid as variables are decided): min(fut, fut_b) bounds the new terms
    fut_b = np.zeros(n)
    best_b = np.zeros(n_b)
    for p in range(n):
        for u in range(nb_start[p], nb_start[p + 1]):
            l = pair_b[nb_other[u]]
            if nb_w[u] > best_b[l]:
                best_b[l] = nb_w[u]
        for u in range(nb_start[p], nb_start[p + 1]):
            l = pair_b[nb_other[u]]
            fut_b[p] += best_b[l]
            best_b[l] = 0.0
    # branching order: variables with pairs, by decreasing best potential
    potential = unary + 0.5 * np.minimum(fut, fut_b)
    key = np.full(n_a, np.inf)
    n_order = 0
    for i in range(n_a):
        if a_start[i + 1] > a_start[i]:
            best_pot = -np.inf
            for t in range(a_start[i], a_start[i + 1]):
                best_pot = max(best_pot, potential[a_pairs[t]])
            key[i] = -best_pot
            n_order += 1
    order = np.argsort(key, kind="mergesort")[:n_order]
    # per depth: its options (pairs then -1 for "none") in one buffer
    off = np.zeros(n_order + 1, dtype=np.int64)
    for d in range(n_order):
        i = order[d]
        off[d + 1] = off[d] + a_start[i + 1] - a_start[i] + 1
    opts = np.empty(off[n_order], dtype=np.int64)
    gains = np.empty(off[n_order], dtype=np.float64)
    keys = np.empty(off[n_order], dtype=np.float64)
    n_opts = np.zeros(n_order + 1, dtype=np.int64)
    at = np.zeros(n_order + 1, dtype=np.int64)
    state = np.zeros(n_order + 1, dtype=np.int64)

    chosen_b = np.full(n_b, -1, dtype=np.int64)
    chosen_a = np.full(n_a, -1, dtype=np.int64)
    link = np.zeros(n)
    col_max = np.full(n_b, -1.0)
    best_a = np.full(n_a, -1, dtype=np.int64)
    best = 0.0
    cur = 0.0
    pruned = -np.inf
    nodes = 0
    complete = True
    capped = False
    d = 0
    while d >= 0:
        if state[d] == 0:
            nodes += 1
            if nodes > node_limit:
                complete = False
                break
            if d == n_order:
                if cur > best + 1e-9:
                    best = cur
                    best_a[:] = chosen_a
                    if best >= stop_at - 1e-9:
                        capped = True
                        break
                d -= 1
                continue
            # bound over the undecided variables order[d:]
            rows = 0.0
            for s in range(d, n_order):
                i = order[s]
                row = 0.0
                for t in range(a_start[i], a_start[i + 1]):
                    p = a_pairs[t]
                    j = pair_b[p]
                    if chosen_b[j] >= 0:
                        continue
                    g = unary[p] + link[p] + 0.5 * min(fut[p], fut_b[p])
                    if g > row:
                        row = g
                    if g > col_max[j]:
                        col_max[j] = g
                rows += row
            cols = 0.0
            for s in range(d, n_order):
                i = order[s]
                for t in range(a_start[i], a_start[i + 1]):
                    j = pair_b[a_pairs[t]]
                    if col_max[j] > 0.0:
                        cols += col_max[j]
                    col_max[j] = -1.0
            bound = cur + min(rows, cols)
            if bound <= best + slack:
                if bound > pruned:
                    pruned = bound
                d -= 1
                continue
            # options of order[d]: free pairs by decreasing gain (then index), then none
            i = order[d]
            k = off[d]
            for t in range(a_start[i], a_start[i + 1]):
                p = a_pairs[t]
                if chosen_b[pair_b[p]] >= 0:
                    continue
                g = unary[p] + link[p]
                h = g + 0.5 * min(fut[p], fut_b[p])  # the order: what the pair may bring
                # insertion sort
                m = k
                while m > off[d] and (keys[m - 1] < h or (keys[m - 1] == h and opts[m - 1] > p)):
                    gains[m] = gains[m - 1]
                    keys[m] = keys[m - 1]
                    opts[m] = opts[m - 1]
                    m -= 1
                gains[m] = g
                keys[m] = h
                opts[m] = p
                k += 1
            opts[k] = -1
            gains[k] = 0.0
            n_opts[d] = k + 1 - off[d]
            at[d] = 0
            # order[d] is decided from here on: its pairs leave every neighbour's fut
            for e in range(kg_start[i], kg_start[i + 1]):
                fut[kg_p[e]] -= kg_w[e]
            state[d] = 1
        else:
            # undo the option taken last
            p = opts[off[d] + at[d] - 1]
            if p >= 0:
                cur -= gains[off[d] + at[d] - 1]
                chosen_b[pair_b[p]] = -1
                chosen_a[pair_a[p]] = -1
                for u in range(nb_start[p], nb_start[p + 1]):
                    link[nb_other[u]] -= nb_w[u]
        if at[d] < n_opts[d]:
            p = opts[off[d] + at[d]]
            at[d] += 1
            if p >= 0:
                cur += gains[off[d] + at[d] - 1]
                chosen_b[pair_b[p]] = p
                chosen_a[pair_a[p]] = pair_b[p]
                for u in range(nb_start[p], nb_start[p + 1]):
                    link[nb_other[u]] += nb_w[u]
            d += 1
            state[d] = 0
        else:
            i = order[d]
            for e in range(kg_start[i], kg_start[i + 1]):
                fut[kg_p[e]] += kg_w[e]
            state[d] = 0
            d -= 1
    return best_a, best, pruned, nodes, complete, capped, integral

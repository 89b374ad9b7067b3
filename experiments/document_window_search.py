"""Is a better alignment of a long document pair reachable? (issue 32 item 5, an experiment)

The certificate of lp-doc100's pairs stops one or two triples short (docs/benchmarks.md
section 19): the priced LP bounds the first pair by 1597, its reduced costs prove 1596
cheaply, the best alignment found is 1595.  Either an alignment worth 1596 exists (then the
cheap proof certifies it) or a proof of 1595 is needed.  This script searches for the
former, by a large-neighbourhood search that solves windows of the document exactly:

1. compile the pair; the LP-rounded hill-climb start (as the portfolio does) after the
   priced LP (:func:`smatchpp.alignment.solvers.pricing.priced_lp`, no time limit);
2. keep only the pairs whose reduced-cost reach is at least ``--target`` (every
   alignment worth ``target`` or more uses only those: compression rule 5);
3. windows of ``--window`` consecutive sentences of A, with the B sentences their
   nodes are aligned to (and one either side), plus every node not aligned inside its own
   sentence pair (the cross-sentence leftovers) and the root: the rest of the alignment
   is fixed (its binary terms with the window folded into unary ones) and the window is
   solved exactly by the HiGHS MIP, warm-started from the current alignment; a better
   window solution replaces the current one; the hill-climber runs after every sweep.

Every number printed is the value of an alignment of the whole problem (a lower bound);
``--prove`` then solves the problem restricted to the pairs whose reach is at least the best
value + 1 (no time limit): if its optimum is below that, no alignment reaches it and the best
value found is the optimum (the portfolio's elimination step, run by hand).

    python3 experiments/document_window_search.py --pair 0 --target 1596 [--window 3]
        [--sweeps 3] [--mip-seconds 60] [--verbose] [--docs DIR] [--prove]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from smatchpp.alignment.aligner import PairAligner
from smatchpp.alignment.config import Config
from smatchpp.presets import standardize
from smatchpp.alignment.problem import Problem
from smatchpp.graphs.read import read_file
from smatchpp.alignment.solvers.base import Limits
from smatchpp.alignment.solvers.highs import HighsSolver
from smatchpp.alignment.solvers.hillclimber import climb
from smatchpp.alignment.solvers.portfolio import Portfolio
from smatchpp.alignment.solvers.pricing import priced_lp, restrict

DOCS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "docs"


def document(path: Path, k: int, tmp: Path) -> Path:
    """The ``k``-th graph of ``path`` in a file of its own."""
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    out = tmp / f"{path.stem}.{k}.amr"
    out.write_text(blocks[k] + "\n", encoding="utf-8")
    return out


def window(problem: Problem, chosen: np.ndarray, free_a: np.ndarray, free_b: np.ndarray,
           mip: HighsSolver, seconds: float) -> tuple[np.ndarray, int, str]:
    """``chosen`` with the window ``free_a`` x ``free_b`` re-solved (the rest fixed); the
    window's pairs and the MIP's status (``optimal``: the window was solved exactly)."""
    pa, pb = problem.pair_a, problem.pair_b
    for _ in range(3):  # the window takes the partners of its nodes (so no value is lost)
        free_a = free_a | np.isin(np.arange(problem.n_a), pa[chosen & free_b[pb]])
        free_b = free_b | np.isin(np.arange(problem.n_b), pb[chosen & free_a[pa]])
    fixed = chosen & ~free_a[pa]
    inside = free_a[pa] & free_b[pb]
    index = np.flatnonzero(inside)
    local = np.full(problem.n_pairs, -1)
    local[index] = np.arange(len(index))
    unary = problem.unary[index].copy()
    for p, q in ((problem.edge_p, problem.edge_q), (problem.edge_q, problem.edge_p)):
        folded = inside[p] & fixed[q]
        np.add.at(unary, local[p[folded]], problem.weight[folded])
    both = inside[problem.edge_p] & inside[problem.edge_q]
    sub = Problem(problem.n_a, problem.n_b, pa[index], pb[index], unary,
                  local[problem.edge_p[both]], local[problem.edge_q[both]], problem.weight[both])
    result = mip.solve(sub, seconds, sub.alignment_from_pairs(chosen[index]))
    out = fixed.copy()
    out[index[sub.selected(result.alignment)]] = True
    return out, len(index), result.status


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pair", type=int, default=0)
    parser.add_argument("--target", type=int, required=True)
    parser.add_argument("--window", type=int, default=3)
    parser.add_argument("--sweeps", type=int, default=3)
    parser.add_argument("--mip-seconds", type=float, default=60.0)
    parser.add_argument("--prove", action="store_true",
                        help="then solve the problem restricted to the pairs that can reach best + 1")
    parser.add_argument("--verbose", action="store_true", help="a line per window")
    parser.add_argument("--docs", type=Path, default=DOCS, help="lp-bart-doc100.{pred,gold}.amr")
    parser.add_argument("--tmp", type=Path, default=Path("/tmp"))
    args = parser.parse_args(argv)
    began = time.perf_counter()
    aligner = PairAligner(Config())
    a = standardize(read_file(document(args.docs / "lp-bart-doc100.pred.amr", args.pair, args.tmp))[0].graph, "smatch")
    b = standardize(read_file(document(args.docs / "lp-bart-doc100.gold.amr", args.pair, args.tmp))[0].graph, "smatch")
    a, b, whole = aligner.compile(a, b)
    start = Portfolio()._sentence_start(whole, Limits.after(None))
    start, value = climb(whole, 1, 0, np.inf, start, greedy=False)
    lp = priced_lp(whole, whole.selected(start))
    rounded, value_r = climb(whole, 1, 0, np.inf, None, lp.x, greedy=False)
    if value_r > value:
        start, value = rounded, value_r
    reach = np.floor(lp.bound + np.minimum(lp.reduced, 0.0) + 1e-6)
    problem, index = restrict(whole, reach >= args.target)
    print(f"pair {args.pair}: {whole.n_pairs} pairs, LP {lp.bound:.3f}, start {value:.0f}, "
          f"{problem.n_pairs} pairs reach {args.target}  [{time.perf_counter() - began:.0f} s]",
          flush=True)
    sa, sb = whole.sentence_a, whole.sentence_b
    chosen = whole.selected(start)[index]
    best = problem.objective(problem.alignment_from_pairs(chosen))
    print(f"start restricted to those pairs: {best:.0f}", flush=True)
    mip = HighsSolver()
    for sweep in range(args.sweeps):
        for i in range(-1, int(sa.max()) + 1, max(1, args.window - 1)):
            pa, pb = problem.pair_a, problem.pair_b
            own = chosen & (sa[pa] == sb[pb]) & (sa[pa] >= 0)
            inside = ((sa >= i) & (sa < i + args.window)) | (sa < 0)
            # the B sentences of the window's own pairs (not of its leftovers' partners)
            images = np.unique(sb[pb[own & inside[pa]]])
            free_a = inside | ~np.isin(np.arange(problem.n_a), pa[own])
            free_b = np.isin(sb, np.concatenate([images - 1, images, images + 1])) | (sb < 0)
            free_b |= ~np.isin(np.arange(problem.n_b), pb[own])
            new, size, status = window(problem, chosen, free_a, free_b, mip, args.mip_seconds)
            value = problem.objective(problem.alignment_from_pairs(new))
            if args.verbose:
                print(f"    window {i}: {value:.0f} ({size} pairs, {status})  [{time.perf_counter() - began:.0f} s]", flush=True)
            if value > best:
                chosen, best = new, value
                print(f"  sweep {sweep} window {i}: {best:.0f}  [{time.perf_counter() - began:.0f} s]",
                      flush=True)
        alignment, best = climb(problem, 1, 0, np.inf, problem.alignment_from_pairs(chosen),
                                greedy=False)
        chosen = problem.selected(alignment)
        print(f"sweep {sweep}: {best:.0f}  [{time.perf_counter() - began:.0f} s]", flush=True)
    print(f"best alignment found: {best:.0f} (LP bound {lp.bound:.3f})")
    if args.prove:
        # compression rule 5 by hand: an alignment worth best + 1 uses only pairs reaching it
        target = int(best) + 1
        part, kept = restrict(whole, reach >= target)
        found = Portfolio().solve(part)
        print(f"restricted to the {part.n_pairs} pairs of reach >= {target}: {found.status}, "
              f"{found.objective:.0f}  [{time.perf_counter() - began:.0f} s]")
        if found.status == "optimal" and found.objective < target:
            print(f"no alignment reaches {target}: the optimum is {best:.0f}")


if __name__ == "__main__":
    main()

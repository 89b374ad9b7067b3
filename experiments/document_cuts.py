"""The cuts of ``solvers/cuts.py`` and the LP's neighbourhood on one long document pair (issue 32, item 5).

One pair (the ``--pair``-th graph of two files) is compiled; then, each timed on the
process's CPU clock:

1. the priced LP as the portfolio ran it before (``settle``, no cuts) and with up to
   ``--cut-rounds`` rounds of the cuts: bound, rounds, restricted pairs, rows of cuts;
2. the climb from the LP's rounding (the incumbent the portfolio has at that point);
3. for each ``--reduced`` threshold, the problem restricted to the LP's support, the
   incumbent and the pairs of reduced cost above minus the threshold, solved by the
   portfolio (``Portfolio._neighbourhood``'s step): its size, the value found, its CPU s.

Every bound printed is a bound of the pair, every value an alignment's.

    python3 experiments/document_cuts.py A.amr B.amr [--pair 0] [--cut-rounds 10] [--reduced 0.1 0.3]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# the checkout this script belongs to, before any installed copy
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from smatchpp.alignment.aligner import PairAligner  # noqa: E402
from smatchpp.alignment.config import Config  # noqa: E402
from smatchpp.alignment.solvers.hillclimber import climb  # noqa: E402
from smatchpp.alignment.solvers.portfolio import Portfolio  # noqa: E402
from smatchpp.alignment.solvers.pricing import priced_lp, restrict  # noqa: E402
from profile_document_stages import graph  # noqa: E402  (the k-th graph of a file, standardized)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--pair", type=int, default=0)
    ap.add_argument("--cut-rounds", type=int, default=10)
    ap.add_argument("--reduced", type=float, nargs="+", default=[0.1, 0.3])
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        a, b = graph(args.a, args.pair, Path(tmp)), graph(args.b, args.pair, Path(tmp))
    aligner = PairAligner(Config())
    a, b, problem = aligner.compile(a, b)
    print(f"pair {args.pair}: {problem.n_a} x {problem.n_b} variables, {problem.n_pairs} pairs")
    start_alignment, start_value = climb(problem, 1, 0, problem.label_bound)
    start = problem.selected(start_alignment)
    print("| step | CPU s | result |")
    print("|---|---|---|")
    lps = {}
    for rounds in (0, args.cut_rounds):
        began = time.process_time()
        lp = priced_lp(problem, start, settle=True, cut_rounds=rounds)
        lps[rounds] = lp
        print(f"| priced LP, cut rounds {rounds} | {time.process_time() - began:.2f} | bound "
              f"{lp.bound:.3f} (floor {np.floor(lp.bound + 1e-6):.0f}), round {lp.rounds}, "
              f"{lp.pairs} pairs, {lp.cuts} rows of cuts |", flush=True)
    lp = lps[args.cut_rounds]
    began = time.process_time()
    incumbent, lower = climb(problem, 1, 0, lp.bound, None, lp.x, greedy=False)
    if lower < start_value:
        incumbent, lower = start_alignment, start_value
    print(f"| climb from the LP's rounding | {time.process_time() - began:.2f} | {lower:g} |")
    for threshold in args.reduced:
        keep = (lp.x > 1e-6) | problem.selected(incumbent) | (lp.reduced > -threshold)
        sub, index = restrict(problem, keep)
        began = time.process_time()
        found = Portfolio().solve(sub, warm_start=sub.alignment_from_pairs(
            problem.selected(incumbent)[index]))
        print(f"| neighbourhood, reduced cost above -{threshold:g} | "
              f"{time.process_time() - began:.2f} | {sub.n_pairs} pairs: {found.objective:g} "
              f"({found.status}) |", flush=True)


if __name__ == "__main__":
    main()

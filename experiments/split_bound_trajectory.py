"""The split-improved star bound of one long document pair against its own CPU time (issue 32).

One pair (the ``--pair``-th graph of two files) is compiled in this process; then the
row/column star bound (one linear pass: its CPU seconds are what the portfolio's estimates
count in), the star assignment, and, for each of ``--seconds``, the split-improved star
bound (``lagrangian_star_bound``, Polyak steps towards ``--lower`` when given) run from
scratch under a deadline of that many CPU seconds.  Prints a table: the bound and the CPU
seconds it took, and the same in passes.  What this answers: how much time the portfolio
must leave the bound for it to beat a priced LP stopped by the deadline.

    python3 experiments/split_bound_trajectory.py A.amr B.amr [--pair 0] [--lower 4728] [--seconds 2 4 8 16]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

# the checkout this script belongs to, before any installed copy
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from smatchpp.alignment.aligner import PairAligner  # noqa: E402
from smatchpp.alignment.config import Config  # noqa: E402
from smatchpp.alignment.solvers.base import Limits  # noqa: E402
from smatchpp.alignment.solvers.bounds import lagrangian_star_bound, star_bound  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402
from smatchpp.presets import standardize  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--pair", type=int, default=0)
    parser.add_argument("--lower", type=float, default=None,
                        help="a known alignment's value (the bound's Polyak target)")
    parser.add_argument("--seconds", type=float, nargs="+", default=[2.0, 4.0, 8.0, 16.0])
    args = parser.parse_args(argv)
    clock = time.process_time
    aligner = PairAligner(Config())
    a = standardize(read_file(args.a)[args.pair].graph, "smatch")
    b = standardize(read_file(args.b)[args.pair].graph, "smatch")
    began = clock()
    a, b, problem = aligner.compile(a, b)
    print(f"{problem.n_a} x {problem.n_b} variables, {problem.n_pairs:,} candidate pairs, "
          f"compiled in {clock() - began:.2f} s of CPU")
    began = clock()
    rows = star_bound(problem, assignment=False)
    one_pass = clock() - began
    began = clock()
    star = star_bound(problem)
    print(f"row/column star bound {rows:g} ({one_pass:.2f} s: one pass); "
          f"star assignment {star:g} ({clock() - began:.2f} s)")
    print("| CPU s given | bound | CPU s taken | passes taken |")
    print("|---|---|---|---|")
    for seconds in args.seconds:
        began = clock()
        bound = lagrangian_star_bound(problem, Limits(deadline=began + seconds, clock=clock),
                                      iterations=1_000, lower=args.lower)
        took = clock() - began
        print(f"| {seconds:g} | {bound:g} | {took:.2f} | {took / max(one_pass, 1e-9):.0f} |")


if __name__ == "__main__":
    main()

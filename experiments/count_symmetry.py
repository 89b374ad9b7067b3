"""How often do interchangeable variables occur (the symmetry-breaking candidate of issue 4)?

Two variables of A are interchangeable in a compiled problem when swapping them
maps the problem onto itself (:mod:`smatchpp.alignment.solvers.symmetry`).  The MIP
orders them, which prunes symmetric solutions.  This script counts them, per
set, on every compiled pair (A side and B side).

    python experiments/count_symmetry.py [--sets sts sick para doc5 doc20 doc50 doc100]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_speed import SETS  # noqa: E402

from smatchpp.alignment.compile import compile_pair  # noqa: E402
from smatchpp.alignment.solvers.symmetry import interchangeable  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402
from smatchpp.presets import standardize  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    args = ap.parse_args()
    print("| set | pairs | pairs with interchangeable variables | classes (A+B) "
          "| variables in them | variables with a candidate pair |")
    print("|---|---|---|---|---|---|")
    for name in args.sets:
        a, b = SETS[name]
        with_symmetry = n_classes = n_vars = n_candidates = 0
        entries = list(zip(read_file(a), read_file(b)))
        for x, y in entries:
            problem = compile_pair(standardize(x.graph), standardize(y.graph))
            symmetry = interchangeable(problem)
            with_symmetry += bool(symmetry)
            n_classes += len(symmetry.a) + len(symmetry.b)
            n_vars += symmetry.n_vars
            n_candidates += len(set(problem.pair_a.tolist())) + len(set(problem.pair_b.tolist()))
        print(f"| {name} | {len(entries)} | {with_symmetry} | {n_classes} | {n_vars} | {n_candidates} |",
              flush=True)


if __name__ == "__main__":
    main()

"""How often do interchangeable variables occur (the symmetry-breaking candidate of issue 4)?

Two variables of A are interchangeable in a compiled problem when swapping them
maps the problem onto itself: the same candidate partners with the same unary
terms, and the same binary terms to the same other pairs.  Ordering constraints
between such variables would prune symmetric solutions from the MIP.  This
script counts them, per set, on every compiled pair (A side and B side).

    python experiments/count_symmetry.py [--sets sts sick para doc5 doc20 doc50 doc100]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_speed import SETS  # noqa: E402

from smatchpp.compile import compile_pair  # noqa: E402
from smatchpp.problem import Problem  # noqa: E402
from smatchpp.read import read_file  # noqa: E402
from smatchpp.standardize import standardize  # noqa: E402


def interchangeable(problem: Problem, side: str) -> list[list[int]]:
    """Classes (of size >= 2) of variables on ``side`` ('a' or 'b') with identical terms.

    A variable's signature lists its candidate partners with their unary terms
    and every binary term of its pairs as (own partner, other pair, weight).
    Equal signatures exclude a term between the two variables (it would name
    one of them in the other's signature only), so swapping them is an
    automorphism of the problem.
    """
    own, partner = ((problem.pair_a, problem.pair_b) if side == "a"
                    else (problem.pair_b, problem.pair_a))
    signature: dict[int, list[tuple]] = defaultdict(list)
    for p in range(problem.n_pairs):
        signature[int(own[p])].append(("unary", int(partner[p]), float(problem.unary[p])))
    for e in range(problem.n_edges):
        p, q = int(problem.edge_p[e]), int(problem.edge_q[e])
        for x, y in ((p, q), (q, p)):
            signature[int(own[x])].append(("binary", int(partner[x]), int(own[y]),
                                           int(partner[y]), float(problem.weight[e])))
    classes: dict[tuple, list[int]] = defaultdict(list)
    for var, items in signature.items():
        classes[tuple(sorted(items))].append(var)
    return [c for c in classes.values() if len(c) > 1]


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
            classes = interchangeable(problem, "a") + interchangeable(problem, "b")
            with_symmetry += bool(classes)
            n_classes += len(classes)
            n_vars += sum(len(c) for c in classes)
            n_candidates += len(set(problem.pair_a.tolist())) + len(set(problem.pair_b.tolist()))
        print(f"| {name} | {len(entries)} | {with_symmetry} | {n_classes} | {n_vars} | {n_candidates} |",
              flush=True)


if __name__ == "__main__":
    main()

"""The counter metric's own MIP (smatchpp/drs/exact.py) beside the shared solvers on the same
pairs written as a Problem with ternary terms (Problem.from_terms), on Counter's peer data.

    python3 experiments/check_counter_ternary.py [--sets 2.2.0-dev,4.0.0-dev-spar] [--limit N]

Each possible clause match (test clause, gold clause, variable pairs) becomes a term of weight 1
over its one, two or three pairs.  A sum of terms is Counter's objective when no clause can match
two partners under one mapping; that fails only for a symmetric operator whose two orders are
both on one side, so pairs with such a clause are left out (counted).  Printed per set: pairs
compared, pairs left out, pairs whose optima are equal, and pairs either side did not certify.
The problems carry the label-count bound (``label_bound``): with the default ``inf`` the
portfolio raised OverflowError on the 5-sentence documents (``_relaxed_search``'s
``math.floor(upper + 1e-6)``), reported to the ternary work.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from compare_counter import repeated, sets  # noqa: E402
from experiment import machine_line, markdown_table  # noqa: E402
from peer_registry import COUNTER_HOME, COUNTER_VERSIONS  # noqa: E402


def as_problem(a, b):
    """The pair's clause matches as a Problem of unary, binary and ternary terms, or ``None``
    when a clause could match two partners at once (a sum of terms would count both)."""
    import numpy as np

    from smatchpp.alignment.problem import Problem
    from smatchpp.drs.exact import clause_matches, label_bound

    matches = clause_matches(a, b)
    seen: dict[tuple, set] = {}
    for ci, di, pairs in matches:
        for key in (("a", ci, pairs), ("b", di, pairs)):
            seen.setdefault(key, set()).add(di if key[0] == "a" else ci)
            if len(seen[key]) > 1:
                return None
    terms = {1: [], 2: [], 3: []}
    for _, _, pairs in matches:
        terms[len(pairs)].append([x for p in pairs for x in p] + [1.0])

    def cols(rows, arity):
        if not rows:
            return None
        return tuple(np.asarray([r[k] for r in rows], dtype=float if k == 2 * arity else np.int64)
                     for k in range(2 * arity + 1))

    return Problem.from_terms(len(a.types), len(b.types), unary=cols(terms[1], 1), binary=cols(terms[2], 2),
                              ternary=cols(terms[3], 3), label_bound=float(label_bound(a, b)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="2.2.0-dev,4.0.0-dev-spar")
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args(argv)
    from smatchpp.alignment.solvers import get_solver
    from smatchpp.drs import read_clf
    from smatchpp.drs.exact import solve
    from smatchpp.metrics import get_metric

    solver = get_solver("exact")
    known = sets(COUNTER_HOME / "data")
    rows = []
    with tempfile.TemporaryDirectory(prefix="counter-ternary-") as tmp:
        for name in args.sets.split(","):
            release, test, gold, spar = known[name][:4]
            commit, version, referee = COUNTER_VERSIONS[release]
            if spar:
                test = repeated(test, gold, Path(tmp))
            if len(known[name]) > 4:  # documents
                from compare_counter import concatenated

                k, limit = known[name][4]
                test, gold = concatenated(test, k, limit, Path(tmp)), concatenated(gold, k, limit, Path(tmp))
                referee = "none"
            m = get_metric("counter", signature_file=str(COUNTER_HOME / commit / "evaluation" / "clf_signature.yaml"),
                           version=version, referee=referee)
            compared = left_out = equal = uncertified = 0
            for a, b in list(zip(read_clf(test), read_clf(gold)))[:args.limit]:
                fa, fb = m.features(a), m.features(b)
                problem = as_problem(fa, fb)
                if problem is None:
                    left_out += 1
                    continue
                ours = solve(fa, fb)
                if problem.n_pairs == 0:
                    shared_lo = shared_hi = 0.0
                else:
                    got = solver.solve(problem, None, None)
                    shared_lo, shared_hi = got.objective, got.upper_bound
                compared += 1
                uncertified += (not ours.certified) + (shared_hi - shared_lo >= 1)
                equal += abs(shared_lo - ours.matched) < 1e-9 and ours.certified
            rows.append([name, compared, left_out, equal, uncertified])
    print(markdown_table(["set", "pairs compared", "left out (symmetric clause, two partners)",
                          "optimum equal", "uncertified (either)"], rows))
    print(machine_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())

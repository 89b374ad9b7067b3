"""The counter metric (its clauses compiled by smatchpp/alignment/clauses.py and solved by the
shared solvers, --solver exact by default) beside the cross-check MIP kept in
smatchpp/drs/exact.py (clause matches counted by a bipartite matching), pair by pair on
Counter's peer data.

    python3 experiments/check_counter_ternary.py [--sets 2.2.0-dev,4.0.0-dev-spar] [--limit N] [--solver exact]

Printed per set: pairs compared, pairs whose matched counts are equal and both certified, pairs
either side did not certify, pairs where the metric's mapping recounted by drs/exact.py's
count_matched differs from its own count, and each side's seconds.
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="2.2.0-dev,4.0.0-dev-spar")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--solver", default="exact")
    ap.add_argument("--compression", default="exact")
    args = ap.parse_args(argv)
    import time

    from smatchpp.drs import read_clf
    from smatchpp.drs.exact import count_matched, solve
    from smatchpp.metrics import get_metric

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
                           version=version, referee=referee, solver=args.solver, compression=args.compression)
            compared = equal = uncertified = recount = 0
            t_shared = t_mip = 0.0
            for a, b in list(zip(read_clf(test), read_clf(gold)))[:args.limit]:
                fa, fb = m.features(a), m.features(b)
                t0 = time.perf_counter()
                mip = solve(fa, fb)
                t1 = time.perf_counter()
                matched, upper, mapping, _ = m.solve(fa, fb)
                t_shared += time.perf_counter() - t1
                t_mip += t1 - t0
                compared += 1
                uncertified += (not mip.certified) + (upper > matched)
                equal += matched == mip.matched and mip.certified and upper == matched
                recount += count_matched(fa, fb, mapping) != matched
            rows.append([name, compared, equal, uncertified, recount, f"{t_shared:.1f}", f"{t_mip:.1f}"])
    print(markdown_table(["set", "pairs", "matched equal, both certified", "uncertified (either)",
                          "recount differs", "metric s", "drs MIP s"], rows))
    print(machine_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())

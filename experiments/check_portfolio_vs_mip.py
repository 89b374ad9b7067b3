"""The portfolio's optimum equals the plain MIPs' on every BAMBOO main-test pair.

The default ``exact`` solver (the portfolio: hill-climber, bounds, compression,
warm-started HiGHS MIP) runs once with ``--compression exact`` and once with
``--compression none``.  Each is compared with the plain MIPs: ``--solver highs
--compression none`` (no hill-climber, no bounds, no compression, no start: the
aggregated-linking model solved to proven optimality) and, with ``--cbc``, the
same model solved by CBC, an independent solver.

    python experiments/check_portfolio_vs_mip.py [--datasets sts sick para] [--cbc]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from smatchpp.api import Config, Scorer  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402

from experiment import BAMBOO  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["sts", "sick", "para"])
    ap.add_argument("--cbc", action="store_true", help="also compare with CBC (about 50 ms a pair)")
    args = ap.parse_args()
    portfolios = {"portfolio": Config(solver="exact"),
                  "portfolio, no compression": Config(solver="exact", compression="none")}
    references = {"plain HiGHS MIP": Config(solver="highs", compression="none")}
    if args.cbc:
        references["plain CBC MIP"] = Config(solver="cbc", compression="none")
    print("| dataset | pairs | run | identical matched with " + " / ".join(references)
          + " | certified optimal | s |")
    print("|---|---|---|---|---|---|")
    for name in args.datasets:
        a = read_file(BAMBOO / name / "main" / "src.test.amr")
        b = read_file(BAMBOO / name / "main" / "tgt.test.amr")
        runs = {}
        for label, config in {**portfolios, **references}.items():
            began = time.perf_counter()
            runs[label] = (Scorer(config).score_corpus(a, b).pairs, time.perf_counter() - began)
        n = len(a)
        for label, (pairs, seconds) in runs.items():
            same = " / ".join(
                f"{sum(x.matched == y.matched for x, y in zip(pairs, runs[ref][0]))}/{n}"
                for ref in references)
            certified = sum(x.status == "optimal" for x in pairs)
            print(f"| {name} | {n} | {label} | {same} | {certified}/{n} | {seconds:.1f} |", flush=True)
        for label in portfolios:
            for ref in references:
                for x, y in zip(runs[label][0], runs[ref][0]):
                    if x.matched != y.matched:
                        print(f"  differs: {name} pair {x.index}: {label} {x.matched}, {ref} {y.matched}")


if __name__ == "__main__":
    main()

"""The portfolio's optimum equals the plain HiGHS MIP's on every BAMBOO main-test pair.

The plain MIP is ``--solver highs --compression none``: no hill-climber, no
bounds, no compression, just the aggregated-linking model solved to proven
optimality.  The portfolio is the default ``exact`` solver.

    python experiments/check_portfolio_vs_mip.py [--datasets sts sick para]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from smatchpp.api import Config, Scorer  # noqa: E402
from smatchpp.read import read_file  # noqa: E402

BAMBOO = HERE.parent.parent / "shared" / "data" / "bamboo"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--datasets", nargs="+", default=["sts", "sick", "para"])
    args = ap.parse_args()
    print("| dataset | pairs | identical matched | both certified optimal | s portfolio | s plain MIP |")
    print("|---|---|---|---|---|---|")
    for name in args.datasets:
        a = read_file(BAMBOO / name / "main" / "src.test.amr")
        b = read_file(BAMBOO / name / "main" / "tgt.test.amr")
        runs = []
        for config in (Config(solver="exact"), Config(solver="highs", compression="none")):
            began = time.perf_counter()
            runs.append((Scorer(config).score_corpus(a, b), time.perf_counter() - began))
        (exact, t_exact), (mip, t_mip) = runs
        same = sum(x.matched == y.matched for x, y in zip(exact.pairs, mip.pairs))
        both = sum(x.status == y.status == "optimal" for x, y in zip(exact.pairs, mip.pairs))
        print(f"| {name} | {len(exact.pairs)} | {same}/{len(exact.pairs)} | {both}/{len(exact.pairs)} "
              f"| {t_exact:.1f} | {t_mip:.1f} |", flush=True)
        for x, y in zip(exact.pairs, mip.pairs):
            if x.matched != y.matched:
                print(f"  differs: {name} pair {x.index}: portfolio {x.matched}, MIP {y.matched}")


if __name__ == "__main__":
    main()

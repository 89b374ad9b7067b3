"""Time to build an explain report: scoring + explanation, then the HTML, per number of pairs.

    python3 experiments/bench_explain.py [--set para] [--sizes 100,1000] [--workers 1] [--out report.html]

Prints a table: pairs, seconds to score the pairs alone (the exact solver, as
``smatchpp score``), seconds to explain them (score + hill-climber + matched
triples), seconds to write the HTML, and the file's size.  Reads BAMBOO from
``../shared`` (beside the repository, or ``SMATCHPP_SHARED``).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from smatchpp.api import Config, Scorer  # noqa: E402
from smatchpp.explain import explain_entries  # noqa: E402
from smatchpp.explain.html import write_report  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402

from experiment import SHARED, add_workers  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="para", choices=("para", "sts", "sick"))
    ap.add_argument("--sizes", default="100,1000")
    add_workers(ap)
    ap.add_argument("--out", default=None, help="keep the largest report here")
    args = ap.parse_args()
    base = SHARED / "data" / "bamboo" / args.set / "main"
    a, b = read_file(base / "src.test.amr"), read_file(base / "tgt.test.amr")
    config = Config()
    Scorer(config).score_corpus(a[:5], b[:5])  # warm-up: imports, HiGHS
    print(f"BAMBOO {args.set}, {args.workers} worker(s)")
    print("wall seconds (CPU seconds of this process in brackets; with 1 worker they are the work)")
    print(f"{'pairs':>6} {'score s':>14} {'explain s':>14} {'html s':>14} {'explain+html s':>15} {'MB':>6}")
    for n in [int(x) for x in args.sizes.split(",")]:
        t0, c0 = time.perf_counter(), time.process_time()
        Scorer(config).score_corpus(a[:n], b[:n], workers=args.workers)
        t1, c1 = time.perf_counter(), time.process_time()
        es = explain_entries(a, b, config, indices=list(range(min(n, len(a)))), workers=args.workers)
        t2, c2 = time.perf_counter(), time.process_time()
        with tempfile.TemporaryDirectory() as tmp:
            path = args.out or os.path.join(tmp, "report.html")
            write_report(path, es, title=f"BAMBOO {args.set}: first {n} pairs")
            t3, c3 = time.perf_counter(), time.process_time()
            size = os.path.getsize(path) / 1e6
        cell = lambda w, c: f"{w:.1f} ({c:.1f})"  # noqa: E731
        print(f"{len(es):6d} {cell(t1 - t0, c1 - c0):>14} {cell(t2 - t1, c2 - c1):>14} "
              f"{cell(t3 - t2, c3 - c2):>14} {cell(t3 - t1, c3 - c1):>15} {size:6.1f}")


if __name__ == "__main__":
    main()

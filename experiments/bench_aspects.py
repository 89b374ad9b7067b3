"""What ``--aspects`` costs: scoring time with aspects over plain scoring, BAMBOO main test.

    python3 experiments/bench_aspects.py [--sets sts sick para] [--limit N] [--repeats 1] [--data DIR]

For every set, in this one process and one pair at a time (``workers=1``), the
corpus is scored plain, with ``--aspects separate`` and with ``--aspects
joint`` (``Scorer(Config(aspects=...)).score_corpus``: reading excluded,
standardization, solving and aspects included).  With ``--repeats R`` the
three runs are interleaved R times and each keeps its best time.  The table
gives the times, their ratios to plain scoring, and checks that the aspect
runs' main score is the plain run's.  Times depend on the machine's load.
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

from experiment import add_data, add_repeats, BAMBOO as DATA  # noqa: E402
MODES = ("none", "separate", "joint")


def timed(entries_a, entries_b, mode):
    scorer = Scorer(Config(aspects=mode))
    began = time.perf_counter()
    corpus = scorer.score_corpus(entries_a, entries_b, workers=1)
    return time.perf_counter() - began, corpus


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=["sts", "sick", "para"])
    ap.add_argument("--limit", type=int, help="first N pairs of each set")
    add_repeats(ap, 1)
    add_data(ap, DATA, "BAMBOO directory (default: ../shared beside the repo)")
    args = ap.parse_args()
    print(f"{'set':5s} {'pairs':>6s} {'plain s':>8s} {'separate s':>10s} {'ratio':>6s} "
          f"{'joint s':>8s} {'ratio':>6s}  main score equal")
    for name in args.sets:
        a = read_file(args.data / name / "main" / "src.test.amr")[:args.limit]
        b = read_file(args.data / name / "main" / "tgt.test.amr")[:args.limit]
        timed(a[:20], b[:20], "separate")  # warm up imports and HiGHS
        best = dict.fromkeys(MODES, float("inf"))
        corpora = {}
        for _ in range(args.repeats):
            for mode in MODES:
                seconds, corpora[mode] = timed(a, b, mode)
                best[mode] = min(best[mode], seconds)
        plain = best["none"]
        same = all([p.matched for p in corpora[m].pairs] == [p.matched for p in corpora["none"].pairs]
                   for m in MODES[1:])
        print(f"{name:5s} {len(a):6d} {plain:8.2f} {best['separate']:10.2f} {best['separate'] / plain:6.2f} "
              f"{best['joint']:8.2f} {best['joint'] / plain:6.2f}  {same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

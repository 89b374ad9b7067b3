"""The cost of ``--bootstrap 1000`` on BAMBOO, as a ratio to plain scoring in the same run.

For each BAMBOO main test set (and for all 8036 pairs as one corpus), in this
process: score every pair with the default ``exact`` solver (timed, reading
excluded), then compute the 95% bootstrap intervals of micro and macro P/R/F1
with 1000 resamples from the pairs' counts (timed), which is what
``smatchpp score --bootstrap 1000`` adds.  The last column times what
``compare`` adds to its two scoring runs: the paired bootstrap (1000
resamples) and approximate randomization (10000 trials), here of the corpus
against its hill-climber scores (our climber, 4 restarts, seed 1).

    python3 experiments/bench_bootstrap.py [--workers 1] [--resamples 1000] [--repeats 3]

The shared data is ``../shared`` beside the repository (``SMATCHPP_SHARED``
overrides it).  Wall times on a shared machine vary; the statistics are timed
best of ``--repeats``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from smatchpp.api import Config, Scorer  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402
from smatchpp.statistics.significance import PairStats, bootstrap, compare  # noqa: E402

from experiment import BAMBOO as DATA, add_repeats, add_workers  # noqa: E402
SETS = ("sts", "sick", "para")


def best_of(repeats: int, fn):
    times, result = [], None
    for _ in range(repeats):
        began = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - began)
    return min(times), result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_workers(ap)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--trials", type=int, default=10000)
    add_repeats(ap, 3, "best of this many for the statistics")
    args = ap.parse_args()
    if not DATA.is_dir():
        sys.exit(f"shared data not found at {DATA}")
    exact = Scorer(Config())
    climber = Scorer(Config(solver="hillclimber", compression="none"))
    rows, all_exact, all_climber, total_score = [], [], [], 0.0
    for name in SETS:
        a = read_file(DATA / name / "main" / "src.test.amr")
        b = read_file(DATA / name / "main" / "tgt.test.amr")
        began = time.perf_counter()
        corpus = exact.score_corpus(a, b, workers=args.workers)
        seconds = time.perf_counter() - began
        total_score += seconds
        stats = PairStats.from_pairs(corpus.scored)
        heuristic = PairStats.from_pairs(climber.score_corpus(a, b, workers=args.workers).scored)
        all_exact += corpus.scored
        all_climber.append(heuristic)
        rows.append((name, stats, heuristic, seconds))
    merged_climber = PairStats(*(sum((list(getattr(s, k)) for s in all_climber), [])
                                 for k in ("matched", "upper", "test", "gold")))
    rows.append(("all", PairStats.from_pairs(all_exact), merged_climber, total_score))

    print(f"workers: {args.workers}; bootstrap: {args.resamples} resamples; compare: "
          f"{args.resamples} resamples + {args.trials} AR trials; statistics best of {args.repeats}")
    print()
    print("| set | pairs | scoring s | --bootstrap s | ratio bootstrap / scoring | micro F1 | 95% interval "
          "| compare statistics s (exact vs hill-climber) | p bootstrap, p AR |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, stats, heuristic, seconds in rows:
        t_boot, ci = best_of(args.repeats, lambda: bootstrap(stats, args.resamples))
        t_cmp, c = best_of(args.repeats, lambda: compare(stats, heuristic, args.resamples, args.trials))
        lo, hi = ci.lower.micro["f1"]
        print(f"| {name} | {stats.n} | {seconds:.1f} | {t_boot:.3f} | {t_boot / seconds:.3f} "
              f"| {100 * stats.micro()[2]:.2f} | [{100 * lo:.2f}, {100 * hi:.2f}] | {t_cmp:.2f} "
              f"| {c.p_bootstrap:.4f}, {c.p_randomization:.4f} |")


if __name__ == "__main__":
    main()

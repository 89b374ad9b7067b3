"""``score --metric NAME`` with 1 and 2 workers on many Little Prince pairs: wall and CPU time.

    python3 experiments/bench_metric_workers.py [--pairs 100000] [--rounds 3] [--metrics wlk,rematch]
                                                [--pairs-out] [--bank PATH]

Builds two files of ``--pairs`` graphs drawn with replacement (seed 0) from the Little
Prince AMR bank (``../shared/data/little-prince``, each graph that reads alone) in a
temporary folder, then runs ``python3 -m smatchpp score A B --metric NAME --workers W
--quiet`` of this checkout, alternating the order of the worker counts round by round.
For each run: wall seconds and CPU seconds (user + system of the command and the pool
workers it waited for, ``os.wait4``).  Prints the load average before and after (the
machine may be shared: wall times swing with its load, CPU times less), and a Markdown
table of medians with the speed-up (wall with 1 worker / wall with 2), plus one run's
phases in this process (reading the two files; features and statistics of every pair),
which bound the speed-up: reading the files stays in the parent.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BANK = ROOT.parent / "shared" / "data" / "little-prince" / "amr-bank-struct-v3.0.txt"


def build(folder: Path, pairs: int, bank: Path) -> tuple[Path, Path]:
    sys.path.insert(0, str(ROOT))
    from smatchpp.graphs.read import read_text

    blocks = [b.strip() for b in bank.read_text(encoding="utf-8").split("\n\n")]
    blocks = [b for b in blocks if "(" in b and len(got := read_text(b)) == 1 and got[0].graph is not None]
    rng = random.Random(0)
    a, b = folder / "a.amr", folder / "b.amr"
    with open(a, "w", encoding="utf-8") as fa, open(b, "w", encoding="utf-8") as fb:
        for _ in range(pairs):
            fa.write(rng.choice(blocks) + "\n\n")
            fb.write(rng.choice(blocks) + "\n\n")
    return a, b


def measured(argv: list[str]) -> tuple[float, float]:
    began = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {os.waitstatus_to_exitcode(status)}\n{proc.stderr.read().decode()}")
    return time.perf_counter() - began, usage.ru_utime + usage.ru_stime


def phases(a: Path, b: Path, metric: str) -> tuple[float, float]:
    from smatchpp.metrics import get_metric
    from smatchpp.graphs.read import read_file

    began = time.process_time()
    ea, eb = read_file(a), read_file(b)
    read = time.process_time() - began
    m = get_metric(metric)
    began = time.process_time()
    for x, y in zip(ea, eb):
        m.stats(m.features(x.graph), m.features(y.graph))
    return read, time.process_time() - began


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--metrics", default="wlk,rematch")
    ap.add_argument("--pairs-out", action="store_true", help="also write --pairs-out /dev/null")
    ap.add_argument("--bank", type=Path, default=BANK, help=f"the Little Prince AMR bank (default {BANK})")
    args = ap.parse_args()
    if not args.bank.exists():
        raise SystemExit(f"missing {args.bank}: the shared data is needed")
    print(f"load average before: {os.getloadavg()}; cores: {len(os.sched_getaffinity(0))}", flush=True)
    seen: dict[tuple[str, int], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-metric-workers-") as tmp:
        a, b = build(Path(tmp), args.pairs, args.bank)
        extra = ["--pairs-out", os.devnull] if args.pairs_out else []
        cut = {}
        for metric in args.metrics.split(","):
            cut[metric] = phases(a, b, metric)
            for r in range(args.rounds):
                for w in (1, 2) if r % 2 == 0 else (2, 1):
                    wall, cpu = measured([sys.executable, "-m", "smatchpp", "score", str(a), str(b),
                                          "--metric", metric, "--workers", str(w), "--quiet", *extra])
                    seen.setdefault((metric, w), []).append((wall, cpu))
                    print(f"round {r}: {metric} --workers {w}: wall {wall:.2f} s, CPU {cpu:.2f} s",
                          file=sys.stderr, flush=True)
    print(f"load average after: {os.getloadavg()}\n")
    med = statistics.median
    print(f"{args.pairs} pairs, medians of {args.rounds} rounds" + (", with --pairs-out /dev/null" if extra else ""))
    print("| metric | wall 1 worker | wall 2 workers | speed-up | CPU 1 worker | CPU 2 workers | "
          "read (1 process) | features+stats (1 process) |")
    print("|---|---|---|---|---|---|---|---|")
    for metric in args.metrics.split(","):
        one, two = seen[(metric, 1)], seen[(metric, 2)]
        w1, w2 = med(x[0] for x in one), med(x[0] for x in two)
        c1, c2 = med(x[1] for x in one), med(x[1] for x in two)
        print(f"| {metric} | {w1:.2f} | {w2:.2f} | {w1 / w2:.2f}x | {c1:.2f} | {c2:.2f} | "
              f"{cut[metric][0]:.2f} | {cut[metric][1]:.2f} |")


if __name__ == "__main__":
    main()

"""``score --metric NAME`` with 1 and 2 workers on many Little Prince pairs: wall, CPU, memory.

    python3 experiments/bench_metric_workers.py [--pairs 100000] [--rounds 3] [--metrics wlk,rematch]
                                                [--no-pairs-out] [--bank PATH] [--keep DIR]

Builds two files of ``--pairs`` graphs drawn with replacement (seed 0) from the Little
Prince AMR bank (``../shared/data/little-prince``, or ``$SMATCHPP_SHARED/data/...``; each
graph that reads alone) in a temporary folder, then runs ``python3 -m smatchpp score A B
--metric NAME --workers W --quiet --pairs-out FILE`` of this checkout, alternating the
order of the worker counts round by round.  For each run: wall seconds, CPU seconds (user +
system of the command and the workers it waited for) and peak memory (the largest single
process: ``ru_maxrss`` of ``os.wait4``, which covers the waited-for workers).  Checks that
every run wrote the same pairs file and summary, byte for byte, as the first run with one
worker; prints the load average before and after (the machine may be shared: wall times
swing with its load, CPU times less) and a Markdown table of medians, with the speed-up
(median wall with 1 worker / median wall with 2).  Beside it, the wall time an idle
machine would take, from the processes' CPU times sampled in /proc (:func:`idle_wall`):
on a machine that others load, the measured wall times are the scheduler's.
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
sys.path.insert(0, str(HERE))
from experiment import LITTLE_PRINCE as BANK  # noqa: E402  ($SMATCHPP_SHARED overrides ../shared)


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


def _cpu(pid: int) -> float | None:
    """CPU seconds (user + system) ``pid`` has used so far, from Linux's /proc; ``None`` once gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


def measured(argv: list[str], out: Path, cores: int) -> tuple[float, float, float, float, bytes]:
    """Wall and CPU seconds, peak memory (MB), the wall an idle machine would take (see
    :func:`idle_wall`) and the standard output of ``argv``."""
    began = time.perf_counter()
    parent_at_start = parent_at_end = None  # the command's CPU when its workers appear, and last run
    workers: dict[int, float] = {}
    with open(out, "wb") as stdout:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=stdout, stderr=subprocess.PIPE)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            mine = _cpu(proc.pid)
            alive = False
            for child in _children(proc.pid):
                got = _cpu(child)
                if got is not None:
                    workers[child], alive = got, True
            if alive and mine is not None:
                if parent_at_start is None:
                    parent_at_start = mine
                parent_at_end = mine
            time.sleep(0.02)
    wall = time.perf_counter() - began
    err = proc.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {os.waitstatus_to_exitcode(status)}\n{err}")
    cpu = usage.ru_utime + usage.ru_stime
    idle = idle_wall(cpu, parent_at_start, parent_at_end, list(workers.values()), cores)
    return wall, cpu, usage.ru_maxrss / 1024, idle, out.read_bytes()


def idle_wall(cpu: float, before: float | None, until: float | None, workers: list[float], cores: int) -> float:
    """The wall time of a run on an idle machine of ``cores`` cores, from its processes' CPU
    times: the command's CPU ``before`` its workers started, then the workers' time (the
    longest worker's CPU, or all the CPU of that stretch spread over the cores, whichever is
    longer), then the command's CPU after them; without workers, its CPU time.  On a shared
    machine a run's wall time is the scheduler's; this is what the CPU times allow."""
    if before is None or not workers:
        return cpu
    parent = cpu - sum(workers)
    meanwhile = until - before
    return before + max(max(workers), (sum(workers) + meanwhile) / cores) + (parent - until)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=100000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--metrics", default="wlk,rematch")
    ap.add_argument("--no-pairs-out", action="store_true", help="do not write --pairs-out (summary only)")
    ap.add_argument("--bank", type=Path, default=BANK, help=f"the Little Prince AMR bank (default {BANK})")
    ap.add_argument("--keep", type=Path, help="build the two files in this folder and keep them")
    args = ap.parse_args()
    if not args.bank.exists():
        raise SystemExit(f"missing {args.bank}: the shared data is needed (SMATCHPP_SHARED)")
    cores = len(os.sched_getaffinity(0))
    print(f"load average before: {os.getloadavg()}; cores: {cores}", flush=True)
    seen: dict[tuple[str, int], list[tuple[float, float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-metric-workers-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        a, b = build(folder, args.pairs, args.bank)
        for metric in args.metrics.split(","):
            first = None
            for r in range(args.rounds):
                for w in (1, 2) if r % 2 == 0 else (2, 1):
                    pairs = Path(tmp) / f"pairs-{metric}-{w}.jsonl"
                    extra = [] if args.no_pairs_out else ["--pairs-out", str(pairs)]
                    wall, cpu, peak, idle, summary = measured(
                        [sys.executable, "-m", "smatchpp", "score", str(a), str(b), "--metric", metric,
                         "--workers", str(w), "--force-workers", "--quiet", *extra],
                        Path(tmp) / f"summary-{metric}-{w}.txt", cores)
                    written = (pairs.read_bytes() if not args.no_pairs_out else b"", summary)
                    if first is None:
                        first = written
                    elif written != first:
                        raise SystemExit(f"{metric} --workers {w}: the pairs file or the summary differs "
                                         "from the first run's")
                    seen.setdefault((metric, w), []).append((wall, cpu, peak, idle))
                    print(f"round {r}: {metric} --workers {w}: wall {wall:.2f} s, CPU {cpu:.2f} s, "
                          f"peak {peak:.0f} MB, idle-machine wall {idle:.2f} s", file=sys.stderr, flush=True)
    print(f"load average after: {os.getloadavg()}\n")
    med = statistics.median
    print(f"{args.pairs} pairs, medians of {args.rounds} rounds"
          + (", summary only" if args.no_pairs_out else ", with --pairs-out")
          + "; pairs file (if written) and summary identical in every run")
    print("| metric | workers | wall s | CPU s | peak MB | speed-up (wall) | idle-machine wall s | "
          "speed-up (idle-machine wall) |")
    print("|---|---|---|---|---|---|---|---|")
    for metric in args.metrics.split(","):
        w1 = med(x[0] for x in seen[(metric, 1)])
        i1 = med(x[3] for x in seen[(metric, 1)])
        for w in (1, 2):
            runs = seen[(metric, w)]
            wall, idle = med(x[0] for x in runs), med(x[3] for x in runs)
            print(f"| {metric} | {w} | {wall:.2f} | {med(x[1] for x in runs):.2f} | "
                  f"{med(x[2] for x in runs):.0f} | {'' if w == 1 else f'{w1 / wall:.2f}x'} | {idle:.2f} | "
                  f"{'' if w == 1 else f'{i1 / idle:.2f}x'} |")


if __name__ == "__main__":
    main()

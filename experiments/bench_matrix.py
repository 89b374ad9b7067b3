"""All-pairs throughput (issue 13): ``smatchpp matrix`` beside smatch 1.0.4 on the same pairs, in one run.

The first N graphs of The Little Prince, every pair ``i < j``:

* ours: ``smatchpp matrix FIRST_N.amr`` with 1 worker, 2 workers (process pool), 2 Dask
  workers of a LocalCluster that the command starts and stops, and 2 Dask workers of a
  running scheduler (``--dask ADDRESS``: a scheduler and two single-threaded workers with
  ``--preload smatchpp.running.distributed``, started before the timed command and stopped after it,
  as on a cluster), each a measured subprocess (wall time, peak RSS of the client and of the
  workers it started; a running scheduler's workers are not the client's, so not counted);
* the start-up of each of our rows: the same command on the first 2 graphs (1 pair), so that
  what splits between workers (the scoring) can be told from what does not (interpreter,
  imports, reading, loading the compiled kernels, a LocalCluster's start and stop, writing);
* the machine's own ceiling for 2 workers: two independent 1-worker runs started together
  (no shared work, no communication, each paying its own start-up in parallel); twice the
  1-worker time over their joint wall time is what two cores give this workload here (on this
  2-vCPU machine two busy processes can slow each other down: 1.5x to 2.4x in one session).
  A 2-worker run also has start-up that does not split, so it stays below this ceiling;
* smatch 1.0.4 (4 restarts, its default) on two parallel files that list the same pairs,
  through experiments/peers.py.

    python3 experiments/bench_matrix.py --graphs 150 [--repeat 3] [--skip-peer] [--skip-dask]

Before timing, smatchpp's modules are byte-compiled (``compileall``), as an installed package
has them: with ``PYTHONDONTWRITEBYTECODE`` set (this machine sets it) and no ``.pyc`` files,
every process would compile them again, about 0.15 s of each start-up here.

Prints two Markdown tables: pairs, seconds, pairs/s, ratio to smatch 1.0.4, peak MB,
certified; then each row's start-up and the speed-up of what is left (the scoring).
"""

from __future__ import annotations

import argparse
import os
from contextlib import nullcontext
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from peers import run_smatch104  # noqa: E402

from experiment import SHARED  # noqa: E402
LP = SHARED / "data" / "little-prince" / "amr-bank-struct-v3.0.txt"


def graphs(n: int) -> list[str]:
    text = LP.read_text(encoding="utf-8")
    blocks = [b.strip() for b in re.split(r"\n\s*\n", text)]
    # a graph has a line that is not a comment (the file starts with a comment-only header)
    blocks = [b for b in blocks if any(line.strip() and not line.lstrip().startswith("#")
                                       for line in b.splitlines())]
    return blocks[:n]


def measured(argv: list[str]) -> tuple[float, float, int]:
    """Wall seconds, peak RSS in MB (the largest of the process and its descendants), exit code."""
    began = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - began
    # wait4's usage covers this child and the descendants it waited for (pool workers, Dask
    # workers); RUSAGE_CHILDREN would also keep the peak of every earlier row
    return seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def measured_together(argvs: list[list[str]]) -> tuple[float, int]:
    """Wall seconds until every one of ``argvs`` (started at once) has finished; worst exit code."""
    began = time.perf_counter()
    procs = [subprocess.Popen(a, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for a in argvs]
    codes = [p.wait() for p in procs]
    return time.perf_counter() - began, max(codes, key=abs)


class RunningCluster:
    """A Dask scheduler and ``workers`` single-threaded, preloaded workers, each its own
    process on loopback (as ``dask scheduler`` and ``dask worker`` on a cluster)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.procs: list[subprocess.Popen] = []

    def __enter__(self) -> str:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        address = f"tcp://127.0.0.1:{port}"
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host",
                                            "127.0.0.1", "--port", str(port), "--dashboard-address", ":0"],
                                           **quiet))
        self.procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address,
                                            "--nworkers", str(self.workers), "--nthreads", "1", "--host",
                                            "127.0.0.1", "--dashboard-address", ":0", "--preload",
                                            "smatchpp.running.distributed"], **quiet))
        wait = ("import distributed, sys\n"
                "with distributed.Client(sys.argv[1], timeout=120) as c:\n"
                "    c.wait_for_workers(int(sys.argv[2]), timeout=120)\n")
        subprocess.run([sys.executable, "-c", wait, address, str(self.workers)], check=True, **quiet)
        time.sleep(1.0)  # the workers' first heartbeats settle
        return address

    def __exit__(self, *exc) -> None:
        for p in reversed(self.procs):
            p.terminate()
        for p in reversed(self.procs):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def byte_compile() -> None:
    """Write the ``.pyc`` files of smatchpp (see the module docstring)."""
    import compileall

    compileall.compile_dir(str(HERE.parent / "smatchpp"), quiet=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--graphs", type=int, default=150)
    ap.add_argument("--skip-peer", action="store_true")
    ap.add_argument("--skip-dask", action="store_true")
    ap.add_argument("--peer-timeout", type=float, default=3600)
    ap.add_argument("--repeat", type=int, default=1,
                    help="rounds of our rows (each row once per round); the table gives the median")
    args = ap.parse_args()
    gs = graphs(args.graphs)
    n = len(gs)
    byte_compile()
    pairs = n * (n - 1) // 2
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-matrix-") as tmp:
        first = Path(tmp, "first.amr")
        first.write_text("\n\n".join(gs) + "\n", encoding="utf-8")
        two = Path(tmp, "two.amr")
        two.write_text("\n\n".join(gs[:2]) + "\n", encoding="utf-8")
        # (label, options, on a running scheduler)
        runs = [("ours, 1 worker", ["--workers", "1"], False), ("ours, 2 workers", ["--workers", "2"], False)]
        if not args.skip_dask:
            runs.append(("ours, Dask 2 workers (LocalCluster)", ["--workers", "2", "--dask"], False))
            runs.append(("ours, Dask 2 workers (running scheduler)", ["--dask"], True))
        ceiling = "ceiling: two 1-worker runs at once, wall / 2"
        seen: dict[str, list] = {label: [] for label, *_ in runs + [(ceiling,)]}
        startup: dict[str, list] = {label: [] for label, *_ in runs}

        def ours(path: Path, out: Path, options: list[str]) -> list[str]:
            return [sys.executable, "-m", "smatchpp", "matrix", str(path), "-o", str(out), "--all", "--quiet",
                    *options]

        # rounds: every row once per round, so that a drift of the machine's speed meets all rows
        for _ in range(args.repeat):
            for label, options, running in runs:
                out = Path(tmp, "m.npz")
                with (RunningCluster(2) if running else nullcontext()) as address:
                    options = options + ([address] if running else [])
                    startup[label].append(measured(ours(two, Path(tmp, "s.npz"), options))[0])
                    seconds, mb, code = measured(ours(first, out, options))
                certified = int(np.load(out)["certified"][np.triu_indices(n, 1)].sum()) if code == 0 else 0
                seen[label].append((seconds, mb, certified, code))
            twice = [ours(first, Path(tmp, f"m{k}.npz"), ["--workers", "1"]) for k in (0, 1)]
            together, code = measured_together(twice)
            seen[ceiling].append((together / 2, None, None, code))
        for label, runs_seen in seen.items():
            times = sorted(r[0] for r in runs_seen)
            mbs = [r[1] for r in runs_seen if r[1] is not None]
            certs = [r[2] for r in runs_seen if r[2] is not None]
            rows.append((label, float(np.median(times)), max(mbs) if mbs else None,
                         min(certs) if certs else None, max((r[3] for r in runs_seen), key=abs), times))
        # speed-up of each row over 1 worker within a round (same machine state), then the median
        one_worker = [r[0] for r in seen["ours, 1 worker"]]
        speedups = {label: float(np.median([o / r[0] for o, r in zip(one_worker, runs_seen)]))
                    for label, runs_seen in seen.items() if label != "ours, 1 worker"}
        # the same for what is left after the start-up (the part that can split between workers)
        one_rest = [r[0] - s for r, s in zip(seen["ours, 1 worker"], startup["ours, 1 worker"])]
        rest = {label: [r[0] - s for r, s in zip(seen[label], startup[label])] for label in startup}
        if not args.skip_peer:
            a, b = Path(tmp, "a.amr"), Path(tmp, "b.amr")
            with open(a, "w", encoding="utf-8") as fa, open(b, "w", encoding="utf-8") as fb:
                for i in range(n):
                    for j in range(i + 1, n):
                        fa.write(gs[i] + "\n\n")
                        fb.write(gs[j] + "\n\n")
            peer = run_smatch104(a, b, timeout=args.peer_timeout)
            rows.append(("smatch 1.0.4 (4 restarts)", peer.wall_seconds, peer.peak_rss_mb or 0.0,
                         None, 0 if peer.status == "ok" else peer.status, [peer.wall_seconds]))
    base = next((r[1] for r in rows if r[0].startswith("smatch 1.0.4")), None)
    print(f"First {n} Little Prince graphs, {pairs} pairs (i < j)\n")
    print(f"Seconds: the median of {args.repeat} run(s); every run, sorted, in the last column\n")
    print("| tool | seconds | pairs/s | speed vs smatch 1.0.4 | peak MB | certified optimal | exit | runs (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for label, seconds, mb, certified, code, times in rows:
        ratio = f"{base / seconds:.2f}x" if base else "-"
        cert = "-" if certified is None else f"{certified}/{pairs}"
        peak = "-" if mb is None else f"{mb:.0f}"
        each = ", ".join(f"{t:.1f}" for t in times)
        print(f"| {label} | {seconds:.1f} | {pairs / seconds:.0f} | {ratio} | {peak} | {cert} | {code} | {each} |")
    print("\nspeed-up over 1 worker (median over rounds of the ratio within a round): "
          + ", ".join(f"{label} {x:.2f}x" for label, x in speedups.items()))
    print("\nStart-up: the same command on the first 2 graphs (1 pair); medians over rounds\n")
    print("| run | seconds | start-up (1 pair) | seconds - start-up | speed-up of seconds - start-up |")
    print("|---|---|---|---|---|")
    for label in startup:
        total = float(np.median([r[0] for r in seen[label]]))
        speed = float(np.median([o / r for o, r in zip(one_rest, rest[label])]))
        print(f"| {label} | {total:.2f} | {np.median(startup[label]):.2f} | {np.median(rest[label]):.2f} "
              f"| {speed:.2f}x |")


if __name__ == "__main__":
    main()

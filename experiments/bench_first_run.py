"""The README's first command on a fresh install: the time before the kernels are built.

    python3 experiments/bench_first_run.py [--runs 5] [--repo PATH]

Each round runs ``python3 -m smatchpp score examples/pred.amr examples/gold.amr``
from the source tree ``--repo`` (default: this repository) with an empty cache
directory (``SMATCHPP_CACHE``) and no ``__pycache__`` in the tree, as on a
machine where smatchpp was just installed; then it waits until no build of
the kernels holds the cache's lock (the background build the first run
started), and runs the same command again, with the module built.  Prints
every round and the medians; the outputs of the two runs must be equal.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMMAND = ["-m", "smatchpp", "score", "examples/pred.amr", "examples/gold.amr"]


def timed(repo: Path, cache: Path) -> tuple[float, str]:
    began = time.perf_counter()
    run = subprocess.run([sys.executable, *COMMAND], cwd=repo, capture_output=True, text=True,
                         env={**os.environ, "SMATCHPP_CACHE": str(cache)}, timeout=900)
    seconds = time.perf_counter() - began
    if run.returncode != 0:
        raise SystemExit(run.stderr)
    return seconds, run.stdout


def wait_for_builds(cache: Path) -> None:
    """Take every lock in the cache's kernels directory once: no build is left running."""
    for lock in sorted((cache / "kernels").glob("*.lock")):
        with open(lock, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--repo", type=Path, default=ROOT)
    args = ap.parse_args()
    first, later = [], []
    print("round  first run (s)  after the build (s)")
    for k in range(args.runs):
        for cached in args.repo.joinpath("smatchpp").rglob("__pycache__"):
            shutil.rmtree(cached)
        with tempfile.TemporaryDirectory() as tmp:
            cache = Path(tmp)
            seconds, out = timed(args.repo, cache)
            wait_for_builds(cache)
            seconds2, out2 = timed(args.repo, cache)
            if out != out2:
                raise SystemExit(f"the outputs differ:\n{out}\n{out2}")
        first.append(seconds)
        later.append(seconds2)
        print(f"{k + 1:5d}  {seconds:13.2f}  {seconds2:19.2f}")
    print(f"median {statistics.median(first):13.2f}  {statistics.median(later):19.2f}")


if __name__ == "__main__":
    main()

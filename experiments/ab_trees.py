"""The same ``smatchpp score`` command from several source trees, back to back, one process each.

An A/B on one machine: e.g. the code that produced an old table against main, so that a change
of machine speed is not read as a change of code.  Make the trees with ``git worktree add
--detach /tmp/old <commit>``; each runs as ``python3 -m smatchpp`` from its own directory.

    python3 experiments/ab_trees.py --tree bfe495a=/tmp/old --tree main=. \\
        ../shared/data/docs/lp-bart-doc50.pred.amr ../shared/data/docs/lp-bart-doc50.gold.amr \\
        --time-limit 60 --workers 1

Prints a Markdown table: per tree, each pair's time, status and interval, and the run's wall
time and peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", action="append", required=True, metavar="NAME=PATH")
    ap.add_argument("test")
    ap.add_argument("gold")
    args, options = ap.parse_known_args()
    print("| code | pair | pair s | status | matched [lower, upper] |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for k, spec in enumerate(args.tree):
            name, _, tree = spec.partition("=")
            out = Path(tmp) / f"pairs{k}.jsonl"
            began = time.perf_counter()
            proc = subprocess.Popen([sys.executable, "-m", "smatchpp", "score",
                                     str(Path(args.test).resolve()), str(Path(args.gold).resolve()),
                                     "--quiet", "--pairs-out", str(out), *options],
                                    cwd=tree, stdout=subprocess.DEVNULL)
            _, status, usage = os.wait4(proc.pid, 0)
            wall = time.perf_counter() - began
            for line in out.read_text().splitlines() if out.exists() else ():
                r = json.loads(line)
                print(f"| {name} | {r['index']} | {r['seconds']:.1f} | {r['status']} | "
                      f"[{r['lower']:g}, {r['upper']:g}] |")
            print(f"| {name} | all | wall {wall:.1f} s, peak {usage.ru_maxrss / 1024:.0f} MB, "
                  f"exit {os.waitstatus_to_exitcode(status)} | | |")


if __name__ == "__main__":
    main()

"""WLK's time and peak memory against the number of iterations K (issue 33, fault 1).

Runs ``python3 -m smatchpp score SRC TGT --metric wlk --wlk-iterations K --quiet`` under
``/usr/bin/time -v`` for each K and each checkout (``--before``: a checkout whose labels
are the full text, e.g. main at 5f211eb; ``--after``: this one), on BAMBOO STS main test
(1,380 pairs). Each run is bounded by ``--max-gb`` of address space (``ulimit -v``) and
``--timeout`` seconds, so that K = 20 before the fix ends in a MemoryError instead of the
machine's out-of-memory killer. Prints one table row per run: wall seconds, peak RSS (MB),
exit status, and the corpus score (equal before and after wherever both finish).

    python3 experiments/bench_wlk_iterations.py --before /work/main --after . [--ks 8,10,20]
        [--data /work/shared/data/bamboo/sts/main] [--max-gb 8] [--timeout 600]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path


def run(checkout: Path, k: int, data: Path, max_gb: float, timeout: float) -> dict:
    cmd = (f"ulimit -v {int(max_gb * 1024 * 1024)}; cd {checkout} && exec /usr/bin/time -v "
           f"{sys.executable} -m smatchpp score {data}/src.test.amr {data}/tgt.test.amr "
           f"--metric wlk --wlk-iterations {k} --quiet")
    try:
        p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"wall": f">{timeout:.0f}", "rss": "?", "status": "timeout", "score": ""}
    err = p.stderr
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", err)
    seconds = (int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 + float(wall.group(3))) if wall else float("nan")
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
    score = re.search(r"macro\s+score\s+([\d.]+)", p.stdout)
    status = "ok" if p.returncode == 0 else ("MemoryError" if "MemoryError" in err else f"exit {p.returncode}: {err.strip().splitlines()[0][:80] if err.strip() else ''}")
    return {"wall": f"{seconds:.1f}", "rss": f"{int(rss.group(1)) / 1024:.0f}" if rss else "?",
            "status": status, "score": score.group(1) if score else ""}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True)
    ap.add_argument("--after", type=Path, default=Path("."))
    ap.add_argument("--ks", default="8,10,20")
    ap.add_argument("--data", type=Path, default=Path("/work/shared/data/bamboo/sts/main"))
    ap.add_argument("--max-gb", type=float, default=8.0)
    ap.add_argument("--timeout", type=float, default=600.0)
    args = ap.parse_args()
    data = args.data.resolve()
    print("| checkout | K | wall s | peak RSS MB | status | macro score |")
    print("|---|---|---|---|---|---|")
    for k in (int(x) for x in args.ks.split(",")):
        for name, checkout in (("before", args.before), ("after", args.after)):
            r = run(checkout.resolve(), k, data, args.max_gb, args.timeout)
            print(f"| {name} | {k} | {r['wall']} | {r['rss']} | {r['status']} | {r['score']} |", flush=True)


if __name__ == "__main__":
    main()

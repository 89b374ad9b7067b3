"""Time and memory of ``smatchpp score --metric counter`` beside Counter's own command line, on
the same files, with 1 and 2 processes (Counter's ``-p``, our ``--workers``).

    bash experiments/setup_counter_peer.sh
    python3 experiments/bench_counter.py [--sets 2.2.0-dev,4.0.0-dev-spar] [--restarts 20] [--json out.json]

Counter runs as its users run it (``counter.py -f1 TEST -f2 GOLD -g clf_signature.yaml -r N -p
P``, in its checkout, with the peer's interpreter); ours as ``python -m smatchpp score --metric
counter`` with the release's settings (compare_counter.py's).  Each run is one process tree,
measured from outside: wall seconds (interpreter start included) and the peak resident memory
of its largest process (``wait4``'s ``ru_maxrss``; a pool's workers are measured each, not
summed).  Printed: a markdown table and the machine line (this machine is shared: compare
rows of one run, not runs).
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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare_counter import repeated, sets  # noqa: E402
from experiment import add_json, print_results  # noqa: E402
from peer_registry import COUNTER_HOME, COUNTER_VERSIONS, PEERS  # noqa: E402


def measured(argv: list[str], cwd: Path, env: dict | None = None) -> tuple[float, float, str]:
    """Wall seconds, peak RSS (MB) of the tree's largest process, and stdout of ``argv``."""
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        raise SystemExit(f"{argv[:3]} failed ({proc.returncode}):\n{text[-2000:]}")
    return wall, usage.ru_maxrss / 1024.0, text


def f_line(text: str) -> str:
    for line in text.splitlines():
        if line.startswith("F-score") or line.startswith("micro"):
            return line.split(":")[-1].strip() if line.startswith("F-score") else line.split("F1")[1].split()[0]
    return "?"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="2.2.0-dev,4.0.0-dev-spar")
    ap.add_argument("--restarts", type=int, default=20)
    add_json(ap)
    args = ap.parse_args(argv)
    known = sets(COUNTER_HOME / "data")
    rows = []
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    ours_env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    with tempfile.TemporaryDirectory(prefix="counter-bench-") as tmp:
        for name in args.sets.split(","):
            release, test, gold, spar = known[name][:4]
            if spar:
                test = repeated(test, gold, Path(tmp))
            commit, version, referee = COUNTER_VERSIONS[release]
            src = COUNTER_HOME / commit / "evaluation"
            for procs in (1, 2):
                wall, rss, out = measured([str(PEERS["counter"].python), "counter.py", "-f1", str(test), "-f2",
                                           str(gold), "-g", "clf_signature.yaml", "-r", str(args.restarts),
                                           "-p", str(procs)], src, env)
                rows.append([name, f"Counter -r {args.restarts} -p {procs}", f"{wall:.1f}", f"{rss:.0f}", f_line(out)])
                wall, rss, out = measured([sys.executable, "-m", "smatchpp", "score", "--metric", "counter",
                                           "--input-format", "clf", "--counter-signature-file",
                                           str(src / "clf_signature.yaml"), "--counter-version", version,
                                           "--counter-referee", referee, "--workers", str(procs),
                                           str(test), str(gold)], HERE.parent, ours_env)
                rows.append([name, f"ours --workers {procs}", f"{wall:.1f}", f"{rss:.0f}", f_line(out)])
                print(json.dumps(rows[-2:]), file=sys.stderr, flush=True)
    print_results(["set", "run", "wall s", "peak RSS MB (largest process)", "F1"], rows, rows, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""BAMBOO's Smatch row three ways: published, the reference tool run here, and exact under ``amr-suite``.

    bash experiments/setup_readers.sh     # amr-metric-suite's smatch, outside the repo (once)
    python3 experiments/bamboo_smatch_reference.py [--runs 3] [--cells sts/main ...] [--json out.json]

The published v0.2 Smatch row was made with ``flipz357/amr-metric-suite``
711a231's ``smatch.py --ms`` (a hill-climber with 4 random restarts, unseeded:
``random.seed()`` before each), one ``%.3f`` F1 per pair.  This runs that same
command (``python3 smatch.py -f src tgt --ms`` in the reader's folder,
``READERS_ROOT``, default ``~/.cache/reference-readers/amr-suite``) ``--runs``
times on each task, and puts each run's cells (the protocol of
``experiments/bamboo.py``) beside the published cell and beside ours: the exact
optimum on the same triples (``--preset amr-suite``), each pair's F1 rounded
to 3 decimals as the reference prints it.  Per pair it counts where a run of
the reference is below our optimum (its hill-climber stopped short) and above
it (never, if both read the same triples and ours is optimal).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bamboo  # noqa: E402
from experiment import add_data, add_json, add_workers  # noqa: E402

from smatchpp.api import Config, default_workers  # noqa: E402

SUITE = Path(os.environ.get("READERS_ROOT", Path.home() / ".cache" / "reference-readers")) / "amr-suite"


def reference_run(src: Path, tgt: Path, python: str) -> list[float]:
    """One run of the reference's ``smatch.py --ms``: the F1 it prints for every pair."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    proc = subprocess.run([python, "smatch.py", "-f", str(src), str(tgt), "--ms"], cwd=SUITE,
                          capture_output=True, text=True, check=False, env=env)
    if proc.returncode:
        sys.exit(f"reference failed on {src}: {proc.stderr[-1000:]}")
    return [float(x) for x in proc.stdout.split("\n") if x and not x.startswith("Document")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cells", nargs="+", default=list(bamboo.CELLS), choices=bamboo.CELLS)
    ap.add_argument("--preset", default="amr-suite")
    add_workers(ap, None)
    ap.add_argument("--python", default="python3", help="the interpreter for the reference")
    add_data(ap, bamboo.DATA)
    add_json(ap)
    args = ap.parse_args()
    config = Config(preset=args.preset)
    workers = args.workers or default_workers()
    published = dict(zip(bamboo.HEADERS, bamboo.PUBLISHED["Smatch"]))
    report = {}
    for cell in args.cells:
        src = args.data / cell / "src.test.amr"
        tgt = args.data / cell / "tgt.test.amr"
        ours = np.round(bamboo.pair_f1(config, src, tgt, workers), 3)
        runs = [np.array(reference_run(src, tgt, args.python)) for _ in range(args.runs)]
        if any(len(r) != len(ours) for r in runs):
            sys.exit(f"{cell}: the reference scored {[len(r) for r in runs]} pairs, ours {len(ours)}")
        header = bamboo.HEADERS[bamboo.CELLS.index(cell)]
        row = {"published": published[header], "ours": bamboo.cell_score(cell, ours, args.data),
               "reference_runs": [bamboo.cell_score(cell, r, args.data) for r in runs],
               "pairs": len(ours),
               "reference_below_ours": [int(np.sum(r < ours - 1e-9)) for r in runs],
               "reference_above_ours": [int(np.sum(r > ours + 1e-9)) for r in runs]}
        below = np.flatnonzero(runs[0] < ours - 1e-9)
        row["first_below"] = [(int(k), float(runs[0][k]), float(ours[k])) for k in below[:3]]
        report[cell] = row
        print(f"{cell}: published {row['published']:.2f}, ours {row['ours']:.2f}, reference runs "
              + ", ".join(f"{v:.2f}" for v in row["reference_runs"])
              + f"; pairs below ours {row['reference_below_ours']}, above {row['reference_above_ours']}",
              flush=True)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()

"""Pairs per second of SemBleu and SEMA, ours against the references, in one run.

    SEMBLEU_MIRROR=... SEMA_MIRROR=... python3 experiments/bench_sembleu_sema.py [--repeats 3] [--json out.json]

Workload: the 8,036 pairs of BAMBOO main test (STS, SICK and PARA ``main``
files concatenated; the target file is the first, hypothesis, side, as BAMBOO
scored SemBleu).  Every measurement is a fresh process, start-up and reading
included on both sides:

* the reference: ``experiments/sembleu_sema_peer_driver.py`` in the reference's
  checkout (SemBleu at the head 69ff2d4, k = 3; SEMA at 9a4911c), reading both
  files with the reference's reader and scoring pair by pair;
* ours: ``python3 -m smatchpp score TGT SRC --metric sembleu`` (and ``sema``,
  and ``sema --sema-reference-counting 9a4911c``), one process, no workers;
* the floor (``speed_floor.py``): ``python3 -c pass``, ``python3 -c "import numpy"``
  and the cheapest Python pass over the two files (read, split into blocks, one
  ``re.findall`` of tokens per file).

Every process uses cached byte code (``speed_floor.bytecode_env``; each command runs
once untimed first).  The runs are interleaved and repeated; the table gives the median
wall time, the median CPU time (user + system of the child: a fairer figure on a loaded
machine), pairs per second of wall time and the ratio reference / ours; then each
metric's target (the reference's CPU time / 10, issue 25) beside the floor.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from experiment import add_data, add_json, add_repeats  # noqa: E402
from peer_registry import PEERS, checkout, mirror_path  # noqa: E402
from speed_floor import bytecode_env, floor_commands  # noqa: E402

ROOT = HERE.parent


def concat(out_dir: Path, data: Path) -> tuple[Path, Path]:
    """The main test pairs of the three tasks in one file per side: (tgt, src)."""
    paths = []
    for side in ("tgt", "src"):
        blocks: list[str] = []
        for task in ("sts", "sick", "para"):
            text = (data / task / "main" / f"{side}.test.amr").read_text(encoding="utf-8")
            blocks += [b.strip() for b in text.split("\n\n") if b.strip()]
        path = out_dir / f"main_{side}.amr"
        path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=str(cwd), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env={**env, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def breakdown(data: Path, env: dict[str, str]) -> dict[str, float]:
    """CPU seconds of our steps on the same pairs: importing the CLI (a fresh process),
    reading both files, and each metric's features and statistics (with the cycle
    collector paused, as ``score --metric`` runs them)."""
    out: dict[str, float] = {}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", "import smatchpp.cli"], check=True,
                   env={**env, "PYTHONPATH": str(ROOT)})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out["python + import smatchpp.cli"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    from smatchpp.core.bulk import no_cycle_collection
    from smatchpp.metrics import get_metric
    from smatchpp.graphs.read import read_file
    with tempfile.TemporaryDirectory() as tmp:
        tgt, src = concat(Path(tmp), data)
        t = time.process_time()
        a, b = read_file(tgt), read_file(src)
        out["reading 16,072 graphs"] = time.process_time() - t
    for name, params in (("sembleu", {}), ("sema", {"reference_counting": "9a4911c"}), ("sema", {})):
        m = get_metric(name, **params)
        label = name + (" (reference counting)" if params else "")
        with no_cycle_collection():
            t = time.process_time()
            fa = [m.features(e.graph) for e in a]
            fb = [m.features(e.graph) for e in b]
            out[f"{label} features"] = time.process_time() - t
            t = time.process_time()
            for x, y in zip(fa, fb):
                m.stats(x, y)
            out[f"{label} stats"] = time.process_time() - t
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sembleu-mirror", help="git directory of SemBleu (else $SEMBLEU_MIRROR)")
    ap.add_argument("--sema-mirror", help="git directory of SEMA (else $SEMA_MIRROR)")
    add_data(ap)
    add_repeats(ap)
    add_json(ap)
    args = ap.parse_args(argv)
    sembleu = checkout(mirror_path(args.sembleu_mirror, "SEMBLEU_MIRROR"), "69ff2d4", "sembleu")
    sema = checkout(mirror_path(args.sema_mirror, "SEMA_MIRROR"), "9a4911c", "sema")
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as cache:
        tgt, src = concat(Path(tmp), args.data)
        pairs = 8036
        ours = [sys.executable, "-m", "smatchpp", "score", str(tgt), str(src), "--workers", "1"]
        runs = {
            "SemBleu k=3, reference 69ff2d4": (PEERS["sembleu"].argv([], "--ref", str(sembleu), "--ks", "3")
                                               + [str(tgt), str(src)], sembleu),
            "SemBleu k=3, ours": (ours + ["--metric", "sembleu"], ROOT),
            "SEMA, reference 9a4911c": (PEERS["sema"].argv([], "--ref", str(sema)) + [str(tgt), str(src)], sema),
            "SEMA, ours (reference counting 9a4911c)": (ours + ["--metric", "sema",
                                                                "--sema-reference-counting", "9a4911c"], ROOT),
            "SEMA, ours (default counting)": (ours + ["--metric", "sema"], ROOT),
        }
        runs.update({name: (cmd, ROOT) for name, cmd in floor_commands([tgt, src]).items()})
        env = bytecode_env(cache)
        for cmd, cwd in runs.values():  # untimed: fills the byte-code cache
            timed(cmd, cwd, env)
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
        for _ in range(args.repeats):
            for name, (cmd, cwd) in runs.items():
                times[name].append(timed(cmd, cwd, env))
        parts = breakdown(args.data, env)
    rows = {}
    for name, values in times.items():
        wall = statistics.median(w for w, _ in values)
        cpu = statistics.median(c for _, c in values)
        rows[name] = {"wall": wall, "cpu": cpu, "pairs_per_s": pairs / wall, "pairs_per_cpu_s": pairs / cpu,
                      "walls": [round(w, 3) for w, _ in values], "cpus": [round(c, 3) for _, c in values]}
    print(f"{pairs} pairs (BAMBOO main test), median of {args.repeats} interleaved runs; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print("| run | wall s | CPU s | pairs/s (wall) | pairs/s (CPU) |")
    print("|---|---:|---:|---:|---:|")
    for name, r in rows.items():
        rates = ("", "") if name.startswith("floor") else (f"{r['pairs_per_s']:.0f}", f"{r['pairs_per_cpu_s']:.0f}")
        print(f"| {name} | {r['wall']:.2f} | {r['cpu']:.2f} | {rates[0]} | {rates[1]} |")
    floor = rows[next(name for name in rows if name.startswith("floor: read"))]["cpu"]
    for metric, ref, mine in (("SemBleu", "SemBleu k=3, reference 69ff2d4", "SemBleu k=3, ours"),
                              ("SEMA", "SEMA, reference 9a4911c", "SEMA, ours (reference counting 9a4911c)"),
                              ("SEMA default", "SEMA, reference 9a4911c", "SEMA, ours (default counting)")):
        target = rows[ref]["cpu"] / 10
        print(f"{metric}: ours / reference speed {rows[ref]['wall'] / rows[mine]['wall']:.2f}x (wall), "
              f"{rows[ref]['cpu'] / rows[mine]['cpu']:.2f}x (CPU); target (reference / 10) {target:.2f} s CPU, "
              f"floor of a Python reader {floor:.2f} s CPU"
              + (": the floor is above the target" if floor > target else ""))
    print("where our CPU time goes (one process, seconds): " + ", ".join(f"{k} {v:.2f}" for k, v in parts.items()))
    if args.json:
        args.json.write_text(json.dumps({"pairs": pairs, "repeats": args.repeats, "rows": rows,
                                         "breakdown": parts}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

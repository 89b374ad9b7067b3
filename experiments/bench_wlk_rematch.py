"""Speed of WLK and REMATCH, ours beside the references, in one run.

1. BAMBOO main test (the 8,036 pairs of sts, sick and para main, concatenated with a
   blank line between files): each side is one process that starts, reads both files
   and scores every pair (the reference through ``wlk_rematch_peer_driver.py`` in its
   own venv, see ``peer_registry.py``; ours through the metric interface).  Wall
   time, CPU time (user + system of the process, less sensitive to a loaded machine)
   and pairs per second of each, medians of ``--repeats`` runs; ours also reports
   where its time goes (import, reading, features, statistics).  Ours is measured
   twice: through the metric interface, and as a user runs it, the command line
   ``python3 -m smatchpp score A B --metric NAME --pairs-out FILE`` (argument
   parsing, the parallel check, every pair's score written, the summary printed).
   The floor rows (``speed_floor.py``) run on the same two files: ``python3 -c pass``,
   ``python3 -c "import numpy"`` and the cheapest Python pass over them (read, split into
   blocks, one ``re.findall`` of tokens per file); each metric's target (the reference's CPU
   time / 10 for WLK, / 3 for REMATCH, issue 25) is printed beside that floor.  Every process
   uses cached byte code (``speed_floor.bytecode_env``; each command runs once untimed first).
2. All pairs of the 1,562 Little Prince graphs (1.22 M pairs) with each metric on one
   core: reading, features and the sparse all-pairs product (``stats_matrix``), wall
   and CPU time and peak memory (the process's own peak RSS).

    python3 experiments/bench_wlk_rematch.py [--repeats 3] [--json out.json]
        [--wlk-mirror PATH] [--rematch-mirror PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from speed_floor import bytecode_env, floor_commands  # noqa: E402
from experiment import BAMBOO as DATA, LITTLE_PRINCE, add_json, add_repeats  # noqa: E402
from peer_registry import PEERS, REMATCH_REF, WLK_REF, setup  # noqa: E402

ONE_CORE = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
#: the environment of every timed process (set in ``main``: cached byte code)
BASE_ENV: dict[str, str] = dict(os.environ)


def measure(argv: list[str], cwd: str | None = None, env: dict | None = None) -> dict:
    """Run ``argv``; its wall time, CPU time, peak RSS (MB) and standard output."""
    began = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, cwd=cwd, env=dict(BASE_ENV, **ONE_CORE, **(env or {})))
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - began
    if status != 0:
        raise SystemExit(f"{argv[:3]} failed with status {status}")
    return dict(wall=wall, cpu=usage.ru_utime + usage.ru_stime, rss_mb=usage.ru_maxrss / 1024,
                out=out.decode())


# --- what the child processes of ours run -----------------------------------------------------

def ours_pairs(metric_name: str, a: str, b: str) -> None:
    t0 = time.process_time()
    sys.path.insert(0, str(HERE.parent))
    from smatchpp.core.bulk import no_cycle_collection
    from smatchpp.metrics import get_metric
    from smatchpp.graphs.read import read_file
    t1 = time.process_time()
    ga = [e.graph for e in read_file(a)]
    gb = [e.graph for e in read_file(b)]
    t2 = time.process_time()
    m = get_metric(metric_name)
    with no_cycle_collection():  # as ``score --metric`` and ``Metric.score_graphs`` run them
        fa, fb = [m.features(x) for x in ga], [m.features(x) for x in gb]
        t3 = time.process_time()
        stats = [m.stats(x, y) for x, y in zip(fa, fb)]
        t4 = time.process_time()
    scores = [m.pair_scores(s)["score"] for s in stats]
    print(json.dumps(dict(pairs=len(scores), mean=sum(scores) / len(scores), import_s=t1 - t0,
                          read_s=t2 - t1, features_s=t3 - t2, stats_s=t4 - t3)))


def ours_all_pairs(metric_name: str, path: str) -> None:
    t0 = time.process_time()
    sys.path.insert(0, str(HERE.parent))
    from smatchpp.metrics import get_metric
    from smatchpp.graphs.read import read_file
    graphs = [e.graph for e in read_file(path)]
    t1 = time.process_time()
    m = get_metric(metric_name)
    feats = [m.features(g) for g in graphs]
    t2 = time.process_time()
    stats = m.stats_matrix(feats, feats)
    score = m.scores(stats)["score"]
    t3 = time.process_time()
    print(json.dumps(dict(graphs=len(graphs), pairs=int(score.size), mean=float(score.mean()),
                          read_s=t1 - t0, features_s=t2 - t1, matrix_s=t3 - t2)))


# --- the run ----------------------------------------------------------------------------------------

def concatenate(out_dir: Path) -> tuple[Path, Path]:
    files = []
    for side in ("src", "tgt"):
        path = out_dir / f"main_{side}.amr"
        with open(path, "w", encoding="utf-8") as handle:
            for dataset in ("sts", "sick", "para"):
                handle.write((DATA / dataset / "main" / f"{side}.test.amr").read_text(encoding="utf-8"))
                handle.write("\n\n")
        files.append(path)
    return files[0], files[1]


def median_run(argv, repeats, **kw) -> dict:
    measure(argv, **kw)  # untimed: fills the byte-code cache
    runs = [measure(argv, **kw) for _ in range(repeats)]
    return dict(wall=statistics.median(r["wall"] for r in runs), cpu=statistics.median(r["cpu"] for r in runs),
                rss_mb=max(r["rss_mb"] for r in runs), out=runs[-1]["out"],
                walls=[round(r["wall"], 2) for r in runs], cpus=[round(r["cpu"], 2) for r in runs])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_repeats(p)
    p.add_argument("--wlk-mirror", default=None)
    p.add_argument("--rematch-mirror", default=None)
    add_json(p)
    p.add_argument("--ours", nargs=3, metavar=("METRIC", "A", "B"), help=argparse.SUPPRESS)
    p.add_argument("--all-pairs", nargs=2, metavar=("METRIC", "FILE"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.ours:
        ours_pairs(*args.ours)
        return 0
    if args.all_pairs:
        ours_all_pairs(*args.all_pairs)
        return 0
    setup(WLK_REF, args.wlk_mirror)
    setup(REMATCH_REF, args.rematch_mirror)
    result: dict = {"bamboo_main": {}, "little_prince_all_pairs": {}, "floor": {}}
    cache = tempfile.TemporaryDirectory()  # the byte code of every timed process
    BASE_ENV.clear()
    BASE_ENV.update(bytecode_env(cache.name))
    try:
        return run_all(args, result)
    finally:
        cache.cleanup()


def run_all(args: argparse.Namespace, result: dict) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        a, b = concatenate(Path(tmp))
        print("| metric | side | pairs | wall s (median) | CPU s (median) | pairs/s (wall) | pairs/s (CPU) | "
              "ours: import / read / features / stats CPU s |")
        print("|---|---|---|---|---|---|---|---|")
        for name, ref in (("wlk", WLK_REF), ("rematch", REMATCH_REF)):
            theirs = median_run(PEERS[name].argv([a, b]),
                                args.repeats, cwd=str(ref.directory), env={"PYTHONHASHSEED": "0"})
            ours = median_run([sys.executable, str(Path(__file__).resolve()), "--ours", name, str(a), str(b)],
                              args.repeats)
            cli = median_run([sys.executable, "-m", "smatchpp", "score", str(a), str(b), "--metric", name,
                              "--pairs-out", str(Path(tmp) / f"{name}.jsonl")], args.repeats,
                             cwd=str(HERE.parent), env={"PYTHONPATH": str(HERE.parent)})
            line = json.loads(ours["out"])
            ref_out = json.loads(theirs["out"].splitlines()[-1])
            n = line["pairs"]
            n_ref = len(ref_out.get("scores", ref_out.get("pairs", [])))
            n_cli = sum(1 for _ in open(Path(tmp) / f"{name}.jsonl", encoding="utf-8"))
            row = {}
            for side, run, count in (("reference", theirs, n_ref), ("ours", ours, n), ("ours_cli", cli, n_cli)):
                row[side] = dict(pairs=count, wall=run["wall"], cpu=run["cpu"], walls=run["walls"], cpus=run["cpus"],
                                 pairs_per_s_wall=count / run["wall"], pairs_per_s_cpu=count / run["cpu"])
                detail = (f"{line['import_s']:.2f} / {line['read_s']:.2f} / {line['features_s']:.2f} / "
                          f"{line['stats_s']:.2f}" if side == "ours" else "")
                print(f"| {name} | {side} | {count} | {run['wall']:.2f} | {run['cpu']:.2f} | "
                      f"{count / run['wall']:,.0f} | {count / run['cpu']:,.0f} | {detail} |", flush=True)
            row["ours_breakdown"] = line
            row["speedup_wall"] = theirs["wall"] / ours["wall"]
            row["speedup_cpu"] = theirs["cpu"] / ours["cpu"]
            row["speedup_cli_wall"] = theirs["wall"] / cli["wall"]
            row["speedup_cli_cpu"] = theirs["cpu"] / cli["cpu"]
            result["bamboo_main"][name] = row
        for name, argv_ in floor_commands([a, b]).items():
            run = median_run(argv_, args.repeats)
            result["floor"][name] = dict(wall=run["wall"], cpu=run["cpu"], walls=run["walls"], cpus=run["cpus"])
            print(f"| {name} | | | {run['wall']:.2f} | {run['cpu']:.2f} | | | |", flush=True)
        floor = result["floor"][next(n for n in result["floor"] if n.startswith("floor: read"))]["cpu"]
        for name, factor in (("wlk", 10), ("rematch", 3)):
            r = result["bamboo_main"][name]
            target = r["reference"]["cpu"] / factor
            r["target_cpu"] = target
            print(f"{name}: speed-up over the reference, pairs per second: metric interface "
                  f"{r['speedup_wall']:.1f}x wall, {r['speedup_cpu']:.1f}x CPU; command line "
                  f"{r['speedup_cli_wall']:.1f}x wall, {r['speedup_cli_cpu']:.1f}x CPU; target (reference / "
                  f"{factor}) {target:.2f} s CPU, floor of a Python reader {floor:.2f} s CPU"
                  + (": the floor is above the target" if floor > target else ""))
    if LITTLE_PRINCE.exists():
        print("\n| metric | graphs | pairs | wall s | CPU s | read / features / matrix CPU s | peak RSS MB |")
        print("|---|---|---|---|---|---|---|")
        for name in ("wlk", "rematch"):
            run = median_run([sys.executable, str(Path(__file__).resolve()), "--all-pairs", name, str(LITTLE_PRINCE)],
                             args.repeats)
            line = json.loads(run["out"])
            result["little_prince_all_pairs"][name] = dict(line, wall=run["wall"], cpu=run["cpu"],
                                                           rss_mb=run["rss_mb"], walls=run["walls"])
            print(f"| {name} | {line['graphs']} | {line['pairs']:,} | {run['wall']:.2f} | {run['cpu']:.2f} | "
                  f"{line['read_s']:.2f} / {line['features_s']:.2f} / {line['matrix_s']:.2f} | {run['rss_mb']:.0f} |",
                  flush=True)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

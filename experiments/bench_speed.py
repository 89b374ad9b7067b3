"""Speed and memory of exact Smatch beside the peers, on BAMBOO and on document graphs.

One run, one machine, every tool as a measured subprocess (wall time with
interpreter start, peak RSS of the process and its workers):

* ours with 1 worker and with all workers (``--time-limit`` per pair on documents);
* smatch 1.0.4 (hill-climber, its defaults) and PyPI smatchpp 1.8 ``-solver ilp``,
  from their own venv (``bash experiments/setup_peers.sh``), under a time and a
  memory cap; a peer that hits a cap is reported as such.

    python experiments/bench_speed.py [--sets sts sick para doc5 doc20 doc50 doc100]
        [--time-limit 60] [--peer-timeout 600] [--peer-mem-mb 8000] [--skip-peers]

Besides the table it prints, per document set, our per-pair seconds (median
and max), the F1 interval widths, and whether every pair was certified.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import peers  # noqa: E402

from smatchpp.alignment.score import prf  # noqa: E402

from experiment import DATA  # noqa: E402
SETS = {
    "sts": (DATA / "bamboo/sts/main/src.test.amr", DATA / "bamboo/sts/main/tgt.test.amr"),
    "sick": (DATA / "bamboo/sick/main/src.test.amr", DATA / "bamboo/sick/main/tgt.test.amr"),
    "para": (DATA / "bamboo/para/main/src.test.amr", DATA / "bamboo/para/main/tgt.test.amr"),
    **{f"doc{n}": (DATA / f"docs/lp-bart-doc{n}.pred.amr", DATA / f"docs/lp-bart-doc{n}.gold.amr")
       for n in (5, 20, 50, 100)},
}


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.2f}"


def _cell(run: peers.PeerRun) -> tuple[str, str, str, str]:
    """wall, memory, F1, certified for one run; a capped run says so."""
    if run.status != "ok":
        done = len(run.pairs)
        return (f"{run.status} after {run.wall_seconds:.0f} s ({done} pairs done)",
                f"{run.peak_rss_mb:.0f}" if run.peak_rss_mb else "-", "-", "-")
    certified = "-"
    if run.pairs and "status" in run.pairs[0]:
        certified = f"{sum(p['status'] == 'optimal' for p in run.pairs)}/{len(run.pairs)}"
    elif run.pairs and "lower" in run.pairs[0] and "upper" in run.pairs[0]:
        ok = sum(p.get("lower") is not None and p.get("lower") == p.get("upper") for p in run.pairs)
        certified = f"{ok}/{len(run.pairs)}"
    return (f"{run.wall_seconds:.1f}", f"{run.peak_rss_mb:.0f}" if run.peak_rss_mb else "-",
            _pct(run.f1), certified)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=list(SETS), choices=list(SETS))
    ap.add_argument("--time-limit", type=float, default=60.0,
                    help="our per-pair time limit on document graphs (seconds)")
    ap.add_argument("--peer-timeout", type=float, default=600.0, help="cap per peer run (seconds)")
    ap.add_argument("--peer-mem-mb", type=int, default=8000, help="address-space cap per peer run")
    ap.add_argument("--skip-peers", action="store_true")
    args = ap.parse_args()
    cores = len(os.sched_getaffinity(0))
    rows = []
    details = []
    for name in args.sets:
        a, b = SETS[name]
        if not a.exists():
            raise SystemExit(f"missing {a}: the shared data is needed")
        limit = ["--time-limit", str(args.time_limit)] if name.startswith("doc") else []
        runs = []
        for workers in sorted({1, cores}):
            print(f"{name}: ours, {workers} worker(s) ...", file=sys.stderr, flush=True)
            runs.append((f"ours, {workers} worker(s)",
                         peers.run_ours(a, b, "--workers", str(workers), *limit)))
        if not args.skip_peers:
            print(f"{name}: smatch 1.0.4 ...", file=sys.stderr, flush=True)
            runs.append(("smatch 1.0.4", peers.run_smatch104(a, b, args.peer_timeout, args.peer_mem_mb)))
            print(f"{name}: smatchpp 1.8 ilp ...", file=sys.stderr, flush=True)
            runs.append(("smatchpp 1.8 ILP",
                         peers.run_smatchpp18(a, b, "ilp", args.peer_timeout, args.peer_mem_mb)))
        for tool, run in runs:
            rows.append((name, len(runs[0][1].pairs), tool, *_cell(run)))
        ours = runs[0][1]
        if ours.status == "ok" and ours.pairs:
            secs = [p["seconds"] for p in ours.pairs]
            widths = [100 * (_f1_upper(p) - p["f1"]) for p in ours.pairs]
            details.append((name, len(secs), statistics.median(secs), max(secs), max(widths),
                            sum(p["status"] == "optimal" for p in ours.pairs)))
    print(f"\n## Speed and memory ({cores} cores; ours with --time-limit {args.time_limit:g} s "
          f"per pair on documents; peers capped at {args.peer_timeout:g} s and {args.peer_mem_mb} MB)\n")
    print("| set | pairs | tool | wall s | peak MB | F1 | certified optimal |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(c) for c in row) + " |")
    print("\n## Ours per pair (1 worker)\n")
    print("| set | pairs | median s | max s | widest F1 interval (points) | certified |")
    print("|---|---|---|---|---|---|")
    for name, n, med, mx, wide, cert in details:
        print(f"| {name} | {n} | {med:.3f} | {mx:.2f} | {wide:.3f} | {cert}/{n} |")


def _f1_upper(pair: dict) -> float:
    """F1 if the pair reached its upper bound (``upper`` is null when unbounded)."""
    if pair["upper"] is None:
        return 1.0
    return prf(pair["upper"], pair["test_triples"], pair["gold_triples"])[2]


if __name__ == "__main__":
    main()

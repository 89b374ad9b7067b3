"""Any peer of ``peer_registry.py`` beside ours, pair by pair, on two files or BAMBOO tasks.

    python3 experiments/compare_peer.py PEER [TEST GOLD] [--tasks main|all|TASK] [--limit N]
        [--workers N] [--json out.json]

The peer runs through its registry entry (``Peer.run``: a measured subprocess), ours as
``smatchpp score`` with the entry's ``ours`` options; both write their per-pair records.
Printed, per file pair, a markdown table: pairs, corpus F1 of each, pairs whose two totals
are equal, pairs whose ``matched`` is equal / higher in ours / lower in ours, and each side's
wall seconds (with interpreter start); under it the machine and its load.  A peer whose entry
has ``ours`` is compared with no new code: adding it to the registry is the whole comparison.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from experiment import add_data, add_json, add_workers, machine_line, markdown_table, need, task_files, tasks_arg  # noqa: E402
from peer_registry import PEERS  # noqa: E402
from peers import run_ours  # noqa: E402


def first(path: Path, n: int, out: Path) -> Path:
    """The first ``n`` graphs of ``path`` in ``out``."""
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()][:n]
    out.write_text("\n\n".join(b.strip("\n") for b in blocks) + "\n", encoding="utf-8")
    return out


def compare(peer_name: str, a: Path, b: Path, workers: int) -> dict:
    """One file pair: both runs and the per-pair agreement."""
    peer = PEERS[peer_name]
    theirs = peer.run(a, b)
    ours = run_ours(a, b, *peer.ours, "--workers", str(workers))
    for run in (theirs, ours):
        if run.status != "ok":
            raise SystemExit(f"{run.tool} failed on {a}: {run.status}\n{run.stderr_tail}")
    mine = {p["index"]: p for p in ours.pairs}
    rows = [(mine[r["index"]], r) for r in theirs.pairs if "error" not in r and r["index"] in mine]
    tol = 1e-9
    return {"pairs": len(rows), "f1_ours": ours.f1, "f1_peer": theirs.f1,
            "totals_equal": sum((o["test_total"], o["gold_total"]) == tuple(r[k] for k in peer.totals)
                                for o, r in rows),
            "matched_equal": sum(abs(o["matched"] - r["matched"]) <= tol for o, r in rows),
            "ours_higher": sum(o["matched"] > r["matched"] + tol for o, r in rows),
            "ours_lower": sum(o["matched"] < r["matched"] - tol for o, r in rows),
            "wall_ours": ours.wall_seconds, "wall_peer": theirs.wall_seconds}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("peer", choices=sorted(n for n, p in PEERS.items() if p.ours is not None))
    ap.add_argument("files", nargs="*", type=Path, help="TEST GOLD (else BAMBOO tasks)")
    ap.add_argument("--tasks", default="main")
    ap.add_argument("--limit", type=int, default=None, help="only the first N pairs of each file pair")
    add_data(ap)
    add_workers(ap)
    add_json(ap)
    args = ap.parse_args(argv)
    if not PEERS[args.peer].ready():
        raise SystemExit(f"{args.peer} is not set up: {PEERS[args.peer].setup_hint}")
    named = {f"{args.files[0]} vs {args.files[1]}": tuple(args.files)} if args.files else \
        {t: task_files(t, need(args.data)) for t in tasks_arg(args.tasks)}
    report = {}
    with tempfile.TemporaryDirectory(prefix="compare-peer-") as tmp:
        for k, (name, (a, b)) in enumerate(named.items()):
            if args.limit is not None:
                a, b = first(a, args.limit, Path(tmp, f"{k}a.amr")), first(b, args.limit, Path(tmp, f"{k}b.amr"))
            report[name] = compare(args.peer, a, b, args.workers)
    ours = " ".join(PEERS[args.peer].ours) or "defaults"
    print(f"## {PEERS[args.peer].tool} vs ours (smatchpp score {ours})\n")
    print(markdown_table(
        ["files", "pairs", "F1 ours", "F1 peer", "totals equal", "matched equal", "ours higher", "ours lower",
         "wall s ours", "wall s peer"],
        [[name, r["pairs"], f"{100 * r['f1_ours']:.2f}", f"{100 * r['f1_peer']:.2f}", r["totals_equal"],
          r["matched_equal"], r["ours_higher"], r["ours_lower"], f"{r['wall_ours']:.1f}", f"{r['wall_peer']:.1f}"]
         for name, r in report.items()]))
    print(f"\n{machine_line()}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

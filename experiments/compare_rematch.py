"""REMATCH against its reference, pair by pair, on BAMBOO's 12 tasks.

The reference (osome-iu/Rematch-RARE, pinned in ``peer_registry.REMATCH_REF``)
runs in its own venv outside the repository (``peer_registry.py``); ours is
``smatchpp.metrics.REMATCH``.  Both sides run twice: with an empty VerbAtlas map and
with the same map file (by default the ``pb2va.json`` of the extracted reference,
outside the repository; ``--verbatlas`` to give another).

    python3 experiments/compare_rematch.py --mirror PATH/TO/Rematch-RARE.git
        [--tasks all|main|TASK] [--verbatlas pb2va.json] [--json out.json]

Prints, per task and map: pairs, pairs whose intersection and union equal the
reference's, pairs whose score is equal within 1e-9, the largest score difference and
an example of any differing pair; finally the BAMBOO cells of both.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bamboo  # noqa: E402
from experiment import BAMBOO as DATA, add_data, add_json, add_mirror, read_graphs, task_files, tasks_arg  # noqa: E402
from peer_registry import PEERS, REMATCH_REF, run_json_lines, setup  # noqa: E402

from smatchpp.metrics import get_metric  # noqa: E402

TOL = 1e-9


def reference_score(num: int, den: int) -> float:
    """The reference's pair score (``rematch.py`` lines 154-157): 0 without a common motif."""
    return num / den if num else 0.0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_mirror(p, f"git mirror of {REMATCH_REF.repository} (or ${REMATCH_REF.env})")
    add_data(p, DATA)
    p.add_argument("--tasks", default="all")
    p.add_argument("--verbatlas", type=Path, default=None,
                   help="VerbAtlas map for both sides (default: the extracted reference's pb2va.json)")
    add_json(p)
    args = p.parse_args(argv)
    setup(REMATCH_REF, args.mirror)
    va = args.verbatlas or REMATCH_REF.directory / "methods" / "rematch" / "pb2va.json"
    tasks = list(tasks_arg(args.tasks))
    files = [task_files(t, args.data) for t in tasks]
    graphs = [(read_graphs(a), read_graphs(b)) for a, b in files]
    report, cells, examples = {}, {}, []
    for label, option, metric in (("empty map", (), get_metric("rematch")),
                                  ("VerbAtlas", ("--va", str(va)), get_metric("rematch", verbatlas=str(va)))):
        runs = run_json_lines(PEERS["rematch"], files, *option)
        total = dict(pairs=0, stats_equal=0, score_equal=0, max_diff=0.0)
        per_task = {}
        for task, (ga, gb), run in zip(tasks, graphs, runs):
            ref = np.array(run["pairs"], dtype=float).reshape(-1, 2)
            if len(ref) != len(ga):
                raise SystemExit(f"{task}: the reference scored {len(ref)} pairs, we read {len(ga)}")
            ours = np.array([metric.stats(metric.features(a), metric.features(b)) for a, b in zip(ga, gb)],
                            dtype=float)
            ours_score = metric.scores(ours)["score"]
            ref_score = np.array([reference_score(n, d) for n, d in ref])
            diff = np.abs(ours_score - ref_score)
            same = (ours == ref).all(axis=1)
            row = dict(pairs=len(ref), stats_equal=int(same.sum()), score_equal=int((diff <= TOL).sum()),
                       max_diff=float(diff.max(initial=0)))
            per_task[task] = row
            for key in ("pairs", "stats_equal", "score_equal"):
                total[key] += row[key]
            total["max_diff"] = max(total["max_diff"], row["max_diff"])
            print(f"{label:10s} {task:20s} {row['pairs']:5d} pairs: intersection and union equal "
                  f"{row['stats_equal']:5d}, score equal within 1e-9 {row['score_equal']:5d}, "
                  f"max diff {row['max_diff']:.1e}", flush=True)
            for i in np.nonzero(~same)[0][:1]:
                examples.append(dict(map=label, task=task, pair=int(i), ours=ours[i].tolist(),
                                     reference=ref[i].tolist()))
            cells.setdefault(label, {})[task] = (ours_score, ref_score)
        report[label] = dict(tasks=per_task, totals=total)
        print(f"{label}: all {len(tasks)} tasks: {total['pairs']} pairs, intersection and union equal "
              f"{total['stats_equal']}, scores equal within 1e-9 {total['score_equal']}, "
              f"largest difference {total['max_diff']:.1e}")
    for e in examples:
        print("differing pair:", json.dumps(e))
    table = {}
    if len(tasks) == len(bamboo.CELLS):
        for label, by_task in cells.items():
            for side, k in (("ours", 0), ("reference", 1)):
                row = [bamboo.cell_score(c, by_task[c][k], args.data) for c in bamboo.CELLS]
                table[f"REMATCH {side} ({label})"] = row + [float(np.mean(row))]
        print(bamboo.format_table(table))
    if args.json:
        args.json.write_text(json.dumps(dict(report=report, examples=examples, cells=table,
                                             commit=REMATCH_REF.commit), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

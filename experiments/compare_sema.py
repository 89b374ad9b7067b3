"""SEMA pair by pair against the reference on BAMBOO's 12 test tasks.

    SEMA_MIRROR=path/to/sema.git python3 experiments/compare_sema.py \
        [--mirror DIR] [--tasks sts/main ...] [--json out.json]

The reference (github.com/rafaelanchieta/sema) runs in its own checkout outside
the repository (``~/.cache/ref-sema-COMMIT``, extracted from the git mirror) at
two pinned commits: 9a4911c, which BAMBOO v0.2 used, and the head 0ede9e0;
ours runs with ``reference_counting`` set to the same commit.  Each pair is
scored on its own (a fresh ``Sema`` per pair, the source file as the test
side; ``--both-directions`` adds the target file as the test side, the order
that reproduces BAMBOO's published SEMA row).  Compared per pair: the
matched count, both totals and the F1 (within 1e-9).  Also printed: how often
the reference's F1 exceeds 1, and our default's (bounded) F1 beside it.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from experiment import TASKS, add_data, add_json, add_mirror, task_files  # noqa: E402
from metric_peers import compare, ours, report, run_reference  # noqa: E402
from peer_registry import checkout, mirror_path  # noqa: E402

from smatchpp.metrics import get_metric  # noqa: E402

COMMITS = ("9a4911c", "0ede9e0")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_mirror(ap, "git directory of the reference (else $SEMA_MIRROR)")
    add_data(ap)
    ap.add_argument("--tasks", nargs="+", default=list(TASKS), choices=TASKS)
    ap.add_argument("--both-directions", action="store_true",
                    help="also score with the target file as the test side")
    add_json(ap, "write every count here")
    args = ap.parse_args(argv)
    mirror = mirror_path(args.mirror, "SEMA_MIRROR")
    rows, total, equal, largest, examples = [], 0, 0, 0.0, []
    bounded = get_metric("sema")
    directions = ["src"] + (["tgt"] if args.both_directions else [])
    for commit, first in ((c, d) for c in COMMITS for d in directions):
        ref = checkout(mirror, commit, "sema")
        files = [task_files(task, args.data) for task in args.tasks]
        if first == "tgt":
            files = [(tgt, src) for src, tgt in files]
        theirs = run_reference("sema", ref, files)
        metric = get_metric("sema", reference_counting=commit)
        for task, (test, gold), got in zip(args.tasks, files, theirs["files"]):
            mine = ours(metric, test, gold)
            res = compare([None if x is None else x["f1"] for x in mine],
                          [None if r is None else r[3] for r in got["scores"]])
            counts_differ = [i for i, (x, r) in enumerate(zip(mine, got["scores"]))
                             if x is not None and r is not None and x["stats"] != [int(v) for v in r[:3]]]
            above = sum(1 for r in got["scores"] if r is not None and r[3] > 1 + 1e-12)
            ours_default = ours(bounded, test, gold)
            above_default = sum(1 for x in ours_default if x is not None and x["f1"] > 1 + 1e-12)
            total += res["pairs"]
            equal += res["equal"]
            largest = max(largest, res["largest"])
            for i in sorted(set(res["differ"]) | set(counts_differ))[:3]:
                examples.append({"commit": commit, "task": task, "test": first, "pair": i, "ours": mine[i],
                                 "reference": got["scores"][i], "reference_error": got["errors"][i]})
            rows.append({"commit": commit, "task": task, "test": first, **{k: res[k] for k in ("pairs", "equal", "largest")},
                         "counts_differ": len(counts_differ), "reference_above_1": above,
                         "default_above_1": above_default})
            print(f"{commit} {task:20s} test={first}: {res['equal']}/{res['pairs']} F1 equal, counts differ in "
                  f"{len(counts_differ)}, largest difference {res['largest']:.3g}; reference F1 > 1 in "
                  f"{above} pairs, our default's in {above_default}", flush=True)
    report(rows, total, equal, largest, examples, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

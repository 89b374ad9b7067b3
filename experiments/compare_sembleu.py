"""SemBleu pair by pair against the reference on BAMBOO's 12 test tasks.

    SEMBLEU_MIRROR=path/to/sembleu.git python3 experiments/compare_sembleu.py \
        [--mirror DIR] [--tasks sts/main ...] [--both-directions] [--json out.json]

The reference (github.com/freesunshine0316/sembleu) runs in its own checkout
outside the repository (``~/.cache/ref-sembleu-COMMIT``, extracted from the git
mirror) at two pinned commits: 530bc05, which BAMBOO v0.2 used (inverse roles
kept as written: our ``inverse=keep``), and the head 69ff2d4 (every ``-of``
turned: ``inverse=flip``).  Each pair is its own corpus, weights 1/k, k = 1, 2
and 3, with BAMBOO's order (the target file is the hypothesis); with
``--both-directions`` the source file is the hypothesis as well.  For each task
and setting it prints the pairs, how many are equal within 1e-9, the largest
difference, and the first differing pairs with both scores.
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

#: commit -> our ``inverse`` setting that reproduces it
COMMITS = {"530bc05": "keep", "69ff2d4": "flip"}
KS = (1, 2, 3)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_mirror(ap, "git directory of the reference (else $SEMBLEU_MIRROR)")
    add_data(ap)
    ap.add_argument("--tasks", nargs="+", default=list(TASKS), choices=TASKS)
    ap.add_argument("--both-directions", action="store_true",
                    help="also score with the source file as the hypothesis")
    add_json(ap, "write every count here")
    args = ap.parse_args(argv)
    mirror = mirror_path(args.mirror, "SEMBLEU_MIRROR")
    directions = [("tgt", "src")] + ([("src", "tgt")] if args.both_directions else [])
    rows, total, equal, largest, examples = [], 0, 0, 0.0, []
    for commit, inverse in COMMITS.items():
        ref = checkout(mirror, commit, "sembleu")
        for hyp_side, ref_side in directions:
            files = []
            for task in args.tasks:
                src, tgt = task_files(task, args.data)
                files.append((tgt, src) if hyp_side == "tgt" else (src, tgt))
            theirs = run_reference("sembleu", ref, files, ",".join(map(str, KS)))
            for task, (hyp, refp), got in zip(args.tasks, files, theirs["files"]):
                for k in KS:
                    metric = get_metric("sembleu", k=k, inverse=inverse)
                    mine = ours(metric, hyp, refp)
                    res = compare([None if x is None else x["score"] for x in mine], got["scores"][str(k)])
                    total += res["pairs"]
                    equal += res["equal"]
                    largest = max(largest, res["largest"])
                    for i in res["differ"][:3]:
                        examples.append({"commit": commit, "task": task, "k": k, "hypothesis": hyp_side,
                                         "pair": i, "ours": mine[i], "reference": got["scores"][str(k)][i],
                                         "reference_error": got["errors"][i]})
                    rows.append({"commit": commit, "inverse": inverse, "task": task, "k": k,
                                 "hypothesis": hyp_side, **{key: res[key] for key in ("pairs", "equal", "largest")},
                                 "differ": res["differ"]})
                    print(f"{commit} (inverse={inverse}) {task:20s} k={k} hyp={hyp_side}: "
                          f"{res['equal']}/{res['pairs']} equal, largest difference {res['largest']:.3g}",
                          flush=True)
    report(rows, total, equal, largest, examples, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

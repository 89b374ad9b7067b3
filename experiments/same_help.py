"""The ``--help`` of every command and the signatures of a set of settings, of two source trees.

    python3 experiments/same_help.py TREE_OLD TREE_NEW [--diff]

For each tree (a checkout, e.g. ``git archive COMMIT | tar -x -C DIR``), runs
``COLUMNS=100 python -m smatchpp [CMD] --help`` for CMD in '', score, compare, gap,
explain, matrix, search, tune, and prints the signature of a set of Configs (every
matcher, limits, resampling, aspects, documents) and of every registered metric with its
defaults; then prints a table: what, bytes, identical.  A change that must not move the
command line or a signature (a refactoring) passes when every row says yes; ``--diff``
prints the lines that differ.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

COMMANDS = ("", "score", "compare", "gap", "explain", "matrix", "search", "tune")
SIGNATURES = r"""
from smatchpp.config import Config  # the old path: it runs against trees from before the folders too
from smatchpp.metrics import get_metric, metric_names
for c in [dict(), dict(match="s2match", cutoff=0.2), dict(match="wsmatch"),
          dict(match="concept-focus", focus_weight=2), dict(preset="amr", keep_wiki=True),
          dict(time_limit=3, bootstrap=100), dict(ar_trials=50, bootstrap_seed=3), dict(aspects="joint"),
          dict(aspects="separate", aspect_set="thesis"), dict(duplicates="product"),
          dict(sentence_buckets=True, coref_subscore=True),
          dict(on_error="skip", work_limit=9, seed=4, restarts=0, solver="highs", compression="none",
               total_time_limit=100)]:
    print(Config(**c).signature())
for name in metric_names():
    print(get_metric(name).signature(bootstrap=5))
"""


def outputs(tree: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()), COLUMNS="100")
    out = {}
    for cmd in COMMANDS:
        done = subprocess.run([sys.executable, "-m", "smatchpp", *([cmd] if cmd else []), "--help"],
                              env=env, cwd="/", capture_output=True, text=True)
        out[f"{cmd or '(none)'} --help"] = done.stdout + done.stderr
    done = subprocess.run([sys.executable, "-c", SIGNATURES], env=env, cwd="/", capture_output=True, text=True)
    # a tree older than one of the settings above cannot print their signatures: a row, not an end
    out["signatures"] = done.stdout if done.returncode == 0 else f"(failed) {done.stderr.strip().splitlines()[-1]}"
    return out


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--diff"]
    if len(args) != 2:
        sys.exit(__doc__)
    old, new = (outputs(Path(p)) for p in args)
    print(f"{'what':18s} {'bytes':>6s}  identical")
    for key in old:
        print(f"{key:18s} {len(new[key].encode()):6d}  {'yes' if old[key] == new[key] else 'NO'}")
    if "--diff" in sys.argv:  # what differs, line by line
        for key in old:
            if old[key] != new[key]:
                print(f"\n## {key}")
                print("".join(difflib.unified_diff(old[key].splitlines(True), new[key].splitlines(True),
                                                   args[0], args[1], n=0)))


if __name__ == "__main__":
    main()

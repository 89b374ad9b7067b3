"""The per-pair JSON of two source trees, identical but for timing keys.

    python3 experiments/same_pairs.py run TREE OUTDIR [--data ../shared/data/bamboo] [--workers 2]
                                      [--settings alignment|metrics|all] [--tasks sts,sick,para]
    python3 experiments/same_pairs.py diff OUTDIR_OLD OUTDIR_NEW

``run`` scores BAMBOO main test (STS, SICK and PARA: src as test, tgt as gold)
with the ``smatchpp`` of TREE (a checkout, e.g. a ``git worktree`` of an older
commit) under four settings, ``smatch``, ``smatch-legacy``, ``--match s2match``
(the packaged 50-d vectors) and ``--match wsmatch``, and writes each
``--pairs-out`` file to OUTDIR.  ``diff`` compares two such folders pair by
pair, leaving out the keys that measure time (``seconds``, ``compile_seconds``)
and prints a table: pairs, pairs identical, and the first difference.
``--settings metrics`` scores the other metrics instead (SemBleu, SEMA, WLK,
WWLK, REMATCH, Jaccard, each with its defaults) and the three aspect sets
(``--aspects damonte``, ``smatchpp18``, ``thesis``, whose aspect scores are in each
pair's line), ``--settings all`` both.  A change
that must not move a number (a refactoring) passes when every row says all
pairs identical.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
from experiment import BAMBOO as DATA, add_data, add_workers  # noqa: E402
SETTINGS = {"smatch": [], "smatch-legacy": ["--preset", "smatch-legacy"],
            "s2match": ["--match", "s2match"], "wsmatch": ["--match", "wsmatch"]}
METRIC_SETTINGS = {**{f"metric-{m}": ["--metric", m] for m in
                      ("sembleu", "sema", "wlk", "wwlk", "rematch", "jaccard")},
                   **{f"aspects-{a}": ["--aspects", a] for a in ("damonte", "smatchpp18", "thesis")}}
GROUPS = {"alignment": SETTINGS, "metrics": METRIC_SETTINGS, "all": {**SETTINGS, **METRIC_SETTINGS}}
TIMING = {"seconds", "compile_seconds"}


def run(tree: Path, outdir: Path, data: Path, workers: int, settings: dict[str, list[str]] = SETTINGS,
        tasks: tuple[str, ...] = ("sts", "sick", "para")) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()))
    for task in tasks:
        for name, options in settings.items():
            out = outdir / f"{task}-{name}.jsonl"
            # a metric other than smatch took no --workers before the one road
            parallel = [] if options[:1] == ["--metric"] else ["--workers", str(workers)]
            cmd = [sys.executable, "-m", "smatchpp", "score", str(data / task / "main" / "src.test.amr"),
                   str(data / task / "main" / "tgt.test.amr"), "--quiet", *parallel,
                   "--pairs-out", str(out), "--format", "json", *options]
            done = subprocess.run(cmd, env=env, cwd="/", capture_output=True, text=True)
            if done.returncode != 0:
                sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr}")
            print(f"{task:5s} {name:14s} {len(out.read_text().splitlines())} pairs", flush=True)


def _rows(path: Path) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k not in TIMING}
            for line in path.read_text().splitlines()]


def diff(old: Path, new: Path) -> int:
    print(f"{'file':28s} {'pairs':>6s} {'identical':>9s}  first difference")
    bad = 0
    for path in sorted(old.glob("*.jsonl")):
        a, b = _rows(path), _rows(new / path.name)
        same = sum(x == y for x, y in zip(a, b)) if len(a) == len(b) else 0
        first = next((f"index {x.get('index')}: " + ", ".join(
            f"{k} {x.get(k)!r} -> {y.get(k)!r}" for k in sorted(set(x) | set(y)) if x.get(k) != y.get(k))
            for x, y in zip(a, b) if x != y), "" if len(a) == len(b) else f"{len(a)} vs {len(b)} pairs")
        bad += same != len(a)
        print(f"{path.name:28s} {len(a):6d} {same:9d}  {first[:200]}")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("tree", type=Path)
    r.add_argument("outdir", type=Path)
    add_data(r, DATA)
    add_workers(r, 2)
    r.add_argument("--settings", choices=sorted(GROUPS), default="alignment")
    r.add_argument("--tasks", default="sts,sick,para", help="comma-separated BAMBOO tasks")
    d = sub.add_parser("diff")
    d.add_argument("old", type=Path)
    d.add_argument("new", type=Path)
    args = ap.parse_args()
    if args.cmd == "run":
        run(args.tree, args.outdir, args.data, args.workers, GROUPS[args.settings],
            tuple(args.tasks.split(",")))
        return 0
    return diff(args.old, args.new)


if __name__ == "__main__":
    sys.exit(main())

"""The per-pair JSON of two source trees, identical but for timing keys.

    python3 experiments/same_pairs.py run TREE OUTDIR [--data ../shared/data/bamboo] [--workers 2]
                                      [--tasks sts,sick,para] [--every-metric]
    python3 experiments/same_pairs.py diff OUTDIR_OLD OUTDIR_NEW

``run`` scores BAMBOO main test (STS, SICK and PARA: src as test, tgt as gold)
with the ``smatchpp`` of TREE (a checkout, e.g. a ``git worktree`` of an older
commit) under four settings, ``smatch``, ``smatch-legacy``, ``--match s2match``
(the packaged 50-d vectors) and ``--match wsmatch``, and writes each
``--pairs-out`` file to OUTDIR.  ``diff`` compares two such folders pair by
pair, leaving out the keys that measure time (``seconds``, ``compile_seconds``)
and prints a table: pairs, pairs identical, and the first difference.  ``--every-metric``
adds every other metric (``--metric NAME`` with its defaults; ``aspect`` for each of
Damonte's aspects it names by default) and the aspect sets on Smatch (``--aspects damonte``,
``smatchpp18``, ``thesis``); ``--tasks`` limits the BAMBOO tasks.  A change
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
#: ``--every-metric``: the metrics without an alignment and the aspect sets
MORE = {**{f"metric-{m}": ["--metric", m] for m in ("jaccard", "rematch", "sema", "sembleu", "wlk", "wwlk")},
        "metric-aspect-concepts": ["--metric", "aspect"],
        "metric-aspect-srl": ["--metric", "aspect", "--aspect-name", "srl"],
        "aspects-damonte": ["--aspects", "damonte"], "aspects-smatchpp18": ["--aspects", "smatchpp18"],
        "aspects-thesis": ["--aspects", "thesis"]}
TIMING = {"seconds", "compile_seconds", "aspects_seconds"}


def run(tree: Path, outdir: Path, data: Path, workers: int, tasks: list[str], every: bool) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()))
    for task in tasks:
        for name, options in {**SETTINGS, **(MORE if every else {})}.items():
            out = outdir / f"{task}-{name}.jsonl"
            cmd = [sys.executable, "-m", "smatchpp", "score", str(data / task / "main" / "src.test.amr"),
                   str(data / task / "main" / "tgt.test.amr"), "--quiet", "--workers", str(workers),
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
    r.add_argument("--tasks", default="sts,sick,para", help="BAMBOO tasks, comma-separated")
    r.add_argument("--every-metric", action="store_true", help="also every other metric and aspect set")
    d = sub.add_parser("diff")
    d.add_argument("old", type=Path)
    d.add_argument("new", type=Path)
    args = ap.parse_args()
    if args.cmd == "run":
        run(args.tree, args.outdir, args.data, args.workers, args.tasks.split(","), args.every_metric)
        return 0
    return diff(args.old, args.new)


if __name__ == "__main__":
    sys.exit(main())

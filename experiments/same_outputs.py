"""The whole output of many command lines of two source trees, identical but for reported seconds.

    python3 experiments/same_outputs.py TREE_OLD TREE_NEW [--data ../shared/data/bamboo] [--pairs 60] [--only CMD]

Writes, in a scratch folder, the first ``--pairs`` pairs of BAMBOO STS main test (``a.amr``
the test side, ``b.amr`` the gold, ``c.amr`` the test side shifted by one graph: another
system, ``bad.amr`` the test side with two unreadable graphs), then runs every command line
of :data:`LINES` (``score``, ``compare`` with 2 and 4 systems, ``gap``, ``search``, ``matrix``, ``tune``, in every
format, with resampling, aspects, coreference, skipped pairs, ``--pairs-out -`` and several
metrics) with each tree's ``smatchpp`` (one worker) and compares standard output, standard
error and the exit code, the seconds that outputs report masked (``matrix``: and every array of
its output and its intervals file; ``tune``: its grid file).  Prints a table: command
line, identical.  A refactoring that must not move an output passes when every row says yes.
(A tree: ``git archive COMMIT | tar -x -C DIR``.)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from experiment import BAMBOO  # noqa: E402

LINES = [
    "score a.amr b.amr", "score a.amr b.amr --format json", "score a.amr b.amr --format markdown",
    "score a.amr b.amr --format latex", "score a.amr b.amr --bootstrap 200",
    "score a.amr b.amr --format json --bootstrap 200", "score a.amr b.amr --aspects damonte --bootstrap 100",
    "score a.amr b.amr --coref-subscore --bootstrap 100", "score a.amr b.amr --match s2match",
    "score a.amr b.amr --preset smatch-legacy", "score a.amr b.amr --total-time-limit 60 --format json",
    "score a.amr b.amr --stats", "score a.amr b.amr --on-error skip", "score bad.amr b.amr --on-error skip",
    "score a.amr b.amr --pairs-out - --alignments",
    "score a.amr b.amr --metric wlk --format json --bootstrap 200",
    "score a.amr b.amr --metric jaccard --format markdown --bootstrap 100",
    "score a.amr b.amr --metric sembleu --format latex", "score a.amr b.amr --metric rematch --bootstrap 100",
    "score a.amr b.amr --metric aspect", "score a.amr b.amr --metric wwlk --pairs-out - --alignments",
    "score bad.amr b.amr --metric jaccard --on-error skip",
    "compare a.amr c.amr b.amr", "compare a.amr c.amr b.amr --format json",
    "compare a.amr c.amr b.amr --format markdown --bootstrap 200",
    "compare a.amr c.amr b.amr --aspects damonte --bootstrap 200",
    "compare a.amr c.amr b.amr --coref-subscore --bootstrap 200",
    "compare a.amr c.amr b.amr a.amr b.amr --format json --bootstrap 200 --aspects damonte",
    "compare a.amr c.amr b.amr --metric wlk --format json",
    "compare a.amr c.amr b.amr a.amr b.amr --metric jaccard --format markdown",
    "compare a.amr c.amr b.amr --pairs-out - --bootstrap 100",
    "compare a.amr c.amr b.amr a.amr b.amr --metric wlk --pairs-out - --bootstrap 100",
    "compare bad.amr c.amr b.amr a.amr b.amr --on-error skip --bootstrap 100",
    "compare bad.amr c.amr b.amr --on-error skip --bootstrap 100 --metric jaccard",
    "gap a.amr b.amr", "gap a.amr b.amr --format json --pairs-out -", "gap bad.amr b.amr --on-error skip",
    "search a.amr b.amr --top 3", "search a.amr b.amr --top 3 --metric wlk",
    "search bad.amr b.amr --top 2 --on-error empty", "search bad.amr b.amr --top 2 --metric sembleu",
    "search a.amr b.amr --top 0",
    "matrix a.amr -o m.npz", "matrix a.amr b.amr -o m.npz --all", "matrix a.amr -o m.parquet",
    "matrix a.amr b.amr -o m.npz --aspects damonte --all", "matrix a.amr b.amr -o m.npz --all --solver hillclimber",
    "matrix a.amr -o m.parquet --solver hillclimber",
    "matrix bad.amr -o m.npz --on-error empty --all", "matrix bad.amr -o m.npz", "matrix a.amr -o m.txt",
    "matrix a.amr -o a.amr", "matrix a.amr -o m.npz --metric wlk --all",
    "matrix a.amr b.amr -o m.parquet --metric jaccard", "matrix bad.amr -o m.npz --metric sembleu --on-error empty",
    "matrix bad.amr -o m.npz --metric sembleu --on-error skip", "matrix a.amr -o m.txt --metric wlk",
    "matrix a.amr b.amr -o m.npz --metric rematch --all --chunk 0",
    # S2Match's grid (the packaged vectors), its file compared too; and a refused line
    "tune a.amr b.amr y.txt --metric smatch --dev c.amr b.amr y.txt -o grid.tsv --cutoffs 0.5,0.9 --diffsenses 0.5,0.95",
    "tune a.amr b.amr y.txt --metric smatch -o grid.tsv",
]
#: commands without --workers (the others run with one worker)
NO_WORKERS = {"tune"}
#: reported seconds: JSON keys, --stats' column, search's summary
TIMING = [re.compile(r'"(?:compile_|aspects_)?seconds": [0-9.e+-]+'), re.compile(r"\b\d+\.\d{3}(?= \w+$)", re.M),
          re.compile(r"\d+\.\d{2} s$", re.M), re.compile(r"(?<=\s)\d+\.\d{3}$", re.M)]


def inputs(folder: Path, data: Path, pairs: int) -> None:
    blocks = (data / "sts" / "main" / "src.test.amr").read_text().split("\n\n")
    gold = (data / "sts" / "main" / "tgt.test.amr").read_text().split("\n\n")
    (folder / "a.amr").write_text("\n\n".join(blocks[:pairs]) + "\n")
    (folder / "b.amr").write_text("\n\n".join(gold[:pairs]) + "\n")
    (folder / "c.amr").write_text("\n\n".join(blocks[1:pairs + 1]) + "\n")
    bad = blocks[:pairs]
    bad[3], bad[10] = "(x / broken :ARG0 (y", "(((("
    (folder / "bad.amr").write_text("\n\n".join(bad) + "\n")
    human = (data / "sts" / "orig.test.txt").read_text().split("\n")[:pairs]  # tune's scores: column 4
    (folder / "y.txt").write_text("\n".join(line.split("\t")[4] for line in human) + "\n")


def written(folder: Path, line: str, before: bool = False) -> list:
    """What ``matrix -o OUT`` wrote: every array of OUT (.npz: name, dtype, shape, bytes; .parquet:
    its table and schema metadata) and OUT.intervals.jsonl (removed before a run)."""
    words = line.split()
    if "-o" not in words or words[words.index("-o") + 1].endswith(".amr"):
        return []
    out = folder / words[words.index("-o") + 1]
    files = [out, out.with_suffix(".intervals.jsonl")]
    if before:
        for f in files:
            f.unlink(missing_ok=True)
        return []
    got: list = []
    if out.suffix == ".npz" and out.exists():
        import numpy as np
        with np.load(out) as z:
            got += [(k, z[k].dtype.str, z[k].shape, z[k].tobytes()) for k in sorted(z.files)]
    elif out.suffix == ".tsv" and out.exists():  # tune's grid
        got.append(out.read_text())
    elif out.suffix == ".parquet" and out.exists():
        import pyarrow.parquet as pq
        table = pq.read_table(out)
        got += [table.to_pydict(), table.schema.metadata]
    got += [f.read_text() if f.exists() else None for f in files[1:]]
    return got


def output(tree: Path, line: str, folder: Path) -> tuple:
    written(folder, line, before=True)
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()))
    extra = [] if line.split()[0] in NO_WORKERS else ["--quiet", "--workers", "1"]
    done = subprocess.run([sys.executable, "-m", "smatchpp", *line.split(), *extra],
                          cwd=folder, env=env, capture_output=True, text=True)
    masked = []
    for text in (done.stdout, done.stderr):
        for pattern in TIMING:
            text = pattern.sub("<seconds>", text)
        masked.append(text)
    return masked[0], masked[1], done.returncode, written(folder, line)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--data", type=Path, default=BAMBOO)
    ap.add_argument("--pairs", type=int, default=60)
    ap.add_argument("--only", default=None, metavar="COMMAND", help="only the lines of this command")
    args = ap.parse_args()
    lines = [line for line in LINES if args.only is None or line.split()[0] == args.only]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        inputs(folder, args.data, args.pairs)
        print("| command line | identical |\n|---|---|")
        for line in lines:
            same = output(args.old, line, folder) == output(args.new, line, folder)
            bad += not same
            print(f"| `smatchpp {line}` | {'yes' if same else 'NO'} |", flush=True)
    print(f"\n{len(lines) - bad} of {len(lines)} identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

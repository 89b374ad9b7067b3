"""smatchpp 1.8's 19 aspects for every pair of the first N Little Prince graphs (issue 27, item 4).

    python3 experiments/bench_aspects18_scale.py --graphs 150 [--workers 2] [--dask]
        [--frames FRAMES.txt] [--peer-pairs 1000 --peer-python $VENV/bin/python] [--json OUT.json]

Runs, each as a measured subprocess (wall seconds, peak RSS of it and the workers it started):

* ``smatchpp matrix FIRST_N.amr -o OUT.npz --preset smatchpp18-amr --aspects smatchpp18
  --workers W``: the main score and one matrix per aspect, every pair ``i < j``
  (each graph's subgraphs are cut once; each aspect's pairs are aligned on their own);
* with ``--dask``, the same with ``--dask`` (a LocalCluster of W workers), and every array of
  both outputs compared for identity;
* with ``--peer-pairs K``, smatchpp 1.8.0 (``experiments/peer_smatchpp18_aspects.py``,
  ``all-multialign``, its ILP) on the first K of those pairs (row-major ``i < j`` order).

Prints pairs, aspect pairs, seconds, pairs per second, peak MB and how many aspect pairs are
certified optimal; N=1562 is all of The Little Prince (1,219,141 pairs).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from experiment import add_json, add_workers  # noqa: E402
from peer_registry import PEERS  # noqa: E402
from bench_matrix import graphs  # noqa: E402  (the first N Little Prince graphs, as text)


def measured(argv: list[str], env: dict | None = None) -> tuple[float, float, int, str]:
    """Wall seconds, peak RSS in MB (the process and the descendants it waited for), exit
    code, stdout."""
    began = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE, text=True, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - began
        proc.stderr.read()
        out.seek(0)
        text = out.read()
    return seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graphs", type=int, default=150)
    add_workers(ap, 2)
    ap.add_argument("--dask", action="store_true")
    ap.add_argument("--frames", default=None, help="PropBank frame file (--propbank-frames)")
    ap.add_argument("--peer-pairs", type=int, default=0)
    ap.add_argument("--peer-sample", choices=("first", "random"), default="first",
                    help="which K pairs the peer scores: the first K in row-major i < j order, or K "
                         "drawn uniformly (seed 0) from all pairs; graph 0 is a one-word title, so "
                         "the first K of the whole book are far easier than the average pair")
    ap.add_argument("--no-matrix", action="store_true", help="only the peer (and ours on its pairs)")
    ap.add_argument("--peer-python", default=str(PEERS["smatchpp-1.8-aspects"].python))
    add_json(ap)
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="aspects18-scale-"))
    texts = graphs(args.graphs)
    (work / "first.amr").write_text("\n\n".join(texts) + "\n")
    n = len(texts)
    pairs = n * (n - 1) // 2
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    frames = ["--propbank-frames", args.frames] if args.frames else []
    runs = {}
    plan = [] if args.no_matrix else [("pool", [])] + ([("dask", ["--dask"])] if args.dask else [])
    for name, extra in plan:
        out = work / f"{name}.npz"
        argv = [sys.executable, "-m", "smatchpp", "matrix", str(work / "first.amr"), "-o", str(out),
                "--preset", "smatchpp18-amr", "--aspects", "smatchpp18", *frames, "--quiet",
                "--workers", str(args.workers), *extra]
        seconds, mb, code, text = measured(argv, env)
        if code != 0:
            raise SystemExit(f"{name}: exit {code}\n{text}")
        found = re.search(r"aspects: (\d+) matrices, (\d+) of (\d+) aspect pairs? certified", text)
        main = re.search(r"(\d+) of \d+ pairs? scored, (\d+) certified", text)
        n_aspects, certified, aspect_pairs = map(int, found.groups())
        runs[name] = {"seconds": seconds, "peak_mb": mb, "pairs": pairs, "aspect_pairs": aspect_pairs,
                      "aspect_pairs_certified": certified, "main_certified": int(main.group(2)),
                      "summary": text.strip().splitlines()}
        print(f"{name:5s} {n} graphs, {pairs} pairs x {n_aspects} aspects: {seconds:.1f} s, "
              f"{pairs / seconds:.0f} pairs/s, peak {mb:.0f} MB, {certified} of {aspect_pairs} aspect "
              f"pairs certified", flush=True)
    if args.dask and not args.no_matrix:
        a, b = np.load(work / "pool.npz"), np.load(work / "dask.npz")
        same = all(np.array_equal(a[k], b[k]) for k in a.files if k != "signature")
        runs["dask_identical"] = same
        print("pool and Dask outputs identical:", same)
    if args.peer_pairs:
        if args.peer_sample == "first":
            chosen = [(i, j) for i in range(n) for j in range(i + 1, n)][:args.peer_pairs]
        else:
            flat = np.random.default_rng(0).choice(pairs, size=min(args.peer_pairs, pairs), replace=False)
            i_of = np.repeat(np.arange(n), np.arange(n - 1, -1, -1))  # row i holds n - 1 - i pairs
            start = np.concatenate([[0], np.cumsum(np.arange(n - 1, 0, -1))])
            chosen = sorted((int(i_of[k]), int(i_of[k] + 1 + k - start[i_of[k]])) for k in flat)
        (work / "pa.amr").write_text("\n\n".join(texts[i] for i, _ in chosen) + "\n")
        (work / "pb.amr").write_text("\n\n".join(texts[j] for _, j in chosen) + "\n")
        argv = [args.peer_python, str(PEERS["smatchpp-1.8-aspects"].driver), str(work / "pa.amr"),
                str(work / "pb.amr"), "--out", str(work / "peer.jsonl")]
        seconds, mb, code, text = measured(argv)
        if code != 0:
            raise SystemExit(f"peer: exit {code}\n{text}")
        runs["peer"] = {"pairs": len(chosen), "sample": args.peer_sample, "seconds": seconds, "peak_mb": mb}
        print(f"smatchpp 1.8.0 all-multialign: {len(chosen)} pairs ({args.peer_sample}) in {seconds:.1f} s "
              f"({len(chosen) / seconds:.1f} pairs/s), peak {mb:.0f} MB", flush=True)
        ours = [sys.executable, "-m", "smatchpp", "score", str(work / "pa.amr"), str(work / "pb.amr"),
                "--preset", "smatchpp18-amr", "--aspects", "smatchpp18", *frames, "--workers", "1",
                "--pairs-out", str(work / "ours.jsonl")]
        seconds, mb, code, text = measured(ours, env)
        if code != 0:
            raise SystemExit(f"ours on the peer's pairs: exit {code}\n{text}")
        runs["ours_on_peer_pairs"] = {"pairs": len(chosen), "seconds": seconds, "peak_mb": mb}
        print(f"smatchpp score --aspects smatchpp18, 1 worker, the same {len(chosen)} pairs: {seconds:.1f} s "
              f"({len(chosen) / seconds:.1f} pairs/s), peak {mb:.0f} MB", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(runs, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Scale benchmarks of issue 13 that ``bench_matrix.py`` does not cover, one command each.

Each run is a measured subprocess of the CLI; the peak resident memory of the
CLIENT process (``VmHWM`` of that process alone) is reported apart from that of
its worker processes (the largest ``VmHWM`` among its descendants, polled every
0.1 s), so a Dask or process-pool run shows what the client itself holds.

    # all pairs of the first N graphs (i < j) with 2 workers; N=1562 is the whole book
    # (1.22 M pairs; smatch 1.0.4 is not run beside it: at its ~400 pairs/s it would take ~50 min
    # per run on this machine, and bench_matrix.py already gives the ratio on 500 graphs)
    python3 experiments/bench_scale.py all --graphs 1562 --workers 2 [--dask]
    # search: the first Q graphs as queries against the first N graphs, --top K, beside
    # `matrix` of the same Q x N pairs
    python3 experiments/bench_scale.py search --queries 100 --graphs 1562 --top 10
    # client memory at N and 2N graphs (matrix writes as it goes: the client's peak must stay flat;
    # with --output npz the dense n x n output arrays themselves grow with n^2)
    python3 experiments/bench_scale.py memory --graphs 400 800 --workers 2 --output parquet [--dask]

The 500-graph row beside smatch 1.0.4 (1 worker, Dask 2 workers) is
``python3 experiments/bench_matrix.py --graphs 500``.  Try each on small sizes
first (``all --graphs 60``, ``search --queries 10 --graphs 60``,
``memory --graphs 30 60``).  Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from experiment import add_workers  # noqa: E402
from bench_matrix import byte_compile, graphs  # noqa: E402


def _hwm_mb(pid: int) -> float:
    """Peak resident memory (VmHWM) of one process in MB, 0 if it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        children = []
        for task in Path(f"/proc/{p}/task").glob("*"):  # a child started by any thread
            try:
                children += (task / "children").read_text().split()
            except OSError:
                continue
        out.extend(int(c) for c in children)
        todo.extend(int(c) for c in children)
    return out


def measured(argv: list[str], stdout=subprocess.DEVNULL) -> dict:
    """Wall seconds, peak client MB, peak MB of the largest worker, exit code, stderr."""
    began = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE, text=True)
    peaks = {"client": 0.0, "worker": 0.0}

    def poll() -> None:
        while proc.poll() is None:
            peaks["client"] = max(peaks["client"], _hwm_mb(proc.pid))
            for child in _descendants(proc.pid):
                peaks["worker"] = max(peaks["worker"], _hwm_mb(child))
            time.sleep(0.1)

    watcher = threading.Thread(target=poll, daemon=True)
    watcher.start()
    _, err = proc.communicate()
    seconds = time.perf_counter() - began
    watcher.join()
    return {"seconds": seconds, "client_mb": peaks["client"], "worker_mb": peaks["worker"],
            "code": proc.returncode, "stderr": err}


def _write(path: Path, gs: list[str]) -> Path:
    path.write_text("\n\n".join(gs) + "\n", encoding="utf-8")
    return path


def _matrix(args, tmp: Path, first: Path, second: Path | None = None) -> tuple[dict, int]:
    out = tmp / f"m.{args.output}"
    argv = [sys.executable, "-m", "smatchpp", "matrix", str(first), *([str(second)] if second else []),
            "-o", str(out), "--all", "--quiet", "--workers", str(args.workers),
            *(["--dask"] if args.dask else [])]
    run = measured(argv)
    certified = 0
    if run["code"] == 0 and args.output == "parquet":  # one row per solved pair
        import pyarrow.parquet as pq
        certified = sum(s == "optimal" for s in pq.read_table(out, columns=["status"])["status"].to_pylist())
    elif run["code"] == 0:
        cert = np.load(out)["certified"]
        certified = int(cert[np.triu_indices(cert.shape[0], 1)].sum() if second is None else cert.sum())
    return run, certified


def _how(args) -> str:
    return f"{args.workers} worker{'s' * (args.workers > 1)}{', Dask' if args.dask else ''}"


def run_all(args, tmp: Path) -> None:
    n = len(gs := graphs(args.graphs[0]))
    pairs = n * (n - 1) // 2
    run, certified = _matrix(args, tmp, _write(tmp / "first.amr", gs))
    print(f"All pairs of the first {n} Little Prince graphs ({pairs} pairs), {_how(args)}\n")
    print("| seconds | pairs/s | peak client MB | peak worker MB | certified optimal | exit |")
    print("|---|---|---|---|---|---|")
    print(f"| {run['seconds']:.1f} | {pairs / run['seconds']:.0f} | {run['client_mb']:.0f} | "
          f"{run['worker_mb']:.0f} | {certified}/{pairs} | {run['code']} |")


def run_search(args, tmp: Path) -> None:
    gs = graphs(args.graphs[0])
    queries = _write(tmp / "queries.amr", gs[: args.queries])
    corpus = _write(tmp / "corpus.amr", gs)
    nq, n = min(args.queries, len(gs)), len(gs)
    hits = tmp / "hits.jsonl"
    search = measured([sys.executable, "-m", "smatchpp", "search", str(queries), str(corpus),
                       "--top", str(args.top), "--out", str(hits), "--quiet",
                       "--workers", str(args.workers), *(["--dask"] if args.dask else [])])
    rows = [json.loads(line) for line in hits.read_text().splitlines()] if search["code"] == 0 else []
    solved = sum(r["solved"] for r in rows)
    bounded = sum(r["bounded"] for r in rows)
    pruned = sum(r["pruned"] for r in rows)
    certified = sum(r["certified"] for r in rows)
    matrix, m_certified = _matrix(args, tmp, queries, corpus)
    pairs = nq * n
    print(f"{nq} query graphs against the first {n} Little Prince graphs ({pairs} pairs), "
          f"--top {args.top}, {_how(args)}\n")
    print("| command | seconds | seconds per query | pairs solved | pruned by label counts | "
          "pruned by the star bound | certified | peak client MB | exit |")
    print("|---|---|---|---|---|---|---|---|---|")
    print(f"| search --top {args.top} | {search['seconds']:.1f} | {search['seconds'] / nq:.3f} | "
          f"{solved} | {pruned} | {bounded} | {certified}/{solved} | {search['client_mb']:.0f} | "
          f"{search['code']} |")
    print(f"| matrix (same pairs) | {matrix['seconds']:.1f} | {matrix['seconds'] / nq:.3f} | "
          f"{pairs} | 0 | 0 | {m_certified}/{pairs} | {matrix['client_mb']:.0f} | {matrix['code']} |")


def run_memory(args, tmp: Path) -> None:
    print(f"Client memory of `matrix` as the corpus grows (all pairs i < j), {_how(args)}\n")
    print("| graphs | pairs | seconds | peak client MB | peak worker MB | certified optimal | exit |")
    print("|---|---|---|---|---|---|---|")
    for size in args.graphs:
        n = len(gs := graphs(size))
        pairs = n * (n - 1) // 2
        run, certified = _matrix(args, tmp, _write(tmp / f"first{n}.amr", gs))
        print(f"| {n} | {pairs} | {run['seconds']:.1f} | {run['client_mb']:.0f} | "
              f"{run['worker_mb']:.0f} | {certified}/{pairs} | {run['code']} |")


RUNS = {"all": run_all, "search": run_search, "memory": run_memory}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", choices=sorted(RUNS))
    ap.add_argument("--graphs", type=int, nargs="+", default=[60],
                    help="corpus size (memory: several sizes, e.g. 400 800)")
    ap.add_argument("--queries", type=int, default=10)
    ap.add_argument("--top", type=int, default=10)
    add_workers(ap, 2)
    ap.add_argument("--dask", action="store_true", help="a Dask LocalCluster of --workers workers")
    ap.add_argument("--output", choices=("npz", "parquet"), default="npz",
                    help="matrix output: npz holds the dense n x n arrays in the client (they are "
                         "the output); parquet streams one row per pair as chunks finish")
    args = ap.parse_args()
    byte_compile()  # as an installed package (see bench_matrix.py)
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        RUNS[args.run](args, Path(tmp))


if __name__ == "__main__":
    main()

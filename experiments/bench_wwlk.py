"""WWLK: the exact transport solvers, speed beside the reference, and all pairs of 300 graphs.

1. Transport solvers on WWLK's own problems (the cost matrices of BAMBOO STS main test
   pairs, K = 2, packaged 50-d GloVe): POT's network simplex called directly (what
   smatchpp uses), ``ot.emd2``, HiGHS (``highspy``, the LP with n*m columns) and, in the
   reference's venv, pyemd's ``emd_with_flow`` (what the reference uses; the cost matrix
   padded to (n+m) x (n+m) as the reference does).  Microseconds per problem and the
   largest difference of the distances from POT's.
2. BAMBOO main test (the 8,036 pairs of sts, sick and para main, concatenated): each side
   one process that starts, loads the same vectors (the whole packaged GloVe 6B 50d written
   as a text file, 400,000 words), reads both files and scores every pair; the reference
   through ``wwlk_peer_driver.py`` (its vector loading: a dict from the text file), ours
   with ``--wwlk-vectors`` on the text file (converted once to a cached matrix beforehand,
   as S2Match's vectors are; the first conversion is timed separately).  Wall and CPU time,
   medians of ``--repeats`` runs.
3. All 44,850 pairs of the first 300 Little Prince graphs on one core: wall, CPU, peak RSS.

    python3 experiments/bench_wwlk.py [--repeats 3] [--mirror PATH] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_wlk_rematch import LITTLE_PRINCE, ONE_CORE, concatenate, measure  # noqa: E402
from compare_wwlk import DRIVER, WORK, WWLK_REF  # noqa: E402
from experiment import add_json, add_mirror, add_repeats, read_graphs, task_files  # noqa: E402
from peer_registry import setup  # noqa: E402

PYEMD = """
import sys, time, numpy as np
from pyemd import emd_with_flow
d = np.load(sys.argv[1])
costs = [d[k] for k in sorted(d.files, key=lambda k: int(k))]
out = []
t = time.perf_counter()
for c in costs:
    n, m = c.shape
    big = np.zeros((n + m, n + m)); big[:n, n:] = c
    v1 = np.concatenate([np.ones(n), np.zeros(m)]) / n
    v2 = np.concatenate([np.zeros(n), np.ones(m)]) / m
    out.append(emd_with_flow(v1, v2, big, extra_mass_penalty=0.0)[0])
print((time.perf_counter() - t) / len(costs) * 1e6)
print(" ".join(repr(x) for x in out))
"""


def highs_emd(c: np.ndarray) -> float:
    import highspy
    from scipy.sparse import csc_matrix

    n, m = c.shape
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n * m, n + m
    lp.col_cost_ = c.ravel()
    lp.col_lower_, lp.col_upper_ = np.zeros(n * m), np.full(n * m, np.inf)
    lp.row_lower_ = lp.row_upper_ = np.concatenate([np.full(n, 1 / n), np.full(m, 1 / m)])
    rows = np.concatenate([np.repeat(np.arange(n), m), n + np.tile(np.arange(m), n)])
    a = csc_matrix((np.ones(2 * n * m), (rows, np.concatenate([np.arange(n * m)] * 2))), shape=(n + m, n * m))
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = a.indptr, a.indices, a.data
    h.passModel(lp)
    h.run()
    return h.getInfo().objective_function_value


def solvers(limit: int) -> dict:
    import ot
    from smatchpp.metrics.wwlk import WWLK, transport

    m = WWLK()
    ga, gb = (read_graphs(f) for f in task_files("sts/main"))
    costs = [m.cost(m.features(a), m.features(b)) for a, b in list(zip(ga, gb))[:limit]]
    out = {"problems": len(costs), "mean_size": float(np.mean([c.size for c in costs]))}
    t = time.perf_counter()
    pot = [transport(c)[1] for c in costs]
    out["pot_direct_us"] = (time.perf_counter() - t) / len(costs) * 1e6
    t = time.perf_counter()
    emd2 = [float(ot.emd2(np.full(c.shape[0], 1 / c.shape[0]), np.full(c.shape[1], 1 / c.shape[1]), c))
            for c in costs]
    out["pot_emd2_us"] = (time.perf_counter() - t) / len(costs) * 1e6
    t = time.perf_counter()
    highs = [highs_emd(c) for c in costs]
    out["highs_us"] = (time.perf_counter() - t) / len(costs) * 1e6
    out["emd2_max_diff"] = float(np.max(np.abs(np.array(emd2) - pot)))
    out["highs_max_diff"] = float(np.max(np.abs(np.array(highs) - pot)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "costs.npz"
        np.savez(path, **{str(i): c for i, c in enumerate(costs)})
        r = subprocess.run([str(WWLK_REF.python), "-c", PYEMD, str(path)], capture_output=True, text=True, check=True)
        us, values = r.stdout.splitlines()[:2]
        out["pyemd_us"] = float(us)
        out["pyemd_max_diff"] = float(np.max(np.abs(np.array([float(x) for x in values.split()]) - pot)))
    return out


def full_vectors() -> Path:
    """The whole packaged GloVe 6B 50d as a text file (float64 repr of each float32 value)."""
    from smatchpp.alignment.matchers.embeddings import load_vectors

    path = WORK / "glove50-full.txt"
    if not path.exists():
        WORK.mkdir(parents=True, exist_ok=True)
        v = load_vectors(None)
        v._load()
        words = sorted(v._vocab, key=v._vocab.get)
        matrix = np.asarray(v._matrix, dtype=np.float64)
        with open(str(path) + ".tmp", "w", encoding="utf-8") as f:
            for w, row in zip(words, matrix):
                if w and not any(c.isspace() for c in w):
                    f.write(w + " " + " ".join(map(repr, row.tolist())) + "\n")
        os.replace(str(path) + ".tmp", path)
    return path


def ours_pairs(vectors: str, a: str, b: str) -> None:
    t0 = time.process_time()
    from smatchpp.metrics import get_metric
    from smatchpp.graphs.read import read_file
    ga = [e.graph for e in read_file(a)]
    gb = [e.graph for e in read_file(b)]
    t1 = time.process_time()
    m = get_metric("wwlk", vectors=vectors)
    m.dim()  # the vectors loaded
    t2 = time.process_time()
    fa, fb = [m.features(x) for x in ga], [m.features(x) for x in gb]
    t3 = time.process_time()
    scores = [m.pair_score(x, y) for x, y in zip(fa, fb)]
    t4 = time.process_time()
    print(json.dumps(dict(pairs=len(scores), mean=float(np.mean(scores)), import_read_s=t1 - t0,
                          vectors_s=t2 - t1, features_s=t3 - t2, stats_s=t4 - t3)))


def ours_all_pairs(path: str, n: int) -> None:
    from smatchpp.metrics import get_metric
    from smatchpp.graphs.read import read_file
    t0 = time.process_time()
    graphs = [e.graph for e in read_file(path)][:n]
    m = get_metric("wwlk")
    feats = [m.features(g) for g in graphs]
    t1 = time.process_time()
    scores = [m.pair_score(feats[i], feats[j]) for i in range(n) for j in range(i + 1, n)]
    t2 = time.process_time()
    print(json.dumps(dict(graphs=n, pairs=len(scores), mean=float(np.mean(scores)),
                          read_features_s=t1 - t0, pairs_s=t2 - t1)))


def median_run(argv, repeats, **kw) -> dict:
    runs = [measure(argv, **kw) for _ in range(repeats)]
    return dict(wall=statistics.median(r["wall"] for r in runs), cpu=statistics.median(r["cpu"] for r in runs),
                rss_mb=max(r["rss_mb"] for r in runs), out=runs[-1]["out"],
                walls=[round(r["wall"], 2) for r in runs])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_repeats(p)
    add_mirror(p)
    p.add_argument("--problems", type=int, default=400)
    add_json(p)
    p.add_argument("--ours", nargs=3, help=argparse.SUPPRESS)
    p.add_argument("--all-pairs", nargs=2, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.ours:
        ours_pairs(*args.ours)
        return 0
    if args.all_pairs:
        ours_all_pairs(args.all_pairs[0], int(args.all_pairs[1]))
        return 0
    setup(WWLK_REF, args.mirror)
    result: dict = {}
    result["solvers"] = s = solvers(args.problems)
    print(f"transport, {s['problems']} STS main problems (mean {s['mean_size']:.0f} cells), us/problem: "
          f"POT direct {s['pot_direct_us']:.0f}, ot.emd2 {s['pot_emd2_us']:.0f} (max diff {s['emd2_max_diff']:.1e}), "
          f"HiGHS {s['highs_us']:.0f} (max diff {s['highs_max_diff']:.1e}), "
          f"pyemd {s['pyemd_us']:.0f} (max diff {s['pyemd_max_diff']:.1e})", flush=True)
    vectors = full_vectors()
    t = time.perf_counter()
    from smatchpp.alignment.matchers.embeddings import load_vectors
    load_vectors(str(vectors)).dim  # converted once (cached)
    result["conversion_s"] = time.perf_counter() - t
    with tempfile.TemporaryDirectory() as tmp:
        a, b = concatenate(Path(tmp))
        theirs = median_run([str(WWLK_REF.python), str(DRIVER), str(WWLK_REF.directory), str(vectors), str(a), str(b)],
                            args.repeats, cwd=str(WWLK_REF.directory), env={"PYTHONHASHSEED": "0"})
        ours = median_run([sys.executable, str(Path(__file__).resolve()), "--ours", str(vectors), str(a), str(b)],
                          args.repeats)
    ref_line = json.loads(theirs["out"].splitlines()[-1])
    line = json.loads(ours["out"])
    n = line["pairs"]
    result["bamboo_main"] = dict(pairs=n, ref_pairs=len(ref_line["scores"]), ref_wall=theirs["wall"],
                                 ref_cpu=theirs["cpu"], ref_load_s=ref_line["load_seconds"], ours_wall=ours["wall"],
                                 ours_cpu=ours["cpu"], ours=line, speedup_wall=theirs["wall"] / ours["wall"],
                                 speedup_cpu=theirs["cpu"] / ours["cpu"], ref_walls=theirs["walls"],
                                 ours_walls=ours["walls"])
    print(f"BAMBOO main test, {n} pairs: reference {theirs['wall']:.1f} s wall / {theirs['cpu']:.1f} s CPU "
          f"(vectors {ref_line['load_seconds']:.1f} s), ours {ours['wall']:.1f} s / {ours['cpu']:.1f} s "
          f"(vectors {line['vectors_s']:.2f}, features {line['features_s']:.1f}, pairs {line['stats_s']:.1f} s CPU); "
          f"{n / theirs['wall']:.0f} vs {n / ours['wall']:.0f} pairs/s, speed-up {theirs['wall'] / ours['wall']:.1f}x wall, "
          f"{theirs['cpu'] / ours['cpu']:.1f}x CPU; first conversion of the text file {result['conversion_s']:.1f} s",
          flush=True)
    if LITTLE_PRINCE.exists():
        run = median_run([sys.executable, str(Path(__file__).resolve()), "--all-pairs", str(LITTLE_PRINCE), "300"],
                         args.repeats)
        line = json.loads(run["out"])
        result["little_prince_all_pairs"] = dict(line, wall=run["wall"], cpu=run["cpu"], rss_mb=run["rss_mb"],
                                                 walls=run["walls"])
        print(f"all pairs of 300 Little Prince graphs: {line['pairs']:,} pairs, {run['wall']:.1f} s wall, "
              f"{run['cpu']:.1f} s CPU (features {line['read_features_s']:.1f}, pairs {line['pairs_s']:.1f}), "
              f"peak RSS {run['rss_mb']:.0f} MB", flush=True)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

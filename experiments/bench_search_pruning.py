"""How many pairs ``search --metric NAME`` leaves unscored by its bound (Metric.upper_stats),
and the CPU time of the query loop with the bound (Metric.top_k) and with every pair scored
(Metric.stats_matrix), on a sample of the Little Prince corpus; prints a Markdown table.

    python experiments/bench_search_pruning.py --data ../shared/data/little-prince/amr-bank-struct-v3.0.txt --queries 50 --corpus 1000 jaccard rematch sema sembleu
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "little-prince" / "amr-bank-struct-v3.0.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("metrics", nargs="+")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--corpus", type=int, default=1000)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=3, help="the fastest of these many runs")
    args = ap.parse_args()
    if not args.data.exists():
        raise SystemExit(f"missing {args.data}: the shared data is needed (--data FILE)")
    sys.path.insert(0, str(ROOT))
    from smatchpp.metrics import get_metric
    from smatchpp.graphs.read import read_file

    graphs = [e.graph for e in read_file(str(args.data), "penman") if e.graph is not None]
    queries, corpus = graphs[:args.queries], graphs[:args.corpus]
    print("| metric | pairs | pruned | CPU s, every pair | CPU s, with the bound |")
    print("|---|---|---|---|---|")
    for name in args.metrics:
        m = get_metric(name)
        m.prepare(queries + corpus)
        fc = [m.features(g) for g in corpus]
        fq = [m.features(g) for g in queries]
        every = bounded = float("inf")
        for _ in range(args.repeats):
            t = time.process_time()
            for f in fq:
                m.scores(m.stats_matrix([f], fc))
            every = min(every, time.process_time() - t)
            t = time.process_time()
            pruned = sum(m.top_k(f, fc, args.top)[2] for f in fq)
            bounded = min(bounded, time.process_time() - t)
        print(f"| {name} | {len(fq) * len(fc)} | {pruned} ({pruned / (len(fq) * len(fc)):.1%}) "
              f"| {every:.3f} | {bounded:.3f} |")


if __name__ == "__main__":
    main()

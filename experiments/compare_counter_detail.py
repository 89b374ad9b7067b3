"""Counter's detailed scores (``-prin``: operators, roles, concepts; nouns, verbs, adjectives,
adverbs, events) beside the ``counter`` metric's aspects (``--aspects counter``), pair by pair,
on the PMB sets of ``compare_counter.py``.

    bash experiments/setup_counter_peer.sh
    python3 experiments/compare_counter_detail.py [--sets all|NAME,...] [--seed 1] [--flags='-dse'] [--json out.json]

Counter runs through ``counter_peer_driver.py --detailed`` (20 restarts, ``random`` seeded):
for each pair its eight detailed counts on its own best mapping (matched, test, gold; the
numbers ``-prin`` sums) and that mapping, by the variables' names.  Ours:

* on Counter's mapping: ``smatchpp.drs.exact.detailed_counts`` of our clauses under the same
  mapping (names to our variables) must give Counter's 24 numbers, on every pair, its
  matched count Counter's, and ``clause_counts`` (``-ds``'s counts of each clause name)
  Counter's ``idv_dict``, in its order;
* on our mapping (the certified optimum, what ``score --metric counter --aspects counter``
  reports): where Counter's mapping is optimal too (same matched), the pairs whose 24
  numbers equal Counter's, and those where they differ (two optimal mappings that match
  different clauses of a kind; both are Counter's definition).

Printed: per set, the pairs; pairs whose detailed counts on Counter's mapping equal Counter's;
pairs whose test and gold division equals Counter's; pairs whose ``-ds`` counts equal
Counter's; the pairs where Counter's mapping is
optimal; of those, the pairs whose counts on our mapping equal Counter's; then the corpus F1 of
each kind, Counter's (its mapping) and ours (our mapping), the largest difference in points.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from compare_counter import FLAG_PARAMS, repeated, sets  # noqa: E402
from experiment import add_json, machine_line, print_results  # noqa: E402
from peer_registry import COUNTER_HOME, COUNTER_VERSIONS, PEERS  # noqa: E402
from peers import run_peer  # noqa: E402

#: the sentence sets of section 25 (the documents: Counter takes minutes a pair)
SENTENCE_SETS = ("2.2.0-dev", "2.2.0-test", "3.0.0-dev", "3.0.0-dev-spar", "3.0.0-test", "3.0.0-test-spar",
                 "4.0.0-dev", "4.0.0-dev-spar", "4.0.0-test", "4.0.0-test-spar", "4.0.0-eval", "4.0.0-eval-spar")


def f1(m: float, t: float, g: float) -> float:
    """Counter's compute_f unrounded: 0 when a side has none."""
    if not t or not g:
        return 0.0
    p, r = m / t, m / g
    return 2 * p * r / (p + r) if p + r else 0.0


def compare(name: str, spec, seed: int, flags: list[str], folder: Path) -> dict:
    from smatchpp.drs import read_clf
    from smatchpp.drs.clauses import DETAIL_NAMES
    from smatchpp.drs.exact import clause_counts, count_matched, detailed_counts
    from smatchpp.metrics import get_metric

    release, test, gold, spar = spec[:4]
    src = COUNTER_HOME / COUNTER_VERSIONS[release][0] / "evaluation"
    if spar:
        test = repeated(test, gold, folder)
    peer = PEERS["counter"]
    run = run_peer(peer.tool, [str(peer.driver), "--peer-src", str(src), "--detailed", "--seed", str(seed),
                               str(test), str(gold), "-g", "clf_signature.yaml", "-r", "20", *flags],
                   python=peer.python)
    if run.status != "ok":
        raise SystemExit(f"Counter failed on {name}: {run.status}\n{run.stderr_tail}")
    theirs = {p["index"]: p for p in run.pairs}
    version, referee = COUNTER_VERSIONS[release][1:]
    m = get_metric("counter", signature_file=str(src / "clf_signature.yaml"), version=version, referee=referee,
                   aspects="counter", **{FLAG_PARAMS[f]: True for f in flags})
    n = len(DETAIL_NAMES)
    rows = {"on_counter_mapping": 0, "division_equal": 0, "matched_equal": 0, "clauses_equal": 0,
            "counter_optimal": 0, "ours_equal_where_optimal": 0, "errors": 0}
    sums = {"counter": [[0] * n for _ in range(3)], "ours": [[0] * n for _ in range(3)]}
    differ: list[int] = []
    pairs = list(zip(read_clf(test), read_clf(gold)))
    for k, (a, b) in enumerate(pairs):
        c = theirs[k]
        if "error" in c:
            rows["errors"] += 1
            continue
        fa, fb = m.features(a), m.features(b)
        ia, ib = {v: i for i, v in enumerate(fa.names)}, {v: j for j, v in enumerate(fb.names)}
        mapping = [(ia[x], ib[y]) for x, y in c["mapping"]]
        det_c = [list(row) for row in c["detail"]]
        det_o = [list(row) for row in detailed_counts(fa, fb, mapping)]
        rows["matched_equal"] += count_matched(fa, fb, mapping) == c["matched"]
        rows["on_counter_mapping"] += det_o == det_c
        rows["division_equal"] += det_o[1:] == det_c[1:]
        # -ds's counts of each clause name, in Counter's order
        rows["clauses_equal"] += [[k, *v] for k, v in clause_counts(fa, fb, mapping).items()] == c["clauses"]
        s = m.stats(fa, fb)
        mine = [[int(s[4 + 3 * j + w]) for j in range(n)] for w in range(3)]
        if c["matched"] == s[0]:
            rows["counter_optimal"] += 1
            if mine == det_c:
                rows["ours_equal_where_optimal"] += 1
            else:
                differ.append(k)
        for w in range(3):
            for j in range(n):
                sums["counter"][w][j] += det_c[w][j]
                sums["ours"][w][j] += mine[w][j]
    f1s = {side: [f1(*(sums[side][w][j] for w in range(3))) for j in range(n)] for side in sums}
    return {"set": name, "counter": COUNTER_VERSIONS[release][0][:7], "pairs": len(pairs), **rows,
            "differ_where_optimal": differ[:20], "f1_counter": f1s["counter"], "f1_ours": f1s["ours"],
            "kinds": list(DETAIL_NAMES)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="all", help="all (the sentence sets), or names separated by commas")
    ap.add_argument("--seed", type=int, default=1, help="Counter's random seed (20 restarts)")
    ap.add_argument("--flags", default="", help="Counter's flags for both sides, among -ic -dse -dr -dc")
    add_json(ap)
    args = ap.parse_args(argv)
    flags = args.flags.split()
    if set(flags) - set(FLAG_PARAMS):
        ap.error(f"--flags: only {' '.join(FLAG_PARAMS)}")
    if not PEERS["counter"].ready():
        raise SystemExit(f"Counter is not set up: {PEERS['counter'].setup_hint}")
    known = sets(COUNTER_HOME / "data")
    names = list(SENTENCE_SETS) if args.sets == "all" else args.sets.split(",")
    rows = []
    with tempfile.TemporaryDirectory(prefix="counter-detail-") as tmp:
        for name in names:
            rows.append(compare(name, known[name], args.seed, flags, Path(tmp)))
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    table = []
    for r in rows:
        gap = max(abs(x - y) for x, y in zip(r["f1_counter"], r["f1_ours"]))
        table.append([r["set"], r["counter"], r["pairs"], r["matched_equal"], r["on_counter_mapping"],
                      r["division_equal"], r["clauses_equal"], r["counter_optimal"], r["ours_equal_where_optimal"],
                      " ".join(f"{100 * x:.2f}" for x in r["f1_counter"]),
                      " ".join(f"{100 * x:.2f}" for x in r["f1_ours"]), f"{100 * gap:.2f}"])
    print_results(["set", "Counter", "pairs", "matched equal on its mapping", "detail equal on its mapping",
                   "test/gold division equal", "-ds counts equal on its mapping", "Counter optimal",
                   "ours = Counter's there",
                   "F1 Counter (op rol con n v a r ev)", "F1 ours", "max diff"], table, rows, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

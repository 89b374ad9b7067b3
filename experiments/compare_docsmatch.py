"""Ours against docSmatch (IBM/docAMR), document by document: totals, buckets, coreference, optima.

docSmatch runs as a peer in its own environment (``--peer-src``: a folder with IBM/docAMR's
``docSmatch/``; ``--peer-python``: an interpreter with ``penman``, ``tqdm`` and ``ipdb``),
through ``experiments/docsmatch_peer_driver.py``, once per ``-r`` value (``--restarts``, default
1 and docSmatch's default 4), as a measured subprocess (wall seconds with interpreter start,
peak RSS from ``wait4``, as ``/usr/bin/time -v`` reports it).  Ours runs as
``smatchpp score --workers 1`` with and without ``--sentence-buckets`` (``--coref-subscore``,
``--alignments``), under ``--time-limit`` per pair when given.

Per set it prints one row per run (F1, certified pairs, wall and CPU seconds, peak MB, the
1-minute load average at the run's start and end) and the checks:

* ``totals``: pairs whose test and gold triple counts equal docSmatch's;
* ``buckets``: graphs whose sentence buckets (:func:`smatchpp.alignment.sentences.sentence_buckets`) equal
  docSmatch's ``nodes_by_sentence`` variable by variable;
* ``coref items``: graphs whose coreference nodes and edges (:func:`smatchpp.alignment.sentences.coreference`)
  equal docSmatch's ``coref_nodes``/``coref_edges``;
* ``coref on its alignment``: pairs where our Total Coref counts on docSmatch's own node mapping
  equal the counts docSmatch printed;
* ``below``: pairs where docSmatch's matched count is below our certified restricted optimum
  (and the largest shortfall); ``above``: pairs where it is above our restricted upper bound
  (must be 0: docSmatch's alignment is feasible for the restricted problem); ``ours below``:
  pairs where our restricted alignment (certified or not) matches fewer triples than docSmatch's;
* ``coref``: docSmatch's Total Coref matched count against ours on our certified restricted
  optimum, pair by pair, apart for the pairs where docSmatch reached that optimum and where not
  (:func:`coref_against_optimum`); ``ours on these``: our restricted F1 on the pairs docSmatch
  finished, when it did not finish them all.

    python3 experiments/compare_docsmatch.py --sets lp-doc5 lp-doc20 [--restarts 1 4]
        [--peer-src /root/.cache/docamr-peer] [--peer-python /root/.cache/docamr-peer/venv/bin/python]
        [--time-limit 60] [--peer-timeout 600] [--peer-mem-mb 12000] [--files NAME TEST GOLD ...]
        [--ours restricted unrestricted]

``--ours restricted`` runs only the restricted solve (the checks need it), for a rerun of
docSmatch alone.  CPU seconds are the child's user + system time (``wait4``); ours under
``--time-limit`` has a wall-clock deadline, so on a loaded machine it gets less CPU than that.

>>> matched_f1({"matched": 3, "test": 4, "gold": 4}.__getitem__, [0])
0.75
>>> points(0, 0, 0), points(3, 4, 4)
('n/a', '75.00')
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import peers  # noqa: E402

from smatchpp.graphs.read import read_file  # noqa: E402
from smatchpp.alignment.score import prf  # noqa: E402
from smatchpp.alignment.sentences import coref_counts, coreference, sentence_buckets  # noqa: E402

# the shared data beside the checkout (../shared/data), or beside a worktree's parent
SHARED = next((p / "shared" / "data" for p in HERE.parents[1:3] if (p / "shared" / "data").exists()),
              HERE.parents[1] / "shared" / "data")
PEER = Path("/root/.cache/docamr-peer")


def sets(shared: Path) -> dict[str, tuple[Path, Path]]:
    """Name -> (test, gold): the Little Prince documents of ``shared/docs``."""
    return {f"lp-doc{n}": (shared / f"docs/lp-bart-doc{n}.pred.amr", shared / f"docs/lp-bart-doc{n}.gold.amr")
            for n in (5, 20, 50, 100)}


def matched_f1(get, rows) -> float:
    """Micro F1 of summed ``matched``/``test``/``gold`` of ``rows`` (``get(key)`` per row)."""
    return prf(sum(get("matched") for _ in rows), sum(get("test") for _ in rows),
               sum(get("gold") for _ in rows))[2]


def points(matched: int, test: int, gold: int) -> str:
    """F1 in points, or ``n/a`` when neither side has an item (docSmatch prints 0.00 then)."""
    return "n/a" if test + gold == 0 else f"{100 * prf(matched, test, gold)[2]:.2f}"


def coref_against_optimum(peer_pairs: list[dict], restricted: dict[int, dict]) -> str:
    """docSmatch's Total Coref matched count against ours on our certified restricted optimum,
    per pair: where docSmatch's total reached the optimum, how many counts are equal; where it fell
    below, how many are equal, ours above, ours below.  Pairs without coreference items and
    uncertified ones are left out.

    >>> mine = {0: {"status": "optimal", "matched": 10, "coref": {"Total Coref": {"matched": 4}}},
    ...         1: {"status": "optimal", "matched": 10, "coref": {"Total Coref": {"matched": 4}}}}
    >>> coref_against_optimum([{"index": 0, "matched": 10, "coref": [4, 5, 5]},
    ...                        {"index": 1, "matched": 9, "coref": [5, 5, 5]}], mine)
    'at the optimum 1/1 equal; below it 0 equal, 0 ours above, 1 ours below'
    """
    at = at_equal = 0
    below = Counter()
    for p in peer_pairs:
        mine = restricted.get(p["index"])
        if mine is None or mine["status"] != "optimal" or p["coref"][1] + p["coref"][2] == 0:
            continue
        ours, theirs = mine["coref"]["Total Coref"]["matched"], p["coref"][0]
        if p["matched"] == mine["matched"]:
            at += 1
            at_equal += ours == theirs
        else:
            below["equal" if ours == theirs else "above" if ours > theirs else "below"] += 1
    return (f"at the optimum {at_equal}/{at} equal; below it {below['equal']} equal, "
            f"{below['above']} ours above, {below['below']} ours below")


def facts_equal(raw, peer: dict) -> tuple[bool, bool]:
    """(buckets equal, coreference items equal) of one graph against docSmatch's."""
    ours = {v: sorted(b) for v, b in zip(raw.variables, sentence_buckets(raw))}
    c = coreference(raw)
    same_coref = (sorted(c.nodes) == sorted(peer["coref_nodes"])
                  and Counter((r, s, t) for s, r, t in c.edges) == Counter(map(tuple, peer["coref_edges"])))
    return ours == peer["buckets"], same_coref


def load() -> str:
    """The 1-minute load average now."""
    return f"{os.getloadavg()[0]:.1f}"


def run_set(name: str, test: Path, gold: Path, args) -> list[str]:
    rows = []
    graphs_a = [e.graph for e in read_file(test)]
    graphs_b = [e.graph for e in read_file(gold)]
    options = ["--workers", "1", "--coref-subscore", "--alignments"]
    if args.time_limit:
        options += ["--time-limit", str(args.time_limit)]
    ours = {}
    for label, extra in (("ours restricted", ["--sentence-buckets"]), ("ours unrestricted", [])):
        if label.split()[1] not in args.ours:
            continue
        began = load()
        run = peers.run_ours(test, gold, *options, *extra, timeout=args.ours_timeout, tool=label)
        ours[label] = run
        s = run.summary
        clock = f"{run.wall_seconds:.1f} | {run.cpu_seconds or 0:.1f} | {run.peak_rss_mb or 0:.0f} | {began}-{load()}"
        log(args, name, label, run)
        if not s:
            rows.append(f"| {name} | {label} | {run.status} | | | {clock} | |")
            continue
        lo, hi = s["f1_interval"]
        f1 = f"{100 * lo:.2f}" if s["optimal"] == s["scored"] else f"[{100 * lo:.2f}, {100 * hi:.2f}]"
        coref = s.get("coref", {}).get("Total Coref", {})
        rows.append(f"| {name} | {label} | {f1} | {s['optimal']} of {s['scored']} | "
                    f"{points(*(coref.get(k, 0) for k in ('matched', 'test', 'gold')))} | {clock} | |")
    restricted = {p["index"]: p for p in ours["ours restricted"].pairs} if "ours restricted" in ours else {}
    for r in args.restarts:
        began = load()
        run = peers.run_peer(f"docSmatch -r {r}", [str(HERE / "docsmatch_peer_driver.py"), str(test), str(gold),
                                                  "--peer-src", str(args.peer_src), "--restarts", str(r)],
                             timeout=args.peer_timeout, mem_limit_mb=args.peer_mem_mb,
                             python=args.peer_python)
        ended = load()
        log(args, name, f"docSmatch -r {r}", run)
        pairs = run.pairs
        totals = buckets = items = on_its = below = above = ours_below = 0
        short = 0
        for p in pairs:
            i = p["index"]
            mine = restricted.get(i)
            b_a, c_a = facts_equal(graphs_a[i], p["a"])
            b_b, c_b = facts_equal(graphs_b[i], p["b"])
            buckets += b_a + b_b
            items += c_a + c_b
            on_its += list(coref_counts(graphs_a[i], graphs_b[i], p["mapping"])) == p["coref"]
            if mine is None:
                continue
            totals += (mine["test_triples"], mine["gold_triples"]) == (p["test"], p["gold"])
            if mine["status"] == "optimal" and p["matched"] < mine["matched"]:
                below += 1
                short = max(short, mine["matched"] - p["matched"])
            above += p["matched"] > mine["upper"]
            ours_below += mine["matched"] < p["matched"]
        n = len(pairs)
        f1 = points(*(sum(p[k] for p in pairs) for k in ("matched", "test", "gold"))) if pairs else "no pair finished"
        coref = points(*(sum(p["coref"][k] for p in pairs) for k in range(3)))
        status = "" if run.status == "ok" else f" ({run.status} after {n} pairs)"
        done = [restricted[p["index"]] for p in pairs if p["index"] in restricted]
        if run.status != "ok" and done:
            f1 += " (ours restricted on these: " + points(
                *(sum(m[k] for m in done) for k in ("matched", "test_triples", "gold_triples"))) + ")"
            coref += " (ours: " + points(*(sum(m["coref"]["Total Coref"][k] for m in done)
                                           for k in ("matched", "test", "gold"))) + ")"
        rows.append(f"| {name} | docSmatch -r {r}{status} | {f1} | | {coref} | "
                    f"{run.wall_seconds:.1f} | {run.cpu_seconds or 0:.1f} | {run.peak_rss_mb or 0:.0f} | "
                    f"{began}-{ended} | totals {totals}/{n}, "
                    f"buckets {buckets}/{2 * n}, coref items {items}/{2 * n}, coref on its alignment "
                    f"{on_its}/{n}, below {below}/{n} (by up to {short:g}), above {above}, ours below {ours_below}, "
                    f"coref {coref_against_optimum(pairs, restricted)} |")
    return rows


def log(args, name: str, label: str, run) -> None:
    """One run's status, clocks, summary and per-pair records as a JSON line in ``--log``."""
    if args.log is None:
        return
    with open(args.log, "a", encoding="utf-8") as f:
        f.write(json.dumps({"set": name, "run": label, "status": run.status, "wall": run.wall_seconds,
                            "cpu": run.cpu_seconds, "peak_mb": run.peak_rss_mb, "summary": run.summary,
                            "pairs": [{k: v for k, v in p.items() if k not in ("a", "b", "mapping", "alignment")}
                                      for p in run.pairs]}) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=SHARED)
    ap.add_argument("--sets", nargs="*", default=None, choices=sorted(sets(SHARED)),
                    help="default: lp-doc5 lp-doc20, unless --files is given")
    ap.add_argument("--files", nargs=3, action="append", default=[], metavar=("NAME", "TEST", "GOLD"),
                    help="another set: its name, test file, gold file")
    ap.add_argument("--restarts", nargs="+", type=int, default=[1, 4])
    ap.add_argument("--peer-src", type=Path, default=PEER)
    ap.add_argument("--peer-python", type=Path, default=PEER / "venv" / "bin" / "python")
    ap.add_argument("--time-limit", type=float, default=None, help="ours, per pair")
    ap.add_argument("--ours-timeout", type=float, default=3600)
    ap.add_argument("--peer-timeout", type=float, default=600)
    ap.add_argument("--peer-mem-mb", type=int, default=12000, help="docSmatch's address-space cap")
    ap.add_argument("--ours", nargs="+", default=["restricted", "unrestricted"],
                    choices=["restricted", "unrestricted"], help="which of our solves to run")
    ap.add_argument("--log", type=Path, default=None, help="append every run's records here (JSON lines)")
    args = ap.parse_args(argv)
    known = sets(args.shared)
    if not (args.peer_src / "docSmatch" / "smatch.py").exists():
        print(f"docSmatch not found under {args.peer_src} (IBM/docAMR's docSmatch/)", file=sys.stderr)
        return 2
    if args.sets is None:
        args.sets = [] if args.files else ["lp-doc5", "lp-doc20"]
    chosen = [(n, *known[n]) for n in args.sets] + [(n, Path(t), Path(g)) for n, t, g in args.files]
    print("| set | run | F1 | certified | Total Coref F1 | wall s | CPU s | peak MB | load | checks against docSmatch |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, test, gold in chosen:
        for row in run_set(name, test, gold, args):
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

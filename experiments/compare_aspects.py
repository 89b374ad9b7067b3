"""Aspect scores (``--aspects``) beside ``mdtux89/amr-evaluation``, pair by pair.

    python3 experiments/compare_aspects.py TEST.amr GOLD.amr \
        [--peer /root/.cache/amr-eval-peer --peer-python /root/.cache/amr-eval-peer/venv/bin/python] \
        [--select even|odd|all] [--mismatches 5] [--preset smatch-1.0.1] [--duplicates product]

Scores every aspect in both modes with the ``exact`` solver and prints, per
aspect, the corpus P/R/F1 of ``separate`` and ``joint`` and, with ``--peer``,
``amr-evaluation``'s own (run pair by pair by ``amr_eval_driver.py``, 4 random
restarts, seeded).  Then, per aspect and pair:

* set aspects: do ``(matched, test, gold)`` equal the peer's?
* graph aspects: do the triple counts equal the peer's, and is our exact
  ``matched`` at least the peer's hill-climber's?  Where it is not, does
  either graph repeat a triple (smatch counts a repeated triple's matches
  more than once, its issues #15 and #28; we count ``min(c_A, c_B)``)?

``--select even`` keeps pairs 0, 2, 4, ... (the BART parses of parseval-lp).
``--preset`` builds Smatch, Unlabeled and No WSD on that preset's triples (as
``score --preset P --aspects`` does); ``smatch-1.0.1`` is the reader that
``amr-evaluation`` bundles; ``--duplicates product`` counts a repeated triple as
its hill-climber does (the joint column then repeats the separate one).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from smatchpp.aspects.core import ASPECTS, AspectScorer, corpus_aspects, solver_function  # noqa: E402
from smatchpp.alignment.matchers import ExactMatcher  # noqa: E402
from smatchpp.alignment.matching import triple_keys  # noqa: E402
from smatchpp.presets import standardize  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402
from smatchpp.alignment.score import prf  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peer_registry import PEERS  # noqa: E402

DRIVER = PEERS["amr-evaluation"].driver


def repeats(name: str, entries: list, i: int, preset: str = "smatch") -> bool:
    """Does graph ``i`` repeat a triple in aspect ``name``'s graph?"""
    graph = ASPECTS[name].graph
    std = lambda raw: standardize(raw, preset)  # noqa: E731
    g = graph(entries[i].graph, std) if graph else std(entries[i].graph)
    return any(c > 1 for c in triple_keys(g).values())


def ours(path_a: str, path_b: str, keep: list[int], preset: str = "smatch",
         duplicates: str = "multiset") -> dict[str, list[dict]]:
    ea, eb = read_file(path_a), read_file(path_b)
    matcher = ExactMatcher(duplicates)
    solve = solver_function("exact", matcher=matcher)
    std = lambda raw: standardize(raw, preset)  # noqa: E731
    out = {}
    for mode in ("separate", "joint") if duplicates == "multiset" else ("separate",):
        scorer = AspectScorer(mode, solve, std, bound=matcher.label_bound)
        out[mode] = [scorer.score(ea[i].graph, eb[i].graph) for i in keep]
    # our seeded hill-climber (smatch's 4 restarts) on the very same triples
    climber = AspectScorer("separate", solver_function("hillclimber", compression=False, matcher=matcher),
                           std, bound=matcher.label_bound)
    out.setdefault("joint", out["separate"])  # joint needs multiset counting: not computed
    out["hillclimber"] = [climber.score(ea[i].graph, eb[i].graph) for i in keep]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("test")
    parser.add_argument("gold")
    parser.add_argument("--peer", help="checkout of mdtux89/amr-evaluation (outside this repo)")
    parser.add_argument("--peer-python", default=sys.executable)
    parser.add_argument("--select", choices=("all", "even", "odd"), default="all")
    parser.add_argument("--mismatches", type=int, default=5, help="print this many differing pairs per aspect")
    parser.add_argument("--preset", default="smatch", help="the triples of Smatch, Unlabeled, No WSD")
    parser.add_argument("--duplicates", choices=("multiset", "product"), default="multiset",
                        help="product: a repeated triple counts as smatch counts it (then no joint mode)")
    args = parser.parse_args()
    n = len(read_file(args.test))
    keep = [i for i in range(n) if args.select == "all" or i % 2 == (args.select == "odd")]
    mine = ours(args.test, args.gold, keep, args.preset, args.duplicates)
    peer = None
    if args.peer:
        run = subprocess.run([args.peer_python, str(DRIVER), "--peer", args.peer, args.test, args.gold],
                             capture_output=True, text=True, check=True)
        rows = [json.loads(line) for line in run.stdout.splitlines()]
        peer = [rows[i] for i in keep]
    print(f"{len(keep)} pairs ({args.select}) of {args.test} vs {args.gold}")
    head = f"{'aspect':14s} {'separate P/R/F1':>21s} {'joint P/R/F1':>21s}"
    print(head + (f" {'amr-evaluation P/R/F1':>24s}" if peer else ""))
    totals = {m: corpus_aspects(mine[m]) for m in mine}
    for name, aspect in ASPECTS.items():
        cells = []
        for mode in ("separate", "joint"):
            c = totals[mode][name]
            cells.append("/".join(f"{100 * x:.2f}" for x in prf(c.matched, c.test, c.gold)))
        line = f"{aspect.title:14s} {cells[0]:>21s} {cells[1]:>21s}"
        if peer:
            m, t, g = (sum(r[name][k] for r in peer) for k in range(3))
            line += f" {'/'.join(f'{100 * x:.2f}' for x in prf(m, t, g)):>24s}"
        print(line)
    print()
    print("graph aspects, exact vs our hill-climber (4 restarts) on the same triples, per pair:")
    for name, aspect in ASPECTS.items():
        if aspect.aligned:
            pairs = list(zip(mine["separate"], mine["hillclimber"]))
            below = sum(1 for e, h in pairs if e[name].matched < h[name].matched)
            above = sum(1 for e, h in pairs if e[name].matched > h[name].matched)
            certified = sum(1 for e, _ in pairs if e[name].matched == e[name].upper)
            print(f"  {aspect.title:14s} exact certified on {certified}/{len(pairs)}, below the climber on "
                  f"{below}, above on {above}")
    if not peer:
        return 0
    print("\nper pair, against amr-evaluation:")
    ea, eb = read_file(args.test), read_file(args.gold)
    for name, aspect in ASPECTS.items():
        sep = [p[name] for p in mine["separate"]]
        same_counts = [k for k, (c, r) in enumerate(zip(sep, peer)) if (c.test, c.gold) == tuple(r[name][1:])]
        if not aspect.aligned:
            equal = [k for k, (c, r) in enumerate(zip(sep, peer)) if [c.matched, c.test, c.gold] == r[name]]
            verdict = f"(matched, test, gold) equal on {len(equal)}/{len(sep)} pairs"
            bad = [k for k in range(len(sep)) if k not in set(equal)]
        else:
            below = [k for k, (c, r) in enumerate(zip(sep, peer)) if c.matched < r[name][0]]
            above = sum(1 for c, r in zip(sep, peer) if c.matched > r[name][0])
            dup = sum(1 for k in below if repeats(name, ea, keep[k], args.preset)
                      or repeats(name, eb, keep[k], args.preset))
            verdict = (f"triple counts equal on {len(same_counts)}/{len(sep)} pairs; exact >= hill-climber on "
                       f"{len(sep) - len(below)}/{len(sep)} ({above} strictly above)"
                       + (f"; of the {len(below)} below, {dup} repeat a triple" if below else ""))
            bad = below + [k for k in range(len(sep)) if k not in set(same_counts)]
            first_above = next((k for k, (c, r) in enumerate(zip(sep, peer)) if c.matched > r[name][0]), None)
            if first_above is not None:  # its hill-climber stopped below the optimum
                c = sep[first_above]
                verdict += (f"; e.g. pair {keep[first_above]}: ours {[c.matched, c.test, c.gold]} "
                            f"(certified: {c.matched == c.upper}) peer {peer[first_above][name]}")
        print(f"  {aspect.title:14s} {verdict}")
        for k in sorted(set(bad))[:args.mismatches]:
            c = sep[k]
            print(f"      pair {keep[k]}: ours {[c.matched, c.test, c.gold]} peer {peer[k][name]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

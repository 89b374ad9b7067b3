"""Exact WSMATCH against the reference weighted ``smatch.py`` of Cai & Lam (2019) on BAMBOO.

The reference is ``jcyk/AMR-parser``'s ``amr-evaluation-tool-enhanced/smatch/``
(``smatch.py --weighted``, a hill-climber; levels and weights in ``AMRGraph.py``),
set up outside this repository by ``experiments/setup_peers.sh`` (extracted from a
read-only mirror into ``~/.cache/wsmatch-peer`` and patched to run under python3;
the patch is documented there) and run as a peer by
``experiments/wsmatch_peer_driver.py``.  For every task file pair of BAMBOO
(``--tasks main``: the 8036 main test pairs; ``--tasks all``: the 12 tasks):

1. the reference on the pair's files: per pair its matched weight, both total
   weights and its own weighted triples;
2. ours on **the reference's own triples** (:func:`reference_graph`, weights
   left out): our WSMATCH weights (:func:`smatchpp.alignment.matchers.levels.level_weights`)
   must equal the reference's on every triple, every pair must be certified, and
   our matched weight must be at least the reference's;
3. ours from PENMAN with ``Config(preset=PRESET, match="wsmatch")``, per pair
   beside the reference: matched equal, higher, lower, and the total weights.
   ``--preset amr-suite`` (the default) is the reference's reader, so the totals
   are equal on every pair; ``--preset smatch-legacy`` (TOP with the root's
   concept, smatch 1.0.4's other rules) was the closest before it;
4. the BAMBOO cells (:func:`bamboo.cell_score`, the protocol of
   ``experiments/bamboo.py``) of the three per-pair F1 lists.

    python3 experiments/compare_wsmatch.py [--tasks main|all] [--preset amr-suite] [--workers 2]
                                           [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bamboo  # noqa: E402
from experiment import add_data, add_json, add_workers, task_files  # noqa: E402
from peer_registry import PEERS  # noqa: E402

from smatchpp.api import Config, Scorer  # noqa: E402
from smatchpp.alignment.matchers.levels import level_weights  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402
from smatchpp.graphs.triples import TripleGraph  # noqa: E402

ROWS = ("WSMATCH reference (jcyk/AMR-parser, hill-climber)",
        "WSMATCH ours on the reference's triples",
        "WSMATCH ours, {preset} preset")


def reference_graph(triples: list) -> tuple[TripleGraph, tuple[list, list, list]]:
    """A TripleGraph of the reference's weighted triples (compared lower-cased, as it does),
    and the reference's weights of its instance, attribute and relation triples, in its order.

    >>> g, w = reference_graph([[["instance", "a0", "Want-01", 5], ["instance", "a1", "boy", 4]],
    ...                         [["TOP", "a0", "want-01", 5], ["polarity", "a0", "-", 4]],
    ...                         [["ARG0", "a0", "a1", 4]]])
    >>> g.concepts, g.attributes, g.relations, w
    (('want-01', 'boy'), ((0, 'top', 'want-01'), (0, 'polarity', '-')), ((0, 'arg0', 1),), ([5, 4], [5, 4], [4]))
    """
    instances, attributes, relations = triples
    names = [n for _, n, _, _ in instances]
    index = {n: i for i, n in enumerate(names)}
    graph = TripleGraph(tuple(names), tuple(v.lower() for _, _, v, _ in instances),
                        tuple((index[n], r.lower(), v.lower()) for r, n, v, _ in attributes),
                        tuple((index[s], r.lower(), index[t]) for r, s, t, _ in relations))
    weights = ([w for *_, w in instances], [w for *_, w in attributes], [w for *_, w in relations])
    return graph, weights


def same_weights(graph: TripleGraph, weights: tuple[list, list, list]) -> bool:
    """Do our WSMATCH weights of ``graph`` equal the reference's, triple by triple?"""
    ours = level_weights(graph)
    return all(np.array_equal(np.asarray(mine, float), np.asarray(theirs, float))
               for mine, theirs in zip((ours.instance, ours.attribute, ours.relation), weights))


def f1(matched: float, test: float, gold: float) -> float:
    """The reference's ``compute_f`` F1 (0 when a total or the match is 0)."""
    if test == 0 or gold == 0 or matched == 0:
        return 0.0
    p, r = matched / test, matched / gold
    return 2 * p * r / (p + r)


def compare_cell(cell: str, data: Path, workers: int, preset: str = "amr-suite") -> dict:
    """Steps 1-3 on one task's file pair; the per-pair F1 lists and the per-pair checks."""
    src, tgt = task_files(cell, data)
    peer = PEERS["wsmatch"].run(src, tgt, tool="wsmatch reference")
    if peer.status != "ok":
        sys.exit(f"{cell}: reference failed ({peer.status}): {peer.stderr_tail}")
    records = sorted(peer.pairs, key=lambda r: r["index"])
    ok = [r for r in records if "error" not in r]
    graphs = [(reference_graph(r["triples_a"]), reference_graph(r["triples_b"])) for r in ok]
    weight_mismatch = [r["index"] for r, ((ga, wa), (gb, wb)) in zip(ok, graphs)
                       if not (same_weights(ga, wa) and same_weights(gb, wb))]
    scorer = Scorer(Config(match="wsmatch"))
    items = [(k, None, ga, gb, None, None) for k, ((ga, _), (gb, _)) in enumerate(graphs)]
    began = time.perf_counter()
    scorer._prepare(items)
    on_ref = list(scorer._map(items, workers))
    seconds_on_ref = time.perf_counter() - began
    began = time.perf_counter()
    legacy = Scorer(Config(preset=preset, match="wsmatch")).score_corpus(
        read_file(src), read_file(tgt), workers=workers).pairs
    seconds_legacy = time.perf_counter() - began

    below = [(r["index"], s.matched, r["matched"]) for r, s in zip(ok, on_ref)
             if s.matched < r["matched"] - 1e-9]
    by_index = {r["index"]: s for r, s in zip(ok, on_ref)}
    f1_ref = [f1(r["matched"], r["test_weight"], r["gold_weight"]) if "error" not in r
              else float("nan") for r in records]
    f1_on_ref = [by_index[r["index"]].f1 if r["index"] in by_index else float("nan")
                 for r in records]
    totals_differ = [r["index"] for r, s in zip(records, legacy) if "error" not in r
                     and (s.test_weight != r["test_weight"] or s.gold_weight != r["gold_weight"])]
    legacy_below = [r["index"] for r, s in zip(records, legacy) if "error" not in r
                    and s.f1 < f1(r["matched"], r["test_weight"], r["gold_weight"]) - 1e-9]
    # a lower F1 from PENMAN with the same totals would be a real shortfall, not the readers'
    legacy_below_same_totals = sorted(set(legacy_below) - set(totals_differ))
    return {
        "pairs": len(records), "reference_errors": [(r["index"], r["error"]) for r in records
                                                    if "error" in r],
        "reference_wall_seconds": peer.wall_seconds, "reference_seconds": peer.summary["seconds"],
        "reference_f1": peer.summary["f1"],
        "weight_mismatch": weight_mismatch,
        "on_ref": {"certified": sum(s.status == "optimal" for s in on_ref),
                   "below_reference": below,
                   "above_reference": sum(s.matched > r["matched"] + 1e-9
                                          for r, s in zip(ok, on_ref)),
                   "matched_gained": sum(max(s.matched - r["matched"], 0.0)
                                         for r, s in zip(ok, on_ref)),
                   "seconds": seconds_on_ref},
        "legacy": {"preset": preset, "certified": sum(s.status == "optimal" for s in legacy),
                   "matched_equal": sum(abs(s.matched - r["matched"]) <= 1e-9
                                        for r, s in zip(records, legacy) if "error" not in r),
                   "matched_higher": sum(s.matched > r["matched"] + 1e-9
                                         for r, s in zip(records, legacy) if "error" not in r),
                   "matched_lower": sum(s.matched < r["matched"] - 1e-9
                                        for r, s in zip(records, legacy) if "error" not in r),
                   "totals_differ": len(totals_differ), "totals_differ_first": totals_differ[:10],
                   "f1_below_reference": len(legacy_below),
                   "f1_below_reference_first": legacy_below[:10],
                   "f1_below_reference_same_totals": legacy_below_same_totals,
                   "seconds": seconds_legacy},
        "f1": {ROWS[0]: f1_ref, ROWS[1]: f1_on_ref,
               ROWS[2]: [s.f1 if s.status != "skipped" else float("nan") for s in legacy]},
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data(ap, bamboo.DATA)
    ap.add_argument("--tasks", choices=("main", "all"), default="main")
    add_workers(ap, 2)
    ap.add_argument("--preset", default="amr-suite", help="the preset of ours from PENMAN (step 3)")
    add_json(ap, "write every number here (per-pair F1 left out)")
    args = ap.parse_args()
    rows = tuple(r.format(preset=args.preset) for r in ROWS)
    cells = [c for c in bamboo.CELLS if args.tasks == "all" or c.endswith("/main")]
    report: dict = {"cells": {}}
    values: dict[str, dict[str, float]] = {row: {} for row in rows}
    for cell in cells:
        result = compare_cell(cell, args.data, args.workers, args.preset)
        result["f1"] = dict(zip(rows, result["f1"].values()))
        for row in rows:
            values[row][cell] = bamboo.cell_score(cell, result["f1"][row], args.data)
        del result["f1"]
        report["cells"][cell] = result
        print(f"{cell}: " + json.dumps({k: v for k, v in result.items()}, default=str)[:600],
              file=sys.stderr, flush=True)
    report["values"] = values
    print(json.dumps(report["values"], indent=1))
    if args.tasks == "all":
        table = {row: [values[row][c] for c in bamboo.CELLS]
                 + [float(np.mean([values[row][c] for c in bamboo.CELLS]))] for row in rows}
        print(bamboo.format_table(table))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()

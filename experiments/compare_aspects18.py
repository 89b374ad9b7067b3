"""smatchpp 1.8's aspects (``--aspects smatchpp18``) beside smatchpp 1.8.0 itself, pair by pair.

    python3 experiments/compare_aspects18.py TEST.amr GOLD.amr --peer-out PEER.jsonl \
        [--frames FRAMES.txt] [--mode separate|joint] [--json OUT.json] [--mismatches 5]

``PEER.jsonl`` is what ``experiments/peer_smatchpp18_aspects.py`` writes for the
same files (run with the peer venv's python; 1.8's ``-solver ilp -graph_type amr
-score_dimension all-multialign``).  ``--frames`` is the PropBank frame file 1.8
reads (it ships inside its PyPI package, ``smatchpp/formalism/amr/resource/``).

Per aspect: on how many pairs our F1 rounded to two decimals in percent (1.8's
pairwise output) equals 1.8's; on how many the triple counts are equal; and the
pairs that differ, split into those where 1.8's ILP did not prove its answer
(bound above objective by more than 1e-6, or no solution), and, in joint mode
(1.8's ``all-onealign``, where ``PEER.jsonl`` holds how many full-graph triples
its alignment matches), those where both alignments match as many full-graph
triples as our certified optimum (a tie: the aspects then depend on which optimal alignment is taken).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from smatchpp.api import Scorer  # noqa: E402
from smatchpp.alignment.config import Config  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402


def pct2(f1: float | None) -> float:
    return round(100 * (1.0 if f1 is None else f1), 2)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--peer-out", required=True)
    ap.add_argument("--frames", default=None)
    ap.add_argument("--mode", default="separate", choices=["separate", "joint"])
    ap.add_argument("--json", default=None, help="write the per-aspect table here")
    ap.add_argument("--mismatches", type=int, default=3, help="pairs to print per aspect")
    args = ap.parse_args()

    peer = {}
    for line in open(args.peer_out):
        rec = json.loads(line)
        peer[rec["index"]] = rec
    ea, eb = read_file(args.a), read_file(args.b)
    keep = sorted(i for i in peer if "aspects" in peer[i])
    scorer = Scorer(Config(preset="smatchpp18-amr", aspects=args.mode, aspect_set="smatchpp18",
                           propbank_frames=args.frames))
    began = time.perf_counter()
    scores = scorer.score_corpus([ea[i] for i in keep], [eb[i] for i in keep])
    seconds = time.perf_counter() - began
    table: dict[str, dict] = {}
    for k, i in enumerate(keep):
        ours = scores.pairs[k].aspects
        for name, p in peer[i]["aspects"].items():
            row = table.setdefault(name, {"pairs": 0, "f1_equal": 0, "counts_equal": 0,
                                          "differ_peer_unproven": [], "differ_tie": [], "differ": []})
            o = ours[name].to_json()
            row["pairs"] += 1
            equal = pct2(o["f1"]) == round(100 * p[6], 2)
            row["f1_equal"] += equal
            row["counts_equal"] += (o["test"], o["gold"]) == (p[2], p[3])
            if not equal:
                unproven = p[4] is not None and (p[5] - p[4] > 1e-6)
                tie = args.mode == "joint" and peer[i].get("full_matched") == scores.pairs[k].matched
                (row["differ_peer_unproven"] if unproven else row["differ_tie"] if tie else row["differ"]).append(
                    {"index": i, "ours": [o["matched"], o["upper"], o["test"], o["gold"], pct2(o["f1"])],
                     "peer": [p[0], p[2], p[3], round(100 * p[6], 2), p[4], p[5]]})
    print(f"{len(keep)} pairs, ours {seconds:.1f} s ({args.mode})")
    print(f"{'aspect':22s} {'pairs':>6s} {'F1 equal':>9s} {'counts eq':>9s} {'ILP unproven':>12s} "
          f"{'tie':>5s} {'other':>6s}")
    for name, row in table.items():
        print(f"{name:22s} {row['pairs']:6d} {row['f1_equal']:9d} {row['counts_equal']:9d} "
              f"{len(row['differ_peer_unproven']):12d} {len(row['differ_tie']):5d} {len(row['differ']):6d}")
    uncertified = sum(1 for p in scores.pairs for c in (p.aspects or {}).values() if c.upper > c.matched)
    print(f"our aspect scores not certified optimal: {uncertified}")
    for name, row in table.items():
        for d in row["differ"][:args.mismatches]:
            print(name, json.dumps(d))
    if args.json:
        Path(args.json).write_text(json.dumps({"pairs": len(keep), "seconds": seconds, "table": table}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

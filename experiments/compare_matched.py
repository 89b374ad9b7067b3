"""Matched per pair: ours from PENMAN beside the reference S2Match or WSMATCH tool, on any two files.

    python3 experiments/compare_matched.py TEST.amr GOLD.amr --match s2match [--preset amr-suite]
    python3 experiments/compare_matched.py TEST.amr GOLD.amr --match wsmatch

The reference runs as a peer on the two files (``s2match_peer_driver.py`` with
the packaged 50-d GloVe vectors as text, see ``compare_s2match.py``;
``wsmatch_peer_driver.py``, see ``compare_wsmatch.py``), ours with
``--preset`` and ``--match`` on the same files.  Printed: pairs with matched
equal, higher and lower than the reference's, pairs with equal totals, and both
corpus F1s (the reference's as it computes it, from its summed counts).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from experiment import add_workers  # noqa: E402
from peer_registry import PEERS  # noqa: E402

from smatchpp.api import Config, Scorer  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("test")
    ap.add_argument("gold")
    ap.add_argument("--match", choices=("s2match", "wsmatch"), required=True)
    ap.add_argument("--preset", default="amr-suite")
    add_workers(ap)
    ap.add_argument("--glove-text", type=Path, default=Path(tempfile.gettempdir()) / "glove.6B.50d.kumo.txt")
    args = ap.parse_args()
    if args.match == "s2match":
        from compare_s2match import write_glove_text

        options = ["--vectors", str(write_glove_text(args.glove_text))]
        totals = ("test_triples", "gold_triples")
    else:
        options = []
        totals = ("test_weight", "gold_weight")
    peer = PEERS[args.match].run(args.test, args.gold, *options, tool=f"{args.match} reference")
    if peer.status != "ok":
        sys.exit(f"reference failed ({peer.status}): {peer.stderr_tail}")
    records = sorted(peer.pairs, key=lambda r: r["index"])
    scorer = Scorer(Config(preset=args.preset, match=args.match))
    ours = scorer.score_corpus(read_file(args.test), read_file(args.gold), workers=args.workers)
    pairs = [(s, r) for s, r in zip(ours.pairs, records) if "error" not in r]
    mine = ("test_triples", "gold_triples") if args.match == "s2match" else ("test_weight", "gold_weight")
    report = {
        "pairs": len(records), "reference_errors": len(records) - len(pairs),
        "certified": sum(s.status == "optimal" for s, _ in pairs),
        "totals_equal": sum(all(abs(getattr(s, m) - r[t]) <= 1e-9 for m, t in zip(mine, totals))
                            for s, r in pairs),
        "matched_equal": sum(abs(s.matched - r["matched"]) <= 1e-9 for s, r in pairs),
        "matched_higher": sum(s.matched > r["matched"] + 1e-9 for s, r in pairs),
        "matched_lower": sum(s.matched < r["matched"] - 1e-9 for s, r in pairs),
        "f1_reference": peer.summary["f1"], "f1_ours": ours.summary()["micro"]["f1"],
        "signature": scorer.signature,
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()

"""Peer driver: the reference WSMATCH (``jcyk/AMR-parser``'s weighted ``smatch.py``) pair by pair.

Run with the peer's own interpreter (stdlib only), pointing ``--peer-src`` at the
directory that ``experiments/setup_peers.sh`` fills with the reference's
``smatch.py``, ``amr.py`` and ``AMRGraph.py`` (``amr-evaluation-tool-enhanced/smatch/``
at e412798, patched to run under python3; nothing of it is in this repository)::

    ~/.cache/wsmatch-peer/venv/bin/python experiments/wsmatch_peer_driver.py A.amr B.amr \
        --peer-src ~/.cache/wsmatch-peer/src --out pairs.jsonl

For every pair this does what the reference's ``main`` does with ``--weighted``
(and its defaults ``-r 4``, ``--levels -1``): read both graphs with
``get_amr_line``, parse them with ``amr.AMR.parse_AMR_line``, take
``get_triples(-1, True, prefix)`` (nodes renamed ``a0..``/``b0..``, each triple
with its level weight, and the total weight), align with ``get_best_match``
(smart start + 4 random restarts, each calling ``random.seed()``: unseeded, as
the reference) and clear ``match_triple_dict``.  Each JSONL record has the
matched weight, both total weights, the seconds the alignment took and the
reference's own weighted triples, so that they can be scored by us unchanged.
A pair the reference cannot parse (``parse_AMR_line`` returns None and its
``main`` would crash) gets an ``error`` instead.  The summary line (stdout) has
the corpus precision/recall/F1 as the reference computes them (``compute_f`` of
the summed weights), the scoring seconds and this process's peak RSS.
"""
from __future__ import annotations

import os
import sys
import time

from peer_driver_loop import driver_arguments, run_pairs

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _REPO]


def main() -> None:
    args = driver_arguments().parse_args()
    sys.path.insert(0, args.peer_src)
    import smatch as ref  # the reference implementation (its amr.py and AMRGraph.py beside it)

    ref.iteration_num = args.restarts + 1

    def score(line_a: str, line_b: str) -> dict:
        amr1 = ref.amr.AMR.parse_AMR_line(line_a)
        amr2 = ref.amr.AMR.parse_AMR_line(line_b)
        inst1, attr1, rel1, test = amr1.get_triples(-1, True, prefix="a")
        inst2, attr2, rel2, gold = amr2.get_triples(-1, True, prefix="b")
        began = time.perf_counter()
        _, matched = ref.get_best_match(inst1, attr1, rel1, inst2, attr2, rel2, "a", "b")
        return {"seconds": time.perf_counter() - began, "matched": float(matched),
                "test_weight": float(test), "gold_weight": float(gold),
                "triples_a": [inst1, attr1, rel1], "triples_b": [inst2, attr2, rel2]}

    with open(args.a, encoding="utf-8") as fa, open(args.b, encoding="utf-8") as fb, \
            open(args.out, "w") as out:
        run_pairs(ref, (fa, fb), out, score, ("test_weight", "gold_weight"))

if __name__ == "__main__":
    main()

"""Peer driver: the reference S2Match (``flipz357/amr-metric-suite``, ``s2match.py``) pair by pair.

Run with the peer's own interpreter (numpy + scipy), pointing ``--peer-src`` at a
directory holding the reference's ``s2match.py``, ``amr_py3.py`` and
``helpers.py`` (commit 711a231, the one BAMBOO used; nothing of it is in this
repository, see ``experiments/compare_s2match.py``)::

    $PEER/venv/bin/python experiments/s2match_peer_driver.py A.amr B.amr \
        --peer-src $PEER/src --vectors glove.txt --out pairs.jsonl

For every pair this does what the reference's ``main`` does with its default
flags (``-r 4``, cutoff 0.5, diffsense 0.5, ``-multi_token_concept_strategy
split``, quotes marked): read both graphs with ``get_amr_line``, parse them with
``amr_py3.AMR.parse_AMR_line``, rename the nodes ``a0..``/``b0..``, take
``get_triples()``, align with ``get_best_match`` (smart start + 4 random
restarts, each calling ``random.seed()``: unseeded, as the reference) and clear
``match_triple_dict``.  Each JSONL record has the matched (soft) count, the
triple counts, the seconds the alignment took, and the reference's own triples,
so that they can be scored by us unchanged.  The summary line (stdout) has the
corpus precision/recall/F1 as the reference computes them, the seconds spent
loading vectors and scoring, and this process's peak RSS.
"""
from __future__ import annotations

import os
import sys
import time

from peer_driver_loop import driver_arguments, run_pairs

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _REPO]


def main() -> None:
    ap = driver_arguments()
    ap.add_argument("--vectors", required=True)
    ap.add_argument("--cutoff", type=float, default=0.5)
    ap.add_argument("--diffsense", type=float, default=0.5)
    args = ap.parse_args()
    sys.path.insert(0, args.peer_src)
    import helpers  # the reference's logging helper
    import s2match as ref  # the reference implementation

    ref.log_helper = helpers.LogHelper(5)
    ref.amr.log_helper = ref.log_helper
    ref.iteration_num = args.restarts + 1
    t0 = time.perf_counter()
    vectors = ref.load_vecs(args.vectors)
    load_seconds = time.perf_counter() - t0
    simfun = ref.get_sim_fun("cosine")

    def score(line_a: str, line_b: str) -> dict:
        amr1 = ref.amr.AMR.parse_AMR_line(line_a, False)
        amr2 = ref.amr.AMR.parse_AMR_line(line_b, False)
        amr1.rename_node("a")
        amr2.rename_node("b")
        inst1, attr1, rel1 = amr1.get_triples()
        inst2, attr2, rel2 = amr2.get_triples()
        began = time.perf_counter()
        _, matched = ref.get_best_match(inst1, attr1, rel1, inst2, attr2, rel2, "a", "b",
                                        vectors, args.cutoff, args.diffsense, simfun, "split")
        return {"seconds": time.perf_counter() - began, "matched": float(matched),
                "test_triples": len(inst1) + len(attr1) + len(rel1),
                "gold_triples": len(inst2) + len(attr2) + len(rel2),
                "triples_a": [inst1, attr1, rel1], "triples_b": [inst2, attr2, rel2]}

    with open(args.a) as fa, open(args.b) as fb, open(args.out, "w") as out:
        run_pairs(ref, (fa, fb), out, score, ("test_triples", "gold_triples"),
                  {"load_seconds": load_seconds})

if __name__ == "__main__":
    main()

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

import argparse
import json
import os
import resource
import sys
import time

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _REPO]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--peer-src", required=True)
    ap.add_argument("--vectors", required=True)
    ap.add_argument("--cutoff", type=float, default=0.5)
    ap.add_argument("--diffsense", type=float, default=0.5)
    ap.add_argument("--restarts", type=int, default=4)
    ap.add_argument("--out", required=True)
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
    total_match = total_test = total_gold = 0.0
    n = 0
    t1 = time.perf_counter()
    with open(args.a) as fa, open(args.b) as fb, open(args.out, "w") as out:
        while True:
            line_a, line_b = ref.get_amr_line(fa), ref.get_amr_line(fb)
            if line_a == "" and line_b == "":
                break
            record: dict = {"index": n}
            try:
                amr1 = ref.amr.AMR.parse_AMR_line(line_a, False)
                amr2 = ref.amr.AMR.parse_AMR_line(line_b, False)
                amr1.rename_node("a")
                amr2.rename_node("b")
                inst1, attr1, rel1 = amr1.get_triples()
                inst2, attr2, rel2 = amr2.get_triples()
                began = time.perf_counter()
                _, matched = ref.get_best_match(inst1, attr1, rel1, inst2, attr2, rel2, "a", "b",
                                                vectors, args.cutoff, args.diffsense, simfun,
                                                "split")
                record["seconds"] = time.perf_counter() - began
                ref.match_triple_dict.clear()
                test = len(inst1) + len(attr1) + len(rel1)
                gold = len(inst2) + len(attr2) + len(rel2)
                record.update(matched=float(matched), test_triples=test, gold_triples=gold,
                              triples_a=[inst1, attr1, rel1], triples_b=[inst2, attr2, rel2])
                total_match += matched
                total_test += test
                total_gold += gold
            except Exception as exc:  # the reference would crash here
                record["error"] = f"{type(exc).__name__}: {exc}"
                ref.match_triple_dict.clear()
            out.write(json.dumps(record) + "\n")
            n += 1
    seconds = time.perf_counter() - t1
    p, r, f = ref.compute_f(total_match, total_test, total_gold)
    print(json.dumps({"pairs": n, "precision": p, "recall": r, "f1": f, "matched": total_match,
                      "test_triples": total_test, "gold_triples": total_gold,
                      "load_seconds": load_seconds, "seconds": seconds,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


if __name__ == "__main__":
    main()

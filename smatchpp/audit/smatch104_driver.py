"""Peer driver: score AMR pairs with the reference ``smatch`` 1.0.4 (PyPI).

Run with the PEER venv's python (see ``experiments/setup_peers.sh``)::

    $VENV/bin/python smatchpp/audit/smatch104_driver.py A.amr B.amr --out per_pair.jsonl \
        [--restarts 4] [--seed S]

A is the "test" file (smatch's first ``-f`` file), B the "gold" file.  For each
pair this reproduces ``smatch.score_amr_pairs`` with default settings: pairs are
read with ``smatch.generate_amr_lines`` (``amr.AMR.get_amr_line``), parsed with
``amr.AMR.parse_AMR_line``, renamed with prefixes "a"/"b", triples from
``get_triples()``, aligned with ``smatch.get_best_match`` using
``iteration_num = restarts + 1`` (smart init + ``restarts`` random inits), and
``smatch.match_triple_dict`` is cleared after every pair, as its main loop does.
This is ``smatch.get_amr_match`` inlined so that per-graph triple counts can be
reported without parsing twice.

Randomness: smatch 1.0.4 calls ``random.seed()`` (OS entropy) before *every*
initialisation, so by default results are not reproducible.  ``--seed S``
replaces the module's ``random`` with a ``random.Random`` whose argument-less
``seed()`` is a no-op and which is seeded with ``f"{S}:{index}"`` per pair.

Output: one JSON object per pair in ``--out`` (``{"index", "error"}`` for pairs
smatch cannot parse; smatch itself would crash there), and one summary JSON line
on stdout (corpus P/R/F over the non-error pairs, scoring seconds, self peak RSS).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import sys
import time
from typing import Any, Optional

# Never let our own `smatchpp` (or anything beside it) shadow the peer packages: this file
# is run as a plain script by another interpreter, from inside our package.
_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _REPO]

import amr  # smatch 1.0.4's parser module (peer venv)
import smatch  # smatch 1.0.4 (peer venv)


class _PairSeededRandom(random.Random):
    """``random.Random`` whose argument-less ``seed()`` (as smatch calls it) is ignored."""

    def seed(self, a: Any = None, version: int = 2) -> None:  # type: ignore[override]
        if a is not None:
            super().seed(a, version)


def score_pair(cur_amr1: str, cur_amr2: str) -> dict[str, int]:
    """Inline of ``smatch.get_amr_match`` (default flags) also returning triple counts."""
    amr1 = amr.AMR.parse_AMR_line(cur_amr1)
    amr2 = amr.AMR.parse_AMR_line(cur_amr2)
    if amr1 is None or amr2 is None:  # parse_AMR_line logs and returns None on format errors
        raise ValueError("parse_AMR_line returned None for amr %s" % ("1" if amr1 is None else "2"))
    amr1.rename_node("a")
    amr2.rename_node("b")
    instance1, attributes1, relation1 = amr1.get_triples()
    instance2, attributes2, relation2 = amr2.get_triples()
    _, best_match_num = smatch.get_best_match(instance1, attributes1, relation1,
                                              instance2, attributes2, relation2, "a", "b")
    return {
        "test_triples": len(instance1) + len(attributes1) + len(relation1),
        "gold_triples": len(instance2) + len(attributes2) + len(relation2),
        "matched": best_match_num,
        "n_instance_a": len(instance1), "n_attribute_a": len(attributes1), "n_relation_a": len(relation1),
        "n_instance_b": len(instance2), "n_attribute_b": len(attributes2), "n_relation_b": len(relation2),
    }


def main(argv: Optional[list[str]] = None) -> int:
    """Score all pairs of two AMR files; see module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", help="test file (smatch -f first argument)")
    ap.add_argument("b", help="gold file (smatch -f second argument)")
    ap.add_argument("--out", required=True, help="per-pair JSONL output path")
    ap.add_argument("--restarts", type=int, default=4, help="smatch -r (default 4)")
    ap.add_argument("--seed", type=int, default=None, help="make runs reproducible (non-default)")
    args = ap.parse_args(argv)

    smatch.iteration_num = args.restarts + 1  # what smatch.main does with -r
    smatch.verbose = smatch.veryVerbose = False
    rng = _PairSeededRandom() if args.seed is not None else None
    if rng is not None:
        smatch.random = rng  # smatch only uses random.seed / random.randint

    tot_match = tot_test = tot_gold = n_pairs = n_err = 0
    t0 = time.perf_counter()
    with open(args.a) as fa, open(args.b) as fb, open(args.out, "w", buffering=1) as out:
        for index, (cur1, cur2) in enumerate(smatch.generate_amr_lines(fa, fb)):
            n_pairs += 1
            if rng is not None:
                rng.seed("%d:%d" % (args.seed, index))
            try:
                rec: dict[str, Any] = {"index": index, **score_pair(cur1, cur2)}
                tot_match += rec["matched"]
                tot_test += rec["test_triples"]
                tot_gold += rec["gold_triples"]
            except MemoryError:
                raise
            except Exception as e:  # smatch 1.0.4 itself would crash on this pair
                n_err += 1
                rec = {"index": index, "error": "%s: %s" % (type(e).__name__, e)}
            finally:
                smatch.match_triple_dict.clear()
            out.write(json.dumps(rec) + "\n")
    seconds = time.perf_counter() - t0
    p, r, f = smatch.compute_f(tot_match, tot_test, tot_gold)
    summary = {"tool": "smatch-1.0.4", "pairs": n_pairs, "errors": n_err, "matched": tot_match,
               "test_triples": tot_test, "gold_triples": tot_gold, "precision": p, "recall": r,
               "f1": f, "seconds": seconds, "restarts": args.restarts, "seed": args.seed,
               "self_maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}
    print("scoring wall seconds: %.3f" % seconds, file=sys.stderr)
    print(json.dumps(summary), flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except MemoryError:
        print("MemoryError", file=sys.stderr)
        sys.exit(3)

"""Peer driver: smatch 1.0.4's public Python API on two files, as its users call it.

Run with the PEER venv's python (``experiments/setup_peers.sh``); prints one JSON object::

    $VENV/bin/python experiments/smatch_api_peer.py TEST GOLD [--limit N]

``pairs``: ``get_amr_match`` of every pair (``[match, test, gold]``) for the default and each of
``justinstance``/``justattribute``/``justrelation``; ``single``: what
``next(score_amr_pairs(f1, f2))`` yields; ``multi``: every yield with ``single_score = False``;
``seconds``: the time of ``single``.  ``tests/test_smatch_api.py`` compares
``smatchpp.smatch`` with it.  1.0.4 is unseeded, as its users run it.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _REPO]

import smatch  # noqa: E402  smatch 1.0.4 (peer venv)

MODES = ("all", "justinstance", "justattribute", "justrelation")


def lines(path: str, limit: int | None) -> list[str]:
    """The file's first ``limit`` AMRs as lines (all of them without a limit)."""
    with open(path) as handle:
        text = handle.read()
    if limit is None:
        return text.splitlines(keepends=True)
    blocks = [b for b in text.split("\n\n") if b.strip()][:limit]
    return "\n\n".join(blocks).splitlines(keepends=True) + ["\n"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    ap.add_argument("gold")
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args()
    test, gold = lines(args.test, args.limit), lines(args.gold, args.limit)
    pairs = []
    for k, (a, b) in enumerate(smatch.generate_amr_lines(iter(test), iter(gold)), start=1):
        row = {}
        for mode in MODES:
            flags = {mode: True} if mode != "all" else {}
            row[mode] = list(smatch.get_amr_match(a, b, sent_num=k, **flags))
            smatch.match_triple_dict.clear()
        pairs.append(row)
    began = time.perf_counter()
    single = list(next(smatch.score_amr_pairs(io.StringIO("".join(test)), io.StringIO("".join(gold)))))
    seconds = time.perf_counter() - began
    smatch.single_score = False
    multi = [list(t) for t in smatch.score_amr_pairs(iter(test), iter(gold))]
    json.dump({"pairs": pairs, "single": single, "multi": multi, "seconds": seconds}, sys.stdout)


if __name__ == "__main__":
    main()

"""Peer driver: per-pair counts of every aspect of ``mdtux89/amr-evaluation``.

``amr-evaluation`` (Damonte et al. 2017) only prints corpus P/R/F.  This
driver calls *its own code* pair by pair, so that every pair can be compared
with ours.  Its code is not part of this repository: fetch it outside the repo
(``/root/.cache/amr-eval-peer`` in ``docs/results.md``) and run, with any
Python 3 (it needs only the standard library)::

    python3 experiments/amr_eval_driver.py --peer /root/.cache/amr-eval-peer A.amr B.amr > peer.jsonl

What it does per pair, as ``evaluation.sh`` and ``scores.py`` do for a corpus:

* ``smatch``: its ``smatch/smatch.py`` (``get_amr_match``, 4 random restarts);
* ``unlabeled`` / ``no_wsd``: the same on the text rewritten by the ``sed``
  rule ``s/:[a-zA-Z0-9-]*/:label/g`` / the Perl rule
  ``s/(\\/ [a-zA-Z0-9\\-][a-zA-Z0-9\\-]*)-[0-9][0-9]*/\\1-01/g``;
* ``concepts``, ``named_ent``, ``negations``, ``wikification``: the set
  comparisons of ``scores.py`` through its ``utils`` functions;
* ``reentrancies``, ``srl``: ``utils.reentrancies`` / ``utils.srl`` and
  ``smatch/smatch_fromlists.get_amr_match``.

The hill-climbers call ``random.seed()`` before every random start; here their
``random`` is a generator seeded with ``f"{seed}:{aspect}:{index}"`` per pair,
so that runs repeat.  Output: one JSON object per pair,
``{"index": i, "<aspect>": [matched, test, gold], ...}``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import re
import sys
from typing import Any


class _Seeded(random.Random):
    """``random.Random`` whose argument-less ``seed()`` (as the peer calls it) is ignored."""

    def seed(self, a: Any = None, version: int = 2) -> None:  # type: ignore[override]
        if a is not None:
            super().seed(a, version)


def _load(peer: str):
    # smatch/smatch.py imports its parser as the top-level module ``amr``
    sys.path.insert(0, f"{peer}/smatch")
    spec = importlib.util.spec_from_file_location("damonte_smatch", f"{peer}/smatch/smatch.py")
    smatch = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(smatch)
    sys.path.pop(0)
    sys.path.insert(0, peer)
    import smatch.amr as pamr  # noqa: E402  (the package smatch/ of the peer)
    import smatch.smatch_fromlists as fromlists  # noqa: E402
    import utils  # noqa: E402
    return smatch, pamr, fromlists, utils


def _graphs(text: str, amr_module) -> list[str]:
    """One-line graphs as smatch.py reads a file (``AMR.get_amr_line``)."""
    lines = iter(text.splitlines(keepends=True))
    out = []
    while True:
        g = amr_module.AMR.get_amr_line(lines)
        if not g:
            return out
        out.append(g)


def _preprocess(text: str) -> list[str]:
    """As ``evaluation.sh`` before ``scores.py``: no comments, tabs to spaces, squeezed spaces."""
    text = re.sub(r"(?m)^#.*\n", "", text).replace("\t", " ")
    text = re.sub(r" +", " ", text)
    return text.strip().split("\n\n")


def _triples(graph, utils) -> tuple[dict, list]:
    v2c = utils.var2concept(graph)
    out = []
    for t in graph.get_triples()[1] + graph.get_triples()[2]:
        out.append((t[0][:-3], t[2], t[1]) if t[0].endswith("-of") else (t[0], t[1], t[2]))
    return v2c, out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peer", required=True, help="checkout of mdtux89/amr-evaluation")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("test")
    parser.add_argument("gold")
    args = parser.parse_args(argv)
    smatch, pamr, fromlists, utils = _load(args.peer)
    texts = [open(p, encoding="utf-8").read() for p in (args.test, args.gold)]
    variants = {
        "smatch": texts,
        "unlabeled": [re.sub(r":[a-zA-Z0-9-]*", ":label", t) for t in texts],
        "no_wsd": [re.sub(r"(/ [a-zA-Z0-9\-][a-zA-Z0-9\-]*)-[0-9][0-9]*", r"\1-01", t) for t in texts],
    }
    rows: list[dict[str, Any]] = []
    for name, (ta, tb) in variants.items():
        ga, gb = _graphs(ta, smatch.amr), _graphs(tb, smatch.amr)
        for i, (a, b) in enumerate(zip(ga, gb)):
            if len(rows) <= i:
                rows.append({"index": i})
            smatch.random = _Seeded(f"{args.seed}:{name}:{i}")
            rows[i][name] = list(smatch.get_amr_match(a, b))
            smatch.match_triple_dict.clear()
    sets = {"concepts": lambda v2c, t: utils.concepts(v2c),
            "named_ent": utils.namedent, "negations": utils.negations,
            "wikification": lambda v2c, t: utils.wikification(t)}
    lists = {"reentrancies": utils.reentrancies, "srl": utils.srl}
    for i, (a, b) in enumerate(zip(*(_preprocess(t) for t in texts))):
        pa = pamr.AMR.parse_AMR_line(a.replace("\n", ""))
        pb = pamr.AMR.parse_AMR_line(b.replace("\n", ""))
        (va, ta), (vb, tb) = _triples(pa, utils), _triples(pb, utils)
        for name, extract in sets.items():
            la, lb = set(utils.disambig(extract(va, ta))), set(utils.disambig(extract(vb, tb)))
            rows[i][name] = [len(la & lb), len(la), len(lb)]
        for name, extract in lists.items():
            fromlists.random = _Seeded(f"{args.seed}:{name}:{i}")
            g1, g2 = next(fromlists.generate_amr_lines([extract(va, ta)], [extract(vb, tb)]))
            rows[i][name] = list(fromlists.get_amr_match(g1, g2))
            fromlists.match_triple_dict.clear()
    for row in rows:
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())

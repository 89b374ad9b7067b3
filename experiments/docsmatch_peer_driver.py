"""Runs docSmatch (``docSmatch/smatch.py`` of IBM/docAMR) pair by pair, under its own interpreter.

Run by ``experiments/compare_docsmatch.py`` (never imported by smatchpp): docSmatch is a
program, so this driver imports its modules from ``--peer-src`` (the folder holding
``docSmatch/``) and calls its ``get_amr_match`` once per pair, exactly as its ``main`` does
(``-r`` restarts: ``iteration_num = r + 1``; ``match_triple_dict`` cleared after each pair),
with ``coref=True``.  A wrapper around its ``get_best_match`` records the node mapping that
``get_amr_match`` scores, so the coreference subscore can be recomputed on the same
alignment.  For each graph it also writes docSmatch's own sentence buckets
(``nodes_by_sentence``) and coreference items (``coref_nodes``, ``coref_edges``) by the
variable names of the file.  One JSON line per pair, then a summary line with the seconds
spent aligning and the process's peak RSS.

    venv/bin/python experiments/docsmatch_peer_driver.py A B --peer-src DIR --restarts 1 --out OUT.jsonl
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time


def graph_facts(amr_module, line: str) -> dict:
    """docSmatch's buckets and coreference items of one graph, by the file's variable names."""
    g = amr_module.AMR.parse_AMR_line(line)
    buckets: dict[str, list[int]] = {n: [] for n in g.nodes}
    sentence_numbers = [0]
    roots = {}
    for rel in g.relations[g.nodes.index(g.root)]:
        if rel[0].startswith("snt"):
            roots[int(rel[0][3:])] = rel[1]
    if roots:
        sentence_numbers += sorted(roots)
    for k, members in enumerate(g.nodes_by_sentence):
        number = sentence_numbers[k] if roots else 0
        for n in members:
            if number not in buckets[n]:
                buckets[n].append(number)
    return {"nodes": list(g.nodes), "buckets": {n: sorted(b) for n, b in buckets.items()},
            "coref_nodes": list(g.coref_nodes), "coref_edges": [list(e) for e in g.coref_edges]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--peer-src", required=True)
    ap.add_argument("--restarts", type=int, default=4)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    sys.path.insert(0, args.peer_src)
    from docSmatch import amr as doc_amr  # noqa: E402  (the peer's own modules)
    from docSmatch import smatch as doc_smatch  # noqa: E402

    doc_smatch.iteration_num = args.restarts + 1
    seen = {}
    original = doc_smatch.get_best_match

    def recording(*a, **k):
        found = original(*a, **k)
        seen["mapping"] = list(found[0])
        return found

    doc_smatch.get_best_match = recording
    spent = 0.0
    pairs = 0
    with open(args.a, encoding="utf-8") as fa, open(args.b, encoding="utf-8") as fb, \
            open(args.out, "w", encoding="utf-8") as out:
        for index, (line_a, line_b) in enumerate(doc_smatch.generate_amr_lines(fa, fb)):
            began = time.perf_counter()
            (matched, test, gold), subscores = doc_smatch.get_amr_match(line_a, line_b, sent_num=index + 1,
                                                                     coref=True)
            seconds = time.perf_counter() - began
            doc_smatch.match_triple_dict.clear()
            spent += seconds
            pairs += 1
            fa_, fb_ = graph_facts(doc_amr, line_a), graph_facts(doc_amr, line_b)
            mapping = [[fa_["nodes"][i], fb_["nodes"][j]] for i, j in enumerate(seen["mapping"]) if j >= 0]
            coref = subscores["Total Coref"].get()
            out.write(json.dumps({"index": index, "matched": matched, "test": test, "gold": gold,
                                  "seconds": seconds, "coref": list(coref), "mapping": mapping,
                                  "a": fa_, "b": fb_}) + "\n")
            out.flush()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(json.dumps({"pairs": pairs, "seconds": spent, "peak_mb": peak}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

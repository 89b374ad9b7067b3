"""Bio documents with cross-sentence coreference, and documents whose sentences do not line up.

Built from ``experiments/build_documents.py``'s documents (``n`` consecutive AMRs of the Bio
test corpus under one ``multi-sentence`` root):

* ``merge-names``: named entities merged across the document, as docAMR's ``merge-names``
  representation does: every node with the same concept and the same ``:name`` strings as an
  earlier one is replaced by it (the relations into it point to the earlier node, its other
  relations move there, its ``name`` node goes), so one node hangs under several sentences;
* kinds per size: ``merged-perturb`` (a seeded perturbed copy of the merged document against
  the merged document, sentences aligned), ``insert`` (the document with one more sentence in
  the middle against the document: the sentences after it are numbered one higher, which
  docSmatch's restriction cannot follow) and ``merged-insert`` (both merged).

Deterministic (``--seed``); written to ``--out`` (default ``experiments/data/``, ignored by git)
as ``bio-doc{n}-{kind}.test.amr`` / ``.gold.amr``, ``--pairs`` pairs each.

    python3 experiments/build_coref_documents.py --sizes 10 20 50 --pairs 4

>>> import penman
>>> g = penman.decode('(m / multi-sentence :snt1 (a / see-01 :ARG0 (p / person :name (n / name :op1 "Ann"))) '
...                   ':snt2 (b / sleep-01 :ARG0 (q / person :name (o / name :op1 "Ann"))))')
>>> print(penman.encode(merge_names(g), indent=None))
(m / multi-sentence :snt1 (a / see-01 :ARG0 (p / person :name (n / name :op1 "Ann"))) :snt2 (b / sleep-01 :ARG0 p))
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import penman

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from build_documents import BIO, _encode, command, document, perturb, read_bio, write_kinds  # noqa: E402


def merge_names(graph: penman.Graph) -> penman.Graph:
    """docAMR's ``merge-names`` rule on one document (see the module doc)."""
    concept = {s: t for s, r, t in graph.triples if r == ":instance"}
    name_of = {s: t for s, r, t in graph.triples if r == ":name" and concept.get(t) == "name"}
    ops: dict[str, list[tuple[str, str]]] = {}
    for s, r, t in graph.triples:
        if s in concept and concept[s] == "name" and r.startswith(":op"):
            ops.setdefault(s, []).append((r, t))
    first: dict[tuple, str] = {}
    into: dict[str, str] = {}
    for v in concept:  # in the order of the graph's variables
        n = name_of.get(v)
        if n is None or not ops.get(n):
            continue
        key = (concept[v], tuple(sorted(ops[n])))
        if key in first:
            into[v] = first[key]
        else:
            first[key] = v
    gone = set(into) | {name_of[v] for v in into}
    out, seen = [], set()
    for s, r, t in graph.triples:
        if s in gone and (r == ":instance" or r == ":name" or s not in into):
            continue  # the merged node's concept and name, and its name node's triples
        triple = (into.get(s, s), r, into.get(t, t) if r != ":instance" else t)
        if triple in seen and r != ":instance":
            continue
        seen.add(triple)
        out.append(triple)
    return penman.Graph(out, top=graph.top)


def build(sizes: list[int], pairs: int, out: Path, seed: int, path: Path = BIO) -> list[Path]:
    sentences = read_bio(path)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for n in sizes:
        if n + 1 + pairs > len(sentences):
            raise SystemExit(f"{n} sentences x {pairs} pairs need more than {len(sentences)} AMRs")
        step = max((len(sentences) - n - 2) // max(pairs, 1), 1)
        rng = random.Random(f"{seed}-coref-{n}")
        kinds: dict[str, tuple[list[str], list[str]]] = {k: ([], []) for k in
                                                          ("merged-perturb", "insert", "merged-insert")}
        for s in (k * step for k in range(pairs)):
            window = sentences[s:s + n]
            extra = sentences[s + n]
            inserted = window[:n // 2] + [extra] + window[n // 2:]
            merged = merge_names(document(window))
            docs = {"merged-perturb": (perturb(merged, rng), merged),
                    "insert": (document(inserted), document(window)),
                    "merged-insert": (merge_names(document(inserted)), merged)}
            for kind, (test, gold) in docs.items():
                kinds[kind][0].append(_encode(test, f"bio-doc{n}-{kind}-{s}"))
                kinds[kind][1].append(_encode(gold, f"bio-doc{n}-{kind}-{s}"))
        written += write_kinds(kinds, n, out)
    return written


def main(argv: list[str] | None = None) -> int:
    return command(build, __doc__.split("\n\n")[0], [10, 20, 50], 4, argv)


if __name__ == "__main__":
    sys.exit(main())

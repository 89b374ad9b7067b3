"""Build document-level AMR pairs from the Bio test corpus (issue 12).

A *document* of ``n`` sentences is ``n`` consecutive AMRs of
``amr-release-test-bio.txt`` under one ``multi-sentence`` root, sentence ``k``
hanging off ``:snt{k}`` (variables renamed ``s{k}v{j}`` so they stay
distinct).  Two kinds of pair per size:

* ``shift``: the document starting at sentence ``s`` against the one starting
  at ``s + 1``; every sentence of one side appears on the other side under the
  neighbouring ``:sntN`` number, so an aligner that trusts sentence numbers
  (DocAMR's) cannot find the match;
* ``perturb``: a document against a seeded perturbed copy of itself (some
  concepts replaced, some roles renamed, some edges dropped).

Everything is deterministic (``--seed``).  Output goes to ``--out`` (by
default ``experiments/data/``, which is ignored by git): per size ``n`` and
kind, ``bio-doc{n}-{kind}.test.amr`` and ``bio-doc{n}-{kind}.gold.amr`` with
``--pairs`` parallel pairs each.  Shared data is never copied into the repo.

    python3 experiments/build_documents.py --sizes 10 30 70 150 --pairs 3

>>> g1 = penman.decode("(a / dog :ARG0-of (b / bark-01))")
>>> g2 = penman.decode("(a / cat)")
>>> doc = document([g1, g2])
>>> print(penman.encode(doc, indent=None))
(m / multi-sentence :snt1 (s1v0 / dog :ARG0-of (s1v1 / bark-01)) :snt2 (s2v0 / cat))
>>> [t for t in perturb(doc, random.Random(0), 1.0).triples if t[1] != ":instance"]
[('m', ':snt1', 's1v0'), ('s1v1', ':poss', 's1v0'), ('m', ':snt2', 's2v0')]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import penman

HERE = Path(__file__).resolve().parent
from experiment import DATA as SHARED  # noqa: E402
BIO = SHARED / "bio" / "amr-release-test-bio.txt"
OUT = HERE / "data"

#: share of concepts replaced, roles renamed and edges dropped by ``perturb`` (each)
PERTURB_RATE = 0.1
_ROLES = (":ARG0", ":ARG1", ":ARG2", ":mod", ":location", ":time", ":manner", ":poss")


def read_bio(path: Path = BIO) -> list[penman.Graph]:
    """The corpus's AMRs in file order."""
    return list(penman.iterdecode(path.read_text(encoding="utf-8")))


def document(sentences: list[penman.Graph]) -> penman.Graph:
    """One ``multi-sentence`` graph with sentence ``k`` under ``:snt{k}`` (variables renamed)."""
    triples = [("m", ":instance", "multi-sentence")]
    for k, g in enumerate(sentences, start=1):
        # the sentence's own top is s{k}v0, so the layout nests it under :snt{k}
        names = {g.top: f"s{k}v0"}
        # in written order (penman's variables() is a set: its order follows the hash seed)
        for j, v in enumerate(v for v in dict.fromkeys(s for s, _, _ in g.instances()) if v != g.top):
            names[v] = f"s{k}v{j + 1}"
        triples.append(("m", f":snt{k}", names[g.top]))
        # sentence triples follow their :snt edge so the encoder nests them
        triples.extend((names[s], role, names[t] if t in names and role != ":instance" else t)
                       for s, role, t in g.triples)
    return penman.Graph(triples, top="m")


def perturb(graph: penman.Graph, rng: random.Random, rate: float = PERTURB_RATE) -> penman.Graph:
    """A copy with about ``rate`` of the concepts replaced, roles renamed and edges dropped.

    The root and the ``:sntN`` edges are kept, and only edges outside a
    spanning tree (reentrancies) and attributes are dropped, so the result
    stays one connected document.
    """
    concepts = sorted({t for _, r, t in graph.triples if r == ":instance"})
    variables = set(graph.variables())
    keep = _spanning_edges(graph)
    out = []
    for index, (s, role, t) in enumerate(graph.triples):
        x = rng.random()
        if role == ":instance":
            if s != graph.top and x < rate:
                t = rng.choice(concepts)
        elif role.startswith(":snt"):
            pass
        elif t in variables:
            if x < rate and index not in keep:  # a reentrancy: dropping it keeps the graph connected
                continue
            if x < 2 * rate:
                role = rng.choice(_ROLES)
        elif x < rate:  # an attribute: drop it
            continue
        out.append((s, role, t))
    return penman.Graph(out, top=graph.top)


def _spanning_edges(graph: penman.Graph) -> set[int]:
    """Indices of the edge triples of a spanning tree (breadth first from the top, both directions)."""
    variables = set(graph.variables())
    adjacent: dict[str, list[tuple[str, int]]] = {v: [] for v in variables}
    for index, (s, role, t) in enumerate(graph.triples):
        if role != ":instance" and t in variables:
            adjacent[s].append((t, index))
            adjacent[t].append((s, index))
    seen, frontier, tree = {graph.top}, [graph.top], set()
    while frontier:
        nxt = []
        for v in frontier:
            for w, index in adjacent[v]:
                if w not in seen:
                    seen.add(w)
                    tree.add(index)
                    nxt.append(w)
        frontier = nxt
    return tree


def _encode(graph: penman.Graph, ident: str) -> str:
    graph.metadata = {"id": ident}
    return penman.encode(graph, indent=6)


def build(sizes: list[int], pairs: int, out: Path, seed: int, path: Path = BIO) -> list[Path]:
    """Write the files of the module docstring; return their paths."""
    sentences = read_bio(path)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for n in sizes:
        if n + pairs > len(sentences):
            raise SystemExit(f"{n} sentences x {pairs} pairs need more than {len(sentences)} AMRs")
        # windows spread over the corpus, deterministically
        step = max((len(sentences) - n - 1) // max(pairs, 1), 1)
        starts = [k * step for k in range(pairs)]
        rng = random.Random(f"{seed}-{n}")
        kinds: dict[str, tuple[list[str], list[str]]] = {"shift": ([], []), "perturb": ([], [])}
        for s in starts:
            a = document(sentences[s:s + n])
            b = document(sentences[s + 1:s + n + 1])
            kinds["shift"][0].append(_encode(a, f"bio-doc{n}-shift-{s}"))
            kinds["shift"][1].append(_encode(b, f"bio-doc{n}-shift-{s}"))
            kinds["perturb"][0].append(_encode(perturb(a, rng), f"bio-doc{n}-perturb-{s}"))
            kinds["perturb"][1].append(_encode(document(sentences[s:s + n]), f"bio-doc{n}-perturb-{s}"))
        written += write_kinds(kinds, n, out)
    return written


def write_kinds(kinds: dict[str, tuple[list[str], list[str]]], n: int, out: Path) -> list[Path]:
    """Write each kind's test and gold documents (encoded) of size ``n`` as
    ``bio-doc{n}-{kind}.{test,gold}.amr``; the paths written."""
    written = []
    for kind, (test, gold) in kinds.items():
        for side, graphs in (("test", test), ("gold", gold)):
            f = out / f"bio-doc{n}-{kind}.{side}.amr"
            f.write_text("\n\n".join(graphs) + "\n", encoding="utf-8")
            written.append(f)
    return written


def command(build_files, description: str, sizes: list[int], pairs: int,
            argv: list[str] | None = None) -> int:
    """The command line of a document builder: ``build_files(sizes, pairs, out, seed, bio)``
    writes the files and returns their paths, which are printed."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--sizes", type=int, nargs="+", default=sizes)
    ap.add_argument("--pairs", type=int, default=pairs, help="pairs per size and kind")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--bio", type=Path, default=BIO)
    args = ap.parse_args(argv)
    if not args.bio.exists():
        print(f"not found: {args.bio}", file=sys.stderr)
        return 2
    for f in build_files(args.sizes, args.pairs, args.out, args.seed, args.bio):
        print(f)
    return 0


def main(argv: list[str] | None = None) -> int:
    return command(build, __doc__.split("\n\n")[0], [10, 30, 70, 150], 3, argv)


if __name__ == "__main__":
    sys.exit(main())

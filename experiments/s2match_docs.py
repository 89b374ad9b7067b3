"""S2Match (or any matcher) against exact Smatch on the document graphs, one process, one worker.

    python3 experiments/s2match_docs.py doc20 s2match     # or exact, wsmatch, ...

Prints: set, matcher, pairs, seconds (reading excluded; vectors loading included), certified
pairs, the tolerance they were certified within, the stages, micro F1 and the process's peak RSS
(MB); then one line per pair (index, matched, upper, status, seconds, candidate pairs).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import resource  # noqa: E402
import time  # noqa: E402

from smatchpp.api import Config, Scorer  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402

from experiment import DATA  # noqa: E402

DOCS = DATA / "docs"


def main() -> None:
    name, match = sys.argv[1], sys.argv[2]
    a = read_file(DOCS / f"lp-bart-{name}.pred.amr")
    b = read_file(DOCS / f"lp-bart-{name}.gold.amr")
    began = time.time()
    corpus = Scorer(Config(match=match)).score_corpus(a, b, workers=1)
    s = corpus.summary()
    print(name, match, len(a), round(time.time() - began, 2), s["optimal"], s["certified_within"],
          s["certified_by"], s["micro"]["f1"], resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    for p in corpus.pairs:
        print(p.index, p.matched, p.upper, p.status, round(p.seconds, 2), p.stats.get("pairs_before"))


if __name__ == "__main__":
    main()

"""The pair loop both reference drivers share (``s2match_peer_driver.py``, ``wsmatch_peer_driver.py``).

Runs under a peer's own interpreter (stdlib only).  ``score(line_a, line_b)``
aligns one pair with the reference and returns its record fields:
``matched``, the two totals (under ``totals``' names), ``seconds`` and the
reference's own triples.  A pair the reference cannot handle gets an
``error`` instead (the reference's ``main`` would crash there).  After every
pair the reference's ``match_triple_dict`` cache is cleared, as its ``main``
does.  The summary line (stdout) has the corpus precision/recall/F1 as the
reference computes them (``compute_f`` of the summed counts), the scoring
seconds and this process's peak RSS, plus ``extra``.

>>> import io, types
>>> lines = iter(["(a / b)", "", ""]), iter(["(c / d)", "", ""])
>>> ref = types.SimpleNamespace(match_triple_dict={},
...     get_amr_line=lambda f: next(f), compute_f=lambda m, t, g: (m / t, m / g, m / t))
>>> out = io.StringIO()
>>> summary = run_pairs(ref, lines, out, lambda a, b: {"matched": 1.0, "test": 2, "gold": 2},
...                     ("test", "gold"), print_summary=False)
>>> summary["pairs"], summary["f1"], out.getvalue().count("\\n")
(1, 0.5, 1)
"""
from __future__ import annotations

import argparse
import json
import resource
import time
from typing import Callable, TextIO


def driver_arguments() -> argparse.ArgumentParser:
    """The options every driver takes: the two files, the reference's folder, restarts, output."""
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--peer-src", required=True)
    ap.add_argument("--restarts", type=int, default=4)
    ap.add_argument("--out", required=True)
    return ap


def run_pairs(ref, files: tuple, out: TextIO, score: Callable[[str, str], dict],
              totals: tuple[str, str], extra: dict | None = None,
              print_summary: bool = True) -> dict:
    """Score every pair of the two open files ``files`` with ``score``; write JSONL to ``out``."""
    total_match = total_test = total_gold = 0.0
    n = 0
    began = time.perf_counter()
    fa, fb = files
    while True:
        line_a, line_b = ref.get_amr_line(fa), ref.get_amr_line(fb)
        if line_a == "" and line_b == "":
            break
        record: dict = {"index": n}
        try:
            record.update(score(line_a, line_b))
            total_match += record["matched"]
            total_test += record[totals[0]]
            total_gold += record[totals[1]]
        except Exception as exc:  # the reference would crash here
            record["error"] = f"{type(exc).__name__}: {exc}"
        ref.match_triple_dict.clear()
        out.write(json.dumps(record) + "\n")
        n += 1
    seconds = time.perf_counter() - began
    p, r, f = ref.compute_f(total_match, total_test, total_gold)
    summary = {"pairs": n, "precision": p, "recall": r, "f1": f, "matched": total_match,
               totals[0]: total_test, totals[1]: total_gold, **(extra or {}), "seconds": seconds,
               "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    if print_summary:
        print(json.dumps(summary))
    return summary

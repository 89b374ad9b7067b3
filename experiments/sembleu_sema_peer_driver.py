"""Peer driver: the reference SemBleu or SEMA, pair by pair, in the reference's own checkout.

Run with a plain ``python3`` (both references need only the standard library),
pointing ``--ref`` at an extracted checkout (nothing of it is in this
repository; ``experiments/compare_sembleu_sema.py`` extracts it)::

    python3 experiments/sembleu_sema_peer_driver.py sembleu --ref ~/.cache/ref-sembleu-530bc05 \
        --ks 1,2,3 HYP.amr REF.amr [HYP2.amr REF2.amr ...]
    python3 experiments/sembleu_sema_peer_driver.py sema --ref ~/.cache/ref-sema-9a4911c TEST.amr GOLD.amr

SemBleu: each file is read with the reference's ``eval.read_amr``, each graph
parsed with ``AMRGraph``, turned with ``revert_of_edges`` and cut into k-grams
with ``extract_ngrams(max(ks), multi_roots=True)``, as ``eval.py`` does; each
pair is then its own corpus: ``corpus_bleu`` with uniform weights ``1/k``,
smoothing ``method3`` and ``auto_reweigh`` (BAMBOO's protocol).  SEMA: each pair
is read with ``AMR.get_amr_line``/``parse_AMR_line``, renamed ``a``/``b`` and
scored by a fresh ``Sema().compute_sema`` (its F1), as ``sema.py``'s ``main``
does for one pair.  A pair the reference cannot score gets ``null`` and its
error.  Output: one JSON object on stdout with the scores per file pair and the
seconds spent.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import time

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _REPO]


def run_sembleu(ref: str, files: list[tuple[str, str]], ks: list[int]) -> dict:
    sys.path.insert(0, os.path.join(ref, "src"))
    import eval as sembleu_eval  # the reference's reader
    from amr_graph import AMRGraph
    from bleu_score import NgramInst, SmoothingFunction, corpus_bleu

    smooth = SmoothingFunction().method3

    def grams(path: str) -> list:
        out = []
        for line in sembleu_eval.read_amr(path):
            try:
                g = AMRGraph(line.strip())
                g.revert_of_edges()
                out.append(NgramInst(ngram=g.extract_ngrams(max(ks), multi_roots=True), length=len(g.edges)))
            except Exception as exc:  # the reference fails on this graph
                out.append(f"{type(exc).__name__}: {exc}")
        return out

    result = []
    for hyp_path, ref_path in files:
        hyps, refs = grams(hyp_path), grams(ref_path)
        scores: dict[str, list] = {str(k): [] for k in ks}
        errors: list = []
        for h, r in zip(hyps, refs):
            err = h if isinstance(h, str) else r if isinstance(r, str) else None
            for k in ks:
                if err is None:
                    try:
                        with contextlib.redirect_stdout(io.StringIO()):  # auto_reweigh prints
                            value = corpus_bleu([[r]], [h], weights=(1.0 / k,) * k,
                                                smoothing_function=smooth, auto_reweigh=True)
                        scores[str(k)].append(float(value))
                        continue
                    except Exception as exc:
                        err = f"{type(exc).__name__}: {exc}"
                scores[str(k)].append(None)
            errors.append(err)
        result.append({"hyp": hyp_path, "ref": ref_path, "graphs": [len(hyps), len(refs)],
                       "scores": scores, "errors": errors})
    return {"files": result}


def run_sema(ref: str, files: list[tuple[str, str]]) -> dict:
    sys.path.insert(0, ref)
    from amr import AMR
    from sema import Sema

    def lines(path: str) -> list[str]:
        out = []
        with open(path, encoding="utf-8") as f:
            while True:
                line = AMR.get_amr_line(f)
                if line == "":
                    return out
                out.append(line)

    result = []
    for test_path, gold_path in files:
        tests, golds = lines(test_path), lines(gold_path)
        scores, errors = [], []
        for t, g in zip(tests, golds):
            try:
                a, b = AMR.parse_AMR_line(t), AMR.parse_AMR_line(g)
                a.rename_node("a")
                b.rename_node("b")
                s = Sema()
                s.compute_sema(a, b)
                p, r, f = s.get_sema_value()
                scores.append([s.m, s.c, s.t, float(f)])
                errors.append(None)
            except Exception as exc:
                scores.append(None)
                errors.append(f"{type(exc).__name__}: {exc}")
        result.append({"test": test_path, "gold": gold_path, "graphs": [len(tests), len(golds)],
                       "scores": scores, "errors": errors})
    return {"files": result}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("metric", choices=("sembleu", "sema"))
    ap.add_argument("--ref", required=True, help="the extracted reference checkout")
    ap.add_argument("--ks", default="3", help="SemBleu orders, comma-separated (1,2,3)")
    ap.add_argument("files", nargs="+", help="pairs of files: hypothesis/test then reference/gold")
    args = ap.parse_args()
    if len(args.files) % 2:
        ap.error("files come in pairs")
    pairs = list(zip(args.files[0::2], args.files[1::2]))
    began = time.perf_counter()
    out = run_sembleu(args.ref, pairs, [int(k) for k in args.ks.split(",")]) if args.metric == "sembleu" else run_sema(args.ref, pairs)
    out["seconds"] = time.perf_counter() - began
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

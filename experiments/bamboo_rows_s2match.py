"""BAMBOO rows for S2Match and WSMATCH (and exact Smatch as the reference row), beside the published ones.

A minimal BAMBOO runner, written because the general one (``experiments/bamboo.py``,
the presets work) had not landed when these rows were needed; it follows the
benchmark's protocol, ``evaluation-suite/evaluate4tasks.py`` of
``flipz357/bamboo-amr-benchmark``:

* every task scores ``src.test.amr`` against ``tgt.test.amr`` pair by pair; a
  pair's score is its F1;
* main, reify and syno: Pearson's r (x100) between the scores and the human
  scores of ``orig.test.txt`` (STS column 4, SICK column 3, PARA column 0),
  min-max normalized, over the protocol's line ranges (STS ``[0, 1379)``, SICK
  ``[1, 4928)``, PARA ``[1, 1726)``: the empty first graph of SICK and PARA and
  the last pair of each are left out, as there);
* role_confusion: pair accuracy over consecutive pairs (original, foil) in the
  ranges ``[0, 158)``, ``[0, 238)``, ``[0, 2242)``: correct when the original
  scores strictly higher than its foil (a tie is wrong);
* AMEAN: the mean of the 12 cells.

Usage (``--set`` takes any Config field; rows are scored with all cores)::

    python3 experiments/bamboo_rows_s2match.py --row s2match match=s2match \\
        --row wsmatch match=wsmatch --row smatch match=exact [--workers 2]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import pearsonr

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from smatchpp.api import Config, Scorer  # noqa: E402
from smatchpp.read import read_file  # noqa: E402

BAMBOO = HERE.parent.parent / "shared" / "data" / "bamboo"
DATASETS = {"sts": (4, (0, 1379), (0, 158)), "sick": (3, (1, 4928), (0, 238)),
            "para": (0, (1, 1726), (0, 2242))}
KINDS = ("main", "reify", "syno", "role_confusion")
COLUMNS = [f"{d.upper()}{'' if k == 'main' else '(' + k.split('_')[0] + ')'}"
           for k in KINDS for d in DATASETS]

#: published rows: BAMBOO README v0.2 (flipz357/bamboo-amr-benchmark, "latest update
#: 07/12/2023"), S2match with 100-d GloVe; cells in the order of COLUMNS
PUBLISHED = {
    "Smatch (README v0.2)": [58.39, 59.75, 41.32, 58.03, 61.79, 39.47, 56.13, 57.37, 39.54,
                             89.87, 98.32, 88.14, 62.34],
    "S2match(def) (README v0.2)": [56.39, 58.11, 42.40, 55.78, 59.97, 40.67, 56.04, 57.15, 40.93,
                                   93.67, 98.32, 91.26, 62.56],
}


def human_scores(dataset: str) -> np.ndarray:
    column, (lo, hi), _ = DATASETS[dataset]
    lines = (BAMBOO / dataset / "orig.test.txt").read_text(encoding="utf-8").split("\n")[lo:hi]
    values = np.array([float(line.split("\t")[column]) for line in lines])
    return (values - values.min()) / (values.max() - values.min())


def pair_accuracy(scores: np.ndarray) -> float:
    """Consecutive (original, foil) pairs: correct if the original scores strictly higher."""
    gold = np.tile([0.0, 1.0], len(scores) // 2)
    correct = [(gold[i] - gold[i + 1]) * (scores[i] - scores[i + 1]) > 0
               for i in range(0, len(gold), 2)]
    return float(np.mean(correct))


def task_scores(scorer: Scorer, dataset: str, kind: str, workers: int) -> np.ndarray:
    folder = BAMBOO / dataset / kind
    corpus = scorer.score_corpus(read_file(folder / "src.test.amr"),
                                 read_file(folder / "tgt.test.amr"), workers=workers)
    uncertified = sum(p.status != "optimal" for p in corpus.pairs)
    if uncertified:
        print(f"  {dataset}/{kind}: {uncertified} pairs not certified", file=sys.stderr)
    return np.array([p.f1 for p in corpus.pairs]), len(corpus.pairs) - uncertified


def row(config: Config, workers: int) -> tuple[list[float], dict]:
    scorer = Scorer(config)
    cells, info = [], {"certified": 0, "pairs": 0, "seconds": 0.0}
    for kind in KINDS:
        for dataset in DATASETS:
            began = time.perf_counter()
            scores, certified = task_scores(scorer, dataset, kind, workers)
            info["seconds"] += time.perf_counter() - began
            info["certified"] += certified
            info["pairs"] += len(scores)
            _, pearson_range, role_range = DATASETS[dataset]
            if kind == "role_confusion":
                cells.append(100 * pair_accuracy(scores[role_range[0]:role_range[1]]))
            else:
                pred = scores[pearson_range[0]:pearson_range[1]]
                cells.append(100 * float(pearsonr(human_scores(dataset), pred)[0]))
    cells.append(float(np.mean(cells)))
    return cells, info


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return None if text == "none" else text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--row", nargs="+", action="append", metavar=("NAME", "KEY=VALUE"),
                    required=True, help="a row: its name and Config fields")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    out = {"columns": COLUMNS + ["AMEAN"], "published": PUBLISHED, "rows": {}}
    for name, *settings in args.row:
        config = Config(**{k: _value(v) for k, v in (s.split("=", 1) for s in settings)})
        cells, info = row(config, args.workers)
        out["rows"][name] = {"cells": cells, "signature": Scorer(config).signature, **info}
        print(f"{name}: AMEAN {cells[-1]:.2f} ({info['certified']}/{info['pairs']} certified, "
              f"{info['seconds']:.0f} s); cells " + " ".join(f"{c:.2f}" for c in cells),
              file=sys.stderr, flush=True)
        if args.json:  # after every row: a long run keeps what it finished
            args.json.write_text(json.dumps(out, indent=1))
    header = "| metric | " + " | ".join(out["columns"]) + " |"
    print(header)
    print("|" + "---|" * (len(out["columns"]) + 1))
    for name, cells in PUBLISHED.items():
        print(f"| {name} | " + " | ".join(f"{c:.2f}" for c in cells) + " |")
    for name, r in out["rows"].items():
        print(f"| {name} (ours) | " + " | ".join(f"{c:.2f}" for c in r["cells"]) + " |")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()

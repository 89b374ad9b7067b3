"""AMRParseEval (Little Prince): how often a preset agrees with human preferences between parses.

    python3 experiments/parseval.py [--presets smatch smatch-legacy amr-suite generic amr]
                                    [--set field=value ...] [--data ../shared/data/parseval-lp]
                                    [--digits 3] [--workers N]
    python3 experiments/parseval.py --metric wlk [--metric-set field=value ...]

``--metric`` scores the parses with a metric of :mod:`smatchpp.metrics` (its
headline score instead of the F1) through the metric interface.

The data (Opitz & Frank 2022, "Better Smatch = better parser?", repository
Heidelberg-NLP/AMRParseEval, ``qualitylp``): ``src.test.amr`` holds two
candidate parses per sentence (graph ``2k`` by a BART-based parser, ``2k+1``
by a T5-based one), ``tgt.test.amr`` the reference twice, and every other
line of ``LABEL.txt`` the human judgement: ``1`` the first parse is better,
``0`` the second, ``0.5`` equal.

The protocol is the repository's ``evaluation-suite/evaluate4tasks.py``
(``pw_acc``): each sentence gives ``g * (score(first) - score(second))`` with
``g`` = +1, -1 or 0 for the three judgements; products equal to 0 (a human tie
*or* a metric tie) are left out, and the pairwise accuracy is the share of the
remaining products that are positive.  The score of a parse is its Smatch F1
against the reference.  The published value for Smatch is 0.72 (Opitz's
thesis; amr-metric-suite's smatch, which printed each F1 with 3 decimals:
``--digits 3`` does the same).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bamboo import as_metric, pair_f1, parse_metric_set, parse_set  # noqa: E402

from smatchpp.api import Config, default_workers  # noqa: E402
from smatchpp.metrics import Metric, get_metric  # noqa: E402
from smatchpp.presets import PRESETS  # noqa: E402

from experiment import PARSEVAL as DATA, add_data, add_workers  # noqa: E402
#: pairwise accuracy of Smatch reported for this data (Opitz's thesis)
PUBLISHED_SMATCH = 0.72
_PREFERENCE = {1.0: 1, 0.0: -1, 0.5: 0}


def preferences(data: Path = DATA) -> np.ndarray:
    """+1 (first parse better), -1 (second better), 0 (equal), one per sentence."""
    lines = (data / "LABEL.txt").read_text(encoding="utf-8").split("\n")[0:400:2]
    try:
        return np.array([_PREFERENCE[float(line.split("\t")[0])] for line in lines if line.strip()])
    except KeyError as exc:
        raise ValueError(f"unexpected preference {exc} in {data / 'LABEL.txt'}") from None


def pairwise_accuracy(pref: Sequence[int], first: Sequence[float], second: Sequence[float]) -> tuple[float, int]:
    """(accuracy, pairs counted): human and metric ties are left out, as in ``pw_acc``."""
    product = np.asarray(pref, float) * (np.asarray(first, float) - np.asarray(second, float))
    counted = product[product != 0]
    return float(np.mean(counted > 0)) if len(counted) else float("nan"), int(len(counted))


def scores(config: Config | Metric, data: Path = DATA, workers: int = 1) -> np.ndarray:
    """The F1 (or a metric's headline score) of every parse against its reference."""
    return pair_f1(config, data / "src.test.amr", data / "tgt.test.amr", workers)


def evaluate(config: Config | Metric, data: Path = DATA, workers: int = 1,
             digits: int | None = None) -> dict[str, float]:
    """Pairwise accuracy of ``config`` and the counts behind it."""
    pref = preferences(data)
    f1 = scores(config, data, workers)
    if digits is not None:
        f1 = np.round(f1, digits)
    first, second = f1[0::2][:len(pref)], f1[1::2][:len(pref)]
    accuracy, counted = pairwise_accuracy(pref, first, second)
    metric_ties = int(np.sum((pref != 0) & (first == second)))
    return {"accuracy": accuracy, "counted": counted, "human_ties": int(np.sum(pref == 0)),
            "metric_ties": metric_ties, "sentences": int(len(pref))}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="Pairwise accuracy against human parse preferences.")
    add_data(p, DATA, f"AMRParseEval copy (default {DATA})")
    p.add_argument("--presets", nargs="+", default=["smatch", "smatch-legacy", "amr-suite", "generic", "amr"],
                   choices=list(PRESETS), help="presets to compare")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="any other Config field, repeatable")
    p.add_argument("--metric", default=None, help="a metric of smatchpp.metrics instead of the presets")
    p.add_argument("--metric-set", action="append", default=[], metavar="FIELD=VALUE",
                   help="a parameter of --metric, repeatable")
    p.add_argument("--digits", type=int, default=None,
                   help="round each F1 to this many decimals first (3: as the published smatch)")
    add_workers(p, None, "worker processes (default: all cores)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.metric:
            configs = [get_metric(args.metric, **parse_metric_set(args.metric, args.metric_set))]
        else:
            values = parse_set(args.set)
            configs = [Config(**{**values, "preset": name}) for name in args.presets]
    except (ValueError, TypeError) as exc:
        print(f"parseval: error: {exc}", file=sys.stderr)
        return 2
    if not (args.data / "LABEL.txt").is_file():
        print(f"parseval: error: AMRParseEval not found at {args.data}", file=sys.stderr)
        return 2
    workers = args.workers or default_workers()
    print(f"pairwise accuracy against human preferences ({args.data.name}"
          + (f", F1 rounded to {args.digits} digits" if args.digits is not None else "") + ")")
    print("| preset | pairwise accuracy | pairs counted | metric ties left out | agreeing pairs |")
    print("|---|---|---|---|---|")
    for config in configs:
        r = evaluate(config, args.data, workers, args.digits)
        print(f"| {config.name if isinstance(config, Metric) else config.preset} | {r['accuracy']:.4f} | {r['counted']} of {r['sentences']} "
              f"({r['human_ties']} human ties) | {r['metric_ties']} | "
              f"{round(r['accuracy'] * r['counted'])} |")
    print(f"| published Smatch (thesis) | {PUBLISHED_SMATCH:.2f} | | | |")
    print()
    for config in configs:
        if isinstance(config, Metric):
            print(f"{config.name}: {config.signature()}" + (f" ({config.note()})" if config.note() else ""))
        else:
            print(f"{config.preset}: {as_metric(config).signature()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

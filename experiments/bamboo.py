"""BAMBOO: a metric's 12 cells beside the published v0.2 rows.

    python3 experiments/bamboo.py [--preset amr-suite] [--set key=value ...]
                                  [--data ../shared/data/bamboo] [--workers N] [--digits 3]
                                  [--compare Smatch S2match] [--json out.json]

The protocol is the benchmark's ``evaluation-suite/evaluate4tasks.py``
(flipz357/bamboo-amr-benchmark): one score per graph pair, the F1 of the pair;

* main, reify and syno of STS, SICK and PARA: Pearson's r (x 100) between the
  pair scores and the human scores of ``orig.test.txt`` (STS column 4, SICK
  column 3, PARA column 0), min-max normalized. The graph files have one graph
  more than the rated pairs (a trailing ``Empty line`` graph), and SICK and PARA
  start with a header graph; the protocol scores graphs ``[0, 1379)`` for STS,
  ``[1, 4928)`` for SICK and ``[1, 1726)`` for PARA, beside the same lines of
  ``orig.test.txt``;
* role_confusion: graphs come in pairs ``(2k, 2k+1)``: ``2k`` is the foil (roles
  switched), ``2k+1`` the paraphrase. A pair is right when the paraphrase scores
  strictly higher; a tie counts as wrong. The cell is the accuracy x 100;
* AMEAN: the arithmetic mean of the 12 cells.

With ``--set aspects=separate|joint`` (and ``--set aspect_set=smatchpp18|thesis``,
``--set propbank_frames=FILE`` for smatchpp18, ``--set vectors=FILE`` for the
thesis' graph statistics) every aspect gets a row of its own (its pair F1, 1
where both subgraphs are empty; Damonte's n/a counts 0): which aspects a human
similarity score follows.

The metric is any :class:`smatchpp.Config`: ``--preset`` and repeated
``--set field=value`` (``--set match=s2match``, ``--set keep_wiki=true``...), or
any metric of :mod:`smatchpp.metrics` through its interface: ``--metric wlk`` with
repeated ``--metric-set field=value`` (``--metric-set label_keyed=true``).
``--metric smatch`` is the alignment family through that interface (the registered
metric ``smatch``, one process), its Config given by ``--preset`` and ``--set`` as
without ``--metric``: the same cells as the default path, which scores with the
:class:`smatchpp.api.Scorer` on all cores.
``--spearman`` takes Spearman's rho instead of Pearson's r for the nine
correlation cells (REMATCH's paper reports BAMBOO that way).  ``--role-pearson`` is
the protocol of the paper's tables (``evaluate4tasks.py`` as first committed,
``bcfb55d``, 2021): the role_confusion cells are Pearson's r too, between the pair
scores of the same graphs and the labels 0 (foil), 1 (paraphrase), alternating; the
accuracy replaced it in ``3152f70`` (2022).  ``--first tgt`` puts
each task's target file on the test (hypothesis) side: BAMBOO's SemBleu and SEMA
rows were computed that way (``--metric sembleu --metric-set k=2 --metric-set
inverse=keep --first tgt`` reproduces SemBleu(k2)).
Pairs are solved exactly (the ``exact`` solver unless ``--set solver=...``),
with all cores by default.  ``--digits 3`` rounds each pair's F1 to 3 decimals
first, as the published rows' smatch (``--ms`` printed ``%.3f``) did.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Sequence

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from smatchpp.api import Config, default_workers  # noqa: E402
from smatchpp.cli.app import aligns, score_pairs  # noqa: E402
from smatchpp.metrics import Metric, get_metric  # noqa: E402
from smatchpp.metrics.alignment import AlignmentMetric  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402
from smatchpp.running.runs import auto_workers  # noqa: E402

from experiment import add_data, add_json, add_workers, BAMBOO as DATA  # noqa: E402
#: the registered metric of the alignment family
ALIGNMENT = AlignmentMetric.name
DATASETS = ("sts", "sick", "para")
SUBSETS = ("main", "reify", "syno")
#: protocol: graph/line range of the rated pairs and the column of the human score
PROTOCOL = {"sts": ((0, 1379), 4), "sick": ((1, 4928), 3), "para": ((1, 1726), 0)}
#: protocol: role_confusion graphs scored (all of them)
ROLE_PAIRS = {"sts": 158, "sick": 238, "para": 2242}
CELLS = (tuple(f"{d}/{s}" for s in SUBSETS for d in DATASETS)
         + tuple(f"{d}/role_confusion" for d in DATASETS))
HEADERS = ("STS", "SICK", "PARA", "STS(reify)", "SICK(reify)", "PARA(reify)", "STS(syno)",
           "SICK(syno)", "PARA(syno)", "STS(role)", "SICK(role)", "PARA(role)", "AMEAN")

#: The published v0.2 table (README of flipz357/bamboo-amr-benchmark, commit df6943c,
#: "latest update: 07/12/2023"), cells in the order of HEADERS.  Smatch and S2match were
#: computed with flipz357/amr-metric-suite 711a231, SmatchPP with flipz357/smatchpp f7e206d.
PUBLISHED: dict[str, tuple[float, ...]] = {
    "SemBleu(k1)": (66.03, 62.88, 39.72, 61.76, 62.10, 38.17, 61.83, 58.83, 37.10, 7.59, 3.36, 17.48, 43.07),
    "Sema": (55.90, 53.32, 33.43, 55.51, 56.16, 32.33, 50.16, 48.87, 29.11, 78.48, 90.76, 74.93, 54.91),
    "SemBleu(k3)": (56.54, 58.06, 32.82, 54.96, 58.53, 33.66, 53.19, 53.72, 28.96, 81.01, 93.28, 77.79, 56.88),
    "SemBleu(k2)": (60.62, 59.86, 36.88, 57.68, 59.64, 36.24, 57.34, 56.18, 33.26, 81.01, 93.28, 77.88, 59.16),
    "WLK-k2": (65.57, 61.36, 36.21, 63.77, 62.55, 36.23, 60.14, 56.40, 32.51, 79.75, 90.76, 77.61, 60.24),
    "Smatch": (58.39, 59.75, 41.32, 58.03, 61.79, 39.47, 56.13, 57.37, 39.54, 89.87, 98.32, 88.14, 62.34),
    "SmatchPP": (58.54, 59.75, 41.38, 58.35, 59.75, 41.39, 56.28, 57.37, 39.66, 89.87, 98.32, 88.31, 62.41),
    "S2match(def)": (56.39, 58.11, 42.40, 55.78, 59.97, 40.67, 56.04, 57.15, 40.93, 93.67, 98.32, 91.26, 62.56),
    "S2match": (58.70, 60.47, 42.52, 58.19, 62.37, 40.55, 56.62, 57.88, 41.15, 89.87, 98.32, 92.24, 63.24),
    "WWLK-k2": (67.31, 67.53, 38.37, 64.56, 67.16, 37.17, 62.10, 61.89, 34.30, 92.41, 99.16, 86.53, 64.87),
    "WWLK-k2-train": (67.90, 67.89, 38.62, 64.95, 67.38, 37.78, 62.42, 62.25, 34.44, 92.41, 100.00, 91.26, 65.61),
}


def human_scores(dataset: str, data: Path = DATA) -> np.ndarray:
    """The protocol's human scores of ``dataset``, min-max normalized to [0, 1]."""
    (lo, hi), column = PROTOCOL[dataset]
    lines = (data / dataset / "orig.test.txt").read_text(encoding="utf-8").split("\n")[lo:hi]
    values = np.array([float(line.split("\t")[column]) for line in lines])
    return (values - values.min()) / (values.max() - values.min())


def pearson100(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r x 100 (nan when a side is constant)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if x.std() == 0 or y.std() == 0:
        return float("nan")
    return float(100 * np.corrcoef(x, y)[0, 1])


def pair_accuracy100(scores: Sequence[float]) -> float:
    """Accuracy x 100 over pairs ``(foil, paraphrase)``: right iff the paraphrase scores higher."""
    s = np.asarray(scores, float)
    if len(s) % 2:
        raise ValueError("role_confusion needs an even number of scores")
    return float(100 * np.mean(s[1::2] > s[0::2]))


def as_metric(config: Config | Metric) -> Metric:
    """A Smatch setting as the alignment family's metric (a metric as it is)."""
    return config if isinstance(config, Metric) else AlignmentMetric(config)


def pair_f1(config: Config | Metric, src: Path, tgt: Path, workers: int) -> np.ndarray:
    """The F1 (a metric's headline score) of every graph pair of two parallel files."""
    return pair_f1s(config, src, tgt, workers)["main"]


def pair_f1s(config: Config | Metric, src: Path, tgt: Path, workers: int) -> dict[str, np.ndarray]:
    """``{"main": the headline score of every pair}`` under a Smatch setting or any metric, on
    the road of every metric (:func:`smatchpp.cli.app.score_pairs`, as ``smatchpp score``), and
    with the alignment family's aspects (``aspects``) each aspect's pair F1 (an aspect empty on
    both sides counts as its ``vacuous`` score, or 0 for Damonte's set).  Unreadable graphs
    follow the Config's ``on_error`` (a skipped pair scores 0); under ``raise`` (every other
    metric) the first stops with its file and line."""
    metric = as_metric(config)
    on_error = metric.config.on_error if aligns(metric) else "raise"
    entries = [read_file(path) for path in (src, tgt)]
    if on_error == "raise":
        for path, got in zip((src, tgt), entries):
            bad = next((e for e in got if e.graph is None), None)
            if bad is not None:
                raise ValueError(f"{path}: line {bad.line}: {bad.error}")
    if metric.cheap_pairs:  # a pool costs more than it saves on a few thousand cheap pairs
        workers = auto_workers(len(entries[1]), workers)
    pairs = list(score_pairs(metric, *entries, on_error, workers))
    out = {"main": np.array([metric.pair_scores(p.stats)[metric.headline] if p.stats is not None else 0.0
                             for p in pairs])}
    # the alignment family's per-pair data: each pair's aspect counts (--set aspects=...)
    aspects = [getattr(p.detail, "aspects", None) for p in pairs]
    for name in (aspects[0] or {}) if aspects else {}:
        out[name] = np.array([(a[name].to_json()["f1"] or 0.0) if a else 0.0 for a in aspects])
    return out


def metric_pair_scores(metric: Metric, src: Path, tgt: Path, workers: int = 1) -> np.ndarray:
    """The headline score of every graph pair of two parallel files under ``metric``
    (:func:`pair_f1s`); an unreadable graph stops with its file and line."""
    return pair_f1s(metric, src, tgt, workers)["main"]


def spearman100(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rho x 100: Pearson's r of the ranks (ties share their mean rank)."""
    from scipy.stats import rankdata

    return pearson100(rankdata(x), rankdata(y))


def role_pearson100(scores: Sequence[float]) -> float:
    """Pearson's r x 100 between pair scores ``(foil, paraphrase, foil, ...)`` and the labels
    0, 1, 0, ... (the role_confusion cell of ``evaluate4tasks.py`` at ``bcfb55d``)."""
    s = np.asarray(scores, float)
    if len(s) % 2:
        raise ValueError("role_confusion needs an even number of scores")
    return pearson100(np.tile([0.0, 1.0], len(s) // 2), s)


def cell_score(cell: str, f1: Sequence[float], data: Path = DATA, spearman: bool = False,
               role_pearson: bool = False) -> float:
    """The protocol's value of ``cell`` (``"sts/main"``...) from the F1 of every pair of its files.

    Any metric's pair scores can be put through it (e.g. a peer tool's, see
    ``experiments/compare_wsmatch.py``).
    """
    dataset, subset = cell.split("/")
    f1 = np.asarray(f1, float)
    if subset == "role_confusion":
        return (role_pearson100 if role_pearson else pair_accuracy100)(f1[:ROLE_PAIRS[dataset]])
    lo, hi = PROTOCOL[dataset][0]
    human = human_scores(dataset, data)
    if len(f1[lo:hi]) != len(human):
        raise ValueError(f"{cell}: {len(f1[lo:hi])} scored pairs but {len(human)} human scores")
    return (spearman100 if spearman else pearson100)(f1[lo:hi], human)


def evaluate(config: Config | Metric, data: Path = DATA, workers: int = 1, digits: int | None = None,
             log=None, spearman: bool = False, first: str = "src", role_pearson: bool = False) -> dict[str, float]:
    """The 12 cells (and ``amean``) of ``config`` (a Smatch setting, or a metric of
    :mod:`smatchpp.metrics`) on the BAMBOO copy at ``data``; ``first`` names the file of
    each task on the test side (``src`` or ``tgt``)."""
    return evaluate_rows(config, data, workers, digits, log, spearman, first, role_pearson)["main"]


def evaluate_rows(config: Config | Metric, data: Path = DATA, workers: int = 1, digits: int | None = None,
                  log=None, spearman: bool = False, first: str = "src",
                  role_pearson: bool = False) -> dict[str, dict[str, float]]:
    """As :func:`evaluate`, for the main score (``"main"``) and, with ``config.aspects``, every aspect."""
    rows: dict[str, dict[str, float]] = {}
    for cell in CELLS:
        dataset, subset = cell.split("/")
        began = time.perf_counter()
        src, tgt = data / dataset / subset / "src.test.amr", data / dataset / subset / "tgt.test.amr"
        if first == "tgt":
            src, tgt = tgt, src
        f1s = pair_f1s(config, src, tgt, workers)
        for name, f1 in f1s.items():
            if digits is not None:
                f1 = np.round(f1, digits)
            rows.setdefault(name, {})[cell] = cell_score(cell, f1, data, spearman, role_pearson)
        if log:
            log(f"{cell}: {rows['main'][cell]:.2f} ({len(f1s['main'])} pairs, "
                f"{time.perf_counter() - began:.1f} s)")
    for cells in rows.values():
        cells["amean"] = float(np.mean([cells[c] for c in CELLS]))
    return rows


def parse_set(items: Sequence[str]) -> dict[str, object]:
    """``["key=value", ...]`` as Config keyword arguments, each value read as its field's kind."""
    fields = {f.name: f for f in dataclasses.fields(Config)}
    out: dict[str, object] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in fields:
            raise ValueError(f"--set {item!r}: expected field=value with field one of {', '.join(fields)}")
        out[key] = _convert(value.strip(), fields[key].metadata.get("kind", str), key)
    return out


def parse_metric_set(metric: str, items: Sequence[str]) -> dict[str, object]:
    """``["field=value", ...]`` as keyword arguments of the metric ``metric``, each value read
    as its field's default's kind (a field without a default value is read as text)."""
    from smatchpp.metrics import METRICS

    if metric not in METRICS:
        get_metric(metric)  # raises, listing the known metrics
    fields = {f.name: f for f in dataclasses.fields(METRICS[metric]) if "help" in f.metadata}
    out: dict[str, object] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in fields:
            raise ValueError(f"--metric-set {item!r}: expected field=value with field one of "
                             f"{', '.join(fields) or '(none)'}")
        default = fields[key].default
        kind = type(default) if default is not None else str
        out[key] = _convert(value.strip(), kind, key)
    return out


def _convert(value: str, kind: type, key: str):
    if kind is str:
        return value
    if value.lower() in ("none", "null"):
        return None
    if kind is bool:
        if value.lower() in ("true", "yes", "1"):
            return True
        if value.lower() in ("false", "no", "0"):
            return False
        raise ValueError(f"--set {key}={value}: expected true or false")
    try:
        return kind(value)
    except ValueError:
        raise ValueError(f"--set {key}={value}: cannot read {value!r} as {kind.__name__}") from None


def format_table(rows: dict[str, Sequence[float]], reference: str | None = None) -> str:
    """A markdown table; with ``reference``, a row of differences of the first row from it."""
    names = list(rows) + ([f"difference to {reference}"] if reference is not None else [])
    width = max(len(name) for name in names)
    cols = [max(len(h), 6) for h in HEADERS]
    lines = ["| " + "metric".ljust(width) + " | "
             + " | ".join(h.rjust(c) for h, c in zip(HEADERS, cols)) + " |",
             "|" + "-" * (width + 2) + "|" + "|".join("-" * (c + 2) for c in cols) + "|"]
    for name, values in rows.items():
        lines.append("| " + name.ljust(width) + " | "
                     + " | ".join(f"{v:.2f}".rjust(c) for v, c in zip(values, cols)) + " |")
    if reference is not None:
        first = next(iter(rows.values()))
        diff = [a - b for a, b in zip(first, rows[reference])]
        lines.append("| " + names[-1].ljust(width) + " | "
                     + " | ".join(f"{v:+.2f}".rjust(c) for v, c in zip(diff, cols)) + " |")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="A Smatch setting on BAMBOO, beside the published v0.2 rows.")
    add_data(p, DATA, f"BAMBOO copy (default {DATA})")
    p.add_argument("--preset", default=None, help="preset name (Config.preset)")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="any Config field, repeatable (e.g. --set solver=exact --set keep_wiki=true)")
    p.add_argument("--metric", default=None,
                   help="a metric of smatchpp.metrics (wlk, rematch, ...) instead of a Smatch setting; "
                        "smatch: the Smatch setting of --preset and --set through the metric interface")
    p.add_argument("--metric-set", action="append", default=[], metavar="FIELD=VALUE",
                   help="a parameter of --metric, repeatable (e.g. --metric-set label_keyed=true)")
    p.add_argument("--first", choices=("src", "tgt"), default="src",
                   help="the file of each task on the test (hypothesis) side (default src; "
                        "BAMBOO's SemBleu and SEMA rows used tgt)")
    p.add_argument("--spearman", action="store_true",
                   help="Spearman's rho instead of Pearson's r in the correlation cells")
    p.add_argument("--role-pearson", action="store_true",
                   help="Pearson's r against the labels 0 (foil), 1 (paraphrase) in the role_confusion "
                        "cells too, as the paper's tables (evaluate4tasks.py at bcfb55d)")
    add_workers(p, None, "worker processes (default: all cores)")
    p.add_argument("--digits", type=int, default=None,
                   help="round each pair's F1 to this many decimals first (3: as smatch --ms printed)")
    p.add_argument("--compare", nargs="*", default=["Smatch"], choices=sorted(PUBLISHED),
                   help="published rows to print beside ours (default: Smatch)")
    add_json(p, "also write the cells and the signature here")
    p.add_argument("--quiet", action="store_true", help="no per-task progress on stderr")
    return p


def make_config(args: argparse.Namespace) -> Config | Metric:
    """The Config of ``--preset`` and ``--set``, or the metric ``--metric`` names (``smatch``:
    the alignment family's metric with that Config)."""
    alignment = args.metric in (None, ALIGNMENT)
    if not alignment and (args.set or args.preset is not None):
        raise ValueError(f"--set and --preset are Smatch settings: --metric {args.metric} takes "
                         "--metric-set field=value")
    if alignment and args.metric_set:
        raise ValueError("--metric-set sets a parameter of another metric: the alignment family's "
                         "settings are --preset and --set field=value")
    if not alignment:
        return get_metric(args.metric, **parse_metric_set(args.metric, args.metric_set))
    values = parse_set(args.set)
    if args.preset is not None:
        values["preset"] = args.preset
    config = Config(**values)
    return get_metric(ALIGNMENT, config=config) if args.metric else config


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        config = make_config(args)
    except (ValueError, TypeError) as exc:
        print(f"bamboo: error: {exc}", file=sys.stderr)
        return 2
    if not all((args.data / c / "src.test.amr").is_file() for c in CELLS):
        print(f"bamboo: error: BAMBOO not found at {args.data}", file=sys.stderr)
        return 2
    workers = args.workers or default_workers()
    log = None if args.quiet else (lambda m: print(m, file=sys.stderr, flush=True))
    try:
        every = evaluate_rows(config, args.data, workers, args.digits, log, args.spearman, args.first,
                              args.role_pearson)
    except ValueError as exc:
        print(f"bamboo: error: {exc}", file=sys.stderr)
        return 2
    cells = every["main"]
    ours = [cells[c] for c in CELLS] + [cells["amean"]]
    is_metric = isinstance(config, Metric)
    label = (f"{config.config.preset}, metric {config.name}" if isinstance(config, AlignmentMetric)
             else config.name if is_metric else config.preset)
    name = f"ours ({label})" + (", tgt first" if args.first == "tgt" else "")
    rows = {name: ours}
    rows.update({k: PUBLISHED[k] for k in args.compare})
    signature = as_metric(config).signature()
    if args.spearman:
        signature += " | Spearman's rho"
    if args.role_pearson:
        signature += " | role_confusion: Pearson's r against 0/1 labels (bcfb55d)"
    if is_metric and config.note():
        signature += f" | {config.note()}"
    aspect_rows = {f"aspect {k}": [v[c] for c in CELLS] + [v["amean"]] for k, v in every.items() if k != "main"}
    print(signature + (f" | pair F1 rounded to {args.digits} digits" if args.digits is not None else ""))
    print(format_table(rows, reference=args.compare[0] if args.compare else None))
    if aspect_rows:
        print()
        print(format_table(aspect_rows))
    if args.json:
        args.json.write_text(json.dumps({"signature": signature, "digits": args.digits,
                                         "cells": cells, "aspects": {k: v for k, v in every.items()
                                                                     if k != "main"}}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``--metric NAME``: the metrics that need no alignment, through :mod:`smatchpp.metrics`.

``score --metric NAME`` (and the other commands that take it) read the two
files as ``score`` does, compute each graph's features once, and each pair's
sufficient statistics; the summary gives the micro score (of the summed
statistics) and the macro score (the mean of the pairs' scores).  Each metric's
parameters are options ``--NAME-PARAM`` generated from its declaration, and
part of the signature.  Options of the alignment family (``--solver``,
``--match``, ...) are refused with another metric, and a metric's options with
another metric: a setting that would do nothing is an error, never ignored.

>>> from smatchpp.metrics import get_metric, MetricCorpus, MetricPair
>>> m = get_metric("jaccard")
>>> print(format_metric_text(MetricCorpus(m, [MetricPair(0, "a", (1.0, 3.0)), MetricPair(1, "b", (2.0, 2.0))])))
... # doctest: +ELLIPSIS
smatchpp:...|metric:jaccard|errors:raise|deterministic:yes
pairs: 2 scored: 2
micro  score 60.00
macro  score 66.67
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import nullcontext
from typing import Any

from ..metrics import METRICS, Metric, MetricCorpus, MetricPair, bootstrap_metric, get_metric
from ..read import RawGraph
from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, Interrupted, UsageError, check_outputs,
                     emit, interrupts, open_output, plural, read_inputs, warn)

__all__ = ["add_metric_options", "metric_from_args", "run_score", "format_metric_text", "ALIGNMENT"]

#: the alignment family (Smatch, S2Match, WSMATCH, ...: ``--match`` picks among them)
ALIGNMENT = "smatch"
#: options every metric takes (inputs, reading, errors, output, workers, resampling)
_SHARED = {"test", "gold", "input_format", "on_error", "workers", "force_workers", "quiet", "format",
           "pairs_out", "bootstrap", "bootstrap_seed", "metric", "command", "run", "option_defaults"}
_EMPTY = RawGraph(top=None, triples=(), variables=())


def add_metric_options(p: argparse.ArgumentParser) -> None:
    """``--metric`` and every registered metric's parameters (``--NAME-PARAM``).

    Call it last: it records the defaults of every option of ``p`` so that an option
    that does nothing under the chosen metric can be refused.
    """
    g = p.add_argument_group("metrics without an alignment (docs/metrics.md)")
    g.add_argument("--metric", choices=(ALIGNMENT,) + tuple(sorted(METRICS)), default=ALIGNMENT,
                   help="smatch (default): the alignment family, exact, with --match choosing "
                        "S2Match, WSMATCH, ...; " + "; ".join(
                            f"{name}: {(cls.__doc__ or '').strip().splitlines()[0]}"
                            for name, cls in sorted(METRICS.items())).replace("%", "%%"))
    for name, cls in sorted(METRICS.items()):
        for field_name, key, f in cls.params():
            choices = f.metadata["choices"]
            kind = type(f.default) if f.default is not None else str
            g.add_argument(f"--{key}", dest=_dest(name, field_name), default=None,
                           type=_parse_bool if kind is bool else kind, choices=choices,
                           metavar=None if choices else kind.__name__.upper(),
                           help=f"{name}: {f.metadata['help']} (default {f.default})".replace("%", "%%"))
    defaults = {dest: p.get_default(dest) for dest in vars(p.parse_args(["A", "B"]))}
    p.set_defaults(option_defaults=defaults)


def _dest(metric: str, field_name: str) -> str:
    return f"metric_{metric.replace('-', '_')}_{field_name}"


def _parse_bool(text: str) -> bool:
    if text.lower() in ("yes", "true", "1"):
        return True
    if text.lower() in ("no", "false", "0"):
        return False
    raise argparse.ArgumentTypeError(f"expected yes or no, got {text!r}")


def _option(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def _from_signature(args: argparse.Namespace, defaults: dict[str, Any]) -> None:
    """Set ``args`` from a metric signature (``--signature``); an option given as well must
    agree with it."""
    try:
        name, tokens = Metric.parse_signature(args.signature)
    except ValueError as exc:
        raise UsageError(f"--signature: {exc}") from None
    if name not in METRICS:
        raise UsageError(f"--signature: unknown metric {name!r}; known: {', '.join(sorted(METRICS))}")
    if args.metric not in (ALIGNMENT, name):
        raise UsageError(f"--metric {args.metric} disagrees with the signature's metric {name}")
    args.metric = name
    keys = {key: (_dest(name, field_name), f) for field_name, key, f in METRICS[name].params()}
    keys.update({"errors": ("on_error", None), "bootstrap": ("bootstrap", None),
                 "bootstrap-seed": ("bootstrap_seed", None)})
    for key, text in tokens.items():
        if key not in keys:
            raise UsageError(f"--signature: unknown key {key!r} for metric {name}")
        dest, f = keys[key]
        if f is None:
            value: Any = text if dest == "on_error" else _int(text, key)
        else:
            kind = type(f.default) if f.default is not None else str
            try:
                value = None if text == "none" else (_parse_bool(text) if kind is bool else kind(text))
            except (ValueError, argparse.ArgumentTypeError):
                raise UsageError(f"--signature: cannot read {key}:{text}") from None
        given = getattr(args, dest, None)
        if given != defaults.get(dest) and given != value:
            flag = f"--{key}" if f is not None else _option(dest)
            raise UsageError(f"{flag} {given} disagrees with the signature's {key}:{text}")
        setattr(args, dest, value)
    args.signature = None


def _int(text: str, key: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"--signature: cannot read {key}:{text}") from None


def metric_from_args(args: argparse.Namespace):
    """The metric ``--metric`` names with its options; refuses options that would do nothing."""
    defaults: dict[str, Any] = getattr(args, "option_defaults", {})
    if getattr(args, "signature", None) and "|metric:" in args.signature:
        _from_signature(args, defaults)
    given = {dest for dest, default in defaults.items()
             if dest not in _SHARED and getattr(args, dest, default) != default}
    params = {_dest(name, f) for name, cls in METRICS.items() for f, _, _ in cls.params()}
    if args.metric == ALIGNMENT:  # the alignment family's options are its own
        stray = sorted(given & params)
    else:
        stray = sorted(given - {_dest(args.metric, f) for f, _, _ in METRICS[args.metric].params()})
    if stray:
        shown = ", ".join(_flag(args, d) for d in stray)
        raise UsageError(f"{shown} {'does' if len(stray) == 1 else 'do'} nothing under --metric "
                         f"{args.metric}: remove {'it' if len(stray) == 1 else 'them'}, or choose "
                         "the metric that uses it")
    if args.metric == ALIGNMENT:
        return None
    params = {f: getattr(args, _dest(args.metric, f)) for f, _, _ in METRICS[args.metric].params()
              if getattr(args, _dest(args.metric, f)) is not None}
    try:
        return get_metric(args.metric, **params)
    except (ValueError, OSError) as exc:
        raise UsageError(f"--metric {args.metric}: {exc}") from None


def _flag(args: argparse.Namespace, dest: str) -> str:
    for name, cls in METRICS.items():
        for field_name, key, _ in cls.params():
            if _dest(name, field_name) == dest:
                return f"--{key}"
    return _option(dest)


def format_metric_text(corpus: MetricCorpus, total: int | None = None) -> str:
    """The human-readable summary of a metric's corpus score."""
    s = corpus.summary()
    lines = [s["signature"]]
    if s.get("note"):
        lines.append(f"NOTE: {s['note']}")
    if total is not None and total != s["pairs"]:
        lines.append(f"interrupted: {s['pairs']} of {plural(total, 'pair')} finished; "
                     "the scores below cover those only")
    skipped = s["pairs"] - s["scored"]
    lines.append(f"pairs: {s['pairs']} scored: {s['scored']}" + (f" skipped: {skipped}" if skipped else ""))
    for name in ("micro", "macro"):
        cells = "  ".join(f"{_short(k)} {_pct(v)}" for k, v in s[name].items())
        lines.append(f"{name:5s}  {cells}")
    return "\n".join(lines)


def _short(key: str) -> str:
    return {"precision": "P", "recall": "R", "f1": "F1"}.get(key, key)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.2f}"


def run_score(args: argparse.Namespace, metric) -> int:
    """``score --metric NAME``: every pair's statistics, the corpus summary, optional bootstrap."""
    check_outputs({"--pairs-out": args.pairs_out}, [args.test, args.gold])
    entries_a, entries_b = read_inputs(args)
    errors = [e.error for entries in (entries_a, entries_b) for e in entries if e.error is not None]
    if errors and args.on_error == "raise":
        for e in errors:
            print(f"smatchpp: error: {e}", file=sys.stderr)
        print(f"smatchpp: {plural(len(errors), 'unreadable graph')}; nothing scored. "
              "Use --on-error empty or --on-error skip to score the rest.", file=sys.stderr)
        return EXIT_USAGE
    graphs_a = [e.graph if e.graph is not None else _EMPTY for e in entries_a]
    graphs_b = [e.graph if e.graph is not None else _EMPTY for e in entries_b]
    metric.prepare(graphs_a + graphs_b)
    summary_out = sys.stderr if args.pairs_out == "-" else sys.stdout
    pairs: list[MetricPair] = []
    interrupted = False
    with interrupts():
        try:
            with open_output(args.pairs_out) if args.pairs_out else nullcontext() as handle:
                for i, (ea, eb) in enumerate(zip(entries_a, entries_b)):
                    pair_id = ea.id if ea.id is not None else eb.id
                    bad = ea.error or eb.error
                    if bad is not None and args.on_error == "skip":
                        pair = MetricPair(i, pair_id, None, str(bad))
                    else:
                        stats = metric.stats(metric.features(graphs_a[i]), metric.features(graphs_b[i]))
                        pair = MetricPair(i, pair_id, tuple(float(x) for x in stats),
                                          str(bad) if bad is not None else None)
                    pairs.append(pair)
                    if handle is not None:
                        handle.write(json.dumps(pair.to_json(metric)) + "\n")
                        handle.flush()
        except (KeyboardInterrupt, Interrupted):
            interrupted = True
    corpus = MetricCorpus(metric, pairs, args.on_error, args.bootstrap, args.bootstrap_seed)
    intervals = None
    if args.bootstrap:
        intervals = bootstrap_metric(metric, corpus.stats, args.bootstrap, args.bootstrap_seed)
    total = len(entries_a)
    if args.format == "json":
        summary = corpus.summary()
        if interrupted:
            summary["interrupted"] = {"finished": len(pairs), "total": total}
        if intervals is not None:
            summary["bootstrap"] = intervals.to_json()
        emit(json.dumps(summary, indent=2), summary_out)
    else:
        text = format_metric_text(corpus, total if interrupted else None)
        if intervals is not None:
            text += "\n" + "\n".join(_format_intervals(intervals))
        emit(text, summary_out)
    if errors:
        action = "scored as empty graphs" if args.on_error == "empty" else "pairs skipped"
        warn(f"{plural(len(errors), 'unreadable graph')}, {action}:")
        for e in errors:
            print(f"  {e}", file=sys.stderr)
    if interrupted:
        print(f"smatchpp: interrupted: {len(pairs)} of {plural(total, 'pair')} finished", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK


def _format_intervals(ci) -> list[str]:
    lines = [f"{100 * ci.level:g}% bootstrap intervals ({ci.resamples} resamples of {ci.pairs} pairs, "
             f"seed {ci.seed}, percentile):"]
    for name in ("micro", "macro"):
        cells = "  ".join(f"{_short(k)} [{_pct(lo)}, {_pct(hi)}]" for k, (lo, hi) in getattr(ci, name).items())
        lines.append(f"  {name:5s}  {cells}")
    return lines


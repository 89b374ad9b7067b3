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
import sys
from contextlib import nullcontext
from typing import Any

import numpy as np

from .. import present
from ..config import BOOTSTRAP_SEED, Config
from ..metrics import METRICS, Metric, MetricCorpus, MetricPair, bootstrap_metric, get_metric
from ..metrics.base import MetricIntervals
from ..bulk import no_cycle_collection
from ..read import RawGraph, read_file
from ..significance import DEFAULT_RESAMPLES, DEFAULT_TRIALS, compare_columns
from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, INTERRUPTS, Interrupted, UsageError, check_outputs,
                     emit, interrupts, one_stdin, open_output, plural, read_inputs, report_unreadable,
                     warn, warn_unreadable)

__all__ = ["add_metric_options", "metric_from_args", "run_score", "run_compare", "run_matrix", "run_search",
           "format_metric_text", "ALIGNMENT"]

#: the alignment family (Smatch, S2Match, WSMATCH, ...: ``--match`` picks among them); it is
#: the registered metric of that name too, but its options are the Config's and the commands
#: keep their own path for it (``cli/score.py``)
ALIGNMENT = "smatch"
#: options every metric takes (inputs, reading, errors, output, workers, resampling)
_SHARED = {"test", "gold", "sys1", "sys2", "input_format", "on_error", "workers", "force_workers", "quiet",
           "format", "pairs_out", "bootstrap", "bootstrap_seed", "ar_trials", "output", "all", "top", "out",
           "metric",
           "command", "run", "option_defaults"}
_EMPTY = RawGraph(top=None, triples=(), variables=())


def _others() -> dict[str, type[Metric]]:
    """The registered metrics but the alignment family (which the options name ALIGNMENT)."""
    return {name: cls for name, cls in METRICS.items() if name != ALIGNMENT}


def add_metric_options(p: argparse.ArgumentParser, sample: tuple[str, ...] = ("A", "B")) -> None:
    """``--metric`` and every registered metric's parameters (``--NAME-PARAM``).

    Call it last: it records the defaults of every option of ``p`` (by parsing
    ``sample``, a shortest valid command line) so that an option that does nothing
    under the chosen metric can be refused.
    """
    g = p.add_argument_group("metrics without an alignment (docs/metrics.md)")
    g.add_argument("--metric", choices=(ALIGNMENT,) + tuple(sorted(_others())), default=ALIGNMENT,
                   help="smatch (default): the alignment family, exact, with --match choosing "
                        "S2Match, WSMATCH and the other matchers; " + "; ".join(
                            f"{name}: {(cls.__doc__ or '').strip().splitlines()[0].rstrip('.')}"
                            for name, cls in sorted(_others().items())).replace("%", "%%"))
    for name, cls in sorted(_others().items()):
        for field_name, key, f in cls.params():
            choices = f.metadata["choices"]
            kind = type(f.default) if f.default is not None else str
            g.add_argument(f"--{key}", dest=_dest(name, field_name), default=None,
                           type=_parse_bool if kind is bool else kind, choices=choices,
                           metavar=None if choices else kind.__name__.upper(),
                           help=f"{name}: {f.metadata['help']} (default {_shown_default(f.default)})"
                           .replace("%", "%%"))
    defaults = {dest: p.get_default(dest) for dest in vars(p.parse_args(list(sample)))}
    p.set_defaults(option_defaults=defaults)


def _shown_default(value: Any) -> str:
    """A default as the option is written: ``yes``/``no`` beside a ``BOOL``, ``none`` for
    ``None`` (not Python's ``False``/``None``)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


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
    if name not in _others():
        raise UsageError(f"--signature: unknown metric {name!r}; known: {', '.join(sorted(_others()))}")
    if args.metric not in (ALIGNMENT, name):
        raise UsageError(f"--metric {args.metric} disagrees with the signature's metric {name}")
    args.metric = name
    keys = {key: (_dest(name, field_name), f) for field_name, key, f in _others()[name].params()}
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
    params = {_dest(name, f) for name, cls in _others().items() for f, _, _ in cls.params()}
    if args.metric == ALIGNMENT:  # the alignment family's options are its own
        stray = sorted(given & params)
    else:
        stray = sorted(given - {_dest(args.metric, f) for f, _, _ in _others()[args.metric].params()})
    if getattr(args, "alignments", False) and args.metric != ALIGNMENT and _others()[args.metric].explains():
        stray.remove("alignments")  # the metric's explanation (WWLK's transport plan)
    limit = getattr(args, "time_limit", None)
    if args.metric == "aspect" and "time_limit" in stray:
        stray.remove("time_limit")  # the aspect metric solves: each pair's limit (issue 33)
    if stray:
        shown = ", ".join(_flag(args, d) for d in stray)
        raise UsageError(f"{shown} {'does' if len(stray) == 1 else 'do'} nothing under --metric "
                         f"{args.metric}: remove {'it' if len(stray) == 1 else 'them'}, or choose "
                         "the metric that uses it")
    if args.metric == ALIGNMENT:
        return None
    # the shared options default to None (so that the alignment family can tell what was given)
    if args.on_error is None:
        args.on_error = "raise"
    if getattr(args, "bootstrap_seed", BOOTSTRAP_SEED) is None:
        args.bootstrap_seed = BOOTSTRAP_SEED
    params = {f: getattr(args, _dest(args.metric, f)) for f, _, _ in _others()[args.metric].params()
              if getattr(args, _dest(args.metric, f)) is not None}
    if args.metric == "aspect" and limit is not None:
        params["config"] = Config(aspects="separate", time_limit=limit)
    try:
        return get_metric(args.metric, **params)
    except (ValueError, OSError) as exc:
        raise UsageError(f"--metric {args.metric}: {exc}") from None


def _flag(args: argparse.Namespace, dest: str) -> str:
    for name, cls in _others().items():
        for field_name, key, _ in cls.params():
            if _dest(name, field_name) == dest:
                return f"--{key}"
    return _option(dest)


def format_metric_text(corpus: MetricCorpus, total: int | None = None, fmt: str = "text",
                       intervals: MetricIntervals | None = None) -> str:
    """The summary of a metric's corpus score in ``fmt`` (:func:`smatchpp.present.metric_report`)."""
    return present.metric_report(corpus.summary(), fmt, total=total, bootstrap=intervals)


def run_score(args: argparse.Namespace, metric) -> int:
    """``score --metric NAME``: every pair's statistics, the corpus summary, optional bootstrap.
    The graphs, features and statistics make no reference cycles: the cycle collector, which
    would walk them again and again, is paused for the run (:mod:`smatchpp.bulk`)."""
    with no_cycle_collection():
        return _score_pairs(args, metric)


def _score_pairs(args: argparse.Namespace, metric) -> int:
    check_outputs({"--pairs-out": args.pairs_out}, [args.test, args.gold])
    entries_a, entries_b = read_inputs(args)
    errors = _read_errors(args.on_error, entries_a, entries_b)
    if errors is None:
        return EXIT_USAGE
    graphs_a, graphs_b = _graphs(entries_a), _graphs(entries_b)
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
                        fa, fb = metric.features(graphs_a[i]), metric.features(graphs_b[i])
                        stats = metric.stats(fa, fb)
                        pair = MetricPair(i, pair_id, tuple(float(x) for x in stats),
                                          str(bad) if bad is not None else None)
                    pairs.append(pair)
                    if handle is not None:
                        line = pair.to_json(metric)
                        if getattr(args, "alignments", False) and pair.stats is not None:
                            line.update(metric.explain(fa, fb) or {})
                        handle.write(present.json_line(line) + "\n")
                        handle.flush()
        except (KeyboardInterrupt, Interrupted):
            interrupted = True
    corpus = MetricCorpus(metric, pairs, args.on_error, args.bootstrap, args.bootstrap_seed)
    intervals = None
    if args.bootstrap:
        intervals = bootstrap_metric(metric, corpus.stats, args.bootstrap, args.bootstrap_seed)
    total = len(entries_a)
    emit(format_metric_text(corpus, total if interrupted else None, args.format, intervals), summary_out)
    warn_unreadable(errors, args.on_error)
    if interrupted:
        print(f"smatchpp: interrupted: {len(pairs)} of {plural(total, 'pair')} finished", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_OK


def _read_errors(on_error: str, *files) -> list | None:
    """The read errors of the entry lists; ``None`` (after printing them) if they stop the run."""
    errors = [e.error for entries in files for e in entries if e.error is not None]
    return None if report_unreadable(errors, on_error) else errors


def _graphs(entries) -> list[RawGraph]:
    return [e.graph if e.graph is not None else _EMPTY for e in entries]


def _headline(metric):
    """The corpus headline score of summed statistics given as separate columns."""
    def score(*sums):
        return metric.scores(np.stack(np.broadcast_arrays(*sums), axis=-1))[metric.headline]
    return score


def run_compare(args: argparse.Namespace, metric) -> int:
    """``compare --metric NAME``: paired bootstrap and approximate randomization on the
    difference of the two systems' micro scores (:func:`smatchpp.significance.compare_columns`)."""
    check_outputs({"--pairs-out": args.pairs_out}, [args.sys1, args.sys2, args.gold])
    entries_1, entries_2, entries_gold = read_inputs(args, ("sys1", "sys2", "gold"))
    errors = _read_errors(args.on_error, entries_1, entries_2, entries_gold)
    if errors is None:
        return EXIT_USAGE
    g1, g2, gold = _graphs(entries_1), _graphs(entries_2), _graphs(entries_gold)
    metric.prepare(g1 + g2 + gold)
    bad = {k for entries in (entries_1, entries_2, entries_gold) for k, e in enumerate(entries)
           if e.error is not None} if args.on_error == "skip" else set()
    kept = [k for k in range(len(gold)) if k not in bad]
    gold_features = [metric.features(g) for g in gold]
    stats = [np.array([metric.stats(metric.features(graphs[k]), gold_features[k]) for k in kept],
                      dtype=float).reshape(len(kept), len(metric.stat_names)) for graphs in (g1, g2)]
    resamples = args.bootstrap or DEFAULT_RESAMPLES
    trials = args.ar_trials or DEFAULT_TRIALS
    c = compare_columns(_headline(metric), stats[0].T, stats[1].T, resamples, trials,
                        args.bootstrap_seed, name=metric.name)
    signature = metric.signature(args.on_error, resamples, args.bootstrap_seed)
    signature = signature.replace("|deterministic:", f"|ar-trials:{trials}|deterministic:")
    if args.pairs_out:
        with open_output(args.pairs_out) as out:
            for row, k in enumerate(kept):
                s1, s2 = (metric.pair_scores(st[row])[metric.headline] for st in stats)
                out.write(present.json_line({"index": k, "id": entries_gold[k].id or entries_1[k].id,
                                      "sys1": s1, "sys2": s2, "difference": s1 - s2}) + "\n")
    summary_out = sys.stderr if args.pairs_out == "-" else sys.stdout
    summary = {"signature": signature, "sys1": args.sys1, "sys2": args.sys2,
               "gold": args.gold, "pairs": c.pairs, "left_out": sorted(bad),
               "comparisons": [c.to_json()]}
    header = [signature, f"sys1: {args.sys1}  sys2: {args.sys2}  gold: {args.gold}",
              f"pairs: {c.pairs} compared" + (f", {len(bad)} left out (unreadable)" if bad else "")]
    emit(present.compare_report(summary, [c], args.format, header=header, score=metric.headline),
         summary_out)
    warn_unreadable(errors, args.on_error)
    return EXIT_OK


def run_matrix(args: argparse.Namespace, metric) -> int:
    """``matrix --metric NAME``: every pair's statistics at once (:meth:`Metric.stats_matrix`),
    written with the graphs' ids and the signature."""
    out = args.output
    if not (out.endswith(".npz") or out.endswith(".parquet")):
        raise UsageError(f"--output {out}: the name must end in .npz or .parquet")
    inputs = [args.test] + ([args.gold] if args.gold else [])
    one_stdin(args.test, args.gold)
    check_outputs({"--output": out}, inputs)
    entries = [read_file(path, args.input_format) for path in inputs]
    for path, got in zip(inputs, entries):
        if not got:
            warn(f"{path} holds no graph: is it the right file? (no pair with its graphs is scored)")
    errors = _read_errors(args.on_error, *entries)
    if errors is None:
        return EXIT_USAGE
    if errors and args.on_error == "skip":
        raise UsageError("matrix has no pairs to skip: use --on-error empty to score unreadable "
                         "graphs as empty ones")
    rows = _graphs(entries[0])
    cols = _graphs(entries[1]) if args.gold else rows
    metric.prepare(rows + (cols if args.gold else []))
    fa = [metric.features(g) for g in rows]
    fb = [metric.features(g) for g in cols] if args.gold else fa
    # NaN until scored: interrupted, the finished pairs are written and the rest stay NaN
    stats = np.full((len(fa), len(fb), len(metric.stat_names)), np.nan)
    try:
        metric.stats_matrix(fa, fb, out=stats)
    except INTERRUPTS:
        done = int(np.isfinite(stats).all(axis=-1).sum())
        signature = _write_metric_matrix(args, metric, entries, stats)
        print(f"{signature}\n{done} of {plural(stats.shape[0] * stats.shape[1], 'pair')} scored; "
              f"matrix written to {out} (the rest NaN)")
        print(f"smatchpp: interrupted: {done} of {plural(stats.shape[0] * stats.shape[1], 'pair')} "
              "finished", file=sys.stderr)
        return EXIT_INTERRUPTED
    signature = _write_metric_matrix(args, metric, entries, stats)
    print(f"{signature}\n{stats.shape[0] * stats.shape[1]} pairs scored; matrix written to {out}")
    warn_unreadable(errors, args.on_error)
    return EXIT_OK


def _write_metric_matrix(args: argparse.Namespace, metric, entries, stats: np.ndarray) -> str:
    """Write ``matrix --metric``'s file from ``stats`` (NaN where not scored); its signature."""
    out = args.output
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = {k: np.array(v, dtype=float) for k, v in metric.scores(stats).items()}
    unscored = ~np.isfinite(stats).all(axis=-1)
    for values in scores.values():
        values[unscored] = np.nan
    ids = [[_id(e) for e in got] for got in entries]
    signature = metric.signature(args.on_error)
    arrays = {"signature": np.array(signature), "ids_a": np.array(ids[0], dtype=str),
              "ids_b": np.array(ids[-1], dtype=str), metric.headline: scores[metric.headline]}
    if args.all:
        arrays.update((k, v) for k, v in scores.items() if k != metric.headline)
        arrays.update((name, stats[..., k]) for k, name in enumerate(metric.stat_names))
    if out.endswith(".npz"):
        np.savez_compressed(out, **arrays)
    else:
        _write_parquet(out, arrays, signature)
    return signature


def _id(entry) -> str:
    """A graph's name in the outputs: its ``# ::id``, else its 0-based index."""
    return entry.id if entry.id is not None else str(entry.index)


def _write_parquet(path: str, arrays: dict, signature: str) -> None:
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise UsageError("Parquet output needs pyarrow: pip install 'smatchpp[matrix]', "
                         "or write .npz") from None
    grid = [a for k, a in arrays.items() if k not in ("signature", "ids_a", "ids_b")]
    n, m = grid[0].shape
    i, j = np.divmod(np.arange(n * m), m)
    columns = {"i": i, "j": j, "id_i": arrays["ids_a"][i], "id_j": arrays["ids_b"][j]}
    columns.update((k, a.ravel()) for k, a in arrays.items() if k not in ("signature", "ids_a", "ids_b"))
    table = pa.table(columns).replace_schema_metadata({"signature": signature})
    pq.write_table(table, path)


def run_search(args: argparse.Namespace, metric) -> int:
    """``search --metric NAME``: each query's ``--top`` corpus graphs of highest score (ties: the
    lower corpus index first), from the statistics of every pair (:meth:`Metric.stats_matrix`)."""
    if args.top < 1:
        raise UsageError(f"--top must be at least 1, got {args.top}")
    check_outputs({"--out": args.out}, [args.test, args.gold])
    one_stdin(args.test, args.gold)
    entries = [read_file(path, args.input_format) for path in (args.test, args.gold)]
    for path, got in zip((args.test, args.gold), entries):
        if not got:
            warn(f"{path} holds no graph: is it the right file? (no pair with its graphs is scored)")
    errors = _read_errors(args.on_error, *entries)
    if errors is None:
        return EXIT_USAGE
    queries, corpus = _graphs(entries[0]), _graphs(entries[1])
    metric.prepare(queries + corpus)
    fc = [metric.features(g) for g in corpus]
    signature = metric.signature(args.on_error)
    done = 0
    with open_output(args.out or "-") as out:
        try:
            for q, graph in enumerate(queries):
                scores = metric.scores(metric.stats_matrix([metric.features(graph)], fc))[metric.headline][0]
                order = np.lexsort((np.arange(len(corpus)), -scores))[:args.top]
                out.write(present.json_line({"query": q, "id": _id(entries[0][q]), "hits": [
                    {"index": int(j), "id": _id(entries[1][j]), "score": float(scores[j])} for j in order],
                    "signature": signature}) + "\n")
                done += 1
        except INTERRUPTS:
            print(f"smatchpp: interrupted: {done} of {plural(len(queries), 'query', 'queries')} "
                  "finished", file=sys.stderr)
            return EXIT_INTERRUPTED
    print(f"{signature}\n{plural(len(queries), 'query', 'queries')} x {plural(len(corpus), 'graph')}",
          file=sys.stderr)
    warn_unreadable(errors, args.on_error)
    return EXIT_OK

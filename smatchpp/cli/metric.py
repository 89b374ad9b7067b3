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
from contextlib import ExitStack
from typing import Any

import numpy as np

from ..reporting import present
from ..alignment.config import BOOTSTRAP_SEED, Config
from ..metrics import METRICS, Metric, MetricCorpus, bootstrap_metric, get_metric, metric_names
from ..metrics.base import MetricIntervals
from ..core.bulk import no_cycle_collection
from ..graphs.read import RawGraph, read_file
from ..core.signature import Signature, SignatureError, read_value
from ..statistics.significance import DEFAULT_RESAMPLES, DEFAULT_TRIALS, compare_columns
from ..running.runs import EMPTY_GRAPH, auto_workers, metric_matrix, metric_pairs, metric_rows
from ..running.executor import EXIT_INTERRUPTED, INTERRUPTS
from .app import collect, conclude, interrupted_message, read_in_parts, read_pairs, summary_stream, system_names
from .common import (EXIT_OK, EXIT_USAGE, UsageError, check_outputs, dask_client, emit, one_stdin, plural,
                     report_unreadable,
                     warn, warn_unreadable, workers_from_args)

__all__ = ["add_metric_options", "metric_from_args", "run_score", "run_compare", "run_matrix", "run_search",
           "format_metric_text", "ALIGNMENT"]

#: the alignment family (Smatch, S2Match, WSMATCH, ...: ``--match`` picks among them); it is
#: the registered metric of that name too, but its options are the Config's and the commands
#: keep their own path for it (``cli/score.py``)
ALIGNMENT = "smatch"
#: options every metric takes (inputs, reading, errors, output, workers, resampling)
_SHARED = {"test", "gold", "sys1", "sys2", "more", "input_format", "on_error", "quiet",
           "format", "pairs_out", "bootstrap", "bootstrap_seed", "ar_trials", "output", "all", "top", "out",
           "metric",
           "command", "run", "option_defaults"}
#: the backend options (``--workers``, ``--dask``) and the commands whose ``--metric`` run
#: uses them; another command refuses them under ``--metric`` (they would do nothing)
_BACKEND = {"workers", "force_workers", "dask", "dask_timeout"}
_ON_BACKENDS = {"score", "compare", "matrix"}
_EMPTY = EMPTY_GRAPH


def _others() -> dict[str, type[Metric]]:
    """The registered metrics but the alignment family (which the options name ALIGNMENT)."""
    return {name: METRICS[name] for name in metric_names() if name != ALIGNMENT}


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


def _from_signature(args: argparse.Namespace, defaults: dict[str, Any]) -> Metric:
    """The metric of a metric signature (``--signature``), and the run's settings in it set on
    ``args``; an option given as well must agree with it, a file it names must be given
    (:class:`smatchpp.core.signature.Signature`'s rules).  The alignment family's file options
    (``--vectors``, ``--propbank-frames``, ``--role-weights``) give the files of an ``aspect``
    signature."""
    try:
        sig = Signature.parse(args.signature)
    except SignatureError as exc:
        raise UsageError(f"--signature: {exc}") from None
    name = sig.metric
    if name not in _others():
        raise UsageError(f"--signature: unknown metric {name!r}; known: {', '.join(sorted(_others()))}")
    if args.metric not in (ALIGNMENT, name):
        raise UsageError(f"--metric {args.metric} disagrees with the signature's metric {name}")
    cls = _others()[name]
    files = {s.name: getattr(args, _dest(name, s.name)) for s in cls.settings()
             if s.identity is not None and getattr(args, _dest(name, s.name), None) is not None}
    if name == "aspect":  # its Config's files
        files.update((f, getattr(args, f)) for f in _CONFIG_FILES if getattr(args, f, None) is not None)
    try:
        metric = cls.from_signature(sig, files)
    except (SignatureError, OSError) as exc:
        raise UsageError(f"--signature: {exc}") from None
    for s in cls.settings():  # the metric's options given must agree with the signature
        given = getattr(args, _dest(name, s.name), None)
        if given is not None and s.identity is None and given != getattr(metric, s.name):
            raise UsageError(f"--{s.key} {given} disagrees with the signature's {s.key}:{s.text(metric)}")
    run = {"errors": ("on_error", str), "bootstrap": ("bootstrap", int),
           "bootstrap-seed": ("bootstrap_seed", int), "ar-trials": ("ar_trials", int)}
    for key, text in sig.run().items():
        dest, kind = run[key]
        if not hasattr(args, dest):
            raise UsageError(f"--signature sets {key}:{text}, which this command does not take")
        try:
            value = read_value(text, kind, None, key)
        except SignatureError as exc:
            raise UsageError(f"--signature: {exc}") from None
        given = getattr(args, dest)
        if given != defaults.get(dest) and given != value:
            raise UsageError(f"{_option(dest)} {given} disagrees with the signature's {key}:{text}")
        setattr(args, dest, value)
    args.metric = name
    args.signature = None
    return metric


#: the alignment family's file options, which give an ``aspect`` signature's files
_CONFIG_FILES = ("vectors", "propbank_frames", "role_weights")


def metric_from_args(args: argparse.Namespace):
    """The metric ``--metric`` names with its options; refuses options that would do nothing."""
    defaults: dict[str, Any] = getattr(args, "option_defaults", {})
    replayed = None
    if getattr(args, "signature", None) and "|metric:" in args.signature:
        replayed = _from_signature(args, defaults)
    # search --metric scores a query against the corpus at once (Metric.stats_matrix): --workers
    # is accepted there, as before, and changes nothing
    shared = _SHARED | (_BACKEND if getattr(args, "command", None) in _ON_BACKENDS
                        else {"workers", "force_workers"})
    given = {dest for dest, default in defaults.items()
             if dest not in shared and getattr(args, dest, default) != default}
    if replayed is not None and args.metric == "aspect":
        given -= set(_CONFIG_FILES)  # the files of the signature's Config
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
    if replayed is not None:
        return replayed
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
    """The summary of a metric's corpus score in ``fmt`` (:func:`smatchpp.reporting.present.metric_report`)."""
    return present.metric_report(corpus.summary(), fmt, total=total, bootstrap=intervals,
                                 mean_only=corpus.metric.micro_is_macro)


def run_score(args: argparse.Namespace, metric) -> int:
    """``score --metric NAME``: every pair's statistics, the corpus summary, optional bootstrap.
    The graphs, features and statistics make no reference cycles: the cycle collector, which
    would walk them again and again, is paused for the run (:mod:`smatchpp.core.bulk`)."""
    with no_cycle_collection():
        return _score_pairs(args, metric)


def _score_pairs(args: argparse.Namespace, metric) -> int:
    explain = bool(getattr(args, "alignments", False))
    outputs = {"--pairs-out": args.pairs_out}
    with ExitStack() as stack:
        inputs, parts, client = read_in_parts(args, metric, args.on_error, outputs, explain, stack)
        if parts is not None:  # the workers read the files (runs.FileRun)
            if inputs is None:
                return EXIT_USAGE

            def results(client):
                return parts.results()
        else:
            inputs = read_pairs(args, ("test", "gold"), args.on_error, outputs)
            if inputs is None:
                return EXIT_USAGE
            entries_a, entries_b = inputs.entries

            def results(client):
                return metric_pairs(metric, entries_a, entries_b, args.on_error, workers, client, explain=explain)
        workers = _workers(args, inputs.total)

        def line(result) -> dict:
            pair, explanation = result
            out = pair.to_json(metric)
            if explanation:
                out.update(explanation)
            return out

        run = collect(args, results, workers, inputs.total, line, progress=True,
                      signature=metric.signature(args.on_error, args.bootstrap, args.bootstrap_seed), client=client)
    corpus = MetricCorpus(metric, [pair for pair, _ in run.results], args.on_error, args.bootstrap,
                          args.bootstrap_seed)
    intervals = None
    if args.bootstrap:
        intervals = bootstrap_metric(metric, corpus.stats, args.bootstrap, args.bootstrap_seed)
    emit(format_metric_text(corpus, inputs.total if run.interrupted else None, args.format, intervals),
         summary_stream(args))
    return conclude(run, inputs)


def _workers(args: argparse.Namespace, pairs: int) -> int:
    """``--workers`` as given (capped at the cores unless ``--force-workers``); without it,
    one worker per :data:`smatchpp.running.runs.PAIRS_PER_WORKER` pairs, at most the cores (a pool
    costs more than it saves on a few thousand pairs of a metric without an alignment)."""
    if getattr(args, "dask", None) is not None or getattr(args, "workers", None) is not None:
        return workers_from_args(args)
    return auto_workers(pairs, workers_from_args(args))


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
    difference of two systems' micro scores (:func:`smatchpp.statistics.significance.compare_columns`);
    with more systems, each against sys1 (the same pairs, resamples and trials for all).
    The systems' statistics of a pair come together and each row is written as it is done,
    so that an interrupted run keeps (and compares) every finished pair."""
    names = system_names(args)
    inputs = read_pairs(args, (*names, "gold"), args.on_error, {"--pairs-out": args.pairs_out})
    if inputs is None:
        return EXIT_USAGE
    *systems, entries_gold = inputs.entries
    workers = _workers(args, len(systems) * inputs.total)
    many = len(names) > 2

    def line(row) -> dict | None:
        pairs = [p for p, _ in row]
        if any(p.stats is None for p in pairs):
            return None
        k = pairs[0].index
        scores = [metric.pair_scores(p.stats)[metric.headline] for p in pairs]
        out = {"index": k, "id": entries_gold[k].id or systems[0][k].id}
        out.update(zip(names, scores))
        if many:
            out.update((f"difference_{name}", scores[0] - s) for name, s in zip(names[1:], scores[1:]))
        else:
            out["difference"] = scores[0] - scores[1]
        return out

    resamples = args.bootstrap or DEFAULT_RESAMPLES
    trials = args.ar_trials or DEFAULT_TRIALS
    signature = metric.signature(args.on_error, resamples, args.bootstrap_seed, trials)
    run = collect(args, lambda client: metric_rows(metric, systems, entries_gold, args.on_error, workers, client),
                  workers, inputs.total, line, progress=True, signature=signature)
    rows = [tuple(p for p, _ in row) for row in run.results]
    kept = [row for row in rows if all(p.stats is not None for p in row)]
    bad = sorted(row[0].index for row in rows if any(p.stats is None for p in row))
    stats = [np.array([row[j].stats for row in kept], dtype=float).reshape(len(kept), len(metric.stat_names))
             for j in range(len(names))]
    if run.interrupted:
        interrupted_message(run, "; comparing those")
        if not rows:
            return EXIT_INTERRUPTED
    try:
        # every comparison draws the same resamples and trials (one seed): sacreBLEU's paired tests
        found = [compare_columns(_headline(metric), stats[0].T, other.T, resamples, trials,
                                 args.bootstrap_seed, name=metric.name) for other in stats[1:]]
    except INTERRUPTS:
        print("smatchpp: interrupted again: no comparison", file=sys.stderr)
        return EXIT_INTERRUPTED
    c = found[0]
    summary: dict = {"signature": signature}
    if many:
        summary["baseline"] = "sys1"
    summary.update((name, getattr(args, name)) for name in names)
    summary.update({"gold": args.gold, "pairs": c.pairs, "left_out": bad,
                    "comparisons": [{"system": name, **x.to_json()} for name, x in zip(names[1:], found)]
                    if many else [c.to_json()]})
    header = [signature, "  ".join(f"{name}: {getattr(args, name)}" for name in names) + f"  gold: {args.gold}"]
    if run.interrupted:
        summary["interrupted"] = {"finished": len(rows), "total": inputs.total}
        header.append(f"interrupted: {len(rows)} of {plural(inputs.total, 'pair')} finished; "
                      "the comparison below covers those only")
    header.append(f"pairs: {c.pairs} compared" + (", each system against sys1" if many else "")
                  + (f", {len(bad)} left out (unreadable)" if bad else ""))
    if many:
        text = present.systems_report(summary, [(name, [x]) for name, x in zip(names[1:], found)], args.format,
                                      header=header, score=metric.headline)
    else:
        text = present.compare_report(summary, [c], args.format, header=header, score=metric.headline)
    emit(text, summary_stream(args))
    warn_unreadable(inputs.errors, args.on_error)
    return EXIT_INTERRUPTED if run.interrupted else EXIT_OK


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
    workers = _workers(args, len(fa) * len(fb))
    cells, done_all = present.matrix_cells(len(fa), len(fb), False), len(fa) * len(fb)
    try:
        with dask_client(args, workers) as client:  # pair by pair metrics on the backends (runs.metric_matrix)
            metric_matrix(metric, fa, fb, workers, client, out=stats)
    except INTERRUPTS:
        done = int(np.isfinite(stats).all(axis=-1).sum())
        signature = _write_metric_matrix(args, metric, entries, stats)
        print(f"{signature}\n{done} of {plural(stats.shape[0] * stats.shape[1], 'pair')} scored "
              f"({cells}); matrix written to {out} (the rest NaN)")
        print(f"smatchpp: interrupted: {done} of {plural(stats.shape[0] * stats.shape[1], 'pair')} "
              "finished", file=sys.stderr)
        return EXIT_INTERRUPTED
    signature = _write_metric_matrix(args, metric, entries, stats)
    print(f"{signature}\n{done_all} of {plural(done_all, 'pair')} scored ({cells}); matrix written to {out}")
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
    # the headline score is ``score`` in every matrix file; a metric whose headline is another key
    # (``f1``) keeps that name too, for the scripts that read it
    arrays["score"] = scores[metric.headline]
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
    check_outputs({"--output": args.out}, [args.test, args.gold])
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

    def hits(client):
        for q, graph in enumerate(queries):
            order, scores, _pruned = metric.top_k(metric.features(graph), fc, args.top,
                                                 prune=metric.prune_search)
            yield q, scores, order

    def line(found) -> dict:
        q, scores, order = found
        return {"query": q, "id": _id(entries[0][q]), "hits": [
            {"index": int(j), "id": _id(entries[1][j]), "score": float(s)} for j, s in zip(order, scores)],
            "signature": signature}

    run = collect(args, hits, 1, len(queries), line, progress=True, unit="query", to=args.out or "-")
    print(f"{signature}\n{plural(len(queries), 'query', 'queries')} x {plural(len(corpus), 'graph')}",
          file=sys.stderr)
    if run.interrupted:
        warn_unreadable(errors, args.on_error)
        interrupted_message(run, written=False)
        return EXIT_INTERRUPTED
    warn_unreadable(errors, args.on_error)
    return EXIT_OK

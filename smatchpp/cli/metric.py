"""``--metric NAME``: the metrics that need no alignment, through :mod:`smatchpp.metrics`.

``score --metric NAME`` (and the other commands that take it) read the two
files as ``score`` does, compute each graph's features once, and each pair's
sufficient statistics; the summary gives the micro score (of the summed
statistics) and the macro score (the mean of the pairs' scores).  Each metric's
parameters are options ``--NAME-PARAM`` generated from its declaration, and
part of the signature.  :func:`metric_from_args` gives a metric for every
``--metric``, Smatch's family included (its Config), and :func:`run_from_args` the
run's settings beside it: ``score`` and ``compare`` then take one road for every
metric (:mod:`smatchpp.cli.app`).  Options of the alignment family (``--solver``,
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
from dataclasses import dataclass
from typing import Any

from ..reporting import present
from ..reporting.matrix_files import MetricMatrix
from ..alignment.config import BOOTSTRAP_SEED, Config
from ..metrics import METRICS, Metric, MetricCorpus, get_metric, metric_names
from ..metrics.alignment import AlignmentMetric, without_run
from ..metrics.base import MetricIntervals
from ..core.signature import Signature, SignatureError, read_value
from .app import fill_matrix, read_graph_files, workers_for
from .common import EXIT_USAGE, UsageError, config_from_args

__all__ = ["add_metric_options", "metric_from_args", "run_from_args", "alignment_run", "RunSettings", "run_matrix",
           "format_metric_text", "ALIGNMENT"]

#: the alignment family (Smatch, S2Match, WSMATCH, ...: ``--match`` picks among them), the
#: registered metric of that name (:class:`~smatchpp.metrics.alignment.AlignmentMetric`); its
#: options are the Config's, and :func:`metric_from_args` gives it carrying that Config
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
            kind = f.metadata.get("kind") or (type(f.default) if f.default is not None else str)
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


#: the shared solving options the counter metric takes as its own (``metric_from_args``)
_COUNTER_SOLVING = ("solver", "compression", "time_limit")


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


@dataclass(frozen=True)
class RunSettings:
    """The settings of a run that are not the metric's: error handling and resampling (the
    signature names them beside the metric's; :meth:`Metric.signature`'s arguments)."""

    on_error: str = "raise"
    bootstrap: int | None = None
    bootstrap_seed: int = BOOTSTRAP_SEED
    ar_trials: int | None = None

    def signature(self, metric: Metric) -> str:
        return metric.signature(self.on_error, self.bootstrap, self.bootstrap_seed, self.ar_trials)


def alignment_run(config: Config) -> tuple[AlignmentMetric, RunSettings]:
    """The alignment family's metric of ``config`` and the run's settings in it."""
    return AlignmentMetric(without_run(config)), RunSettings(
        config.on_error, config.bootstrap, config.bootstrap_seed, config.ar_trials)


def metric_from_args(args: argparse.Namespace, **overrides: Any) -> Metric:
    """The metric ``--metric`` names with its options (the alignment family's: the Config of
    the options, ``overrides`` the settings the command fixes); refuses options that would do
    nothing."""
    return run_from_args(args, **overrides)[0]


def run_from_args(args: argparse.Namespace, **overrides: Any) -> tuple[Metric, RunSettings]:
    """The metric of the options (:func:`metric_from_args`) and the run's settings."""
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
    # the counter metric solves each pair through the shared solvers: --solver, --compression
    # and --time-limit are its own, as for AMR (its --counter-* spellings stay)
    solving = {d: getattr(args, d) for d in _COUNTER_SOLVING if args.metric == "counter" and d in stray}
    stray = [d for d in stray if d not in solving]
    if args.metric == "counter" and {"aspects", "aspects_mode"} & set(stray):  # Counter's detailed scores
        solving["aspects"] = _counter_aspects(args)
        stray = [d for d in stray if d not in ("aspects", "aspects_mode")]
    if stray:
        shown = ", ".join(_flag(args, d) for d in stray)
        raise UsageError(f"{shown} {'does' if len(stray) == 1 else 'do'} nothing under --metric "
                         f"{args.metric}: remove {'it' if len(stray) == 1 else 'them'}, or choose "
                         "the metric that uses it")
    if args.metric == ALIGNMENT:  # its settings, the run's too, are the Config's
        return alignment_run(config_from_args(args, **overrides))
    # the shared options default to None (so that the alignment family can tell what was given)
    if args.on_error is None:
        args.on_error = "raise"
    if getattr(args, "bootstrap_seed", BOOTSTRAP_SEED) is None:
        args.bootstrap_seed = BOOTSTRAP_SEED
    run = RunSettings(args.on_error, getattr(args, "bootstrap", None), getattr(args, "bootstrap_seed", BOOTSTRAP_SEED),
                      getattr(args, "ar_trials", None))
    if replayed is not None:
        _refuse_idle_aspects(args, replayed)
        return replayed, run
    params = {f: getattr(args, _dest(args.metric, f)) for f, _, _ in _others()[args.metric].params()
              if getattr(args, _dest(args.metric, f)) is not None}
    params.update(solving)
    if args.metric == "aspect" and limit is not None:
        params["config"] = Config(aspects="separate", time_limit=limit)
    try:
        metric = get_metric(args.metric, **params)
    except (ValueError, OSError) as exc:
        raise UsageError(f"--metric {args.metric}: {exc}") from None
    _refuse_idle_aspects(args, metric)
    return metric, run


#: the commands whose output shows the counter metric's aspects (Counter's detailed scores)
_SHOWS_ASPECTS = ("score", "compare", "matrix", "explain")


def _refuse_idle_aspects(args: argparse.Namespace, metric: Metric) -> None:
    """The counter metric's ``aspects`` in a command whose output has no place for them (gap,
    search) would do nothing but sign the run: refused."""
    command = getattr(args, "command", None)
    if getattr(metric, "aspects", "none") == "none" or args.metric != "counter":
        return
    if command not in _SHOWS_ASPECTS:
        raise UsageError(f"--counter-aspects does nothing in {command}: its output has no aspects (they are in "
                         f"{', '.join(_SHOWS_ASPECTS)})")
    if command == "explain" and not getattr(args, "json", None):  # explain's --pairs-out
        raise UsageError("--counter-aspects does nothing in explain's view: its pairs are written with their "
                         "aspects by --pairs-out FILE")


def _counter_aspects(args: argparse.Namespace) -> str:
    """The counter metric's ``aspects`` of ``--aspects SET`` (and ``--aspects-mode``): the
    sets that score DRSs (``counter``, Counter's detailed scores), counted under each pair's
    mapping (``joint``); an AMR set, the mode ``separate`` or a contradicting
    ``--counter-aspects`` are refused."""
    from ..core.aspect_settings import drs_sets

    chosen, mode = getattr(args, "aspects", None), getattr(args, "aspects_mode", None)
    sets = drs_sets()
    if chosen in (None, "none"):
        raise UsageError("--aspects-mode needs --aspects")
    if chosen not in sets:
        raise UsageError(f"--aspects {chosen} scores AMR graphs; under --metric counter the aspect set is "
                         f"{' or '.join(sets)} (Counter's detailed scores): --aspects {sets[0]}")
    if mode not in (None, "joint"):
        raise UsageError(f"--aspects-mode {mode}: Counter's detailed scores are counted under each pair's "
                         "optimal mapping (joint), as Counter counts them on its best mapping")
    own = getattr(args, _dest("counter", "aspects"), None)
    if own is not None and own != chosen:
        raise UsageError(f"--aspects {chosen} contradicts --counter-aspects {own}")
    return chosen


def _flag(args: argparse.Namespace, dest: str) -> str:
    for name, cls in _others().items():
        for field_name, key, _ in cls.params():
            if _dest(name, field_name) == dest:
                return f"--{key}"
    return _option(dest)


def format_metric_text(corpus: MetricCorpus, total: int | None = None, fmt: str = "text",
                       intervals: MetricIntervals | None = None) -> str:
    """The summary of a metric's corpus score in ``fmt`` (:func:`smatchpp.reporting.present.corpus_report`,
    the one report of ``score``)."""
    return present.corpus_report(corpus.summary(), fmt, total=total, bootstrap=intervals,
                                 note=corpus.metric.note(), mean_only=corpus.metric.micro_is_macro)


def run_matrix(args: argparse.Namespace, metric) -> int:
    """``matrix --metric NAME``: every pair's statistics at once
    (:class:`smatchpp.reporting.matrix_files.MetricMatrix`), written with the graphs' ids and the
    signature, through the template (:func:`~.app.read_graph_files`, :func:`~.app.fill_matrix`;
    the output's name and the inputs are checked by :func:`smatchpp.cli.matrix.run`)."""
    paths = [args.test] + ([args.gold] if args.gold else [])
    graphs = read_graph_files(args, paths, args.on_error)
    if graphs is None:
        return EXIT_USAGE
    if graphs.errors and args.on_error == "skip":
        raise UsageError("matrix has no pairs to skip: use --on-error empty to score unreadable "
                         "graphs as empty ones")
    engine = MetricMatrix(metric, graphs.graphs[0], graphs.graphs[1] if args.gold else None,
                          metric.signature(args.on_error), args.output, graphs.ids[0], graphs.ids[-1], args.all)
    return fill_matrix(args, graphs, engine, workers_for(args, metric, engine.total))

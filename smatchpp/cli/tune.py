"""``smatchpp tune``: fit a metric's parameters to human similarity scores.

    smatchpp tune A.amr B.amr SCORES.txt --metric wwlk -o weights.tsv
                  [--dev A.amr B.amr SCORES.txt] [--iterations 8750] [--check-every 350]
                  [--seed 42] [--curve curve.tsv] [--plot curve.png] [--wwlk-... options]

    smatchpp tune A.amr B.amr SCORES.txt --metric smatch -o grid.tsv --dev A.amr B.amr SCORES.txt
                  [--cutoffs 0.5,0.6,...] [--diffsenses 0.5,0.6,...]

``--metric wwlk`` fits WWLK's edge weights (WWLK-θ) with the reference's SPSA
(:mod:`smatchpp.metrics.tune`); the weights file it writes is what
``--wwlk-edge-weights FILE`` reads.  ``--metric smatch`` tries S2Match's cutoff and
diffsense on a grid, exact scores of every pair, and chooses by the dev pairs' Pearson r;
``--out`` gets the grid (cutoff, diffsense, train r, dev r).  SCORES has one number per
line, one per pair.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from ..metrics.alignment import AlignmentMetric
from ..running.runs import metric_pairs
from ..metrics.tune import SPSA, GridResult, TuneResult, grid_search, read_scores, spsa, write_weights
from ..graphs.read import read_file
from .common import INTERRUPTS, EXIT_OK, EXIT_USAGE, UsageError, check_outputs, report_unreadable
from .metric import add_metric_options, metric_from_args

__all__ = ["add_parser", "run"]

_SAMPLE = ("A", "B", "Y", "--out", "W")
# both are fractions by definition (config's [0, 1] check): a cutoff of 1 turns the vectors off
# (a similarity counts only above it) and a diffsense of 1 scores another sense as the same
# predicate, so the grid reaches both bounds and an optimum on its edge is a true bound
_GRID = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)
_GRID_TEXT = ",".join(f"{x:g}" for x in _GRID)
_SPSA_ONLY = ("iterations", "check_every", "batch", "learning_rate", "seed", "plot", "curve")


def _grid(text: str) -> tuple[float, ...]:
    try:
        values = tuple(float(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, got {text!r}") from None
    if not values or any(not 0 <= v <= 1 for v in values):
        raise argparse.ArgumentTypeError(f"every value must be in [0, 1], got {text!r}")
    return values


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("tune", help="fit a metric to human scores: by default (--metric smatch) "
                                    "S2Match's cutoff x diffsense grid, 49 settings each scoring "
                                    "every pair (about 30 minutes on BAMBOO STS); --metric wwlk: "
                                    "WWLK's edge weights by SPSA (WWLK-theta)")
    p.add_argument("a", metavar="A.amr", help="the first graph of every training pair")
    p.add_argument("b", metavar="B.amr", help="the second graph of every training pair")
    p.add_argument("scores", metavar="SCORES.txt", help="the human score of every pair, one per line")
    p.add_argument("-o", "--output", "--out", dest="out", required=True, metavar="WEIGHTS.tsv",
                   help="the fitted weights, relation<TAB>weight (--wwlk-edge-weights reads it); "
                        "--out: its old spelling")
    p.add_argument("--dev", nargs=3, metavar=("A.amr", "B.amr", "SCORES.txt"),
                   help="pairs whose Pearson r selects the weights (default: the training pairs)")
    d = SPSA()
    p.add_argument("--iterations", type=int, default=d.iterations,
                   help=f"SPSA steps (default {d.iterations}: the reference's 25 checks of {d.check_every})")
    p.add_argument("--check-every", type=int, default=d.check_every,
                   help=f"steps between two dev evaluations (default {d.check_every})")
    p.add_argument("--batch", type=int, default=d.batch, help=f"pairs per step (default {d.batch})")
    p.add_argument("--learning-rate", type=float, default=d.lr,
                   help=f"initial learning rate (default {d.lr})")
    p.add_argument("--seed", type=int, default=d.seed,
                   help=f"seed of the batches and perturbations (default {d.seed})")
    p.add_argument("--curve", metavar="FILE.tsv", help="the training curve: step, mean batch loss, dev r")
    p.add_argument("--plot", metavar="FILE.png", help="the training curve as a picture (needs matplotlib)")
    p.add_argument("--cutoffs", type=_grid, default=_GRID, metavar="X,Y,...",
                   help=f"--metric smatch: S2Match cutoffs to try (default {_GRID_TEXT})")
    p.add_argument("--diffsenses", type=_grid, default=_GRID, metavar="X,Y,...",
                   help=f"--metric smatch: S2Match diffsense values to try (default {_GRID_TEXT})")
    p.add_argument("--preset", default="smatch", metavar="NAME",
                   help="--metric smatch: the preset the S2Match scores use (default smatch; "
                        "amr-suite for BAMBOO's published S2match rows)")
    p.add_argument("--workers", type=int, default=1, metavar="N",
                   help="--metric smatch: processes that score each setting's pairs (default 1; "
                        "the grid file is the same with any number)")
    p.add_argument("--input-format", default="penman", choices=("penman",), help=argparse.SUPPRESS)
    p.set_defaults(spsa_defaults={k: p.get_default(k) for k in _SPSA_ONLY})
    add_metric_options(p, _SAMPLE)
    # only the metrics' own options can be "given but unused"
    p.set_defaults(option_defaults={k: v for k, v in p.get_default("option_defaults").items()
                                    if k.startswith("metric_")}, on_error="raise")
    return p


def _graphs(path: str) -> list:
    entries = read_file(path)
    if not entries:
        raise UsageError(f"{path} holds no graph")
    if report_unreadable([e.error for e in entries if e.error is not None], "raise"):
        return []
    return [e.graph for e in entries]


def _pairs(a: str, b: str, y: str) -> tuple[list, list, list[float]] | None:
    ga, gb = _graphs(a), _graphs(b)
    if not ga or not gb:
        return None
    scores = read_scores(y)
    if not len(ga) == len(gb) == len(scores):
        raise UsageError(f"{a} has {len(ga)} graphs, {b} {len(gb)}, {y} {len(scores)} scores: "
                         "one graph in each and one score per pair")
    return ga, gb, scores


def run(args: argparse.Namespace) -> int:
    if args.metric == "smatch":
        return _run_s2match(args)
    if args.metric != "wwlk":
        raise UsageError("tune fits WWLK's edge weights (--metric wwlk) or S2Match's cutoff and "
                         "diffsense (--metric smatch)")
    if args.cutoffs != _GRID or args.diffsenses != _GRID or args.preset != "smatch" or args.workers != 1:
        raise UsageError("--cutoffs, --diffsenses, --preset and --workers do nothing under --metric wwlk "
                         "(SPSA's steps follow one another)")
    if args.metric_wwlk_edge_weights is not None and args.metric_wwlk_edge_weights == args.out:
        raise UsageError("--output is the --wwlk-edge-weights file it starts from: write another file")
    inputs = [args.a, args.b, args.scores] + list(args.dev or [])
    check_outputs({"--output": args.out, "--curve": args.curve, "--plot": args.plot}, inputs)
    if args.plot:
        from ..audit import check_plotting
        check_plotting()
    metric = metric_from_args(args)
    try:
        settings = SPSA(iterations=args.iterations, check_every=args.check_every, batch=args.batch,
                        lr=args.learning_rate, seed=args.seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    train = _pairs(args.a, args.b, args.scores)
    dev = _pairs(*args.dev) if args.dev else None
    if train is None or (args.dev and dev is None):
        return EXIT_USAGE

    def progress(step: int, loss: float, r: float) -> None:
        print(f"step {step}: mean batch loss {loss:.4f}, dev r {r:.4f}", file=sys.stderr, flush=True)

    result = TuneResult({}, {})
    try:
        spsa(metric, *train, dev=dev, settings=settings, progress=progress, state=result)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except INTERRUPTS:
        if result.curve:  # the best weights and the curve so far (issue 33)
            _write_spsa(args, metric, result, interrupted=True)
            print(f"interrupted at step {result.steps} of {args.iterations}: the best weights of the "
                  f"{len(result.curve)} checks so far written to {args.out}"
                  + (f", the curve to {args.curve}" if args.curve else ""), file=sys.stderr, flush=True)
        raise
    _write_spsa(args, metric, result)
    print(f"dev r {result.curve[0][2]:.4f} at the start, {result.best_dev:.4f} at step {result.best_step}; "
          f"{len(result.weights)} relation weights written to {args.out}")
    return EXIT_OK


def _write_spsa(args: argparse.Namespace, metric, result: TuneResult, interrupted: bool = False) -> None:
    """The weights (best so far), the curve and the plot of a run, finished or not."""
    steps = (f"interrupted at step {result.steps} of {args.iterations}" if interrupted
             else f"{args.iterations} steps")
    header = [f"WWLK edge weights fitted by smatchpp tune (SPSA: {steps}, batch "
              f"{args.batch}, learning rate {args.learning_rate}, seed {args.seed}; best dev r "
              f"{result.best_dev:.4f} at step {result.best_step})",
              f"starting from {metric.signature()}"]
    write_weights(args.out, result.weights, header)
    if args.curve:
        with open(args.curve, "w", encoding="utf-8") as out:
            out.write("step\tmean_batch_loss\tdev_r\n")
            out.writelines(f"{s}\t{loss!r}\t{r!r}\n" for s, loss, r in result.curve)
    if args.plot:
        _plot(result, args.plot)


def _run_s2match(args: argparse.Namespace) -> int:
    """S2Match's cutoff x diffsense grid: exact pair scores, chosen by the dev pairs' r.  Each
    cell is the ``smatch`` metric with S2Match's parameters, its pairs scored on the road of
    every metric (:func:`smatchpp.running.runs.metric_pairs`), their F1 its headline score."""
    from ..alignment.config import Config
    from ..alignment.matchers.embeddings import vectors_held

    given = [f"--{k.replace('_', '-')}" for k in _SPSA_ONLY if getattr(args, k) != args.spsa_defaults[k]]
    if given:
        raise UsageError(f"{', '.join(given)} do{'es' if len(given) == 1 else ''} nothing under --metric "
                         "smatch (the grid has no steps)")
    if not args.dev:
        raise UsageError("--metric smatch needs --dev A.amr B.amr SCORES.txt: the grid is chosen on it")
    metric_from_args(args)  # refuses the other metrics' options
    if args.workers < 1:
        raise UsageError(f"--workers: expected at least 1, got {args.workers}")
    check_outputs({"--output": args.out}, [args.a, args.b, args.scores] + list(args.dev))
    sides = []
    for a, b, y in ((args.a, args.b, args.scores), tuple(args.dev)):
        entries_a, entries_b = read_file(a), read_file(b)
        errors = [e.error for e in entries_a + entries_b if e.error is not None]
        if report_unreadable(errors, "raise"):
            return EXIT_USAGE
        scores = read_scores(y)
        if not len(entries_a) == len(entries_b) == len(scores):
            raise UsageError(f"{a} has {len(entries_a)} graphs, {b} {len(entries_b)}, {y} {len(scores)} "
                             "scores: one graph in each and one score per pair")
        sides.append((entries_a, entries_b, scores))

    concepts: list = []  # each pair's concepts, as the preset reads them (the same in every cell)

    def evaluate(setting):
        metric = AlignmentMetric(Config(preset=args.preset, match="s2match", cutoff=setting[0], diffsense=setting[1]))
        if not concepts:
            concepts.extend((metric.features(ea.graph).concepts, metric.features(eb.graph).concepts)
                            for entries_a, entries_b, _ in sides for ea, eb in zip(entries_a, entries_b))
        # the cell's similarity table in one batch, as a Scorer prepares it (the values are the
        # same computed pair by pair: only the time differs)
        metric.aligner.prepare(concepts)
        # both sides' pairs in one run (one pool of workers a cell), split after
        every = _headline(metric, metric_pairs(metric, [e for ea, _, _ in sides for e in ea],
                                               [e for _, eb, _ in sides for e in eb], "raise",
                                               workers=args.workers))
        return every[:len(sides[0][0])], every[len(sides[0][0]):]

    def progress(setting, tr, dr):
        print(f"cutoff {setting[0]:g} diffsense {setting[1]:g}: train r {tr:.4f}, dev r {dr:.4f}",
              file=sys.stderr, flush=True)

    try:
        Config(preset=args.preset, match="s2match")
    except ValueError as exc:
        raise UsageError(f"--preset {args.preset}: {exc}") from None
    grid = [(c, d) for c in args.cutoffs for d in args.diffsenses]
    result = GridResult([], ())
    try:
        with vectors_held():  # every cell's matcher uses the same vectors: one vocabulary read a run
            grid_search(evaluate, grid, sides[0][2], sides[1][2], progress, state=result)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except INTERRUPTS:
        if result.rows:  # the settings done so far (issue 33)
            _write_grid(args.out, result)
            c, d = result.best
            print(f"interrupted after {len(result.rows)} of {len(grid)} settings, written to {args.out}; "
                  f"best so far: --cutoff {c:g} --diffsense {d:g}", file=sys.stderr, flush=True)
        raise
    _write_grid(args.out, result)
    c, d = result.best
    best = next(row for row in result.rows if row[0] == result.best)
    print(f"best on dev: --preset {args.preset} --match s2match --cutoff {c:g} --diffsense {d:g} (dev r {best[2]:.4f}, train r "
          f"{best[1]:.4f}); {len(result.rows)} settings written to {args.out}")
    return EXIT_OK


def _headline(metric, found) -> list[float]:
    """The headline score of each pair of :func:`~smatchpp.running.runs.metric_pairs`, in order
    (:meth:`Metric.scores` of their statistics at once)."""
    stats = np.array([pair.stats for pair, _ in found], dtype=float).reshape(-1, len(metric.stat_names))
    return metric.scores(stats)[metric.headline].tolist()


def _write_grid(path: str, result: GridResult) -> None:
    with open(path, "w", encoding="utf-8") as out:
        out.write("cutoff\tdiffsense\ttrain_r\tdev_r\n")
        out.writelines(f"{c!r}\t{d!r}\t{tr!r}\t{dr!r}\n" for (c, d), tr, dr in result.rows)


def _plot(result: TuneResult, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [s for s, _, _ in result.curve]
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    ax.plot(steps[1:], [1 - loss for _, loss, _ in result.curve[1:]], "o-",
            label="train: 1 - mean batch loss (batch r)")
    ax.plot(steps, [r for _, _, r in result.curve], "s-", label="dev: Pearson r")
    ax.axvline(result.best_step, color="grey", linestyle=":", label=f"kept: step {result.best_step}")
    ax.set_xlabel("SPSA step")
    ax.set_ylabel("Pearson r")
    ax.set_title("WWLK edge weights fitted by SPSA")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)

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

from ..metrics.alignment import AlignmentMetric
from ..running.runs import metric_pairs
from ..metrics.tune import SPSA, GridResult, TuneResult, grid_search, headline_scores, spsa, write_grid, write_spsa
from .app import read_scored_pairs
from .common import INTERRUPTS, EXIT_OK, EXIT_USAGE, UsageError
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
    if args.plot:
        from ..audit import check_plotting
        check_plotting()
    metric = metric_from_args(args)
    try:
        settings = SPSA(iterations=args.iterations, check_every=args.check_every, batch=args.batch,
                        lr=args.learning_rate, seed=args.seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    sides = read_scored_pairs(args, [(args.a, args.b, args.scores)] + ([args.dev] if args.dev else []),
                              {"--output": args.out, "--curve": args.curve, "--plot": args.plot})
    if sides is None:
        return EXIT_USAGE
    train, *dev = [([e.graph for e in s.entries_a], [e.graph for e in s.entries_b], s.scores) for s in sides]

    def progress(step: int, loss: float, r: float) -> None:
        print(f"step {step}: mean batch loss {loss:.4f}, dev r {r:.4f}", file=sys.stderr, flush=True)

    result = TuneResult({}, {})
    try:
        spsa(metric, *train, dev=dev[0] if dev else None, settings=settings, progress=progress, state=result)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except INTERRUPTS:
        if result.curve:  # the best weights and the curve so far (issue 33)
            write_spsa(result, settings, metric.signature(), args.out, args.curve, args.plot, interrupted=True)
            print(f"interrupted at step {result.steps} of {args.iterations}: the best weights of the "
                  f"{len(result.curve)} checks so far written to {args.out}"
                  + (f", the curve to {args.curve}" if args.curve else ""), file=sys.stderr, flush=True)
        raise
    write_spsa(result, settings, metric.signature(), args.out, args.curve, args.plot)
    print(f"dev r {result.curve[0][2]:.4f} at the start, {result.best_dev:.4f} at step {result.best_step}; "
          f"{len(result.weights)} relation weights written to {args.out}")
    return EXIT_OK


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
    found = read_scored_pairs(args, [(args.a, args.b, args.scores), args.dev], {"--output": args.out})
    if found is None:
        return EXIT_USAGE
    sides = [(s.entries_a, s.entries_b, s.scores) for s in found]

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
        found = metric_pairs(metric, [e for ea, _, _ in sides for e in ea], [e for _, eb, _ in sides for e in eb],
                             "raise", workers=args.workers)
        every = headline_scores(metric, [pair.stats for pair, _ in found])
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
            write_grid(args.out, result)
            c, d = result.best
            print(f"interrupted after {len(result.rows)} of {len(grid)} settings, written to {args.out}; "
                  f"best so far: --cutoff {c:g} --diffsense {d:g}", file=sys.stderr, flush=True)
        raise
    write_grid(args.out, result)
    c, d = result.best
    best = next(row for row in result.rows if row[0] == result.best)
    print(f"best on dev: --preset {args.preset} --match s2match --cutoff {c:g} --diffsense {d:g} (dev r {best[2]:.4f}, train r "
          f"{best[1]:.4f}); {len(result.rows)} settings written to {args.out}")
    return EXIT_OK

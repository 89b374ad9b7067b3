"""WWLK-θ: WWLK's edge weights fitted to human similarity scores (``smatchpp tune``).

The optimiser is the reference's zeroth-order SPSA (``flipz357/weisfeiler-leman-amr-metrics``
at 51624e2, ``src/black_box_optim.py``; its settings those of ``src/main_wlk_wasser_optimized.py``):

* the loss of a batch is 1 - Pearson's r of its predicted and human scores, 0 when r is
  undefined (``error``, lines 40-56);
* each step draws a batch of 16 pairs with replacement and a Rademacher vector ``d``
  (lines 115-119), perturbs the weights by ``± c_t d`` with ``c_t = c / t^γ`` (line 122),
  estimates the gradient ``(loss+ - loss-) / (2 c_t d)`` (lines 58-85), scales each entry by
  its relation's share of the batch's edges (the reference's ``active_params``, lines
  128-129: the relations the batch does not use stay put), clips it to ``±0.01`` (line
  139) and steps with ``lr_t = lr / (t + A)^α`` (lines 136, 142);
* every ``check_every`` steps (350, line 13) Pearson's r on the dev pairs is computed and
  the best weights so far are kept (lines 149-180), starting from the initial weights'
  r (lines 98-109); the reference stops after 25 checks (``eval_steps=25``,
  ``main_wlk_wasser_optimized.py`` line 162), 8750 steps;
* defaults: ``lr`` 0.75 (``main_wlk_wasser_optimized.py`` line 68), ``A`` 2, ``α`` 0.5,
  ``γ`` 0.05, ``c`` 0.01 (``black_box_optim.py`` line 12).

Ours differs in two ways, both stated in docs/metrics.md: the random draws come from
``numpy.random.default_rng(seed)`` (the reference uses numpy's global generator), and a
weight is kept >= 0 after each step (a weights file holds weights >= 0).

The parameters are one weight per relation of the training graphs (as WWLK spells it,
:func:`~smatchpp.alignment.matchers.levels.normalize_role`), starting from the metric's own
weights (``--wwlk-relation-init``, or a weights file to continue from); a relation met
only in the dev graphs keeps the metric's weight.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import math

import numpy as np

from ..core.exceptions import SmatchppError
from ..alignment.matchers.levels import normalize_role
from ..graphs.read import RawGraph
from .wwlk import WWLK, transport

__all__ = ["SPSA", "TuneResult", "spsa", "GridResult", "grid_search", "predict", "pearson_loss", "read_scores", "write_weights",
           "write_spsa", "write_curve", "plot_curve", "write_grid", "headline_scores"]


@dataclass(frozen=True)
class SPSA:
    """The optimiser's settings (the reference's defaults)."""

    iterations: int = 8750
    check_every: int = 350
    batch: int = 16
    lr: float = 0.75
    A: float = 2.0
    alpha: float = 0.5
    gamma: float = 0.05
    c: float = 0.01
    clip: float = 0.01
    seed: int = 42

    def __post_init__(self) -> None:
        # messages name the options of ``smatchpp tune`` (``lr`` is --learning-rate)
        for key in ("iterations", "check_every", "batch"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"--{key.replace('_', '-')} must be a whole number >= 1, not {value!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"--seed must be a whole number >= 0, not {self.seed!r}")
        for key in ("lr", "c", "clip"):
            if not getattr(self, key) > 0:
                flag = "--learning-rate" if key == "lr" else f"SPSA's {key}"
                raise ValueError(f"{flag} must be > 0, not {getattr(self, key)!r}")


@dataclass
class TuneResult:
    """The fitted weights (best on dev), the initial ones, and the training curve: one row per
    check, ``(step, mean batch loss since the previous check, dev Pearson r)``; row 0 is the
    start."""

    weights: dict[str, float]
    initial: dict[str, float]
    curve: list[tuple[int, float, float]] = field(default_factory=list)
    best_step: int = 0
    #: the last step taken (the run's steps when it ended; fewer when it was interrupted)
    steps: int = 0

    @property
    def best_dev(self) -> float:
        return max(r for _, _, r in self.curve)


def pearson_loss(pred: Sequence[float], gold: Sequence[float]) -> float:
    """1 - Pearson's r; 0 when r is undefined (a constant side), as the reference's ``error``.

    >>> pearson_loss([1, 2, 3], [2, 4, 6])
    0.0
    >>> pearson_loss([1, 1, 1], [1, 2, 3])
    0.0
    """
    r = _pearson(pred, gold)
    return 1.0 - r if -1.0 <= r <= 1.0 else 0.0


def _pearson(x: Sequence[float], y: Sequence[float]) -> float:
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    x, y = x - x.mean(), y - y.mean()
    den = float(np.sqrt((x * x).sum() * (y * y).sum()))
    return float(np.clip((x * y).sum() / den, -1.0, 1.0)) if den > 0 else float("nan")


class _Problem:
    """The graphs of a run, standardized once, scored under any weights vector."""

    def __init__(self, metric: WWLK, graphs: Sequence[RawGraph], relations: dict[str, int]):
        self.metric = metric
        self.graphs = [metric.graph(g) for g in graphs]
        self.relations = relations
        self.keys: dict[str, str] = {}

    def key(self, relation: str) -> str:
        if relation not in self.keys:
            self.keys[relation] = normalize_role(relation)
        return self.keys[relation]

    def weight_fn(self, x: np.ndarray) -> Callable[[str], float]:
        idx, fallback = self.relations, self.metric.relation_weight

        def weight(relation: str) -> float:
            k = idx.get(self.key(relation))
            return float(x[k]) if k is not None else fallback(relation)
        return weight

    def scores(self, pairs: Sequence[tuple[int, int]], x: np.ndarray) -> np.ndarray:
        from scipy.spatial.distance import cdist

        weight = self.weight_fn(x)
        out = np.empty(len(pairs))
        for k, (i, j) in enumerate(pairs):
            ea = self.metric.embed(self.graphs[i], 0, weight)
            eb = self.metric.embed(self.graphs[j], 0, weight)
            out[k] = 1.0 - transport(cdist(ea, eb))[1]
        return out


def _check(metric: WWLK) -> None:
    if not isinstance(metric, WWLK):
        raise ValueError(f"tune fits WWLK's edge weights, not {type(metric).__name__}'s")
    if metric.stability_level:
        raise ValueError("tune fits the weights of one sample: use --wwlk-stability-level 0")


def predict(metric: WWLK, graphs_a: Sequence[RawGraph], graphs_b: Sequence[RawGraph],
            weights: dict[str, float] | None = None) -> np.ndarray:
    """Every pair's WWLK score with ``weights`` (relation -> weight; the others: the metric's)."""
    _check(metric)
    metric.prepare(list(graphs_a) + list(graphs_b))
    weights = weights or {}
    relations = {normalize_role(r): k for k, r in enumerate(weights)}
    problem = _Problem(metric, list(graphs_a) + list(graphs_b), relations)
    n = len(graphs_a)
    return problem.scores([(i, n + i) for i in range(n)], np.array(list(weights.values()), dtype=float))


def _varies(scores: Sequence[float], what: str) -> None:
    if len(scores) and min(scores) == max(scores):
        raise ValueError(f"the {what} scores are all {min(scores):g}: Pearson's r with them is "
                         "undefined, so no setting can be chosen; give scores that vary")


def spsa(metric: WWLK, graphs_a: Sequence[RawGraph], graphs_b: Sequence[RawGraph],
         targets: Sequence[float], dev: tuple[Sequence[RawGraph], Sequence[RawGraph], Sequence[float]] | None = None,
         settings: SPSA = SPSA(), progress: Callable[[int, float, float], None] | None = None,
         state: TuneResult | None = None) -> TuneResult:
    """Fit one weight per relation of the training graphs (see the module doc); ``dev``
    (graphs A, graphs B, scores) selects among the checks (the training pairs when ``None``,
    as the reference).  ``progress(step, mean batch loss, dev r)`` is called at every check.
    ``state`` (a fresh :class:`TuneResult`) is filled as the run goes: its ``weights`` are the
    best so far and its ``curve`` has every check so far, so that a caller keeps them when the
    run is interrupted; it is also what is returned."""
    _check(metric)
    n = len(graphs_a)
    if n != len(graphs_b) or n != len(targets):
        raise ValueError(f"{len(graphs_a)} graphs A, {len(graphs_b)} graphs B and {len(targets)} scores: "
                         "one score per pair is needed")
    if n < 2:
        raise ValueError("tune needs at least 2 training pairs")
    dev_a, dev_b, dev_y = dev if dev is not None else (graphs_a, graphs_b, targets)
    if len(dev_a) != len(dev_b) or len(dev_a) != len(dev_y):
        raise ValueError(f"{len(dev_a)} dev graphs A, {len(dev_b)} dev graphs B and {len(dev_y)} dev "
                         "scores: one score per pair is needed")
    _varies(targets, "training")
    _varies(dev_y, "dev")
    every = list(graphs_a) + list(graphs_b) + list(dev_a) + list(dev_b)
    metric.prepare(every)
    problem = _Problem(metric, every, {})
    order: dict[str, str] = {}  # normalized relation -> a spelling, in order of first use
    for g in problem.graphs[:2 * n]:
        for _, r, _ in g.edges:
            order.setdefault(problem.key(r), r)
    relations = problem.relations = {k: i for i, k in enumerate(order)}
    train_pairs = [(i, n + i) for i in range(n)]
    m = len(dev_a)
    dev_pairs = [(2 * n + i, 2 * n + m + i) for i in range(m)]
    # each training pair's count of every relation's edges (the reference's active_params)
    counts = np.zeros((n, len(relations)))
    for i, j in train_pairs:
        for g in (problem.graphs[i], problem.graphs[j]):
            for _, r, _ in g.edges:
                counts[i, relations[problem.key(r)]] += 1
    y = np.asarray(targets, dtype=float)
    x = np.array([metric.relation_weight(order[k]) for k in relations], dtype=float)
    initial = dict(zip(relations, x.tolist()))

    def dev_r(w: np.ndarray) -> float:
        r = _pearson(problem.scores(dev_pairs, w), dev_y)
        return r if np.isfinite(r) else -1.0

    best_x, best_r = x.copy(), dev_r(x)
    result = state if state is not None else TuneResult({}, initial)
    result.initial, result.weights = initial, dict(zip(relations, best_x.tolist()))
    result.curve[:] = [(0, float("nan"), best_r)]
    if progress:
        progress(0, float("nan"), best_r)
    rng = np.random.default_rng(settings.seed)
    losses: list[float] = []
    for t in range(1, settings.iterations + 1):
        ids = rng.integers(0, n, size=settings.batch)
        d = rng.integers(0, 2, size=len(x)) * 2 - 1
        ct = settings.c / t ** settings.gamma
        batch = [train_pairs[i] for i in ids]
        e1 = pearson_loss(problem.scores(batch, x + ct * d), y[ids])
        e2 = pearson_loss(problem.scores(batch, x - ct * d), y[ids])
        losses += [e1, e2]
        grad = (e1 - e2) / (2 * ct * d)
        active = counts[ids].sum(axis=0)
        if active.sum() > 0:
            grad = grad * active / active.sum()
        grad = np.clip(grad, -settings.clip, settings.clip)
        x = np.maximum(x - settings.lr / (t + settings.A) ** settings.alpha * grad, 0.0)
        result.steps = t
        if t % settings.check_every == 0 or t == settings.iterations:
            r = dev_r(x)
            result.curve.append((t, float(np.mean(losses)), r))
            losses = []
            if progress:
                progress(t, result.curve[-1][1], r)
            if r > best_r:
                best_x, best_r, result.best_step = x.copy(), r, t
                result.weights = dict(zip(relations, best_x.tolist()))
    return result


def write_weights(path: str, weights: dict[str, float], header: Sequence[str] = ()) -> None:
    """A TSV ``relation<TAB>weight`` file (``#`` lines first) that ``--wwlk-edge-weights`` reads;
    weights as ``repr`` floats, so that reading gives the same numbers."""
    with open(path, "w", encoding="utf-8") as out:
        for line in header:
            out.write(f"# {line}\n")
        for relation, weight in weights.items():
            out.write(f"{relation}\t{weight!r}\n")


def write_spsa(result: TuneResult, settings: SPSA, start: str, path: str, curve: str | None = None,
               plot: str | None = None, interrupted: bool = False) -> None:
    """A run's files, finished or ``interrupted``: the weights (the best so far) to ``path``
    (:func:`write_weights`, the header naming the run's ``settings``, its best check and the
    signature it started from, ``start``), the curve to ``curve`` (:func:`write_curve`) and its
    picture to ``plot`` (:func:`plot_curve`), when given."""
    steps = (f"interrupted at step {result.steps} of {settings.iterations}" if interrupted
             else f"{settings.iterations} steps")
    header = [f"WWLK edge weights fitted by smatchpp tune (SPSA: {steps}, batch "
              f"{settings.batch}, learning rate {settings.lr}, seed {settings.seed}; best dev r "
              f"{result.best_dev:.4f} at step {result.best_step})",
              f"starting from {start}"]
    write_weights(path, result.weights, header)
    if curve:
        write_curve(curve, result)
    if plot:
        plot_curve(result, plot)


def write_curve(path: str, result: TuneResult) -> None:
    """The training curve, a TSV file: ``step``, ``mean_batch_loss``, ``dev_r`` (``repr`` floats)."""
    with open(path, "w", encoding="utf-8") as out:
        out.write("step\tmean_batch_loss\tdev_r\n")
        out.writelines(f"{s}\t{loss!r}\t{r!r}\n" for s, loss, r in result.curve)


def plot_curve(result: TuneResult, path: str) -> None:
    """The training curve as a picture (PNG, needs matplotlib): the training pairs' 1 - mean
    batch loss and the dev pairs' r at each check, the kept step marked."""
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


@dataclass
class GridResult:
    """Every cell of a grid as ``(setting, train r, dev r)`` and the chosen cell."""

    rows: list[tuple[tuple[float, ...], float, float]]
    best: tuple[float, ...]


def grid_search(evaluate: Callable[[tuple[float, ...]], tuple[Sequence[float], Sequence[float]]],
                grid: Sequence[tuple[float, ...]], targets: Sequence[float], dev_targets: Sequence[float],
                progress: Callable[[tuple[float, ...], float, float], None] | None = None,
                state: GridResult | None = None) -> GridResult:
    """Try every setting of ``grid``: ``evaluate(setting)`` gives the pair scores of the training
    and of the dev pairs; the setting of highest dev Pearson r is chosen (ties: the first in
    ``grid``), as SPSA's checks choose.  Used for S2Match's cutoff and diffsense, whose exact
    scores come from the layer above.  ``state`` (a fresh :class:`GridResult`) gets every cell
    as it is done, and the best so far, so that a caller keeps them when the run is interrupted.

    >>> g = grid_search(lambda s: ([1, 2, 3 * s[0]], [s[0], 0, 1]), [(0.5,), (1.0,)], [1, 2, 3], [1, 0, 1])
    >>> g.best, [(s, round(t, 3), round(d, 3)) for s, t, d in g.rows]
    ((1.0,), [((0.5,), 0.5, 0.866), ((1.0,), 1.0, 1.0)])
    """
    if not len(grid):
        raise ValueError("the grid is empty")
    _varies(targets, "training")
    _varies(dev_targets, "dev")
    result = state if state is not None else GridResult([], ())
    result.rows[:] = []
    for setting in grid:
        train, dev = evaluate(setting)
        tr, dr = _pearson(train, targets), _pearson(dev, dev_targets)
        result.rows.append((tuple(setting), tr, dr))
        result.best = max(result.rows, key=lambda row: row[2] if np.isfinite(row[2]) else -np.inf)[0]
        if progress:
            progress(tuple(setting), tr, dr)
    return result


def write_grid(path: str, result: GridResult) -> None:
    """S2Match's grid, a TSV file: ``cutoff``, ``diffsense``, ``train_r``, ``dev_r`` (``repr``
    floats), a row a cell in the grid's order."""
    with open(path, "w", encoding="utf-8") as out:
        out.write("cutoff\tdiffsense\ttrain_r\tdev_r\n")
        out.writelines(f"{c!r}\t{d!r}\t{tr!r}\t{dr!r}\n" for (c, d), tr, dr in result.rows)


def headline_scores(metric, stats: Sequence[Sequence[float]]) -> list[float]:
    """The headline score of each pair's statistics ``stats`` (a row a pair), in order
    (:meth:`Metric.scores` of them at once): what :func:`grid_search`'s ``evaluate`` gives.

    >>> from smatchpp.metrics import get_metric
    >>> headline_scores(get_metric("jaccard"), [(1, 2), (2, 2)])
    [0.5, 1.0]
    """
    stats = np.array(stats, dtype=float).reshape(-1, len(metric.stat_names))
    return metric.scores(stats)[metric.headline].tolist()


def read_scores(path: str) -> list[float]:
    """One finite number per line (blank lines are errors: a score per pair), as BAMBOO's
    ``train.y``; a bad line raises :class:`~smatchpp.core.exceptions.SmatchppError` naming the
    file and the line."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SmatchppError(f"scores {path}: cannot read it: {getattr(exc, 'strerror', None) or exc}") from None
    out = []
    for n, line in enumerate(lines, 1):
        try:
            value = float(line.strip())
        except ValueError:
            value = float("nan")
        if not math.isfinite(value):
            raise SmatchppError(f"scores {path}:{n}: not a finite number (one score per line)")
        out.append(value)
    return out

"""HiGHS backend: the MIP of :mod:`.formulation` through highspy's matrix API.

>>> from smatchpp.api import compile_strings
>>> problem = compile_strings("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> result = HighsSolver().solve(problem)
>>> result.status, result.objective, result.upper_bound
('optimal', 3.0, 3.0)
"""

from __future__ import annotations

import math
import os
import signal
import sys
import threading
from dataclasses import dataclass

import highspy
import numpy as np

from ..problem import Alignment, Problem
from .base import (SOLVER_COUNT_MAX, Budget, Limits, deadline_after, empty_alignment, solver_count,
                   time_left)
from .cuts import cut_rows
from .formulation import Linking, MipSolver, Model, build, start_values, with_rows

__all__ = ["HighsSolver", "lp_bound", "solve_lp", "highs_time_limit", "abandoned_solves",
           "interruptible_run", "new_highs"]


#: one reusable instance per thread (a Dask worker runs pairs in several threads)
_LOCAL = threading.local()
#: the banner is printed once per process: only the first instance needs the redirect
_BANNER_LOCK = threading.Lock()
_BANNER_DONE = False
#: models with more columns than this get their own Highs instance
SHARED_MAX_COLUMNS = 5_000


def _set(h: highspy.Highs, name: str, value) -> None:
    """Set a HiGHS option; an unknown name or bad value raises instead of being ignored."""
    if h.setOptionValue(name, value) != highspy.HighsStatus.kOk:
        raise RuntimeError(f"HiGHS {h.version()} refused option {name}={value!r}")


def new_highs() -> highspy.Highs:
    """A silent Highs instance.

    HiGHS 1.16 prints a banner to the process's stdout (file descriptor 1) when
    its first instance is made, before any option can turn output off; that
    would corrupt ``--format json`` output, so it is sent to ``os.devnull``.
    """
    global _BANNER_DONE
    with _BANNER_LOCK:
        if _BANNER_DONE:
            h = highspy.Highs()
        else:
            # only the first instance of the process prints, and only then is
            # file descriptor 1 redirected (for the microseconds of one constructor)
            sys.stdout.flush()
            saved = os.dup(1)
            try:
                with open(os.devnull, "wb") as null:
                    os.dup2(null.fileno(), 1)
                    h = highspy.Highs()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            _BANNER_DONE = True
    _set(h, "output_flag", False)
    _set(h, "threads", 1)
    return h


#: PDLP's stopping tolerance (relative duality gap and residuals).  Without it
#: HiGHS 1.16's PDLP did not finish doc100's LP in 60 s; with it, 24 s
PDLP_TOLERANCE = 1e-3
#: HiGHS's default KKT tolerance, restored for every method but PDLP
KKT_TOLERANCE_DEFAULT = highspy.HighsOptions().kkt_tolerance
#: MIPs run without HiGHS's presolve by default.  It costs more than it saves on
#: every measured set (with compression, doc20: 3.2 s -> 2.1 s, doc50: 33.5 s ->
#: 28.1 s, BAMBOO no slower), and HiGHS 1.16 can mis-value a MIP start in the
#: presolved space: on BAMBOO PARA pair 1576 a start worth 12 was taken as worth
#: 13, HiGHS stopped "optimal" and returned the start, while 13 was reachable.
#: :class:`HighsSolver` also checks every returned solution against HiGHS's
#: reported objective.
MIP_PRESOLVE = False
#: LPs with at most this many columns run without it: small LPs solve in half
#: the time (PARA's 1727 LPs: 0.76 s instead of 1.48 s)
LP_PRESOLVE_MAX_OFF_COLUMNS = 5_000


#: HiGHS's "no limit" for its iteration and node counters (a C int's maximum: the most it takes)
_NO_LIMIT = SOLVER_COUNT_MAX


def mip_abs_gap(problem: Problem) -> float:
    """HiGHS's absolute MIP gap for ``problem`` (its relative gap is 0).

    Integer objectives: a gap below one is a proof.  Otherwise half the
    problem's certification tolerance, so that HiGHS's stopping gap is inside
    what :func:`~.base.certified` accepts.
    """
    return 1.0 - 1e-6 if problem.integral else 0.5 * problem.tolerance


#: an interrupted solve is given this long to stop at HiGHS's next interrupt check before
#: it is left to run out in its thread (see :func:`interruptible_run`)
STOP_GRACE_SECONDS = 1.0
#: the signals whose Python handlers would otherwise wait for HiGHS
_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: solves given up on an interrupt, each still running in its thread (see :func:`abandoned_solves`)
_ABANDONED: list[threading.Thread] = []


def _signals_wait() -> bool:
    """Whether a signal would wait for a HiGHS call made here.

    Python runs a signal's handler (Ctrl-C's KeyboardInterrupt, the commands' SIGTERM
    exception) in the main thread, between two bytecodes: never while that thread is
    inside ``run()``, which can last minutes.  Elsewhere (other threads, pool workers
    whose SIGTERM is the default action and whose SIGINT is ignored) nothing waits."""
    if threading.current_thread() is not threading.main_thread():
        return False
    return any(callable(signal.getsignal(sig)) for sig in _SIGNALS)


def abandoned_solves() -> int:
    """How many solves given up on an interrupt are still running in their threads.

    A process with one should end without the interpreter's shutdown (``os._exit``
    after its exit functions): a HiGHS thread that returns while the interpreter shuts
    down aborts the process (``terminate called without an active exception``)."""
    _ABANDONED[:] = [thread for thread in _ABANDONED if thread.is_alive()]
    return len(_ABANDONED)


def interruptible_run(h: highspy.Highs, columns: int) -> None:
    """``h.run()``, which a signal ends at once (issue 33, fault 2: SIGTERM during the
    MIP of a large pair was acted on only when HiGHS returned, minutes later).

    Where a signal would wait for HiGHS (:func:`_signals_wait`), a large model is solved
    in a thread of its own (the signals blocked there) while the main thread waits in
    steps of 0.1 s, so that the handler runs at once.  Its exception cancels the solve
    through HiGHS's interrupt checks (each simplex iteration, between branch-and-bound
    nodes) and waits :data:`STOP_GRACE_SECONDS` for it.  HiGHS does not check everywhere
    (not in the root LP of a MIP, not in PDLP or the interior-point method here): a solve
    still running then is left to finish in its thread, its checks taken off so that it
    never calls into Python again, counted by :func:`abandoned_solves`; the exception
    goes on.  Small models, whose solves end in a moment, and solves where no signal
    waits call ``h.run()`` directly.  ``columns``: the model's number of columns."""
    if columns <= SHARED_MAX_COLUMNS or not _signals_wait():
        h.run()
        return
    stop = threading.Event()
    done = threading.Event()

    def interrupt(event) -> None:
        if stop.is_set():
            event.interrupt()

    def solve() -> None:
        try:
            mask = getattr(signal, "pthread_sigmask", None)  # POSIX only
            if mask is not None:
                mask(signal.SIG_BLOCK, _SIGNALS)  # the main thread takes them
            h.run()
        finally:
            done.set()

    # not the interior-point method's check: it came 48,649 times in one LP of 21,307
    # columns (12% more time), against one per iteration for the simplex method
    checks = (h.cbSimplexInterrupt, h.cbMipInterrupt)
    for check in checks:
        check.subscribe(interrupt)
    thread = threading.Thread(target=solve, name="smatchpp-highs", daemon=True)
    thread.start()
    try:
        while not done.wait(0.1):
            pass
    except BaseException:
        stop.set()
        _ABANDONED.append(thread)  # until it has stopped (a second signal may end the wait)
        done.wait(STOP_GRACE_SECONDS)
        raise
    finally:
        for check in checks:
            check.unsubscribe(interrupt)


def _highs(model: Model, integer: bool, time_limit: float | None, abs_gap: float,
           solver: str = "choose", mip_presolve: bool = MIP_PRESOLVE,
           work_limit: int | None = None) -> highspy.Highs:
    """A Highs instance with the model passed and every option set afresh.

    Creating a Highs object costs more than many small solves, so small models
    share this thread's one instance (cleared, every option a solve depends on
    set here each time).  Large models, where that cost is negligible, get a
    fresh instance, so that nothing of an earlier solve can carry over.
    """
    if model.n_cols > SHARED_MAX_COLUMNS:
        h = new_highs()
    else:
        h = getattr(_LOCAL, "highs", None)
        if h is None:
            h = _LOCAL.highs = new_highs()
        h.clearModel()
        h.clearSolver()
    _set(h, "random_seed", 0)
    _set(h, "solver", solver)
    presolve_off = (not mip_presolve if integer
                    else model.n_cols <= LP_PRESOLVE_MAX_OFF_COLUMNS)
    _set(h, "presolve", "off" if presolve_off else "choose")
    # PDLP stops early; its duals still give a valid bound (see LpSolution).  HiGHS
    # 1.16 stops PDLP by its KKT tolerance, which applies to every method: so it is
    # set for PDLP only, and back to its default otherwise
    _set(h, "pdlp_optimality_tolerance", PDLP_TOLERANCE)
    _set(h, "kkt_tolerance", PDLP_TOLERANCE if solver == "pdlp" else KKT_TOLERANCE_DEFAULT)
    _set(h, "mip_rel_gap", 0.0)
    _set(h, "mip_abs_gap", abs_gap)  # see mip_abs_gap()
    _set(h, "time_limit", highspy.kHighsInf if time_limit is None else float(max(time_limit, 0.01)))
    # the deterministic budget: iterations of every LP method, and branch-and-bound nodes.
    # HiGHS counts them in a C int: a larger budget is passed as its maximum (which no solve
    # reaches), while the budget itself stays as given
    for option in ("simplex_iteration_limit", "ipm_iteration_limit", "pdlp_iteration_limit",
                   "mip_max_nodes"):
        _set(h, option, _NO_LIMIT if work_limit is None else solver_count(work_limit))
    lp = highspy.HighsLp()
    lp.num_col_ = model.n_cols
    lp.num_row_ = model.n_rows
    lp.col_cost_ = model.cost
    lp.col_lower_ = np.zeros(model.n_cols)
    lp.col_upper_ = np.ones(model.n_cols)
    lp.row_lower_ = np.full(model.n_rows, -highspy.kHighsInf)
    lp.row_upper_ = model.row_upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_ = model.n_cols
    lp.a_matrix_.num_row_ = model.n_rows
    lp.a_matrix_.start_ = model.row_start
    lp.a_matrix_.index_ = model.row_index
    lp.a_matrix_.value_ = model.row_value
    lp.sense_ = highspy.ObjSense.kMaximize
    if integer:
        lp.integrality_ = ([highspy.HighsVarType.kInteger] * model.n_x
                           + [highspy.HighsVarType.kContinuous] * model.n_y)
    h.passModel(lp)
    return h


@dataclass
class LpSolution:
    """An LP relaxation solved by HiGHS: primal values and a *checked* dual bound.

    ``bound`` is recomputed from the row duals clipped to ``>= 0`` (any such
    duals give a valid upper bound, ``sum(b * pi) + sum(max(c - A^T pi, 0))``),
    so it does not rely on HiGHS's tolerances.  ``reduced[p]`` is the reduced
    cost of pair ``p``; every solution using ``p`` is worth at most
    ``bound + min(reduced[p], 0)``.
    """

    model: Model
    x: np.ndarray
    row_dual: np.ndarray
    reduced_all: np.ndarray
    bound: float
    #: the objective of HiGHS's primal solution (constant included), clipped into the
    #: column bounds; a lower bound on the LP's value up to HiGHS's feasibility tolerance
    primal: float = -math.inf
    #: every column's value (``x``, then ``y``), what :func:`~.cuts.separate` reads
    values: np.ndarray | None = None

    @property
    def reduced(self) -> np.ndarray:
        return self.reduced_all[: self.model.n_x]


#: above this many columns the LP is solved by HiGHS's first-order PDLP method:
#: a few times faster on document graphs, and its approximate duals still give
#: a valid bound once checked (see :class:`LpSolution`)
PDLP_COLUMNS = 30_000


#: HiGHS's PDLP returns after its time limit by up to this many linear passes
#: over the pairs (the star bound's pass; :attr:`~.base.Limits.seconds_per_pair`),
#: and the duals are then read and checked.  Measured on a loaded machine: ``run``
#: took 1.2-2.5 s beyond a 5.8 s limit on doc100 (212,478 pairs, one pass 0.074 s:
#: 16-33 passes); the LP of a 30-sentence Bio pair (122,864 pairs, one pass 0.047 s)
#: returned 2.1 s after the deadline, reading included (44 passes)
LP_STOP_PASSES = 44


def highs_time_limit(limits: Limits, n_pairs: int) -> float:
    """HiGHS's own time limit under ``limits``: :data:`LP_STOP_PASSES` before their deadline.

    HiGHS returns up to that long after its time limit, with the LP and with
    the MIP (a MIP of 43,297 pairs on doc100 returned 0.45 s late; 44 passes
    over its pairs were 0.43 s).
    """
    stop = limits.seconds_per_pair * LP_STOP_PASSES * n_pairs
    return float(max(limits.time_left() - stop, 0.01))


def solve_lp(problem: Problem, linking: Linking = "aggregated",
             time_limit: float | None = None, budget: Budget | None = None,
             limits: Limits | None = None, central: bool = False,
             cuts: np.ndarray | None = None) -> LpSolution | None:
    """Solve the LP relaxation of the MIP (``None`` if HiGHS gives no duals).

    ``cuts``: rows of :mod:`.cuts` (``(edge, r1, r2)``, valid for every alignment but not
    implied by the LP) added to it; the bound and the reduced costs then bound every
    alignment (and every alignment using a pair), no longer the LP without them.

    ``central``: by the interior-point method without crossover (up to
    :data:`PDLP_COLUMNS` columns): among the optimal duals, central ones
    rather than a vertex (what :mod:`.pricing` extends best).

    Stopped by ``time_limit`` or by the work ``budget`` (its iterations are
    paid from it), its duals still give a valid, if weaker, bound (see
    :class:`LpSolution`).  With ``limits``, HiGHS's time limit is what is left
    of them when it starts to run (building and passing a model of a million
    columns takes seconds).
    """
    model = build(problem, linking)
    if problem.n_pairs == 0:
        return LpSolution(model, np.zeros(0), np.zeros(0), np.zeros(0), problem.constant)
    if cuts is not None and len(cuts):
        model = with_rows(model, *cut_rows(problem.n_pairs, cuts))
    method = ("pdlp" if model.n_cols > PDLP_COLUMNS else "ipm" if central else "choose")
    h = _highs(model, False, time_limit, 1e-9, method,
               work_limit=None if budget is None else budget.left())
    _set(h, "run_crossover", "off" if method == "ipm" else "on")
    if limits is not None and limits.deadline is not None:
        _set(h, "time_limit", highs_time_limit(limits, problem.n_pairs))
    interruptible_run(h, model.n_cols)
    if budget is not None:
        info = h.getInfo()
        budget.spend(max(info.simplex_iteration_count, 0) + max(info.ipm_iteration_count, 0)
                     + max(info.pdlp_iteration_count, 0))
    solution = h.getSolution()
    duals = np.asarray(solution.row_dual)
    if len(duals) != model.n_rows or not np.all(np.isfinite(duals)):
        return None
    rows = np.repeat(np.arange(model.n_rows), np.diff(model.row_start))
    values = np.asarray(solution.col_value)
    x = values[: problem.n_pairs]
    # sums of products by numpy, not BLAS dot products (``@``): OpenBLAS splits a dot of
    # ~17,000 entries over its threads, whose waiting cost lp-doc100's second pair 2.7 s of
    # CPU in its 36 LPs (and wall time with it), and its sum depends on the thread count
    primal = (problem.constant + float(np.sum(model.cost * np.clip(values, 0.0, 1.0)))
              if len(values) == model.n_cols else -math.inf)
    best: LpSolution | None = None
    # HiGHS's sign convention for row duals differs between its methods; both
    # signs, clipped to >= 0, give valid bounds: keep the smaller
    for pi in (np.maximum(duals, 0.0), np.maximum(-duals, 0.0)):
        reduced = model.cost - np.bincount(model.row_index, weights=model.row_value * pi[rows],
                                           minlength=model.n_cols)
        bound = problem.constant + float(np.sum(model.row_upper * pi) + np.maximum(reduced, 0.0).sum())
        if best is None or bound < best.bound:
            best = LpSolution(model, x, pi, reduced, bound, primal, values)
    return best


def lp_bound(problem: Problem, linking: Linking = "aggregated",
             time_limit: float | None = None) -> float:
    """Upper bound from the LP relaxation of the MIP (``inf`` if not solved)."""
    solved = solve_lp(problem, linking, time_limit)
    return math.inf if solved is None else solved.bound


class HighsSolver(MipSolver):
    """Exact MIP with HiGHS; warm-started from ``warm_start`` if given.

    HiGHS's answer is checked before it is trusted: the solution it returns
    must be worth the objective it reports.  If it is not (see
    :data:`MIP_PRESOLVE` for a case), neither its status nor its bound is
    used: the model is solved again without presolve and without the start,
    and if that answer does not check either, no bound is claimed.
    """

    name = "highs"

    def __init__(self, linking: Linking = "aggregated", presolve: bool = MIP_PRESOLVE,
                 symmetry: bool = True, work_limit: int | None = None) -> None:
        super().__init__(linking, symmetry, work_limit)
        self.presolve = presolve

    def _solve(self, model: Model, problem: Problem, time_limit: float | None,
               warm_start: Alignment | None, budget: Budget) -> tuple[Alignment, float]:
        deadline = deadline_after(time_limit)
        alignment, upper, checked = _run_mip(model, problem, time_limit, warm_start, self.presolve,
                                             budget)
        if checked:
            return alignment, upper
        again, upper, checked = _run_mip(model, problem, time_left(deadline), None, False, budget)
        if problem.objective(again) >= problem.objective(alignment):
            alignment = again
        return alignment, upper if checked else math.inf


def _run_mip(model: Model, problem: Problem, time_limit: float | None,
             warm_start: Alignment | None, presolve: bool,
             budget: Budget | None = None) -> tuple[Alignment, float, bool]:
    """One HiGHS MIP run: its best alignment, its upper bound, and whether its answer checks.

    The answer checks when the returned solution is worth the objective HiGHS
    reports, up to a deviation of 1e-6 per column (HiGHS's feasibility tolerance).
    """
    h = _highs(model, True, time_limit, mip_abs_gap(problem), mip_presolve=presolve,
               work_limit=None if budget is None else budget.left())
    if warm_start is not None:
        solution = highspy.HighsSolution()
        solution.col_value = start_values(problem, warm_start)
        solution.value_valid = True
        h.setSolution(solution)
    interruptible_run(h, model.n_cols)
    status = h.getModelStatus()
    info = h.getInfo()
    if budget is not None:
        budget.spend(max(info.mip_node_count, 0))
    alignment = empty_alignment(problem)
    objective = problem.constant
    checked = True
    if info.primal_solution_status == 2:  # kSolutionStatusFeasible
        values = np.asarray(h.getSolution().col_value)[: problem.n_pairs]
        alignment = problem.alignment_from_pairs(values)
        objective = problem.objective(alignment)
        reported = problem.constant + info.objective_function_value
        checked = reported <= objective + 1e-6 * (1.0 + np.abs(model.cost).sum())
    elif status == highspy.HighsModelStatus.kOptimal:
        checked = False  # "optimal" without a solution: nothing to check it by
    if status == highspy.HighsModelStatus.kOptimal and checked:
        upper = objective if problem.integral else max(objective, problem.constant + info.mip_dual_bound)
    else:
        dual = info.mip_dual_bound
        upper = problem.constant + dual if math.isfinite(dual) else math.inf
        if problem.integral and math.isfinite(upper):
            upper = math.floor(upper + 1e-6)
    return alignment, upper, checked

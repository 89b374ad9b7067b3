"""Where the CPU time of one long document pair goes, stage by stage (issue 32, item 5).

One pair (the ``--pair``-th graph of two files) is compiled and solved in this process
by the default portfolio under a deadline on the process's CPU clock (as
``bench_certify_documents.py --clock cpu`` does); the portfolio's stages are wrapped
so that each call prints a row: CPU seconds at its end, its own CPU seconds, the
peak RSS so far, its size and its result.  The wrappers only time and print: the
solve and its answer are the portfolio's own.

    python3 experiments/profile_document_stages.py A.amr B.amr [--pair 0] [--time-limit 60]

HiGHS's own time limit is a wall-clock one (what is left of the CPU deadline): on a
loaded machine give a generous ``--time-limit`` to see what a stage costs to finish.
"""

from __future__ import annotations

import argparse
import functools
import resource
import sys
import tempfile
import time
from pathlib import Path

# the checkout this script belongs to, before any installed copy
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import smatchpp.alignment.solvers.portfolio as portfolio  # noqa: E402
from smatchpp.alignment.aligner import PairAligner
from smatchpp.alignment.config import Config
from smatchpp.alignment.solvers.base import Limits
from smatchpp.graphs.read import read_file
from smatchpp.presets import standardize

_T0 = time.process_time()


def _row(name: str, began: float, what: str) -> None:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    now = time.process_time() - _T0
    print(f"| {now:.2f} | {name} | {now - began:.2f} | {peak} | {what} |", flush=True)


def _describe(result) -> str:
    if hasattr(result, "status"):
        return f"{result.status} [{result.objective:g}, {result.upper_bound:g}]"
    if hasattr(result, "rounds"):
        return f"bound {result.bound:.3f}, {result.rounds} rounds, {result.pairs} pairs, exact {result.exact}"
    if isinstance(result, tuple) and len(result) == 2:
        return f"value {result[1]:g}"
    if hasattr(result, "parts"):
        return "parts " + ", ".join(str(p.problem.n_pairs) for p in result.parts[:5])
    return f"{result}"[:60]


def _wrap_function(name: str) -> None:
    real = getattr(portfolio, name)

    @functools.wraps(real)
    def timed(problem, *args, **kwargs):
        began = time.process_time() - _T0
        result = real(problem, *args, **kwargs)
        if problem.n_pairs >= 1000:  # the sentence pairs of the sentence start are not shown
            _row(name, began, f"{problem.n_pairs} pairs: {_describe(result)}")
        return result

    setattr(portfolio, name, timed)


def _wrap_method(name: str) -> None:
    real = getattr(portfolio.Portfolio, name)

    @functools.wraps(real)
    def timed(self, problem, *args, **kwargs):
        began = time.process_time() - _T0
        result = real(self, problem, *args, **kwargs)
        if problem.n_pairs >= 1000:  # the sentence pairs of the sentence start are not shown
            _row(name, began, f"{problem.n_pairs} pairs: {_describe(result)}")
        return result

    setattr(portfolio.Portfolio, name, timed)


def graph(path: Path, k: int, tmp: Path):
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    out = tmp / f"{path.stem}.{k}.amr"
    out.write_text(blocks[k] + "\n", encoding="utf-8")
    return standardize(read_file(out)[0].graph, "smatch")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--pair", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=60.0, help="CPU seconds, reading included")
    args = ap.parse_args(argv)
    for name in ("star_bound", "branch_star_bound", "lagrangian_star_bound", "climb", "compress",
                 "priced_lp"):
        _wrap_function(name)
    for name in ("_sentence_start", "_mip", "_eliminate"):
        _wrap_method(name)
    print(f"smatchpp from {Path(portfolio.__file__).parent.parent.parent}")
    print("| CPU s at end | stage | CPU s | peak MB | size: result |")
    print("|---|---|---|---|---|")
    began = time.process_time() - _T0
    with tempfile.TemporaryDirectory() as tmp:
        a, b = graph(args.a, args.pair, Path(tmp)), graph(args.b, args.pair, Path(tmp))
    aligner = PairAligner(Config())
    a, b, problem = aligner.compile(a, b)
    _row("read + compile", began, f"{problem.n_a} x {problem.n_b} variables, {problem.n_pairs} pairs, "
         f"{problem.n_edges} binary terms")
    began = time.process_time() - _T0
    limits = Limits(deadline=_T0 + args.time_limit, clock=time.process_time)
    result = aligner.solver.solve_within(problem, limits)
    _row("solve (all)", began, f"{_describe(result)}, stage {result.stage}")


if __name__ == "__main__":
    main()

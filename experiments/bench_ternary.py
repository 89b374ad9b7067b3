"""Ternary terms at work: synthetic DRS-like clause pairs solved exactly, by size.

A gold DRS is made of boxes and discourse referents (events among them) with
Counter's kinds of clauses: ``b REF x``, ``b concept "n.0k" x`` (concepts from a
small vocabulary, so that many clauses compete), ``b Role e x`` (three variables:
a ternary term), ``b Time e t``, ``b1 NOT b2`` and ``b EQU x y``.  The system DRS
is the gold with its variables renamed and a share of its clauses perturbed (a
concept or role replaced, an argument moved to another referent, a clause dropped
or added).  Each pair is compiled by :func:`smatchpp.alignment.clauses.compile_clauses`
(boxes align only with boxes) and solved by the ``exact`` portfolio; the table
gives, per size, the problem's size, the portfolio's time and the stage that
certified it, HiGHS's MIP alone on the same problem (it must agree), the cheap
bounds' gaps to the optimum, and how often the hill-climber (4 restarts) falls
short.  Everything is seeded.

    python experiments/bench_ternary.py [--sizes 20 50 100 200 400] [--pairs 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from experiment import machine_line, markdown_table  # noqa: E402
from smatchpp.alignment.clauses import compile_clauses  # noqa: E402
from smatchpp.alignment.solvers import HighsSolver, Portfolio  # noqa: E402
from smatchpp.alignment.solvers.bounds import star_bound  # noqa: E402
from smatchpp.alignment.solvers.hillclimber import climb  # noqa: E402

ROLES = ("Agent", "Theme", "Patient", "Experiencer", "Location", "Recipient")
CONCEPTS = 12


def gold_drs(rng: np.random.Generator, size: int) -> tuple[list, list]:
    """About ``size`` clauses over boxes and referents; returns (clauses, kinds)."""
    kinds: list[str] = []

    def new(kind: str) -> int:
        kinds.append(kind)
        return len(kinds) - 1

    boxes = [new("b")]
    clauses: list = []
    entities: list[int] = []
    while len(clauses) < size:
        b = boxes[rng.integers(len(boxes))]
        roll = rng.random()
        if roll < 0.1:  # a new box under this one
            b2 = new("b")
            boxes.append(b2)
            clauses.append((("NOT" if rng.random() < 0.5 else "IMP",), (b, b2)))
        elif roll < 0.45 or len(entities) < 2:  # a referent with its concept
            x = new("x")
            entities.append(x)
            clauses += [(("REF",), (b, x)),
                        (("noun", f'"n.0{rng.integers(CONCEPTS)}"'), (b, x))]
        else:  # an event with roles (ternary) and a time
            e = new("x")
            clauses += [(("REF",), (b, e)), (("verb", f'"v.0{rng.integers(CONCEPTS)}"'), (b, e))]
            for role in rng.choice(len(ROLES), size=rng.integers(1, 3), replace=False):
                clauses.append(((ROLES[role],), (b, e, entities[rng.integers(len(entities))])))
            if rng.random() < 0.3:
                t = new("x")
                clauses += [(("REF",), (b, t)), (("Time",), (b, e, t))]
            if rng.random() < 0.1:
                clauses.append((("EQU",), (b, entities[rng.integers(len(entities))], e)))
    return clauses, kinds


def system_drs(rng: np.random.Generator, gold: list, kinds: list, noise: float) -> tuple[list, list]:
    """The gold renamed, with a share ``noise`` of its clauses perturbed."""
    order = rng.permutation(len(kinds))
    same_kind = {k: [v for v in range(len(kinds)) if kinds[v] == k] for k in set(kinds)}
    out = []
    for label, variables in gold:
        if rng.random() < noise:
            roll = rng.random()
            if roll < 0.25:
                continue  # dropped
            if roll < 0.5 and len(label) == 2:
                label = (label[0], f'"{label[1][1]}.0{rng.integers(CONCEPTS)}"')
            elif roll < 0.75 and len(variables) == 3:
                label = (ROLES[rng.integers(len(ROLES))],)
            else:
                v = int(rng.integers(len(variables)))
                moved = same_kind[kinds[variables[v]]]
                variables = variables[:v] + (moved[rng.integers(len(moved))],) + variables[v + 1:]
        out.append((label, variables))
    if rng.random() < noise:  # an extra clause
        out.append(out[rng.integers(len(out))])
    renamed = [(label, tuple(int(order[v]) for v in variables)) for label, variables in out]
    inverse = np.argsort(order)
    return renamed, [kinds[int(inverse[v])] for v in range(len(kinds))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 50, 100, 200, 400])
    parser.add_argument("--pairs", type=int, default=20, help="pairs per size")
    parser.add_argument("--noise", type=float, default=0.3, help="share of perturbed clauses")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    Portfolio().solve(compile_clauses([("p", (0, 1, 2))], [("p", (0, 1, 2))], 3, 3))  # warm up
    header = ["clauses", "pairs / binary / ternary terms", "portfolio ms (mean)",
              "portfolio ms (max)", "HiGHS MIP ms (mean)", "label bound gap", "star bound gap",
              "climber short", "uncertified", "MIP disagrees", "stages"]
    print("\n".join(markdown_table(header, []).splitlines()[:2]), flush=True)
    for size in args.sizes:
        sizes, port_s, mip_s, star_gap, label_gap, hc_short = [], [], [], [], [], 0
        stages: Counter = Counter()
        disagree = uncertified = 0
        for _ in range(args.pairs):
            gold, kinds = gold_drs(rng, size)
            system, kinds_s = system_drs(rng, gold, kinds, args.noise)
            problem = compile_clauses(system, gold, len(kinds_s), len(kinds), kinds_s, kinds)
            sizes.append((problem.n_pairs, problem.n_edges, problem.n_ternary))
            began = time.perf_counter()
            result = Portfolio().solve(problem)
            port_s.append(time.perf_counter() - began)
            stages[result.stage] += 1
            uncertified += result.status != "optimal"
            began = time.perf_counter()
            mip = HighsSolver().solve(problem)
            mip_s.append(time.perf_counter() - began)
            disagree += mip.objective != result.objective
            star_gap.append(star_bound(problem) - result.objective)
            label_gap.append(problem.label_bound - result.objective)
            hc_short += climb(problem, 1, 4)[1] < result.objective
        mean = np.mean(np.array(sizes), axis=0)
        row = ([size, f"{mean[0]:.0f} / {mean[1]:.0f} / {mean[2]:.0f}",
                     f"{1000 * np.mean(port_s):.1f}", f"{1000 * max(port_s):.1f}",
                     f"{1000 * np.mean(mip_s):.1f}", f"{np.mean(label_gap):.1f}",
                     f"{np.mean(star_gap):.1f}", hc_short, uncertified, disagree,
                     ", ".join(f"{k} {v}" for k, v in sorted(stages.items()))])
        print(markdown_table(header, [row]).splitlines()[2], flush=True)  # a row as it is done
    print(f"\n{args.pairs} pairs a size, noise {args.noise}, seed {args.seed}; {machine_line()}")


if __name__ == "__main__":
    main()

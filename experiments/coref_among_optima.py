"""docSmatch's coreference subscore among the optimal alignments of the restricted problem.

Several alignments can reach the certified optimum of a document pair under docSmatch's
sentence buckets (``--sentence-buckets``) and match different numbers of coreference items
(docSmatch's Total Coref, :func:`smatchpp.alignment.sentences.coref_counts`), so the
subscore on "the" optimal alignment depends on which one the solver returns.  For every pair
this script measures the range: with the total matched fixed at its certified optimum, the
fewest and the most coreference items any optimal alignment matches, each by a second exact
solve (HiGHS MIP: the project's model, :func:`smatchpp.alignment.solvers.formulation.build`,
without symmetry rows, plus one column per coreference edge term and the row
``matched >= optimum``; the min and the max must both be proven optimal).  The max is also
solved the way ``--coref-ties max`` does it
(:meth:`smatchpp.alignment.aligner.PairAligner.most_coref`: the pairs of no optimal alignment
dropped by the LP's reduced costs, then one lexicographic problem,
:func:`smatchpp.alignment.sentences.lexicographic`, given to the default solver warm-started
from the first alignment); the two maxima must agree.

Per pair it prints: the certified restricted optimum, ours (Total Coref matched count as
scored today, on the solver's alignment), ``[min, max]`` among optimal alignments, and for
each docSmatch run recorded in ``--log`` (``experiments/compare_docsmatch.py --log``) its matched
total and Total Coref count with a verdict:

* ``at optimum, fixed`` (``min == max``) or ``in range``: docSmatch reached the optimum; its
  count must lie in ``[min, max]``, and equals ours whatever the solver returns when fixed;
* ``below optimum, its count < max: ours above with max``: ``--coref-ties max`` matches more
  coreference items than docSmatch's alignment;
* ``below optimum, its count = max: ours equal at best``: no optimal alignment matches more:
  "ours above" is impossible on this pair, proved by the certified max;
* ``below optimum, its count > max: ours below``: every optimal alignment matches fewer.

CPU seconds (``time.process_time``, after one warm-up solve) of the first solve (the CLI's), of
the tool's tie-break (its terms, the LP, the lexicographic solve) and of the min and max MIPs end
each row; a row per set sums them.  ``--cli N`` also runs ``smatchpp score --sentence-buckets
--coref-subscore`` without and with ``--coref-ties max`` as measured subprocesses, N times each,
interleaved, and prints the median CPU seconds (interpreter start and reading included) and the
Total Coref counts of both.

    python3 experiments/coref_among_optima.py --dir /tmp/dm/d4 --log /tmp/dm/out/runs.jsonl [more logs] \\
        --sets bio-doc10-merged-perturb bio-doc20-merged-insert [--time-limit 600] [--cli 3]

>>> verdict(10, 4, 10, 3, 5), verdict(10, 4, 10, 4, 4), verdict(10, 6, 9, 3, 5)
('at optimum, in range', 'at optimum, fixed', 'below optimum, its count > max: ours below')
>>> verdict(10, 5, 9, 3, 5), verdict(10, 4, 9, 3, 5)
('below optimum, its count = max: ours equal at best', 'below optimum, its count < max: ours above with max')
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import highspy
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from compare_docsmatch import load  # noqa: E402

from smatchpp.alignment.aligner import PairAligner  # noqa: E402
from smatchpp.alignment.config import Config  # noqa: E402
from smatchpp.alignment.problem import Problem  # noqa: E402
from smatchpp.alignment.sentences import as_written, coref_counts, coref_terms  # noqa: E402
from smatchpp.alignment.solvers.base import SolveResult  # noqa: E402
from smatchpp.alignment.solvers.formulation import Model, build, with_rows  # noqa: E402
from smatchpp.alignment.solvers.highs import new_highs  # noqa: E402
from smatchpp.graphs.read import read_file  # noqa: E402
from smatchpp.presets import standardize  # noqa: E402

#: the sets of docs/benchmarks.md section 16.1 (10-50 sentences, 4 pairs each)
SETS = [f"bio-doc{n}-{kind}" for n in (10, 20, 50)
        for kind in ("merged-perturb", "merged-insert", "perturb", "insert", "shift")]


def verdict(optimum: int, theirs: int, their_matched: int | None, low: int, high: int) -> str:
    """How docSmatch's Total Coref count ``theirs`` (of an alignment matching ``their_matched``,
    ``optimum`` when None) stands against ``[low, high]`` among optimal alignments."""
    if their_matched is None or their_matched == optimum:
        if not low <= theirs <= high:
            return "at optimum, OUT OF RANGE"
        return "at optimum, fixed" if low == high else "at optimum, in range"
    if theirs > high:
        return "below optimum, its count > max: ours below"
    return "below optimum, its count = max: ours equal at best" if theirs == high else \
        "below optimum, its count < max: ours above with max"


def union_problem(problem: Problem, terms) -> tuple[Problem, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``problem`` over its candidate pairs and those of the coreference terms (the new ones worth
    0), with the coreference terms on them: ``(union, coref unary per pair, edge p, edge q, weight)``."""
    nb = max(problem.n_b, 1)
    old = problem.pair_a * nb + problem.pair_b
    u1 = terms.unary_a * nb + terms.unary_b
    b1 = terms.binary_a1 * nb + terms.binary_b1
    b2 = terms.binary_a2 * nb + terms.binary_b2
    keys = np.unique(np.concatenate([old, u1, b1, b2]))
    where = np.searchsorted(keys, old)
    unary = np.zeros(len(keys))
    unary[where] = problem.unary
    union = Problem(problem.n_a, problem.n_b, keys // nb, keys % nb, unary, where[problem.edge_p],
                    where[problem.edge_q], problem.weight, constant=problem.constant)
    # edge_p < edge_q must hold: the map is increasing, so it does
    cu = np.zeros(len(keys))
    np.add.at(cu, np.searchsorted(keys, u1), terms.unary_w)
    return union, cu, np.searchsorted(keys, b1), np.searchsorted(keys, b2), terms.binary_w


def extreme(problem: Problem, terms, optimum: float, sense: str, time_limit: float | None,
            start: np.ndarray | None = None) -> tuple[int | None, str, np.ndarray | None]:
    """The fewest (``sense="min"``) or most coreference items an alignment of ``problem`` worth
    ``optimum`` matches: ``(count, HiGHS status, alignment)``; the count is ``None`` unless
    proven (gap below 1)."""
    union, cu, fp, fq, fw = union_problem(problem, terms)
    base = build(union)  # no symmetry rows: they would keep one of several equivalent optima only
    F = len(fw)
    sign = 1.0 if sense == "max" else -1.0
    cost = np.concatenate([np.zeros(base.n_cols), np.zeros(F)])
    cost[:union.n_pairs] = sign * cu
    cost[base.n_cols:] = sign * fw
    model = Model(base.n_x, base.n_y + F, cost, base.row_start, base.row_index, base.row_value, base.row_upper)
    z = base.n_cols + np.arange(F)
    if sense == "max":  # z <= x_p, z <= x_q
        cols = np.stack([z, fp, z, fq], axis=1).reshape(-1, 2)
        vals = np.tile([1.0, -1.0], 2 * F)
        starts, upper = np.arange(0, 4 * F + 1, 2), np.zeros(2 * F)
    else:  # x_p + x_q - z <= 1
        cols = np.stack([fp, fq, z], axis=1)
        vals = np.tile([1.0, 1.0, -1.0], F)
        starts, upper = np.arange(0, 3 * F + 1, 3), np.ones(F)
    model = with_rows(model, starts, cols.ravel(), vals, upper)
    # matched >= optimum: -(unary . x + weight . y) <= constant - optimum
    main = np.concatenate([union.unary, union.weight])
    nz = np.flatnonzero(main)
    model = with_rows(model, np.array([0, len(nz)]), nz, -main[nz], np.array([union.constant - optimum]))
    h = new_highs()
    h.setOptionValue("random_seed", 0)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 1.0 - 1e-6)
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = model.n_cols, model.n_rows
    lp.col_cost_ = model.cost
    lp.col_lower_, lp.col_upper_ = np.zeros(model.n_cols), np.ones(model.n_cols)
    lp.row_lower_, lp.row_upper_ = np.full(model.n_rows, -highspy.kHighsInf), model.row_upper
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = model.n_cols, model.n_rows
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = model.row_start, model.row_index, model.row_value
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.integrality_ = [highspy.HighsVarType.kInteger] * model.n_x + [highspy.HighsVarType.kContinuous] * model.n_y
    h.passModel(lp)
    if start is not None:
        chosen = union.selected(start).astype(float)
        y = chosen[union.edge_p] * chosen[union.edge_q]
        solution = highspy.HighsSolution()
        solution.col_value = np.concatenate([chosen, y, chosen[fp] * chosen[fq]])
        solution.value_valid = True
        h.setSolution(solution)
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    info = h.getInfo()
    if info.primal_solution_status != 2:
        return None, status, None
    alignment = union.alignment_from_pairs(np.asarray(h.getSolution().col_value)[:union.n_pairs])
    found = terms.value(alignment)
    proven = status == "Optimal" and abs(info.mip_dual_bound - info.objective_function_value) < 1.0
    if union.objective(alignment) != optimum:
        return None, status + ", not at the optimum", alignment
    return (found if proven else None), status, alignment


def docsmatch_runs(logs: list[Path], name: str) -> list[tuple[str, dict[int, dict]]]:
    """docSmatch's per-pair records of set ``name`` in ``compare_docsmatch.py --log`` files."""
    found = []
    for log in logs:
        for line in log.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["set"] == name and record["run"].startswith("docSmatch"):
                found.append((record["run"].replace("docSmatch ", ""), {p["index"]: p for p in record["pairs"]}))
    return found


def run_set(name: str, test: Path, gold: Path, args) -> list[str]:
    rows = []
    raw_a = [e.graph for e in read_file(test)]
    raw_b = [e.graph for e in read_file(gold)]
    aligner = PairAligner(Config(sentence_buckets=True, coref_subscore=True))
    most = PairAligner(Config(sentence_buckets=True, coref_subscore=True, coref_ties="max"))
    runs = docsmatch_runs(args.log, name)
    aligner.score(standardize(raw_a[0], "smatch"), standardize(raw_b[0], "smatch"))  # warm (compiled kernels)
    spent = np.zeros(4)
    verdicts: Counter = Counter()
    ties = 0
    for i, (ra, rb) in enumerate(zip(raw_a, raw_b)):
        a, b = standardize(ra, "smatch"), standardize(rb, "smatch")
        began = time.process_time()
        score = aligner.score(a, b)
        first = time.process_time() - began
        _, _, problem = aligner.compile(a, b)
        optimum = int(score.matched)
        ours = int(score.coref[0])
        began = time.process_time()
        terms = coref_terms(a, b, buckets=True)
        terms_s = time.process_time() - began
        ia = {v: k for k, v in enumerate(a.variables)}
        ib = {v: k for k, v in enumerate(b.variables)}
        start = np.full(len(a.variables), -1, dtype=np.int64)
        for u, v in score.alignment:
            start[ia[u]] = ib[v]
        assert terms.value(start) == ours, (name, i, terms.value(start), ours)
        if score.status != "optimal":
            rows.append(f"| {name} | {i} | not certified: [{score.matched:g}, {score.upper:g}] | {ours} | | | | |")
            continue
        if terms.most == 0:
            low = high = lex_max = 0
            lex_s = low_s = high_s = 0.0
        else:
            began = time.process_time()  # the tool's --coref-ties max (terms, LP, lexicographic solve)
            first_result = SolveResult(start, score.matched, score.upper, score.status, score.stage)
            found, tie = most.most_coref(a, b, problem, first_result, args.time_limit)
            lex_s = time.process_time() - began
            lex_max = terms.value(found.alignment) if tie == "proven" else None
            assert problem.objective(found.alignment) == optimum, (name, i)
            began = time.process_time()
            low, low_status, low_al = extreme(problem, terms, optimum, "min", args.time_limit, start)
            low_s = time.process_time() - began
            began = time.process_time()
            high, high_status, high_al = extreme(problem, terms, optimum, "max", args.time_limit, start)
            high_s = time.process_time() - began
            for al in (low_al, high_al, found.alignment):  # the terms against docSmatch's definition
                pairs = [(a.variables[k], b.variables[j]) for k, j in enumerate(al.tolist()) if j >= 0]
                assert coref_counts(as_written(a), as_written(b), pairs)[0] == terms.value(al)
            if lex_max is not None and high is not None:
                assert lex_max == high, (name, i, lex_max, high)
        theirs = []
        for run, pairs in runs:
            p = pairs.get(i)
            if p is None:
                theirs.append(f"{run}: not finished")
                continue
            v = verdict(optimum, p["coref"][0], p["matched"], low if low is not None else -1,
                        high if high is not None else 10 ** 9)
            theirs.append(f"{run}: {p['matched']}, {p['coref'][0]} ({v})")
            verdicts[v] += 1
        rng = f"[{'?' if low is None else low}, {'?' if high is None else high}]"
        rows.append(f"| {name} | {i} | {optimum} | {ours} | {rng} | {terms.most} | "
                    f"{'; '.join(theirs) or 'no run'} | {first:.2f} | {lex_s:.2f} | {low_s:.2f} / {high_s:.2f} |")
        print(rows[-1], flush=True)
        spent += (first, lex_s, low_s, high_s)
        ties += low is None or high is None or low != high
    rows.append(f"| {name} | all | | | {ties} of {len(raw_a)} not fixed | | "
                + ("; ".join(f"{v}: {n}" for v, n in sorted(verdicts.items())) or "no run")
                + f" | {spent[0]:.2f} | {spent[1]:.2f} ({spent[1] / max(spent[0], 1e-9):.2f} x) | "
                f"{spent[2] + spent[3]:.2f} |")
    print(rows[-1], flush=True)
    return rows


def cli_rows(name: str, test: Path, gold: Path, repeats: int) -> list[str]:
    """``smatchpp score --sentence-buckets --coref-subscore`` without and with ``--coref-ties max``,
    measured subprocesses (:func:`peers.run_ours`), interleaved ``repeats`` times: the median CPU
    seconds, Total Coref, and the pairs' ``coref_ties``."""
    import peers

    found: dict[str, list] = {"first": [], "max": []}
    for _ in range(repeats):
        for ties in ("first", "max"):
            extra = ["--coref-ties", "max"] if ties == "max" else []
            found[ties].append(peers.run_ours(test, gold, "--workers", "1", "--sentence-buckets", "--coref-subscore",
                                              *extra, tool=f"ours {ties}"))
    cells = []
    for ties, runs in found.items():
        cpu = sorted(r.cpu_seconds or 0.0 for r in runs)[len(runs) // 2]
        last = runs[-1]
        coref = last.summary["coref"]["Total Coref"]
        proven = {}
        for p in last.pairs:
            if "coref_ties" in p:
                proven[p["coref_ties"]] = proven.get(p["coref_ties"], 0) + 1
        cells.append(f"{cpu:.2f} | {coref['matched']} ({100 * coref['f1']:.2f}) | "
                     f"{last.summary['optimal']} of {last.summary['scored']}"
                     + (" | " + ", ".join(f"{k} {v}" for k, v in sorted(proven.items())) if ties == "max" else ""))
    cpu_first = sorted(r.cpu_seconds or 0.0 for r in found["first"])[repeats // 2]
    cpu_max = sorted(r.cpu_seconds or 0.0 for r in found["max"])[repeats // 2]
    return [f"| {name} | {cells[0]} | {cells[1]} | {cpu_max / max(cpu_first, 1e-9):.2f} |"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, default=Path("/tmp/dm/d4"),
                    help="the built documents (build_documents.py, build_coref_documents.py --out)")
    ap.add_argument("--sets", nargs="+", default=SETS)
    ap.add_argument("--log", type=Path, nargs="*", default=[],
                    help="compare_docsmatch.py --log files: the records of docSmatch's runs")
    ap.add_argument("--time-limit", type=float, default=None, help="per second solve, seconds (default none)")
    ap.add_argument("--cli", type=int, default=0, metavar="N",
                    help="also time the command line without and with --coref-ties max, N times each, interleaved")
    args = ap.parse_args(argv)
    print(f"load {load()}, pid {os.getpid()}", file=sys.stderr)
    print("| set | pair | restricted optimum | ours: Total Coref matched | [min, max] among optima | "
          "coref items (most) | docSmatch run: matched, Total Coref (verdict) | CPU s first solve | "
          "CPU s tie-break (--coref-ties max) | CPU s min / max MIP |")
    print("|---|---|---|---|---|---|---|---|---|---|", flush=True)
    for name in args.sets:
        test, gold = args.dir / f"{name}.test.amr", args.dir / f"{name}.gold.amr"
        if not test.exists():
            print(f"| {name} | missing: {test} |", flush=True)
            continue
        run_set(name, test, gold, args)
    if args.cli:
        print(f"\nload {load()}")
        print("| set | first: CPU s | first: Total Coref matched (F1) | first: certified | max: CPU s | "
              "max: Total Coref matched (F1) | max: certified | max: coref_ties | CPU max / first |")
        print("|---|---|---|---|---|---|---|---|---|", flush=True)
        for name in args.sets:
            test, gold = args.dir / f"{name}.test.amr", args.dir / f"{name}.gold.amr"
            if test.exists():
                for row in cli_rows(name, test, gold, args.cli):
                    print(row, flush=True)
    print(f"load {load()}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

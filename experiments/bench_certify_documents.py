"""Certified optima of long documents (issue 32, items 5 and 6): two checkouts side by side.

Every pair of every set runs on its own, as a measured subprocess of ``smatchpp score
A B --time-limit T --stats`` (one worker), once with each checkout's ``smatchpp``
(``--before``, e.g. the main repository at the commit the change started from, and
``--after``, by default this one): the interpreter imports the package from the
checkout it is started in.  Per pair: sentences, variables, candidate pairs, wall
seconds, CPU seconds (user + system of the process: on a loaded machine wall time
is not what the pair cost), peak RSS, status, the matched interval and the F1
interval with its width in points.

Sets: ``lp-doc20``/``lp-doc50``/``lp-doc100`` (Little Prince, BART against gold,
``../shared/data/docs``), ``bio-doc{50,100,150}-perturb`` (``build_documents.py``)
and ``bio-doc{50,100,150}-merged-perturb`` (named entities merged across sentences,
docAMR's ``merge-names`` rule: ``build_coref_documents.py``), read from ``--bio``.

    python3 experiments/build_documents.py --sizes 50 100 150 --pairs 1 --out DIR
    python3 experiments/build_coref_documents.py --sizes 50 100 150 --pairs 1 --out DIR
    python3 experiments/bench_certify_documents.py --before /path/to/old/checkout --bio DIR
        [--after .] [--sets lp-doc100 ...] [--time-limit 60] [--pairs N] [--clock cpu]
        [--only before|after]

>>> f1_points(90, 100, 100), round(f1_points(1595, 2099, 2083), 2)
(90.0, 76.28)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "data"
BIO = HERE / "data"

#: runs the CLI of the package importable from the working directory, then
#: prints that package's location on stderr (which checkout was measured)
_RUN = (
    "import runpy, sys\n"
    "sys.argv = ['smatchpp'] + sys.argv[1:]\n"
    "import smatchpp\n"
    "print('SMATCHPP-FROM ' + smatchpp.__file__, file=sys.stderr)\n"
    "runpy.run_module('smatchpp', run_name='__main__')\n"
)


#: ``--clock cpu``: one pair solved in-process with the deadline on the process's CPU
#: clock (``time.process_time``: reading, compiling and solving count), which is what the
#: pair costs on a core of its own, whatever else the machine runs.  HiGHS's own time
#: limit stays a wall-clock one (it is handed what is left), so under load its stages get
#: less than their share: the comparison is fair to neither side more than the other
_CPU_DRIVER = (
    "import json, resource, sys, time\n"
    "import smatchpp\n"
    "from smatchpp.alignment.aligner import PairAligner\n"
    "from smatchpp.alignment.config import Config\n"
    "from smatchpp.presets import standardize\n"
    "from smatchpp.graphs.read import read_file\n"
    "from smatchpp.alignment.solvers.base import Limits\n"
    "path_a, path_b, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])\n"
    "aligner = PairAligner(Config())\n"
    "a = standardize(read_file(path_a)[0].graph, 'smatch')\n"
    "b = standardize(read_file(path_b)[0].graph, 'smatch')\n"
    "a, b, problem = aligner.compile(a, b)\n"
    "limits = Limits(deadline=limit, clock=time.process_time)\n"
    "r = aligner.solver.solve_within(problem, limits)\n"
    "print(json.dumps(dict(lower=r.objective, upper=r.upper_bound, status=r.status, stage=r.stage, vars_a=problem.n_a,\n"
    "    vars_b=problem.n_b, pairs_before=problem.n_pairs, test_triples=a.n_triples,\n"
    "    gold_triples=b.n_triples, source=smatchpp.__file__)))\n"
)


def f1_points(matched: float, test: float, gold: float) -> float:
    """F1 in points of ``matched`` triples out of ``test`` and ``gold``."""
    return 0.0 if matched <= 0 else 100 * 2 * matched / (test + gold)


def sets(shared: Path, bio: Path) -> dict[str, tuple[Path, Path]]:
    """Name -> (test, gold) files."""
    out = {f"lp-doc{n}": (shared / f"docs/lp-bart-doc{n}.pred.amr", shared / f"docs/lp-bart-doc{n}.gold.amr")
           for n in (20, 50, 100)}
    for kind in ("perturb", "merged-perturb"):
        for n in (50, 100, 150):
            out[f"bio-doc{n}-{kind}"] = (bio / f"bio-doc{n}-{kind}.test.amr", bio / f"bio-doc{n}-{kind}.gold.amr")
    return out


def split(path: Path, n: int | None, tmp: Path) -> list[Path]:
    """The first ``n`` graphs of ``path`` (all if ``None``), one file each."""
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    out = []
    for k, block in enumerate(blocks[:n]):
        f = tmp / f"{path.parent.name}.{path.stem}.{k}.amr"
        f.write_text(block + "\n", encoding="utf-8")
        out.append(f)
    return out


def sentences(path: Path) -> int:
    """Distinct ``:sntN`` roles in a document's text."""
    return len(set(re.findall(r":snt(\d+)\b", path.read_text(encoding="utf-8"))))


def run_cpu(checkout: Path, a: Path, b: Path, time_limit: float) -> dict:
    """One pair through one checkout's solver under a CPU-clock deadline (``_CPU_DRIVER``)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    with tempfile.TemporaryDirectory(prefix="certify-") as tmp:
        began = time.perf_counter()
        with open(Path(tmp, "out"), "wb") as out, open(Path(tmp, "err"), "wb") as err:
            proc = subprocess.Popen([sys.executable, "-c", _CPU_DRIVER, str(a), str(b), str(time_limit)],
                                    cwd=checkout, env=env, stdout=out, stderr=err)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - began
        lines = Path(tmp, "out").read_text().strip().splitlines()
        stderr = Path(tmp, "err").read_text(errors="replace")
    try:
        record = json.loads(lines[-1])
    except (IndexError, json.JSONDecodeError):
        record = {"status": f"error {proc.returncode}: {stderr[-300:]}"}
    if "source" in record and not str(Path(record["source"]).resolve()).startswith(str(checkout.resolve())):
        raise SystemExit(f"{checkout}: the run imported smatchpp from {record['source']}")
    record.update(wall=wall, cpu=usage.ru_utime + usage.ru_stime, peak_mb=usage.ru_maxrss / 1024)
    return record


def run(checkout: Path, a: Path, b: Path, time_limit: float, timeout: float) -> dict:
    """One pair through one checkout: its pair record plus wall, CPU and peak RSS."""
    with tempfile.TemporaryDirectory(prefix="certify-") as tmp:
        out = Path(tmp, "pairs.jsonl")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        began = time.perf_counter()
        with open(Path(tmp, "err"), "wb") as err:
            proc = subprocess.Popen([sys.executable, "-c", _RUN, "score", str(a), str(b), "--format", "json",
                                     "--quiet", "--stats", "--time-limit", str(time_limit),
                                     "--pairs-out", str(out)],
                                    cwd=checkout, env=env, stdout=subprocess.DEVNULL, stderr=err)
            try:
                _, status, usage = os.wait4(proc.pid, 0)
            except BaseException:
                proc.kill()
                raise
            proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - began
        stderr = Path(tmp, "err").read_text(errors="replace")
        records = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    source = next((line.split(" ", 1)[1] for line in stderr.splitlines()
                   if line.startswith("SMATCHPP-FROM ")), "?")
    if not str(Path(source).resolve()).startswith(str(checkout.resolve())):
        raise SystemExit(f"{checkout}: the run imported smatchpp from {source}")
    record = records[0] if records else {"status": f"error {proc.returncode}: {stderr[-300:]}"}
    record.update(wall=wall, cpu=usage.ru_utime + usage.ru_stime, peak_mb=usage.ru_maxrss / 1024)
    return record


def main(argv: list[str] | None = None) -> None:
    names = list(sets(SHARED, BIO))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True, help="the checkout measured first")
    ap.add_argument("--after", type=Path, default=HERE.parent, help="the checkout measured second")
    ap.add_argument("--sets", nargs="+", default=names, choices=names)
    ap.add_argument("--shared", type=Path, default=SHARED)
    ap.add_argument("--bio", type=Path, default=BIO, help="where the two builders wrote")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--pairs", type=int, default=None, help="pairs per set (default: all)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="wall: the CLI's --time-limit; cpu: the deadline on the process's CPU clock")
    ap.add_argument("--only", choices=("before", "after"), default=None, help="one checkout only")
    args = ap.parse_args(argv)
    all_sets = sets(args.shared, args.bio)
    print(f"time limit {args.time_limit:g} s a pair ({args.clock} clock), one worker; "
          f"before: {args.before}, after: {args.after}")
    print("| set | pair | sentences | vars A x B | candidate pairs | code | wall s | CPU s | peak MB "
          "| status | matched [lower, upper] | F1 interval (points) | width |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets:
            a, b = all_sets[name]
            if not a.exists():
                print(f"missing {a}: skipped", file=sys.stderr)
                continue
            for k, (fa, fb) in enumerate(zip(split(a, args.pairs, Path(tmp)),
                                             split(b, args.pairs, Path(tmp)))):
                for label, checkout in (("before", args.before), ("after", args.after)):
                    if args.only not in (None, label):
                        continue
                    print(f"{name} #{k}: {label} ...", file=sys.stderr, flush=True)
                    if args.clock == "cpu":
                        r = run_cpu(checkout, fa, fb, args.time_limit)
                    else:
                        r = run(checkout, fa, fb, args.time_limit, timeout=args.time_limit * 4 + 120)
                    if "lower" in r:
                        lo = f1_points(r["lower"], r["test_triples"], r["gold_triples"])
                        hi = f1_points(r["upper"], r["test_triples"], r["gold_triples"])
                        interval = f"[{r['lower']:g}, {r['upper']:g}]"
                        f1 = f"[{lo:.2f}, {hi:.2f}]"
                        width = f"{hi - lo:.2f}"
                    else:
                        interval = f1 = width = "-"
                    size = f"{r.get('vars_a', '-')} x {r.get('vars_b', '-')}"
                    status = r["status"] + (f" ({r['stage']})" if r.get("stage") else "")  # what closed or bounded it
                    print(f"| {name} | {k} | {sentences(fa)} | {size} | {r.get('pairs_before', '-')} | {label} "
                          f"| {r['wall']:.1f} | {r['cpu']:.1f} | {r['peak_mb']:.0f} | {status} "
                          f"| {interval} | {f1} | {width} |", flush=True)


if __name__ == "__main__":
    main()

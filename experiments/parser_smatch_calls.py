"""A parser's own Smatch function, run unchanged, with smatch 1.0.4 and with ``smatchpp.smatch``.

SPRING (``spring_amr.evaluation.compute_smatch``) and AMRBART (``common.utils.calculate_smatch``)
call ``next(smatch.score_amr_pairs(pred, gold))[2]``.  Their files are not in this repository:
``docs/smatch-api.md`` says how a scratch copy is made outside it (the one changed line:
``import smatch`` -> ``from smatchpp import smatch`` in the ``ours`` copy; the imports their
Smatch function does not use stubbed).  This script runs, for each parser and system, that
function in a fresh process of each side and prints a table: the parser's number, the corpus
triple totals, the pairs where our count is above / below 1.0.4's, and the seconds of the call::

    python experiments/parser_smatch_calls.py SCRATCH [--pairs 200]

``SCRATCH`` holds ``theirs/`` and ``ours/`` (each ``spring/`` and ``amrbart/``), ``stubs/``,
``stubs-peer/`` (what the peers' venv lacks) and ``data/`` (``bart.amr``, ``t5.amr``,
``gold.amr``).  A child (``--child``) runs with the side's interpreter: smatch 1.0.4's venv
(``experiments/setup_peers.sh``) or this one, with this checkout first on its path.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PEER_PYTHON = Path.home() / ".cache" / "smatchpp-peers" / "venv" / "bin" / "python"
PARSERS = {"spring": ("spring_amr.evaluation", "compute_smatch"),
           "amrbart": ("common.utils", "calculate_smatch")}


def child(parser: str, pred: str, gold: str) -> dict:
    began = time.perf_counter()
    module_name, function = PARSERS[parser]
    module = importlib.import_module(module_name)
    imported = time.perf_counter() - began
    began = time.perf_counter()
    value = getattr(module, function)(gold, pred)  # both take (test_path=gold, predictions_path)
    seconds = time.perf_counter() - began
    if isinstance(value, dict):
        value = value["smatch"]
    smatch = module.smatch  # the module the parser's file imported
    counts = []
    with open(pred) as p, open(gold) as g:
        for k, (a, b) in enumerate(smatch.generate_amr_lines(p, g), start=1):
            counts.append(list(smatch.get_amr_match(a, b, sent_num=k)))
            smatch.match_triple_dict.clear()
    return {"value": value, "seconds": seconds, "import_seconds": imported, "counts": counts,
            "module": smatch.__name__}


def run(side: str, scratch: Path, parser: str, pred: Path, gold: Path) -> dict:
    paths = [scratch / side / parser, scratch / "stubs"]
    if side == "theirs":
        python, paths = PEER_PYTHON, paths + [scratch / "stubs-peer"]
    else:
        python, paths = Path(sys.executable), [REPO] + paths
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(Path.home()),
           "PYTHONPATH": os.pathsep.join(map(str, paths))}
    done = subprocess.run([str(python), str(Path(__file__).resolve()), "--child", parser, str(pred), str(gold)],
                          capture_output=True, text=True, env=env, cwd=str(scratch))
    if done.returncode != 0:
        raise SystemExit(f"{side} {parser} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scratch", nargs="?")
    ap.add_argument("--child", nargs=3, metavar=("PARSER", "PRED", "GOLD"))
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    scratch = Path(args.scratch).resolve()
    print("| parser function | system | smatch 1.0.4 | smatchpp.smatch | triples test/gold (1.0.4 = ours) "
          "| pairs ours > 1.0.4 | pairs ours < 1.0.4 | seconds 1.0.4 | seconds ours | import s 1.0.4 / ours |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for parser in PARSERS:
        for system in ("bart", "t5"):
            pred, gold = scratch / "data" / f"{system}.amr", scratch / "data" / "gold.amr"
            theirs = run("theirs", scratch, parser, pred, gold)
            ours = run("ours", scratch, parser, pred, gold)
            assert theirs["module"] == "smatch" and ours["module"] == "smatchpp.smatch"
            totals = [sum(c[k] for c in theirs["counts"]) for k in (1, 2)]
            same = totals == [sum(c[k] for c in ours["counts"]) for k in (1, 2)]
            above = sum(o[0] > t[0] for o, t in zip(ours["counts"], theirs["counts"]))
            below = sum(o[0] < t[0] for o, t in zip(ours["counts"], theirs["counts"]))
            print(f"| {PARSERS[parser][1]} | {system} | {theirs['value']:.6f} | {ours['value']:.6f} "
                  f"| {totals[0]}/{totals[1]} ({'equal' if same else 'DIFFERENT'}) | {above} | {below} "
                  f"| {theirs['seconds']:.2f} | {ours['seconds']:.2f} "
                  f"| {theirs['import_seconds']:.2f} / {ours['import_seconds']:.2f} |")


if __name__ == "__main__":
    main()

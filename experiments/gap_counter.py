"""``smatchpp gap --metric counter`` on the PMB files of DRS_parsing's ``data/``: how far our
hill-climber (the counter metric with ``--solver hillclimber``: 4 restarts, seed 1) is from the
certified optimum, pair by pair; with ``--peer``, Counter's own hill-climber beside it (20
restarts, seed 1, and 1 restart), run by ``counter_peer_driver.py`` in its environment.

    bash experiments/setup_counter_peer.sh       # the data (and, for --peer, Counter and its venv)
    python3 experiments/gap_counter.py [--sets all|NAME,...] [--peer] [--json out.json]

The sets and the settings under which each is read are ``compare_counter.py``'s (its
docstring): Boxer's 2.2.0 output against gold (``--counter-version 2019 --counter-referee
2019``), the SPAR baseline against 3.0.0/4.0.0 gold, and documents of K consecutive 2.2.0
DRSs (``--counter-referee none``).  Our side is the command itself (``python -m smatchpp gap
--metric counter --format json``), so the numbers are what a user gets.

Printed: per set, the pairs, pairs certified, the exact micro F1, our hill-climber's F1, the
pairs where it falls short and the clauses it loses; with ``--peer``, the pairs where
Counter's hill-climber (20 restarts / 1 restart) falls short of the certified optimum, and
where it is above it (must be 0).  Under it, the machine line.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from compare_counter import concatenated, repeated, sets  # noqa: E402
from experiment import add_json, print_results  # noqa: E402
from peer_registry import COUNTER_HOME, COUNTER_VERSIONS, PEERS  # noqa: E402
from peers import run_peer  # noqa: E402

DEFAULT_SETS = ("2.2.0-dev,2.2.0-test,3.0.0-dev-spar,4.0.0-dev-spar,"
                "2.2.0-dev-doc5,2.2.0-dev-doc10,2.2.0-dev-doc20,2.2.0-dev-doc40")


def files(spec, folder: Path) -> tuple[str, Path, Path, Path, bool]:
    """``(release, test, gold, Counter's evaluation folder, documents)`` of a set."""
    release, test, gold, spar = spec[:4]
    documents = len(spec) > 4
    if documents:
        k, limit = spec[4]
        test, gold = concatenated(test, k, limit, folder), concatenated(gold, k, limit, folder)
    if spar:
        test = repeated(test, gold, folder)
    return release, test, gold, COUNTER_HOME / COUNTER_VERSIONS[release][0] / "evaluation", documents


def ours(release: str, test: Path, gold: Path, src: Path, documents: bool, folder: Path) -> tuple[dict, list[dict]]:
    """The gap report of ``smatchpp gap --metric counter`` and its per-pair lines."""
    version, referee = COUNTER_VERSIONS[release][1:]
    pairs = folder / "pairs.jsonl"
    cmd = [sys.executable, "-m", "smatchpp", "gap", "--metric", "counter", "--input-format", "clf",
           "--counter-version", version, "--counter-referee", "none" if documents else referee,
           "--counter-signature-file", str(src / "clf_signature.yaml"), "--format", "json",
           "--pairs-out", str(pairs), "--quiet", str(test), str(gold)]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE.parent)
    if done.returncode != 0:
        raise SystemExit(f"smatchpp gap failed: {' '.join(cmd)}\n{done.stderr}")
    lines = [json.loads(x) for x in pairs.read_text().splitlines()]
    return json.loads(done.stdout), [x for x in lines if "index" in x]


def peer(test: Path, gold: Path, src: Path, documents: bool, *options: str) -> dict[int, float]:
    """Counter's matched clauses of each pair under ``options``."""
    p = PEERS["counter"]
    run = run_peer(p.tool, [str(p.driver), "--peer-src", str(src), str(test), str(gold), "-g", "clf_signature.yaml",
                            *(("-ill", "score") if documents else ()), *options], python=p.python)
    if run.status != "ok":
        raise SystemExit(f"Counter failed: {run.status}\n{run.stderr_tail}")
    return {q["index"]: q["matched"] for q in run.pairs}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=DEFAULT_SETS, help="all, or names separated by commas")
    ap.add_argument("--peer", action="store_true", help="also Counter's hill-climber (20 restarts and 1)")
    add_json(ap)
    args = ap.parse_args(argv)
    known = sets(COUNTER_HOME / "data")
    names = list(known) if args.sets == "all" else args.sets.split(",")
    if args.peer and not PEERS["counter"].ready():
        raise SystemExit(f"Counter is not set up: {PEERS['counter'].setup_hint}")
    rows = []
    for name in names:
        with tempfile.TemporaryDirectory(prefix="gap-counter-") as tmp:
            release, test, gold, src, documents = files(known[name], Path(tmp))
            report, pairs = ours(release, test, gold, src, documents, Path(tmp))
            t = report["tools"]["hillclimber"]
            row = {"set": name, "pairs": report["pairs"], "certified": report["exact_certified"],
                   "f1_exact": report["exact_f1"], "f1_hillclimber": t["f1"], "short": t["wrong_pairs"],
                   "lost": t["lost_triples"], "histogram": t["histogram"]}
            if args.peer:
                exact = {q["index"]: q["exact"] for q in pairs}
                for key, options in (("r20", ("-r", "20", "--seed", "1")), ("r1", ("-r", "1", "--seed", "1"))):
                    theirs = peer(test, gold, src, documents, *options)
                    row[f"counter_{key}_short"] = sum(theirs[i] < m for i, m in exact.items())
                    row[f"counter_{key}_lost"] = sum(m - theirs[i] for i, m in exact.items() if theirs[i] < m)
                    row[f"counter_{key}_above"] = sum(theirs[i] > m for i, m in exact.items())
        rows.append(row)
        print(json.dumps(row), file=sys.stderr, flush=True)
    header = ["set", "pairs", "certified", "F1 exact", "F1 ours hc (4 restarts)", "ours hc short", "clauses lost"]
    table = [[r["set"], r["pairs"], r["certified"], f"{100 * r['f1_exact']:.2f}", f"{100 * r['f1_hillclimber']:.2f}",
              r["short"], f"{r['lost']:g}"] for r in rows]
    if args.peer:
        header += ["Counter r20 short (lost)", "Counter r1 short (lost)", "Counter above"]
        for line, r in zip(table, rows):
            line += [f"{r['counter_r20_short']} ({r['counter_r20_lost']:g})",
                     f"{r['counter_r1_short']} ({r['counter_r1_lost']:g})",
                     r["counter_r20_above"] + r["counter_r1_above"]]
    print_results(header, table, rows, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

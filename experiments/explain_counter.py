"""``smatchpp explain --metric counter`` on the PMB files of DRS_parsing's ``data/``: does each
pair's view mark as many clauses matched as the pair's certified ``matched``, is its
``--pairs-out`` the line ``score --metric counter --alignments`` writes, and what does the view
cost beside ``score`` (the statistics and the explanation come from one solve)?

    bash experiments/setup_counter_peer.sh       # the data
    python3 experiments/explain_counter.py [--sets 2.2.0-dev,...] [--json out.json]

The sets and their settings are ``gap_counter.py``'s (``compare_counter.py``'s docstring);
both commands run as a user runs them (``python -m smatchpp``, one worker), timed as the
child's CPU seconds.  Printed: per set, the pairs, the pairs whose marked clauses differ from
``matched`` on either side (must be 0), whether the ``--pairs-out`` lines are identical, the CPU
seconds of ``score``, ``score --alignments`` and ``explain``, and the size of the terminal view.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from compare_counter import sets  # noqa: E402
from experiment import add_json, print_results  # noqa: E402
from gap_counter import files  # noqa: E402
from peer_registry import COUNTER_HOME, COUNTER_VERSIONS  # noqa: E402

DEFAULT_SETS = "2.2.0-dev,2.2.0-test,4.0.0-dev-spar,2.2.0-dev-doc10"


def timed(cmd: list[str]) -> tuple[subprocess.CompletedProcess, float]:
    """Run ``cmd``; its CPU seconds (user + system of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE.parent,
                          env=dict(os.environ, PYTHONPATH=str(HERE.parent)))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{done.stderr}")
    return done, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", default=DEFAULT_SETS, help=f"comma-separated (default {DEFAULT_SETS})")
    add_json(parser)
    args = parser.parse_args()
    specs = sets(COUNTER_HOME / "data")
    table, rows = [], []
    for name in args.sets.split(","):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            release, test, gold, src, documents = files(specs[name], folder)
            version, referee = COUNTER_VERSIONS[release][1:]
            common = ["--metric", "counter", "--input-format", "clf", "--counter-version", version,
                      "--counter-referee", "none" if documents else referee,
                      "--counter-signature-file", str(src / "clf_signature.yaml"), "--quiet", "--workers", "1",
                      str(test), str(gold)]
            python = [sys.executable, "-m", "smatchpp"]
            _, plain_cpu = timed(python + ["score", *common])
            _, score_cpu = timed(python + ["score", "--alignments", "--pairs-out", str(folder / "s.jsonl"), *common])
            view, explain_cpu = timed(python + ["explain", "--color", "never", "--pairs-out",
                                                str(folder / "e.jsonl"), *common])
            lines = [json.loads(x) for x in (folder / "e.jsonl").read_text().splitlines()]
            same = lines == [json.loads(x) for x in (folder / "s.jsonl").read_text().splitlines()]
            off = sum(1 for x in lines if x.get("clauses_a") is not None and not
                      (sum(c["match"] is not None for c in x["clauses_a"]) == x["matched"]
                       == sum(c["match"] is not None for c in x["clauses_b"])))
            uncertified = sum(1 for x in lines if x.get("status") not in ("optimal", "skipped"))
        row = {"set": name, "pairs": len(lines), "uncertified": uncertified, "marks_off": off,
               "pairs_out_identical": same, "score_plain_cpu": round(plain_cpu, 2), "score_cpu": round(score_cpu, 2), "explain_cpu": round(explain_cpu, 2),
               "view_lines": view.stdout.count("\n")}
        rows.append(row)
        table.append([name, len(lines), uncertified, off, "yes" if same else "NO", f"{plain_cpu:.2f}", f"{score_cpu:.2f}",
                      f"{explain_cpu:.2f}", row["view_lines"]])
    print_results(["set", "pairs", "uncertified", "marks != matched", "--pairs-out identical",
                   "score CPU s", "score --alignments CPU s", "explain CPU s", "view lines"], table, rows, args.json)


if __name__ == "__main__":
    main()

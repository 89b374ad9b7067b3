"""Counter's command line and ours on the same files and flags: are the printed lines the same?

    bash experiments/setup_counter_peer.sh
    python3 experiments/same_counter_lines.py [--release 4.0.0] [--first 6]

Runs Counter's ``counter.py`` (the release's checkout, its venv; ``-r 20``) and ``smatchpp``
with Counter's flags (ours with the release's ``--counter-version`` and ``--counter-referee``,
``peer_registry.COUNTER_VERSIONS``) on files built from the release's data: the first ``--first`` gold DRSs
(``gold.txt``), the fourth of them alone (``one.txt``) and the SPAR DRS (``baseline_drs.txt``).
The cases exercise ``-m`` (several pairs; one pair above the limit), ``-b`` (one DRS against
every gold DRS; more than one, which both refuse), ``-ds`` (each clause's F-score), ``-ms``
and ``-prin``.  Compared: stdout
without the lines that time the run (``Total processing time``) and without ``-prin``'s
``Smart F-score concepts`` (the hill-climber's start, which we do not have); a refusal is
compared by its message (Counter raises, we exit 2).  Printed: one row per case, same or
the first differing line.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from experiment import machine_line, markdown_table  # noqa: E402
from peer_registry import COUNTER_HOME, COUNTER_VERSIONS, PEERS  # noqa: E402

CASES = (("-m 12, several pairs, -prin", "gold.txt", "gold.txt", "-m 12 -prin"),
         ("-m 10 -ms", "gold.txt", "gold.txt", "-m 10 -ms"),
         ("-m 5, one pair above it", "one.txt", "one.txt", "-m 5"),
         ("-b -m 12 -prin (SPAR DRS)", "SPAR", "gold.txt", "-b -m 12 -prin"),
         ("-b -ms -sig 3", "SPAR", "gold.txt", "-b -ms -sig 3"),
         ("-b with several DRSs", "gold.txt", "gold.txt", "-b"),
         ("-ds 2", "gold.txt", "gold.txt", "-ds 2"),
         ("-ds 1 -ic", "gold.txt", "gold.txt", "-ds 1 -ic"),
         ("-b -ds 1 (SPAR DRS)", "SPAR", "gold.txt", "-b -ds 1"))
DROP = ("Total processing time", "Smart F-score concepts")


def lines(text: str) -> list[str]:
    out, skip_blank = [], False
    for line in text.splitlines():
        if line.startswith(DROP):
            skip_blank = True
            continue
        if skip_blank and not line.strip():
            skip_blank = False
            continue
        skip_blank = False
        out.append(line)
    return out


def refusal(text: str) -> str | None:
    found = [x for x in text.splitlines() if "Using --baseline" in x]
    return found[-1].split("Using --baseline", 1)[1] if found else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", default="4.0.0", choices=sorted(COUNTER_VERSIONS))
    ap.add_argument("--first", type=int, default=6)
    args = ap.parse_args(argv)
    if not PEERS["counter"].ready():
        raise SystemExit(f"Counter is not set up: {PEERS['counter'].setup_hint}")
    sys.path.insert(0, str(HERE.parent))
    from smatchpp.drs import read_clf

    src = COUNTER_HOME / COUNTER_VERSIONS[args.release][0] / "evaluation"
    data = COUNTER_HOME / "data" / f"pmb-{args.release}"
    rows = []
    with tempfile.TemporaryDirectory(prefix="counter-lines-") as tmp:
        folder = Path(tmp)
        drss = read_clf(data / "gold" / "dev.txt")[:args.first]
        (folder / "gold.txt").write_text("\n\n".join("\n".join(" ".join(c) for c in d.clauses) for d in drss) + "\n")
        (folder / "one.txt").write_text("\n".join(" ".join(c) for c in drss[3].clauses) + "\n")
        files = {"gold.txt": folder / "gold.txt", "one.txt": folder / "one.txt", "SPAR": data / "baseline_drs.txt"}
        for name, test, gold, flags in CASES:
            common = ["-f1", str(files[test]), "-f2", str(files[gold]), "-g", str(src / "clf_signature.yaml"),
                      *flags.split()]
            theirs = subprocess.run([str(PEERS["counter"].python), "counter.py", *common, "-r", "20"], cwd=src,
                                    capture_output=True, text=True)
            version, referee = COUNTER_VERSIONS[args.release][1:]
            ours = subprocess.run([sys.executable, "-m", "smatchpp", *common, "--counter-version", version,
                                   "--counter-referee", referee], cwd=HERE.parent,
                                  capture_output=True, text=True)
            if refusal(theirs.stderr) is not None or ours.returncode == 2:
                same = refusal(theirs.stderr) == refusal(ours.stderr)
                rows.append([name, f"refused: {'same message' if same else 'DIFFERENT'}", ours.returncode])
                continue
            a, b = lines(theirs.stdout), lines(ours.stdout)
            diff = next((f"{x!r} vs {y!r}" for x, y in zip(a, b) if x != y), None)
            if diff is None and len(a) != len(b):
                diff = f"{len(a)} lines vs {len(b)}"
            rows.append([name, "same" if diff is None else diff, f"{len(a)} lines"])
    print(markdown_table(["case", "Counter's lines and ours", "lines"], rows))
    print(machine_line())
    return 0


if __name__ == "__main__":
    sys.exit(main())

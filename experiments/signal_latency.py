"""How long a command takes to end after a signal that comes while it solves (issue 33, fault 2).

Each row runs ``python -m smatchpp ARGS`` in a fresh process (from the current directory, so
that this checkout's package is imported), sends the signal once the process has used
``--cpu`` seconds of CPU, and prints the exit code and the seconds from the signal to the
end; a command still running ``--wait`` seconds after the signal is killed and shown as
``still running``.  The pair is the first two documents of ``lp-bart-doc50`` (or
``--docs NAME``) from ``../shared/data/docs`` joined into one graph, written to a
temporary folder.

    python3 experiments/signal_latency.py --cpu 5 -- score a.amr b.amr --solver highs --compression none
    python3 experiments/signal_latency.py --docs lp-bart-doc100 --cpu 60 -- \\
        score a.amr b.amr --metric aspect --aspect-name reentrancies

``a.amr`` and ``b.amr`` in ARGS name the joined prediction and gold documents.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import penman

HERE = Path(__file__).resolve().parent
DOCS = HERE.parents[1] / "shared" / "data" / "docs"


def joined(path: Path) -> str:
    """The first two documents of ``path`` as one graph (the second one's variables renamed)."""
    from smatchpp.graphs.read import read_file

    first, second = [penman.decode(penman.encode(penman.Graph(list(e.graph.triples), top=e.graph.top)))
                     for e in read_file(str(path))][:2]
    renamed = {v: f"{v}_2" for v in second.variables()}
    triples = [(renamed.get(s, s), r, renamed.get(t, t)) for s, r, t in second.triples]
    root = [("j", ":instance", "joined"), ("j", ":snt1", first.top), ("j", ":snt2", renamed[second.top])]
    return penman.encode(penman.Graph(root + first.triples + triples, top="j"))


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one(args: list[str], sig: signal.Signals, cpu: float, wait: float, cwd: Path) -> tuple[str, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE.parent)] + (
        [os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])))
    proc = subprocess.Popen([sys.executable, "-m", "smatchpp", *args], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    while proc.poll() is None and cpu_seconds(proc.pid) < cpu:
        time.sleep(0.05)
    if proc.poll() is not None:
        return "finished before the signal", ""
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=wait)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return f"still running {wait:.0f} s after it (killed)", ""
    last = err.strip().splitlines()[-1] if err.strip() else ""
    return f"exit {proc.returncode} after {time.monotonic() - sent:.2f} s", last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", default="lp-bart-doc50", help="pred/gold file stem in ../shared/data/docs")
    parser.add_argument("--cpu", type=float, default=5.0, help="CPU seconds of the command before the signal")
    parser.add_argument("--wait", type=float, default=120.0, help="seconds to wait after the signal")
    parser.add_argument("--signals", default="SIGTERM,SIGINT")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="smatchpp's arguments (after --)")
    opts = parser.parse_args()
    args = opts.args[1:] if opts.args[:1] == ["--"] else opts.args
    with tempfile.TemporaryDirectory() as folder:
        cwd = Path(folder)
        (cwd / "a.amr").write_text(joined(DOCS / f"{opts.docs}.pred.amr") + "\n")
        (cwd / "b.amr").write_text(joined(DOCS / f"{opts.docs}.gold.amr") + "\n")
        print(f"smatchpp {' '.join(args)}  ({opts.docs}, signal after {opts.cpu:g} s of CPU)")
        print("| signal | result | last line of stderr |\n|---|---|---|")
        for name in opts.signals.split(","):
            result, last = one(args, signal.Signals[name], opts.cpu, opts.wait, cwd)
            print(f"| {name} | {result} | {last} |", flush=True)


if __name__ == "__main__":
    main()

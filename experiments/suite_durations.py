"""Time of the test suite per test file, in two checkouts (or from saved pytest outputs).

    git worktree add ../base 5f211eb
    python3 experiments/suite_durations.py ../base . -- tests/test_cli.py tests/test_snapshots.py
    python3 experiments/suite_durations.py --parse before.txt after.txt

Each checkout runs ``python -m pytest -q -p no:cacheprovider --durations=0 FILES`` with the
checkout as working directory (so that it imports that checkout's code), one after the other.
For each: wall seconds, and CPU seconds (user + system) of pytest and of every process it
waited for (the fresh ``python -m smatchpp`` processes of the CLI tests), from ``os.wait4``.
Then a Markdown table: per test file the sum of its tests' setup, call and teardown times
(pytest's durations), A, B and B / A, slowest files first.  ``--parse`` reads saved outputs
of such pytest runs instead (no CPU times then).  On a shared machine wall times swing with
the load; say the load (``uptime``) beside the numbers.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

_LINE = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+(\S+?)::")
_SUMMARY = re.compile(r"^=* ?(\d+ (?:passed|failed).*?) in ([0-9.]+)s", re.M)


def per_file(output: str) -> dict[str, float]:
    """Seconds per test file from pytest's ``--durations=0`` lines.

    >>> per_file("0.50s call     tests/a.py::t\\n0.25s setup    tests/a.py::u\\n1.00s call  tests/b.py::v[x]\\n")
    {'tests/a.py': 0.75, 'tests/b.py': 1.0}
    """
    seconds: dict[str, float] = defaultdict(float)
    for line in output.splitlines():
        m = _LINE.match(line)
        if m:
            seconds[m.group(3)] += float(m.group(1))
    return dict(seconds)


def summary(output: str) -> str:
    found = _SUMMARY.findall(output)
    return found[-1][0] if found else "?"


def run(checkout: Path, files: list[str]) -> tuple[str, float, float]:
    """pytest's output, wall seconds and CPU seconds (with the processes it waited for)."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             "--durations=0", *files], cwd=checkout, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    out = proc.stdout.read()
    _, _, usage = os.wait4(proc.pid, 0)
    return out, time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def table(a: dict[str, float], b: dict[str, float]) -> list[str]:
    rows = ["| test file | A s | B s | B / A |", "| --- | ---: | ---: | ---: |"]
    for name in sorted(set(a) | set(b), key=lambda n: -max(a.get(n, 0), b.get(n, 0))):
        x, y = a.get(name, 0.0), b.get(name, 0.0)
        rows.append(f"| {name} | {x:.1f} | {y:.1f} | {y / x:.2f} |" if x else f"| {name} | - | {y:.1f} | - |")
    x, y = sum(a.values()), sum(b.values())
    rows.append(f"| all | {x:.1f} | {y:.1f} | {y / x if x else float('nan'):.2f} |")
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", help="checkout A (or, with --parse, pytest's saved output A)")
    parser.add_argument("b", help="checkout B (or output B)")
    parser.add_argument("files", nargs="*", help="test files (after --), as paths inside a checkout")
    parser.add_argument("--parse", action="store_true", help="A and B are saved pytest outputs")
    args = parser.parse_args(argv)
    if args.parse:
        outputs = [Path(p).read_text(encoding="utf-8", errors="replace") for p in (args.a, args.b)]
        for name, out in zip("AB", outputs):
            print(f"{name}: {summary(out)}")
    else:
        outputs = []
        for name, checkout in zip("AB", (args.a, args.b)):
            out, wall, cpu = run(Path(checkout), args.files)
            outputs.append(out)
            print(f"{name} ({checkout}): {summary(out)}; wall {wall:.1f} s, CPU {cpu:.1f} s "
                  f"(with waited-for processes); load {os.getloadavg()[0]:.1f}")
    print()
    print("\n".join(table(per_file(outputs[0]), per_file(outputs[1]))))


if __name__ == "__main__":
    main()

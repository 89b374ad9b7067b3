"""Triple counts of ``smatchpp.smatch`` against smatch 1.0.4's reader, graph by graph.

Both read each file as 1.0.4 does (``get_amr_line``: lines stripped and joined without a space,
``#`` lines skipped) and count each one-line AMR's instance, attribute and relation triples:
1.0.4 with ``amr.AMR.parse_AMR_line`` (in its venv, a subprocess), ours with
``smatchpp.smatch``'s reader (preset ``smatch``).  Prints one row per file::

    python experiments/smatch_api_counts.py FILE...
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
PEER_PYTHON = Path.home() / ".cache" / "smatchpp-peers" / "venv" / "bin" / "python"


def peer(paths: list[str]) -> None:
    """Run inside smatch 1.0.4's venv: ``[path, instances, attributes, relations]`` per AMR."""
    repo = str(HERE.parent.parent)
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != repo]
    import amr  # smatch 1.0.4's reader

    out = []
    for path in paths:
        with open(path) as handle:
            while True:
                line = amr.AMR.get_amr_line(handle)
                if not line:
                    break
                try:
                    g = amr.AMR.parse_AMR_line(line)
                    g.rename_node("a")
                    out.append([path] + [len(t) for t in g.get_triples()])
                except Exception as exc:  # noqa: BLE001 - 1.0.4 fails in many ways
                    out.append([path, None, None, type(exc).__name__])
    json.dump(out, sys.stdout)


def ours(paths: list[str]) -> list:
    sys.path.insert(0, str(HERE.parent.parent))
    from smatchpp import smatch
    from smatchpp.core.exceptions import ReadError

    out = []
    for path in paths:
        with open(path) as handle:
            lines = iter(handle)
            while True:
                line = smatch.get_amr_line(lines)
                if not line:
                    break
                try:
                    g = smatch.read_amr(line)
                    out.append([path, len(g.concepts), len(g.attributes), len(g.relations)])
                except ReadError:
                    out.append([path, None, None, "ReadError"])
    return out


def main() -> None:
    if sys.argv[1:2] == ["--peer"]:
        peer(sys.argv[2:])
        return
    paths = sys.argv[1:]
    done = subprocess.run([str(PEER_PYTHON), str(HERE), "--peer", *paths], capture_output=True, text=True,
                          check=True, env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home())})
    theirs, mine = json.loads(done.stdout), ours(paths)
    assert len(theirs) == len(mine), (len(theirs), len(mine))
    print("| file | AMRs | equal counts (instance, attribute, relation) | different | unreadable by 1.0.4 / ours |")
    print("|---|---|---|---|---|")
    for path in paths:
        rows = [(t, o) for t, o in zip(theirs, mine) if t[0] == path]
        equal = sum(t == o and t[1] is not None for t, o in rows)
        bad = [(t, o) for t, o in rows if t != o and not (t[1] is None and o[1] is None)]
        print(f"| {path} | {len(rows)} | {equal} | {len(bad)} | {sum(t[1] is None for t, _ in rows)} / "
              f"{sum(o[1] is None for _, o in rows)} |")


if __name__ == "__main__":
    main()

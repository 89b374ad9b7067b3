"""Peer driver: a reference tool's own reader, graph by graph, as JSON lines.

Run with the reference's interpreter, outside this repository, pointing
``--peer-src`` at the directory that holds the reference's reader
(``experiments/setup_readers.sh`` fills ``~/.cache/reference-readers``)::

    python3 experiments/reader_peer_driver.py --peer-src DIR --module amr_py3 FILE...

For every graph of every FILE it does what the reference's ``smatch.py`` does
before it aligns: read the next graph with ``get_amr_line`` (comment lines
dropped, lines stripped and joined), parse it with ``AMR.parse_AMR_line`` and
take ``get_triples()``.  One JSON object per graph, in file order:
``{"file": k, "graph": i, "instances": [[node, concept]...],
"attributes": [[role, node, value]...], "relations": [[role, node, node]...]}``,
or ``"error"`` when the reference returns no graph.  Nothing is renamed or
lower-cased: the reference's triples as it returns them.

``--module`` names the reader module: ``amr_py3`` (flipz357/amr-metric-suite),
``amr`` (jcyk/AMR-parser, mdtux89/amr-evaluation's ``smatch/``, and the PyPI
smatch releases, with ``--peer-src site`` to use the interpreter's own).
"""
from __future__ import annotations

import argparse
import importlib
import io
import json
import os
import sys

_REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _REPO]


class _Log:
    """The suite's ``amr_py3`` logs through a ``log_helper`` it only defines when verbose."""

    def error(self, *args):
        print(*args, file=sys.stderr)

    debug = error


def _reader(amr, smatch):
    """``get_amr_line`` as the reference's ``smatch.py`` calls it."""
    for owner in (smatch, getattr(amr, "AMR", None)):
        fn = getattr(owner, "get_amr_line", None)
        if fn is not None:
            return fn
    raise SystemExit("no get_amr_line in the reference")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer-src", required=True, help="directory of the reader, or 'site'")
    ap.add_argument("--module", default="amr", help="the reader module (amr_py3, amr)")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    if args.peer_src != "site":
        sys.path.insert(0, args.peer_src)
    amr = importlib.import_module(args.module)
    amr.log_helper = _Log()
    try:
        stderr, sys.stderr = sys.stderr, io.StringIO()  # some copies print at import
        smatch = importlib.import_module("smatch")
    except Exception:  # noqa: BLE001 - jcyk's smatch.py needs its own path layout
        smatch = None
    finally:
        sys.stderr = stderr
    get_amr_line = _reader(amr, smatch)
    out = sys.stdout
    for k, path in enumerate(args.files):
        with open(path, encoding="utf-8") as f:
            i = 0
            while True:
                line = get_amr_line(f)
                if not line:
                    break
                record = {"file": k, "graph": i}
                try:
                    g = amr.AMR.parse_AMR_line(line)
                except Exception as exc:  # noqa: BLE001 - the reference crashes: say so
                    g, record["error"] = None, f"{type(exc).__name__}: {exc}"
                if g is None:
                    record.setdefault("error", "parse_AMR_line returned None")
                else:
                    inst, attr, rel = g.get_triples()[:3]
                    record["instances"] = [[t[1], t[2]] for t in inst]
                    record["attributes"] = [[t[0], t[1], t[2]] for t in attr]
                    record["relations"] = [[t[0], t[1], t[2]] for t in rel]
                out.write(json.dumps(record) + "\n")
                i += 1


if __name__ == "__main__":
    main()

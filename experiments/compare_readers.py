"""Our presets' triples beside the reference tools' own readers, graph by graph and pair by pair.

    bash experiments/setup_readers.sh      # the readers, outside the repo (once)
    bash experiments/setup_peers.sh        # jcyk/AMR-parser's reader (the WSMATCH tool)
    python3 experiments/compare_readers.py [--data ../shared/data] [--json out.json]
                                           [--readers amr-suite wsmatch ...]

Each reader runs in its own interpreter (``experiments/reader_peer_driver.py``)
on the 12 BAMBOO test tasks (``bamboo/{sts,sick,para}/{main,reify,syno,
role_confusion}/{src,tgt}.test.amr``) and on AMRParseEval's Little Prince
parses (``parseval-lp``); its triples are set beside the preset that models it:

=================  ===========================================  ====================
reader             code                                         preset
=================  ===========================================  ====================
``amr-suite``      flipz357/amr-metric-suite 711a231 amr_py3.py ``amr-suite``
``wsmatch``        jcyk/AMR-parser e412798 (WSMATCH tool) amr.py ``amr-suite``
``amr-evaluation`` mdtux89/amr-evaluation 8bc6b2e smatch/amr.py ``smatch-1.0.1``
``smatch-1.0.1``   PyPI smatch 1.0.1 amr.py                     ``smatch-1.0.1``
``smatch-1.0.3.2`` PyPI smatch 1.0.3.2 amr.py                   ``smatch``
``smatch-1.0.4``   PyPI smatch 1.0.4 amr.py (setup_peers.sh)    ``smatch``
=================  ===========================================  ====================

and also beside ``smatch-legacy`` (what it differs from each reader in).
Per task: the pairs whose triple totals (test and gold) are equal, and the
graphs whose triples are equal as multisets, labels compared as the reader's
``smatch.py`` compares them (lower-cased; trailing ``_`` stripped for the
readers whose ``normalize`` strips it).  A graph the reader cannot parse
counts as unequal and is listed.  ``--examples`` prints the first differing
graphs of each preset.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from experiment import DATA, TASKS_BY_DATASET, add_data, add_json, task_files  # noqa: E402
from peer_registry import PEERS, READERS_HOME as ROOT  # noqa: E402,F401 (ROOT: tests/test_reference_readers.py)

from smatchpp.graphs.read import read_file  # noqa: E402
from smatchpp.presets import standardize  # noqa: E402

#: name -> (strips "_" when comparing, presets to check); the reader itself is the
#: ``reader:NAME`` entry of ``peer_registry.py`` (interpreter, --peer-src, --module)
CHECKS = {
    "amr-suite": (False, ("amr-suite", "smatch-legacy")),
    "wsmatch": (False, ("amr-suite",)),
    "amr-evaluation": (True, ("smatch-1.0.1", "smatch-legacy")),
    "smatch-1.0.1": (True, ("smatch-1.0.1", "smatch-legacy")),
    "smatch-1.0.3.2": (True, ("smatch", "smatch-legacy")),
    "smatch-1.0.4": (True, ("smatch",)),
}
#: name -> (interpreter, --peer-src, --module, strips "_" when comparing, presets to check)
READERS = {name: (PEERS[f"reader:{name}"].python, *PEERS[f"reader:{name}"].lead[1::2], *check)
           for name, check in CHECKS.items()}


def tasks(data: Path) -> dict[str, tuple[Path, Path]]:
    """The 12 BAMBOO test tasks and parseval-lp: name -> (test file, gold file)."""
    out = {task: task_files(task, data / "bamboo") for task in TASKS_BY_DATASET}
    out["parseval-lp"] = (data / "parseval-lp" / "src.test.amr", data / "parseval-lp" / "tgt.test.amr")
    return out


def run_reader(name: str, files: list[Path]) -> list[list[dict]]:
    """The reader's records, per file."""
    python, *argv = PEERS[f"reader:{name}"].argv(files)
    proc = subprocess.run([python, "-I", *argv],
                          capture_output=True, text=True, cwd="/", check=False)
    if proc.returncode:
        sys.exit(f"{name}: the reader failed: {proc.stderr[-2000:]}")
    per_file: list[list[dict]] = [[] for _ in files]
    for line in proc.stdout.splitlines():
        record = json.loads(line)
        per_file[record["file"]].append(record)
    return per_file


def reference_multiset(record: dict, strip: bool) -> Counter | None:
    if "error" in record:
        return None
    fix = (lambda x: x.lower().rstrip("_")) if strip else str.lower
    out = Counter((n, "instance", fix(c)) for n, c in record["instances"])
    out.update((n, fix(r), fix(v)) for r, n, v in record["attributes"])
    out.update((s, fix(r), t) for r, s, t in record["relations"])
    return out


def our_multiset(graph, preset: str, strip: bool) -> Counter:
    g = standardize(graph, preset)
    fix = (lambda x: x.rstrip("_")) if strip else (lambda x: x)
    names = g.variables
    out = Counter((names[i], "instance", fix(c)) for i, c in enumerate(g.concepts))
    out.update((names[i], fix(r), fix(v)) for i, r, v in g.attributes)
    out.update((names[i], fix(r), names[k]) for i, r, k in g.relations)
    return out


def compare(readers: list[str], data: Path, examples: int) -> dict:
    all_tasks = tasks(data)
    files = [p for pair in all_tasks.values() for p in pair]
    ours = {p: [e.graph for e in read_file(p)] for p in files}
    report: dict = {}
    for name in readers:
        records = dict(zip(files, run_reader(name, files)))
        strip = READERS[name][3]
        report[name] = {}
        for preset in READERS[name][4]:
            rows, shown = {}, 0
            for task, (a, b) in all_tasks.items():
                row = Counter()
                sides = []
                for path in (a, b):
                    refs = records[path]
                    if len(refs) != len(ours[path]):
                        sys.exit(f"{name}: {path}: {len(refs)} graphs, we read {len(ours[path])}")
                    side = []
                    for k, (rec, graph) in enumerate(zip(refs, ours[path])):
                        ref = reference_multiset(rec, strip)
                        mine = our_multiset(graph, preset, strip) if graph is not None else None
                        row["graphs"] += 1
                        row["reference_errors"] += ref is None
                        same = ref is not None and mine == ref
                        row["graphs_equal"] += same
                        if not same and ref is not None and shown < examples:
                            shown += 1
                            print(f"--- {name} vs {preset}: {path} graph {k}\n  only ours: "
                                  f"{sorted((mine or Counter()) - ref)}\n  only reference: "
                                  f"{sorted(ref - (mine or Counter()))}", file=sys.stderr)
                        side.append((sum(ref.values()) if ref is not None else None,
                                     sum(mine.values()) if mine is not None else None))
                    sides.append(side)
                for (ra, ma), (rb, mb) in zip(*sides):
                    row["pairs"] += 1
                    row["pairs_totals_equal"] += ra is not None and rb is not None and (ra, rb) == (ma, mb)
                rows[task] = dict(row)
            total = Counter()
            for row in rows.values():
                total.update(row)
            rows["all"] = dict(total)
            report[name][preset] = rows
    return report


def print_table(report: dict) -> None:
    for name, presets in report.items():
        for preset, rows in presets.items():
            print(f"\n{name} reader vs preset {preset}")
            print(f"{'task':22s} {'pairs':>6s} {'totals equal':>13s} {'graphs':>7s} {'triples equal':>14s} "
                  f"{'ref. errors':>11s}")
            for task, r in rows.items():
                print(f"{task:22s} {r['pairs']:6d} {r['pairs_totals_equal']:13d} {r['graphs']:7d} "
                      f"{r['graphs_equal']:14d} {r['reference_errors']:11d}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data(ap, DATA)
    ap.add_argument("--readers", nargs="+", default=list(READERS), choices=list(READERS))
    ap.add_argument("--examples", type=int, default=0, help="print this many differing graphs per preset")
    add_json(ap)
    args = ap.parse_args()
    report = compare(args.readers, args.data, args.examples)
    print_table(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()

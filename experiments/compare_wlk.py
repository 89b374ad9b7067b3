"""WLK against its reference, pair by pair, on BAMBOO's 12 tasks.

The reference (flipz357/weisfeiler-leman-amr-metrics, pinned in
``peer_registry.WLK_REF``; it reads graphs with PyPI smatchpp 1.5.1) runs in its
own venv outside the repository (the ``wlk`` entry of ``peer_registry.py``); ours is
``smatchpp.metrics.WLK``.  The reference keys neighbourhoods by node label, so where
two nodes of a graph share a label its score depends on Python's hash seed; there
ours with ``label_keyed=True`` is compared as well, and the pairs are split by
whether a graph of the pair has a repeated node label.

    python3 experiments/compare_wlk.py --mirror PATH/TO/weisfeiler-leman-amr-metrics.git
        [--tasks all|main|TASK] [--seeds 0 1 2] [--iterations 2] [--json out.json]

Prints, per task: pairs; pairs equal within 1e-9 for the label-keyed variant (all, and
those without a repeated label) and for our default; the largest differences; an
explained differing pair; with several ``--seeds``, how many of the reference's own
pair scores move between hash seeds, and whether our label-keyed score is one of the
reference's; finally the BAMBOO cells of the reference and of ours.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bamboo  # noqa: E402
from experiment import BAMBOO as DATA, add_data, add_json, add_mirror, read_graphs, task_files, tasks_arg  # noqa: E402
from peer_registry import PEERS, WLK_REF, run_json_lines, setup  # noqa: E402

from smatchpp.metrics import get_metric  # noqa: E402
from smatchpp.metrics.wlk import wl_graph  # noqa: E402

TOL = 1e-9


def repeated_labels(graph) -> list[str]:
    """The node labels that occur more than once in the standardized graph."""
    labels = wl_graph(graph).labels
    return sorted({x for x in labels if labels.count(x) > 1})


def pair_scores(metric, graphs_a, graphs_b) -> np.ndarray:
    return np.array([metric.pair_score(metric.features(a), metric.features(b))
                     for a, b in zip(graphs_a, graphs_b)])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_mirror(p, f"git mirror of {WLK_REF.repository} (or ${WLK_REF.env})")
    add_data(p, DATA)
    p.add_argument("--tasks", default="all")
    p.add_argument("--seeds", type=int, nargs="+", default=[0], help="PYTHONHASHSEED values for the reference")
    p.add_argument("--iterations", type=int, default=2)
    add_json(p)
    args = p.parse_args(argv)
    setup(WLK_REF, args.mirror)
    tasks = list(tasks_arg(args.tasks))
    files = [task_files(t, args.data) for t in tasks]
    runs = {seed: run_json_lines(PEERS["wlk"], files, "-k", str(args.iterations), hash_seed=seed) for seed in args.seeds}
    keyed = get_metric("wlk", iterations=args.iterations, label_keyed=True)
    default = get_metric("wlk", iterations=args.iterations)
    totals = dict(pairs=0, keyed_equal=0, clean=0, clean_equal=0, default_equal=0, seed_moved=0,
                  keyed_is_a_seed=0, keyed_differs=0)
    report, rows = {}, {"reference": [], "ours (label-keyed)": [], "ours (default)": []}
    example = None
    first = args.seeds[0]
    for k, (task, (src, tgt)) in enumerate(zip(tasks, files)):
        ga, gb = read_graphs(src), read_graphs(tgt)
        refs = np.array([runs[s][k]["scores"] for s in args.seeds])
        if refs.shape[1] != len(ga):
            raise SystemExit(f"{task}: the reference scored {refs.shape[1]} pairs, we read {len(ga)}")
        ref = refs[0]
        ours_k, ours_d = pair_scores(keyed, ga, gb), pair_scores(default, ga, gb)
        rep = np.array([bool(repeated_labels(a) or repeated_labels(b)) for a, b in zip(ga, gb)])
        dk, dd = np.abs(ours_k - ref), np.abs(ours_d - ref)
        moved = (refs.max(axis=0) - refs.min(axis=0)) > TOL
        is_seed = (np.abs(refs - ours_k).min(axis=0) <= TOL)
        row = dict(pairs=len(ref), keyed_equal=int((dk <= TOL).sum()), clean=int((~rep).sum()),
                   clean_equal=int(((dk <= TOL) & ~rep).sum()), default_equal=int((dd <= TOL).sum()),
                   keyed_max=float(dk.max()), keyed_max_clean=float(dk[~rep].max(initial=0)),
                   default_max=float(dd.max()), seed_moved=int(moved.sum()),
                   keyed_is_a_seed=int(is_seed[dk > TOL].sum()), keyed_differs=int((dk > TOL).sum()))
        report[task] = row
        for key in totals:
            totals[key] += row[key]
        print(f"{task:22s} {row['pairs']:5d} pairs: label-keyed equal {row['keyed_equal']:5d} "
              f"(without a repeated label {row['clean_equal']}/{row['clean']}, max diff there "
              f"{row['keyed_max_clean']:.1e}; overall max {row['keyed_max']:.3f}); default equal "
              f"{row['default_equal']:5d} (max {row['default_max']:.3f})"
              + (f"; reference moves between seeds on {row['seed_moved']}, ours is one of its "
                 f"values on {row['keyed_is_a_seed']}/{row['keyed_differs']} differing"
                 if len(args.seeds) > 1 else ""), flush=True)
        if example is None and (dk > TOL).any():
            i = int(np.argmax(dk))
            example = dict(task=task, pair=i, reference=ref[i].item(), label_keyed=ours_k[i].item(),
                           default=ours_d[i].item(), repeated_a=repeated_labels(ga[i]),
                           repeated_b=repeated_labels(gb[i]),
                           reference_by_seed={s: float(runs[s][k]["scores"][i]) for s in args.seeds})
        rows["reference"].append(ref)
        rows["ours (label-keyed)"].append(ours_k)
        rows["ours (default)"].append(ours_d)
    print(f"all {len(tasks)} tasks: {totals['pairs']} pairs; label-keyed equal within 1e-9: "
          f"{totals['keyed_equal']}; of the {totals['clean']} pairs without a repeated label: "
          f"{totals['clean_equal']} equal; default equal: {totals['default_equal']}"
          + (f"; the reference's own score moves between hash seeds {args.seeds} on "
             f"{totals['seed_moved']} pairs; where ours (label-keyed) differs from seed {first} "
             f"({totals['keyed_differs']}), it equals the reference under another seed on "
             f"{totals['keyed_is_a_seed']}" if len(args.seeds) > 1 else ""))
    if example:
        print("example of a differing pair:", json.dumps(example))
        print("  the reference gathers neighbourhoods in a dict keyed by label; the repeated labels "
              "above make nodes share one neighbourhood, the last one in its (hash-seed) order")
    cells = {}
    if len(tasks) == len(bamboo.CELLS):
        for name, scores in rows.items():
            by_task = dict(zip(tasks, scores))
            cells[name] = [bamboo.cell_score(c, by_task[c], args.data) for c in bamboo.CELLS]
            cells[name].append(float(np.mean(cells[name])))
        print(bamboo.format_table({f"WLK-k{args.iterations} {n}": v for n, v in cells.items()}
                                  | {"WLK-k2 (published v0.2)": bamboo.PUBLISHED["WLK-k2"]}))
    if args.json:
        args.json.write_text(json.dumps(dict(tasks=report, totals=totals, example=example, cells=cells,
                                             seeds=args.seeds, commit=WLK_REF.commit), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

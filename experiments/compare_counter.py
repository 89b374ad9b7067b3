"""The ``counter`` metric beside Counter (RikVN/DRS_parsing), pair by pair, on the PMB files of
DRS_parsing's ``data/``: clause counts, matched, certificates, F1, time.

    bash experiments/setup_counter_peer.sh            # Counter's three versions, the data, a venv
    python3 experiments/compare_counter.py [--sets all|NAME,...] [--seeds 3] [--wordnet MAP.json] [--json out.json]
    python3 experiments/compare_counter.py --sets 2.2.0-dev-doc5,...,2.2.0-dev-doc40 --seeds 0   # ours only
    python3 experiments/compare_counter.py --referee 4.0.0/dev      # Referee's verdicts beside ours
    python3 experiments/compare_counter.py --referee 2.2.0/boxer_parse_dev.txt   # a file of the release's data

Sets (each with the Counter version that reads the release; see setup_counter_peer.sh):

* ``2.2.0-dev``/``2.2.0-test``: Boxer's output against gold (Counter v.2.2.0; ours
  ``version=2019 referee=2019``: v.2.2.0's Referee, whose rules accept every DRS of these
  files, where the 2021 rules reject 2.2.0's ``DRS`` operator), and ``...-spar``: 2.2.0's SPAR
  DRS against every gold DRS;
* ``3.0.0-dev``/``3.0.0-test``: gold against itself, and ``...-spar``: the SPAR baseline DRS
  (``baseline_drs.txt``, Counter's ``-b``) against every gold DRS (Counter v.3.0.0; ours
  ``version=2021``: the tag's counter.py is 190838f's, with SY1/SY2 as operators);
* ``4.0.0-dev``/``-test``/``-eval`` and their ``-spar`` sets likewise (Counter 190838f; ours
  ``version=2021``);
* ``2.2.0-dev-docK`` (K = 5, 10, 20, 40): documents, K consecutive DRSs of Boxer's 2.2.0 dev
  output against K of gold, variables suffixed by their position (Counter ``-ill score``, ours
  ``referee=none``: Referee's checks are for sentences), the first 8K DRSs.

``--flags='-ic -dse'`` gives both sides Counter's REF and ablation flags; ``--seeds 0`` runs ours only (certificates and time of the largest DRSs); ``--wordnet FILE``
gives both sides a WordNet map; ``--referee RELEASE/SPLIT`` compares Referee's verdicts with
ours on the gold DRSs with one clause dropped from each.

Both sides read the release's ``clf_signature.yaml`` (``-g``) and no WordNet map (the map is
not in the stored repository: the peer imports a stand-in holding ``{}``).  Counter runs by
``counter_peer_driver.py`` (its own functions, ``random`` seeded) with 20 restarts for seeds
1..``--seeds`` and with 1 restart (seed 1); ours runs in this process, one pair at a time.

Printed: per set, the pairs, pairs whose clause totals are equal, ours' F1 and Counter's (20
restarts: its seeds' minimum and maximum; 1 restart), pairs where ours is below Counter's best
(must be 0), pairs where Counter falls short of ours (20 restarts, any seed / 1 restart), pairs
ours did not certify, and the seconds of each (Counter: one 20-restart run).  Under it, the
machine line.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from experiment import add_json, machine_line, markdown_table, print_results  # noqa: E402
from peer_registry import COUNTER_HOME, COUNTER_VERSIONS, PEERS  # noqa: E402
from peers import run_peer  # noqa: E402


def sets(data: Path) -> dict[str, tuple[str, Path, Path, bool]]:
    """name -> (release, test, gold, test is the single SPAR DRS)."""
    out = {}
    for split in ("dev", "test"):
        out[f"2.2.0-{split}"] = ("2.2.0", data / "pmb-2.2.0" / f"boxer_parse_{split}.txt",
                                 data / "pmb-2.2.0" / "gold" / f"{split}.txt", False)
    for split in ("dev", "test"):  # the SPAR DRS of 2.2.0 against its gold (published beside Boxer's)
        out[f"2.2.0-{split}-spar"] = ("2.2.0", data / "pmb-2.2.0" / "baseline_drs.txt",
                                      data / "pmb-2.2.0" / "gold" / f"{split}.txt", True)
    for release, splits in (("3.0.0", ("dev", "test")), ("4.0.0", ("dev", "test", "eval"))):
        for split in splits:
            gold = data / f"pmb-{release}" / "gold" / f"{split}.txt"
            out[f"{release}-{split}"] = (release, gold, gold, False)
            out[f"{release}-{split}-spar"] = (release, data / f"pmb-{release}" / "baseline_drs.txt", gold, True)
    for k in (5, 10, 20, 40):  # documents: k consecutive DRSs of Boxer's 2.2.0 dev output against gold's
        out[f"2.2.0-dev-doc{k}"] = ("2.2.0", data / "pmb-2.2.0" / "boxer_parse_dev.txt",
                                    data / "pmb-2.2.0" / "gold" / "dev.txt", False, (k, 8 * k))
    return out


def repeated(single: Path, gold: Path, folder: Path) -> Path:
    """The first DRS of ``single`` once per DRS of ``gold`` (Counter's ``-b``, as a file)."""
    from smatchpp.drs import read_clf

    n = len(read_clf(gold))
    block = "\n".join(" ".join(c) for c in read_clf(single)[0].clauses)
    out = folder / f"{single.parent.name}-{gold.stem}-spar.txt"
    out.write_text("\n\n".join([block] * n) + "\n", encoding="utf-8")
    return out


def concatenated(path: Path, k: int, limit: int, folder: Path) -> Path:
    """Every ``k`` consecutive DRSs of the first ``limit`` of ``path`` as one DRS (a document),
    each DRS's variables suffixed by its position so that they stay apart."""
    from smatchpp.drs import read_clf
    from smatchpp.drs.clauses import between_quotes

    drss = read_clf(path)[:limit]
    blocks = []
    for start in range(0, len(drss), k):
        lines = []
        for pos, d in enumerate(drss[start:start + k]):
            for c in d.clauses:
                lines.append(" ".join(t if j == 1 or between_quotes(t) else f"{t}_{pos}" for j, t in enumerate(c)))
        blocks.append("\n".join(lines))
    out = folder / f"{path.parent.name}-{path.stem}-concat{k}.txt"
    out.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return out


#: a WordNet map file for both sides (--wordnet): the peer reads it through $COUNTER_WORDNET_MAP
WORDNET: list[str] = []
#: Counter's flags given to both sides (--flags), and the counter metric's parameter of each
FLAGS: list[str] = []
FLAG_PARAMS = {"-ic": "include_ref", "-dse": "default_sense", "-dr": "default_role", "-dc": "default_concept"}


def ours(release: str, test: Path, gold: Path, signature: Path,
         referee: str | None = None) -> tuple[list[dict], float]:
    from smatchpp.drs import read_clf
    from smatchpp.metrics import get_metric

    version, default_referee = COUNTER_VERSIONS[release][1:]
    referee = referee or default_referee
    m = get_metric("counter", signature_file=str(signature), version=version, referee=referee,
                   wordnet=WORDNET[0] if WORDNET else None, **{FLAG_PARAMS[f]: True for f in FLAGS})
    t0 = time.perf_counter()
    rows = []
    for k, (a, b) in enumerate(zip(read_clf(test), read_clf(gold))):
        matched, upper, t, g = m.stats(m.features(a), m.features(b))
        rows.append({"index": k, "matched": matched, "upper": upper, "test": t, "gold": g})
    return rows, time.perf_counter() - t0


def referee_agreement(release: str, gold: Path, folder: Path) -> dict:
    """Referee's verdicts beside ours on ``gold`` with one clause dropped from each DRS (clause
    ``index mod size``; most such DRSs are ill-formed: a referent left unbound, a box cut off)."""
    import subprocess

    from smatchpp.drs import IllFormed, check, load_signature, read_clf

    src = COUNTER_HOME / COUNTER_VERSIONS[release][0] / "evaluation"
    drss = read_clf(gold)
    mutated = [d.clauses[:d.index % len(d.clauses)] + d.clauses[d.index % len(d.clauses) + 1:] for d in drss]
    path = folder / f"{gold.stem}-mutated.txt"
    path.write_text("\n\n".join("\n".join(" ".join(c) for c in m) for m in mutated if m) + "\n", encoding="utf-8")
    mutated = [m for m in mutated if m]
    out = subprocess.run([str(PEERS["counter"].python), str(PEERS["counter"].driver), "--peer-src", str(src),
                          "--referee", str(path), "-g", "clf_signature.yaml"], check=True, capture_output=True,
                         text=True).stdout
    theirs = [json.loads(x)["ok"] for x in out.splitlines() if x.startswith("{")]
    sig = load_signature(src / "clf_signature.yaml")

    def ok(clauses) -> bool:
        try:
            check(clauses, sig, COUNTER_VERSIONS[release][2])
            return True
        except IllFormed:
            return False

    mine = [ok(m) for m in mutated]
    return {"drss": len(mine), "ill_formed_referee": theirs.count(False), "ill_formed_ours": mine.count(False),
            "same_verdict": sum(a == b for a, b in zip(mine, theirs)), "read_by_referee": len(theirs)}


def f1(m: float, t: float, g: float) -> float:
    p, r = (m / t if t else 0.0), (m / g if g else 0.0)
    return 2 * p * r / (p + r) if p + r else 0.0


def compare(name: str, spec, seeds: int, folder: Path) -> dict:
    release, test, gold, spar = spec[:4]
    extra: tuple[str, ...] = ()
    if len(spec) > 4:  # documents: k DRSs a pair (Referee's checks are for sentences: -ill score)
        k, limit = spec[4]
        test, gold = concatenated(test, k, limit, folder), concatenated(gold, k, limit, folder)
        extra = ("-ill", "score")
    src = COUNTER_HOME / COUNTER_VERSIONS[release][0] / "evaluation"
    signature = src / "clf_signature.yaml"
    if spar:
        test = repeated(test, gold, folder)
    peer = PEERS["counter"]
    lead = ("--peer-src", str(src))

    def peer_run(*options: str):
        run = run_peer(peer.tool, [str(peer.driver), *lead, str(test), str(gold), "-g", "clf_signature.yaml",
                                   *extra, *FLAGS, *options], python=peer.python)
        if run.status != "ok":
            raise SystemExit(f"Counter failed on {name}: {run.status}\n{run.stderr_tail}")
        return run

    mine, seconds = ours(release, test, gold, signature, "none" if extra else None)
    if seeds == 0:  # ours only (the largest DRSs: is every pair certified, and how fast)
        return {"set": name, "pairs": len(mine), "clauses": [sum(o["test"] for o in mine), sum(o["gold"] for o in mine)],
                "f1_ours": f1(sum(o["matched"] for o in mine), sum(o["test"] for o in mine),
                              sum(o["gold"] for o in mine)),
                "uncertified": sum(o["matched"] != o["upper"] for o in mine), "seconds_ours": seconds}
    r20 = [peer_run("-r", "20", "--seed", str(s)) for s in range(1, seeds + 1)]
    r1 = peer_run("-r", "1", "--seed", "1")
    by = [{p["index"]: p for p in run.pairs} for run in r20 + [r1]]
    n = len(mine)
    tot = lambda k: sum(o[k] for o in mine)  # noqa: E731
    best20 = [max(b[o["index"]]["matched"] for b in by[:-1]) for o in mine]
    return {
        "set": name, "pairs": n, "counter": COUNTER_VERSIONS[release][0][:7],
        "totals_equal": sum((o["test"], o["gold"]) == (by[0][o["index"]]["test_clauses"],
                                                       by[0][o["index"]]["gold_clauses"]) for o in mine),
        "f1_ours": f1(tot("matched"), tot("test"), tot("gold")),
        "f1_counter_r20": [run.f1 for run in r20], "f1_counter_r1": r1.f1,
        "ours_below_counter": sum(o["matched"] < b for o, b in zip(mine, best20)),
        "counter_r20_short_any_seed": sum(any(b[o["index"]]["matched"] < o["matched"] for b in by[:-1])
                                          for o in mine),
        "counter_r1_short": sum(by[-1][o["index"]]["matched"] < o["matched"] for o in mine),
        "uncertified": sum(o["matched"] != o["upper"] for o in mine),
        "seconds_ours": seconds, "seconds_counter_r20": r20[0].score_seconds,
        "clauses": [tot("test"), tot("gold")],
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="all", help="all, or names separated by commas")
    ap.add_argument("--referee", default=None, metavar="RELEASE/SPLIT",
                    help="only Referee's verdicts beside ours on the gold DRSs of RELEASE/SPLIT (4.0.0/dev) "
                         "with one clause dropped from each")
    ap.add_argument("--seeds", type=int, default=3, help="Counter's 20-restart runs (seeds 1..N); 0: ours only")
    ap.add_argument("--wordnet", default=None, metavar="FILE",
                    help="a WordNet map (JSON: concept.pos.nn -> synset.pos.nn) for both sides")
    ap.add_argument("--flags", default="", help="Counter's flags for both sides, among -ic -dse -dr -dc "
                                                "(one string: --flags='-ic -dse')")
    add_json(ap)
    args = ap.parse_args(argv)
    FLAGS.extend(args.flags.split())
    if set(FLAGS) - set(FLAG_PARAMS):
        ap.error(f"--flags: only {' '.join(FLAG_PARAMS)}")
    if args.wordnet:
        WORDNET.append(str(Path(args.wordnet).resolve()))
        os.environ["COUNTER_WORDNET_MAP"] = WORDNET[0]
    if not PEERS["counter"].ready():
        raise SystemExit(f"Counter is not set up: {PEERS['counter'].setup_hint}")
    if args.referee:
        release, split = args.referee.split("/")
        with tempfile.TemporaryDirectory(prefix="counter-") as tmp:
            folder = COUNTER_HOME / "data" / f"pmb-{release}"
            got = referee_agreement(release, folder / split if split.endswith(".txt")
                                    else folder / "gold" / f"{split}.txt", Path(tmp))
        print(markdown_table(list(got), [list(got.values())]))
        return 0
    known = sets(COUNTER_HOME / "data")
    names = list(known) if args.sets == "all" else args.sets.split(",")
    rows = []
    with tempfile.TemporaryDirectory(prefix="counter-") as tmp:
        for name in names:
            rows.append(compare(name, known[name], args.seeds, Path(tmp)))
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    if args.seeds == 0:
        print(markdown_table(["set", "pairs", "clauses test/gold", "clauses per pair", "F1 ours", "uncertified",
                              "s ours"],
                             [[r["set"], r["pairs"], f"{r['clauses'][0]:.0f}/{r['clauses'][1]:.0f}",
                               f"{r['clauses'][0] / r['pairs']:.0f}", f"{100 * r['f1_ours']:.2f}", r["uncertified"],
                               f"{r['seconds_ours']:.1f}"] for r in rows]))
        print(machine_line())
        return 0
    table = [[r["set"], r["counter"], r["pairs"], r["totals_equal"], f"{r['clauses'][0]:.0f}/{r['clauses'][1]:.0f}",
              f"{100 * r['f1_ours']:.2f}",
              f"{100 * min(r['f1_counter_r20']):.2f}-{100 * max(r['f1_counter_r20']):.2f}",
              f"{100 * r['f1_counter_r1']:.2f}", r["ours_below_counter"], r["counter_r20_short_any_seed"],
              r["counter_r1_short"], r["uncertified"], f"{r['seconds_ours']:.1f}", f"{r['seconds_counter_r20']:.1f}"]
             for r in rows]
    print_results(["set", "Counter", "pairs", "totals equal", "clauses test/gold", "F1 ours",
                          f"F1 Counter r20 ({args.seeds} seeds)", "F1 Counter r1", "ours below", "Counter r20 short",
                          "Counter r1 short", "uncertified", "s ours", "s Counter r20"], table, rows, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())

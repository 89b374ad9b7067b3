"""Run Counter (RikVN/DRS_parsing, evaluation/counter.py) pair by pair, with the peer's interpreter.

    PEER_PYTHON experiments/counter_peer_driver.py --peer-src DIR/evaluation TEST GOLD
        [--out PAIRS.jsonl] [--seed N] [COUNTER OPTIONS: -r 20 -g SIG -ic -ill dummy -dse ...]

Counter's own functions read the two files (``get_clauses``: Referee's check, the -ill policy,
-Of inversion, REF pruning) and score every pair (``get_matching_clauses``: the clause building
and its hill-climber), with Python's ``random`` seeded once.  Per pair, a JSON line:
``index``, ``matched``, ``test_clauses``, ``gold_clauses``, ``seconds``; on stdout one JSON
summary: pairs, f1 (Counter's micro F1 of the summed counts, unrounded), seconds, errors.
With ``--detailed`` Counter also divides the matched clauses (``-nm`` left out: its
``get_mappings``), and each line adds ``detail`` (its eight detailed counts of the pair:
matched, test, gold, as ``get_matching_clauses`` returns them for ``-prin``) and ``mapping``
(its best mapping as ``[test variable, gold variable]`` names, recorded from its
``get_best_match``) and ``clauses`` (``-ds``'s counts of the pair: ``[name, matched, test,
gold]`` in its order, its ``idv_dict``).
Nothing of Counter is copied: the driver imports it from ``--peer-src`` (outside the repo).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time


def main() -> int:
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--peer-src", required=True)
    ap.add_argument("--out", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--detailed", action="store_true",
                    help="also Counter's detailed counts of each pair and its best mapping by variable names")
    ap.add_argument("--referee", default=None, metavar="FILE",
                    help="only Referee's verdict on each DRS of FILE (a JSON line each: index, ok, error)")
    ours, rest = ap.parse_known_args()
    if ours.referee:
        return referee(ours.peer_src, ours.referee, rest)
    files = [x for x in rest if not x.startswith("-")][:2]
    options = rest[:]
    for f in files:
        options.remove(f)
    src = os.path.abspath(ours.peer_src)
    sys.path.insert(0, src)
    os.chdir(src)  # Counter imports its siblings and reads clf_signature.yaml relative to it
    import counter  # noqa: E402  (the peer's module)

    sys.argv = ["counter.py", "-f1", files[0], "-f2", files[1], *([] if ours.detailed else ["-nm"]), *options]
    args = counter.build_arg_parser()
    counter.args = args  # get_clauses reads the module's global args
    from wordnet_dict_en import en_sense_dict  # the peer's map (a stand-in unless one is given)

    found: list = []
    if ours.detailed:  # record each pair's best mapping (by the variables' names) as Counter returns it
        best_match = counter.get_best_match

        def recording(prod_drs, gold_drs, *rest):
            res = best_match(prod_drs, gold_drs, *rest)
            found.append([[prod_drs.var_map[f"{prod_drs.prefix}{i}"], gold_drs.var_map[f"{gold_drs.prefix}{j}"]]
                          for i, j in enumerate(res[0]) if j >= 0])
            return res

        counter.get_best_match = recording
    signature = counter.get_signature(args.sig_file)
    gold, orig_gold = counter.get_clauses(args.f2, signature, args.ill)
    test, orig_test = counter.get_clauses(args.f1, signature, args.ill)
    if len(gold) != len(test):
        print(json.dumps({"error": f"{len(test)} test DRSs, {len(gold)} gold DRSs"}))
        return 1
    random.seed(ours.seed)
    single = len(gold) == 1
    with_signature = "signature" in counter.DRS.__init__.__code__.co_varnames
    out = open(ours.out, "w") if ours.out else None
    totals = [0, 0, 0]
    start = time.perf_counter()
    errors = 0
    for k, (t, g) in enumerate(zip(test, gold)):
        t0 = time.perf_counter()
        arg_list = [t, g, args, single, orig_test[k], orig_gold[k], en_sense_dict]
        if with_signature:
            arg_list.append(signature)
        try:
            res = counter.get_matching_clauses(arg_list)
        except Exception as exc:  # one pair's failure is recorded, the run goes on
            errors += 1
            rec = {"index": k, "error": f"{type(exc).__name__}: {exc}"}
        else:
            if res == "skip":
                rec = {"index": k, "error": "skipped (-m)"}
            else:
                rec = {"index": k, "matched": res[0], "test_clauses": res[1], "gold_clauses": res[2],
                       "found_at_restart": res[4], "seconds": time.perf_counter() - t0}
                if ours.detailed:
                    rec.update(detail=[res[5], res[6], res[7]], mapping=found[-1],
                               clauses=[[name, *counts] for name, counts in res[9].items()])
                for i in range(3):
                    totals[i] += res[i]
        if out:
            out.write(json.dumps(rec) + "\n")
    if out:
        out.close()
    m, te, go = totals
    p = m / te if te else 0.0
    r = m / go if go else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    print(json.dumps({"pairs": len(gold), "matched": m, "test_clauses": te, "gold_clauses": go, "f1": f1,
                      "seconds": time.perf_counter() - start, "errors": errors}))
    return 0


def referee(src: str, path: str, options: list) -> int:
    """Referee's ``check_clf`` on each DRS of ``path``, read as Counter reads it (``-g SIG``)."""
    src = os.path.abspath(src)
    path = os.path.abspath(path)
    sys.path.insert(0, src)
    os.chdir(src)
    from clf_referee import check_clf, get_signature

    sig = get_signature(options[options.index("-g") + 1]) if "-g" in options else {}
    drs, k = [], 0
    lines = open(path, encoding="utf-8").read().split("\n") + [""]
    for line in lines:  # Counter's get_clauses: comments, blank lines, " %" comments
        if line.strip().startswith("%"):
            continue
        if not line.strip():
            if drs:
                try:
                    check_clf([tuple(c) for c in drs], sig, v=False)
                    rec = {"index": k, "ok": True}
                except Exception as exc:  # Referee raises several kinds
                    rec = {"index": k, "ok": False, "error": f"{type(exc).__name__}: {exc}"}
                print(json.dumps(rec))
                drs, k = [], k + 1
            continue
        drs.append(line.split(" %", 1)[0].strip().split())
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The terminal view of ``explain --metric X``: a pair result of any metric, as its
``--pairs-out`` line (:meth:`smatchpp.metrics.base.Metric.pair_json` with ``details``).

The view draws what the line holds: the pair's numbers (P/R/F1 where the metric has them,
else its headline score), its statistics, then the metric's explanation, when it gives one
(:meth:`Metric.explain`):

* ``clauses_a``/``clauses_b`` (Counter): the certificate, the variable mapping (boxes and
  discourse referents, and the variables left unaligned), and each side's clauses as Counter
  matches them, a matched clause tagged with the number of its pair (``[2]`` in A and ``[2]`` in
  B are matched to each other), an unmatched one with ``[-]`` (in red with ``color``);
* ``plan`` (WWLK): the optimal transport plan, flow by flow (a flow that costs in red);
* anything else: each key and its JSON value.

:func:`worst` picks the pairs of ``--worst N``: the lowest by the metric's headline score.

>>> from smatchpp.drs import read_clf_text
>>> from smatchpp.metrics import MetricPair, get_metric
>>> a, b = read_clf_text('''b1 REF x1
... b1 dog "n.01" x1
... b1 Agent e1 x1
... b1 REF e1
... b1 bark "v.01" e1
...
... b2 REF y1
... b2 cat "n.01" y1
... b2 Theme e2 y1
... b2 REF e2
... b2 bark "v.01" e2''')
>>> m = get_metric("counter")
>>> fa, fb = m.features(a), m.features(b)
>>> pair = MetricPair(0, "s1", m.stats(fa, fb), explanation=m.explain(fa, fb))
>>> print(render(m.pair_json(pair, details=True)))
pair 0 (id s1): P 33.33  R 33.33  F1 33.33  (matched 1 of test 3 / gold 3)
certificate: optimal (matched 1 = the proven upper bound)
mapping (A -> B):
  boxes: b1 -> b2
  referents: e1 -> e2
  unaligned: A x1; B y1
clauses of A (test): 3, 1 matched
  [-] b1 dog "n.01" x1
  [-] b1 Agent e1 x1
  [1] b1 bark "v.01" e1
clauses of B (gold): 3, 1 matched
  [-] b2 cat "n.01" y1
  [-] b2 Theme e2 y1
  [1] b2 bark "v.01" e2
"""

from __future__ import annotations

import json
import math
from typing import Any, Sequence

from ..core.text import printable
from .terminal import UNMATCHED, paint

__all__ = ["render", "worst"]

def _paint(text: str, color: bool) -> str:
    """``text`` (from the input: control characters escaped, never obeyed) in red with ``color``."""
    return paint(printable(text), UNMATCHED, color)


def _pct(x: Any) -> str:
    return "n/a" if x is None else f"{100 * x:.2f}"


def _num(x: Any) -> str:
    return "n/a" if x is None else f"{x:g}"


#: the keys of a pair's line that are its numbers, not its explanation (:meth:`MetricPair.to_json`)
_NUMBERS = ("index", "id", "score", "precision", "recall", "f1", "f1_upper", "error", "status")


def _head(line: dict[str, Any], stat_names: Sequence[str]) -> str:
    index, id_ = line["index"], line.get("id")
    head = f"pair {index}" + (f" (id {id_})" if id_ is not None and id_ != str(index) else "")
    if line.get("score") is None and line.get("status") == "skipped":
        return f"{head}: skipped"
    stats = "  (" + ", ".join(f"{k} {_num(line.get(k))}" for k in stat_names) + ")" if stat_names else ""
    if all(k in line for k in ("precision", "recall", "f1")):
        if all(k in line for k in ("matched", "test", "gold")):
            stats = f"  (matched {_num(line['matched'])} of test {_num(line['test'])} / gold {_num(line['gold'])})"
        return (f"{head}: P {_pct(line['precision'])}  R {_pct(line['recall'])}  F1 {_pct(line['f1'])}"
                + stats)
    return f"{head}: score {_pct(line.get('score'))}" + stats


def _certificate(line: dict[str, Any]) -> str:
    status, matched, upper = line.get("status"), line.get("matched"), line.get("upper")
    if status == "optimal":
        return f"certificate: optimal (matched {_num(matched)} = the proven upper bound)"
    return (f"certificate: not proven ({status}): matched {_num(matched)}, upper bound {_num(upper)}; "
            f"F1 in [{_pct(line.get('f1'))}, {_pct(line.get('f1_upper'))}]")


def _mapping(pairs: Sequence[Sequence[str]]) -> str:
    return ", ".join(f"{a} -> {b}" for a, b in pairs) or "(none)"


def _clauses(line: dict[str, Any], color: bool) -> list[str]:
    """Counter's view: certificate, mapping, each side's clauses marked."""
    out = [_certificate(line), "mapping (A -> B):", printable(f"  boxes: {_mapping(line.get('boxes', []))}"),
           printable(f"  referents: {_mapping(line.get('referents', []))}")]
    free_a, free_b = line.get("unaligned_a", []), line.get("unaligned_b", [])
    if free_a or free_b:
        out.append(printable(f"  unaligned: A {' '.join(free_a) or '(none)'}; B {' '.join(free_b) or '(none)'}"))
    # a matched pair of clauses gets one number, in A's order
    number = {i: k for k, i in enumerate((i for i, c in enumerate(line["clauses_a"]) if c["match"] is not None),
                                         start=1)}
    for side, name in (("a", "A (test)"), ("b", "B (gold)")):
        clauses = line[f"clauses_{side}"]
        out.append(f"clauses of {name}: {len(clauses)}, {sum(c['match'] is not None for c in clauses)} matched")
        for i, c in enumerate(clauses):
            if c["match"] is None:
                never = "  (Counter never matches this clause)" if c.get("never") else ""
                out.append(_paint(f"  [-] {c['clause']}{never}", color))
            else:
                out.append(printable(f"  [{number[i if side == 'a' else c['match']]}] {c['clause']}"))
    return out


def _plan(line: dict[str, Any], color: bool) -> list[str]:
    """WWLK's view: the optimal transport plan, flow by flow."""
    out = ["transport plan (A node -> B node: mass, cost; the sum of mass x cost is 1 - score):"]
    for f in line["plan"]:
        text = f"  {f.get('a_label')} -> {f.get('b_label')}: mass {f['mass']:.4f}, cost {f['cost']:.4f}"
        out.append(_paint(text, color) if f["cost"] > 0 else printable(text))
    return out


def render(line: dict[str, Any], color: bool = False, stat_names: Sequence[str] = ()) -> str:
    """A pair's ``--pairs-out`` line as terminal text (``stat_names``: the metric's statistics,
    shown in the head line where it is not P/R/F1 of matched items)."""
    lines = [printable(_head(line, stat_names))]
    if line.get("error"):
        lines.append(printable(f"error: {line['error']}"))
    if "clauses_a" in line:
        lines += _clauses(line, color)
    elif "plan" in line:
        lines += _plan(line, color)
    else:
        shown = set(_NUMBERS) | set(stat_names) | {"matched", "upper", "test", "gold"}
        lines += [printable(f"{k}: {json.dumps(v)}") for k, v in line.items() if k not in shown]
    return "\n".join(lines)


def worst(pairs: Sequence[Any], scores: Sequence[float | None], n: int) -> list[Any]:
    """The ``n`` pairs with the lowest score, lowest first (ties: lower index first); a pair
    without a score (skipped, or not a number) is not ranked.

    >>> worst(["a", "b", "c", "d"], [0.5, None, 0.2, 0.5], 2)
    ['c', 'a']
    """
    ranked = [(s, k) for k, s in enumerate(scores) if s is not None and not math.isnan(s)]
    return [pairs[k] for _, k in sorted(ranked)[:n]]

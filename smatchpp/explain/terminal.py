"""Terminal view of one :class:`~smatchpp.explain.Explanation`.

Both graphs in PENMAN, every aligned variable tagged with the number of its
aligned pair (``d[1]`` in A and ``y[1]`` in B are aligned; ``[-]`` marks an
unaligned variable) and, with ``color=True``, drawn in that pair's colour
(unaligned variables in red).  Concepts and roles of unmatched triples are
underlined in red (without colour: followed by ``(!)``).
Then the unmatched triples of each side, the certificate, and what the
hill-climber lost.

>>> from smatchpp.explain import explain_pair
>>> e = explain_pair("(d / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
>>> print(render(e, color=False))  # doctest: +NORMALIZE_WHITESPACE
pair 0: P 75.00  R 75.00  F1 75.00  (matched 3 of test 4 / gold 4 triples)
certificate: optimal (proved by the branch_and_bound stage)
A (test):
(d[1] / dog
   :ARG0-of (b[2] / bark-01))
B (gold):
(x[2] / bark-01
   :ARG0 (y[1] / dog))
unmatched triples of A (test): 1
  (d, top, top)
unmatched triples of B (gold): 1
  (x, top, top)
hill-climber: smatchpp's seeded hill-climber (4 random restarts, seed 1): matched 3 (gap 0), same alignment
"""

from __future__ import annotations

import os
import sys
from typing import IO

from ..core.text import printable
from .model import Explanation
from .penman_view import Seg, branch_triples, penman_lines

__all__ = ["render", "supports_color", "paint", "UNMATCHED"]

#: well-separated xterm-256 colours, cycled over the aligned pairs
_PALETTE = (33, 208, 34, 163, 37, 130, 99, 161, 28, 166, 62, 136)
_RED = "\033[1;31m"
_RESET = "\033[0m"


def supports_color(stream: IO | None = None) -> bool:
    """Colour only on a terminal, never with ``NO_COLOR`` set or ``TERM=dumb``."""
    stream = stream or sys.stdout
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return hasattr(stream, "isatty") and stream.isatty()


def _tags(e: Explanation, hc: bool = False) -> tuple[dict[str, int], dict[str, int]]:
    """Variable name -> aligned pair number (1-based, in A's variable order), per side."""
    ta, tb = {}, {}
    for k, (va, vb) in enumerate(e.aligned_pairs(hc), start=1):
        ta[va], tb[vb] = k, k
    return ta, tb


#: the colour of what did not match
UNMATCHED = "\033[31m"


def paint(text: str, code: str, color: bool) -> str:
    """``text`` in the ANSI colour ``code`` with ``color``, else as it is."""
    return f"{code}{text}{_RESET}" if color else text


def _graph(lines: list[list[Seg]], tags: dict[str, int], instance_ok: dict[str, bool],
           color: bool, branch_ok: dict[int, bool]) -> list[str]:
    out = []
    for line in lines:
        parts = []
        for s in line:
            text = printable(s.text)  # the input's text is shown, never obeyed by the terminal
            if s.kind in ("var", "ref"):
                k = tags.get(s.var or "")
                code = f"\033[1;38;5;{_PALETTE[(k - 1) % len(_PALETTE)]}m" if k else _RED
                tag = f"[{k}]" if k else "[-]"
                parts.append(paint(text + (tag if s.kind == "var" else ""), code, color))
            elif s.kind == "concept" and not instance_ok.get(s.var or "", True):
                parts.append(paint(text, "\033[4;31m", color) if color else text + "(!)")
            elif s.kind == "role" and not branch_ok.get(id(s), True):
                parts.append(paint(text, "\033[4;31m", color) if color else text + "(!)")
            else:
                parts.append(text)
        out.append("".join(parts))
    return out


def _triples(e: Explanation, side: str, which: list[int]) -> list[str]:
    g = e.a if side == "a" else e.b
    ts = g.triples()
    return [printable(f"  ({', '.join(ts[t])})") for t in which]


def _instance_ok(e: Explanation, side: str) -> dict[str, bool]:
    g, mask = (e.a, e.opt.mask_a) if side == "a" else (e.b, e.opt.mask_b)
    return {v: bool(mask[i]) for i, v in enumerate(g.variables)}


def render(e: Explanation, color: bool = False) -> str:
    """The explanation as terminal text (ANSI colours with ``color=True``)."""
    p, r, f = e.score.precision, e.score.recall, e.score.f1
    head = f"pair {e.index}" + (f" (id {e.id})" if e.id is not None and e.id != str(e.index) else "")
    lines = [f"{printable(head)}: P {100 * p:.2f}  R {100 * r:.2f}  F1 {100 * f:.2f}  "
             f"(matched {e.matched:g} of test {e.test_triples} / gold {e.gold_triples} triples)"]
    if e.sentence:
        lines.append(printable(f"sentence: {e.sentence}"))
    lines.append(f"certificate: {e.certificate()}")
    ta, tb = _tags(e)
    for side, name, raw, g, tags, mask in (("a", "A (test)", e.raw_a, e.a, ta, e.opt.mask_a),
                                           ("b", "B (gold)", e.raw_b, e.b, tb, e.opt.mask_b)):
        lines.append(f"{name}:")
        view = penman_lines(raw, g)
        branch_ok = {k: bool(mask[t]) for k, t in branch_triples(view, g).items()}
        lines += _graph(view, tags, _instance_ok(e, side), color, branch_ok)
    for side, name, which in (("a", "A (test)", e.unmatched_a()), ("b", "B (gold)", e.unmatched_b())):
        lines.append(f"unmatched triples of {name}: {len(which)}")
        lines += [paint(x, UNMATCHED, color) for x in _triples(e, side, which)]
    if e.soft:
        lines.append(f"soft concept matches under {e.matcher} (labels differ, credit = similarity):")
        lines += [printable(f"  {e.a.variables[i]} / {e.a.concepts[i]} ~ {e.b.variables[j]} / "
                            f"{e.b.concepts[j]}: {v:.3f}") for i, j, v in e.soft]
    same = "same alignment" if not e.alignments_differ else "different alignment"
    lines.append(f"hill-climber: {e.hc_name}: matched {e.hc_matched:g} (gap {e.hc_gap:g}), {same}")
    if e.alignments_differ:
        opt, hc = dict(e.aligned_pairs()), dict(e.aligned_pairs(hc=True))
        changed = [v for v in e.a.variables if opt.get(v) != hc.get(v)]
        lines.append("  variables aligned differently (A: optimal / hill-climber):")
        lines += [printable(f"    {v}: {opt.get(v, '-')} / {hc.get(v, '-')}") for v in changed]
        for side, name, lost, gained in (("a", "A (test)", e.lost_a(), e.gained_a()),
                                         ("b", "B (gold)", e.lost_b(), e.gained_b())):
            if lost:
                lines.append(f"  triples of {name} the hill-climber lost: {len(lost)}")
                lines += [paint("  " + x, UNMATCHED, color) for x in _triples(e, side, lost)]
            if gained:
                lines.append(f"  triples of {name} only the hill-climber matches: {len(gained)}")
                lines += ["  " + x for x in _triples(e, side, gained)]
    return "\n".join(lines)

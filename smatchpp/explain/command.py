"""What ``smatchpp explain`` shows once its pairs are explained: the choice among them, the
``--pairs-out`` lines, the HTML report and the terminal view (the command line,
:mod:`smatchpp.cli.explain`, parses the options, reads the pairs and explains them through
the command template, and hands the options here as :class:`Views`).

    smatchpp explain A B -o report.html [--pairs 3,17] [--worst N] [--gaps]
               [--gap-file GAP.jsonl [--gaps-of smatch104]]
    smatchpp explain A B --pair 3 [--color auto|always|never]

Without ``html`` the chosen pairs are printed in the terminal view.

>>> from smatchpp.explain.model import explain_pair
>>> e = explain_pair("(d / dog)", "(c / cat)")
>>> show(Views(test="a", gold="b", color="never"), [e], None)  # doctest: +ELLIPSIS
pair 0: P 50.00  R 50.00  F1 50.00  (matched 1 of test 2 / gold 2 triples)
certificate: optimal (proved by the label_bound stage)
...
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from typing import Sequence

from ..api import Scorer
from .html import MAX_DRAW, write_report
from .select import OURS, GapFile, select
from .terminal import render, supports_color

__all__ = ["Views", "show", "MAX_DRAW"]

#: the tools of --gaps-of as the report's note names them
_TOOL_NAMES = {OURS: "the seeded hill-climber", "smatch104": "smatch 1.0.4"}


@dataclass(frozen=True)
class Views:
    """What ``explain`` shows of its explanations (its options, as parsed): the inputs' names
    (``test``, ``gold``: the report's default title), the HTML report (``html``, ``title``,
    ``max_draw``), the ``--pairs-out`` file (``json``), the terminal view (``pair``, ``color``),
    and the choice (``pairs``: the ``--pairs`` text, ``listed``: how many pairs it lists,
    ``worst``, ``gaps``: ``True`` for every hill-climber's, or the tools named)."""

    test: str
    gold: str
    html: str | None = None
    json: str | None = None
    title: str | None = None
    max_draw: int = MAX_DRAW
    pair: int | None = None
    pairs: str | None = None
    listed: int = 0
    worst: int | None = None
    gaps: bool | list[str] = False
    color: str = "auto"


def show(views: Views, explanations: Sequence, config, gap_file: GapFile | None = None,
         stopped: str = "", seconds: float = 0.0) -> None:
    """Select among ``explanations`` (:func:`~.select.select`), write the ``--pairs-out`` lines
    and the HTML report (its note saying how the pairs were chosen and ``stopped``, the interrupt,
    if one stopped the explaining; ``seconds``: the explaining's time, in the message) and/or
    print the terminal view."""
    began = time.perf_counter()
    chosen = select(explanations, worst=views.worst, gaps=views.gaps,
                    columns=gap_file.columns if gap_file else None)
    if views.json:
        with open(views.json, "w", encoding="utf-8") as out:
            for e in chosen:
                out.write(json.dumps(e.to_json()) + "\n")
    if views.html:
        extra = gap_file.headers() if gap_file else {}
        gaps = views.gaps
        below = ("" if not gaps else
                 "where the seeded hill-climber is below the optimum" if gaps is True and not extra else
                 "where a hill-climber (ours or of the gap file) is below the optimum" if gaps is True else
                 f"where {' or '.join(_TOOL_NAMES.get(t, t) for t in gaps)} is below the optimum")
        how = [(f"pairs {views.pairs}" if len(views.pairs) <= 60 else f"{views.listed} pairs listed by --pairs")
               if views.pairs else "",
               below,
               f"the {views.worst} with the lowest F1, lowest first" if views.worst else ""]
        note = "; ".join(x for x in how if x)
        note = "; ".join(x for x in (("Chosen: " + note) if note else "", stopped.capitalize()) if x)
        write_report(views.html, chosen, title=views.title or f"smatchpp explain: {views.test} vs {views.gold}",
                     signature=Scorer(config).signature,
                     note=note, max_draw=views.max_draw, extra=extra,
                     corpus=Scorer(config).corpus([e.score for e in explanations]))
        written = time.perf_counter()
        print(f"wrote {views.html}: {len(chosen)} pairs (explained {len(explanations)} in "
              f"{seconds:.1f} s, report in {written - began:.1f} s)", file=sys.stderr)
    if not views.html or views.pair is not None:
        color = views.color == "always" or (views.color == "auto" and supports_color(sys.stdout))
        shown = [e for e in chosen if views.pair is None or e.index == views.pair]
        print("\n\n".join(render(e, color) for e in shown))

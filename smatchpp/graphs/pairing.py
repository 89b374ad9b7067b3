"""Can two files be paired graph by graph?  Diagnoses for count mismatches, shifted ids, no input.

Smatch pairs the ``k``-th graph of one file with the ``k``-th graph of the
other.  When the counts differ, :func:`check_pairing` says which graphs look
wrong (two graphs without a blank line between them, a graph split by a blank
line, other unreadable graphs, where the ``# ::id`` sequences part); when they
agree, it still warns about ids that disagree at the same index, because a
shifted file scores silently wrong, and about inputs without any graph.

>>> from smatchpp.graphs.read import read_text
>>> a = read_text("# ::id 1\\n(a / dog)\\n# ::id 2\\n(b / cat)\\n\\n# ::id 3\\n(c / bird)", "a.amr")
>>> b = read_text("# ::id 1\\n(x / dog)\\n\\n# ::id 2\\n(y / cat)\\n\\n# ::id 3\\n(z / bird)", "b.amr")
>>> print(check_pairing(a, b).mismatch)
a.amr has 2 graphs but b.amr has 3 graphs: the files must be parallel. Suspicious graphs:
  a.amr:4: graph 0: two graphs without a blank line between them? (unexpected text after the end of the graph: '(b / cat)' ...)
  a.amr:7: graph 1 has id 3 but b.amr:5: graph 1 has id 2; id 3 is graph 2 of b.amr
>>> c = read_text("# ::id 1\\n(x / dog)\\n\\n# ::id 3\\n(z / bird)", "c.amr")
>>> check = check_pairing(c, read_text("# ::id 1\\n(a / dog)\\n\\n# ::id 2\\n(b / cat)", "d.amr"))
>>> check.mismatch is None, check.warnings
(True, ('graph 1: c.amr:5 has id 3 but d.amr:5 has id 2 (1 of 2 graphs with ids on both sides disagree: is one file shifted?)',))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .read import Entry

__all__ = ["PairingCheck", "check_pairing", "IdCheck"]

#: how many suspicious graphs or id disagreements a diagnosis lists
LIMIT = 5

_MERGED = "unexpected text after the end of the graph"
_CUT_HEAD = "Unexpected end of input"
_CUT_TAIL = "Expected: LPAREN"


@dataclass(frozen=True)
class PairingCheck:
    """``mismatch``: why the inputs cannot be paired (``None``: they can);
    ``warnings``: what may make the pairing wrong although the counts agree."""

    mismatch: str | None
    warnings: tuple[str, ...] = ()


def check_pairing(entries_a: Sequence[Entry], entries_b: Sequence[Entry],
                   path_a: str | None = None, path_b: str | None = None) -> PairingCheck:
    """Check that ``entries_a`` and ``entries_b`` (as :func:`~smatchpp.graphs.read.read_file` returns
    them) can be paired graph by graph; ``path_a``/``path_b`` name empty inputs."""
    name_a = path_a or (entries_a[0].path if entries_a else "the first input")
    name_b = path_b or (entries_b[0].path if entries_b else "the second input")
    if len(entries_a) == len(entries_b):
        warnings = _id_warnings(entries_a, entries_b)
        if not entries_a:
            warnings.append(f"{name_a} and {name_b} hold no graph: nothing is scored "
                            "(the summary reports 0 pairs and F1 0)")
        return PairingCheck(None, tuple(warnings))
    suspects = []
    for name, entries in ((name_a, entries_a), (name_b, entries_b)):
        if not entries:
            suspects.append(f"{name} holds no graph: is it the right file?")
        suspects += _malformed(entries)
    suspects += _id_shift(entries_a, entries_b, name_a, name_b)
    if not suspects:
        suspects.append("no graph looks malformed and there are no ids to compare: "
                        "check the blank lines between the graphs")
    shown = suspects[:2 * LIMIT] + ([f"... and {len(suspects) - 2 * LIMIT} more"]
                                    if len(suspects) > 2 * LIMIT else [])
    return PairingCheck(
        f"{name_a} has {_graphs(len(entries_a))} but {name_b} has {_graphs(len(entries_b))}: the files must "
        "be parallel. Suspicious graphs:\n" + "\n".join("  " + s for s in shown))


def _graphs(n: int) -> str:
    return f"{n} graph" if n == 1 else f"{n} graphs"


def _where(entry: Entry) -> str:
    return f"{entry.path}:{entry.line}: graph {entry.index}"


def _malformed(entries: Sequence[Entry]) -> list[str]:
    """Unreadable graphs, with the likely cause when their error tells it."""
    out = []
    for k, e in enumerate(entries):
        if e.error is None:
            continue
        message = e.error.message
        if message.startswith(_MERGED):
            out.append(f"{_where(e)}: two graphs without a blank line between them? "
                       f"({message.split(' (')[0]} ...)")
        elif (message.startswith(_CUT_HEAD) and k + 1 < len(entries)
              and entries[k + 1].error is not None
              and entries[k + 1].error.message.startswith(_CUT_TAIL)):
            out.append(f"{_where(e)} and graph {entries[k + 1].index}: one graph cut in two "
                       "by a blank line?")
        elif not message.startswith(_CUT_TAIL) or k == 0 or entries[k - 1].error is None \
                or not entries[k - 1].error.message.startswith(_CUT_HEAD):
            out.append(f"{_where(e)}: unreadable: {message}")
    return out


def _id_shift(entries_a: Sequence[Entry], entries_b: Sequence[Entry],
              name_a: str, name_b: str) -> list[str]:
    """Where the id sequences of the two files part, and where that id went."""
    for ea, eb in zip(entries_a, entries_b):
        if ea.id is None or eb.id is None or ea.id == eb.id:
            continue
        out = f"{_where(ea)} has id {ea.id} but {_where(eb)} has id {eb.id}"
        where_b = next((e.index for e in entries_b if e.id == ea.id), None)
        where_a = next((e.index for e in entries_a if e.id == eb.id), None)
        if where_b is not None:
            out += f"; id {ea.id} is graph {where_b} of {name_b}"
        elif where_a is not None:
            out += f"; id {eb.id} is graph {where_a} of {name_a}"
        return [out]
    return []


def _id_warnings(entries_a: Sequence[Entry], entries_b: Sequence[Entry]) -> list[str]:
    """One warning per index (up to :data:`LIMIT`) where both files have an id and they differ."""
    return IdCheck.of(entries_a, entries_b).warnings()


@dataclass(frozen=True)
class IdCheck:
    """The ids of paired graphs compared: how many pairs have an id on both sides, how many of
    those disagree, and the first :data:`LIMIT` that do (index, then file, line and id of each
    side).  Checks of consecutive parts of the inputs add up (``+``) to the check of the whole,
    so that processes that each read a part of the files can check their part
    (:mod:`smatchpp.running.runs`).

    >>> from smatchpp.graphs.read import read_text
    >>> a = read_text("# ::id 1\\n(a / dog)\\n\\n# ::id 2\\n(b / cat)", "a.amr")
    >>> b = read_text("# ::id 1\\n(a / dog)\\n\\n# ::id 3\\n(b / cat)", "b.amr")
    >>> (IdCheck.of(a[:1], b[:1]) + IdCheck.of(a[1:], b[1:])).warnings() == _id_warnings(a, b)
    True
    """

    both: int = 0
    differ: int = 0
    first: tuple[tuple[int, str, int, str, str, int, str], ...] = ()

    @classmethod
    def of(cls, entries_a: Sequence[Entry], entries_b: Sequence[Entry]) -> "IdCheck":
        both = [(ea, eb) for ea, eb in zip(entries_a, entries_b) if ea.id is not None and eb.id is not None]
        differ = [(ea, eb) for ea, eb in both if ea.id != eb.id]
        return cls(len(both), len(differ), tuple((ea.index, ea.path, ea.line, ea.id, eb.path, eb.line, eb.id)
                                                 for ea, eb in differ[:LIMIT]))

    def __add__(self, other: "IdCheck") -> "IdCheck":
        return IdCheck(self.both + other.both, self.differ + other.differ, (self.first + other.first)[:LIMIT])

    def warnings(self) -> list[str]:
        """One warning per index (up to :data:`LIMIT`) where the ids disagree, and how many more."""
        out = []
        for index, path_a, line_a, id_a, path_b, line_b, id_b in self.first:
            out.append(f"graph {index}: {path_a}:{line_a} has id {id_a} but {path_b}:{line_b} "
                       f"has id {id_b} ({self.differ} of {self.both} graphs with ids on both sides "
                       "disagree: is one file shifted?)")
        if self.differ > LIMIT:
            out.append(f"... and {self.differ - LIMIT} more graphs whose ids disagree")
        return out

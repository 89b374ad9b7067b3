"""Choosing the pairs to explain, and extra per-pair columns for the report's index.

:func:`select` applies the command line's choices in order: an explicit list
of pair indices, then only the pairs where a hill-climber falls below the best
alignment (``gaps``: ours, or the tools of a gap file), then the ``worst`` N by
F1, which are listed by F1 (lowest first; ties: lower index first).

>>> from smatchpp.explain import explain_pair
>>> es = [explain_pair("(d / dog)", s, index=k) for k, s in enumerate(["(d / dog)", "(c / cat)", "(d / dog :mod (b / big))"])]
>>> [e.index for e in select(es, worst=2)]
[1, 2]
>>> [e.index for e in select(es, pairs=[0, 2])]
[0, 2]
>>> parse_pairs("3,17, 5-7")
[3, 5, 6, 7, 17]
>>> parse_pairs("5-3")
Traceback (most recent call last):
...
ValueError: '5-3' is an empty range: write the lower index first (3-5)
"""

from __future__ import annotations

import json
import math
import re
from typing import Sequence

from ..core.exceptions import UsageError
from .model import Explanation

__all__ = ["select", "parse_pairs", "gap_columns", "GapFile", "OURS"]

#: the key of our own seeded hill-climber (as in ``smatchpp gap``'s ``gap_hillclimber``)
OURS = "hillclimber"

#: readable names of the tools ``smatchpp gap`` audits, for the report's column headers
TOOL_NAMES = {"smatch104": "smatch 1.0.4", OURS: "hill-climber (gap file)"}

_PART = re.compile(r"(\d+)(?:\s*-\s*(\d+))?")


def parse_pairs(text: str, n: int | None = None) -> list[int]:
    """``"3,17,20-22"`` -> ``[3, 17, 20, 21, 22]`` (0-based pair indices, sorted, unique).

    Raises :class:`ValueError` on anything else: a negative index, a range
    written backwards (``5-3``) or with a negative end (``1--3``), no index at
    all, and, when the number of pairs ``n`` is given, an index past it (before
    a range is expanded, so ``0-100000000`` costs nothing).

    >>> parse_pairs("0-100000000", n=4)
    Traceback (most recent call last):
    ...
    ValueError: pair index 100000000 out of range: the files hold 4 pairs (indices 0 to 3)
    >>> parse_pairs("1--3")
    Traceback (most recent call last):
    ...
    ValueError: '1--3' is not a pair index or a range LOW-HIGH of 0-based pair indices
    """
    spans: list[tuple[int, int]] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        m = _PART.fullmatch(part)
        if m is None:
            if re.fullmatch(r"-\s*\d+", part):
                raise ValueError(f"{part!r}: pair indices are 0-based and not negative")
            raise ValueError(f"{part!r} is not a pair index or a range LOW-HIGH of 0-based pair indices")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise ValueError(f"{part!r} is an empty range: write the lower index first ({hi}-{lo})")
        if n is not None and hi >= n:
            raise ValueError(f"pair index {hi} out of range: the files hold {n} "
                             f"{'pair' if n == 1 else 'pairs'}"
                             + (f" (indices 0 to {n - 1})" if n else ""))
        spans.append((lo, hi))
    if not spans:
        raise ValueError("no pair index given")
    out: set[int] = set()
    for lo, hi in spans:
        out.update(range(lo, hi + 1))
    return sorted(out)


def select(explanations: Sequence[Explanation], pairs: Sequence[int] | None = None,
           worst: int | None = None, gaps: bool | Sequence[str] = False,
           columns: dict[str, dict[int, float]] | None = None) -> list[Explanation]:
    """The explanations chosen by ``pairs``, then ``gaps``, then ``worst``.

    ``gaps``: ``True`` keeps the pairs where our hill-climber or any tool of
    ``columns`` (tool key -> pair index -> gap, from :func:`gap_columns`) is
    below the best alignment; a list of tool keys (``"hillclimber"`` is ours)
    keeps those where one of these is.  The result is in index order, except
    with ``worst``: then the lowest F1 comes first.
    """
    es = list(explanations)
    columns = columns or {}
    if pairs is not None:
        wanted = set(pairs)
        es = [e for e in es if e.index in wanted]
    if gaps:
        tools = [OURS, *columns] if gaps is True else list(gaps)
        unknown = [t for t in tools if t != OURS and t not in columns]
        if unknown:
            raise ValueError(f"no gap column for {unknown[0]!r} (known: {', '.join([OURS, *columns])})")

        def below(e: Explanation) -> bool:
            return any(e.hc_gap > 0 if t == OURS else (columns[t].get(e.index) or 0) > 0 for t in tools)

        es = [e for e in es if below(e)]
    if worst is not None:
        f1 = {e.index: e.score.f1 for e in es}
        order = sorted(f1, key=lambda i: (f1[i], i))[:worst]
        by_index = {e.index: e for e in es}
        es = [by_index[i] for i in order]
    return es


class GapFile:
    """The per-tool gap columns of ``smatchpp gap --pairs-out`` (``gap_<tool>`` keys), checked.

    ``columns`` maps a tool key (``smatch104``, ...) to ``{pair index: gap}``;
    our own hill-climber's column is left out unless ``ours`` (the report
    computes it).  Every line must be a JSON object with an integer ``index``
    below ``n`` (the number of pairs of the inputs), at most once, and numbers
    (or ``null``) as gaps; when the line and the inputs both carry an ``id``,
    they must agree.  Anything else raises :class:`UsageError` naming the file
    and the line, so that a bad file stops the command before any pair is
    explained.
    """

    def __init__(self, path: str, n: int, ids: Sequence[str | None] | None = None, ours: bool = False):
        self.path = path
        self.columns: dict[str, dict[int, float]] = {}
        tools: list[str] = []
        try:
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().splitlines()
        except UnicodeDecodeError as exc:
            raise UsageError(f"--gap-file {path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        except OSError as exc:
            raise UsageError(f"--gap-file {path}: {exc.strerror or exc}") from None
        seen: dict[int, int] = {}
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            where = f"--gap-file {path}, line {number}"
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise UsageError(f"{where}: not JSON ({exc}); give the --pairs-out file of "
                                 "`smatchpp gap`") from None
            if not isinstance(row, dict):
                raise UsageError(f"{where}: a JSON object per line expected, not {_kind(row)}")
            index = row.get("index")
            if isinstance(index, bool) or not isinstance(index, int):
                raise UsageError(f"{where}: \"index\" must be an integer pair index, not {_kind(index)}")
            if not 0 <= index < n:
                raise UsageError(f"{where}: pair index {index} out of range: the inputs hold "
                                 f"{n} {'pair' if n == 1 else 'pairs'}")
            if index in seen:
                raise UsageError(f"{where}: pair index {index} again (first on line {seen[index]})")
            seen[index] = number
            pid = row.get("id")
            if ids is not None and pid is not None and ids[index] is not None and pid != ids[index]:
                raise UsageError(f"{where}: pair {index} has id {pid!r}, but the inputs' pair {index} "
                                 f"has id {ids[index]!r}: the gap file was made from other files")
            for key, value in row.items():
                if not (key.startswith("gap_") or key.startswith("gap ")):
                    continue
                tool = _tool(key)
                if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                          or not math.isfinite(value)):
                    raise UsageError(f"{where}: {key!r} must be a number or null, not {_kind(value)}")
                if tool == OURS and not ours:
                    continue
                if tool not in tools:
                    tools.append(tool)
                column = self.columns.setdefault(tool, {})
                if value is not None:
                    column[index] = float(value)
        if not seen:
            raise UsageError(f"--gap-file {path}: no pairs in it; give the --pairs-out file of `smatchpp gap`")
        if not tools and not ours:
            raise UsageError(f"--gap-file {path}: no gap_<tool> column beside our own hill-climber's; "
                             "make it with `smatchpp gap --smatch-python PYTHON --pairs-out FILE`")

    def headers(self) -> dict[str, dict[int, float]]:
        """The report's index columns: ``{"<tool name> gap": {pair index: gap}}``."""
        return {f"{TOOL_NAMES.get(tool, tool)} gap": column for tool, column in self.columns.items()}


def _tool(key: str) -> str:
    """The tool key of a gap column: ``gap_smatch104`` -> ``smatch104``; the labels that earlier
    versions of ``smatchpp gap`` wrote (``gap smatch 1.0.4 (4 restarts)``) map to the same keys.

    >>> _tool("gap_smatch104"), _tool("gap smatch 1.0.4 (4 restarts)"), _tool("gap hillclimber (ours, seed 1)")
    ('smatch104', 'smatch104', 'hillclimber')
    """
    tool = key[4:]
    if key.startswith("gap "):
        if tool.startswith("smatch 1.0.4"):
            return "smatch104"
        if tool.startswith("hillclimber"):
            return OURS
    return tool


def gap_columns(path: str, n: int, ids: Sequence[str | None] | None = None,
                ours: bool = False) -> dict[str, dict[int, float]]:
    """Per-tool gap columns of ``smatchpp gap --pairs-out`` (``{tool key: {index: gap}}``, checked:
    see :class:`GapFile`)."""
    return GapFile(path, n, ids, ours).columns


def _kind(value) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    if value is None:
        return "null (or missing)"
    if isinstance(value, str):
        return f"the string {value[:40]!r}"
    return f"{json.dumps(value)}"

"""Triple weightings: WSMATCH's levels, concept/structure focus, and role-weight files.

**WSMATCH** (Cai & Lam 2019, "Core Semantic First"; reported by BAMBOO),
as in their evaluation tool (``jcyk/AMR-parser``,
``amr-evaluation-tool-enhanced/smatch/AMRGraph.py``, read for this):

* a node's *level* is its breadth-first distance from the root in the
  undirected graph of relations, where every attribute constant is a node of
  its own (so it sits one level below its variable); nodes the root cannot
  reach get a large level (999999 there);
* a node of level ``l`` weighs ``max(5 - l, 1)``;
* instance and TOP triples weigh their node's weight; relation and attribute
  triples the smaller of their two ends' weights.

The root is the variable that carries the TOP triple (the first variable if
none does, as the reference takes the first node).

**Focus** (thesis §8.4.3): ``concept-focus`` weighs instance triples
``focus_weight`` and every other triple 1; ``structure-focus`` the other way
round.

>>> from smatchpp.api import parse_graph
>>> g = parse_graph('(w / want-01 :ARG0 (b / boy :name (n / name :op1 "Jo")) :polarity -)')
>>> levels(g)
[0, 1, 2]
>>> w = level_weights(g)
>>> w.instance.tolist(), w.attribute.tolist(), w.relation.tolist()  # polarity, op1, TOP
([5.0, 4.0, 3.0], [4.0, 2.0, 5.0], [4.0, 3.0])
>>> focus_weights(3.0, concepts=True)(g).instance.tolist()
[3.0, 3.0, 3.0]
"""

from __future__ import annotations

import math
import os
import re
import stat
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from ...core.exceptions import SmatchppError
from ...core.settings import Settings, file_or_identity, non_negative, setting, signed_file
from ...graphs.triples import TripleGraph
from .general import TripleWeights

__all__ = ["UNREACHABLE", "levels", "level_weight", "level_weights", "focus_weights",
           "read_role_weights", "MatcherSettings", "FocusSettings", "DEFAULT_FOCUS_WEIGHT"]

#: ``--focus-weight`` default (thesis §8.4.3)
DEFAULT_FOCUS_WEIGHT = 3.0


@dataclass(frozen=True)
class MatcherSettings(Settings):
    """What every matcher reads (WSMATCH reads nothing else): a TSV ``role<TAB>weight``
    file multiplying each triple's weight (:func:`read_role_weights`), signed by its
    identity ``name@sha1-prefix``."""

    role_weights: str | None = setting(None, "roles", kind=str, check=file_or_identity,
                                       identity=signed_file, show=lambda s: s.role_weights is not None)


@dataclass(frozen=True)
class FocusSettings(MatcherSettings):
    """concept-focus and structure-focus: the weight of the focused triples."""

    focus_weight: float = setting(DEFAULT_FOCUS_WEIGHT, "focus", check=non_negative)

#: the level of a node the root cannot reach (as in the reference tool)
UNREACHABLE = 999_999


def level_weight(level: int | np.ndarray) -> np.ndarray:
    """``max(5 - level, 1)``."""
    return np.maximum(5 - np.asarray(level, dtype=np.float64), 1.0)


def _root(g: TripleGraph) -> int:
    for i, role, _ in g.attributes:
        if role == "top":
            return i
    return 0


def levels(g: TripleGraph) -> list[int]:
    """Undirected breadth-first distance of every variable from the root."""
    n = len(g.variables)
    if n == 0:
        return []
    adjacent: list[list[int]] = [[] for _ in range(n)]
    for i, _, k in g.relations:
        if i != k:
            adjacent[i].append(k)
            adjacent[k].append(i)
    level = [UNREACHABLE] * n
    root = _root(g)
    level[root] = 0
    queue = deque([root])
    while queue:
        v = queue.popleft()
        for u in adjacent[v]:
            if level[u] == UNREACHABLE:
                level[u] = level[v] + 1
                queue.append(u)
    return level


def level_weights(g: TripleGraph) -> TripleWeights:
    """WSMATCH's triple weights (see the module docstring)."""
    lv = np.array(levels(g), dtype=np.float64)
    node = level_weight(lv)
    attribute = np.array(
        [node[i] if role == "top"
         else min(node[i], float(level_weight(lv[i] + 1 if lv[i] < UNREACHABLE else UNREACHABLE)))
         for i, role, _ in g.attributes], dtype=np.float64)
    relation = np.array([min(node[i], node[k]) for i, _, k in g.relations], dtype=np.float64)
    return TripleWeights(node, attribute, relation)


def focus_weights(weight: float, concepts: bool) -> Callable[[TripleGraph], TripleWeights]:
    """Instance triples weigh ``weight`` (``concepts``) or every other triple does."""
    inner, outer = (weight, 1.0) if concepts else (1.0, weight)

    def weigh(g: TripleGraph) -> TripleWeights:
        return TripleWeights(np.full(len(g.concepts), inner), np.full(len(g.attributes), outer),
                             np.full(len(g.relations), outer))

    return weigh


def normalize_role(role: str) -> str:
    """A role as the standardized triples spell it: no leading ``:``, lower-case."""
    return role.strip().lstrip(":").lower().rstrip("_")


#: a weight: a plain decimal number (no ``nan``, ``inf``, ``0x10`` or ``1_0``)
_WEIGHT = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
#: a role-weights file is a few lines: anything larger is not one
ROLE_WEIGHTS_MAX_BYTES = 1 << 20


def read_role_weights(path: str | Path) -> dict[str, float]:
    """Read a TSV ``role<TAB>weight`` file (``#`` comments; ``*`` for unlisted roles).

    Roles are compared with the standardized triples: lower-case, without the
    leading ``:``, after the preset's rewrites (the ``smatch`` preset turns
    ``:ARG0-of`` into ``arg0`` and ``:mod`` into ``domain``).  ``instance`` and
    ``top`` name the instance and TOP triples.  Unlisted roles weigh 1.

    The file is UTF-8 text, one ``role<TAB>weight`` per line, without quoting;
    a weight is a finite decimal number >= 0.  Anything else raises
    :class:`~smatchpp.core.exceptions.SmatchppError` naming the file and line,
    without quoting the file (a signature may point anywhere).

    >>> import os, tempfile
    >>> bad = os.path.join(tempfile.mkdtemp(), "roles.tsv")
    >>> _ = open(bad, "w").write(":ARG0\\t2\\n:ARG1\\tnan\\n")
    >>> read_role_weights(bad)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    smatchpp.core.exceptions.SmatchppError: ...roles.tsv:2: the weight (column 2) is not a decimal number ...
    """
    def refuse(line: int | None, message: str) -> SmatchppError:
        where = f"{path}:{line}" if line is not None else f"{path}"
        return SmatchppError(f"role weights {where}: {message}")

    try:
        with open(path, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise refuse(None, "not a regular file")
            data = f.read(ROLE_WEIGHTS_MAX_BYTES + 1)
    except OSError as exc:
        raise refuse(None, f"cannot read it: {exc.strerror}") from None
    if len(data) > ROLE_WEIGHTS_MAX_BYTES:
        raise refuse(None, f"larger than {ROLE_WEIGHTS_MAX_BYTES >> 20} MB: not a role-weights file")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise refuse(None, "UTF-16 text; role weights are UTF-8 (convert it, e.g. with "
                           "iconv -f UTF-16 -t UTF-8)")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    out: dict[str, float] = {}
    first_line: dict[str, int] = {}
    for n, raw in enumerate(re.split(rb"\r\n|\r|\n", data), 1):
        if b"\0" in raw:
            raise refuse(n, "a NUL byte: a binary (or UTF-16) file, not UTF-8 role<TAB>weight lines")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise refuse(n, f"not UTF-8 (a byte at column {exc.start + 1})") from None
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if '"' in line:
            raise refuse(n, "a quote character: the file is plain tab-separated role<TAB>weight, "
                            "without quoting")
        columns = line.split("\t")
        if len(columns) != 2:
            raise refuse(n, f"{len(columns)} tab-separated column{'s' if len(columns) != 1 else ''}, "
                            "expected 2 (role<TAB>weight)")
        text = columns[1].strip()
        if not _WEIGHT.fullmatch(text):
            raise refuse(n, "the weight (column 2) is not a decimal number (a weight is a finite "
                            "number >= 0)")
        weight = float(text)
        if weight < 0:
            raise refuse(n, "the weight (column 2) is negative (a weight is a finite number >= 0)")
        if not math.isfinite(weight):
            raise refuse(n, "the weight (column 2) is too large for a float")
        role = "*" if columns[0].strip() == "*" else normalize_role(columns[0])
        if not role:
            raise refuse(n, "the role (column 1) is empty")
        if role in out:
            raise refuse(n, f"the role of this line is listed already, on line {first_line[role]} "
                            "(roles are compared lower-case, without the leading ':')")
        out[role] = weight
        first_line[role] = n
    return out

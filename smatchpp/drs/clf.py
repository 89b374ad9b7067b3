"""Reading Discourse Representation Structures in clausal form (``.clf``), as Counter reads them.

Counter (``RikVN/DRS_parsing``, ``evaluation/counter.py``, ``get_clauses``) reads a file as
lines: a line whose first non-blank character is ``%`` is a comment, a blank line ends the
current DRS (several blank lines end it once), every other line is a clause, the text before
its first ``" %"`` split on white space.  A DRS is a list of clauses; the file's DRSs pair up
by position with the other file's.

Every DRS keeps where it was read (file, first line, each clause's line, its 0-based index),
so that an error names file, line and DRS, as for AMR (:class:`~smatchpp.core.exceptions.ReadError`).

>>> drss = read_clf_text('''% a comment
... b1 REF x1        % the referent
... b1 dog "n.01" x1
...
...
... b2 REF e1
... b2 bark "v.01" e1''', "x.clf")
>>> [(d.index, d.line, d.clauses) for d in drss]  # doctest: +NORMALIZE_WHITESPACE
[(0, 2, (('b1', 'REF', 'x1'), ('b1', 'dog', '"n.01"', 'x1'))),
 (1, 6, (('b2', 'REF', 'e1'), ('b2', 'bark', '"v.01"', 'e1')))]
>>> drss[1].lines
(6, 7)
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from ..core.exceptions import ReadError

__all__ = ["ClfDrs", "read_clf", "read_clf_text", "read_clf_entries", "load_signature", "load_wordnet_map", "Signature"]

#: operator -> (kind, argument types), as Referee's ``get_signature`` returns it
Signature = Mapping[str, tuple[str, str]]


@dataclass(frozen=True)
class ClfDrs:
    """One DRS as written: its clauses (token tuples) and where each was read."""

    index: int  # 0-based position in its file
    path: str
    line: int  # the line of its first clause
    clauses: tuple[tuple[str, ...], ...]
    lines: tuple[int, ...] = field(compare=False, default=())
    #: why the DRS was replaced (``-ill dummy`` / ``spar``), or ``None``
    replaced: str | None = field(compare=False, default=None)

    def error(self, message: str, clause: int | None = None) -> ReadError:
        """A :class:`ReadError` naming this DRS's file, the clause's line (else its first) and
        its number (1-based, as Counter counts DRSs)."""
        line = self.lines[clause] if clause is not None and clause < len(self.lines) else self.line
        return ReadError(f"DRS {self.index + 1}: {message}", self.path, line, self.index)


def read_clf_text(text: str, path: str = "<string>") -> list[ClfDrs]:
    """The DRSs of ``text`` (see the module doc)."""
    out: list[ClfDrs] = []
    clauses: list[tuple[str, ...]] = []
    lines: list[int] = []
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if stripped.startswith("%"):
            continue
        if not stripped:
            if clauses:
                out.append(ClfDrs(len(out), path, lines[0], tuple(clauses), tuple(lines)))
                clauses, lines = [], []
            continue
        clauses.append(tuple(line.split(" %", 1)[0].strip().split()))
        lines.append(number)
    if clauses:
        out.append(ClfDrs(len(out), path, lines[0], tuple(clauses), tuple(lines)))
    return out


def read_clf(path: str | Path) -> list[ClfDrs]:
    """The DRSs of the file ``path`` (UTF-8); an unreadable file raises :class:`ReadError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ReadError(f"not UTF-8 text: {exc.reason}", str(path), None) from None
    return read_clf_text(text, str(path))


# --- the signature of clausal forms (Referee's clf_signature.yaml) ---------------------------

_KEY = re.compile(r"^(\s*)(?:-\s*(\S+)|([^\s:#][^:#]*):)\s*$")


def load_signature(path: str | Path) -> dict[str, tuple[str, str]]:
    """Read a signature file (the YAML of ``clf_signature.yaml``: argument types -> kind ->
    a list of operators) into ``{operator: (kind, types)}``, as Referee's ``get_signature``
    with YAML's base loader (every value a string).  Only that shape is accepted: nested
    keys and ``- item`` lines, ``#`` comments; anything else raises ``ValueError`` with the line.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
    ...     _ = f.write("bx:\\n  DRS:\\n    - REF   # referents\\nbtt:\\n  ERO:\\n    - Agent\\n")
    >>> load_signature(f.name)
    {'REF': ('DRS', 'bx'), 'Agent': ('ERO', 'btt')}
    >>> os.unlink(f.name)
    """
    out: dict[str, tuple[str, str]] = {}
    types = kind = None
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the signature: {exc.strerror}") from None
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        m = _KEY.match(line)
        if not m:
            raise ValueError(f"{path}: line {number}: not a signature line: {raw.strip()!r}")
        indent, item, key = len(m.group(1)), m.group(2), m.group(3)
        if item is not None:
            if types is None or kind is None:
                raise ValueError(f"{path}: line {number}: an operator outside a kind")
            out[item] = (kind, types)
        elif indent == 0:
            types, kind = key.strip(), None
        else:
            if types is None:
                raise ValueError(f"{path}: line {number}: a kind outside argument types")
            kind = key.strip()
    return out


def load_wordnet_map(path: str | Path) -> dict[str, str]:
    """The WordNet map Counter normalises concepts with (``wordnet_dict_en.py``'s
    ``en_sense_dict``: ``"concept.pos.nn"`` -> ``"synset.pos.nn"``): a JSON object, or that
    Python file, whose dict literal is read with :func:`ast.literal_eval` (nothing is run).
    A file that is neither raises ``ValueError`` naming it."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the WordNet map: {exc.strerror}") from None
    data = None
    if p.suffix == ".py":
        try:
            tree = ast.parse(text, str(path))
        except SyntaxError as exc:
            raise ValueError(f"{path}: line {exc.lineno}: not Python: {exc.msg}") from None
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "en_sense_dict" for t in node.targets):
                data = ast.literal_eval(node.value)
        if data is None:
            raise ValueError(f"{path}: no en_sense_dict = {{...}} in it")
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: line {exc.lineno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError(f"{path}: not a WordNet map (expected \"concept.pos.nn\" -> \"synset.pos.nn\")")
    return data


def read_clf_entries(path: str) -> list:
    """The DRSs of ``path`` (``-``: standard input) as the command line's
    :class:`~smatchpp.graphs.read.Entry` list, each entry's ``graph`` a :class:`ClfDrs`."""
    import sys

    from ..graphs.read import STDIN, Entry

    if path == STDIN:
        drss = read_clf_text(sys.stdin.buffer.read().decode("utf-8"), "<stdin>")
    else:
        drss = read_clf(path)
    return [Entry(d.index, d.path, d.line, d) for d in drss]

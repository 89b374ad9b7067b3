"""Reading graphs from files: PENMAN (via the ``penman`` library) and TSV triples.

A file holds several graphs separated by blank lines.  Each graph becomes an
:class:`Entry` that remembers where it came from (file, first line, 0-based
graph index), so any problem can be reported precisely.  A graph that cannot
be read does not stop the reading of the others: its entry carries a
:class:`~smatchpp.exceptions.ReadError` instead of a :class:`RawGraph`, and the
caller decides what to do (stop, score as empty, or skip the pair).

Example:

>>> entries = read_text('''# ::id s1
... (d / dog :ARG0-of (b / bark-01))
...
... (c / cat''', path="demo.amr")
>>> entries[0].graph.triples
(('d', ':instance', 'dog'), ('d', ':ARG0-of', 'b'), ('b', ':instance', 'bark-01'))
>>> entries[0].id
's1'
>>> print(entries[1].error)
demo.amr:4: graph 1: Unexpected end of input

The TSV format has one ``source<TAB>role<TAB>target`` triple per line; a role
``:instance`` (or ``instance``) declares a variable and its concept, the source
of the first triple is the top, and ``# ::id`` comment lines are honoured.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Literal

import penman
from penman.exceptions import PenmanError

from .exceptions import ReadError

__all__ = ["RawGraph", "Entry", "read_file", "read_text", "Format"]

Format = Literal["auto", "penman", "tsv"]

# penman logs a warning for every repeated triple; duplicates are legal input
# for Smatch (they count in the totals), so keep the user's terminal quiet.
logging.getLogger("penman").setLevel(logging.ERROR)


@dataclass(frozen=True)
class RawGraph:
    """A graph as written, before any standardization.

    ``triples`` are ``(source, role, target)`` in source order, roles as written
    (with their leading colon and any ``-of``), instance triples as
    ``(var, ':instance', concept)``.  Constants keep their quotes.
    """

    top: str | None
    triples: tuple[tuple[str, str, str], ...]
    variables: tuple[str, ...]
    metadata: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """One graph of a file, or the reason it could not be read."""

    index: int
    path: str
    line: int
    graph: RawGraph | None
    error: ReadError | None = None
    #: ``# ::key value`` comments, kept even when the graph is unreadable
    metadata: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str | None:
        return self.metadata.get("id")


def read_file(path: str | Path, fmt: Format = "auto") -> list[Entry]:
    """Read every graph of ``path``; ``fmt='auto'`` picks TSV for ``*.tsv``."""
    path = str(path)
    if fmt == "auto":
        fmt = "tsv" if path.endswith(".tsv") else "penman"
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    return read_text(text, path=path, fmt=fmt)


def read_text(text: str, path: str = "<string>", fmt: Format = "penman") -> list[Entry]:
    """Read graphs from a string; see the module docstring."""
    parse = _parse_tsv if fmt == "tsv" else _parse_penman
    entries = []
    for index, (line, lines) in enumerate(_blocks(text)):
        comments = [x for x in lines if x.lstrip().startswith("#")]
        metadata = _metadata(comments)
        # errors without a precise position point at the graph, not at its comments
        graph_line = line + next(k for k, x in enumerate(lines) if not x.lstrip().startswith("#"))
        try:
            graph = parse(lines, line)
        except ReadError as exc:
            where = exc.line or graph_line
            entries.append(Entry(index, path, where, None,
                                 ReadError(exc.message, path, where, index), metadata))
            continue
        entries.append(Entry(index, path, graph_line, graph, None, metadata))
    return entries


_META = re.compile(r"::(\S+)(?:[ \t]+(.*?))?(?=[ \t]+::\S|$)")


def _metadata(comments: list[str]) -> dict[str, str]:
    """``# ::id x ::snt y`` comment lines as a dict."""
    out: dict[str, str] = {}
    for line in comments:
        for key, value in _META.findall(line.strip()):
            out[key] = value.strip()
    return out


def _blocks(text: str) -> Iterator[tuple[int, list[str]]]:
    """Yield (1-based first line, lines) per graph; comment-only blocks are not graphs.

    Like smatch, comment lines never start a graph of their own: a block made of
    comments only (a file header) is dropped.
    """
    block: list[str] = []
    start = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            if not block:
                start = number
            block.append(line)
            continue
        if block and any(not b.lstrip().startswith("#") for b in block):
            yield start, block
        block = []
    if block and any(not b.lstrip().startswith("#") for b in block):
        yield start, block


_QUOTED = re.compile(r'"(?:\\.|[^"\\])*"')
_PAREN = re.compile(r"[()]")


def _trailing_text(lines: list[str], first_line: int) -> tuple[int, str] | None:
    """(line, text) of anything after the outermost closing parenthesis, if any.

    penman stops reading at the end of the first tree, so a missing blank line
    or a stray parenthesis would otherwise lose part of the input silently.
    Quoted strings are blanked out first (same length), so positions stay right.
    """
    body = [x for x in lines if not x.lstrip().startswith("#")]
    skipped = len(lines) - len(body)
    text = _QUOTED.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', "\n".join(body))
    depth = 0
    for m in _PAREN.finditer(text):
        depth += 1 if m.group() == "(" else -1
        if depth == 0:
            rest = text[m.end():]
            if rest.strip():
                offset = len(rest) - len(rest.lstrip())
                line = text.count("\n", 0, m.end() + offset)
                return first_line + skipped + line, rest.strip().splitlines()[0]
            return None
    return None


def _parse_penman(lines: list[str], first_line: int) -> RawGraph:
    trailing = _trailing_text(lines, first_line)
    if trailing is not None:
        line, text = trailing
        raise ReadError(f"unexpected text after the end of the graph: {text[:40]!r} "
                        "(missing blank line between graphs, or unbalanced parentheses?)", line=line)
    try:
        tree = penman.parse("\n".join(lines))
    except PenmanError as exc:
        message = getattr(exc, "message", None) or str(exc).strip().splitlines()[-1]
        lineno = getattr(exc, "lineno", None)
        raise ReadError(message, line=first_line + (lineno - 1 if lineno else 0)) from None
    triples: list[tuple[str, str, str]] = []
    variables: list[str] = []
    seen: set[str] = set()
    stack = [tree.node]
    while stack:
        var, branches = stack.pop()
        if var in seen:
            raise ReadError(f"variable {var!r} is defined twice")
        variables.append(var)
        seen.add(var)
        concept = next((t for r, t in branches if r == "/"), None)
        if concept is None:
            raise ReadError(f"variable {var!r} has no concept")
        triples.append((var, ":instance", concept))
        children = []
        for role, target in branches:
            if role == "/":
                continue
            if target is None:
                raise ReadError(f"role {role} of {var!r} has no target")
            if isinstance(target, tuple):
                triples.append((var, role, target[0]))
                children.append(target)
            else:
                triples.append((var, role, target))
        stack.extend(reversed(children))
    return RawGraph(tree.node[0], tuple(triples), tuple(variables), dict(tree.metadata))


def _parse_tsv(lines: list[str], first_line: int) -> RawGraph:
    triples: list[tuple[str, str, str]] = []
    lines_of: list[int] = []
    variables: list[str] = []
    metadata: dict[str, str] = {}
    for offset, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("#"):
            if stripped.startswith("# ::id "):
                metadata["id"] = stripped[len("# ::id "):].strip()
            continue
        parts = line.rstrip("\n").split("\t")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise ReadError(f"expected source<TAB>role<TAB>target, got {line!r}",
                            line=first_line + offset)
        source, role, target = (p.strip() for p in parts)
        role = role if role.startswith(":") else ":" + role
        if role == ":instance":
            if source in variables:
                raise ReadError(f"variable {source!r} is defined twice", line=first_line + offset)
            variables.append(source)
        triples.append((source, role, target))
        lines_of.append(first_line + offset)
    if not triples:
        raise ReadError("graph has no triples", line=first_line)
    declared = set(variables)
    for (source, role, target), line in zip(triples, lines_of):
        if source not in declared and not role.endswith("-of"):
            raise ReadError(f"source {source!r} has no instance triple", line=line)
    return RawGraph(triples[0][0], tuple(triples), tuple(variables), metadata)

"""Reading graphs from files: PENMAN (tokens from the ``penman`` library) and TSV triples.

A file holds several graphs separated by blank lines.  Each graph becomes an
:class:`Entry` that remembers where it came from (file, first line, 0-based
graph index), so any problem can be reported precisely.  A graph that cannot
be read does not stop the reading of the others: its entry carries a
:class:`~smatchpp.core.exceptions.ReadError` instead of a :class:`RawGraph`, and the
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

Robustness, in the order the issue lists it:

* Files are read as bytes and decoded line by line: a line that is not UTF-8
  makes only its own graph unreadable, with the line and the byte named (in a
  comment line, the byte becomes U+FFFD in the metadata).  A leading UTF-8
  byte-order mark is ignored.  A NUL character, or a byte-order mark further
  on, makes its graph unreadable the same way (a binary or UTF-16 file, files
  joined with ``cat``; penman would read a NUL into a label).
* Graphs of any depth are read: the parser is a loop over penman's tokens, not
  a recursion, and so is everything after it.
* A line starting with ``#`` is a comment anywhere in a graph or after it, as
  in smatch 1.0.4; so is ``#`` up to the end of a line outside quoted strings
  (penman's rule).  ``# ::key value`` comments fill :attr:`Entry.metadata`.

>>> bad = read_bytes(b"(a / caf\\xe9)\\n\\n# a comment\\n(b / dog\\n  # inside\\n  :mod (c / big))\\n", "x.amr")
>>> print(bad[0].error)
x.amr:1: graph 0: not valid UTF-8: byte 0xe9 at column 9 (convert the file to UTF-8, e.g. with iconv)
>>> bad[1].graph.triples
(('b', ':instance', 'dog'), ('b', ':mod', 'c'), ('c', ':instance', 'big'))

The TSV format has one ``source<TAB>role<TAB>target`` triple per line; a role
``:instance`` (or ``instance``) declares a variable and its concept, the source
of the first triple is the top, and ``# ::id`` comment lines are honoured.  A
PENMAN graph that looks like TSV (or the other way round) says so in its error.
"""

from __future__ import annotations

import logging
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Literal, Sequence

from penman._lexer import PENMAN_RE

from ..core.bulk import no_cycle_collection
from ..core.exceptions import ReadError, SmatchppError

__all__ = ["RawGraph", "Entry", "read_file", "read_bytes", "read_text", "from_penman", "Format", "STDIN",
           "input_bytes", "graph_offsets"]

Format = Literal["auto", "penman", "tsv"]

#: the path that means standard input, as in Unix tools
STDIN = "-"

# penman logs a warning for every repeated triple; duplicates are legal input
# for Smatch (they count in the totals), so keep the user's terminal quiet.
logging.getLogger("penman").setLevel(logging.ERROR)

_BOM = "\ufeff"
_NEWLINE = re.compile(r"\r\n|\r|\n")


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
    #: indices into ``triples`` of the branches whose target node is written there,
    #: ``:role (x / concept ...)`` (PENMAN only; None for TSV).  Two layouts with the
    #: same triples differ here: ``:ARG0 b :ARG1 (b / B)`` and ``:ARG0 (b / B) :ARG1 b``.
    #: Only readers that depend on the layout (the ``amr-suite`` preset) use it.
    inline: frozenset[int] | None = field(default=None, compare=False)


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


#: the most bytes read from standard input or a pipe (anything but a regular file, whose
#: size is known): far more than any corpus, and a bound on what ``/dev/zero`` can take
MAX_STREAM_BYTES = 1 << 30


def read_file(path: str | Path, fmt: Format = "auto") -> list[Entry]:
    """Read every graph of ``path`` (``"-"``: standard input); ``fmt='auto'`` picks TSV for ``*.tsv``.

    A regular file is read whole; standard input and a pipe (``<(zcat x.gz)``) up to
    :data:`MAX_STREAM_BYTES`; a device (``/dev/zero``) is refused.  Both refusals raise
    :class:`~smatchpp.core.exceptions.SmatchppError` naming the file.
    """
    data, name, fmt = input_bytes(path, fmt)
    return read_bytes(data, name, fmt)


def input_bytes(path: str | Path, fmt: Format = "auto") -> tuple[bytes, str, Format]:
    """The bytes of ``path`` as :func:`read_file` reads them, the name its entries carry
    (``<stdin>`` for ``-``) and the format (``auto`` decided by the name)."""
    path = str(path)
    if fmt == "auto":
        fmt = "tsv" if path.endswith(".tsv") else "penman"
    if path == STDIN:
        return _read_stream(sys.stdin.buffer, "<stdin>"), "<stdin>", fmt
    with open(path, "rb") as handle:
        mode = os.fstat(handle.fileno()).st_mode
        if stat.S_ISREG(mode):
            data = handle.read()
        elif stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
            data = _read_stream(handle, path)
        else:
            kind = ("a character device" if stat.S_ISCHR(mode) else
                    "a block device" if stat.S_ISBLK(mode) else "not a regular file")
            raise SmatchppError(f"{path}: {kind}, not a file of graphs (give a file, a pipe or "
                                "- for standard input)")
    return data, path, fmt


def _read_stream(handle, name: str) -> bytes:
    """All bytes of a stream, refused past :data:`MAX_STREAM_BYTES`."""
    chunks, size = [], 0
    while True:
        chunk = handle.read(min(1 << 24, MAX_STREAM_BYTES + 1 - size))
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        chunks.append(chunk)
        if size > MAX_STREAM_BYTES:
            raise SmatchppError(f"{name}: more than {MAX_STREAM_BYTES >> 20} MiB from a stream: "
                                "standard input and pipes are read up to that; write a larger "
                                "corpus to a file and give its name")


def read_bytes(data: bytes, path: str = "<bytes>", fmt: Format = "penman", first_line: int = 1,
               first_index: int = 0) -> list[Entry]:
    """Read graphs from UTF-8 bytes; a line that is not UTF-8 spoils only its own graph.

    ``first_line``, ``first_index``: the line number of the first line of ``data`` and the
    index of its first graph, when ``data`` is a part of a file that starts on a line after
    blank lines (:func:`graph_offsets`): its entries and errors then name the file's lines
    and graphs, as reading the whole file would."""
    bad: dict[int, str] = {}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        # decode line by line: "\r" and "\n" never occur inside a UTF-8 sequence,
        # so these lines are the lines of the replaced text
        raw_lines = re.split(rb"\r\n|\r|\n", data)
        for number, raw in enumerate(raw_lines, start=first_line):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                bad[number] = (f"not valid UTF-8: byte 0x{raw[exc.start]:02x} at "
                               f"column {exc.start + 1} (convert the file to UTF-8, e.g. with iconv)")
        text = data.decode("utf-8", errors="replace")
    lines = _split_lines(text)
    if "\x00" in text or _BOM in (text[1:] if first_line == 1 else text):
        _stray_characters(lines, bad, first_line)
    return _read_lines(lines, path, fmt, bad, first_line, first_index)


#: a blank line and the ones after it, ending where the next block starts
_SEPARATOR = re.compile(rb"\n(?:[ \t\r]*\n)+")
_LEADING_BLANK = re.compile(rb"(?:[ \t\r]*\n)*")
#: a block of comment lines only, up to a blank line or the end (not a graph: :func:`_blocks`); the
#: look-ahead takes the comment lines whole (Python 3.10 has no possessive ``*+``), so that a block
#: of comments and a graph fails at once rather than backtracking through every comment line
_COMMENT_BLOCK = re.compile(rb"(?=((?:[ \t]*#[^\n]*(?:\n|\Z))*))\1[ \t\r]*(?:\n|\Z)")
_UTF8_BOM = b"\xef\xbb\xbf"
_BLANK_END = re.compile(rb"[ \t\r\n]*\Z")


def graph_offsets(data: bytes, begin: int = 0, end: int | None = None) -> list[int] | None:
    """Where each graph's block starts in ``data`` (byte offsets), by a scan of the bytes
    that parses nothing: blocks split at lines of spaces and tabs, blocks of ``#`` lines
    dropped.  ``None`` when a line break is a lone ``\\r`` (the scan counts lines by ``\\n``).
    ``begin``, ``end``: only the blocks that start there (windows that tile ``data`` give
    the offsets of the whole, a window at a time: processes can scan a file together).

    The bytes from one offset to another are whole blocks after a blank line: reading them
    with :func:`read_bytes` (``first_line``: one plus the ``\\n`` before the offset) gives the
    file's own entries of those graphs.  The scan is a guess where the reader is exact: a
    line of other white space (a form feed, U+00A0) separates blocks for the reader only, a
    comment indented by it is a comment for the reader only; a caller that reads parts
    checks that each part holds as many graphs as the scan found, and reads the whole file
    when one does not.

    >>> data = b"# header\\n\\n# ::id 1\\n(a / dog)\\n  \\n\\n(b / cat\\n :mod (c / big))\\n"
    >>> offsets = graph_offsets(data)
    >>> [data[k:k + 4] for k in offsets]
    [b'# ::', b'(b /']
    >>> part = read_bytes(data[offsets[1]:], first_line=data.count(b"\\n", 0, offsets[1]) + 1, first_index=1)
    >>> [(e.index, e.line) for e in part] == [(e.index, e.line) for e in read_bytes(data)[1:]]
    True
    """
    end = len(data) if end is None else min(end, len(data))
    if data.find(b"\r", begin, end) >= 0 and data.count(b"\r", begin, end) != data.count(b"\r\n", begin, end + 1):
        return None
    # the first block starts after a byte-order mark and blank lines; the others after a blank line
    first = _LEADING_BLANK.match(data, len(_UTF8_BOM) if data.startswith(_UTF8_BOM) else 0).end()
    starts = [first] if begin <= first < end else []
    back = begin  # a window's scan starts after the last character before it that is not white space
    while back > first and data[back - 1] in b" \t\r\n":
        back -= 1
    for m in _SEPARATOR.finditer(data, max(back, first)):
        k = m.end()
        if k >= end:
            break
        if k >= begin:
            starts.append(k)
    if starts and _BLANK_END.match(data, starts[-1]):
        starts.pop()  # white space after the last blank line: no block
    if not starts or data.find(b"#", starts[0]) < 0:
        return starts
    match = _COMMENT_BLOCK.match
    return [k for k in starts if data[k] == 40 or match(data, k) is None]  # 40: "(", a graph


def read_text(text: str, path: str = "<string>", fmt: Format = "penman") -> list[Entry]:
    """Read graphs from a string; see the module docstring."""
    lines, bad = _split_lines(text), {}
    if "\x00" in text or _BOM in text[1:]:
        _stray_characters(lines, bad)
    return _read_lines(lines, path, fmt, bad)


def _stray_characters(lines: list[str], bad: dict[int, str], first_line: int = 1) -> None:
    """Mark in ``bad`` (line -> error) the lines with a NUL character (no AMR text has one, a
    binary or UTF-16 file has many; penman would read it into a label) or a byte-order mark
    after the file's first character (files joined with ``cat``; penman's error named neither)."""
    for number, line in enumerate(lines, start=first_line):
        if number in bad:
            continue
        column = line.find("\x00")
        if column >= 0:
            bad[number] = (f"a NUL byte at column {column + 1} (a binary file, or UTF-16 text: "
                           "convert the file to UTF-8, e.g. with iconv)")
            continue
        column = line.find(_BOM, 1 if number == 1 else 0)
        if column >= 0:
            bad[number] = (f"a byte-order mark (U+FEFF) at column {column + 1}, inside the file "
                           "(files joined with cat? remove it, e.g. with sed 's/\\xEF\\xBB\\xBF//g')")


def _split_lines(text: str) -> list[str]:
    """The lines of ``text``, ended by ``\\r\\n``, ``\\r`` or ``\\n``."""
    return _NEWLINE.split(text) if "\r" in text else text.split("\n")


def from_penman(graph, path: str = "<penman.Graph>") -> RawGraph:
    """A :class:`penman.Graph` as a :class:`RawGraph`: its top, triples and metadata.

    penman's decoder stores a role written inverted (``:ARG0-of``) as the normal
    triple; where the graph's layout says it was written inverted, it is turned
    back, so the graph reads as written (smatch's rules apply to roles as written).
    A graph built in code, without a layout, is taken as it is.

    >>> import penman
    >>> g = penman.decode('# ::id s1\\n(d / dog :ARG0-of (b / bark-01) :consist-of (c / cat))')
    >>> raw = from_penman(g)
    >>> raw.top, raw.variables, raw.metadata
    ('d', ('d', 'b', 'c'), {'id': 's1'})
    >>> raw.triples == read_text('(d / dog :ARG0-of (b / bark-01) :consist-of (c / cat))')[0].graph.triples
    True
    >>> from_penman(penman.Graph([("a", ":instance", None)]))
    Traceback (most recent call last):
    ...
    smatchpp.core.exceptions.ReadError: <penman.Graph>:?: variable 'a' has no concept
    """
    from penman.layout import appears_inverted

    triples = []
    for triple in graph.triples:
        source, role, target = triple
        if target is None:
            raise ReadError(f"variable {source!r} has no concept" if role == ":instance"
                            else f"role {role} of {source!r} has no target", path)
        if triple in graph.epidata and role != ":instance" and appears_inverted(graph, triple):
            source, target = target, source
            role = role[:-3] if role.endswith("-of") else role + "-of"
        triples.append((str(source), role, str(target)))
    variables = tuple(dict.fromkeys(s for s, r, _ in triples if r == ":instance"))
    if not variables or graph.top is None:
        raise ReadError("the graph is empty", path)
    # the triples in the order of their variables, as the reader lists them
    order = {v: k for k, v in enumerate(variables)}
    triples.sort(key=lambda t: order.get(t[0], len(order)))
    return RawGraph(str(graph.top), tuple(triples), variables, dict(graph.metadata))


def _read_lines(lines: list[str], path: str, fmt: Format, bad: dict[int, str], first_line: int = 1,
                first_index: int = 0) -> list[Entry]:
    """Entries of ``lines`` (line ``first_line + k`` is ``lines[k]``, the first graph's index
    ``first_index``); ``bad``: line -> decoding error.
    The graphs make no reference cycles: the cycle collector is paused meanwhile."""
    with no_cycle_collection():
        return _entries(lines, path, fmt, bad, first_line, first_index)


def _entries(lines: list[str], path: str, fmt: Format, bad: dict[int, str], first_line: int = 1,
             first_index: int = 0) -> list[Entry]:
    if first_line == 1 and lines and lines[0].startswith(_BOM):
        lines[0] = lines[0][len(_BOM):]
    entries = []
    for index, (line, block, comment) in enumerate(_blocks(lines, first_line), start=first_index):
        metadata = _metadata([x for x, c in zip(block, comment) if c])
        # errors without a precise position point at the graph, not at its comments
        graph_line = line + comment.index(False)
        # a bad byte in a comment only blurs the metadata (U+FFFD); in the graph it is an error
        undecodable = [line + k for k, c in enumerate(comment) if line + k in bad and not c] if bad else None
        try:
            if undecodable:
                raise ReadError(bad[undecodable[0]], line=undecodable[0])
            if fmt == "tsv":
                graph = _parse_tsv(block, line)
            else:
                graph = _parse_penman(block, line, comment, dict(metadata))
        except ReadError as exc:
            where = exc.line or graph_line
            message = exc.message + _format_hint(block, fmt)
            entries.append(Entry(index, path, where, None,
                                 ReadError(message, path, where, index), metadata))
            continue
        entries.append(Entry(index, path, graph_line, graph, None, metadata))
    return entries


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def _format_hint(block: list[str], fmt: Format) -> str:
    """A hint when a graph that failed to read looks like the other format."""
    first = next(x for x in block if not _is_comment(x)).strip()
    if fmt != "tsv" and len(first.split("\t")) == 3 and not first.startswith("("):
        return " (this looks like TSV triples: did you mean --input-format tsv?)"
    if fmt == "tsv" and first.startswith("("):
        return " (this looks like PENMAN: did you mean --input-format penman?)"
    return ""


_META = re.compile(r"::(\S+)(?:[ \t]+(.*?))?(?=[ \t]+::\S|$)")
# the same on a line with one "::" (most lines: "# ::id x", "# ::snt ..."), where the value can
# only end at the end of the line: no lazy match testing for the next key at every character
_ONE_META = re.compile(r"::(\S+)(?:[ \t]+(.*))?$")


def _metadata(comments: list[str]) -> dict[str, str]:
    """``# ::id x ::snt y`` comment lines as a dict; the first value of a key wins
    (two graphs without a blank line between them keep the first one's id)."""
    out: dict[str, str] = {}
    for line in comments:
        line = line.strip()
        if line.count("::") == 1 and ":::" not in line:
            m = _ONE_META.search(line)
            if m is not None:
                out.setdefault(m[1], (m[2] or "").strip())
            continue
        for key, value in _META.findall(line):
            out.setdefault(key, value.strip())
    return out


def _blocks(lines: Sequence[str], first_line: int = 1) -> Iterator[tuple[int, list[str], list[bool]]]:
    """Yield (first line, lines, which lines are comments) per graph (``lines[0]`` is line
    ``first_line``); comment-only blocks are not graphs.

    Like smatch, comment lines never start a graph of their own: a block made of
    comments only (a file header) is dropped.
    """
    block: list[str] = []
    start = 0
    for number, line in enumerate(lines, start=first_line):
        if line.strip():
            if not block:
                start = number
            block.append(line)
            continue
        if block:
            comment = [b.lstrip().startswith("#") for b in block]  # _is_comment, inlined
            if not all(comment):
                yield start, block, comment
            block = []
    if block:
        comment = [_is_comment(b) for b in block]
        if not all(comment):
            yield start, block, comment


# The fast path: one regular expression over a whole graph, matching whole steps of the grammar
# instead of single tokens.  Its pieces are penman's token patterns (``PENMAN_RE``): a symbol and
# a role end where penman's would (the look-ahead keeps the regex from backtracking into them), a
# string does not span lines (penman lexes line by line), and whitespace is penman's, not
# Unicode's.  The last branch catches any other character; then, or on any other surprise (a
# comment or an alignment in the graph, a variable defined twice, text after the graph), the fast
# path gives up and the careful parser below reads the graph, with its error messages.
_SYMBOL_CHARS = r'[^ \t\r\n\v\f"()/:~]'
_FAST_PENMAN = re.compile(r"""
    [ \t\r\n\v\f]*  # whitespace goes with the step after it (faster than findall skipping it)
  (?:
    (:{s}*)(?!{s}) [ \t\r\n\v\f]*
      (?: ({s}+|"[^"\\\n]*(?:\\.[^"\\\n]*)*")                  # 1, 2: :role target
        | \( [ \t\r\n\v\f]* ({s}+) [ \t\r\n\v\f]* / [ \t\r\n\v\f]*
          ({s}+|"[^"\\\n]*(?:\\.[^"\\\n]*)*")                  # 1, 3, 4: :role (var / concept
      )
  | (\)+)                                                      # 5: the end of one or more nodes
  | \( [ \t\r\n\v\f]* ({s}+) [ \t\r\n\v\f]* / [ \t\r\n\v\f]*
        ({s}+|"[^"\\\n]*(?:\\.[^"\\\n]*)*")                    # 6, 7: (var / concept, the top
  | [^ \t\r\n\v\f]                                             # anything else
  )""".format(s=_SYMBOL_CHARS), re.VERBOSE)
_ASCII_SPACE = " \t\r\n\v\f"


def _fast_penman(lines: list[str], comment: list[bool]) -> tuple[str, tuple, tuple, frozenset] | None:
    """The top, triples, variables and inline branches (:attr:`RawGraph.inline`) of a well-formed
    graph written without comments among its tokens and without alignments; ``None`` for
    anything else (the careful parser decides).
    ``comment``: which lines are comments (penman skips them only if ``#`` follows ASCII
    whitespace; a comment line indented otherwise goes to the careful parser)."""
    graph = []
    for line, is_comment in zip(lines, comment):
        if not is_comment:
            graph.append(line)
        elif line.lstrip(_ASCII_SPACE)[:1] != "#":
            return None
    text = "\n".join(graph)
    if "#" in text or "~" in text:
        return None
    nodes: dict[str, list[tuple[str, str, str]]] = {}  # variable -> its instance, then its branches
    stack: list[tuple[list, str]] = []  # the nodes above the current one
    current: list | None = None  # the current node's triples (None before the top and after it)
    var_now = ""  # its variable
    inline: list[tuple[str, int]] = []  # (variable, its k-th triple) written as ``:role (x / ...)``
    for role, target, var, concept, ends, top, top_concept in _FAST_PENMAN.findall(text):
        if target:
            if current is None:
                return None
            current.append((var_now, role, target))
        elif var:
            if current is None or var in nodes:
                return None
            inline.append((var_now, len(current)))
            current.append((var_now, role, var))
            stack.append((current, var_now))
            current = nodes[var] = [(var, ":instance", concept)]
            var_now = var
        elif ends:
            for _ in ends:
                if current is None:
                    return None
                current, var_now = stack.pop() if stack else (None, "")
        elif top and not nodes:
            current = nodes[top] = [(top, ":instance", top_concept)]
            var_now = top
        else:
            return None  # anything else, or a second top
    if current is not None or not nodes:
        return None
    start: dict[str, int] = {}  # where each node's triples begin
    offset = 0
    for v, ts in nodes.items():
        start[v] = offset
        offset += len(ts)
    return (next(iter(nodes)), tuple([t for ts in nodes.values() for t in ts]), tuple(nodes),
            frozenset([start[v] + k for v, k in inline]))


def _lex(lines: list[str]) -> tuple[list[str], list[str], list[int], list[int]]:
    """Token types, texts, 1-based line numbers and columns of ``lines`` by penman's
    token pattern, without the comments."""
    types: list[str] = []
    texts: list[str] = []
    numbers: list[int] = []
    columns: list[int] = []
    for number, line in enumerate(lines, start=1):
        for m in PENMAN_RE.finditer(line):
            kind = m.lastgroup
            if kind != "COMMENT":
                types.append(kind)
                texts.append(m.group())
                numbers.append(number)
                columns.append(m.start())
    return types, texts, numbers, columns


def _parse_penman(lines: list[str], first_line: int, comment: list[bool] | None = None,
                  metadata: dict[str, str] | None = None) -> RawGraph:
    """One PENMAN graph: by the fast path when it can, else by :func:`_careful_penman`.
    ``comment``: which lines are comments; ``metadata``: theirs (both computed when not given)."""
    if comment is None:
        comment = [_is_comment(x) for x in lines]
    fast = _fast_penman(lines, comment)
    if fast is None:
        return _careful_penman(lines, first_line)
    if metadata is None:
        metadata = _metadata([x for x, c in zip(lines, comment) if c])
    top, triples, variables, inline = fast
    return RawGraph(top, triples, variables, metadata, inline)


def _careful_penman(lines: list[str], first_line: int) -> RawGraph:
    """One PENMAN graph, read with a loop and an explicit stack (any depth).

    The tokens are penman's (its lexer pattern), and the grammar is the one of
    ``penman.parse``, with its error messages (``Expected: ROLE``, ``Unexpected
    end of input``, ...).  On top of it, every node needs a variable and a
    concept, every role a target, every variable one definition, and nothing
    may follow the graph.  Triples come node by node in depth-first order: a
    node's instance triple, then its branches as written.
    """
    types, texts, numbers, columns = _lex(lines)
    end = len(types)
    types.append("END")  # what lies past the last token
    branches: list[list[tuple[str, str]]] = []   # per node, in depth-first (pre-)order
    inline: set[tuple[int, int]] = set()          # (node, branch) written as ``:role (x / ...)``
    variables: list[str] = []
    defined: set[str] = set()

    def error(message: str, k: int) -> ReadError:
        if k >= end:
            message, k = "Unexpected end of input", end - 1
        return ReadError(message, line=first_line + numbers[k] - 1 if k >= 0 else first_line)

    def open_node(k: int) -> int:
        """Read ``var / concept`` from token ``k`` (after a LPAREN); return the next position."""
        if types[k] != "SYMBOL":
            raise error("empty node ()" if types[k] == "RPAREN" else "Expected: SYMBOL", k)
        var = texts[k]
        if var in defined:
            raise error(f"variable {var!r} is defined twice", k)
        concept = None
        j = k + 1
        if types[j] == "SLASH":
            j += 1
            if types[j] == "SYMBOL" or types[j] == "STRING":
                concept = texts[j]
                j += 1
                if types[j] == "ALIGNMENT":
                    concept += texts[j]
                    j += 1
        if j >= end:
            raise error("", j)
        if concept is None:
            raise error(f"variable {var!r} has no concept", k)
        defined.add(var)
        variables.append(var)
        branches.append([(":instance", concept)])
        return j

    if types[0] != "LPAREN":
        raise error("Expected: LPAREN", 0)
    pos = open_node(1)
    stack = [0]
    while stack:
        kind = types[pos]
        if kind == "RPAREN":
            pos += 1
            stack.pop()
            continue
        if kind != "ROLE":
            raise error("Expected: ROLE", pos)
        node = stack[-1]
        role_at = pos
        role = texts[pos]
        pos += 1
        if types[pos] == "ALIGNMENT":
            role += texts[pos]
            pos += 1
        kind = types[pos]
        if kind == "SYMBOL" or kind == "STRING":
            target = texts[pos]
            pos += 1
            if types[pos] == "ALIGNMENT":
                target += texts[pos]
                pos += 1
            branches[node].append((role, target))
        elif kind == "LPAREN":
            pos = open_node(pos + 1)
            inline.add((node, len(branches[node])))
            branches[node].append((role, variables[-1]))
            stack.append(len(variables) - 1)
        elif kind == "ROLE" or kind == "RPAREN":
            raise error(f"role {role} of {variables[node]!r} has no target", role_at)
        else:
            raise error("Expected: SYMBOL, STRING, LPAREN", pos)
    if pos < end:
        text = lines[numbers[pos] - 1][columns[pos]:].strip()
        raise ReadError(f"unexpected text after the end of the graph: {text[:40]!r} "
                        "(missing blank line between graphs, or unbalanced parentheses?)",
                        line=first_line + numbers[pos] - 1)
    triples = tuple((var, role, target) for var, bs in zip(variables, branches) for role, target in bs)
    starts = [0]
    for bs in branches:
        starts.append(starts[-1] + len(bs))
    comments = [x for x in lines if _is_comment(x)]
    return RawGraph(variables[0], triples, tuple(variables), _metadata(comments),
                    frozenset(starts[node] + k for node, k in inline))


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

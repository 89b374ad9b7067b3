"""Reading: malformed input, error locations, ``on_error`` policies, metadata, TSV.

A :class:`ReadError` prints as ``path:line: graph N: message`` (1-based line,
0-based graph index); a bad graph never stops the other graphs of the file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from smatchpp.api import Config, Scorer, read_errors, score_corpus, score_files, score_pair
from smatchpp.core.exceptions import InputMismatchError, ReadError, SmatchppError
from smatchpp.graphs.read import read_file, read_text

ERR = re.compile(r"^(?P<path>.+):(?P<line>\d+): graph (?P<index>\d+): (?P<message>.+)$")


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _parts(error: ReadError | str) -> tuple[str, int, int, str]:
    m = ERR.match(str(error))
    assert m, str(error)
    return m["path"], int(m["line"]), int(m["index"]), m["message"]


def _assert_located(error: ReadError | str | None, path: str, lines: tuple[int, ...], index: int) -> None:
    """``error`` reads ``path:line: graph index: ...`` with ``line`` one of ``lines``."""
    assert error is not None
    p, line, i, _ = _parts(error)
    assert (p, i) == (path, index) and line in lines, str(error)


# A file whose graphs 1, 3, 5 and 6 are malformed, each in its own way.
#   line numbers: graph 0 = line 3, graph 1 = lines 5-7, graph 2 = lines 9-10,
#   graph 3 = line 12, graph 4 = lines 14-15, graph 5 = line 17, graph 6 = line 19
BAD_FILE = """\
# a header block made of comments only: not a graph

(a / dog :ARG0 (b / cat))

# ::id unbalanced
(a / dog
   :ARG0 (b / cat

# ::id g2
(x / bark-01)

(a / dog :ARG0 (a / cat))

# ::id g4
(n / name :op1 "New York")

(a :ARG0 (b / cat))

(a / dog :ARG0 (b / / cat))
"""


@pytest.fixture
def bad_entries(tmp_path):
    path = _write(tmp_path, "bad.amr", BAD_FILE)
    return path, read_file(path)


def test_bad_file_other_graphs_are_read(bad_entries):
    path, entries = bad_entries
    assert [e.index for e in entries] == list(range(7))  # the header block is not a graph
    ok = [e.index for e in entries if e.error is None]
    assert ok == [0, 2, 4]
    assert entries[0].graph.triples == (("a", ":instance", "dog"), ("a", ":ARG0", "b"),
                                        ("b", ":instance", "cat"))
    assert entries[2].id == "g2" and entries[4].id == "g4"
    assert all(e.path == path for e in entries)


def test_unbalanced_parens_location(bad_entries):
    path, entries = bad_entries
    err = entries[1].error
    assert isinstance(err, ReadError) and isinstance(err, SmatchppError)
    p, line, index, message = _parts(err)
    assert (p, index) == (path, 1)
    assert 5 <= line <= 7  # inside the block (penman reports the end of input: line 7)
    assert (err.path, err.line, err.index) == (p, line, index)
    assert str(err) == f"{path}:{line}: graph 1: {err.message}"


def test_semantic_error_line_skips_comments():
    entries = read_text(TEST_WITH_ERROR, "t.amr")
    assert _parts(entries[1].error)[1] == 5


def test_duplicate_variable_location(bad_entries):
    path, entries = bad_entries
    p, line, index, message = _parts(entries[3].error)
    assert (p, line, index) == (path, 12, 3)
    assert "'a'" in message and "twice" in message


def test_missing_concept_location(bad_entries):
    path, entries = bad_entries
    p, line, index, message = _parts(entries[5].error)
    assert (p, line, index) == (path, 17, 5)
    assert "'a'" in message and "concept" in message


def test_syntax_error_location(bad_entries):
    path, entries = bad_entries
    p, line, index, _ = _parts(entries[6].error)
    assert (p, line, index) == (path, 19, 6)


def test_read_errors_lists_all(bad_entries):
    _, entries = bad_entries
    errors = read_errors(entries)
    assert [e.index for e in errors] == [1, 3, 5, 6]


def test_read_text_path_default():
    entries = read_text("(a / b)\n\n(a / b :ARG0 (a / c))")
    assert str(entries[1].error).startswith("<string>:3: graph 1: ")


@pytest.mark.parametrize("text", [
    "(a / b :ARG0 (c / d)",          # missing ')'
    "((a / b)",
    "a / b",                         # no parenthesis at all
    "(a / b / c)",
    "(a)",                           # no concept
    "(a / b :ARG0 (a / c))",         # a defined twice
])
def test_malformed_single_graphs(text):
    entries = read_text(text, "x.amr")
    assert len(entries) == 1 and entries[0].graph is None
    assert str(entries[0].error).startswith("x.amr:1: graph 0: ")
    with pytest.raises(ReadError):
        score_pair(text, "(a / b)")


@pytest.mark.parametrize("text", [
    "(a / b :ARG0 (c / d)) :ARG1 (e / f))",
    "(a / b))",
    "(a / b)\n(c / d)",
    "(a / b) junk",
])
def test_trailing_content_is_an_error(text):
    entries = read_text(text, "x.amr")
    assert entries[0].error is not None


def test_role_without_target_is_a_read_error():
    entries = read_text("(a / b :ARG0)", "x.amr")
    corpus = Scorer(Config(on_error="empty")).score_corpus(entries, read_text("(a / b)"))
    assert entries[0].error is not None
    assert corpus.pairs[0].f1 == 0.0


def test_id_of_unreadable_graph_is_kept():
    entries = read_text("# ::id broken\n(a / b :ARG0 (c / d)")
    assert entries[0].id == "broken"


# ---------------------------------------------------------------------------
# on_error policies

GOLD = """\
# ::id p0
(x / dog :ARG0 (y / cat))

# ::id p1
(x / dog)

# ::id p2
(z / cat :polarity -)
"""

TEST_WITH_ERROR = """\
# ::id p0
(a / dog :ARG0 (b / cat))

# ::id p1
(a / dog :ARG0 (a / cat))

# ::id p2
(c / cat)
"""


@pytest.fixture
def files(tmp_path):
    return _write(tmp_path, "test.amr", TEST_WITH_ERROR), _write(tmp_path, "gold.amr", GOLD)


def test_on_error_raise(files):
    test, gold = files
    with pytest.raises(ReadError) as info:
        score_files(test, gold)  # 'raise' is the default
    _assert_located(str(info.value), test, (4, 5), 1)
    with pytest.raises(ReadError):
        score_files(test, gold, on_error="raise")


def test_on_error_empty(files):
    test, gold = files
    corpus = score_files(test, gold, on_error="empty")
    bad = corpus.pairs[1]
    assert bad.status == "optimal"
    assert (bad.matched, bad.test_triples, bad.gold_triples) == (0, 0, 2)  # gold triples kept
    assert bad.f1 == 0.0 and bad.precision == 0.0 and bad.recall == 0.0
    _assert_located(bad.error, test, (4, 5), 1)
    assert bad.id == "p1"  # from the gold side
    # the other pairs are scored normally: 4 of (4, 4) and 2 of (2, 3)
    assert [(p.matched, p.test_triples, p.gold_triples) for p in corpus.pairs] == [
        (4, 4, 4), (0, 0, 2), (2, 2, 3)]
    assert corpus.micro[:2] == (6 / 6, 6 / 9)
    assert corpus.summary()["scored"] == 3
    assert corpus.summary()["errors"] == [bad.error]


def test_on_error_skip(files):
    test, gold = files
    corpus = score_files(test, gold, on_error="skip")
    statuses = [p.status for p in corpus.pairs]
    assert statuses == ["optimal", "skipped", "optimal"]
    _assert_located(corpus.pairs[1].error, test, (4, 5), 1)
    assert [p.index for p in corpus.scored] == [0, 2]
    # excluded from micro: P = (4 + 2) / (4 + 2), R = (4 + 2) / (4 + 3)
    assert corpus.micro[:2] == (6 / 6, 6 / 7)
    summary = corpus.summary()
    assert summary["pairs"] == 3 and summary["scored"] == 2
    assert summary["status_counts"] == {"optimal": 2, "skipped": 1}


def test_error_on_gold_side_empty(tmp_path):
    test = _write(tmp_path, "t.amr", "(a / dog)\n")
    gold = _write(tmp_path, "g.amr", "(a / dog :ARG0 (a / cat))\n")
    pair = score_files(test, gold, on_error="empty").pairs[0]
    assert (pair.matched, pair.test_triples, pair.gold_triples) == (0, 2, 0)
    assert pair.error.startswith(f"{gold}:1: graph 0: ")


def test_mismatched_graph_counts(tmp_path):
    test = _write(tmp_path, "t.amr", "(a / dog)\n\n(b / cat)\n")
    gold = _write(tmp_path, "g.amr", "(a / dog)\n")
    with pytest.raises(InputMismatchError) as info:
        score_files(test, gold)
    assert test in str(info.value) and gold in str(info.value)
    assert isinstance(info.value, SmatchppError)


def test_unknown_on_error():
    with pytest.raises(ValueError):
        Config(on_error="ignore")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# metadata and comment blocks


def test_metadata_id_and_comment_only_blocks():
    text = ("# AMR release; header\n# more header\n\n"
            "# ::id s1 ::date 2020\n# ::snt A dog.\n(d / dog)\n\n"
            "# just a comment block\n\n"
            "# ::id s2\n(c / cat)\n\n"
            "# trailing comment only\n")
    entries = read_text(text, "m.amr")
    assert [e.index for e in entries] == [0, 1]
    assert entries[0].id == "s1"
    assert entries[0].graph.metadata["snt"] == "A dog."
    assert entries[1].id == "s2"
    assert entries[0].line == 6 and entries[1].line == 11  # the graph's line, not its comments


def test_ids_reach_pair_scores(tmp_path):
    test = _write(tmp_path, "t.amr", "# ::id one\n(a / dog)\n\n(b / cat)\n")
    gold = _write(tmp_path, "g.amr", "(a / dog)\n\n# ::id two\n(b / cat)\n")
    pairs = score_files(test, gold).pairs
    assert [p.id for p in pairs] == ["one", "two"]


def test_empty_file(tmp_path):
    path = _write(tmp_path, "e.amr", "# only a header\n\n")
    assert read_file(path) == []
    assert score_files(path, path).pairs == []


# ---------------------------------------------------------------------------
# TSV


def test_tsv_reading():
    text = ("# ::id t1\n"
            "d\tinstance\tdog\n"
            "d\t:ARG0-of\tb\n"
            "b\tinstance\tbark-01\n")
    entries = read_text(text, "x.tsv", fmt="tsv")
    assert entries[0].id == "t1"
    assert entries[0].graph.top == "d"
    assert entries[0].graph.variables == ("d", "b")
    assert entries[0].graph.triples == (("d", ":instance", "dog"), ("d", ":ARG0-of", "b"),
                                        ("b", ":instance", "bark-01"))


@pytest.mark.parametrize("bad_line", ["d\tARG0", "d\tARG0\tb\textra", "d ARG0 b", "d\t\tb"])
def test_tsv_bad_line(bad_line):
    text = "d\tinstance\tdog\n\nd\tinstance\tdog\n" + bad_line + "\nb\tinstance\tcat\n"
    entries = read_text(text, "x.tsv", fmt="tsv")
    assert entries[0].error is None
    p, line, index, message = _parts(entries[1].error)
    assert (p, line, index) == ("x.tsv", 4, 1)


def test_tsv_duplicate_variable():
    entries = read_text("a\tinstance\tdog\na\tinstance\tcat\n", "x.tsv", fmt="tsv")
    assert _parts(entries[0].error)[:3] == ("x.tsv", 2, 0)


PENMAN_CORPUS = [
    '(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b :polarity -))',
    '(c / city :name (n / name :op1 "New" :op2 "York") :mod (b / big) :ARG0-of (l / live-01))',
    '(a / dog :ARG0 a :ARG0 a :consist-of (x / cat :mod 5))',
]


def _to_tsv(text: str) -> str:
    raw = read_text(text)[0].graph
    return "\n".join("\t".join(t) for t in raw.triples) + "\n"


@pytest.mark.parametrize("gold", PENMAN_CORPUS)
@pytest.mark.parametrize("test", PENMAN_CORPUS)
def test_tsv_round_trip_scores(tmp_path, test, gold):
    pen_t = _write(tmp_path, "t.amr", test + "\n")
    pen_g = _write(tmp_path, "g.amr", gold + "\n")
    tsv_t = _write(tmp_path, "t.tsv", _to_tsv(test))
    tsv_g = _write(tmp_path, "g.tsv", _to_tsv(gold))
    by_penman = score_files(pen_t, pen_g).pairs[0]
    by_tsv = score_files(tsv_t, tsv_g).pairs[0]  # fmt='auto' picks TSV for *.tsv
    mixed = Scorer().score_corpus(read_file(pen_t), read_file(tsv_g, "tsv")).pairs[0]
    for s in (by_tsv, mixed):
        assert (s.matched, s.test_triples, s.gold_triples, s.status) == (
            by_penman.matched, by_penman.test_triples, by_penman.gold_triples, by_penman.status)


def test_tsv_multi_graph_file(tmp_path):
    text = "\n".join(_to_tsv(t) for t in PENMAN_CORPUS)
    path = _write(tmp_path, "c.tsv", text)
    entries = read_file(path)
    assert len(entries) == len(PENMAN_CORPUS)
    assert all(e.error is None for e in entries)
    assert [e.graph.triples for e in entries] == [read_text(t)[0].graph.triples for t in PENMAN_CORPUS]


def test_tsv_undeclared_source_is_an_error():
    entries = read_text("x\tARG0\ta\na\tinstance\tdog\n", "u.tsv", fmt="tsv")
    assert entries[0].error is not None


# ---------------------------------------------------------------------------
# score_corpus on lists of strings: one string, one graph


def test_score_corpus_empty_string_keeps_pairing():
    corpus = score_corpus(["", "(a / dog)"], ["(x / dog)", ""], on_error="empty")
    assert len(corpus.pairs) == 2


def test_score_corpus_counts_graphs_per_string():
    with pytest.raises(ReadError, match="expected one graph, found 2 graphs"):
        score_corpus(["(a / b)\n\n(c / d)"], ["(x / y)"])
    with pytest.raises(ReadError, match="found no graph"):
        score_corpus(["", "(a / b)"], ["(x / y)", "(x / y)"])


# ---------------------------------------------------------------------------
# issue 9.1: encoding (bytes decoded line by line, BOM)

from collections import Counter  # noqa: E402

import penman  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from strategies import penman_specs, render_penman  # noqa: E402


def test_non_utf8_line_spoils_only_its_graph(tmp_path):
    path = tmp_path / "latin1.amr"
    path.write_bytes(b"(a / dog)\n\n# ::id bad\n(b / cat\n   :mod (c / caf\xe9))\n\n(d / bird)\n")
    entries = read_file(path)
    assert [e.error is None for e in entries] == [True, False, True]
    p, line, index, message = _parts(entries[1].error)
    assert (p, line, index) == (str(path), 5, 1)
    assert "UTF-8" in message and "0xe9" in message and "column 17" in message
    assert entries[1].id == "bad"  # the comments of the graph are still read
    assert entries[2].graph.triples == (("d", ":instance", "bird"),)
    assert entries[2].line == 7


def test_non_utf8_graph_on_error_empty_scores_the_rest(tmp_path):
    test = tmp_path / "t.amr"
    test.write_bytes(b"(a / caf\xe9)\n\n(b / dog)\n")
    gold = _write(tmp_path, "g.amr", "(a / cafe)\n\n(b / dog)\n")
    corpus = score_files(str(test), gold, on_error="empty")
    assert [(p.matched, p.test_triples, p.gold_triples) for p in corpus.pairs] == [(0, 0, 2), (2, 2, 2)]
    _assert_located(corpus.pairs[0].error, str(test), (1,), 0)
    with pytest.raises(ReadError):
        score_files(str(test), gold)


def test_non_utf8_comment_does_not_spoil_the_graph():
    from smatchpp.graphs.read import read_bytes

    entries = read_bytes(b"# ::id x1 ::snt caf\xe9 au lait\n(c / coffee)\n", "m.amr")
    assert entries[0].error is None and entries[0].id == "x1"
    assert entries[0].graph.triples == (("c", ":instance", "coffee"),)
    assert entries[0].metadata["snt"] == "caf\ufffd au lait"


@pytest.mark.parametrize("newline", [b"\n", b"\r\n"])
def test_utf8_bom_is_ignored(tmp_path, newline):
    path = tmp_path / "bom.amr"
    from smatchpp.graphs.read import read_bytes

    path.write_bytes(b"\xef\xbb\xbf# ::id s1" + newline + "(a / café)".encode() + newline)
    entries = read_file(path)
    assert entries[0].error is None and entries[0].id == "s1"
    assert entries[0].graph.triples == (("a", ":instance", "café"),)
    # a graph right after the mark, and the same through read_text
    assert read_bytes(b"\xef\xbb\xbf(a / b)")[0].graph.triples == (("a", ":instance", "b"),)
    assert read_text("\ufeff(a / b)")[0].graph.triples == (("a", ":instance", "b"),)


def test_bytes_and_text_number_lines_alike():
    from smatchpp.graphs.read import read_bytes

    text = "(a / b)\r\n\r\n(c / d\r\n :ARG0 (c / e))\n\n(f / g)"
    by_text = read_text(text, "x")
    by_bytes = read_bytes(text.encode(), "x")
    assert [(e.line, str(e.error)) for e in by_text] == [(e.line, str(e.error)) for e in by_bytes]
    assert _parts(by_text[1].error)[1] == 4


# ---------------------------------------------------------------------------
# issue 9.2: graphs of any depth


def _chain(depth: int, role=lambda i: f":r{i}") -> str:
    """A chain ``v0 -> v1 -> ... `` nested ``depth`` levels deep, on one line per level."""
    opening = "\n".join(f"(v{i} / c{i} {role(i)}" for i in range(depth - 1))
    return opening + f"\n(v{depth - 1} / c{depth - 1}" + ")" * depth


def test_deep_graph_is_read():
    depth = 5000
    entry = read_text(_chain(depth), "deep.amr")[0]
    assert entry.error is None
    expected = []
    for i in range(depth):
        expected.append((f"v{i}", ":instance", f"c{i}"))
        if i < depth - 1:
            expected.append((f"v{i}", f":r{i}", f"v{i + 1}"))
    assert entry.graph.triples == tuple(expected)
    assert entry.graph.top == "v0" and entry.graph.variables == tuple(f"v{i}" for i in range(depth))


def test_deep_graph_is_scored():
    deep = _chain(5000)
    pair = score_pair(deep, deep)
    # 5000 instances, 4999 relations and TOP
    assert (pair.matched, pair.test_triples, pair.status) == (10000, 10000, "optimal")


def test_deep_graph_errors_are_located():
    text = _chain(3000).replace("(v2500 / c2500", "(v2500 / c2500 :r (v7 / x)")
    p, line, index, message = _parts(read_text("(a / b)\n\n" + text, "deep.amr")[1].error)
    assert (line, index) == (3 + 2500, 1) and "'v7'" in message and "twice" in message


# ---------------------------------------------------------------------------
# issue 9.3: comments inside and after a graph


def test_comment_lines_inside_and_after_a_graph():
    text = ("# ::id c1\n"
            "(a / dog\n"
            "   # ARG0 is the cat\n"
            "   :ARG0 (b / cat)  # an end-of-line comment\n"
            "# a comment in column 0\n"
            "   :mod (c / big))\n"
            "# a comment after the graph\n"
            "\n"
            "(d / bird)\n"
            "# :ARG0 (e / elephant)\n")
    entries = read_text(text, "c.amr")
    assert [e.error for e in entries] == [None, None]
    assert entries[0].id == "c1"
    assert entries[0].graph.triples == (("a", ":instance", "dog"), ("a", ":ARG0", "b"),
                                        ("a", ":mod", "c"), ("b", ":instance", "cat"),
                                        ("c", ":instance", "big"))
    assert entries[1].graph.triples == (("d", ":instance", "bird"),)


def test_hash_inside_quotes_is_not_a_comment():
    entry = read_text('(n / name :op1 "#1" :op2 "a # b"\n   :op3 "#")')[0]
    assert entry.graph.triples == (("n", ":instance", "name"), ("n", ":op1", '"#1"'),
                                   ("n", ":op2", '"a # b"'), ("n", ":op3", '"#"'))


def test_error_lines_stay_right_around_comments():
    text = ("(a / b\n"
            "# one\n"
            "  :ARG0 (c / d)\n"
            "  # two\n"
            "  :ARG1 (a / e))\n")
    assert _parts(read_text(text, "c.amr")[0].error)[:3] == ("c.amr", 5, 0)
    text = "(a / b\n# one\n  :ARG0 (c / d)))\n# two\n"
    p, line, index, message = _parts(read_text(text, "c.amr")[0].error)
    assert line == 3 and "after the end of the graph" in message


# ---------------------------------------------------------------------------
# penman stays the reference


def _penman_triples(text: str) -> Counter:
    return Counter(penman.decode(text).triples)


def _ours_as_penman(text: str) -> Counter:
    """Our raw triples with penman's normalization: a role ending in ``-of`` between
    two variables is inverted."""
    graph = read_text(text)[0].graph
    assert graph is not None
    return Counter((t, r[:-3], s) if r.endswith("-of") and t in graph.variables else (s, r, t)
                   for s, r, t in graph.triples)


@settings(max_examples=150)
@given(penman_specs(max_vars=10, max_extra=4, max_constants=4), st.data())
def test_same_triples_as_penman_decode(spec, data):
    text = render_penman(spec)
    assert _ours_as_penman(text) == _penman_triples(text)
    assert read_text(text)[0].graph.top == penman.decode(text).top
    # the same graph over several lines with comment lines between its tokens
    tokens = re.findall(r'"[^"]*"|[()]|[^\s()"]+', text)
    cuts = data.draw(st.lists(st.integers(0, len(tokens)), max_size=4))
    for k in sorted(cuts, reverse=True):
        tokens.insert(k, "\n# (x / comment :ARG0 y)\n")
    commented = re.sub(r"\n\s*\n", "\n", " ".join(tokens))  # a blank line would end the graph
    assert _ours_as_penman(commented) == _penman_triples(text)


_SOUP = st.lists(st.sampled_from(["(", ")", "a", "b", "c", "/", ":r", ":s", '"q"', "~1"]),
                 min_size=1, max_size=14)


@settings(max_examples=300)
@given(_SOUP)
def test_random_token_soup_agrees_with_penman(tokens):
    text = " ".join(tokens)
    entry = read_text(text)[0]
    try:
        penman.parse(text)
    except penman.DecodeError:
        assert entry.error is not None  # penman rejects it: so do we
        return
    if entry.error is None:  # we accept it: penman reads the same triples
        assert _ours_as_penman(text) == _penman_triples(text)


# ---------------------------------------------------------------------------
# issue 9.4: which graph makes the counts differ; ids that disagree


GOLD3 = "# ::id s1\n(x / dog)\n\n# ::id s2\n(y / cat)\n\n# ::id s3\n(z / bird)\n"


def _check(test_text: str, gold_text: str = GOLD3):
    from smatchpp.graphs.pairing import check_pairing

    return check_pairing(read_text(test_text, "t.amr"), read_text(gold_text, "g.amr"))


def test_count_mismatch_names_the_merged_graph(tmp_path):
    merged = "# ::id s1\n(a / dog)\n\n# ::id s2\n(b / cat)\n# ::id s3\n(c / bird)\n"
    check = _check(merged)
    assert check.mismatch.startswith("t.amr has 2 graphs but g.amr has 3")
    # the graph at line 5 (index 1) is followed by another one on line 7
    assert "t.amr:7: graph 1: two graphs without a blank line between them?" in check.mismatch
    # the same diagnosis comes out of score_files, on the real paths
    test, gold = _write(tmp_path, "t.amr", merged), _write(tmp_path, "g.amr", GOLD3)
    with pytest.raises(InputMismatchError, match=re.escape(f"{test}:7: graph 1: two graphs")):
        score_files(test, gold)


def test_count_mismatch_names_a_graph_cut_by_a_blank_line():
    cut = "(a / dog)\n\n(b / cat\n\n   :ARG0 (c / bird))\n\n(d / cow)\n"
    check = _check(cut, "(a / dog)\n\n(b / cat :ARG0 (c / bird))\n\n(d / cow)\n")
    assert "t.amr:3: graph 1 and graph 2: one graph cut in two by a blank line?" in check.mismatch


def test_count_mismatch_names_where_the_ids_part():
    # no graph is malformed, but the test file lost s2: the ids say where
    check = _check("# ::id s1\n(a / dog)\n\n# ::id s3\n(c / bird)\n")
    assert "t.amr:5: graph 1 has id s3 but g.amr:5: graph 1 has id s2; id s3 is graph 2 of g.amr" \
        in check.mismatch


def test_count_mismatch_without_clues_says_so():
    check = _check("(a / dog)\n", "(a / dog)\n\n(b / cat)\n")
    assert "t.amr has 1 graph but g.amr has 2 graphs" in check.mismatch
    assert "check the blank lines" in check.mismatch


def test_id_disagreement_at_the_same_index_warns():
    shifted = "# ::id s2\n(b / cat)\n\n# ::id s3\n(c / bird)\n\n# ::id s4\n(d / cow)\n"
    check = _check(shifted)
    assert check.mismatch is None
    assert len(check.warnings) == 3
    assert check.warnings[0].startswith("graph 0: t.amr:2 has id s2 but g.amr:2 has id s1")
    assert "3 of 3 graphs" in check.warnings[0]


def test_ids_that_agree_or_are_missing_do_not_warn():
    assert _check(GOLD3.replace("(x", "(a")).warnings == ()
    assert _check("(a / dog)\n\n# ::id other\n(b / cat)\n\n(c / bird)\n",
                  "(a / dog)\n\n(b / cat)\n\n# ::id s3\n(c / bird)\n").warnings == ()


def test_many_id_disagreements_are_summarized():
    n = 12
    a = "".join(f"# ::id a{i}\n(x / dog)\n\n" for i in range(n))
    b = "".join(f"# ::id b{i}\n(x / dog)\n\n" for i in range(n))
    warnings = _check(a, b).warnings
    assert len(warnings) == 6 and warnings[-1] == f"... and {n - 5} more graphs whose ids disagree"


# ---------------------------------------------------------------------------
# issue 9.5: empty inputs


def test_empty_inputs_warn():
    check = _check("# only a header\n", "")
    assert check.mismatch is None
    assert len(check.warnings) == 1 and "hold no graph" in check.warnings[0]


def test_one_empty_input_is_named():
    check = _check("", GOLD3)
    assert "holds no graph" in check.mismatch


# ---------------------------------------------------------------------------
# issue 9.6: a file in the other format


def test_tsv_content_read_as_penman_suggests_tsv(tmp_path):
    path = _write(tmp_path, "triples.txt", "d\tinstance\tdog\nd\tARG0\tb\nb\tinstance\tcat\n\n"
                                          "# ::id 2\nx\tinstance\tcat\n")
    entries = read_file(path)
    assert len(entries) == 2
    for e in entries:
        assert "did you mean --input-format tsv?" in e.error.message
    assert [e.graph.triples for e in read_file(path, "tsv")] == [
        (("d", ":instance", "dog"), ("d", ":ARG0", "b"), ("b", ":instance", "cat")),
        (("x", ":instance", "cat"),)]


def test_penman_content_read_as_tsv_suggests_penman():
    entry = read_text("(a / dog)\n", "x.tsv", fmt="tsv")[0]
    assert "did you mean --input-format penman?" in entry.error.message
    assert "did you mean" not in read_text("(a / dog\n", "x.amr")[0].error.message


# ---------------------------------------------------------------------------
# the fast path (one regex over a well-formed graph) reads exactly what the careful parser reads

from smatchpp.graphs import read as read_module  # noqa: E402


def _careful_only(read):
    """``read()`` with the fast path switched off: every graph goes through the careful parser."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(read_module, "_fast_penman", lambda lines, comment: None)
        return read()


def _summary(entries):
    # RawGraph's equality leaves out ``inline``: compared here on its own
    return [(e.index, e.path, e.line, e.graph, e.graph and e.graph.inline, str(e.error), e.metadata)
            for e in entries]


def _fast_taken(text: str) -> bool:
    lines = text.split("\n")
    return read_module._fast_penman(lines, [read_module._is_comment(x) for x in lines]) is not None


@settings(max_examples=150)
@given(penman_specs(max_vars=10, max_extra=4, max_constants=4), st.data())
def test_fast_path_equals_careful_parser_on_random_graphs(spec, data):
    text = render_penman(spec)
    # the same tokens with other whitespace between them, and comment lines before and after
    tokens = re.findall(r'"[^"]*"|[()/]|[^\s()"/]+', text)
    spaces = data.draw(st.lists(st.sampled_from(["", " ", "\n", "\t", "\n  ", "\x0b", "\xa0"]),
                                min_size=len(tokens), max_size=len(tokens)))
    spaced = "".join(t + s for t, s in zip(tokens, spaces)).replace("\n\n", "\n")
    for variant in (text, "# ::id x ::snt a b\n" + spaced + "\n# after\n  # indented"):
        fast = read_text(variant, "r.amr")
        assert _summary(fast) == _summary(_careful_only(lambda: read_text(variant, "r.amr")))
    assert _fast_taken(text)  # a plain graph does take the fast path


_FAST_SOUP = st.lists(st.sampled_from(["(", ")", "a", "b", "c", "/", ":r", ":s", ":", '"q"', '"', '"x\\"y"',
                                       "~1", "a~e.2", "#", "# c", "\n", "\n# ::id i\n", "\n\n", "\xa0",
                                       "\xa0#", "a#b", ":r-of", "\t", "\r"]),
                      min_size=1, max_size=16)


@settings(max_examples=400)
@given(_FAST_SOUP)
def test_fast_path_equals_careful_parser_on_token_soup(tokens):
    text = " ".join(tokens)
    assert _summary(read_text(text, "s.amr")) == \
        _summary(_careful_only(lambda: read_text(text, "s.amr")))


@pytest.mark.parametrize("text", [
    '(a / b :r "x\\"y\nz")',            # a string does not span lines, even after an escape
    '(a / b :r "x\ny")', '(a / "b\nc")',
    '(a / b\n\xa0# not a comment to penman\n)',  # only ASCII whitespace may precede a comment
    '(a / b\n \t# a comment\n :r c)',
    '(a / b :r\xa0c)', '(a / b :r\x0bc)', '(a / b :r(c / d))', '(a / b :r)', '(a / b :r :s c)',
    '(a / b :r c d)', '(a / b) (c / d)', '(a / b))', '(a / b :r (a / c))', '(a / b :r c~1)',
    '(a/b:r"c":s(d/e))', '(a / "b" :r "")', '( / b)', '(a b)', '(a / b :r (c))', '(a / b # c\n)',
    # a role and its node, and a run of closing parentheses, are one step each
    '(a / b :r (c / d :s (e / f)))', '(a / b :r (c / d)))', '(a / b :r (c / d))) (x / y)',
    '(a / b :r (c / d) ) )', '(a / b :r ( c / d :s e))', '(a / b :r (c / d :s (e / f)) :t g)',
    '(a / b :r ())', '(a / b :r (c /)', '(a / b :r (c / d)', '(a / b :r (a / d))', ')(a / b)',
    '(a / b :r (c / "d e"))', '(a / b :r\n  (c / d))', '(a / b :(c / d))',
])
def test_fast_path_equals_careful_parser_on_edge_cases(text):
    assert _summary(read_text(text, "e.amr")) == _summary(_careful_only(lambda: read_text(text, "e.amr")))


def _metadata_by_one_regex(comments):
    """The metadata rule as one regex over every line (what ``_metadata``'s shortcut must equal)."""
    out = {}
    for line in comments:
        for key, value in read_module._META.findall(line.strip()):
            out.setdefault(key, value.strip())
    return out


@settings(max_examples=400)
@given(st.lists(st.lists(st.sampled_from(["#", " ", "\t", "::", ":", "a", "id", "snt", "x y", "\xa0", "\x0b",
                                          "\u3000"]), max_size=10).map("".join), min_size=1, max_size=3))
def test_metadata_shortcut_equals_the_regex(lines):
    assert read_module._metadata(lines) == _metadata_by_one_regex(lines)


def _shared_graph_files():
    from conftest import SHARED

    data = SHARED / "data"
    return sorted(p for p in data.rglob("*") if p.suffix == ".amr" or p.name.startswith("amr-"))


def _split_text_lines(path):
    return read_module._split_lines(Path(path).read_bytes().decode("utf-8", errors="replace"))


def test_fast_path_equals_careful_parser_on_shared_data():
    files = _shared_graph_files()
    if not files:
        pytest.skip("../shared/data is not there")
    graphs = 0
    for path in files:
        fast = read_file(path)
        assert _summary(fast) == _summary(_careful_only(lambda: read_file(path))), path
        comments = [x for x in _split_text_lines(path) if read_module._is_comment(x)]
        assert [read_module._metadata([x]) for x in comments] == \
            [_metadata_by_one_regex([x]) for x in comments], path
        graphs += len(fast)
    assert graphs > 80000


def test_nul_character_spoils_only_its_graph():
    """A NUL (a binary or UTF-16 file) was read into a label; now its graph is unreadable,
    from bytes and from text alike, and a NUL in a comment only stays in the metadata."""
    from smatchpp.graphs.read import read_bytes

    text = "(a / dog)\n\n# ::id x\x00\n(b / ca\x00t)\n\n# ::snt a\x00b\n(d / bird)\n"
    for entries in (read_text(text, "n.amr"), read_bytes(text.encode(), "n.amr")):
        assert [e.error is None for e in entries] == [True, False, True]
        p, line, index, message = _parts(entries[1].error)
        assert (p, line, index) == ("n.amr", 4, 1)
        assert message.startswith("a NUL byte at column 8 (a binary file, or UTF-16 text")
        assert entries[2].graph.triples == (("d", ":instance", "bird"),) and entries[2].metadata["snt"] == "a\x00b"
    # UTF-16 without a byte-order mark decodes as UTF-8 with a NUL after every ASCII character
    utf16 = read_bytes("(a / dog)\n\n(b / cat)\n".encode("utf-16-le"), "u.amr")
    assert all(e.error is not None and "a NUL byte" in str(e.error) for e in utf16)


def test_byte_order_mark_inside_the_file_spoils_only_its_graph():
    """Files joined with cat leave a byte-order mark at a graph's start: penman's error named
    neither the mark nor its column; the file's own leading mark is still ignored."""
    from smatchpp.graphs.read import read_bytes

    data = b"\xef\xbb\xbf(a / dog)\n\n\xef\xbb\xbf# ::id x\n(b / cat)\n\n(d / bird :mod \"x\xef\xbb\xbf\")\n\n(e / eel)\n"
    for entries in (read_bytes(data, "j.amr"), read_text(data.decode(), "j.amr")):
        assert [e.error is None for e in entries] == [True, False, False, True]
        assert [_parts(e.error)[:3] for e in entries[1:3]] == [("j.amr", 3, 1), ("j.amr", 6, 2)]
        assert _parts(entries[1].error)[3].startswith("a byte-order mark (U+FEFF) at column 1, inside the file")
        assert "at column 18" in _parts(entries[2].error)[3]

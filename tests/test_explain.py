"""The alignment explorer: its counts are the scorer's, and its views show them.

* :func:`smatchpp.matching.triple_match` against the brute-force oracle's
  count for random alignments;
* every :class:`Explanation` (random graphs, and real BAMBOO pairs when
  ``../shared`` is present): matched triples = the scorer's ``matched``, triples
  per side = ``test_triples``/``gold_triples``, the hill-climber's masks = its
  objective, lost minus gained = the gap;
* the terminal view marks every variable and lists exactly the unmatched
  triples; the SVG has one box per variable and one red element per unmatched
  drawn triple; the HTML page has one row and one section per pair and no
  reference to anything outside itself.
"""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import rescore_array
from smatchpp.api import Config, Scorer
from smatchpp.compile import ExactMatcher, compile_pair
from smatchpp.explain import explain_entries, explain_pair
from smatchpp.explain.drawing import draw
from smatchpp.explain.html import render_report
from smatchpp.explain.terminal import render
from smatchpp.matching import triple_match
from smatchpp.read import read_file
from smatchpp.solvers import HillClimber
from strategies import graph_pairs, penman_strings

#: ``../shared`` beside the repository; SMATCHPP_SHARED overrides it (e.g. in a git worktree)
SHARED = Path(os.environ.get("SMATCHPP_SHARED", Path(__file__).resolve().parents[2] / "shared"))
PARA = SHARED / "data" / "bamboo" / "para" / "main"


@st.composite
def alignments(draw, n_a: int, n_b: int):
    """A random injective partial map as an alignment array."""
    targets = draw(st.permutations(list(range(n_b)) + [-1] * n_a))
    return np.array(targets[:n_a], dtype=np.int64)


@given(graph_pairs(), st.data())
def test_matched_triples_count_is_the_oracles(pair, data):
    a, b = pair
    al = data.draw(alignments(len(a.variables), len(b.variables)))
    m = triple_match(a, b, al)
    assert m.count == int(m.mask_b.sum()) == rescore_array(a, b, al)
    assert compile_pair(a, b).objective(al) == m.count
    # partners are a bijection between the matched triples, with equal keys
    ta, tb = a.triples(), b.triples()
    for t in np.flatnonzero(m.mask_a):
        u = m.partner_a[t]
        assert m.partner_b[u] == t
        assert ta[t][1:] == tb[u][1:] or ta[t][1] != "instance" and ta[t][1] == tb[u][1]


def _check_counts(e, scorer_matched=None):
    assert e.opt.mask_a.size == e.test_triples == e.a.n_triples
    assert e.opt.mask_b.size == e.gold_triples == e.b.n_triples
    assert e.opt.count == e.matched
    if scorer_matched is not None:
        assert e.matched == scorer_matched
    assert e.hc.count == e.hc_matched
    assert len(e.lost_a()) - len(e.gained_a()) == e.hc_gap
    assert len(e.lost_b()) - len(e.gained_b()) == e.hc_gap
    assert len(e.unmatched_a()) == e.test_triples - e.matched
    assert len(e.unmatched_b()) == e.gold_triples - e.matched


@settings(max_examples=60)
@given(graph_pairs())
def test_explanation_counts_equal_the_scorers(pair):
    a, b = pair
    e = explain_pair(a, b)
    _check_counts(e, Scorer().score_pair(a, b).matched)
    assert e.status == "optimal" and e.hc_gap >= 0
    climber = HillClimber(seed=1, restarts=4).solve(compile_pair(a, b))
    assert e.hc_matched == climber.objective


@settings(max_examples=30)
@given(penman_strings(), penman_strings())
def test_terminal_view_marks_every_variable(sa, sb):
    e = explain_pair(sa, sb)
    text = render(e, color=False)
    assert "\033[" not in text
    tags = dict(e.aligned_pairs())
    for k, (va, vb) in enumerate(tags.items(), start=1):
        assert f"{va}[{k}]" in text and f"{vb}[{k}]" in text
    unaligned = [v for v in e.a.variables if v not in tags]
    for v in unaligned:
        assert f"{v}[-]" in text
    block = text.split("unmatched triples of A (test): ")[1].split("\n")
    assert int(block[0]) == len(e.unmatched_a())
    listed = [line.strip() for line in block[1:1 + len(e.unmatched_a())]]
    assert listed == [f"({', '.join(e.a.triples()[t])})" for t in e.unmatched_a()]
    assert "\033[" in render(e, color=True)


@settings(max_examples=40)
@given(graph_pairs())
def test_drawing_shows_every_variable_and_unmatched_triple(pair):
    a, b = pair
    e = explain_pair(a, b)
    tags = {va: k for k, (va, _) in enumerate(e.aligned_pairs(), start=1)}
    svg = draw(a, e.opt.mask_a.tolist(), tags, "a")
    boxes = re.findall(r'<g class="n (k\d+|un)"', svg)
    assert len(boxes) == len(a.variables)
    assert sorted(b for b in boxes if b != "un") == sorted(f"k{k}" for k in tags.values())
    shown_unmatched = set(re.findall(r'class="(?:e|a|top|c) u" data-t="a(\d+)"', svg))
    assert shown_unmatched == {str(t) for t in e.unmatched_a()}
    shown_matched = set(re.findall(r'class="(?:e|a|top|c)" data-t="a(\d+)"', svg))
    assert shown_matched == {str(t) for t in np.flatnonzero(e.opt.mask_a)}


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.templates, self.rows, self.refs = [], [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("type") == "text/html":
            self.templates.append(attrs["id"])
        if tag == "tr" and "data-i" in attrs:
            self.rows.append(attrs["data-i"])
        for key in ("src", "href"):
            if key in attrs:
                self.refs.append(attrs[key])


def test_report_is_self_contained():
    pairs = [("(d / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))"),
             ("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))", "(w / want-01 :ARG0 (g / girl))")]
    es = [explain_pair(a, b, index=k) for k, (a, b) in enumerate(pairs)]
    page = render_report(es, title="t")
    parsed = _Collect()
    parsed.feed(page)
    assert parsed.templates == ["t-0", "t-1"] and parsed.rows == ["0", "1"]
    assert all(ref == "#" or ref.startswith("data:") for ref in parsed.refs), parsed.refs
    assert "http" not in page and "@import" not in page


def test_large_graphs_fall_back_to_penman():
    a = "(m / multi-sentence " + " ".join(f":snt{i} (v{i} / dog :ARG0 (w{i} / cat))" for i in range(6)) + ")"
    e = explain_pair(a, a)
    page = render_report([e], max_draw=5)
    section = page.split('<script type="text/html" id="t-0">')[1]
    assert "<svg" not in section and section.count('<pre class="penman">') == 2
    assert "too large to draw" in section
    assert "<svg" in render_report([e], max_draw=100).split('<script type="text/html" id="t-0">')[1]


def test_smatchpp18_lossy_preset_explains_the_rewritten_graphs():
    e = explain_pair("(w / want-01 :ARG0 (b / boy))", "(w / want-01 :ARG0 (g / girl))",
                     Config(preset="smatchpp18-lossy"))
    _check_counts(e)
    assert e.a.free and e.matched == 1  # F1 0.5, as in presets/smatchpp18.py


@pytest.fixture(scope="module")
def para_explanations():
    src, tgt = PARA / "src.test.amr", PARA / "tgt.test.amr"
    if not (src.is_file() and tgt.is_file()):
        pytest.skip(f"shared data not found at {PARA}")
    a, b = read_file(src), read_file(tgt)
    # the first 60 pairs, and pair 24 where the seeded hill-climber falls one triple short
    indices = list(range(60))
    return a, b, indices, explain_entries(a, b, Config(), indices=indices)


def test_real_pairs_counts_equal_the_scorers(para_explanations):
    a, b, indices, es = para_explanations
    scores = Scorer(Config()).score_corpus([a[k] for k in indices], [b[k] for k in indices])
    assert [e.index for e in es] == indices
    for e, s in zip(es, scores.pairs):
        assert (e.matched, e.test_triples, e.gold_triples, e.status) == \
            (s.matched, s.test_triples, s.gold_triples, s.status)
        _check_counts(e, s.matched)
    assert any(e.hc_gap > 0 for e in es)


def test_workers_do_not_change_explanations(para_explanations):
    a, b, indices, es = para_explanations
    again = explain_entries(a, b, Config(), indices=indices[:12], workers=2)
    assert [e.to_json()["alignment"] for e in again] == [e.to_json()["alignment"] for e in es[:12]]
    assert [e.hc_matched for e in again] == [e.hc_matched for e in es[:12]]


class _WithSimilarity(ExactMatcher):
    """Exact matching that also exposes a concept similarity (as S2Match's matcher does)."""

    name = "exact+similarity"

    @staticmethod
    def similarity(x: str, y: str) -> float:
        return 0.5 if x.split("-")[0] == y.split("-")[0] else 0.0


def test_soft_concept_matches_are_shown():
    scorer = Scorer(Config(), _WithSimilarity())
    e = explain_pair("(h / hit-01 :ARG0 (b / boy))", "(x / hit-02 :ARG0 (y / girl))", scorer=scorer)
    assert e.soft == [(0, 0, 0.5)] and e.matcher == "exact+similarity"
    assert "hit-01 ~ x / hit-02: 0.500" in render(e)
    assert "soft concept matches under exact+similarity (1)" in render_report([e])
    assert explain_pair("(h / hit-01)", "(x / hit-02)").soft == []


@settings(max_examples=80)
@given(penman_strings())
def test_penman_branches_find_their_compared_triples(text):
    from smatchpp.explain.penman_view import branch_triples, penman_lines
    from smatchpp.read import read_text
    from smatchpp.standardize import standardize

    raw = read_text(text)[0].graph
    g = standardize(raw)
    found = list(branch_triples(penman_lines(raw, g), g).values())
    assert len(found) == len(set(found))
    triples = g.triples()
    wanted = {t for t, (_, r, _) in enumerate(triples) if r not in ("instance", "top")}
    assert set(found) == wanted, (text, [triples[t] for t in wanted - set(found)])


def test_report_lists_what_the_hill_climber_lost(para_explanations):
    *_, es = para_explanations
    short = [e for e in es if e.hc_gap > 0]
    assert short, "the fixture's pairs include one where the seeded hill-climber falls short"
    page = render_report(short)
    for e in short:
        section = page.split(f'<script type="text/html" id="t-{e.index}">')[1].split("</script>")[0]
        assert e.alignments_differ and f"gap {e.hc_gap:g} triple(s)" in section
        lost = section.split("triples of A the hill-climber lost</h4>")[1].split("</ul>")[0]
        assert lost.count("<li>") == len(e.lost_a()) > 0
        lost_b = section.split("triples of B the hill-climber lost</h4>")[1].split("</ul>")[0]
        assert lost_b.count("<li>") == len(e.lost_b()) > 0
        rows = section.split('<table class="al">')[1].split("</table>")[0]
        assert rows.count('<tr class="diff">') == sum(
            a != h for a, h in zip(e.alignment.tolist(), e.hc_alignment.tolist()))


def test_disconnected_tsv_graph_is_shown_part_by_part():
    from smatchpp.read import read_text

    raw = read_text("a\t:instance\tdog\na\t:ARG0\tb\nb\t:instance\tcat\nc\t:instance\tmouse\n", fmt="tsv")[0].graph
    e = explain_pair(raw, "(d / dog :ARG0 (c / cat))")
    _check_counts(e)
    text = render(e)
    assert "(a[1] / dog\n   :ARG0 (b[2] / cat))\n(c[-] / mouse(!))" in text
    assert render_report([e]).count("<svg") == 2


def test_deflated_sections_hold_the_same_html():
    import base64
    import zlib

    es = [explain_pair("(d / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))", index=k)
          for k in range(3)]
    plain, packed = render_report(es, compress=False), render_report(es, compress=True)
    assert 'type="text/html"' in plain and 'type="text/html"' not in packed
    for k in range(3):
        text = plain.split(f'<script type="text/html" id="t-{k}">')[1].split("</script>")[0]
        blob = packed.split(f'<script type="application/x-deflate-base64" id="t-{k}">')[1].split("</script>")[0]
        assert zlib.decompress(base64.b64decode(blob)).decode("utf-8").replace("</script", "<\\/script") == text


@pytest.mark.parametrize("text, downward", [("(a / x :ARG0 (b / y))", True),
                                            ("(a / x :ARG0-of (b / y))", False)])
def test_arrows_point_in_the_compared_direction(text, downward):
    from smatchpp.explain.penman_view import layout_tree
    from smatchpp.read import read_text
    from smatchpp.standardize import standardize

    raw = read_text(text)[0].graph
    g = standardize(raw)
    for tree in (None, layout_tree(raw, g)):
        svg = draw(g, [True] * g.n_triples, {}, "a", tree)
        (y1, y2), = [(float(m[0]), float(m[1])) for m in re.findall(r'd="M[\d.]+,([\d.]+)L[\d.]+,([\d.]+)"', svg)]
        assert (y1 < y2) == downward  # a is drawn above b; the arrow leaves the relation's source


def test_unreadable_graphs_follow_on_error():
    from smatchpp.exceptions import ReadError
    from smatchpp.read import read_text

    a = read_text("(d / dog)\n\n(c / cat")
    b = read_text("(d / dog)\n\n(c / cat)")
    assert [e.index for e in explain_entries(a, b, Config(on_error="skip"))] == [0]
    empty = explain_entries(a, b, Config(on_error="empty"))
    assert [e.index for e in empty] == [0, 1] and empty[1].test_triples == 0 and empty[1].matched == 0
    with pytest.raises(ReadError):
        explain_entries(a, b, Config())


def test_embedded_json_has_no_markup_characters():
    """Issue 22 item 16 without a browser: the report's JSON data holds no ``<`` (``<!--<script``
    in an id made the HTML parser swallow the page's own script) and reads back unchanged."""
    import json

    hostile = "<!--<script></script>&"
    e = explain_pair(f"# ::id {hostile}\n(a / b)", "(a / c)")
    page = render_report([e], title="t")
    block = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S).group(1)
    assert not set("<>&") & set(block)
    assert json.loads(block)["0"]["id"] == hostile

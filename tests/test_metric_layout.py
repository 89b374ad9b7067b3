"""metrics/layout.py: the written order of a graph's branches, which SemBleu's and SEMA's
reference readers depend on.  ``written_order`` takes a merge over the readers' node-by-node
triple order when it can, and walks the graph from its top otherwise; both must agree."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from smatchpp.metrics.layout import Branch, written_order
from smatchpp.graphs.read import RawGraph, read_file, read_text
from strategies import penman_specs, render_penman, renamings

BAMBOO = Path(__file__).resolve().parents[2] / "shared" / "data" / "bamboo"


def graph(text: str) -> RawGraph:
    (entry,) = read_text(text)
    assert entry.error is None, entry.error
    return entry.graph


def blocks_reversed(g: RawGraph) -> RawGraph:
    """``g`` with its nodes' triples in reverse node order (not the order the readers list
    them in, so ``written_order`` has to walk it) and ``inline`` pointing at the same triples."""
    starts = [i for i, (_, r, _) in enumerate(g.triples) if r == ":instance"] + [len(g.triples)]
    spans = [range(a, b) for a, b in zip(starts, starts[1:])][::-1]
    old = [i for span in spans for i in span]
    new_of = {i: k for k, i in enumerate(old)}
    return RawGraph(g.top, tuple(g.triples[i] for i in old), g.variables, g.metadata,
                    frozenset(new_of[i] for i in g.inline))


def test_written_order_of_a_forward_reference():
    g = graph("(a / x :ARG0 (w / z :ARG1 b :ARG2 a) :ARG2 (b / y :mod w) :polarity -)")
    expected = [("a", ":ARG0", "w", True, True, False), ("w", ":ARG1", "b", True, False, False),
                ("w", ":ARG2", "a", True, False, True), ("a", ":ARG2", "b", True, True, False),
                ("b", ":mod", "w", True, False, True), ("a", ":polarity", "-", False, False, False)]
    assert [Branch(*b) for b in written_order(g)] == [Branch(*b) for b in expected]
    assert written_order(blocks_reversed(g)) == expected


@settings(max_examples=300, deadline=None)
@given(spec=penman_specs(max_vars=6, max_extra=4))
def test_merge_and_walk_agree(spec):
    g = graph(render_penman(spec))
    assert written_order(g) == written_order(blocks_reversed(g))


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_merge_and_walk_agree_in_any_branch_order(data):
    spec = data.draw(penman_specs(max_vars=6, max_extra=4))
    names, orders = data.draw(renamings(spec))
    g = graph(render_penman(spec, names, orders))
    assert written_order(g) == written_order(blocks_reversed(g))


def test_merge_and_walk_agree_on_bamboo():
    path = BAMBOO / "sts" / "main" / "src.test.amr"
    if not path.exists():
        pytest.skip("BAMBOO data not found (../shared)")
    graphs = [e.graph for e in read_file(path) if e.graph is not None]
    assert graphs
    assert [written_order(g) for g in graphs] == [written_order(blocks_reversed(g)) for g in graphs]

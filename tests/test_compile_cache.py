"""Per-graph memoized compile tables (smatchpp/alignment/matchers/exact.py ``per_graph``): a graph met again,
or pickled to a worker with its tables, compiles to exactly the problem a fresh copy gives."""

from __future__ import annotations

import copy
import pickle

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.matchers.exact import ExactMatcher, label_multiset
from smatchpp.graphs.triples import TripleGraph

from strategies import triple_graphs

FIELDS = ("pair_a", "pair_b", "unary", "edge_p", "edge_q", "weight")


def fresh(g: TripleGraph) -> TripleGraph:
    """A copy without any cached table."""
    return TripleGraph(g.variables, g.concepts, g.attributes, g.relations, g.free)


def same_problem(p, q) -> bool:
    return (all(np.array_equal(getattr(p, f), getattr(q, f)) for f in FIELDS)
            and (p.n_a, p.n_b, p.constant, p.label_bound) == (q.n_a, q.n_b, q.constant, q.label_bound))


@settings(max_examples=60, deadline=None)
@given(st.lists(triple_graphs(), min_size=2, max_size=4))
def test_cached_tables_give_the_uncached_problem(graphs):
    # every graph meets every other (both orders) and itself, so its tables are reused
    for a in graphs:
        for b in graphs:
            assert same_problem(compile_pair(a, b), compile_pair(fresh(a), fresh(b)))
    # pickled (a process pool or Dask ships graphs with their tables) and copied
    for a, b in zip(graphs, graphs[1:]):
        moved_a, moved_b = pickle.loads(pickle.dumps(a)), copy.deepcopy(b)
        assert same_problem(compile_pair(moved_a, moved_b), compile_pair(fresh(a), fresh(b)))


@given(triple_graphs(), triple_graphs())
def test_public_label_multiset_is_a_copy(a, b):
    before = ExactMatcher().label_bound(a, b)
    label_multiset(a).clear()  # a caller may change what it gets back
    assert ExactMatcher().label_bound(a, b) == before == ExactMatcher().label_bound(fresh(a), fresh(b))
    assert fresh(a) == a  # the cache is not part of the graph's value

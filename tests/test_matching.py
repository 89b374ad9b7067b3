"""Matched triples under an alignment agree with the compiled objective."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from smatchpp.api import parse_graph
from smatchpp.alignment.compile import compile_pair
from smatchpp.alignment.matching import count_matched, invert_alignment, matched_triples, triple_keys
from strategies import graph_pairs, triple_graphs


@st.composite
def pairs_with_alignment(draw):
    a, b = draw(graph_pairs())
    images = draw(st.permutations(list(range(len(b.variables))) + [-1] * len(a.variables)))
    return a, b, list(images[:len(a.variables)])


@given(pairs_with_alignment())
def test_count_matched_is_the_compiled_objective(case):
    a, b, alignment = case
    assert count_matched(a, b, alignment) == compile_pair(a, b).objective(alignment)


@given(pairs_with_alignment())
def test_matched_triples_are_a_submultiset_of_both_sides(case):
    a, b, alignment = case
    matched = matched_triples(a, b, alignment)
    assert not matched - triple_keys(a)
    # the images of A's matched triples are B triples, each used at most as often as B has it
    back = invert_alignment(alignment, len(b.variables)).tolist()
    images = Counter()
    for key, c in matched.items():
        if key[0] == "relation":
            images[("relation", alignment[key[1]], key[2], alignment[key[3]])] += c
        else:
            images[(key[0], alignment[key[1]]) + key[2:]] += c
    assert not images - triple_keys(b)
    assert all(back[k[1]] >= 0 for k in images)


@given(triple_graphs())
def test_identity_matches_every_triple(g):
    assert matched_triples(g, g, list(range(len(g.variables)))) == triple_keys(g)
    assert count_matched(g, g, list(range(len(g.variables)))) == g.n_triples


def test_duplicates_match_min_times():
    a = parse_graph("(x / a :op1 (y / b) :op1 y)")   # the relation twice
    b = parse_graph("(u / a :op1 (v / b))")
    assert matched_triples(a, b, [0, 1])[("relation", 0, "op1", 1)] == 1
    assert count_matched(a, b, [0, 1]) == 4          # 2 instances, TOP, one op1
    assert count_matched(a, b, [-1, 1]) == 1

"""The aspect package's protocol and registry: every built-in set is an entry whose aspects
follow one protocol (no kind strings), the registry refuses what it does not know, and the
per-graph features ``matrix`` counts from give the scorer's counts."""

from __future__ import annotations

import pytest

from smatchpp.aspects.base import AspectSet, GraphAspect, UnalignedAspect
from smatchpp.aspects.core import AspectScorer
from smatchpp.aspects.features import count_rows, diagonal, set_features
from smatchpp.aspects.registry import UnknownAspectSet, aspect_list, aspect_rank, get_aspect_set
from smatchpp.core.aspect_settings import ASPECT_SET_MODULES, ASPECT_SETS, aspect_set_names, drs_sets
from smatchpp.graphs.read import read_text
from smatchpp.presets import standardize

GRAPHS = ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b :polarity -))",
          "(w / want-02 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 (c / cat)))",
          '(c / city :wiki "Paris" :name (n / name :op1 "Paris"))',
          "(a / and :op1 (b / boy) :op2 (c / boy))"]


def graphs():
    return [read_text(t)[0].graph for t in GRAPHS]


@pytest.mark.parametrize("name", [n for n in ASPECT_SETS if n != "thesis" and n not in drs_sets()])
def test_every_built_in_set_is_an_entry_whose_aspects_follow_the_protocol(name):
    entry = get_aspect_set(name)
    assert isinstance(entry, AspectSet)
    aspects = aspect_list(name)
    assert tuple(a.name for a in aspects) == entry.names
    for a in aspects:
        assert isinstance(a, GraphAspect) != isinstance(a, UnalignedAspect), a.name
        assert a.aligned == isinstance(a, GraphAspect)
        assert not hasattr(a, "kind"), a.name
    assert sum(a.main for a in aspects) == (1 if name == "damonte" else 0)


def test_a_set_of_drss_is_counted_by_its_metric_and_refused_for_amr():
    """Counter's detailed scores (the counter metric's set, tests/test_counter_aspects.py)
    are counted under a DRS pair's mapping by the counter metric: neither AMR protocol applies,
    and the alignment family refuses the set."""
    from smatchpp.alignment.config import Config

    assert drs_sets() == ["counter"]
    aspects = aspect_list("counter")
    assert [a.name for a in aspects] == list(get_aspect_set("counter").names)
    assert all(a.aligned and not isinstance(a, (GraphAspect, UnalignedAspect)) for a in aspects)
    with pytest.raises(ValueError, match="scores DRSs in clausal form"):
        Config(aspects="joint", aspect_set="counter")


def test_the_settings_know_the_names_without_loading_a_set():
    assert aspect_set_names()[:len(ASPECT_SETS)] == ASPECT_SETS == tuple(ASPECT_SET_MODULES)


def test_unknown_sets_aspects_and_files_are_refused_by_name():
    with pytest.raises(UnknownAspectSet, match="unknown aspect set 'nosuch'; choose from damonte, smatchpp18, thesis, counter"):
        aspect_list("nosuch")
    with pytest.raises(ValueError, match="unknown damonte aspect"):  # a KeyError before
        aspect_list("damonte", ["srl", "nosuch"])
    with pytest.raises(ValueError, match="read by the smatchpp18 aspects only"):
        aspect_list("damonte", None, frames="frames.txt")


def test_corpus_rows_follow_the_registry_order():
    names = ["rootSim", "AGENT", "srl", "concepts", "unknown"]
    assert sorted(names, key=aspect_rank) == ["concepts", "srl", "AGENT", "rootSim", "unknown"]


def test_matrix_features_count_what_the_scorer_counts():
    """``matrix --aspects`` counts unaligned aspects from each graph's features once: the
    counts equal those the scorer gives each pair (separate mode)."""
    gs = graphs()
    aspects = aspect_list("damonte")
    found = set_features(aspects, gs, standardize)
    assert "smatch" not in found  # the run's own score is the main matrix
    scorer = AspectScorer("separate")
    for name, (aspect, features) in found.items():
        if aspect.aligned:
            continue
        pairs = [(i, j) for i in range(len(gs)) for j in range(len(gs))]
        rows = count_rows(aspect, features, features, pairs)
        for (i, j, matched, upper, test, gold, status), (a, b) in zip(rows, pairs):
            want = scorer.score(gs[a], gs[b])[name]
            assert (matched, upper, test, gold, status) == (want.matched, want.upper, want.test,
                                                            want.gold, "optimal"), (name, a, b)
        assert [d.n_triples for d in diagonal(aspect, features)] == [
            scorer.score(g, g)[name].test for g in gs]


def test_the_aspect_metric_names_its_set_and_reads_back_equal():
    from smatchpp.alignment.config import Config
    from smatchpp.metrics import Metric, get_metric

    by_name = get_metric("aspect", aspect="AGENT", aspect_set="smatchpp18")
    by_config = get_metric("aspect", aspect="AGENT", config=Config(aspects="separate", aspect_set="smatchpp18"))
    assert by_name == by_config and by_name.aspect_set == "smatchpp18"
    assert "|aspect-name:AGENT|" in by_name.signature() and "aspect-set:smatchpp18" in by_name.signature()
    assert Metric.from_signature(by_name.signature()) == by_name
    assert get_metric("aspect").aspect_set is None  # Damonte's, the default
    with pytest.raises(ValueError, match="two aspect sets"):
        get_metric("aspect", aspect="AGENT", aspect_set="smatchpp18",
                   config=Config(aspects="separate", aspect_set="thesis", vectors=None))

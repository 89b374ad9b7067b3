"""``coref_ties="max"`` (``--coref-ties max``): among the optimal alignments of a pair, one with the
most coreference items (docSmatch's Total Coref), checked against every injective alignment of
tiny document pairs; the terms it solves on against :func:`coref_counts` on each of them; the
setting's refusals, signature and replay, and a second solve stopped by a limit."""

from __future__ import annotations

import random

import numpy as np
import pytest

from smatchpp.alignment.aligner import PairAligner, pairs_of_optima
from smatchpp.alignment.config import Config, SignatureError
from smatchpp.alignment.sentences import as_written, bucket_mask, coref_counts, coref_terms
from smatchpp.alignment.solvers.base import SolveResult
from smatchpp.api import parse_graph


def tiny_document(rng: random.Random, sentences: int = 2) -> str:
    """A document whose sentences share entity nodes (cross-sentence reentrancies: coreference
    items by docSmatch's rules) and hold ``coref-entity`` nodes."""
    entities: list[str] = []
    parts = []
    k = 0
    for s in range(1, sentences + 1):
        head = f"v{k}"
        k += 1
        args = []
        for role in rng.sample(["ARG0", "ARG1"], rng.randint(1, 2)):
            if entities and rng.random() < 0.6:
                args.append(f":{role} {rng.choice(entities)}")
            else:
                args.append(f":{role} (v{k} / {rng.choice(['person', 'dog', 'coref-entity'])})")
                entities.append(f"v{k}")
                k += 1
        parts.append(f":snt{s} ({head} / {rng.choice(['go-02', 'see-01'])} {' '.join(args)})")
    return "(d / document " + " ".join(parts) + ")"


def brute_force(a, b, buckets: bool, used: set | None = None) -> tuple[float, int, int]:
    """Over every injective alignment of ``a`` to ``b`` (within common sentence buckets with
    ``buckets``): the optimum, the most Total Coref items among the optimal ones, and how many
    alignments :func:`coref_terms` valued otherwise than :func:`coref_counts` (must be 0);
    ``used`` gets the pairs ``(i, j)`` of the optimal alignments."""
    optimal: list[np.ndarray] = []
    _, _, problem = PairAligner(Config(sentence_buckets=buckets)).compile(a, b)
    terms = coref_terms(a, b, buckets=buckets)
    na, nb = len(a.variables), len(b.variables)
    allowed = np.ones((na, nb), dtype=bool)
    if buckets:
        ii, jj = np.meshgrid(np.arange(na), np.arange(nb), indexing="ij")
        mask = bucket_mask(a, b, ii.ravel(), jj.ravel())
        if mask is not None:
            allowed = mask.reshape(na, nb)
    wa, wb = as_written(a), as_written(b)
    best, most, wrong = -1.0, -1, 0
    chosen: list[int] = []

    def walk(i: int, used: set[int]) -> None:
        nonlocal best, most, wrong
        if i == na:
            alignment = np.array(chosen, dtype=np.int64)
            value = problem.objective(alignment)
            count = coref_counts(wa, wb, [(a.variables[x], b.variables[y]) for x, y in enumerate(chosen)
                                          if y >= 0])[0]
            wrong += terms.value(alignment) != count
            if value > best:
                best, most = value, count
                optimal.clear()
            elif value == best:
                most = max(most, count)
            if value == best:
                optimal.append(alignment)
            return
        for j in [-1] + [j for j in range(nb) if j not in used and allowed[i, j]]:
            chosen.append(j)
            walk(i + 1, used | {j} if j >= 0 else used)
            chosen.pop()

    walk(0, set())
    if used is not None:
        used.update((i, int(j)) for al in optimal for i, j in enumerate(al) if j >= 0)
    return best, most, wrong


def pairs(n: int):
    """``n`` seeded tiny document pairs of at most 6 variables a side."""
    rng = random.Random(32)
    found = []
    while len(found) < n:
        a, b = parse_graph(tiny_document(rng)), parse_graph(tiny_document(rng))
        if len(a.variables) <= 6 and len(b.variables) <= 6:
            found.append((a, b))
    return found


@pytest.mark.parametrize("buckets, solver, compression",
                         [(False, "exact", "exact"), (True, "exact", "exact"), (True, "highs", "none")])
def test_most_coreference_items_among_the_optima(buckets, solver, compression):
    """The max tie-break matches the brute force's most coreference items among the optimal
    alignments on every pair, keeps the optimum, says ``proven``; the solver's first optimal
    alignment falls short on some of these pairs (so a tie-break that did nothing would fail)."""
    settings = dict(sentence_buckets=buckets, coref_subscore=True, solver=solver, compression=compression)
    first = PairAligner(Config(**settings))
    most = PairAligner(Config(**settings, coref_ties="max"))
    short = 0
    for a, b in pairs(40):
        best, top, wrong = brute_force(a, b, buckets)
        assert wrong == 0
        s = most.score(a, b)
        assert (s.matched, s.status, s.stats["coref_ties"]) == (best, "optimal", "proven")
        assert s.coref[0] == top
        f = first.score(a, b)
        assert f.matched == best and f.coref[0] <= top and "coref_ties" not in f.stats
        short += f.coref[0] < top
    assert short > 0


def test_the_pairs_of_optimal_alignments_are_kept():
    """Before the second solve, the LP's reduced costs drop pairs: never one of an optimal
    alignment (every one, by brute force), and some on these pairs (so the test can fail)."""
    dropped = 0
    for a, b in pairs(40):
        used: set = set()
        best, _, _ = brute_force(a, b, True, used)
        _, _, problem = PairAligner(Config(sentence_buckets=True)).compile(a, b)
        keep = pairs_of_optima(problem, best)
        kept = {(int(i), int(j)) for i, j in zip(problem.pair_a[keep], problem.pair_b[keep])}
        candidates = set(zip(problem.pair_a.tolist(), problem.pair_b.tolist()))
        assert used & candidates <= kept
        dropped += int((~keep).sum())
    assert dropped > 0


def test_a_second_solve_stopped_by_a_limit_is_not_proven():
    """When the second solve is not certified, the pair keeps its certified optimum and a
    count at least the first alignment's, and says ``not proven``; an uncertified first solve
    keeps its alignment (``not run``)."""
    a, b = next((a, b) for a, b in pairs(40) if brute_force(a, b, False)[1] > 0)
    core = PairAligner(Config(coref_subscore=True, coref_ties="max"))
    solve = core.solver.solve
    calls = []

    def stopped_second(problem, time_limit=None, warm_start=None):
        calls.append(problem)
        found = solve(problem, time_limit)
        if len(calls) == 1:
            return found
        return SolveResult(np.asarray(warm_start), problem.objective(warm_start), found.upper_bound + 5,
                           "time_limit", "mip")

    core.solver.solve = stopped_second
    s = core.score(a, b)
    plain = PairAligner(Config(coref_subscore=True)).score(a, b)
    assert (s.status, s.stats["coref_ties"], s.matched) == ("optimal", "not proven", plain.matched)
    assert s.coref[0] >= plain.coref[0] and len(calls) == 2

    def uncertified(problem, time_limit=None, warm_start=None):
        found = solve(problem, time_limit)
        return SolveResult(found.alignment, found.objective, found.objective + 3, "time_limit", "mip")

    core.solver.solve = uncertified
    assert core.score(a, b).stats["coref_ties"] == "not run"


def test_the_setting_is_signed_replayed_and_refused_where_it_does_nothing():
    plain = Config(sentence_buckets=True, coref_subscore=True)
    most = plain.replace(coref_ties="max")
    assert "coref-ties" not in plain.signature()  # the default signs as before
    assert "|coref:yes|coref-ties:max|" in most.signature()
    assert Config.from_signature(most.signature()) == most
    with pytest.raises(SignatureError, match="coref-ties:max does nothing without --coref-subscore"):
        Config.from_signature(most.signature().replace("|coref:yes", ""))
    with pytest.raises(ValueError, match="coref_ties='max' does nothing without --coref-subscore"):
        Config(coref_ties="max")
    with pytest.raises(ValueError, match="unknown coref_ties 'most'"):
        Config(coref_subscore=True, coref_ties="most")
    with pytest.raises(ValueError, match="needs match exact"):
        Config(coref_subscore=True, coref_ties="max", match="wsmatch")

"""Counter's objective solved exactly (smatchpp.drs.exact): the brute-force optimum over every
type-respecting injective partial mapping, self-score 1, symmetric operators, Counter's
three-variable quirk, honest intervals."""

import random

import pytest

from smatchpp.drs import count_matched, counter_clauses, read_clf_text, solve
from smatchpp.metrics import get_metric

CONCEPTS = ['dog "n.01"', 'cat "n.01"', 'run "v.01"']
ROLES = ["Agent", "Theme"]


def random_drs(rng: random.Random) -> list[tuple[str, ...]]:
    boxes = [f"b{k}" for k in range(rng.randint(1, 2))]
    refs = [f"x{k}" for k in range(rng.randint(1, 3))]
    out = []
    for x in refs:
        b = rng.choice(boxes)
        out.append((b, "REF", x))
        out.append((b, *CONCEPTS[rng.randrange(len(CONCEPTS))].split(), x))
    for _ in range(rng.randint(0, 3)):
        kind = rng.random()
        b = rng.choice(boxes)
        if kind < 0.5:
            out.append((b, rng.choice(ROLES), rng.choice(refs), rng.choice(refs)))
        elif kind < 0.7:
            out.append((b, "NEQ", rng.choice(refs), rng.choice(refs)))
        elif kind < 0.85:
            out.append((b, "EQU", rng.choice(refs), '"now"'))
        elif len(boxes) > 1:
            out.append((boxes[0], "NOT", boxes[1]))
    return out


def a_raw(rng, a):
    """A DRS like ``a`` (its clauses, shuffled), so that many pairs match much."""
    raw = [(a.names[c.vars[0]], c.label[1], *[a.names[v] for v in c.vars[1:]]) if c.label[0] in ("op", "op3", "role")
           else None for c in a.clauses]
    raw = [r for r in raw if r] + [("b0", "REF", "x0"), ("b0", "dog", '"n.01"', "x0")]
    rng.shuffle(raw)
    return raw


def brute_force(a, b) -> int:
    """The most matched clauses over every injective partial map that keeps types."""
    best = 0
    n = len(a.types)

    def go(i: int, used: set, mapping: dict) -> None:
        nonlocal best
        if i == n:
            best = max(best, count_matched(a, b, mapping))
            return
        go(i + 1, used, mapping)
        for j, t in enumerate(b.types):
            if j not in used and t == a.types[i]:
                mapping[i] = j
                used.add(j)
                go(i + 1, used, mapping)
                used.discard(j)
                del mapping[i]

    go(0, set(), {})
    return best


def renamed(raw):
    """Other variable names (so that the start by names does not apply: the MIP decides)."""
    return [tuple(t if k == 1 or t.startswith('"') else t + "g" for k, t in enumerate(c)) for c in raw]


@pytest.mark.parametrize("seed", range(40))
def test_optimum_equals_brute_force(seed):
    rng = random.Random(seed)
    for include_ref in (False, True):
        a = counter_clauses(random_drs(rng), include_ref=include_ref)
        b = counter_clauses(renamed(random_drs(rng) if seed % 2 else a_raw(rng, a)), include_ref=include_ref)
        r = solve(a, b)
        assert r.certified and r.status == "optimal"
        assert r.matched == brute_force(a, b) == count_matched(a, b, r.mapping)


def test_tiny_pair_checked_by_hand():
    # test: a dog runs; gold: a cat runs, and a dog is its theme
    a = counter_clauses([("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1"), ("b1", "REF", "e1"),
                         ("b1", "run", '"v.01"', "e1"), ("b1", "Agent", "e1", "x1")])
    b = counter_clauses([("b2", "REF", "y1"), ("b2", "cat", '"n.01"', "y1"), ("b2", "REF", "y2"),
                         ("b2", "dog", '"n.01"', "y2"), ("b2", "REF", "f1"), ("b2", "run", '"v.01"', "f1"),
                         ("b2", "Agent", "f1", "y1"), ("b2", "Theme", "f1", "y2")])
    # x1 -> y2 earns dog and run (2); x1 -> y1 earns run and Agent (2); 3 is impossible
    r = solve(a, b)
    assert (r.matched, r.upper) == (2, 2) == (brute_force(a, b), brute_force(a, b))
    m = get_metric("counter")
    assert m.stats(a, b) == (2.0, 2.0, 3.0, 5.0)


def test_self_score_one_with_symmetric_operators_and_constants():
    (drs,) = read_clf_text("""b1 REF x1
b1 person "n.01" x1
b1 Name x1 "mary"
b1 NEQ x1 x2
b2 REF x2
b2 person "n.01" x2
b2 NOT b3
b3 REF e1
b3 Agent e1 x1
b3 Theme e1 x2
b3 see "v.01" e1
b3 REF t1
b3 TPR t1 "now"
b3 Time e1 t1
b3 time "n.08" t1
b2 Owner "speaker" "hearer"
""")
    m = get_metric("counter")
    f = m.features(drs)
    assert m.pair_scores(m.stats(f, f))["f1"] == 1.0
    assert m.stats(f, f)[0] == f.total


def test_symmetric_operator_matches_either_way_round():
    a = counter_clauses([("b1", "NEQ", "x1", "x2"), ("b1", "dog", '"n.01"', "x1"), ("b1", "cat", '"n.01"', "x2")])
    b = counter_clauses([("b1", "NEQ", "y2", "y1"), ("b1", "dog", '"n.01"', "y1"), ("b1", "cat", '"n.01"', "y2")])
    assert solve(a, b).matched == 3
    c = counter_clauses([("b1", "LES", "y2", "y1"), ("b1", "dog", '"n.01"', "y1"), ("b1", "cat", '"n.01"', "y2")])
    a2 = counter_clauses([("b1", "LES", "x1", "x2"), ("b1", "dog", '"n.01"', "x1"), ("b1", "cat", '"n.01"', "x2")])
    assert solve(a2, c).matched == 2  # LES is not symmetric


def test_three_variable_clause_with_a_repeated_variable_never_matches():
    raw = [("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1"), ("b1", "Theme", "x1", "x1")]
    d = counter_clauses(raw)
    assert d.total == 2 and not d.clauses[1].matchable
    assert solve(d, d).matched == 1  # Counter's add_node_pairs skips repeated pairs


def test_a_stopped_solve_is_an_interval_that_holds():
    rng = random.Random(7)
    a = counter_clauses(random_drs(rng) + random_drs(rng))
    b = counter_clauses(random_drs(rng) + random_drs(rng))
    best = brute_force(a, b)
    r = solve(a, b, time_limit=0.0)
    assert r.matched <= best <= r.upper
    assert r.certified == (r.matched == r.upper)

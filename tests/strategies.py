"""Hypothesis strategies for smatchpp tests (helper module, not a test module).

* :func:`triple_graphs`: random small :class:`TripleGraph` objects over a tiny
  vocabulary, so that repeated concepts, duplicated attributes and relations
  and self-loops are common; like the ``smatch`` preset, variable 0 carries a
  ``('top', 'top')`` attribute.
* :func:`permute_graph` / :func:`equivalent_graphs`: the same graph with
  renamed variables, another variable order and another triple order.
* :func:`graphs_with_clones`: random graphs with copied variables, which
  are interchangeable (symmetry breaking);
* :func:`penman_specs` + :func:`render_penman`: random PENMAN strings (trees
  with re-entrancies, self-loops, inverted roles, ``:mod``, constants and
  quoted strings) that can be re-rendered under other variable names and
  another branch order.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from smatchpp.graphs.triples import TripleGraph

__all__ = ["CONCEPTS", "triple_graphs", "graph_pairs", "permute_graph", "equivalent_graphs",
           "PenmanSpec", "penman_specs", "render_penman", "renamings", "penman_strings", "NAME_POOL",
           "clone_variable", "graphs_with_clones"]

CONCEPTS = ("a", "b", "c")
ATTR_ROLES = ("op1", "polarity")
ATTR_VALUES = ("x", "-")
REL_ROLES = ("arg0", "arg1")

# ---------------------------------------------------------------------------
# TripleGraph strategies


@st.composite
def triple_graphs(draw, min_vars: int = 1, max_vars: int = 5, max_attributes: int = 4,
                  max_relations: int = 6, concepts=CONCEPTS, top: bool = True,
                  name_prefix: str = "v") -> TripleGraph:
    """A random :class:`TripleGraph` with ``min_vars..max_vars`` variables."""
    n = draw(st.integers(min_vars, max_vars))
    if n == 0:
        return TripleGraph((), (), (), ())
    var = st.integers(0, n - 1)
    names = tuple(f"{name_prefix}{i}" for i in range(n))
    cons = tuple(draw(st.lists(st.sampled_from(concepts), min_size=n, max_size=n)))
    attributes = draw(st.lists(st.tuples(var, st.sampled_from(ATTR_ROLES), st.sampled_from(ATTR_VALUES)),
                               max_size=max_attributes))
    relations = draw(st.lists(st.tuples(var, st.sampled_from(REL_ROLES), var), max_size=max_relations))
    # make exact duplicates frequent (plain lists rarely repeat an element)
    if attributes and draw(st.booleans()):
        attributes.append(attributes[draw(st.integers(0, len(attributes) - 1))])
    if relations and draw(st.booleans()):
        relations.append(relations[draw(st.integers(0, len(relations) - 1))])
    if top:
        attributes.append((0, "top", "top"))
    return TripleGraph(names, cons, tuple(attributes), tuple(relations))


def graph_pairs(max_vars: int = 5, **kwargs):
    """Pairs (A, B) of independent random graphs; B's variables are named ``w*``."""
    return st.tuples(triple_graphs(max_vars=max_vars, name_prefix="v", **kwargs),
                     triple_graphs(max_vars=max_vars, name_prefix="w", **kwargs))


def permute_graph(g: TripleGraph, order: list[int], names: list[str],
                  attr_order: list[int], rel_order: list[int]) -> TripleGraph:
    """An equivalent graph: old variable ``order[k]`` becomes new variable ``k``
    named ``names[k]``; attributes and relations are listed in the given orders."""
    n = len(g.variables)
    assert sorted(order) == list(range(n)) and len(set(names)) == n
    new_index = {old: new for new, old in enumerate(order)}
    concepts = tuple(g.concepts[old] for old in order)
    attributes = tuple((new_index[g.attributes[t][0]],) + tuple(g.attributes[t][1:]) for t in attr_order)
    relations = tuple((new_index[g.relations[t][0]], g.relations[t][1], new_index[g.relations[t][2]])
                      for t in rel_order)
    return TripleGraph(tuple(names), concepts, attributes, relations)


@st.composite
def equivalent_graphs(draw, g: TripleGraph, prefix: str = "r") -> tuple[TripleGraph, dict[str, str]]:
    """``(g2, rename)``: ``g`` with shuffled variables, fresh names and shuffled triples;
    ``rename`` maps each old name to its new one."""
    n = len(g.variables)
    order = draw(st.permutations(range(n)))
    suffixes = draw(st.lists(st.integers(0, 99), min_size=n, max_size=n, unique=True))
    names = [f"{prefix}{s}" for s in suffixes]
    attr_order = draw(st.permutations(range(len(g.attributes))))
    rel_order = draw(st.permutations(range(len(g.relations))))
    g2 = permute_graph(g, list(order), names, list(attr_order), list(rel_order))
    rename = {g.variables[old]: names[new] for new, old in enumerate(order)}
    return g2, rename


# ---------------------------------------------------------------------------
# PENMAN strings

#: variable names used when rendering; no constant below can be mistaken for one
NAME_POOL = tuple(f"{c}{i}" for c in "pqrs" for i in range(8))

PENMAN_CONCEPTS = ("dog", "Dog", "dog_", "bark-01", "cat", "big")
PENMAN_TREE_ROLES = ("ARG0", "ARG1", "ARG0-of", "mod", "domain", "consist-of", "op1")
PENMAN_CONSTANTS = ("-", "5", '"Bob"', '"New York"', "imperative", "Expressive_")
PENMAN_ATTR_ROLES = ("polarity", "quant", "name", "mode", "ARG1-of", "mod", "op1")


@dataclass(frozen=True)
class PenmanSpec:
    """A rooted tree of ``n`` variables (``parent[i] < i`` for ``i >= 1``) with extra
    edges (re-entrancies, self-loops) and constants, rendered by :func:`render_penman`."""

    concepts: tuple[str, ...]
    tree_roles: tuple[str, ...]   # role of the edge parent[i] -> i, for i >= 1
    parents: tuple[int, ...]      # parent[i] for i >= 1
    extra: tuple[tuple[int, str, int], ...]
    constants: tuple[tuple[int, str, str], ...]

    @property
    def n(self) -> int:
        return len(self.concepts)

    def branches(self) -> list[list[tuple[str, str, object]]]:
        """For each variable its branches ``(kind, role, target)`` in canonical order."""
        out: list[list[tuple[str, str, object]]] = [[] for _ in range(self.n)]
        for i in range(1, self.n):
            out[self.parents[i - 1]].append(("child", self.tree_roles[i - 1], i))
        for s, role, t in self.extra:
            out[s].append(("ref", role, t))
        for s, role, value in self.constants:
            out[s].append(("const", role, value))
        return out


@st.composite
def penman_specs(draw, max_vars: int = 4, max_extra: int = 3, max_constants: int = 3) -> PenmanSpec:
    n = draw(st.integers(1, max_vars))
    concepts = tuple(draw(st.lists(st.sampled_from(PENMAN_CONCEPTS), min_size=n, max_size=n)))
    parents = tuple(draw(st.integers(0, i - 1)) for i in range(1, n))
    roles = tuple(draw(st.sampled_from(PENMAN_TREE_ROLES)) for _ in range(1, n))
    var = st.integers(0, n - 1)
    extra = tuple(draw(st.lists(st.tuples(var, st.sampled_from(PENMAN_TREE_ROLES), var),
                                max_size=max_extra)))
    constants = tuple(draw(st.lists(st.tuples(var, st.sampled_from(PENMAN_ATTR_ROLES),
                                              st.sampled_from(PENMAN_CONSTANTS)),
                                    max_size=max_constants)))
    return PenmanSpec(concepts, roles, parents, extra, constants)


def render_penman(spec: PenmanSpec, names: list[str] | None = None,
                  branch_orders: list[list[int]] | None = None) -> str:
    """The PENMAN string of ``spec`` with variable ``i`` named ``names[i]`` and the
    branches of variable ``i`` in the order ``branch_orders[i]``."""
    names = list(names) if names is not None else [NAME_POOL[i] for i in range(spec.n)]
    branches = spec.branches()

    def node(i: int) -> str:
        parts = [f"({names[i]} / {spec.concepts[i]}"]
        order = branch_orders[i] if branch_orders is not None else range(len(branches[i]))
        for k in order:
            kind, role, target = branches[i][k]
            if kind == "child":
                parts.append(f":{role} {node(target)}")
            elif kind == "ref":
                parts.append(f":{role} {names[target]}")
            else:
                parts.append(f":{role} {target}")
        return " ".join(parts) + ")"

    return node(0)


@st.composite
def renamings(draw, spec: PenmanSpec) -> tuple[list[str], list[list[int]]]:
    """Fresh variable names and a random branch order for every variable of ``spec``."""
    names = draw(st.lists(st.sampled_from(NAME_POOL), min_size=spec.n, max_size=spec.n, unique=True))
    orders = [list(draw(st.permutations(range(len(b))))) for b in spec.branches()]
    return names, orders


def penman_strings(**kwargs):
    """Random PENMAN strings (default names and branch order)."""
    return penman_specs(**kwargs).map(render_penman)


# ---------------------------------------------------------------------------
# graphs with interchangeable variables (for symmetry breaking)


def clone_variable(g: TripleGraph, v: int) -> TripleGraph:
    """``g`` with a copy of variable ``v``: same concept, attributes and relations to others.

    A relation between ``v`` and itself becomes one between the copy and
    itself; so swapping ``v`` and its copy maps the graph onto itself.
    """
    n = len(g.variables)
    names = g.variables + (f"{g.variables[v]}c{n}",)
    concepts = g.concepts + (g.concepts[v],)
    attributes = g.attributes + tuple((n,) + t[1:] for t in g.attributes if t[0] == v)
    extra = []
    for s, r, t in g.relations:
        if s == v or t == v:
            extra.append((n if s == v else s, r, n if t == v else t))
    return TripleGraph(names, concepts, attributes, g.relations + tuple(extra))


@st.composite
def graphs_with_clones(draw, max_clones: int = 2, **kwargs) -> TripleGraph:
    """A random graph (see :func:`triple_graphs`) with 1..``max_clones`` variables copied."""
    g = draw(triple_graphs(**kwargs))
    for _ in range(draw(st.integers(1, max_clones))):
        g = clone_variable(g, draw(st.integers(0, len(g.variables) - 1)))
    return g

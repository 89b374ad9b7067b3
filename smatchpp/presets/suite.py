"""The ``amr-suite`` preset: the triples of the reader that the published reference tools bundle.

Three tools that published numbers are quoted from carry the same old copy of
smatch's ``amr.py`` (its ``update_log`` ends at "1/9/2016"), not any PyPI
release of smatch:

* ``flipz357/amr-metric-suite`` (711a231), ``py3-Smatch-and-S2match/smatch/amr_py3.py``
  (and ``py2-.../amr.py``): its ``smatch.py`` and ``s2match.py`` made BAMBOO v0.2's Smatch
  and S2match rows;
* ``jcyk/AMR-parser`` (e412798), ``amr-evaluation-tool-enhanced/smatch/amr.py``: the
  WSMATCH tool (weighted Smatch); the same parser, with weights added after it;
* ``mdtux89/amr-evaluation`` (8bc6b2e), ``smatch/amr.py``: Damonte et al.'s aspect table;
  the same parser, but it keeps every relation and attribute in lists (see below).

:func:`suite_triples` follows ``AMR.parse_AMR_line`` and its ``__init__``-time
maps rule by rule; the line numbers are those of ``amr_py3.py`` at 711a231
(``amr.py`` of jcyk at e412798 is the same code, 3-4 lines further up):

1. **Inverted roles only where the node is written or the role ends its node.**
   A role ending in ``-of`` (case-sensitive, no exceptions: ``consist-of`` and
   ``prep-*-of`` too) is inverted when its target node is written after it,
   ``:ARG0-of (b / ...)`` (l. 314-319), or when it is the node's last role,
   before ``)``, whatever its target is (l. 350-351; onto a constant it is then
   filed under a node that does not exist, and lost).  Followed by another role
   (``:ARG1-of b :mod ...``), it is kept as written, ``-of`` included (l. 265-282).
2. **``:mod`` stays ``:mod``**: no rewrite to an inverse ``:domain`` (smatch 1.0.3's
   change), and so ``:mod 1`` is kept (smatch 1.0.4 inverts it onto a constant and
   loses it).
3. **One relation per source and target** (l. 387-400: ``relation_dict[target] =
   role``): of ``a :ARG0 b`` and ``a :ARG1 b`` (also ``b :ARG1-of a``, inverted),
   the one read last is kept.  The maps are filled from two lists: first the
   relations known to be relations when read (written nodes, nodes already
   defined, inverted roles), then the targets not yet defined when read
   (l. 279-282, 355-358), so "last" means last of the second list if it has one.
4. **One attribute per role name and node** (l. 392-402: ``attribute_dict[role] =
   value``), the last one read: ``:op1 "A" :op1 "B"`` keeps ``op1 = B_``.
5. **Constants**: a quoted constant keeps its first space-separated token; when
   there is only one, the closing quote becomes ``_`` (l. 215-220, 265: ``"Rex"`` is
   ``Rex_``, ``"New York"`` is ``New``, ``""`` is ``_``); an unquoted one is kept
   whole.  A concept loses its spaces and quotes the same way (``"a b"`` is ``ab_``).
   Labels are compared lower-cased (``smatch.py``'s ``compute_pool``,
   ``.lower()``) and ``_`` is *not* stripped, so ``"5"`` and ``5`` differ.
6. **TOP** is an attribute of the first node whose value is its concept
   (l. 409: ``attribute_list[0]["TOP"] = node_value_list[0]``), as smatch <= 1.0.2.

Where the three differ: jcyk's copy always marks quotes (no
``do_not_mark_quotes`` flag; the suite's default also marks them, and both
tools run with the default).  ``mdtux89/amr-evaluation``'s copy replaces both
maps by lists (its ``amr.py`` l. 401-419), so rules 3 and 4 do not hold there:
every relation and attribute is kept, duplicates included; and its
``smatch.py`` compares labels with ``normalize`` = ``lower().rstrip('_')``
(l. 176-180), so ``"5"`` and ``5`` are equal there.  That copy is PyPI
smatch 1.0.1's ``amr.py`` unchanged: the ``smatch-1.0.1`` preset (alias
``amr-evaluation``; ``keep_all=True`` here, trailing ``_`` stripped).

The graph's layout matters to rule 1 and 3 (which branch writes a node), so
this builder reads :attr:`RawGraph.inline`; a graph read from TSV has no layout
and takes each variable as written at its first branch in depth-first order.

>>> from smatchpp.graphs.read import read_text
>>> raw = read_text('(a / A :ARG0 (b / B) :ARG1 b :ARG0-of c :mod 1 :name "Rex" :name "X Y")'
...                 '\\n')[0].graph
>>> g = suite_triples(raw)
>>> g.attributes
((0, 'arg0-of', 'c'), (0, 'mod', '1'), (0, 'name', 'x'), (0, 'top', 'a'))
>>> g.relations
((0, 'arg1', 1),)
>>> suite_triples(raw, keep_all=True).relations  # amr-evaluation keeps both
((0, 'arg0', 1), (0, 'arg1', 1))
"""

from __future__ import annotations

from collections import defaultdict

from ..graphs.read import RawGraph
from ..graphs.triples import TripleGraph

__all__ = ["suite_triples", "suite_value"]


def suite_value(token: str) -> str:
    """A constant as the reference reads it (rule 5), not yet lower-cased.

    >>> [suite_value(t) for t in ('"Rex"', '"New York"', '""', '"a "', '-', '5')]
    ['Rex_', 'New', '_', 'a', '-', '5']
    """
    if len(token) >= 2 and token[0] == '"' and token[-1] == '"':
        return (token[1:-1] + "_").split()[0]
    return token


def _concept(token: str) -> str:
    if len(token) >= 2 and token[0] == '"' and token[-1] == '"':
        return token[1:-1].replace(" ", "") + "_"
    return token


def _layout(raw: RawGraph) -> tuple[list[list[tuple[int, str, str, bool]]], list[int]]:
    """Per node, its branches ``(index, role, target, written here)``; and the textual order
    of all branches (indices into ``raw.triples``)."""
    node_of = {v: i for i, v in enumerate(raw.variables)}
    branches: list[list[tuple[int, str, str, bool]]] = [[] for _ in raw.variables]
    inline = raw.inline
    if inline is None:  # TSV: a variable is written at its first branch in depth-first order
        seen = {raw.top}
        inline_set = set()
        for k, (s, role, t) in enumerate(raw.triples):
            if role != ":instance" and t in node_of and t not in seen:
                seen.add(t)
                inline_set.add(k)
        inline = frozenset(inline_set)
    for k, (s, role, t) in enumerate(raw.triples):
        if role != ":instance":
            branches[node_of[s]].append((k, role, t, k in inline))
    # textual order: a node's branches in order, a written child's branches right after
    # its own branch (an explicit stack: graphs may be deep)
    order: list[int] = []
    if not raw.variables:
        return branches, order
    stack = [(node_of[raw.top] if raw.top in node_of else 0, 0)]
    visited = set()
    while stack:
        node, at = stack.pop()
        visited.add(node)
        bs = branches[node]
        while at < len(bs):
            k, _, t, here = bs[at]
            order.append(k)
            at += 1
            if here and node_of[t] not in visited:
                stack.append((node, at))
                stack.append((node_of[t], 0))
                break
    return branches, order


def suite_triples(raw: RawGraph, keep_all: bool = False, strip: bool = False) -> TripleGraph:
    """The reference reader's triples (module doc).  ``keep_all``: every relation and
    attribute, as ``mdtux89/amr-evaluation``'s lists; ``strip``: trailing ``_`` removed
    from labels, as its ``normalize``."""
    variables = raw.variables
    index = {v: i for i, v in enumerate(variables)}
    concepts = [""] * len(variables)
    for s, role, t in raw.triples:
        if role == ":instance":
            concepts[index[s]] = _concept(t)
    branches, order = _layout(raw)
    last = {bs[-1][0] for bs in branches if bs}  # a node's last branch: ``)`` follows it
    here_at = {k: here for bs in branches for k, _, _, here in bs}
    known: dict[str, list[tuple[str, str]]] = defaultdict(list)    # node_relation_dict1
    unknown: dict[str, list[tuple[str, str]]] = defaultdict(list)  # node_relation_dict2
    defined: set[str] = set()  # node_dict: nodes whose concept has been read
    if variables:
        defined.add(raw.top if raw.top in index else variables[0])
    for k in order:
        source, role, target = raw.triples[k]
        here = here_at[k]
        name = role[1:] if role.startswith(":") else role
        if here:  # ``:role (x / c``
            if name.endswith("-of"):
                known[target].append((name[:-3], source))
            else:
                known[source].append((name, target))
            defined.add(target)  # its concept is read before anything after it
            continue
        value = suite_value(target)
        if k in last and name.endswith("-of"):  # ``:role-of value)``
            known[value].append((name[:-3], source))
        elif value not in defined:
            unknown[source].append((name, value))
        else:
            known[source].append((name, value))
    attributes: list[tuple[int, str, str]] = []
    relations: list[tuple[int, str, int]] = []
    fix = (lambda x: x.lower().rstrip("_")) if strip else str.lower
    for i, v in enumerate(variables):
        rel: list[tuple[str, str]] = list(known.get(v, ()))
        att: list[tuple[str, str]] = []
        for r, val in unknown.get(v, ()):
            (rel if val in index else att).append((r, val))
        if i == 0:
            att = [(r, val) for r, val in att if r != "TOP"] if not keep_all else att
            att.append(("TOP", concepts[0]))
        if not keep_all:
            rel = [(r, t) for t, r in dict((t, r) for r, t in rel).items()]
            att = list(dict(att).items())
        relations += [(i, fix(r), index[t]) for r, t in rel]
        attributes += [(i, fix(r), fix(val)) for r, val in att]
    return TripleGraph(tuple(variables), tuple(fix(c) for c in concepts),
                       tuple(attributes), tuple(relations))

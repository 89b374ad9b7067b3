"""The ``amr`` preset: ``generic`` plus AMR normalization, through penman's AMR model.

The rules, in the order they run (after :func:`~smatchpp.presets.graph.lowercase`):

1. **drop** ``:wiki`` (:func:`drop_wiki`), unless ``keep_wiki`` (``--keep-wiki``):
   parsers add Wikipedia links in post-processing, so they say little about
   the parse (AMRParseEval removes them too).

   >>> g = _amr('(c / city :wiki "Paris" :name (n / name :op1 "Paris"))')
   >>> [t for t in drop_wiki(g, Options()).triples if t[1] == ":wiki"]
   []
   >>> [t for t in drop_wiki(g, Options(keep_wiki=True)).triples if t[1] == ":wiki"]
   [('c', ':wiki', '"paris"')]

2. **roles in one direction** (:func:`normalize_roles`), by penman's AMR model
   (:data:`penman.models.amr.model`): ``-of-of`` collapses
   (``:ARG0-of-of`` is ``:ARG0``), ``:mod-of`` is ``:domain`` and
   ``:domain-of`` is ``:mod`` (the model's normalizations), and an inverse
   role onto a variable is turned around, except the roles that merely end
   in ``-of`` (``:consist-of``, ``:prep-out-of``, ``:prep-on-behalf-of``):

   >>> g = normalize_roles(_amr('(a / x :ARG0-of-of (b / y) :consist-of (c / z) :part-of (d / w))'),
   ...                     Options())
   >>> [t for t in g.triples if t[1] != ":instance"]
   [('a', ':arg0', 'b'), ('a', ':consist-of', 'c'), ('d', ':part', 'a')]

3. **dereification** (:func:`dereify`) by the AMR guidelines' reification
   table (:data:`GUIDELINES_REIFICATIONS`, read through a penman
   :class:`~penman.model.Model`): a node whose concept is a reification, that
   is not the top, that nothing points to, and that has exactly its two
   table roles, becomes the relation it reifies:

   >>> g = normalize_roles(_amr('''(l / leave-11 :ARG0 (g / girl)
   ...     :ARG1-of (b / be-located-at-91 :ARG2 (c / city)))'''), Options())
   >>> print(penman.encode(dereify(g, Options())))
   (l / leave-11
      :arg0 (g / girl)
      :location (c / city))

   A reified node with a third edge (``:polarity -``, ``:time``...) says
   more than the relation and stays.  penman's own
   :func:`penman.transform.dereify_edges` needs a graph decoded by penman
   (layout epidata), so the loop is here and the table lookup is penman's
   (:meth:`penman.model.Model.dereify`).

4. **``:domain`` rather than ``:mod``** (:func:`mod_to_domain`): ``x :mod y``
   becomes ``y :domain x`` (smatch 1.0.4's direction), so ``:mod``,
   ``:mod-of``, ``:domain`` and ``:domain-of`` all give one triple.  Onto a
   constant, ``:mod`` stays.

   >>> mod_to_domain(_amr('(c / cat :mod (b / big) :mod "x")'), Options()).triples[1:]
   [('b', ':domain', 'c'), ('c', ':mod', '"x"'), ('b', ':instance', 'big')]

The guidelines' table against penman's (``penman.models.amr.reifications``),
checked by ``tests/test_presets.py`` on the shared copy of the guidelines:

* the guidelines reify ``:degree`` as ``have-degree-91``, penman as
  ``have-degree-92``;
* penman also reifies ``:cause`` (``cause-01``), ``:cost`` (``cost-01``),
  ``:employed-by`` and ``:role`` (``have-org-role-91``), ``:meaning``
  (``mean-01``), ``:subset``/``:superset`` (``include-91``) and
  ``:beneficiary`` by ``receive-01``; the guidelines' table does not, so
  the ``amr`` preset leaves those concepts alone.  (BAMBOO's reify files use
  ``have-degree-92`` and ``cause-01``, so those stay reified there:
  ``docs/results.md``.)

>>> from smatchpp.presets import standardize
>>> a = standardize(read_one_graph('(s / see-01 :ARG0 (b / Boy) :ARG1-of (c / have-manner-91 :ARG2 (q / quick)))'), "amr")
>>> b = standardize(read_one_graph('(s / see-01 :manner (q / quick) :ARG0 (b / boy))'), "amr")
>>> sorted(a.triples()) == sorted(b.triples())
True
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

import penman
from penman.exceptions import ModelError
from penman.model import Model
from penman.models import amr as penman_amr

from .graph import INSTANCE, GENERIC_RULES, Options, Rule, read_one_graph, with_triples, lowercase, to_penman, variables

__all__ = ["GUIDELINES_REIFICATIONS", "MODEL", "drop_wiki", "normalize_roles", "dereify",
           "mod_to_domain", "AMR_RULES"]

#: The reification table of the AMR guidelines (section "Reification",
#: ``amr-guidelines.md``): ``x :relation y`` = ``x :domain-of (z / concept :range y)``,
#: as ``(relation, concept, domain role, range role)``.
GUIDELINES_REIFICATIONS: tuple[tuple[str, str, str, str], ...] = (
    (":accompanier", "accompany-01", ":ARG1", ":ARG0"),
    (":age", "age-01", ":ARG1", ":ARG2"),
    (":beneficiary", "benefit-01", ":ARG0", ":ARG1"),
    (":concession", "have-concession-91", ":ARG1", ":ARG2"),
    (":condition", "have-condition-91", ":ARG1", ":ARG2"),
    (":degree", "have-degree-91", ":ARG1", ":ARG2"),
    (":destination", "be-destined-for-91", ":ARG1", ":ARG2"),
    (":duration", "last-01", ":ARG1", ":ARG2"),
    (":example", "exemplify-01", ":ARG1", ":ARG0"),
    (":extent", "have-extent-91", ":ARG1", ":ARG2"),
    (":frequency", "have-frequency-91", ":ARG1", ":ARG2"),
    (":instrument", "have-instrument-91", ":ARG1", ":ARG2"),
    (":li", "have-li-91", ":ARG1", ":ARG2"),
    (":location", "be-located-at-91", ":ARG1", ":ARG2"),
    (":manner", "have-manner-91", ":ARG1", ":ARG2"),
    (":mod", "have-mod-91", ":ARG1", ":ARG2"),
    (":name", "have-name-91", ":ARG1", ":ARG2"),
    (":ord", "have-ord-91", ":ARG1", ":ARG2"),
    (":part", "have-part-91", ":ARG1", ":ARG2"),
    (":polarity", "have-polarity-91", ":ARG1", ":ARG2"),
    (":poss", "own-01", ":ARG1", ":ARG0"),
    (":poss", "have-03", ":ARG1", ":ARG0"),
    (":purpose", "have-purpose-91", ":ARG1", ":ARG2"),
    (":quant", "have-quant-91", ":ARG1", ":ARG2"),
    (":source", "be-from-91", ":ARG1", ":ARG2"),
    (":subevent", "have-subevent-91", ":ARG1", ":ARG2"),
    (":time", "be-temporally-at-91", ":ARG1", ":ARG2"),
    (":topic", "concern-02", ":ARG0", ":ARG1"),
    (":value", "have-value-91", ":ARG1", ":ARG2"),
)


def _lower_model() -> Model:
    """penman's AMR model (roles, normalizations) with the guidelines' table, all lower-cased.

    The ``amr`` preset lower-cases roles first, so the model's tables must be too.
    """
    base = penman_amr.model
    return Model(
        roles={r.lower(): v for r, v in base.roles.items()},
        normalizations={k.lower(): v.lower() for k, v in base.normalizations.items()},
        reifications=[(r.lower(), c, s.lower(), t.lower()) for r, c, s, t in GUIDELINES_REIFICATIONS],
    )


#: the model every ``amr`` rule consults
MODEL = _lower_model()


def _amr(text: str) -> penman.Graph:
    """A lower-cased penman graph (for the examples)."""
    return lowercase(to_penman(read_one_graph(text)), Options())


def drop_wiki(g: penman.Graph, options: Options) -> penman.Graph:
    """Remove ``:wiki`` triples unless ``options.keep_wiki``."""
    if options.keep_wiki:
        return g
    return with_triples(g, (t for t in g.triples if t[1] != ":wiki"))


@lru_cache(maxsize=4096)
def _canonical(role: str) -> tuple[str, bool]:
    """``MODEL``'s canonical form of ``role`` and whether it is an inverse (roles repeat a lot)."""
    role = MODEL.canonicalize_role(role)
    return role, MODEL.is_role_inverted(role)


def normalize_roles(g: penman.Graph, options: Options, model: Model = MODEL) -> penman.Graph:
    """Canonicalize every role by ``model``, then turn inverse roles onto variables around."""
    names = variables(g)
    out = []
    for s, r, t in g.triples:
        if r != INSTANCE:
            if model is MODEL:
                r, inverted = _canonical(r)
            else:
                r = model.canonicalize_role(r)
                inverted = model.is_role_inverted(r)
            if inverted and t in names:
                s, r, t = model.invert((s, r, t))
        out.append((s, r, t))
    return with_triples(g, out)


def dereify(g: penman.Graph, options: Options, model: Model = MODEL) -> penman.Graph:
    """Collapse reified nodes into the relation they stand for (see the module doc)."""
    names = variables(g)
    instance: dict[str, tuple] = {}
    edges: dict[str, list[tuple]] = defaultdict(list)
    pointed: set = {g.top}
    for triple in g.triples:
        if triple[1] == INSTANCE:
            instance[triple[0]] = triple
        else:
            edges[triple[0]].append(triple)
            pointed.add(triple[2])
    replace: dict[str, tuple[tuple, tuple]] = {}
    for var, inst in instance.items():
        out = edges.get(var, [])
        if var in pointed or len(out) != 2 or not model.is_concept_dereifiable(inst[2]):
            continue
        try:
            new = model.dereify(inst, out[0], out[1])
        except ModelError:
            continue  # other roles than the table's
        if new[0] in names:  # a constant cannot be the source of a relation
            replace[var] = (out[0], new)
    if not replace:
        return g
    triples = []
    for triple in g.triples:
        if triple[0] in replace:
            first, new = replace[triple[0]]
            if triple == first:
                triples.append(new)
            continue
        triples.append(triple)
    return with_triples(g, triples)


def mod_to_domain(g: penman.Graph, options: Options, model: Model = MODEL) -> penman.Graph:
    """``x :mod y`` onto a variable ``y`` becomes ``y :domain x``."""
    names = variables(g)
    out = []
    for s, r, t in g.triples:
        if r == ":mod" and t in names:
            s, r, t = model.invert((s, r, t))
            r = model.canonicalize_role(r)  # :mod-of is :domain
        out.append((s, r, t))
    return with_triples(g, out)


#: the ``amr`` preset's rules, in order
AMR_RULES: tuple[Rule, ...] = (GENERIC_RULES[0], drop_wiki, normalize_roles, dereify, mod_to_domain)

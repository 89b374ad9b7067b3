"""A DRS's clauses as Counter matches them (``evaluation/counter.py``: ``get_clauses``,
``remove_refs`` and ``DRS.get_specific_clauses``; ``RikVN/DRS_parsing`` at 190838f).

In Counter's order:

1. ``RoleOf x y`` becomes ``Role y x`` (a 4-token clause whose operator is a role ending in
   ``Of``), and a symmetric operator (``APX NEQ EQU TAB``) with a quoted first argument and a
   bare second one has them swapped (``b NEQ "speaker" x`` -> ``b NEQ x "speaker"``);
2. unless REF clauses are kept (Counter's ``-ic``), ``b REF x`` is dropped when another clause
   of the same box ``b`` has ``x`` as its last or second-to-last token;
3. variables are renamed in order of first appearance and typed then, once: the first token
   of a clause is a box (``b``); the argument of an operator whose signature type is ``bb`` or
   ``bbb`` (with ``version="2019"``: the fixed list of Counter v.2.2.0) is a box, except the first
   argument of ``PRP``; everything else is a referent (``x``).  A box never matches a referent.
   A quoted token is a constant, except when both arguments of an operator are quoted: then
   the second is renamed as a variable (Counter does so);
4. each clause falls in a category (operator with two or three variables or with a constant
   first or second, role likewise, concept), concepts are rewritten through the WordNet map
   (``concept.pos.nn`` -> its synset) and the ablations (``-dse`` every sense ``n.01``, ``-dr``
   every role ``Role``, ``-dc`` every concept ``work.n.01``) applied, and a clause already in
   its category is not added again.

The clause counts are Counter's ``total_clauses``.  A clause here is ``(label, vars)``:
``label`` holds the category, the operator, role or concept and any constants, ``vars`` the
variable indices in order.

>>> d = counter_clauses([("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1"),
...                      ("b1", "OwnerOf", "x1", "x2"), ("b2", "REF", "x2")])
>>> d.types, d.names
(('b', 'x', 'x', 'b'), ('b1', 'x1', 'x2', 'b2'))
>>> [(c.label, c.vars) for c in d.clauses]  # b1 REF x1 is dropped: x1 is used in b1
[(('concept', 'dog', '"n.01"'), (0, 1)), (('role', 'Owner'), (0, 2, 1)), (('op', 'REF'), (3, 2))]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

__all__ = ["Clause", "CounterDrs", "counter_clauses", "INV_BOXES", "OP_BOXES_2019", "is_role", "all_upper",
           "between_quotes", "family", "DETAIL_NAMES", "detail_row", "clause_id"]

#: Counter's operators whose two arguments may be swapped (``b NEQ x y`` = ``b NEQ y x``)
INV_BOXES = ("APX", "NEQ", "EQU", "TAB")
#: Counter v.2.2.0's operators whose arguments are boxes (later versions read the signature)
OP_BOXES_2019 = ("NOT", "POS", "NEC", "IMP", "DIS", "PRP", "DRS", "ANSWER", "PARALLEL", "CONTINUATION",
                 "CONTRAST", "RESULT", "EXPLANATION")


def between_quotes(s: str) -> bool:
    return (s.startswith('"') and s.endswith('"')) or (s.startswith("'") and s.endswith("'"))


def all_upper(s: str) -> bool:
    return all(ch.isupper() for ch in s)


def is_role(s: str) -> bool:
    return (s[0].isupper() and any(ch.islower() for ch in s[1:])
            and all(ch.islower() or ch.isupper() or ch == "-" for ch in s))


@dataclass(frozen=True)
class Clause:
    """One clause: ``label`` (category first) and its variables' indices; ``symmetric``: its
    last two variables may be matched either way round; ``matchable``: False for a clause that
    never matches (a dummy DRS's concept; a three-variable clause with a repeated variable,
    which Counter never matches)."""

    label: tuple[str, ...]
    vars: tuple[int, ...]
    symmetric: bool = False
    matchable: bool = True
    #: where the clause was written: its position in :attr:`CounterDrs.written` (the DRS after
    #: REF pruning; a repeated clause is kept at its first position), -1 if not given
    at: int = field(default=-1, compare=False)
    #: the clause as written (before ``RoleOf`` is inverted, the WordNet map and the ablations):
    #: Counter's detailed scores divide a matched clause by it (:func:`detail_row`, :func:`clause_id`)
    written: tuple[str, ...] = field(default=(), compare=False)

    @property
    def pos(self) -> str:
        """A concept's part-of-speech tag as written (the last character of its sense's first
        part, ``s`` read as ``a``); ``""`` for another clause."""
        return _pos(self.written[2]) if family(self) == "concept" and len(self.written) > 2 else ""


@dataclass(frozen=True)
class CounterDrs:
    """A DRS as Counter matches it: variables (original names, types ``b``/``x``) and clauses."""

    names: tuple[str, ...]
    types: tuple[str, ...]
    clauses: tuple[Clause, ...]
    #: the clauses as written, after REF pruning, before a repeated clause is dropped (Counter's
    #: "original clauses": ``-m`` counts them, ``-ds`` lists the unmatched ones)
    written: tuple[tuple[str, ...], ...] = field(default=(), compare=False)
    #: the index in :attr:`clauses` of the clause each written one became (or repeats)
    became: tuple[int, ...] = field(default=(), compare=False)

    @property
    def listed(self) -> int:
        """How many clauses :attr:`written` holds (Counter's ``-m`` counts these)."""
        return len(self.written)

    @property
    def total(self) -> int:
        return len(self.clauses)


def family(clause: Clause) -> str:
    """``operator``, ``role`` or ``concept`` (Counter's detailed scores' three kinds)."""
    return {"op": "operator", "op_c1": "operator", "op_c2": "operator", "op3": "operator",
            "role_cc": "role", "role_c1": "role", "role_c2": "role", "role": "role"}.get(clause.label[0], "concept")


#: Counter's detailed scores (``-prin``), in its order: three families, then the concepts by
#: part of speech, then the events (verbs and adjectives)
DETAIL_NAMES = ("operators", "roles", "concepts", "nouns", "verbs", "adjectives", "adverbs", "events")


def _pos(sense: str) -> str:
    """Counter's part-of-speech tag of a sense token (``"n.01"`` -> ``n``; ``s`` -> ``a``)."""
    tag = sense.split(".")[0][-1:]
    return "a" if tag == "s" else tag


def detail_row(clause: Clause, written: bool = False) -> tuple[int, ...]:
    """The clause's row in Counter's eight detailed counts (:data:`DETAIL_NAMES`): 1 in its
    family's column and, for a concept, in its part of speech's and (verb or adjective) in the
    events'.  As Counter (``get_detailed_results``, ``get_num_concepts``): a matched clause is
    divided by its sense as written (``written=True``: :attr:`Clause.pos`), a DRS's clauses by
    the sense they are matched with (after the WordNet map and ``-dse``/``-dc``), where a
    concept whose name reads as an operator or a role has no part of speech.

    >>> d = counter_clauses([("b1", "REF", "e1"), ("b1", "run", '"v.01"', "e1"), ("b1", "Agent", "e1", "x1"),
    ...                      ("b1", "REF", "x1"), ("b1", "big", '"s.01"', "x1")], default_sense=True)
    >>> [detail_row(c) for c in d.clauses][:2]  # -dse: every sense n.01, a noun
    [(0, 0, 1, 1, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0, 0, 0)]
    >>> detail_row(d.clauses[0], written=True), detail_row(d.clauses[2], written=True)  # as written
    ((0, 0, 1, 0, 1, 0, 0, 1), (0, 0, 1, 0, 0, 1, 0, 1))
    """
    row = [0] * 8
    fam = family(clause)
    row[("operator", "role", "concept").index(fam)] = 1
    if fam == "concept":
        if written:
            tag = clause.pos
        else:
            name = clause.label[1]
            tag = "" if all_upper(name) or is_role(name) or name in ("SY1", "SY2") else _pos(clause.label[2])
        if tag and tag in "nvar":
            row[3 + "nvar".index(tag)] = 1
            if tag in "va":
                row[7] = 1
    return tuple(row)


def clause_id(clause: Clause, written: Sequence[str] | None = None) -> str:
    """Counter's name of a clause in its ``-ds`` lists (``get_clause_id`` of the clause as
    written): its operator or role (``AgentOf`` stays ``AgentOf``), a concept with its sense
    (``dog.n.01``).  ``written``: the tokens as written (default: the clause's own), read as a
    clause of ``clause``'s family.

    >>> d = counter_clauses([("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1"), ("b1", "OwnerOf", "x1", "x2"),
    ...                      ("b2", "REF", "x2")])
    >>> [clause_id(c) for c in d.clauses]
    ['dog.n.01', 'OwnerOf', 'REF']
    """
    w = tuple(clause.written if written is None else written)
    if family(clause) != "concept" or len(w) < 3:
        return w[1]
    return w[1] + "." + w[2].replace('"', "")


def _op_boxes(signature: Mapping[str, tuple[str, str]] | None, version: str) -> frozenset[str]:
    if version == "2019":
        return frozenset(OP_BOXES_2019)
    return frozenset(op for op, (_, types) in (signature or {}).items() if types in ("bb", "bbb"))


def _is_operator(op: str, version: str) -> bool:
    # SY1 and SY2 are operators from 6def45b (2021) on; before, they fell to the concepts
    return all_upper(op) or (version == "2021" and op in ("SY1", "SY2"))


def counter_clauses(raw: Sequence[Sequence[str]], signature: Mapping[str, tuple[str, str]] | None = None, *,
                    include_ref: bool = False, wordnet: Mapping[str, str] | None = None,
                    default_sense: bool = False, default_role: bool = False, default_concept: bool = False,
                    version: str = "2021", unmatchable_concepts: bool = False) -> CounterDrs:
    """Counter's clauses of one DRS (``raw``: token sequences, already checked); see the module
    doc.  ``unmatchable_concepts``: the concept clauses never match (a dummy DRS's)."""
    if any(len(c) < 3 for c in raw):
        raise ValueError("a clause has fewer than 3 tokens")
    drs = [list(c) for c in raw]
    original = [tuple(c) for c in raw]
    for c in drs:
        if len(c) == 4 and is_role(c[1]) and c[1].endswith("Of") and len(c[1]) > 2:
            c[2], c[3] = c[3], c[2]
            c[1] = c[1][:-2]
        elif c[1] in INV_BOXES and len(c) == 4 and between_quotes(c[2]) and not between_quotes(c[3]):
            c[2], c[3] = c[3], c[2]
    kept = range(len(drs))
    if not include_ref:
        kept = [k for k, c in enumerate(drs) if c[1] != "REF" or not any(
            j != k and o[0] == c[0] and (c[2] == o[-1] or c[2] == o[-2]) for j, o in enumerate(drs))]
    written = tuple(original[k] for k in kept)
    drs = [drs[k] for k in kept]
    op_boxes = _op_boxes(signature, version)
    index: dict[str, int] = {}
    names: list[str] = []
    types: list[str] = []

    def var(name: str, kind: str) -> int:
        if name not in index:
            index[name] = len(names)
            names.append(name)
            types.append(kind)
        return index[name]

    seen: dict[tuple, int] = {}
    clauses: list[Clause] = []
    became: list[int] = []

    at = 0  # the position of the clause being added

    def add(label: tuple[str, ...], vs: tuple[int, ...], symmetric: bool = False, matchable: bool = True) -> None:
        key = (label, vs)
        if key not in seen:  # Counter's add_if_not_exists, per category (the label's first item)
            seen[key] = len(clauses)
            if len(vs) == 3 and len(set(vs)) < 3:
                matchable = False  # Counter's add_node_pairs skips three pairs that are not distinct
            clauses.append(Clause(label, vs, symmetric, matchable, at, written[at]))
        became.append(seen[key])

    for at, c in enumerate(drs):
        if len(c) == 3:
            b = var(c[0], "b")
            add(("op", c[1]), (b, var(c[2], "b" if c[1] in op_boxes else "x")))
            continue
        b = var(c[0], "b")
        op = c[1]
        if _is_operator(op, version):
            kind = "b" if op in op_boxes and op != "PRP" else "x"
            if between_quotes(c[2]):
                add(("op_c1", op, c[2]), (b, var(c[3], kind)))
            elif between_quotes(c[3]):
                add(("op_c2", op, c[3]), (b, var(c[2], kind)))
            else:
                v2 = var(c[2], kind)
                v3 = var(c[3], "b" if op in op_boxes else "x")
                add(("op3", op), (b, v2, v3), symmetric=op in INV_BOXES)
        elif is_role(op):
            role = "Role" if default_role else op
            if between_quotes(c[2]) and between_quotes(c[3]):
                add(("role_cc", role, c[2], c[3]), (b,))
            elif between_quotes(c[2]):
                add(("role_c1", role, c[2]), (b, var(c[3], "x")))
            elif between_quotes(c[3]):
                add(("role_c2", role, c[3]), (b, var(c[2], "x")))
            else:
                v2 = var(c[2], "x")
                add(("role", role), (b, v2, var(c[3], "x")))
        else:
            x = var(c[3], "x")
            concept, sense = c[1], c[2]
            if wordnet:
                key = concept + "." + sense.replace('"', "")
                if key in wordnet:
                    parts = wordnet[key].split(".")
                    concept, sense = ".".join(parts[:-2]), '"' + ".".join(parts[-2:]) + '"'
            if default_concept:
                concept, sense = "work", '"n.01"'
            elif default_sense:
                sense = '"n.01"'
            add(("concept", concept, sense), (b, x), matchable=not unmatchable_concepts)
    return CounterDrs(tuple(names), tuple(types), tuple(clauses), written, tuple(became))

"""Well-formedness of a clausal form, by the rules of Referee (``evaluation/clf_referee.py``
of ``RikVN/DRS_parsing`` at 190838f, the version Counter used for PMB 3.0.0 and 4.0.0).

:func:`check` raises :class:`IllFormed` (with the index of the clause at fault when there is
one) or returns nothing.  The rules, in Referee's order:

* typing: a clause has 3 or 4 tokens; its operator and arguments are typed by the signature
  (``{operator: (kind, types)}``; without one, by the operator's spelling), a WordNet sense
  ``"[avnr].NN"`` as second token making it a concept (``b c t``); ``RoleOf`` is typed as
  ``Role``; the arity must match; an argument is a quoted constant (``c``) or a bare term
  without quotes, and one term has one type over the DRS (``t`` unifies with ``x`` or ``c``;
  what stays ``t`` is a referent, ``x``);
* boxes: ``REF`` introduces a referent in its box, ``NOT/POS/NEC`` and ``IMP/DUP/DIS`` nest
  boxes (an implication's antecedent subordinates its consequent), ``PRP`` nests a box under a
  referent, a discourse relation or ``PRESUPPOSITION`` relates two boxes, roles and concepts
  use referents; a clause of another kind is refused;
* subordination: nesting, presuppositions and discourse relations, a box that uses a referent
  of another box, closed under transitivity and Referee's connectivity rule until it stops
  changing; a loop is refused;
* the boxes must be connected by it (when it has any pair), and every referent used in a box
  must be introduced in it or in a box that subordinates it.

>>> check([("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1")])
>>> check([("b1", "dog", '"n.01"', "x1")])
Traceback (most recent call last):
...
smatchpp.drs.referee.IllFormed: clause 1: unbound referents: x1
>>> check([("b1", "REF", "x1"), ("b1", "REF")])
Traceback (most recent call last):
...
smatchpp.drs.referee.IllFormed: clause 2: a clause has 3 or 4 tokens, this one 2
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence

__all__ = ["IllFormed", "check", "RULES"]

_SENSE = re.compile(r'"[avnr]\.\d\d"$')
_LEX_OP = re.compile(r"[.'\w]", re.U)
_NO_UNDERSCORE = re.compile(r"[^_]", re.U)
_QUOTED = re.compile(r'"[^"]+"$')
_BARE = re.compile(r'[^"]+$')


class IllFormed(ValueError):
    """A DRS that Referee's rules reject; ``clause``: the 0-based clause at fault, if one is."""

    def __init__(self, message: str, clause: int | None = None) -> None:
        self.clause = clause
        super().__init__(message if clause is None else f"clause {clause + 1}: {message}")


def _unify(t1: str, t2: str) -> str | None:
    if t1 == t2:
        return t1
    pair = {t1, t2}
    if pair == {"t", "c"}:
        return "c"
    if pair == {"t", "x"}:
        return "x"
    return None


def _default_type(op: str, rules: str = "2021") -> tuple[str, str] | None:
    """Referee's typing without a signature (``operator_type_default``); under v.2.2.0's rules
    (``rules="2019"``) no ``Proposition``/``PRESUPPOSITION``, and a discourse relation relates
    two boxes inside a third (``b0 REL b1 b2``)."""
    v220 = rules == "2019"
    if op == "REF":
        return op, "bx"
    if op in ("NOT", "POS", "NEC", "DRS"):
        return op, "bb"
    if op in ("IMP", "DIS", "DUP"):
        return op, "bbb"
    if op == "PRP" or op == "Proposition" and not v220:
        return op, "bxb"
    if op == "PRESUPPOSITION" and not v220:
        return "PRE", "bb"
    if len(op) == 3 and op.isupper():
        return "ROL", "btt"
    if op.isupper():
        return ("REL", "bbb") if v220 else ("DRL", "bb")
    if op[0:2].istitle():
        return "ROL", "btt"
    return None


def _operator_type(op: str, args: Sequence[str], sig: Mapping[str, tuple[str, str]]) -> tuple[str, str] | None:
    if len(args) > 1 and _SENSE.match(args[1]) and _LEX_OP.match(op) and _NO_UNDERSCORE.match(op):
        return "LEX", "bct"
    if not sig:
        return _default_type(op)
    if op in sig:
        kind, types = sig[op]
        if kind == "DRS":
            return op, types
        if kind in ("DRL", "PRE", "PPS"):
            return kind, types
        return "ROL", types
    if op.endswith("Of") and len(op) > 2 and op[:-2] in sig and op[-3].islower() and op[0].isupper():
        return "ROL", sig[op[:-2]][1]
    return None


def _typing(clf: Sequence[tuple[str, ...]], sig, operator_type=None) -> tuple[list[str], dict[str, str]]:
    operator_type = operator_type or _operator_type
    kinds: list[str] = []
    typing: dict[str, str] = {}
    for k, cl in enumerate(clf):
        if not 3 <= len(cl) <= 4:
            raise IllFormed(f"a clause has 3 or 4 tokens, this one {len(cl)}", k)
        op, args = cl[1], (cl[0],) + tuple(cl[2:])
        found = operator_type(op, args, sig)
        if found is None:
            raise IllFormed(f"unknown operator {op}", k)
        kind, types = found
        if len(args) != len(types):
            raise IllFormed(f"{op} takes {len(types)} arguments, not {len(args)}", k)
        kinds.append(kind)
        for arg, t in sorted(set(zip(args, types))):
            if not (_QUOTED.match(arg) or _BARE.match(arg)):
                raise IllFormed(f"ill-formed argument {arg}", k)
            quoted = (arg[0], arg[-1]) == ('"', '"')
            if (t == "c" and not quoted) or (_unify(t, "c") != "c" and quoted):
                raise IllFormed(f"{arg} cannot be of type {t}", k)
            if quoted:
                t = "c"
            if arg in typing:
                u = _unify(typing[arg], t)
                if u is None:
                    raise IllFormed(f"{arg} is of type {typing[arg]} and {t}", k)
                typing[arg] = u
            else:
                typing[arg] = t
    return kinds, {a: ("x" if t == "t" else t) for a, t in typing.items()}


class _Box:
    __slots__ = ("refs", "cond_refs", "subs")

    def __init__(self) -> None:
        self.refs: set[str] = set()
        self.cond_refs: set[str] = set()
        self.subs: set[str] = set()


def _need(typing, k: int, *pairs: tuple[str, str]) -> None:
    """Clause ``k``'s arguments must have the types wanted (``t``: a term, of any type)."""
    for arg, want in pairs:
        got = typing[arg]
        if want == "t" and _unify(got, "t") is None or want != "t" and got != want:
            raise IllFormed(f"{arg} cannot be of type {got} here", k)


def _box(boxes: dict[str, _Box], name: str) -> _Box:
    return boxes.setdefault(name, _Box())


def _shared_clause(boxes: dict[str, _Box], typing, k: int, cl: tuple[str, ...], kind: str,
                   propositions: tuple[str, ...]) -> bool:
    """Place clause ``k`` in its box as both rule sets do (references, negation and modal
    boxes, implication/duplex/disjunction, propositions of the kinds ``propositions``,
    concepts, roles); ``False`` for a clause of another kind, which the caller places."""
    if kind == "REF" and len(cl) == 3:
        _need(typing, k, (cl[0], "b"), (cl[2], "x"))
        _box(boxes, cl[0]).refs.add(cl[2])
    elif kind in ("NOT", "POS", "NEC") and len(cl) == 3:
        _need(typing, k, (cl[0], "b"), (cl[2], "b"))
        _box(boxes, cl[0]).subs.add(cl[2])
        _box(boxes, cl[2])
    elif kind in ("IMP", "DUP", "DIS") and len(cl) == 4:
        _need(typing, k, (cl[0], "b"), (cl[2], "b"), (cl[3], "b"))
        _box(boxes, cl[0]).subs.update(cl[2:])
        _box(boxes, cl[2])
        _box(boxes, cl[3])
        if kind != "DIS":
            boxes[cl[2]].subs.add(cl[3])  # the antecedent subordinates the consequent
    elif kind in propositions and len(cl) == 4:
        _need(typing, k, (cl[0], "b"), (cl[2], "x"), (cl[3], "b"))
        _box(boxes, cl[0]).subs.add(cl[3])
        boxes[cl[0]].cond_refs.add(cl[2])
        _box(boxes, cl[3])
    elif kind == "LEX" and len(cl) == 4:
        _need(typing, k, (cl[0], "b"), (cl[2], "c"), (cl[3], "t"))
        _box(boxes, cl[0])
        if typing[cl[3]] == "x":
            boxes[cl[0]].cond_refs.add(cl[3])
    elif kind == "ROL" and len(cl) == 4:
        _need(typing, k, (cl[0], "b"), (cl[2], "t"), (cl[3], "t"))
        _box(boxes, cl[0]).cond_refs.update(r for r in cl[2:] if typing[r] == "x")
    else:
        return False
    return True


def _no_place(k: int, cl: tuple[str, ...], kind: str) -> IllFormed:
    return IllFormed(f"a clause of kind {kind} with {len(cl)} tokens has no place in a box", k)


def _boxes(clf, kinds, typing):
    boxes: dict[str, _Box] = {}
    rels: set[tuple[str, str]] = set()  # discourse relations and presuppositions
    for k, (cl, kind) in enumerate(zip(clf, kinds)):
        if _shared_clause(boxes, typing, k, cl, kind, ("PRP", "PPS", "Proposition")):
            continue
        if kind in ("DRL", "PRE") and len(cl) == 3:
            _need(typing, k, (cl[0], "b"), (cl[2], "b"))
            _box(boxes, cl[0])
            _box(boxes, cl[2])
            rels.add((cl[0], cl[2]))
        else:
            raise _no_place(k, cl, kind)
    return boxes, rels


def _closure(rel: set[tuple[str, str]]) -> set[tuple[str, str]]:
    out = set(rel)
    while True:
        before = set(out)
        out |= {(a, d) for (a, b) in before for (c, d) in before if b == c}
        if out == before:
            return out


def _subordination(boxes: dict[str, _Box], rels: set[tuple[str, str]]) -> set[tuple[str, str]]:
    subs = {(b0, b1) for b0, box in boxes.items() for b1 in box.subs} | rels
    for b2, box in boxes.items():
        for ref in box.cond_refs - box.refs:
            subs |= {(b1, b2) for b1, other in boxes.items() if b1 != b2 and ref in other.refs}
    while True:
        before = set(subs)
        closed = _closure(before)
        subs = set(closed)
        for b0, box in boxes.items():  # Referee's connectivity closure
            for b1 in box.subs:
                subs |= {(b, b0) for (b, b3) in closed if b3 == b1 and b != b0 and (b0, b) not in closed}
        if subs == before:
            break
    loops = sorted(a for a, b in subs if a == b)
    if loops:
        raise IllFormed(f"the subordination of boxes has a loop at {loops[0]}")
    return subs


def _connected(boxes: dict[str, _Box], subs: set[tuple[str, str]]) -> None:
    if not subs or not boxes:
        return
    names = sorted(boxes)
    seen = {names[0]}
    frontier = [names[0]]
    neighbours: dict[str, set[str]] = {}
    for a, b in subs:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    while frontier:
        nxt = []
        for n in frontier:
            for m in neighbours.get(n, ()):
                if m not in seen:
                    seen.add(m)
                    nxt.append(m)
        frontier = nxt
    apart = sorted(set(names) - seen)
    if apart:
        raise IllFormed(f"boxes {', '.join(apart)} are not connected with {', '.join(sorted(seen))}")


# --- Referee v.2.2.0 (ec4eb07, PMB 2.2.0): where its rules differ -----------------------------

def _operator_type_2019(op: str, args: Sequence[str], sig: Mapping[str, tuple[str, str]]) -> tuple[str, str] | None:
    """v.2.2.0's ``operator_type``: any operator before a WordNet sense is a concept; a signature's
    ``DRS`` kind keeps its operator, ``DRL`` is a relation, any other kind a role; no ``RoleOf``."""
    if len(args) > 1 and _SENSE.match(args[1]):
        return "LEX", "bct"
    if not sig:
        return _default_type(op, "2019")
    if op in sig:
        kind, types = sig[op]
        return (op if kind == "DRS" else "REL" if kind == "DRL" else "ROL"), types
    return None


def _boxes_2019(clf, kinds, typing) -> dict[str, _Box]:
    """v.2.2.0's ``clf_to_box_dict``: ``k DRS b`` makes ``b`` a segment of ``k`` (and subordinate
    to it), ``b0 REL b1 b2`` relates two segments of ``b0``, and each box's segments must be the
    boxes its relations relate; presuppositions are not clauses yet."""
    boxes: dict[str, _Box] = {}
    segments: dict[str, set[str]] = {}
    related: dict[str, set[str]] = {}
    for k, (cl, kind) in enumerate(zip(clf, kinds)):
        if _shared_clause(boxes, typing, k, cl, kind, ("PRP",)):
            continue
        if kind == "DRS" and len(cl) == 3:
            _need(typing, k, (cl[0], "b"), (cl[2], "b"))
            _box(boxes, cl[0]).subs.add(cl[2])
            segments.setdefault(cl[0], set()).add(cl[2])
            _box(boxes, cl[2])
        elif kind == "REL" and len(cl) == 4:
            _need(typing, k, (cl[0], "b"), (cl[2], "b"), (cl[3], "b"))
            _box(boxes, cl[0])
            related.setdefault(cl[0], set()).update(cl[2:])
        else:
            raise _no_place(k, cl, kind)
    for b in boxes:
        if segments.get(b, set()) != related.get(b, set()):
            raise IllFormed(f"the segments of box {b} ({', '.join(sorted(segments.get(b, ())))}) are not the "
                            f"boxes its relations relate ({', '.join(sorted(related.get(b, ())))})")
    inside = {x for box in boxes.values() for x in box.subs} | {x for r in related.values() for x in r}
    return boxes, inside


def _main_box_2019(boxes: dict[str, _Box], inside: set[str], subs: set[tuple[str, str]]) -> None:
    """v.2.2.0's ``detect_main_box``: of the boxes inside no other box, exactly one must be
    subordinated by all the others."""
    independent = [b for b in boxes if b not in inside]
    main = [b for b in independent if sum((b1, b) in subs for b1 in independent) == len(independent) - 1]
    if len(main) != 1:
        raise IllFormed(f"{'no' if not main else 'more than one'} main box"
                        + (f" ({', '.join(sorted(main))})" if main else ""))


#: Referee's rules: of 2021 (190838f; PMB 3.0.0 and 4.0.0) and of v.2.2.0 (PMB 2.2.0)
RULES = ("2021", "2019")


def check(clf: Sequence[tuple[str, ...]], signature: Mapping[str, tuple[str, str]] | None = None,
          rules: str = "2021") -> None:
    """Raise :class:`IllFormed` unless ``clf`` (token tuples) is well formed by Referee's rules
    under ``signature`` (``{operator: (kind, types)}``, :func:`~smatchpp.drs.clf.load_signature`;
    ``None``: typing by spelling, as Referee without ``-s``).  ``rules``: ``2021`` (the module
    doc) or ``2019``, Referee v.2.2.0's, which PMB 2.2.0 was checked with: a concept is any
    operator before a WordNet sense; no ``RoleOf``, ``Proposition`` or presupposition clauses;
    ``k DRS b`` makes ``b`` a segment of ``k`` and ``k REL b1 b2`` relates two segments (each
    box's segments must be the boxes its relations relate; the relations do not subordinate);
    instead of connectivity, one main box: of the boxes inside no other box exactly one is
    subordinated by all the others.

    >>> drs = [("k0", "DRS", "b1"), ("k0", "DRS", "b2"), ("k0", "CONTINUATION", "b1", "b2"),
    ...        ("b1", "REF", "x1"), ("b1", "dog", '"n.01"', "x1"), ("b2", "REF", "e1"), ("b2", "bark", '"v.01"', "e1")]
    >>> check(drs, rules="2019")
    >>> check(drs)  # 2021: a discourse relation is b1 REL b2
    Traceback (most recent call last):
    ...
    smatchpp.drs.referee.IllFormed: clause 3: CONTINUATION takes 2 arguments, not 3
    """
    if rules not in RULES:
        raise ValueError(f"unknown Referee rules {rules!r}; choose from {', '.join(RULES)}")
    if rules == "2019":
        for k, cl in enumerate(clf):
            if len(cl) < 3:  # v.2.2.0 reads the sense at the clause's third token
                raise IllFormed(f"a clause has 3 or 4 tokens, this one {len(cl)}", k)
        kinds, typing = _typing(clf, signature or {}, _operator_type_2019)
        boxes, inside = _boxes_2019(clf, kinds, typing)
        subs = _subordination(boxes, set())
        _main_box_2019(boxes, inside, subs)
    else:
        kinds, typing = _typing(clf, signature or {})
        boxes, rels = _boxes(clf, kinds, typing)
        subs = _subordination(boxes, rels)
        _connected(boxes, subs)
    unbound = set()
    for b, box in boxes.items():
        for x in box.cond_refs - box.refs:
            if not any(b2 == b and x in boxes[b1].refs for (b1, b2) in subs):
                unbound.add(x)
    if unbound:
        first = min(k for k, cl in enumerate(clf) for x in unbound if cl[1] != "REF" and x in cl[2:])
        raise IllFormed(f"unbound referents: {', '.join(sorted(unbound))}", first)

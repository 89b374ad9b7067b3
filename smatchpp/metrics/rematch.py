"""REMATCH: Jaccard similarity of the sets of semantic motifs of two AMR graphs
(Kachwala et al. 2024).

The rules, each with where the reference (``osome-iu/Rematch-RARE`` at 41e1834,
``methods/rematch/``) states it:

* triples as smatch 1.0.4's reader makes them (``amr.py``, the same file as smatch
  1.0.4's; ``AMR.parse_AMR_line``): a role ending in ``-of`` is inverted except
  ``consist-of``, ``prep-on-behalf-of`` and ``prep-out-of``, ``mod`` becomes the inverse
  ``domain`` (lines 207-221; both case-sensitive); a quoted constant keeps its first
  word; an inverted role onto a constant is lost; the ``TOP`` attribute is added (line 424);
* ``TOP`` removed: every attribute whose value is ``top`` as written (unquoted, in lower
  case) is dropped (``rematch.py`` line 90);
* ``normalize`` (lines 11-15): concepts, attribute names and attribute values lower-cased
  with trailing ``_`` stripped; relation labels stay as written (line 74);
* attribute motifs ``(attribute, value)`` (lines 40-49);
* instance motifs: ``(concept,)`` for a node without attributes, else
  ``(concept, (attribute, value))`` for each of its attributes (lines 51-66); the concept
  is first mapped through VerbAtlas, ``pb2va[concept]['label']``, when it is a key
  (lines 57-60);
* relation motifs ``(source motif, relation, target motif)`` for every pair of the two
  nodes' instance motifs (lines 68-83);
* score: Jaccard of the two sets of motifs (lines 128-134, as strings of the tuples,
  line 101, which are equal exactly when the tuples are); a corpus sums intersections and
  unions (lines 151-152, 160).

Reference quirks, and our default for each:

===============================================  ==================================
reference                                        ours (default)
===============================================  ==================================
VerbAtlas map ``pb2va.json`` shipped (no         not shipped; ``verbatlas=FILE``
licence) and always loaded (line 170)            loads a copy the user provides
                                                 (the signature pins its content),
                                                 without it :meth:`REMATCH.note`
                                                 says so
a pair without a common motif scores 0, so two   two empty graphs score 1, an empty
empty graphs score 0 (lines 154-157)             graph against another 0
an unreadable graph stops the run; a missing     an unreadable graph is reported
graph ends it with a message (lines 24-38,       with file, line and graph; pairs
107-113)                                         never shift
the attribute ``top`` dropped by value: also a   the same (follows the reference)
real attribute such as ``:quant top`` unquoted
===============================================  ==================================

>>> from smatchpp.graphs.read import read_text
>>> a, b = (e.graph for e in read_text("(d / dog :ARG0-of (b / bark-01) :polarity -)\\n\\n(d / dog)"))
>>> sorted(rematch_motifs(a), key=str)
[('bark-01',), ('dog', ('polarity', '-')), ('polarity', '-'), (('bark-01',), 'ARG0', ('dog', ('polarity', '-')))]
>>> m = REMATCH()
>>> m.stats(m.features(a), m.features(b))
(0, 5)
>>> m.pair_score(m.features(a), m.features(a))
1.0
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping


from ..graphs.read import RawGraph
from ..graphs.triples import smatch_concept, smatch_constant, smatch_direction, smatch_label
from .base import param
from .sets import SetJaccard
from .registry import register

__all__ = ["REMATCH", "rematch_motifs", "load_verbatlas"]

#: how a signature pins the VerbAtlas map's content: ``PATH@sha256=HEX``
_PIN = "@sha256="
def rematch_motifs(raw: RawGraph, verbatlas: Mapping[str, Any] | None = None) -> frozenset:
    """The set of REMATCH motifs of ``raw`` (see the module doc); ``verbatlas`` maps a
    normalized concept to its entry (``{'label': ...}``)."""
    concept: dict[str, str] = {}
    triples = raw.triples
    for s, r, t in triples:
        if r == ":instance":
            concept[s] = smatch_concept(t)
    attrs: dict[str, list[tuple[str, str]]] = {}  # variables without attributes are not listed
    relations = []
    for s, r, t in triples:
        if r == ":instance":
            continue
        s, name, t = smatch_direction(s, r, t)
        if s not in concept:
            continue  # inverted onto a constant: smatch 1.0.4 loses it
        if t in concept:
            relations.append((s, name, t))
        elif t != "top":  # rematch.py line 90 drops the value top as written
            attrs.setdefault(s, []).append((smatch_label(name), smatch_constant(t)))
    # the TOP attribute (value top) is always dropped again: it is never added
    motifs: set = set()
    instance: dict[str, list[tuple]] = {}
    for v, c in concept.items():
        if verbatlas is not None and c in verbatlas:
            c = verbatlas[c]["label"]
        attributes = attrs.get(v)
        if attributes:
            motifs.update(attributes)
            instance[v] = [(c, a) for a in attributes]
            motifs.update(instance[v])
        else:
            motifs.add((c,))
            instance[v] = [(c,)]
    for s, name, t in relations:
        xs, ys = instance[s], instance[t]
        if len(xs) == 1 and len(ys) == 1:  # most nodes: no attributes, one instance motif
            motifs.add((xs[0], name, ys[0]))
        else:
            motifs.update([(x, name, y) for x in xs for y in ys])
    return frozenset(motifs)


def load_verbatlas(path: str | Path) -> dict[str, Any]:
    """Read a PropBank-to-VerbAtlas map (``pb2va.json``: frame -> ``{"label": ...}``);
    a file that is missing or not such a map raises ``ValueError`` naming it."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the VerbAtlas map: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: line {exc.lineno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) and "label" in v for v in data.values()):
        raise ValueError(f"{path}: not a VerbAtlas map (expected frame -> {{\"label\": ...}})")
    return data


#: what a signed map looks like (the path the run was given, then its content's pin)
_PINNED = re.compile(r".+@sha256=[0-9a-f]{12}")


def verbatlas_identity(spec: str | None) -> str:
    """How a signature names the VerbAtlas map: the path it was given and the start of its
    content's SHA-256, ``PATH@sha256=HEX`` (a value that is one already is kept: the metric
    checked the file's content against it); given back as ``verbatlas``, the file at PATH must
    match it, and a file given to replay must be named by the same PATH."""
    if spec is None:
        return "none"
    if _PIN in str(spec):
        return str(spec)
    digest = hashlib.sha256(Path(spec).read_bytes()).hexdigest()[:12]
    return f"{spec}{_PIN}{digest}"


@register
@dataclass(frozen=True)
class REMATCH(SetJaccard):
    """Jaccard of the sets of attribute, instance and relation motifs."""

    name = "rematch"

    verbatlas: str | None = param(None, "a PropBank-to-VerbAtlas map (the reference's pb2va.json) "
                                        "to map concepts through; not shipped",
                                  file=verbatlas_identity, resolves=True, pattern=_PINNED)
    _map: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.verbatlas is not None:
            path, _, pinned = str(self.verbatlas).partition(_PIN)
            data = load_verbatlas(path)
            digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]
            if pinned and pinned != digest:
                raise ValueError(f"{path}: this VerbAtlas map is not the one of the signature "
                                 f"(sha256 {digest}..., the signature has {pinned}...)")
            object.__setattr__(self, "_map", (data, f"{path}{_PIN}{digest}"))

    def note(self) -> str | None:
        if self._map is None:
            return ("rematch: scores are computed without the VerbAtlas mapping "
                    "(give --rematch-verbatlas FILE, the reference's pb2va.json, to use it)")
        return None

    def features(self, graph: RawGraph) -> frozenset:
        return rematch_motifs(graph, None if self._map is None else self._map[0])

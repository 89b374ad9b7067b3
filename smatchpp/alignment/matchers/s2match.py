"""S2Match's concept similarity (Opitz, Parcalabescu & Frank 2020), solved exactly.

The rules below were checked against the reference implementation,
``flipz357/amr-metric-suite``, ``py3-Smatch-and-S2match/smatch/s2match.py``
(functions ``maybe_sim``, ``maybe_get_vec``, ``cosine_sim`` and
``compute_pool``):

* identical concepts score 1 (``if a == b: return 1.00``);
* a *predicate* is a concept with a ``-`` and a digit anywhere
  (``"-" in a and re.match(".*[0-9]+", a)``); its *lemma* is everything
  before the last ``-``, its sense the last ``-`` segment.  Two predicates
  with the same lemma and other senses (``hit-01``/``hit-02``), or a
  predicate and its bare lemma (``hit-01``/``hit``), score ``diffsense``;
* otherwise the similarity is ``1 - min(1, cosine distance)`` of the two
  concepts' vectors, and it counts only if strictly above ``cutoff``; if either
  concept is a predicate, it is multiplied by ``diffsense``;
* a predicate's vector is its lemma's, looked up whole (``maybe_get_vec(...,
  "None")``), plus the vector of lemma + ``s`` if there is one; any other
  concept is looked up whole and, failing that, if it has a ``-``, split on
  ``-`` and the vectors of the parts that have one are summed; no vector
  scores 0;
* the similarity scores instance triples, and the TOP triple when it carries
  the root's concept (the reference's own triples do:
  ``compute_pool``'s ``"top"`` branch); every other triple must match exactly.

Where this differs from the reference, on purpose:

* the reference aligns with a hill-climber whose random restarts call
  ``random.seed()`` (unseeded): its scores change between runs and can be
  below the optimum.  Here the alignment is optimal (certified);
* the reference counts a repeated attribute or relation triple once per copy
  on both sides (smatch's duplicate over-count); here duplicates match as
  multisets, as in exact Smatch (its own parser keeps no duplicates, so its
  triples are not affected);
* the reference caches similarities under the key ``a + "_" + b``, so two
  concept pairs whose joined strings collide share one value; here the cache
  is keyed on the pair;
* ``maybe_has_sim`` ignores its ``mwp`` argument and always splits
  hyphenated concepts; that is the default, and the only behaviour here.

Example (no vectors needed for these rules):

>>> sim = S2MatchSimilarity(vectors=None)
>>> sim.similarity("hit-01", "hit-01"), sim.similarity("hit-01", "hit-02"), sim.similarity("hit-01", "hit")
(1.0, 0.5, 0.5)
>>> is_predicate("have-org-role-91"), lemma("have-org-role-91"), lemma("date-entity")
(True, 'have-org-role', None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ...core.settings import file_or_identity, fraction, setting
from .embeddings import vectors_identity
from .levels import MatcherSettings

__all__ = ["S2MatchSimilarity", "is_predicate", "lemma", "DEFAULT_CUTOFF", "DEFAULT_DIFFSENSE",
           "VectorSource", "S2MatchSettings"]

DEFAULT_CUTOFF = 0.5
DEFAULT_DIFFSENSE = 0.5


@dataclass(frozen=True)
class S2MatchSettings(MatcherSettings):
    """S2Match's parameters: a similarity counts only if strictly above ``cutoff``;
    ``diffsense`` is the score of another sense of the same predicate and the factor of any
    similarity of a predicate; ``vectors`` a GloVe/word2vec text file (``None``: the packaged
    GloVe 6B 50d), signed by its identity ``name@sha1-prefix``, by which it is also found."""

    cutoff: float = setting(DEFAULT_CUTOFF, "cutoff", check=fraction)
    diffsense: float = setting(DEFAULT_DIFFSENSE, "diffsense", check=fraction)
    vectors: str | None = setting(None, "vectors", kind=str, check=file_or_identity,
                                  identity=vectors_identity, resolves=True)

_DIGIT = re.compile(r".*[0-9]+")
#: concept pairs per batch of vector arithmetic
_CHUNK = 65_536


def is_predicate(concept: str) -> bool:
    """A ``-`` and a digit: the reference's test for a predicate (``want-01``)."""
    return "-" in concept and _DIGIT.match(concept) is not None


def lemma(concept: str) -> str | None:
    """The predicate's lemma (all but the last ``-`` segment), ``None`` if not a predicate.

    An empty lemma (``-01``) counts as none, as the reference tests it for truth.
    """
    if not is_predicate(concept):
        return None
    return "-".join(concept.split("-")[:-1]) or None


def _scaled(rows: np.ndarray, together: bool = False) -> np.ndarray:
    """Each row (``together``: all of them) times the power of two that brings its largest
    entry into [0.5, 1).

    A cosine does not change (nor do the roundings of its float operations: a power
    of two only moves exponents), but squares and sums can no longer overflow: two
    vectors of entries near 1e308 get the cosine they have, not 0.
    """
    rows = np.asarray(rows, dtype=np.float64)
    if rows.size == 0:
        return rows
    largest = np.abs(rows).max() if together else np.abs(rows).max(axis=-1, keepdims=True)
    _, exponent = np.frexp(largest)
    return np.ldexp(rows, -exponent)


def _summed(vectors: list[np.ndarray]) -> np.ndarray:
    """The sum of some vectors, on one scale (only its direction counts), without overflow."""
    return _scaled(np.array(vectors, dtype=np.float64), together=True).sum(axis=0)


class VectorSource(Protocol):
    """Word vectors: ``lookup(words)`` gives a row per word (``None`` if absent)."""

    identity: str

    def lookup(self, words: list[str]) -> list[np.ndarray | None]: ...


class S2MatchSimilarity:
    """S2Match's similarity of concepts, with a table of the pairs already computed.

    ``vectors`` is loaded only when a pair needs vectors (no rule decides it).
    :meth:`prepare` computes every pair a corpus needs at once; the resulting
    table (concept pair -> similarity) is what worker processes receive, never
    the vectors (pickling drops them).
    """

    def __init__(self, vectors: VectorSource | None, cutoff: float = DEFAULT_CUTOFF,
                 diffsense: float = DEFAULT_DIFFSENSE) -> None:
        self.vectors = vectors
        self.cutoff = cutoff
        self.diffsense = diffsense
        self._table: dict[tuple[str, str], float] = {}
        self._unit: dict[str, np.ndarray | None] = {}

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["vectors"] = None  # workers get the table, not the embeddings
        state["_unit"] = {}
        state["_shipped"] = True
        return state

    # -- rules ------------------------------------------------------------

    def _rule(self, a: str, b: str) -> float | None:
        """The value if a rule decides it without vectors, else ``None``."""
        if a == b:
            return 1.0
        la, lb = lemma(a), lemma(b)
        if (la and lb and la == lb) or (la and la == b) or (lb and lb == a):
            return 1.0 * self.diffsense
        return None

    def _vectors_of(self, concepts: list[str]) -> None:
        """Compute (once) each concept's raw vector by the reference's lookup rules."""
        todo = [c for c in concepts if c not in self._unit]
        if not todo:
            return
        if self.vectors is None:
            if getattr(self, "_shipped", False):
                raise RuntimeError("S2Match similarity table misses a concept pair that the "
                                   "corpus needs (a bug: prepare() should have computed it)")
            from .embeddings import MissingVectorsError
            raise MissingVectorsError()
        words: list[str] = []
        for c in todo:
            lem = lemma(c)
            if lem:
                words += [lem, lem + "s"]
            else:
                words.append(c)
                if "-" in c:
                    words += c.split("-")
        found = dict(zip(words, self.vectors.lookup(words)))
        for c in todo:
            lem = lemma(c)
            v: np.ndarray | None
            if lem:
                v = found[lem]
                if v is not None:
                    v = _summed([v] if found[lem + "s"] is None else [v, found[lem + "s"]])
            elif found[c] is not None:
                v = _summed([found[c]])
            elif "-" in c:
                parts = [found[w] for w in c.split("-") if found[w] is not None]
                v = _summed(parts) if parts else None
            else:
                v = None
            self._unit[c] = v

    def _compute_many(self, keys: list[tuple[str, str]]) -> None:
        """Fill the table for ``keys`` (ordered concept pairs), vectors in one batch."""
        vector_pairs = []
        for key in keys:
            rule = self._rule(*key)
            if rule is None:
                vector_pairs.append(key)
            else:
                self._table[key] = rule
        if not vector_pairs:
            return
        self._vectors_of(sorted({c for key in vector_pairs for c in key}))
        with_vectors = [k for k in vector_pairs
                        if self._unit[k[0]] is not None and self._unit[k[1]] is not None]
        for key in vector_pairs:
            self._table[key] = 0.0  # no vector: no similarity
        if not with_vectors:
            return
        names = sorted({c for key in with_vectors for c in key})
        row = {c: k for k, c in enumerate(names)}
        unit = _scaled(np.array([self._unit[c] for c in names]))
        ia = np.array([row[a] for a, _ in with_vectors])
        ib = np.array([row[b] for _, b in with_vectors])
        sim = np.empty(len(ia))
        for lo in range(0, len(ia), _CHUNK):  # bounded memory on large corpora
            va, vb = unit[ia[lo:lo + _CHUNK]], unit[ib[lo:lo + _CHUNK]]
            uv, uu, vv = (va * vb).sum(1), (va * va).sum(1), (vb * vb).sum(1)
            with np.errstate(divide="ignore", invalid="ignore"):
                dist = np.clip(1.0 - uv / np.sqrt(uu * vv), 0.0, 2.0)
            # as the reference: 1 - min(1, d); a zero vector (NaN) gives no similarity
            sim[lo:lo + _CHUNK] = np.where(np.isnan(dist), 0.0, 1.0 - np.minimum(1.0, dist))
        for (a, b), s in zip(with_vectors, sim.tolist()):
            if s > self.cutoff:
                self._table[(a, b)] = s * self.diffsense if (lemma(a) or lemma(b)) else s

    # -- public ---------------------------------------------------------------

    def similarity(self, a: str, b: str) -> float:
        """S2Match's similarity of two concepts (symmetric)."""
        key = (a, b) if a <= b else (b, a)
        if key not in self._table:
            self._compute_many([key])
        return self._table[key]

    def table(self, concepts_a: list[str], concepts_b: list[str]):
        """``(ia, ib, s)`` for every pair of the two concept lists with ``s > 0``."""
        keys = [[(x, y) if x <= y else (y, x) for y in concepts_b] for x in concepts_a]
        table = self._table
        missing = sorted({k for row in keys for k in row if k not in table})
        if missing:
            self._compute_many(missing)
        ia, ib, s = [], [], []
        for i, row in enumerate(keys):
            for j, key in enumerate(row):
                value = table[key]
                if value > 0:
                    ia.append(i)
                    ib.append(j)
                    s.append(value)
        return (np.array(ia, dtype=np.int64), np.array(ib, dtype=np.int64),
                np.array(s, dtype=np.float64))

    def prepare(self, pairs) -> int:
        """Compute the table for every ``(concepts_a, concepts_b)`` pair; returns its size.

        All missing pairs of the corpus are computed in one batch, so vectors
        are loaded (and looked up) once, for the corpus's vocabulary only.
        """
        table = self._table
        missing: set[tuple[str, str]] = set()
        for ca, cb in pairs:
            for x in set(ca):
                for y in set(cb):
                    key = (x, y) if x <= y else (y, x)
                    if key not in table:
                        missing.add(key)
        if missing:
            self._compute_many(sorted(missing))
        self.release()
        return len(table)

    def release(self) -> None:
        """Drop the loaded vectors (they are loaded again if a pair ever needs them)."""
        self._unit = {}
        release = getattr(self.vectors, "release", None)
        if release is not None:
            release()

"""Scores: per pair precision/recall/F1 with bounds, and corpus micro/macro averages.

>>> prf(3, 4, 6)
(0.75, 0.5, 0.6)
>>> prf(0, 0, 0)
(0.0, 0.0, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

from ..core import tables

if TYPE_CHECKING:
    from .config import Config

__all__ = ["prf", "PRF", "PairScore", "CorpusScore", "coref_json"]


class PRF(NamedTuple):
    """Precision, recall and F1 by name; still a tuple (``p, r, f = corpus.micro``).

    >>> m = PRF(0.75, 0.5, 0.6)
    >>> m.f1, m == (0.75, 0.5, 0.6)
    (0.6, True)
    """

    precision: float
    recall: float
    f1: float


def prf(matched: float, test: float, gold: float) -> tuple[float, float, float]:
    """Precision, recall and F1 of ``matched`` triples out of ``test`` and ``gold``.

    As smatch 1.0.4: everything is 0 when either graph has no triples.
    """
    if test <= 0 or gold <= 0:
        return 0.0, 0.0, 0.0
    p, r = matched / test, matched / gold
    return p, r, (2 * p * r / (p + r) if p + r > 0 else 0.0)


@dataclass
class PairScore:
    """The result of one graph pair.

    ``matched`` is the best alignment found (a lower bound on the optimum) and
    ``upper`` a proven upper bound; ``status == 'optimal'`` means they are equal
    (for a non-integral objective: equal up to ``tolerance``, which is 0 when
    the objective is integral).  A pair dropped by ``--on-error skip`` has
    status ``skipped`` and no counts.

    ``test_triples``/``gold_triples`` count triples; ``test_total``/``gold_total``
    are what precision and recall divide by: the graphs' total weights under a
    weighted matcher, the triple counts otherwise (``None`` means the counts).
    """

    index: int
    id: str | None
    matched: float
    upper: float
    test_triples: int
    gold_triples: int
    status: str
    solver: str
    stage: str = ""
    seconds: float = 0.0
    alignment: list[tuple[str, str]] = field(default_factory=list)
    error: str | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    #: aspect name -> :class:`~smatchpp.aspects.core.AspectCount`, with ``--aspects``
    aspects: dict[str, Any] | None = None
    test_total: float | None = None
    gold_total: float | None = None
    #: the gap a certificate tolerated: 0 for integral objectives
    tolerance: float = 0.0
    #: docSmatch's "Total Coref" counts ``(matched, test, gold)`` on this pair's alignment, with
    #: ``--coref-subscore`` (:func:`smatchpp.alignment.sentences.coref_counts`); "Non-Coref" is the rest
    coref: tuple[float, float, float] | None = None

    @property
    def skipped(self) -> bool:
        """Whether the pair was skipped (an unreadable graph, ``--on-error skip``)."""
        return self.status == "skipped"

    @property
    def test_weight(self) -> float:
        """Precision's denominator."""
        return self.test_triples if self.test_total is None else self.test_total

    @property
    def gold_weight(self) -> float:
        """Recall's denominator."""
        return self.gold_triples if self.gold_total is None else self.gold_total

    @property
    def precision(self) -> float:
        return prf(self.matched, self.test_weight, self.gold_weight)[0]

    @property
    def recall(self) -> float:
        return prf(self.matched, self.test_weight, self.gold_weight)[1]

    @property
    def f1(self) -> float:
        return prf(self.matched, self.test_weight, self.gold_weight)[2]

    @property
    def f1_upper(self) -> float:
        return prf(self.upper, self.test_weight, self.gold_weight)[2]

    def to_json(self, with_alignment: bool = False) -> dict[str, Any]:
        """A JSON-ready dict with the keys of ``--pairs-out``."""
        out: dict[str, Any] = {
            "index": self.index, "id": self.id,
            "matched": _num(self.matched), "test_triples": self.test_triples,
            "gold_triples": self.gold_triples,
            "test_total": _num(self.test_weight), "gold_total": _num(self.gold_weight),
            "tolerance": self.tolerance, "lower": _num(self.matched),
            "upper": _num(self.upper), "status": self.status, "solver": self.solver,
            "stage": self.stage, "seconds": round(self.seconds, 6),
            "precision": self.precision, "recall": self.recall, "f1": self.f1,
        }
        if self.error:
            out["error"] = self.error
        if self.stats:
            out.update(self.stats)
        if with_alignment:
            out["alignment"] = self.alignment
        if self.aspects is not None:
            out["aspects"] = {name: count.to_json() for name, count in self.aspects.items()}
        if self.coref is not None:
            out["coref"] = coref_json(self.coref, (self.matched, self.test_weight, self.gold_weight))
        return out

    @classmethod
    def from_json(cls, row: dict[str, Any]) -> "PairScore":
        """The pair of a :meth:`to_json` row (``--pairs-out``, a table row); its aspects, if any,
        are not restored (the corpus's aspect summary is)."""
        return _pair_from_row(cls, row)

    def to_pandas(self, signature: str | None = None):
        """This pair as a one-row :class:`pandas.DataFrame` (:mod:`smatchpp.core.tables`; the
        scorer's signature, if given, in ``attrs["signature"]``)."""
        return tables.to_pandas([self.to_json(True)], signature)

    def to_arrow(self, signature: str | None = None):
        """This pair as a one-row :class:`pyarrow.Table` (see :meth:`to_pandas`)."""
        return tables.to_arrow([self.to_json(True)], signature)

    def _repr_html_(self) -> str:
        """A notebook shows the pair's numbers as a table (no pandas needed)."""
        return tables.summary_html(self.to_json())


#: the keys of :meth:`PairScore.to_json` that are not ``stats``
_PAIR_KEYS = frozenset({"index", "id", "matched", "test_triples", "gold_triples", "test_total",
                        "gold_total", "tolerance", "lower", "upper", "status", "solver", "stage",
                        "seconds", "precision", "recall", "f1", "error", "alignment", "aspects", "coref"})


def _pair_from_row(cls, row: dict[str, Any]) -> "PairScore":
    test, gold = int(row["test_triples"]), int(row["gold_triples"])
    test_total, gold_total = row.get("test_total"), row.get("gold_total")
    return cls(int(row["index"]), row.get("id"), float(row["matched"]), float(row["upper"]), test, gold,
               row["status"], row["solver"], row.get("stage") or "", float(row.get("seconds") or 0.0),
               [tuple(a) for a in row.get("alignment") or []], row.get("error"),
               {k: v for k, v in row.items() if k not in _PAIR_KEYS and v is not None},
               None, None if test_total is None or test_total == test else float(test_total),
               None if gold_total is None or gold_total == gold else float(gold_total),
               float(row.get("tolerance") or 0.0), _coref_from_row(row.get("coref")))


def _coref_from_row(coref: dict[str, Any] | None) -> tuple[float, float, float] | None:
    """The Total Coref counts of a row's ``coref`` (:func:`coref_json`), if it has one."""
    if not coref:
        return None
    total = coref["Total Coref"]
    return (float(total["matched"]), float(total["test"]), float(total["gold"]))


def coref_json(coref: tuple[float, float, float], whole: tuple[float, float, float]) -> dict[str, Any]:
    """docSmatch's two subscores from the Total Coref counts ``coref`` and the pair's (or corpus')
    ``(matched, test, gold)``: ``{"Total Coref": ..., "Non-Coref": ...}``, each with its counts
    and P/R/F1 (0 when a side has nothing, as docSmatch prints it).

    >>> coref_json((2, 3, 4), (10, 20, 20))["Non-Coref"]
    {'matched': 8, 'test': 17, 'gold': 16, 'precision': 0.47058823529411764, 'recall': 0.5, 'f1': 0.48484848484848486}
    """
    rest = tuple(w - c for w, c in zip(whole, coref))
    out = {}
    for name, (m, t, g) in (("Total Coref", coref), ("Non-Coref", rest)):
        p, r, f = prf(m, t, g) if t > 0 and g > 0 else (0.0, 0.0, 0.0)
        out[name] = {"matched": _num(m), "test": _num(t), "gold": _num(g),
                     "precision": p, "recall": r, "f1": f}
    return out


def _in_order(values: Iterable[float]) -> float:
    """Left to right, one addition after another (Python 3.12's ``sum()`` compensates, which
    would make a fractional total depend on the Python version;
    :func:`smatchpp.statistics.significance.sum_in_order` adds in this order too)."""
    total = 0.0
    for value in values:
        total += value
    return total


def _num(x: float) -> float | int | None:
    if x != x or x in (float("inf"), float("-inf")):
        return None
    return int(x) if float(x).is_integer() else x


@dataclass
class CorpusScore:
    """All pair scores of a corpus with micro and macro averages, the :class:`~smatchpp.alignment.config.Config`
    they were scored with and its signature (``match``: the name of a matcher that is not
    registered, which the signature then names).  ``aspect_summary``: the corpus's aspect
    scores (:func:`smatchpp.aspects.core.aspect_summary`), when the pairs carry them; the
    :class:`~smatchpp.api.Scorer` that scored them fills it in."""

    pairs: list[PairScore]
    config: "Config"
    match: str | None = None
    aspect_summary: dict[str, Any] | None = None
    signature: str = field(init=False)

    def __post_init__(self) -> None:
        self.signature = self.config.signature(match=self.match)

    @property
    def scored(self) -> list[PairScore]:
        """Pairs that were scored (not skipped)."""
        return [p for p in self.pairs if p.status != "skipped"]

    def _sums(self) -> tuple[float, float, float, float]:
        """Summed matched, upper bounds and denominators (weights, or triple counts)."""
        s = self.scored
        return (_in_order(p.matched for p in s), _in_order(p.upper for p in s),
                _in_order(p.test_weight for p in s), _in_order(p.gold_weight for p in s))

    @property
    def micro(self) -> PRF:
        """P/R/F1 from summed counts (smatch's corpus score)."""
        lower, _, test, gold = self._sums()
        return PRF(*prf(lower, test, gold))

    @property
    def micro_upper(self) -> PRF:
        """P/R/F1 if every pair reached its upper bound."""
        _, upper, test, gold = self._sums()
        return PRF(*prf(upper, test, gold))

    @property
    def macro(self) -> PRF:
        """Mean of the pairs' P, R and F1."""
        s = self.scored
        if not s:
            return PRF(0.0, 0.0, 0.0)
        n = len(s)
        return PRF(_in_order(p.precision for p in s) / n, _in_order(p.recall for p in s) / n,
                   _in_order(p.f1 for p in s) / n)

    def summary(self) -> dict[str, Any]:
        """The corpus summary printed by ``--format json``."""
        lower, upper, test, gold = self._sums()
        s = self.scored
        counts: dict[str, int] = {}
        for p in self.pairs:
            counts[p.status] = counts.get(p.status, 0) + 1
        stages: dict[str, int] = {}  # certified pairs: the stage that proved optimality
        bounded: dict[str, int] = {}  # the others: the stage of their best bound
        for p in s:
            if p.stage:
                tally = stages if p.status == "optimal" else bounded
                tally[p.stage] = tally.get(p.stage, 0) + 1
        within: dict[str, int] = {}  # certified pairs: the tolerance that certified them
        for p in s:
            if p.status == "optimal":
                key = "exact" if p.tolerance == 0 else f"{p.tolerance:g}"
                within[key] = within.get(key, 0) + 1
        mp, mr, mf = self.micro
        ap, ar, af = self.macro
        return {
            "signature": self.signature,
            "micro": {"precision": mp, "recall": mr, "f1": mf},
            "macro": {"precision": ap, "recall": ar, "f1": af},
            "f1_interval": [mf, self.micro_upper[2]],
            "pairs": len(self.pairs), "scored": len(s),
            "optimal": counts.get("optimal", 0), "status_counts": counts,
            "certified_by": stages, "bounded_by": bounded, "certified_within": within,
            # with uncertified pairs, matched (and so P/R/F1) is the best alignment found
            "scores_are_lower_bounds": len(s) > counts.get("optimal", 0),
            "matched_lower": _num(lower), "matched_upper": _num(upper),
            "test_triples": sum(p.test_triples for p in s),
            "gold_triples": sum(p.gold_triples for p in s),
            "test_total": _num(test), "gold_total": _num(gold),
            "errors": [p.error for p in self.pairs if p.error],
            **({"aspects": self.aspect_summary} if self.aspect_summary else {}),
            **({"coref": self.coref_summary()} if any(p.coref is not None for p in s) else {}),
            **({"coref_ties": ties} if (ties := self._coref_ties()) else {}),
        }

    def _coref_ties(self) -> dict[str, int]:
        """With ``coref_ties max``: how many pairs' tie-break was ``proven``, ``not proven`` (a
        limit stopped the second solve) and ``not run`` (the pair is not certified)."""
        counts: dict[str, int] = {}
        for p in self.scored:
            tie = p.stats.get("coref_ties")
            if tie is not None:
                counts[tie] = counts.get(tie, 0) + 1
        return counts

    def _summary_with(self, intervals, aspect_intervals: dict | None) -> dict[str, Any]:
        summary = self.summary()
        if intervals is not None:
            summary["bootstrap"] = intervals.to_json()
        if aspect_intervals and "aspects" in summary:  # where score --format json puts them
            summary["aspects"] = dict(summary["aspects"], bootstrap=aspect_intervals)  # a copy
        return summary

    def to_pandas(self, intervals=None, aspect_intervals: dict | None = None):
        """One row per pair (:meth:`PairScore.to_json`, aspects as ``aspects.NAME.f1`` columns) as a
        :class:`pandas.DataFrame`; ``attrs["signature"]``, and ``attrs["summary"]`` the corpus
        summary (with ``intervals``, a :class:`~smatchpp.statistics.significance.BootstrapCI`, under
        ``bootstrap``; the aspects' intervals, ``smatchpp.metrics.alignment.aspect_bootstrap``'s, under
        ``aspects.bootstrap``).  :meth:`from_pandas` reads it back."""
        return tables.to_pandas([p.to_json(True) for p in self.pairs], self.signature,
                                self._summary_with(intervals, aspect_intervals))

    def to_arrow(self, intervals=None, aspect_intervals: dict | None = None):
        """:meth:`to_pandas` as a :class:`pyarrow.Table` (signature and summary in its schema
        metadata)."""
        return tables.to_arrow([p.to_json(True) for p in self.pairs], self.signature,
                               self._summary_with(intervals, aspect_intervals))

    @classmethod
    def from_pandas(cls, table) -> "CorpusScore":
        """The corpus of a :meth:`to_pandas` frame or :meth:`to_arrow` table (or
        :func:`smatchpp.core.tables.read`'s file): its pairs, and the :class:`Config` of its signature
        (refused, as by ``--signature``, when it is not this smatchpp's)."""
        from .config import Config

        found, signature, summary = tables.rows(table) if not isinstance(table, tuple) else table
        if not signature:
            raise ValueError("the table has no smatchpp signature (attrs['signature'])")
        aspects = dict((summary or {}).get("aspects") or {}) or None
        if aspects is not None:
            aspects.pop("bootstrap", None)  # intervals are the run's, not the corpus's
        return cls([PairScore.from_json(r) for r in found], Config.from_signature(signature), None, aspects)

    def _repr_html_(self) -> str:
        """A notebook shows the corpus summary (:func:`smatchpp.core.tables.summary_html`)."""
        return tables.summary_html(self.summary())

    def coref_summary(self) -> dict[str, Any]:
        """docSmatch's ``--coref-subscore`` of the corpus: the pairs' Total Coref counts summed,
        Non-Coref the rest of the summed counts (micro, as docSmatch sums over pairs)."""
        lower, _, test, gold = self._sums()
        coref = [p.coref for p in self.scored if p.coref is not None]
        summed = tuple(_in_order(c[k] for c in coref) for k in range(3))
        return coref_json(summed, (lower, test, gold))

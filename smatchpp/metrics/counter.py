"""Counter (van Noord et al. 2018): F1 of the clauses two DRSs share under the best mapping of
their variables, solved exactly (``--metric counter``).

The reference is ``RikVN/DRS_parsing``'s ``evaluation/counter.py`` (MIT), a hill-climber with
20 restarts that was the PMB's DRS parsing metric.  The clauses are built as Counter builds
them (:mod:`smatchpp.drs.clauses`: REF pruning unless ``include_ref``, Counter's ``-ic``;
variable types; the WordNet map; the ablations ``-dse``/``-dr``/``-dc``), each DRS checked by
Referee's rules first (:mod:`smatchpp.drs.referee`) with Counter's ``-ill`` policies; the best
mapping is found and certified by the shared solvers: each pair's clauses are compiled into
the shared problem (:func:`smatchpp.alignment.clauses.compile_clauses`, ternary terms for
the three-variable clauses) and solved by ``solver`` (``--solver``, the certified portfolio by
default) with ``compression`` and ``time_limit`` as for AMR.  The statistics are
``(matched, upper, test, gold)``: ``matched`` is reached by a mapping, ``upper`` is proven, and
they are equal unless ``time_limit`` stopped a solve (an honest interval, never a guess).

A graph here is a :class:`~smatchpp.drs.clf.ClfDrs` (:func:`smatchpp.drs.read_clf`), not an AMR.

Counter's quirks, and ours:

============================================  ==========================================
Counter                                       ours
============================================  ==========================================
a hill-climber (20 restarts): a lower bound   the optimum, certified (or an interval
                                              under ``time_limit``)
the WordNet map ``wordnet_dict_en.py`` is     not shipped; ``wordnet=FILE`` (that file,
imported (not in the repository's copy)       or a JSON of it); without it, no rewriting
the SPAR DRS of ``-ill spar`` is built in     ``spar=FILE``: the first DRS of a file (the
                                              release's ``baseline_drs.txt``)
the last DRS of a file without a trailing     every DRS is checked
blank line is not checked by Referee
the dummy DRS's concept is a random string    a concept that never matches
Referee v.2.2.0 (PMB 2.2.0) had other rules   ``referee="2019"``: its rules
                                              (``version="2019"``: v.2.2.0's box operators);
                                              ``referee="none"`` skips the check
============================================  ==========================================

>>> from smatchpp.drs import read_clf_text
>>> a, b = read_clf_text('''b1 REF x1
... b1 dog "n.01" x1
... b1 Agent e1 x1
... b1 REF e1
... b1 bark "v.01" e1
...
... b2 REF y1
... b2 cat "n.01" y1
... b2 Agent e2 y1
... b2 REF e2
... b2 bark "v.01" e2''')
>>> m = Counter()
>>> m.stats(m.features(a), m.features(b))
(2.0, 2.0, 3.0, 3.0)
>>> m.pair_scores(m.stats(m.features(a), m.features(a)))["f1"]
1.0
>>> Counter(include_ref=True).signature()  # doctest: +ELLIPSIS
'smatchpp:...|metric:counter|counter-include-ref:yes|...'

With ``aspects="counter"`` (``--aspects counter``) each pair also counts Counter's detailed
scores (``-prin``: operators, roles, concepts; nouns, verbs, adjectives, adverbs, events) under
the pair's optimal mapping, as the alignment family's ``joint`` aspects count under the full
graphs' alignment (:mod:`smatchpp.aspects.counter`): three more statistics a kind (matched,
test, gold), the ``aspects`` of the pair's JSON line and of the corpus summary, signed
``counter-aspects:counter``.

>>> m = Counter(aspects="counter")
>>> s = m.stats(m.features(a), m.features(b))
>>> dict(zip(m.stat_names[4:10], s[4:10]))  # operators (none left: REF pruned), roles
{'operators_matched': 0.0, 'operators_test': 0.0, 'operators_gold': 0.0, 'roles_matched': 1.0, 'roles_test': 1.0, 'roles_gold': 1.0}
>>> m.pair_json(MetricPair(0, None, s))["aspects"]["verbs"]
{'matched': 1, 'upper': 1, 'test': 1, 'gold': 1, 'precision': 1.0, 'recall': 1.0, 'f1': 1.0}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from typing import TYPE_CHECKING

from ..alignment.solvers import COMPRESSIONS, SOLVERS, get_solver
from ..core.exceptions import UsageError
from ..core.settings import setting
from ..statistics.significance import DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TRIALS, prf_arrays
from .base import Metric, MetricCorpus, MetricPair, param
from .registry import register

if TYPE_CHECKING:
    from ..drs.clauses import CounterDrs
    from ..drs.clf import ClfDrs

# the DRS modules (reader, Referee, clauses) and the clause compiler are imported where they are
# used: every metric's run imports this module (the registry), and only a Counter run needs them

__all__ = ["Counter", "CounterCorpus"]

#: the statistics every counter run has
_MAIN = ("matched", "upper", "test", "gold")
#: the aspect set of Counter's detailed scores (:mod:`smatchpp.aspects.counter`)
ASPECT_SET = "counter"
#: its kinds, in Counter's order (``smatchpp.drs.clauses.DETAIL_NAMES``, without importing the DRS modules)
_KINDS = ("operators", "roles", "concepts", "nouns", "verbs", "adjectives", "adverbs", "events")
_DETAIL = tuple(f"{kind}_{what}" for kind in _KINDS for what in ("matched", "test", "gold"))


class _StatNames:
    """``Counter.stat_names``: the four main statistics, and with ``aspects`` three more of
    each detailed kind (on the class: the four)."""

    def __get__(self, obj: Any, cls: type) -> tuple[str, ...]:
        return _MAIN + _DETAIL if obj is not None and obj.aspects != "none" else _MAIN


def _clause_text(c: Any, names: tuple[str, ...]) -> str:
    """A clause as Counter matches it (:mod:`smatchpp.drs.clauses`: roles ``...Of`` turned round,
    concepts rewritten, the ablations applied), written back as a line of clausal form."""
    kind, rest, v = c.label[0], list(c.label[1:]), [names[k] for k in c.vars]
    if kind in ("op_c2", "role_c2"):  # the constant last
        return " ".join([v[0], rest[0]] + v[1:] + rest[1:])
    return " ".join(v[:1] + rest + v[1:])  # concept and sense, or the operator or role and constants first


def _identity(path: str | None) -> str:
    from ..core.paths import file_identity

    return "none" if path is None else file_identity(path)


@register
@dataclass(frozen=True)
class Counter(Metric):
    """Counter's clause F1 of DRSs, exact."""

    name = "counter"
    reads_drs = True
    stat_names = _StatNames()  # type: ignore[assignment]
    headline = "f1"
    prune_search = False

    include_ref: bool = param(False, "keep the redundant REF clauses (Counter's -ic)")
    default_sense: bool = param(False, "every sense n.01 (Counter's -dse)")
    default_role: bool = param(False, "every role Role (Counter's -dr)")
    default_concept: bool = param(False, "every concept work.n.01 (Counter's -dc)")
    signature_file: str | None = param(None, "the signature of clausal forms (Counter's -g "
                                             "clf_signature.yaml); without it, operators are typed by their spelling",
                                       file=_identity)
    wordnet: str | None = param(None, "the WordNet map Counter normalises concepts with (wordnet_dict_en.py "
                                      "or a JSON of it); not shipped", file=_identity)
    ill: str = param("error", "an ill-formed DRS: an error, a dummy DRS, the SPAR DRS (spar=FILE) or "
                              "scored as it is (Counter's -ill)", choices=("error", "dummy", "spar", "score"))
    spar: str | None = param(None, "the DRS that replaces an ill-formed one under ill=spar (the first DRS "
                                   "of the file; the release's baseline_drs.txt)", file=_identity)
    referee: str = param("2021", "the well-formedness check: Referee's rules as of 2021 (PMB 3.0.0/4.0.0), "
                                 "of v.2.2.0 (2019: PMB 2.2.0), or none", choices=("2021", "2019", "none"))
    version: str = param("2021", "which Counter builds the clauses: 2021 (6def45b on: v.3.0.0 and 190838f, PMB "
                                 "3.0.0 and 4.0.0), 2020 (before 6def45b: SY1/SY2 are concepts) or 2019 (v.2.2.0: "
                                 "also a fixed list of box operators)",
                         choices=("2021", "2020", "2019"))
    time_limit: float | None = setting(None, None, kind=float, choices=None,
                                       help="seconds per pair; a pair not certified by then gets an interval")
    solver: str = param("exact", "the solver of each pair's problem (as --solver for AMR; exact: the "
                                 "portfolio, certified)", choices=tuple(SOLVERS))
    compression: str = param("exact", "exact: shrink each problem without changing its optimum; none: "
                                      "solve it as compiled (as --compression for AMR)", choices=COMPRESSIONS)
    aspects: str = setting("none", None, kind=str, choices=("none", ASPECT_SET), show=lambda m: m.aspects != "none",
                           help="also count Counter's detailed scores (operators, roles, concepts; nouns, verbs, "
                                "adjectives, adverbs, events) under each pair's optimal mapping: the aspect "
                                "set counter (--aspects counter)")
    _files: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        from ..drs.clf import load_signature, load_wordnet_map, read_clf

        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError(f"time_limit must be positive seconds, not {self.time_limit}")
        sig = load_signature(self.signature_file) if self.signature_file else None
        wn = load_wordnet_map(self.wordnet) if self.wordnet else None
        spar = None
        if self.ill == "spar":
            if not self.spar:
                raise ValueError("ill='spar' (command line: -ill spar or --counter-ill spar) needs "
                                 "the SPAR DRS: spar=FILE (--counter-spar FILE, a release's baseline_drs.txt)")
            found = read_clf(self.spar)
            if not found:
                raise ValueError(f"{self.spar}: no DRS in it")
            spar = found[0].clauses
        object.__setattr__(self, "_files", (sig, wn, spar))
        if self.aspects != "none":
            from ..aspects.registry import aspect_list

            aspect_list(self.aspects)  # the kinds' titles, for the report

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for key, value in state.items():
            object.__setattr__(self, key, value)

    def note(self) -> str | None:
        if self.wordnet is None and not self.default_concept:
            return "counter: concepts are not normalised to WordNet synsets (give --counter-wordnet FILE)"
        return None

    def ill_formed(self, graph: ClfDrs) -> str | None:
        """Why Referee's rules reject ``graph`` under this metric's signature, or ``None``
        (also ``None`` with ``referee="none"``)."""
        if self.referee == "none":
            return None
        from ..drs.referee import IllFormed, check

        try:
            check(graph.clauses, self._files[0], self.referee)
        except IllFormed as exc:
            return str(exc)
        return None

    def features(self, graph: ClfDrs) -> CounterDrs:
        from ..drs.clauses import counter_clauses
        from ..drs.clf import ClfDrs
        from ..drs.referee import IllFormed, check

        if not isinstance(graph, ClfDrs):
            raise UsageError("counter compares DRSs in clausal form: give --input-format clf (or .clf files)")
        sig, wn, spar = self._files
        raw, dummy = graph.clauses, False
        if self.referee != "none":
            try:
                check(raw, sig, self.referee)
            except IllFormed as exc:
                if self.ill == "error":
                    raise graph.error(f"ill-formed: {exc}", exc.clause) from None
                if self.ill == "dummy":
                    raw, dummy = (("b1", "REF", "x1"), ("b1", "alwayswrong", '"n.01"', "x1")), True
                elif self.ill == "spar":
                    raw = spar
        try:
            return counter_clauses(raw, sig, include_ref=self.include_ref, wordnet=wn,
                                   default_sense=self.default_sense, default_role=self.default_role,
                                   default_concept=self.default_concept, version=self.version,
                                   unmatchable_concepts=dummy)
        except ValueError as exc:
            raise graph.error(str(exc)) from None

    def solve(self, a: CounterDrs, b: CounterDrs) -> tuple[float, float, tuple[tuple[int, int], ...], str]:
        """``(matched, upper, mapping, status)`` of a pair: its clauses compiled into the shared
        problem (:func:`~smatchpp.alignment.clauses.compile_clauses`: variables of one type only,
        a clause at most once, the symmetric operators either way round; the clauses Counter never
        matches left out) and solved by ``solver`` (the certified portfolio by default), so that
        ``matched`` is reached by ``mapping`` and ``upper`` is proven (or the label bound)."""
        from ..alignment.clauses import compile_clauses

        symmetric = {c.label for drs in (a, b) for c in drs.clauses if c.symmetric}
        problem = compile_clauses([(c.label, c.vars) for c in a.clauses if c.matchable],
                                  [(c.label, c.vars) for c in b.clauses if c.matchable],
                                  len(a.types), len(b.types), kind_a=a.types, kind_b=b.types,
                                  symmetric=symmetric)
        if problem.n_pairs == 0:
            return float(problem.constant), float(problem.constant), (), "optimal"
        solver = get_solver(self.solver, compression=self.compression == "exact")
        r = solver.solve(problem, self.time_limit, None)
        matched = float(problem.objective(r.alignment))
        bound = min(float(r.upper_bound), float(problem.label_bound))
        upper = max(matched, float(np.floor(bound + 1e-6)))
        mapping = tuple((i, int(j)) for i, j in enumerate(r.alignment) if j >= 0)
        return matched, upper, mapping, "optimal" if upper == matched else str(r.status)

    def stats(self, a: CounterDrs, b: CounterDrs) -> tuple[float, ...]:
        matched, upper, mapping, _ = self.solve(a, b)
        return self._stats(a, b, matched, upper, mapping)

    def _stats(self, a: CounterDrs, b: CounterDrs, matched: float, upper: float,
               mapping: tuple[tuple[int, int], ...]) -> tuple[float, ...]:
        """The statistics of one solve: the four, and with ``aspects`` the detailed kinds'
        counts on the mapping that reached ``matched``."""
        main = (matched, upper, float(a.total), float(b.total))
        if self.aspects == "none":
            return main
        from ..drs.exact import detailed_counts

        counts = detailed_counts(a, b, mapping)
        return main + tuple(float(counts[w][k]) for k in range(len(_KINDS)) for w in range(3))

    # --- the aspects (Counter's detailed scores), when asked for ---------------------

    def aspect_counts(self, stats: Any) -> dict[str, Any] | None:
        """The detailed kinds of one pair's statistics as
        :class:`~smatchpp.aspects.base.AspectCount` (name -> count; ``upper`` is ``matched``:
        counted on one mapping), or ``None`` without ``aspects``."""
        if self.aspects == "none" or stats is None:
            return None
        from ..aspects.base import AspectCount

        s = [float(x) for x in stats]
        return {kind: AspectCount(s[4 + 3 * k], s[4 + 3 * k], int(s[5 + 3 * k]), int(s[6 + 3 * k]))
                for k, kind in enumerate(_KINDS)}

    def aspect_arrays(self, stats: np.ndarray, every: bool = False) -> dict[str, np.ndarray]:
        """``matrix``'s arrays of the detailed kinds (``stats``: shape ``(..., len(stat_names))``),
        named as AMR's aspect matrices: ``aspect:KIND:f1`` (with ``every``, precision and recall
        too); a kind with no clause on either side is NaN (n/a); none without ``aspects``."""
        if self.aspects == "none":
            return {}
        s = np.asarray(stats, dtype=np.float64)
        out = {}
        for k, kind in enumerate(_KINDS):
            matched, test, gold = (s[..., 4 + 3 * k + w] for w in range(3))
            p, r, f = prf_arrays(matched, test, gold)
            empty = (test == 0) & (gold == 0)
            for key, values in (("f1", f), ("precision", p), ("recall", r))[:3 if every else 1]:
                out[f"aspect:{kind}:{key}"] = np.where(empty, np.nan, values)
        return out

    def pair_json(self, pair: Any, details: bool = False) -> dict[str, Any]:
        """The pair's line; with ``aspects``, the detailed kinds nested under ``aspects`` as the
        alignment family writes its aspects (the flat statistics stay in tables, which read
        them back)."""
        out = super().pair_json(pair, details)
        counts = self.aspect_counts(pair.stats)
        if counts is not None:
            for key in _DETAIL:
                out.pop(key, None)
            out["aspects"] = {kind: count.to_json() for kind, count in counts.items()}
        return out

    def corpus(self, pairs: Any, on_error: str = "raise", bootstrap: int | None = None,
               bootstrap_seed: int = DEFAULT_SEED) -> "CounterCorpus":
        return CounterCorpus(self, list(pairs), on_error, bootstrap, bootstrap_seed)

    def compare_systems(self, rows: Any, resamples: int = DEFAULT_RESAMPLES, trials: int = DEFAULT_TRIALS,
                        seed: int = DEFAULT_SEED) -> list[list[Any]]:
        """The clause F1 of each system against the first, and with ``aspects`` each detailed
        kind's F1 (the same resamples and trials; a kind with no clause in either system or
        the gold is n/a, as the alignment family's aspects)."""
        out = super().compare_systems(rows, resamples, trials, seed)
        if self.aspects == "none" or not rows:
            return out
        from dataclasses import replace

        from ..aspects.registry import aspect_title
        from ..statistics.significance import compare_columns

        def f1(matched, test, gold):
            return prf_arrays(matched, test, gold)[2]

        stats = [np.array([row[j].stats for row in rows], dtype=float) for j in range(len(rows[0]))]
        for k, kind in enumerate(_KINDS):
            cols = [[s[:, 4 + 3 * k + w] for w in range(3)] for s in stats]
            for j, other in enumerate(cols[1:]):
                c = compare_columns(f1, cols[0], other, resamples, trials, seed, name=aspect_title(kind))
                if not any(x.sum() for side in (cols[0], other) for x in side[1:]):
                    c = replace(c, f1=(None, None), extra={**c.extra, "no_items": True})
                out[j].append(c)
        return out

    def compare_notes(self, rows: Any, kept: Any, dropped: Any, names: Any, pairs: int) -> dict[str, Any]:
        out = super().compare_notes(rows, kept, dropped, names, pairs)
        if self.aspects != "none":
            out["mode"] = "joint"  # the kinds are counted under each pair's mapping
        return out

    def intervals(self, corpus: Any, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED
                  ) -> tuple[Any, dict[str, Any]]:
        """The F1 intervals, and with ``aspects`` each kind's (the same resampled pairs)."""
        ci, parts = super().intervals(corpus, resamples, seed)
        scored = [self.aspect_counts(p.stats) for p in corpus.pairs if p.stats is not None]
        if self.aspects != "none" and scored:
            from ..aspects.core import aspect_intervals

            parts["aspects"] = {"resamples": resamples, "seed": seed, "level": 0.95, "method": "percentile",
                                "f1": aspect_intervals(scored, resamples, seed)}
        return ci, parts

    def stats_explained(self, a: CounterDrs, b: CounterDrs) -> tuple[tuple[float, ...], dict[str, Any]]:
        """The statistics and the explanation of one solve (a second solve under ``time_limit``
        could stop elsewhere, and the marks would not add up to ``matched``)."""
        matched, upper, mapping, status = self.solve(a, b)
        return self._stats(a, b, matched, upper, mapping), self.explained(a, b, mapping, status)

    def explain(self, a: CounterDrs, b: CounterDrs) -> dict[str, Any]:
        """:meth:`explained` of the pair's solve."""
        return self.stats_explained(a, b)[1]

    def explained(self, a: CounterDrs, b: CounterDrs, mapping: tuple[tuple[int, int], ...],
                  status: str) -> dict[str, Any]:
        """The mapping (``alignment``: ``[A variable, B variable]``; split into ``boxes`` and
        ``referents``; ``unaligned_a``/``_b``), the certificate's ``status``, and each side's
        clauses as Counter matches them (``clauses_a``/``_b``: ``{"clause": text, "match": the
        other side's clause index or None}``, ``"never": True`` on a clause Counter never matches):
        ``explain --metric counter`` draws it.  The matched clauses are those the mapping makes
        equal (a symmetric operator's last two either way round), each used once: as many as
        the pair's ``matched``."""
        symmetric = {c.label for drs in (a, b) for c in drs.clauses if c.symmetric}

        def key(c, to=None):
            vs = tuple(to.get(v, -1) for v in c.vars) if to is not None else c.vars
            return c.label, (vs[:-2] + tuple(sorted(vs[-2:])) if c.label in symmetric else vs)

        to = dict(mapping)
        free: dict[tuple, list[int]] = {}
        for j, c in enumerate(b.clauses):
            if c.matchable:
                free.setdefault(key(c), []).append(j)
        match_a: list[int | None] = [None] * a.total
        match_b: list[int | None] = [None] * b.total
        for i, c in enumerate(a.clauses):
            if c.matchable and all(v in to for v in c.vars) and free.get(key(c, to)):
                match_a[i] = free[key(c, to)].pop(0)
                match_b[match_a[i]] = i
        pairs = [[a.names[i], b.names[j]] for i, j in mapping]
        aligned_b = {j for _, j in mapping}

        def listed(drs: CounterDrs, match: list) -> list[dict[str, Any]]:
            return [{"clause": _clause_text(c, drs.names), "match": m, **({} if c.matchable else {"never": True})}
                    for c, m in zip(drs.clauses, match)]

        return {"alignment": pairs, "status": status,
                "boxes": [p for (i, _), p in zip(mapping, pairs) if a.types[i] == "b"],
                "referents": [p for (i, _), p in zip(mapping, pairs) if a.types[i] != "b"],
                "unaligned_a": [n for i, n in enumerate(a.names) if i not in to],
                "unaligned_b": [n for j, n in enumerate(b.names) if j not in aligned_b],
                "clauses_a": listed(a, match_a), "clauses_b": listed(b, match_b)}

    def scores(self, stats: np.ndarray) -> dict[str, np.ndarray]:
        s = np.asarray(stats, dtype=np.float64)
        matched, upper, test, gold = (s[..., k] for k in range(4))
        p, r, f = prf_arrays(matched, test, gold)
        return {"precision": p, "recall": r, "f1": f, "f1_upper": prf_arrays(upper, test, gold)[2]}


@dataclass
class CounterCorpus(MetricCorpus):
    """A counter run's corpus: with ``aspects``, its summary has the alignment family's
    ``aspects`` part (set, mode ``joint``, each kind's summed counts and P/R/F1, macro F1),
    which ``score``'s report prints as a table; ``totals`` keeps the four main statistics."""

    def summary(self) -> dict[str, Any]:
        out = super().summary()
        metric = self.metric
        scored = [metric.aspect_counts(p.stats) for p in self.pairs if p.stats is not None]
        if metric.aspects == "none":
            return out
        out["totals"] = {k: out["totals"][k] for k in _MAIN}
        scores, macro = {}, {}
        for kind in _KINDS:
            total = None
            for counts in scored:
                total = counts[kind] if total is None else total + counts[kind]
            if total is None:
                from ..aspects.base import AspectCount

                total = AspectCount(0, 0, 0, 0)
            scores[kind] = total.to_json()
            f1s = [f for f in (c[kind].to_json()["f1"] for c in scored) if f is not None]
            macro[kind] = sum(f1s) / len(f1s) if f1s else None
        out["aspects"] = {"set": metric.aspects, "mode": "joint", "scores": scores, "macro_f1": macro, "notes": []}
        return out

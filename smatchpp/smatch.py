"""smatch 1.0.4's Python API, solved exactly: ``from smatchpp import smatch`` replaces ``import smatch``.

Parsers compute Smatch inside their own code, typically::

    with open(pred) as p, open(gold) as g:
        f1 = next(smatch.score_amr_pairs(p, g))[2]

This module has the functions, generators and module flags of smatch 1.0.4's ``smatch.py``
that such code uses, with the same arguments, inputs and results:

* :func:`score_amr_pairs` ``(f1, f2, justinstance=False, justattribute=False,
  justrelation=False)``: a generator; with :data:`single_score` True (the default) it yields
  one ``(precision, recall, f_score)`` for all pairs, with :data:`single_score` False one per
  pair (and nothing at the end);
* :func:`get_amr_match` ``(cur_amr1, cur_amr2, sent_num=1, ...)``: ``(best_match_num,
  test_triple_num, gold_triple_num)`` of two one-line AMR strings;
* :func:`compute_f`, :func:`generate_amr_lines`, :func:`get_amr_line` (1.0.4's
  ``amr.AMR.get_amr_line``), :func:`normalize`, and :func:`main` (1.0.4's ``main(arguments)``);
* :func:`signature`: the settings of these scores, as smatchpp's signature; :func:`read_amr`:
  the triples of one one-line AMR;
* the flags: :data:`single_score`, :data:`pr_flag`, :data:`verbose`, :data:`veryVerbose`,
  :data:`iteration_num`, :data:`match_triple_dict`, :data:`ERROR_LOG`, :data:`DEBUG_LOG`.

Inputs are what 1.0.4 takes: open files, ``io.StringIO``, any iterator of lines (a list of
lines too: it is read once, where 1.0.4 would read its first graph again and again).

The triples are 1.0.4's (preset ``smatch``: the same reader quirks and counts, so precision
and recall divide by the same numbers), a repeated triple matches as often as 1.0.4 counts it
(``c_A * c_B`` times: :data:`duplicates`), and each pair is solved exactly (smatchpp's
:class:`~smatchpp.api.Scorer`, solver ``exact``), so the match count is the optimum of 1.0.4's
own objective.  **The one difference**: 1.0.4 climbs hills from random starts (``random``
unseeded), so its count is a lower bound that can change from run to run; here it is the
optimum, the same in every run, never below any count 1.0.4 reports for the pair.
``iteration_num`` (1.0.4's restarts + 1) has therefore no effect.  ``duplicates =
"multiset"`` gives smatchpp's own count of a repeated triple (``min(c_A, c_B)``; then a pair
with repeated triples can be below 1.0.4's overcount).

Not supported (a clear ``AttributeError`` names the replacement): the hill-climber's
internals ``get_best_match``, ``compute_pool``, ``smart_init_mapping``,
``random_init_mapping``, ``compute_match``, ``move_gain``, ``swap_gain``, ``get_best_gain``
and ``print_alignment``.  :data:`verbose` prints the pair, its triples (as compared:
lower-cased, variables numbered ``a0``/``b0`` like 1.0.4's) and the best match to
:data:`DEBUG_LOG`; :data:`veryVerbose` adds nothing to that (there is no hill-climbing to
trace) but the F-score line 1.0.4's :func:`compute_f` prints.  A graph 1.0.4 would read
leniently but that is not PENMAN raises :class:`~smatchpp.core.exceptions.ReadError` naming the
pair and the graph (1.0.4 prints an error and fails with an unrelated ``ValueError``).

>>> import io
>>> pred = io.StringIO("(a / dog :ARG0-of (b / bark-01))\\n\\n(c / cat)\\n")
>>> gold = io.StringIO("(x / bark-01 :ARG0 (y / dog))\\n\\n(c / cat)\\n")
>>> [round(v, 4) for v in next(score_amr_pairs(pred, gold))]
[0.8333, 0.8333, 0.8333]
>>> get_amr_match("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))")
(3, 4, 4)
>>> get_amr_match("(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))", justrelation=True)
(1, 1, 1)
>>> compute_f(3, 4, 4)
(0.75, 0.75, 0.75)
"""

from __future__ import annotations

import sys
from typing import Iterator

from .api import Scorer
from .alignment.config import Config
from .core.exceptions import ReadError
from .presets import standardize
from .graphs.read import read_text
from .graphs.triples import TripleGraph

__all__ = ["score_amr_pairs", "get_amr_match", "compute_f", "generate_amr_lines", "get_amr_line",
           "normalize", "main", "signature", "read_amr", "iteration_num", "verbose", "veryVerbose",
           "single_score", "pr_flag", "ERROR_LOG", "DEBUG_LOG", "match_triple_dict", "duplicates",
           "UNSUPPORTED"]

#: 1.0.4: restarts + 1 of the hill-climber; no effect here (every pair is solved exactly)
iteration_num = 5
#: print each pair, its triples and its best match to :data:`DEBUG_LOG`
verbose = False
#: 1.0.4's hill-climbing trace; here only :func:`compute_f`'s ``F-score:`` line
veryVerbose = False
#: True: :func:`score_amr_pairs` yields one score for all pairs; False: one per pair
single_score = True
#: read by callers (1.0.4's ``main`` prints precision and recall when it is set)
pr_flag = False
#: where reading errors are reported (read at each call, so it can be reassigned)
ERROR_LOG = sys.stderr
#: where :data:`verbose` output goes
DEBUG_LOG = sys.stderr
#: 1.0.4's cache of mappings; kept (and cleared after each pair) for code that clears it
match_triple_dict: dict = {}
#: how a triple repeated ``c_A`` times in one graph and ``c_B`` in the other matches:
#: ``"product"`` (``c_A * c_B`` times) is how 1.0.4 counts it, so that no score here is below
#: 1.0.4's; ``"multiset"`` (``min(c_A, c_B)``) is smatchpp's default (``--duplicates``)
duplicates = "product"

#: 1.0.4's names that are not provided, and what to use instead
UNSUPPORTED = {name: "it is the hill-climber's internals; every pair is solved exactly here: use "
                     "get_amr_match (the best match count) or smatchpp.api.Scorer(...).score_pair "
                     "(the alignment)"
               for name in ("get_best_match", "compute_pool", "smart_init_mapping",
                            "random_init_mapping", "compute_match", "move_gain", "swap_gain",
                            "get_best_gain", "print_alignment")}

#: the scorer of each ``duplicates`` setting (made on first use)
_scorers: dict[str, Scorer] = {}


def __getattr__(name: str):
    if name in UNSUPPORTED:
        raise AttributeError(f"smatchpp.smatch does not provide smatch 1.0.4's {name}: {UNSUPPORTED[name]}")
    raise AttributeError(f"module 'smatchpp.smatch' has no attribute {name!r}")


def normalize(item: str) -> str:
    """1.0.4's comparison form of a label: lower-cased, trailing ``_`` removed.

    >>> normalize("Dog__")
    'dog'
    """
    return item.lower().rstrip("_")


def compute_f(match_num, test_num, gold_num) -> tuple[float, float, float]:
    """``(precision, recall, f_score)`` of a match count and the two triple counts, as in
    1.0.4 (``(0.0, 0.0, 0.0)`` when either count is 0).

    >>> compute_f(0, 3, 0), compute_f(0, 3, 4)
    ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0))
    """
    if test_num == 0 or gold_num == 0:
        return 0.00, 0.00, 0.00
    precision = float(match_num) / float(test_num)
    recall = float(match_num) / float(gold_num)
    if (precision + recall) != 0:
        f_score = 2 * precision * recall / (precision + recall)
        if veryVerbose:
            print("F-score:", f_score, file=DEBUG_LOG)
        return precision, recall, f_score
    if veryVerbose:
        print("F-score:", "0.0", file=DEBUG_LOG)
    return precision, recall, 0.00


class _Source:
    """An input's lines, counted: ``start`` is the line where the AMR being read began (for
    error messages; ``name``: the file's name, if it has one)."""

    def __init__(self, source) -> None:
        self._lines = iter(source)
        self.name = getattr(source, "name", None)
        self.line = 0
        self.start: int | None = None

    def __iter__(self) -> "_Source":
        return self

    def __next__(self) -> str:
        line = next(self._lines)
        self.line += 1
        return line


def _lines(source) -> _Source:
    """``source`` as 1.0.4 reads it (an iterator of lines), refusing a string."""
    if isinstance(source, _Source):
        return source
    if isinstance(source, (str, bytes)):
        raise TypeError("smatch.score_amr_pairs and generate_amr_lines read a file object or an "
                        "iterable of lines, not a " + type(source).__name__
                        + " (for a text: io.StringIO(text))")
    return _Source(source)


def get_amr_line(input_f) -> str:
    """The next AMR of ``input_f`` on one line (1.0.4's ``amr.AMR.get_amr_line``): blank lines
    separate AMRs, ``#`` lines are skipped, the other lines are stripped and joined; ``""`` at
    the end.

    >>> import io
    >>> f = io.StringIO("# ::id 1\\n(a / b\\n   :ARG0 (c / d))\\n\\n(e / f)\\n")
    >>> get_amr_line(f), get_amr_line(f), get_amr_line(f)
    ('(a / b:ARG0 (c / d))', '(e / f)', '')
    """
    cur_amr = []
    has_content = False
    for line in input_f:
        line = line.strip()
        if line == "":
            if not has_content:
                continue
            break
        if line.startswith("#"):
            continue
        if not has_content and isinstance(input_f, _Source):
            input_f.start = input_f.line
        has_content = True
        cur_amr.append(line)
    return "".join(cur_amr)


def generate_amr_lines(f1, f2) -> Iterator[tuple[str, str]]:
    """One-line AMR pairs of ``f1`` and ``f2`` (file objects or iterables of lines), as 1.0.4:
    when one input ends first, two lines on :data:`ERROR_LOG` and the pairs stop there."""
    f1, f2 = _lines(f1), _lines(f2)
    while True:
        cur_amr1 = get_amr_line(f1)
        cur_amr2 = get_amr_line(f2)
        if not cur_amr1 and not cur_amr2:
            pass
        elif not cur_amr1:
            print("Error: File 1 has less AMRs than file 2", file=ERROR_LOG)
            print("Ignoring remaining AMRs", file=ERROR_LOG)
        elif not cur_amr2:
            print("Error: File 2 has less AMRs than file 1", file=ERROR_LOG)
            print("Ignoring remaining AMRs", file=ERROR_LOG)
        else:
            yield cur_amr1, cur_amr2
            continue
        break


def _graph(text: str, which: int, sent_num: int) -> TripleGraph:
    """One one-line AMR as 1.0.4's triples (preset ``smatch``); a clear error names the pair."""
    where = f"<AMR pair {sent_num}, AMR {which}>"
    entries = read_text(text, where)
    if len(entries) != 1 or entries[0].error is not None or entries[0].graph is None:
        if len(entries) != 1:
            found = f"{len(entries)} graphs"
        else:
            found = entries[0].error.message if entries[0].error is not None else "no graph"
        print("Error in parsing amr %d: %s" % (which, text), file=ERROR_LOG)
        error = ReadError(f"AMR {which} of pair {sent_num} is not one PENMAN graph ({found}): {text[:200]}",
                          where, 1, sent_num - 1)
        error.amr = which  # type: ignore[attr-defined]  (score_amr_pairs names the file and line)
        raise error
    return standardize(entries[0].graph, "smatch")


def read_amr(cur_amr: str) -> TripleGraph:
    """1.0.4's triples of one one-line AMR (what :func:`get_amr_match` compares), as a
    :class:`~smatchpp.graphs.triples.TripleGraph`; raises :class:`ReadError` if it is not PENMAN.

    >>> g = read_amr("(a / Dog :mod (b / big))")
    >>> g.concepts, g.attributes, g.relations
    (('dog', 'big'), ((0, 'top', 'top'),), ((1, 'domain', 0),))
    """
    return _graph(cur_amr, 1, 1)


def _restrict(g: TripleGraph, side: str, doinstance: bool, doattribute: bool,
              dorelation: bool) -> TripleGraph:
    """``g`` with only the kinds of triple that are compared (1.0.4's ``do*`` switches); a
    concept that is not compared gets a label the other side cannot have."""
    concepts = g.concepts if doinstance else tuple(f"\x00{side}" for _ in g.concepts)
    return TripleGraph(g.variables, concepts, g.attributes if doattribute else (),
                       g.relations if dorelation else ())


def _scorer_instance() -> Scorer:
    if duplicates not in _scorers:
        _scorers[duplicates] = Scorer(Config(preset="smatch", solver="exact", duplicates=duplicates))
    return _scorers[duplicates]


def signature() -> str:
    """The signature of the scores this module gives (its settings; ``duplicates`` included)."""
    return _scorer_instance().signature


def _verbose_triples(g: TripleGraph, prefix: str) -> tuple[list, list, list]:
    name = [f"{prefix}{i}" for i in range(len(g.variables))]
    instance = [("instance", name[i], c) for i, c in enumerate(g.concepts)]
    attributes = [(r, name[i], v) for i, r, v in g.attributes]
    relations = [(r, name[i], name[k]) for i, r, k in g.relations]
    return instance, attributes, relations


def get_amr_match(cur_amr1: str, cur_amr2: str, sent_num: int = 1, justinstance: bool = False,
                  justattribute: bool = False, justrelation: bool = False) -> tuple[int, int, int]:
    """``(best_match_num, test_triple_num, gold_triple_num)`` of two one-line AMRs (1.0.4's),
    with the optimum as ``best_match_num``.  The ``just*`` switches combine as in 1.0.4."""
    g1, g2 = _graph(cur_amr1, 1, sent_num), _graph(cur_amr2, 2, sent_num)
    doinstance = doattribute = dorelation = True
    if justinstance:
        doattribute = dorelation = False
    if justattribute:
        doinstance = dorelation = False
    if justrelation:
        doinstance = doattribute = False
    a = _restrict(g1, "a", doinstance, doattribute, dorelation)
    b = _restrict(g2, "b", doinstance, doattribute, dorelation)
    score = _scorer_instance().score_pair(a, b, sent_num - 1)
    if score.status != "optimal":  # no limits are set, so this cannot happen
        raise RuntimeError(f"AMR pair {sent_num} was not solved to optimality ({score.status})")
    best_match_num = int(round(score.matched))
    if verbose:
        _print_verbose(sent_num, cur_amr1, cur_amr2, g1, g2, score, best_match_num)
    if justinstance:
        return best_match_num, len(g1.concepts), len(g2.concepts)
    if justattribute:
        return best_match_num, len(g1.attributes), len(g2.attributes)
    if justrelation:
        return best_match_num, len(g1.relations), len(g2.relations)
    return best_match_num, g1.n_triples, g2.n_triples


def _print_verbose(sent_num, cur_amr1, cur_amr2, g1, g2, score, best_match_num) -> None:
    log = DEBUG_LOG
    print("AMR pair", sent_num, file=log)
    print("============================================", file=log)
    print("AMR 1 (one-line):", cur_amr1, file=log)
    print("AMR 2 (one-line):", cur_amr2, file=log)
    for k, g, prefix in ((1, g1, "a"), (2, g2, "b")):
        instance, attributes, relations = _verbose_triples(g, prefix)
        for kind, triples in (("Instance", instance), ("Attribute", attributes), ("Relation", relations)):
            print(f"{kind} triples of AMR {k}:", len(triples), file=log)
            print(triples, file=log)
    index_b = {v: j for j, v in enumerate(g2.variables)}
    mapping = {v: index_b[w] for v, w in score.alignment}
    best_mapping = [mapping.get(v, -1) for v in g1.variables]
    print("best match number", best_match_num, file=log)
    print("best node mapping", best_mapping, file=log)
    pairs = [f"a{i}({g1.concepts[i]})-b{j}({g2.concepts[j]})" for i, j in enumerate(best_mapping) if j != -1]
    print("Best node mapping alignment:", " ".join(pairs), file=log)


def score_amr_pairs(f1, f2, justinstance: bool = False, justattribute: bool = False,
                    justrelation: bool = False) -> Iterator[tuple[float, float, float]]:
    """Score the AMR pairs of ``f1`` (test) and ``f2`` (gold), file objects or iterables of
    lines: yields ``(precision, recall, f_score)`` once for all pairs (:data:`single_score`
    True) or once per pair (False), as 1.0.4's generator does."""
    total_match_num = total_test_num = total_gold_num = 0
    f1, f2 = _lines(f1), _lines(f2)
    for sent_num, (cur_amr1, cur_amr2) in enumerate(generate_amr_lines(f1, f2), start=1):
        try:
            best_match_num, test_triple_num, gold_triple_num = get_amr_match(
                cur_amr1, cur_amr2, sent_num=sent_num, justinstance=justinstance,
                justattribute=justattribute, justrelation=justrelation)
        except ReadError as exc:
            source = f1 if getattr(exc, "amr", 1) == 1 else f2
            raise ReadError(exc.message, source.name or exc.path, source.start, sent_num - 1) from None
        total_match_num += best_match_num
        total_test_num += test_triple_num
        total_gold_num += gold_triple_num
        match_triple_dict.clear()
        if not single_score:
            yield compute_f(best_match_num, test_triple_num, gold_triple_num)
    if verbose:
        print("Total match number, total triple number in AMR 1, and total triple number in AMR 2:",
              file=DEBUG_LOG)
        print(total_match_num, total_test_num, total_gold_num, file=DEBUG_LOG)
        print("---------------------------------------------------------------------------------",
              file=DEBUG_LOG)
    if single_score:
        yield compute_f(total_match_num, total_test_num, total_gold_num)


def main(arguments) -> None:
    """1.0.4's ``main``: ``arguments`` has ``f`` (two open files), ``r``, ``significant``, ``v``,
    ``vv``, ``ms``, ``pr``, ``justinstance``, ``justattribute``, ``justrelation``; prints
    ``F-score: ...`` lines (with ``pr``, ``Precision:`` and ``Recall:`` first) and closes the
    files.  It sets the module flags, as 1.0.4's does."""
    global verbose, veryVerbose, iteration_num, single_score, pr_flag
    iteration_num = arguments.r + 1
    if arguments.ms:
        single_score = False
    if arguments.v:
        verbose = True
    if getattr(arguments, "vv", False):
        veryVerbose = True
    if arguments.pr:
        pr_flag = True
    floatdisplay = "%%.%df" % arguments.significant
    for precision, recall, best_f_score in score_amr_pairs(
            arguments.f[0], arguments.f[1], justinstance=arguments.justinstance,
            justattribute=arguments.justattribute, justrelation=arguments.justrelation):
        if pr_flag:
            print("Precision: " + floatdisplay % precision)
            print("Recall: " + floatdisplay % recall)
        print("F-score: " + floatdisplay % best_f_score)
    arguments.f[0].close()
    arguments.f[1].close()

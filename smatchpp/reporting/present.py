"""Every summary the command line prints, in text, JSON, Markdown and LaTeX.

One place formats numbers (:func:`pct`, :func:`signed`, :func:`points`,
:func:`count`, :func:`interval`, :func:`pvalue`): a missing or non-finite
value is ``n/a`` everywhere.  The renderers take the summaries' own data (the
``to_json()``/``summary()`` dictionaries, :class:`~smatchpp.statistics.significance.Comparison`,
:class:`~smatchpp.statistics.significance.BootstrapCI`, :class:`~smatchpp.metrics.base.MetricIntervals`)
and return the whole output as one string:

- :func:`corpus_report` (``score``, every metric: the alignment family's certificates,
  aspects and coreference parts when its summary holds them; :func:`score_report` and
  :func:`metric_report` are its old names), :func:`aspects_block` (``--aspects``), :func:`bootstrap_block` (``--bootstrap``),
  :func:`compare_report` (``compare``, with aspect rows), :func:`gap_report` (``gap``).
- ``text`` is what a terminal shows; ``json`` the summary dictionary; ``markdown``
  and ``latex`` put the numbers in tables that a paper or a README can take as
  they are (LaTeX: ``booktabs`` rules; the signature and notes are ``%`` comments,
  so the block compiles where it is pasted).

The layer sits just below the command line: it reads data types of
``score``, ``significance``, ``aspects`` and ``metrics`` and never imports the
CLI or the API.

>>> pct(0.8958333), pct(None), pct(float("nan")), pct(1.0, 6), signed(-0.0656), points(-0.104166)
('89.58', 'n/a', 'n/a', '100.00', '-6.56', '-10.417')
>>> count(43), count(155.0), count(2.5), interval(0.8571, 0.9344), interval(-0.14, 0.0, signed)
('43', '155', '2.5000', '[85.71, 93.44]', '[-14.00, +0.00]')
>>> print(markdown_table(["", "F1"], [["micro", "89.58"]]))
|       |    F1 |
| :---- | ----: |
| micro | 89.58 |
>>> print(latex_table(["", "F1 %"], [["micro_1", "89.58"]]))
\\begin{tabular}{lr}
\\toprule
 & F1 \\% \\\\
\\midrule
micro\\_1 & 89.58 \\\\
\\bottomrule
\\end{tabular}
"""

from __future__ import annotations

import json
import math
from typing import Any, Callable, Mapping, Sequence

from ..metrics.base import MetricIntervals
from ..statistics.significance import BootstrapCI, Comparison

__all__ = ["FORMATS", "pct", "signed", "points", "count", "interval", "pvalue", "plural",
           "markdown_table", "latex_table", "corpus_report", "score_report", "metric_report", "aspects_block",
           "bootstrap_block", "compare_report", "systems_report", "gap_report", "emit_json", "json_safe",
           "json_line", "problem_sizes"]

#: the formats of every summary (``--format``)
FORMATS = ("text", "json", "markdown", "latex")
#: the names of precision, recall and F1 in headers
SHORT = {"precision": "P", "recall": "R", "f1": "F1"}


# ---------------------------------------------------------------------------
# numbers

def _aspect_title(name: str) -> str:
    # imported on use: smatchpp.aspects.core imports the compiler, which a metric's report never needs
    from ..aspects.core import aspect_title

    return aspect_title(name)


def _aspect_notes(scores: Mapping[str, Any]) -> list[str]:
    from ..aspects.core import aspect_notes

    return aspect_notes(scores)


def _missing(x: float | None) -> bool:
    return x is None or not math.isfinite(x)


def pct(x: float | None, width: int = 0) -> str:
    """A fraction as a percentage with 2 decimals (``n/a`` if missing), right-aligned in ``width``."""
    return f"{'n/a':>{width}s}" if _missing(x) else f"{100 * x:{width}.2f}"


def signed(x: float | None) -> str:
    """A difference of fractions in percentage points, signed, 2 decimals."""
    return "n/a" if _missing(x) else f"{100 * x:+.2f}"


def points(x: float | None) -> str:
    """A difference of fractions in percentage points, signed, 3 decimals (a point estimate)."""
    return "n/a" if _missing(x) else f"{100 * x:+.3f}"


def count(x: float | None) -> str:
    """A count as it is, a (fractional) weight to 4 decimals (below 0.001: 4 significant digits).

    >>> count(3), count(2.0), count(155.25), count(0.000123456), count(float("inf"))
    ('3', '2', '155.2500', '0.0001235', 'n/a')
    """
    if x is None:
        return "None"
    if not math.isfinite(x):
        return "n/a"
    if float(x).is_integer():
        return str(int(x))
    return f"{x:.4f}" if abs(x) >= 1e-3 else f"{x:.4g}"


def interval(lo: float | None, hi: float | None, fmt: Callable[[float | None], str] = pct) -> str:
    """``[lo, hi]``, each end formatted by ``fmt``."""
    return f"[{fmt(lo)}, {fmt(hi)}]"


def pvalue(x: float | None) -> str:
    return "n/a" if _missing(x) else f"{x:.4f}"


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 graph``, ``2 graphs`` (``many``: an irregular plural)."""
    return f"{n} {word}" if n == 1 else f"{n} {many or word + 's'}"


def matrix_cells(rows: int, cols: int, upper_only: bool) -> str:
    """Which cells of a ``rows x cols`` matrix the ``N of M pairs scored`` of ``matrix`` counts,
    worded the same for every metric: Smatch's matrix of a file against itself solves the pairs
    ``i < j`` (the diagonal is self-match, the lower triangle mirrors), the other matrices every cell.

    >>> matrix_cells(4, 4, True), matrix_cells(4, 4, False)
    ('i < j of 4 x 4; diagonal self-match, lower triangle mirrored', 'every cell of 4 x 4')
    """
    if upper_only:
        return f"i < j of {rows} x {cols}; diagonal self-match, lower triangle mirrored"
    return f"every cell of {rows} x {cols}"


def json_safe(obj: Any) -> Any:
    """``obj`` with every NaN or infinite number as ``None``: the one rule of every JSON output
    (a score that is undefined, e.g. of an aspect without items, is ``null``), so that strict
    JSON parsers read it (Python's ``json`` would write bare ``NaN``).

    >>> json_safe({"a": [1.0, float("nan")], "b": (float("inf"), "x")})
    {'a': [1.0, None], 'b': [None, 'x']}
    """
    if isinstance(obj, float) or (hasattr(obj, "dtype") and getattr(obj, "shape", None) == ()
                                  and obj.dtype.kind == "f"):
        return float(obj) if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def emit_json(obj: Any) -> str:
    return json.dumps(json_safe(obj), indent=2, allow_nan=False)


def json_line(obj: Any) -> str:
    """One line of a JSON-lines output (``--pairs-out``, ``--out``), NaN as ``null``: written
    as it is when it can be (the common case, one pass), else after :func:`json_safe`.

    >>> json_line({"a": 1.5}), json_line({"a": float("nan")})
    ('{"a": 1.5}', '{"a": null}')
    """
    try:
        return json.dumps(obj, allow_nan=False)
    except (ValueError, TypeError):  # a NaN or infinity, or a numpy scalar
        return json.dumps(json_safe(obj), allow_nan=False)


# ---------------------------------------------------------------------------
# tables

def _right(rows: Sequence[Sequence[str]], k: int) -> bool:
    """Whether column ``k`` holds numbers (right-aligned): not the first, every cell a number,
    an interval or ``n/a``."""
    return k > 0 and all(not r[k] or r[k] == "n/a" or r[k][0] in "+-[0123456789" for r in rows)


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GitHub-flavoured Markdown table: numbers right-aligned, text left-aligned."""
    cells = [list(header)] + [list(r) for r in rows]
    width = [max(3, *(len(_md(r[k])) for r in cells)) for k in range(len(header))]
    right = [_right(rows, k) for k in range(len(header))]

    def line(r: Sequence[str]) -> str:
        return "| " + " | ".join(_md(c).rjust(w) if right[k] else _md(c).ljust(w)
                                 for k, (c, w) in enumerate(zip(r, width))) + " |"
    rule = "| " + " | ".join("-" * (w - 1) + ":" if right[k] else ":" + "-" * (w - 1)
                             for k, w in enumerate(width)) + " |"
    return "\n".join([line(cells[0]), rule] + [line(r) for r in cells[1:]])


def _md(text: str) -> str:
    return text.replace("|", "\\|")


_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
          "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def _tex(text: str) -> str:
    return "".join(_LATEX.get(ch, ch) for ch in text)


def _comment(text: str) -> str:
    """A LaTeX ``%`` comment of ``text``: every line of it commented (a file name may hold a
    line break, which would otherwise end the comment and put the rest into the document).

    >>> print(_comment("sys1: a\\nb.amr"))
    % sys1: a
    % b.amr
    """
    return "\n".join("% " + line for line in str(text).replace("\r", "\n").split("\n"))


def latex_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A ``tabular`` with ``booktabs`` rules: numbers right-aligned, text left-aligned."""
    spec = "".join("r" if _right(rows, k) else "l" for k in range(len(header)))
    return "\n".join([f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
                      " & ".join(_tex(h) for h in header) + " \\\\", "\\midrule"]
                     + [" & ".join(_tex(c) for c in r) + " \\\\" for r in rows]
                     + ["\\bottomrule", "\\end{tabular}"])


def _document(fmt: str, notes: Sequence[str], tables: Sequence[tuple[str, Sequence[str], Sequence[Sequence[str]]]],
              after: Sequence[str] = ()) -> str:
    """Notes (the first one is the signature), titled tables and the notes ``after`` them, as
    Markdown or LaTeX."""
    tables = [(title, *_drop_empty(header, rows)) for title, header, rows in tables]
    if fmt == "markdown":
        parts = [f"`{notes[0]}`"] + list(notes[1:]) if notes else []
        out = ["  \n".join(parts)] if parts else []
        for title, header, rows in tables:
            out.append((f"**{title}**\n\n" if title else "") + markdown_table(header, rows))
        if after:
            out.append("  \n".join(after))
        return "\n\n".join(out)
    if fmt == "latex":
        out = [_comment(n) for n in notes]
        for title, header, rows in tables:
            out += ([_comment(title)] if title else []) + [latex_table(header, rows)]
        return "\n".join(out + [_comment(n) for n in after])
    raise ValueError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")


def _drop_empty(header: Sequence[str], rows: Sequence[Sequence[str]]):
    """The table without the columns (after the first) that are empty in every row.

    >>> _drop_empty(["", "F1", "note"], [["a", "1", ""], ["b", "2", ""]])
    (['', 'F1'], [['a', '1'], ['b', '2']])
    """
    keep = [k for k in range(len(header)) if k == 0 or any(r[k] for r in rows)]
    return [header[k] for k in keep], [[r[k] for k in keep] for r in rows]


# ---------------------------------------------------------------------------
# score

def _json_report(summary: Mapping[str, Any], total: int | None, bootstrap) -> str:
    """A corpus summary as JSON, with the interruption and the bootstrap intervals if any."""
    out = dict(summary)
    if total is not None:
        out["interrupted"] = {"finished": summary["pairs"], "total": total}
    if bootstrap is not None:
        out["bootstrap"] = bootstrap.to_json()
    return emit_json(out)


def corpus_report(summary: Mapping[str, Any], fmt: str = "text", *, total: int | None = None,
                  bootstrap: BootstrapCI | MetricIntervals | None = None, note: str | None = None,
                  mean_only: bool = False) -> str:
    """The summary of ``score``, for every metric (``summary``: the corpus's ``summary()``,
    :meth:`CorpusScore.summary` of the alignment family or :meth:`MetricCorpus.summary`;
    ``total``: pairs in the input when the run was interrupted; ``note``: the metric's note,
    e.g. a preset's warning, when the summary carries none; ``mean_only``: the metric's micro
    score is by definition its macro score, one row ``mean``).

    What the summary holds decides what is shown: the alignment family's certificates
    (``optimal``: the pairs certified; the matched counts and the F1 interval; the stages that
    certified), its ``aspects`` and ``coref`` parts, the bootstrap intervals."""
    if fmt == "json":
        return _json_report(summary, total, bootstrap)
    s = summary
    certified = "optimal" in s  # the alignment family: certificates and bounds per pair
    notes = _report_notes(s, total, s.get("note") or note or "")
    lower = " (lower bounds)" if certified and s["scored"] - s["optimal"] else ""
    keys = list(s["micro"])
    tail = _score_tail(s) if certified else []
    if fmt == "text":
        lines = notes[:-1] if certified else list(notes)
        for name, key in _averages(mean_only):
            cells = "  ".join(f"{SHORT.get(k, k)} {pct(s[key][k])}" for k in keys)
            lines.append(f"{name:5s}  {cells}" + ("  " + lower.strip() if lower else ""))
        lines += (notes[-1:] if certified else []) + tail
        if "aspects" in s:
            lines.append(aspects_block(s["aspects"], "text"))
        if bootstrap is not None:
            lines.append(bootstrap_block(bootstrap, "text", mean_only=mean_only))
        if "aspects" in s and s["aspects"].get("bootstrap"):
            lines += aspect_interval_lines(s["aspects"]["bootstrap"])
        if "coref" in s:
            lines += coref_lines(s["coref"])
        return "\n".join(lines)
    tables = [("", [""] + [SHORT.get(k, k) + lower for k in keys],
               [[name, *(pct(s[key][k]) for k in keys)] for name, key in _averages(mean_only)])]
    if "aspects" in s:
        tables.append(_aspects_table(s["aspects"]))
    if bootstrap is not None:
        tables.append(_bootstrap_table(bootstrap, mean_only))
    if "aspects" in s and s["aspects"].get("bootstrap"):
        tables.append(_aspect_intervals_table(s["aspects"]["bootstrap"]))
    if "coref" in s:
        tables.append(("coreference (docSmatch's --coref-subscore)", ["", "P", "R", "F1"],
                       [[name, *(pct(s["coref"][name][k]) for k in SHORT)] for name in COREF_PARTS]))
    after = tail + ([f"note: {n}" for n in _aspect_note_list(s["aspects"])] if "aspects" in s else [])
    return _document(fmt, notes, tables, after=after)


def score_report(summary: Mapping[str, Any], fmt: str = "text", *, total: int | None = None,
                 bootstrap: BootstrapCI | None = None, preset_note: str = "") -> str:
    """:func:`corpus_report` of the alignment family's summary (``preset_note``: the preset's
    warning, if any); kept for the callers of its old name."""
    return corpus_report(summary, fmt, total=total, bootstrap=bootstrap, note=preset_note)


#: docSmatch's two coreference subscores, in its order
COREF_PARTS = ("Total Coref", "Non-Coref")


def coref_lines(coref: Mapping[str, Any]) -> list[str]:
    """The text lines of docSmatch's coreference subscore (``score --coref-subscore``), with
    their bootstrap intervals of F1 when resampled.

    >>> c = {"Total Coref": {"matched": 2, "test": 4, "gold": 4, "precision": 0.5, "recall": 0.5, "f1": 0.5},
    ...      "Non-Coref": {"matched": 6, "test": 8, "gold": 8, "precision": 0.75, "recall": 0.75, "f1": 0.75}}
    >>> print("\\n".join(coref_lines(c)))
    Total Coref  P 50.00  R 50.00  F1 50.00  (matched 2 of test 4 / gold 4)
    Non-Coref    P 75.00  R 75.00  F1 75.00  (matched 6 of test 8 / gold 8)
    """
    lines = []
    for name in COREF_PARTS:
        m = coref[name]
        lines.append(f"{name:11s}  P {pct(m['precision'])}  R {pct(m['recall'])}  F1 {pct(m['f1'])}  "
                     f"(matched {count(m['matched'])} of test {count(m['test'])} / gold {count(m['gold'])})")
    for name, ci in coref.get("bootstrap", {}).items():
        lo, hi = ci["micro"]["f1"]
        lines.append(f"  {name} micro F1 {100 * ci['level']:g}% bootstrap interval {interval(lo, hi)}")
    return lines


def _report_notes(s: Mapping[str, Any], total: int | None, note: str) -> list[str]:
    """Signature, note, interruption, the pair counts; with certificates (the alignment family),
    last, the matched triples and the F1 interval."""
    lines = [s["signature"]]
    if note:
        lines.append(f"note: {note}")
    if total is not None and total != s["pairs"]:
        lines.append(f"interrupted: {s['pairs']} of {plural(total, 'pair')} finished; "
                     "the scores below cover those only")
    skipped = s["pairs"] - s["scored"]
    certified = "optimal" in s
    lines.append(f"pairs: {s['pairs']} scored: {s['scored']}"
                 + (f" skipped: {skipped}" if skipped else "")
                 + (f" certified optimal: {s['optimal']}" if certified else ""))
    if not certified:
        return lines
    lo, hi = s["f1_interval"]
    if s["test_total"] == s["test_triples"] and s["gold_total"] == s["gold_triples"]:
        of = f"of test {s['test_triples']} / gold {s['gold_triples']} triples"
    else:  # a weighted matcher: P and R divide by the total weights
        of = (f"of test weight {count(s['test_total'])} / gold weight {count(s['gold_total'])} "
              f"({s['test_triples']} / {s['gold_triples']} triples)")
    lines.append(f"matched: {count(s['matched_lower'])} (upper bound {count(s['matched_upper'])}) "
                 f"{of}; micro F1 in {interval(lo, hi)}")
    return lines


def _score_tail(s: Mapping[str, Any]) -> list[str]:
    lines = []
    uncertified = s["scored"] - s["optimal"]
    if uncertified:
        lines.append(f"{plural(uncertified, 'pair')} not certified: "
                     + ("its matches are" if uncertified == 1 else "their matches are") + " the best "
                     "alignment found, so P/R/F1 above are lower bounds; the interval holds the optimum")
    within = {k: v for k, v in s.get("certified_within", {}).items() if k != "exact"}
    if within:
        lines.append("certified up to a gap of " + ", ".join(f"{k} ({plural(v, 'pair')})"
                                                              for k, v in sorted(within.items()))
                     + " (non-integer coefficients); exactly: "
                     + plural(s["certified_within"].get("exact", 0), "pair"))
    if s["certified_by"]:
        lines.append("certified by: " + ", ".join(f"{k} {v}" for k, v in sorted(s["certified_by"].items())))
    if s["bounded_by"]:
        lines.append("not certified, best bound from: "
                     + ", ".join(f"{k} {v}" for k, v in sorted(s["bounded_by"].items())))
    return lines


# ---------------------------------------------------------------------------
# aspects

def aspects_block(summary: Mapping[str, Any], fmt: str = "text") -> str:
    """The table of the ``aspects`` part of a corpus summary (micro P/R/F1 in %).

    >>> from smatchpp.aspects.core import AspectCount
    >>> counts = {"concepts": AspectCount(3, 3, 4, 5).to_json(), "wikification": AspectCount(0, 0, 0, 0).to_json(),
    ...           "srl": AspectCount(2, 3, 4, 4).to_json()}
    >>> print(aspects_block({"mode": "separate", "scores": counts}))
    aspects (separate alignment)       P       R      F1  matched    test    gold
    Concepts                       75.00   60.00   66.67        3       4       5
    Wikification                     n/a     n/a     n/a        0       0       0  (no items on either side)
    SRL                            50.00   50.00   50.00        2       4       4  (upper bound 3)
    """
    if fmt == "json":
        return emit_json(dict(summary))
    if fmt != "text":
        return _document(fmt, [], [_aspects_table(summary)],
                         after=[f"note: {n}" for n in _aspect_note_list(summary)])
    head = _aspects_head(summary)
    width = max(30, len(head) + 1)
    lines = [head.ljust(width)
             + f"{'P':>6s}  {'R':>6s}  {'F1':>6s}  {'matched':>7s}  {'test':>6s}  {'gold':>6s}"]
    for name, c in summary["scores"].items():
        lines.append(f"{_aspect_title(name).ljust(width)}{pct(c['precision'], 6)}  {pct(c['recall'], 6)}  "
                     f"{pct(c['f1'], 6)}  {count(c['matched']):>7}  {c['test']:>6}  {c['gold']:>6}"
                     + _aspect_flags(c))
    lines += [f"note: {note}" for note in _aspect_note_list(summary)]
    return "\n".join(lines)


def _aspects_head(summary: Mapping[str, Any]) -> str:
    """``aspects [SET] (MODE alignment)``: the set is named when the summary says which."""
    return (f"aspects {summary['set']}" if summary.get("set") else "aspects") + f" ({summary['mode']} alignment)"


def _aspect_flags(c: Mapping[str, Any]) -> str:
    flags = "" if c["upper"] == c["matched"] else f"  (upper bound {count(c['upper'])})"
    if c["f1"] is None:
        flags += "  (no items on either side)"
    elif c["test"] == 0 and c["gold"] == 0:
        flags += "  (empty on both sides: vacuous agreement)"
    return flags


def _aspect_note_list(summary: Mapping[str, Any]) -> list[str]:
    return list(summary.get("notes", _aspect_notes(summary["scores"])))


def _aspects_table(summary: Mapping[str, Any]):
    rows = []
    for name, c in summary["scores"].items():
        rows.append([_aspect_title(name), pct(c["precision"]), pct(c["recall"]), pct(c["f1"]),
                     count(c["matched"]), str(c["test"]), str(c["gold"]), _aspect_flags(c).strip()])
    return (_aspects_head(summary),
            ["aspect", "P", "R", "F1", "matched", "test", "gold", "note"], rows)


def aspect_interval_lines(intervals: Mapping[str, Any]) -> list[str]:
    """One line per aspect: its micro and macro F1 intervals (in %), from the main score's
    resampled pairs (``intervals``: ``summary["aspects"]["bootstrap"]``)."""
    lines = [f"aspects: {100 * intervals['level']:g}% bootstrap intervals of F1 ({intervals['resamples']} "
             f"resamples, seed {intervals['seed']}, the main score's resampled pairs)"]
    for name, ci in intervals["f1"].items():
        lines.append(f"  {_aspect_title(name):28s} micro {_span(ci['micro_f1'])}  macro {_span(ci['macro_f1'])}")
    return lines


def _span(lo_hi) -> str:
    return "n/a" if lo_hi is None else f"[{pct(lo_hi[0])}, {pct(lo_hi[1])}]"


def _aspect_intervals_table(intervals: Mapping[str, Any]):
    rows = [[_aspect_title(name), _span(ci["micro_f1"]), _span(ci["macro_f1"])]
            for name, ci in intervals["f1"].items()]
    return (f"aspects: {100 * intervals['level']:g}% bootstrap intervals of F1 ({intervals['resamples']} "
            f"resamples, seed {intervals['seed']})", ["aspect", "micro F1", "macro F1"], rows)


# ---------------------------------------------------------------------------
# bootstrap intervals

def _averages(mean_only: bool) -> tuple[tuple[str, str], ...]:
    """The rows of a summary: ``(label, key)``.  A metric whose corpus score is by definition
    the mean of its pair scores (micro = macro, :class:`smatchpp.metrics.PairMean`) prints one
    row, ``mean``, from the ``micro`` values (JSON keeps both keys)."""
    return (("mean", "micro"),) if mean_only else (("micro", "micro"), ("macro", "macro"))


def bootstrap_block(ci: BootstrapCI | MetricIntervals, fmt: str = "text", *, mean_only: bool = False) -> str:
    """The bootstrap intervals of ``score --bootstrap`` (Smatch's or a metric's)."""
    if fmt == "json":
        return emit_json(ci.to_json())
    if fmt != "text":
        return _document(fmt, [], [_bootstrap_table(ci, mean_only)])
    lines = [_bootstrap_title(ci) + ":"]
    for label, block in _bootstrap_blocks(ci):
        for name, key in _averages(mean_only):
            cells = "  ".join(f"{SHORT.get(k, k)} {interval(lo, hi)}" for k, (lo, hi) in getattr(block, key).items())
            lines.append(f"  {label}{name:5s}  {cells}")
    if getattr(ci, "upper", None) is not None:
        lines.append("  (some pairs are not certified: both the lower and the upper bounds "
                     "were resampled)")
    return "\n".join(lines)


def _bootstrap_title(ci) -> str:
    return (f"{100 * ci.level:g}% bootstrap intervals ({ci.resamples} resamples of "
            f"{ci.pairs} pairs, seed {ci.seed}, percentile)")


def _bootstrap_blocks(ci) -> list:
    return [("", ci.lower)] if ci.upper is None else [("lower bounds ", ci.lower), ("upper bounds ", ci.upper)]


def _bootstrap_table(ci, mean_only: bool = False):
    blocks = _bootstrap_blocks(ci)
    keys = list(blocks[0][1].micro)
    rows = [[f"{label}{name}", *(interval(*getattr(block, key)[k]) for k in keys)]
            for label, block in blocks for name, key in _averages(mean_only)]
    return _bootstrap_title(ci), [""] + [SHORT.get(k, k) for k in keys], rows


# ---------------------------------------------------------------------------
# score --metric

def metric_report(summary: Mapping[str, Any], fmt: str = "text", *, total: int | None = None,
                  bootstrap: MetricIntervals | None = None, mean_only: bool = False) -> str:
    """:func:`corpus_report` of a :meth:`MetricCorpus.summary`; kept for the callers of its old name."""
    return corpus_report(summary, fmt, total=total, bootstrap=bootstrap, mean_only=mean_only)


# ---------------------------------------------------------------------------
# compare

def comparison_text(c: Comparison, score: str = "F1", name: str | None = None,
                    labels: tuple[str, str] = ("sys1", "sys2")) -> str:
    """One comparison as text (points are percentage points).

    >>> from smatchpp.statistics.significance import PairStats, compare
    >>> s = PairStats.from_counts([3, 4, 2], [4, 5, 4], [4, 4, 5])
    >>> print(comparison_text(compare(s, s, resamples=100, trials=100)))
    smatch: F1 sys1 69.23 [53.85, 88.89]  sys2 69.23 [53.85, 88.89]
      delta F1 (sys1 - sys2) +0.000 points, 95% interval [+0.00, +0.00]
      p-value: paired bootstrap 1.0000 (100 resamples), approximate randomization 1.0000 (100 trials)
    """
    (lo1, hi1), (lo2, hi2) = c.system_intervals
    one, two = labels
    lines = [f"{name or c.name}: {score} {one} {pct(c.f1[0])} {interval(lo1, hi1)}  "
             f"{two} {pct(c.f1[1])} {interval(lo2, hi2)}",
             f"  delta {score} ({one} - {two}) {points(c.delta)} points, {100 * c.level:g}% interval "
             f"{interval(*c.interval, signed)}",
             f"  p-value: paired bootstrap {pvalue(c.p_bootstrap)} ({c.resamples} resamples), "
             f"approximate randomization {pvalue(c.p_randomization)} ({c.trials} trials)"]
    if c.delta_range is not None:
        lines.append(f"  not every pair is certified: the tests use the lower bounds; the observed "
                     f"delta lies in {interval(*c.delta_range, signed)}")
    return "\n".join(lines)


def comparison_table_text(results: Sequence[Comparison], mode: str,
                          labels: tuple[str, str] = ("sys1", "sys2")) -> str:
    """The aspects' comparisons, one row each (F1 and delta in points).

    >>> from smatchpp.statistics.significance import PairStats, compare
    >>> s = PairStats.from_counts([3, 4, 2], [4, 5, 4], [4, 4, 5])
    >>> print(comparison_table_text([compare(s, s, resamples=50, trials=50, name="SRL")], "joint"))
    aspects (joint alignment)       F1 sys1  F1 sys2     delta  95% interval of delta  p bootstrap    p AR
    SRL                               69.23    69.23    +0.000  [+0.00, +0.00]              1.0000  1.0000
    """
    title = "subscores" if mode == "none" else f"aspects ({mode} alignment)"  # --coref-subscore
    lines = [f"{title:30s}  {'F1 ' + labels[0]:>7s}  {'F1 ' + labels[1]:>7s}     delta  "
             "95% interval of delta  p bootstrap    p AR"]
    for c in results:
        if c.extra.get("no_items") and not c.extra.get("vacuous"):  # nothing to compare: n/a, as the aspect's F1 (issue 33)
            lines.append(f"{c.name:30s}  {'n/a':>7s}  {'n/a':>7s}  {'n/a':>8s}  {'n/a':21s}  {'n/a':>11s}  "
                         f"{'n/a':>6s}" + _comparison_flags(c, "  "))
            continue
        lines.append(f"{c.name:30s}  {pct(c.f1[0]):>7s}  {pct(c.f1[1]):>7s}  {points(c.delta):>8s}  "
                     f"{interval(*c.interval, signed):21s}  {pvalue(c.p_bootstrap):>11s}  "
                     f"{pvalue(c.p_randomization):>6s}" + _comparison_flags(c, "  "))
    return "\n".join(lines)


def _comparison_flags(c: Comparison, sep: str) -> str:
    return (f"{sep}(lower bounds)" if not c.certified else "") + \
        (f"{sep}(empty on both sides: vacuous agreement)" if c.extra.get("vacuous")
         else f"{sep}(no items on either side)" if c.extra.get("no_items") else "")


def compare_report(json_summary: Mapping[str, Any], results: Sequence[Comparison], fmt: str = "text", *,
                   header: Sequence[str] = (), mode: str | None = None, score: str = "F1") -> str:
    """The summary of ``compare``: ``json_summary`` is the ``--format json`` object, ``results``
    its comparisons (the first is the whole score, the rest aspects of ``mode``), ``header``
    the text lines before them (signature first), ``score`` the compared score's name."""
    if fmt == "json":
        return emit_json(dict(json_summary))
    if fmt == "text":
        lines = list(header) + [comparison_text(results[0], score)]
        if len(results) > 1:
            lines.append(comparison_table_text(results[1:], mode or ""))
        return "\n".join(lines)
    level = f"{100 * results[0].level:g}%"
    head = ["", f"{score} sys1", f"{level} interval", f"{score} sys2", f"{level} interval",
            "delta", f"{level} interval of delta", "p bootstrap", "p AR", "note"]

    def row(c: Comparison) -> list[str]:
        (lo1, hi1), (lo2, hi2) = c.system_intervals
        none = c.f1[0] is None and c.f1[1] is None  # an aspect without items: no interval either
        return [c.name, pct(c.f1[0]), "n/a" if none else interval(lo1, hi1), pct(c.f1[1]),
                "n/a" if none else interval(lo2, hi2),
                points(c.delta), interval(*c.interval, signed), pvalue(c.p_bootstrap),
                pvalue(c.p_randomization), _comparison_flags(c, " ").strip()]
    first = results[0]
    notes = list(header) + [f"{first.resamples} bootstrap resamples, {first.trials} "
                            f"approximate-randomization trials, seed {first.seed}; "
                            "delta = sys1 - sys2 in points"]
    if first.delta_range is not None:
        notes.append("not every pair is certified: the tests use the lower bounds; the observed "
                     f"delta lies in {interval(*first.delta_range, signed)}")
    tables = [("", head, [row(first)])]
    if len(results) > 1:
        tables.append(("subscores" if mode == "none" else f"aspects ({mode} alignment)", head,
                       [row(c) for c in results[1:]]))
    return _document(fmt, notes, tables)


def systems_report(json_summary: Mapping[str, Any], blocks: Sequence[tuple[str, Sequence[Comparison]]],
                   fmt: str = "text", *, header: Sequence[str] = (), mode: str | None = None,
                   score: str = "F1") -> str:
    """The summary of ``compare`` with more than two systems: ``blocks`` are ``(label,
    comparisons)``, each system against ``sys1`` (the baseline; the first comparison is the
    whole score, the rest aspects of ``mode``), ``header`` the text lines before them."""
    if fmt == "json":
        return emit_json(dict(json_summary))
    if fmt == "text":
        lines = list(header)
        for label, results in blocks:
            lines.append(comparison_text(results[0], score, labels=("sys1", label)))
            if len(results) > 1:
                lines.append(comparison_table_text(results[1:], mode or "", ("sys1", label)))
        return "\n".join(lines)
    first = blocks[0][1][0]
    level = f"{100 * first.level:g}%"
    head = ["", "system", f"{score} sys1", f"{level} interval", f"{score} system", f"{level} interval",
            "delta", f"{level} interval of delta", "p bootstrap", "p AR", "note"]

    def row(label: str, c: Comparison) -> list[str]:
        (lo1, hi1), (lo2, hi2) = c.system_intervals
        none = c.f1[0] is None and c.f1[1] is None
        return [c.name, label, pct(c.f1[0]), "n/a" if none else interval(lo1, hi1), pct(c.f1[1]),
                "n/a" if none else interval(lo2, hi2), points(c.delta), interval(*c.interval, signed),
                pvalue(c.p_bootstrap), pvalue(c.p_randomization), _comparison_flags(c, " ").strip()]
    notes = list(header) + [f"{first.resamples} bootstrap resamples (the same for every system), "
                            f"{first.trials} approximate-randomization trials, seed {first.seed}; "
                            "delta = sys1 - system in points"]
    tables = [("", head, [row(label, results[0]) for label, results in blocks])]
    if any(len(results) > 1 for _, results in blocks):
        tables.append((f"aspects ({mode} alignment)", head,
                       [row(label, c) for label, results in blocks for c in results[1:]]))
    return _document(fmt, notes, tables)


# ---------------------------------------------------------------------------
# gap

def _gap_points(diff: float) -> str:
    """``0.05 points below exact`` / ``0.05 points above exact`` / ``equal to exact``."""
    if diff == 0:
        return "equal to exact"
    return f"{abs(100 * diff):.2f} points {'below' if diff > 0 else 'above'} exact"


def _indices(indices: Sequence[int], shown: int = 10) -> str:
    return ", ".join(str(i) for i in indices[:shown]) + (", ..." if len(indices) > shown else "")


def gap_report(s: Mapping[str, Any], fmt: str = "text", why_above: Callable[[str], str] = lambda key: "",
               unit: str = "triple") -> str:
    """The summary of ``gap`` (``s``: the report's ``to_json()``; ``why_above(key)``: what can make
    that tool score above a certified optimum; ``unit``: what a metric matches, ``clause`` for
    Counter)."""
    if fmt == "json":
        return emit_json(dict(s))
    head = [s["signature"],
            f"pairs: {s['pairs']}, exact certified optimal: {s['exact_certified']}, "
            f"exact micro F1 {pct(s['exact_f1'])}"]
    if s.get("interrupted"):
        head.insert(1, f"interrupted: {s['interrupted']['finished']} of "
                       f"{plural(s['interrupted']['total'], 'pair')} finished; "
                       "the report below covers those only")
    lines = list(head)
    for key, t in s["tools"].items():
        lost = t["lost_triples"]
        where = " on the pairs it read" if t["unreadable"] else ""
        lines.append(f"{t['label']}: F1 {pct(t['f1'])} ({_gap_points(t['f1_difference'])}{where}), "
                     f"{plural(t['wrong_pairs'], 'pair')} below the optimum, "
                     f"{lost:g} {unit if lost == 1 else unit + 's'} lost")
        if t["unreadable"]:
            shown = ", ".join(str(i) for i in t["unreadable"][:10])
            more = ", ..." if len(t["unreadable"]) > 10 else ""
            lines.append(f"  could not read {plural(len(t['unreadable']), 'pair')} (index {shown}{more}); "
                         f"compared on the other {plural(s['pairs'] - len(t['unreadable']), 'pair')} "
                         f"(exact F1 there {pct(t['exact_f1_same_pairs'])})")
        binned = f", rounded up to a multiple of {t['histogram_bin']:g}" if t["histogram_bin"] else ""
        lines.append(f"  gap histogram ({unit}s{binned}: pairs): "
                     + ", ".join(f"{k}: {v}" for k, v in t["histogram"].items()))
        above = len(t["above_optimum"])
        if above:
            lines.append(f"  {plural(above, 'pair')} {'scores' if above == 1 else 'score'} above the "
                         f"certified optimum (index {_indices(t['above_optimum'])}), " + why_above(key))
        beyond = len(t["above_lower_bound"])
        if beyond:
            lines.append(f"  {plural(beyond, 'pair')} {'scores' if beyond == 1 else 'score'} above the "
                         f"exact solver's best where a limit stopped it before a certificate "
                         f"(index {_indices(t['above_lower_bound'])}): the exact score there is a lower bound")
    if fmt == "text":
        return "\n".join(lines)
    notes = head + [line.strip() for line in lines[len(head):]
                    if line.startswith("  ") and "gap histogram" not in line]
    rows = [[t["label"], pct(t["f1"]), pct(t["exact_f1_same_pairs"]), signed(t["f1"] - t["exact_f1_same_pairs"]),
             str(t["wrong_pairs"]), f"{t['lost_triples']:g}",
             f"{len(t['unreadable'])} pairs unreadable" if t["unreadable"] else ""]
            for t in s["tools"].values()]
    return _document(fmt, notes, [("", ["tool", "micro F1", "exact micro F1", "difference",
                                        "pairs below optimum", f"{unit}s lost", "note"], rows)])


def problem_sizes(corpus) -> str:
    """Per pair and total problem sizes before/after compression, with time and stage, of a
    :class:`~smatchpp.alignment.score.CorpusScore`'s scored pairs (``score --stats``)."""
    keys = ("vars_a", "vars_b", "pairs_before", "pairs_after", "edges_before", "edges_after",
            "components_before", "components_after", "pairs_fixed", "pairs_dropped",
            "elimination_steps", "mip_pairs", "symmetric_vars")
    head = "index " + " ".join(f"{k:>17s}" for k in keys) + "   seconds stage"
    lines = [head]
    total = dict.fromkeys(keys, 0)
    for p in corpus.scored:
        s = {k: p.stats.get(k, "-") for k in keys}
        for k in keys:
            if isinstance(s[k], int):
                total[k] += s[k]
        lines.append(f"{p.index:5d} " + " ".join(f"{s[k]!s:>17s}" for k in keys)
                     + f" {p.seconds:9.3f} {p.stage}")
    lines.append("total " + " ".join(f"{total[k]!s:>17s}" for k in keys)
                 + f" {sum(p.seconds for p in corpus.scored):9.3f}")
    lines.append("('-': not reached; e.g. certified by a bound before compression was needed. "
                 "pairs_dropped: ruled out by LP reduced costs in the last elimination step; "
                 "elimination_steps: problems solved without them; mip_pairs: sent to the MIP; "
                 "symmetric_vars: interchangeable variables the MIP ordered)")
    return "\n".join(lines)

"""Results as tables: pandas data frames, Arrow tables, Parquet and CSV files, and back.

The result types (:class:`~smatchpp.alignment.score.PairScore` / :class:`~smatchpp.alignment.score.CorpusScore`
of Smatch, :class:`~smatchpp.metrics.base.MetricPair` / :class:`~smatchpp.metrics.base.MetricCorpus`
of the other metrics) give their rows (the dicts of ``--pairs-out``) and their signature; the
functions here turn them into tables and back.  Each ``to_pandas``/``to_arrow``/``from_pandas``
method of a result type is one call into this module.

* A row's nested dicts (the aspects: ``{"aspects": {"Concepts": {"f1": ...}}}``) become columns
  named by their path (``aspects.Concepts.f1``); a list (an alignment) is kept as JSON text.
* The signature rides along: ``frame.attrs["signature"]`` (pandas), the schema metadata key
  ``smatchpp.core.signature`` (Arrow, and so Parquet), a first line ``# smatchpp signature: ...``
  (CSV).  A corpus summary (micro/macro, aspect summary, bootstrap intervals) is
  ``frame.attrs["summary"]`` / ``smatchpp.summary`` (JSON) / ``# smatchpp summary: ...``.
* :func:`rows` reads any of them back: ``(rows, signature, summary)``, with a missing value
  (NaN, an empty CSV cell) as ``None`` and nested dicts and lists restored.

pandas and pyarrow are imported when a table is made (extra ``tables``).

>>> rows_in = [{"index": 0, "id": "a", "f1": 0.75, "alignment": [["a", "x"]],
...             "aspects": {"Concepts": {"f1": 1.0, "test": 2}}},
...            {"index": 1, "id": None, "f1": None, "alignment": [], "aspects": {"Concepts": {"f1": None, "test": 0}}}]
>>> frame = to_pandas(rows_in, "smatchpp:x|metric:demo")
>>> list(frame.columns), frame.attrs["signature"]
(['index', 'id', 'f1', 'alignment', 'aspects.Concepts.f1', 'aspects.Concepts.test'], 'smatchpp:x|metric:demo')
>>> rows(frame) == (rows_in, "smatchpp:x|metric:demo", None)
True
>>> rows(to_arrow(rows_in, "sig", {"micro": {"f1": 0.5}}))[1:]
('sig', {'micro': {'f1': 0.5}})
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Iterable, Sequence

__all__ = ["SUFFIXES", "flatten", "unflatten", "to_pandas", "to_arrow", "rows", "write", "read", "summary_html",
           "table_format"]

#: ``--pairs-out`` endings written as tables (any other ending: JSON lines)
SUFFIXES = (".parquet", ".csv")
_SIGNATURE, _SUMMARY = "signature", "summary"
_ARROW_SIGNATURE, _ARROW_SUMMARY = b"smatchpp.core.signature", b"smatchpp.summary"
_CSV_SIGNATURE, _CSV_SUMMARY = "# smatchpp signature: ", "# smatchpp summary: "
#: columns that hold JSON text (lists) in a table
_JSON_PREFIX = "json:"


def table_format(path: str) -> str | None:
    """``"parquet"`` or ``"csv"`` by the file name's ending, ``None`` for JSON lines.

    >>> table_format("p.parquet"), table_format("p.CSV"), table_format("p.jsonl"), table_format("-")
    ('parquet', 'csv', None, None)
    """
    suffix = Path(path).suffix.lower()
    return suffix[1:] if suffix in SUFFIXES else None


def flatten(row: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """A row with nested dicts as dotted keys and lists as JSON text (marked ``json:``; so is a
    dict whose keys cannot be a path: empty, or with a dot in a key).

    >>> flatten({"a": 1, "b": {"c": 2, "d": {"e": 3}}, "l": [1, 2], "m": {"x.y": 1}})
    {'a': 1, 'b.c': 2, 'b.d.e': 3, 'l': 'json:[1, 2]', 'm': 'json:{"x.y": 1}'}
    """
    out: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            if not value or any("." in str(k) or not isinstance(k, str) for k in value):
                out[name] = _JSON_PREFIX + json.dumps(value)  # kept whole: its keys cannot be paths
            else:
                out.update(flatten(value, f"{name}."))
        elif isinstance(value, (list, tuple)):
            out[name] = _JSON_PREFIX + json.dumps(value)
        else:
            out[name] = value
    return out


def _plain(value: Any) -> Any:
    """A table cell as Python: NaN/NA -> None, numpy scalars -> int/float/bool, JSON text -> lists."""
    if value is None:
        return None
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, str) and value.startswith(_JSON_PREFIX):
        return json.loads(value[len(_JSON_PREFIX):])
    try:  # pandas.NA
        if value != value:
            return None
    except TypeError:
        return None
    return value


def unflatten(row: dict[str, Any], keep_none: Iterable[str] = ()) -> dict[str, Any]:
    """The nested row :func:`flatten` made (cells as Python values: NaN is ``None``).

    >>> unflatten({'a': 1, 'b.c': 2, 'b.d.e': 3.0, 'l': 'json:[1, 2]'})
    {'a': 1, 'b': {'c': 2, 'd': {'e': 3.0}}, 'l': [1, 2]}
    """
    out: dict[str, Any] = {}
    for key, value in row.items():
        parts = key.split(".")
        node = out
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = _plain(value)
    return out


def to_pandas(rows_in: Sequence[dict[str, Any]], signature: str | None, summary: dict[str, Any] | None = None):
    """A :class:`pandas.DataFrame` of ``rows_in`` (one row each, :func:`flatten`), the signature in
    ``attrs["signature"]`` and ``summary`` (if any) in ``attrs["summary"]``."""
    import pandas as pd

    flat = [flatten(r) for r in rows_in]
    columns: list[str] = []
    for r in flat:
        columns.extend(k for k in r if k not in columns)
    frame = pd.DataFrame([{k: r.get(k) for k in columns} for r in flat], columns=columns)
    if signature is not None:
        frame.attrs[_SIGNATURE] = signature
    if summary is not None:
        frame.attrs[_SUMMARY] = summary
    return frame


def to_arrow(rows_in: Sequence[dict[str, Any]], signature: str | None, summary: dict[str, Any] | None = None):
    """A :class:`pyarrow.Table` of ``rows_in``, the signature (and summary, as JSON) in its schema
    metadata (``smatchpp.core.signature``, ``smatchpp.summary``)."""
    import pyarrow as pa

    frame = to_pandas(rows_in, signature)
    table = pa.Table.from_pandas(frame, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta.pop(b"pandas", None)  # pandas' own record (with attrs) is not needed to read it back
    if signature is not None:
        meta[_ARROW_SIGNATURE] = signature.encode()
    if summary is not None:
        meta[_ARROW_SUMMARY] = json.dumps(summary).encode()
    return table.replace_schema_metadata(meta)


def rows(table) -> tuple[list[dict[str, Any]], str | None, dict[str, Any] | None]:
    """``(rows, signature, summary)`` of a data frame or an Arrow table made here."""
    if hasattr(table, "schema") and hasattr(table, "to_pylist"):  # pyarrow.Table
        meta = table.schema.metadata or {}
        signature = meta.get(_ARROW_SIGNATURE)
        summary = meta.get(_ARROW_SUMMARY)
        records = table.to_pylist()
        return ([unflatten(r) for r in records], signature.decode() if signature else None,
                json.loads(summary) if summary else None)
    records = table.to_dict("records")
    return ([unflatten(r) for r in records], table.attrs.get(_SIGNATURE), table.attrs.get(_SUMMARY))


def write(path: str | Path, rows_in: Sequence[dict[str, Any]], signature: str,
          summary: dict[str, Any] | None = None) -> None:
    """Write ``rows_in`` as Parquet or CSV, by the ending of ``path`` (:func:`table_format`); the
    signature (and summary) go with it.  Errors name the path."""
    kind = table_format(str(path))
    if kind is None:
        raise ValueError(f"{path}: not a table file (ending {', '.join(SUFFIXES)})")
    try:
        if kind == "parquet":
            import pyarrow.parquet as pq

            pq.write_table(to_arrow(rows_in, signature, summary), str(path))
            return
        frame = to_pandas(rows_in, signature)
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(_CSV_SIGNATURE + signature + "\n")
            if summary is not None:
                handle.write(_CSV_SUMMARY + json.dumps(summary) + "\n")
            frame.to_csv(handle, index=False)
    except OSError as exc:
        raise OSError(exc.errno, f"writing {path}: {exc.strerror}") from None


def read(path: str | Path) -> tuple[list[dict[str, Any]], str | None, dict[str, Any] | None]:
    """``(rows, signature, summary)`` of a Parquet or CSV file :func:`write` made."""
    kind = table_format(str(path))
    if kind == "parquet":
        import pyarrow.parquet as pq

        return rows(pq.read_table(str(path)))
    if kind != "csv":
        raise ValueError(f"{path}: not a table file (ending {', '.join(SUFFIXES)})")
    import pandas as pd

    signature = summary = None
    with open(path, encoding="utf-8", newline="") as handle:
        position = handle.tell()
        line = handle.readline()
        while line.startswith("# smatchpp "):
            if line.startswith(_CSV_SIGNATURE):
                signature = line[len(_CSV_SIGNATURE):].rstrip("\r\n")
            elif line.startswith(_CSV_SUMMARY):
                summary = json.loads(line[len(_CSV_SUMMARY):])
            position = handle.tell()
            line = handle.readline()
        handle.seek(position)
        frame = pd.read_csv(handle, keep_default_na=False, na_values=[""],
                            dtype={"id": "string"})
    found, _, _ = rows(frame)
    return found, signature, summary


def summary_html(summary: dict[str, Any]) -> str:
    """A corpus summary (``summary()`` of a corpus result) as an HTML table for a notebook: the
    signature, then one row per value (nested keys joined by dots; aspects and bootstrap
    intervals included).

    >>> html = summary_html({"signature": "s|x:<1>", "micro": {"f1": 0.5}, "errors": []})
    >>> "<code>s|x:&lt;1&gt;</code>" in html and "<td>micro.f1</td><td>0.5</td>" in html
    True
    """
    from html import escape

    rows_out = []
    for key, value in flatten({k: v for k, v in summary.items() if k != "signature"}).items():
        if isinstance(value, str) and value.startswith(_JSON_PREFIX):
            value = value[len(_JSON_PREFIX):]
        rows_out.append(f"<tr><td>{escape(str(key))}</td><td>{escape(str(value))}</td></tr>")
    signature = summary.get("signature")
    return ("<div class=\"smatchpp-summary\">"
            + (f"<p>signature: <code>{escape(str(signature))}</code></p>" if signature else "")
            + "<table><thead><tr><th>key</th><th>value</th></tr></thead><tbody>"
            + "".join(rows_out) + "</tbody></table></div>")

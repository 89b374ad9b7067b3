"""A self-contained HTML report of many :class:`~smatchpp.explain.Explanation` objects.

One file, inline CSS and vanilla JavaScript, no network: it works opened from
disk and attached to an e-mail.  The index is a table (one row per pair:
index, id, sentence, P/R/F1, status and interval, hill-climber gap) that sorts
on a click on its header and filters by text, status and gap.  Clicking a row
opens the pair (URL hash ``#pair-<index>``): both graphs side by side
(:mod:`.drawing`, or PENMAN text with coloured variables when a graph has more
than ``max_draw`` variables), matched and unmatched triples of each side, the
certificate, and the hill-climber's alignment beside the optimal one with the
triples it lost.  Each pair's section is kept as the text of a
``<script type="text/html">`` and parsed only when opened, so reports of
thousands of pairs stay quick to load; in large reports the sections are also
deflated and base64-encoded (about 5 times smaller, so that a report of 1,000
pairs still fits in an e-mail) and unpacked by the browser's own
``DecompressionStream`` (no library, no network).

>>> from smatchpp.explain import explain_pair
>>> page = render_report([explain_pair("(d / dog)", "(c / cat)")], title="demo")
>>> page.startswith("<!DOCTYPE html>") and 'id="t-0"' in page and "http" not in page
True
"""

from __future__ import annotations

import base64
import json
import time
import zlib
from html import escape
from typing import Sequence

import numpy as np

from ..core.version import __version__
from ..alignment.config import Config
from ..reporting.present import pct
from ..alignment.score import CorpusScore
from .drawing import colour_css, draw
from .model import Explanation
from .penman_view import branch_triples, layout_tree, penman_lines

__all__ = ["render_report", "render_pair", "in_frame", "notebook_html", "write_report", "script_json", "MAX_DRAW",
           "COMPRESS_ABOVE"]

#: graphs with more variables than this are shown as PENMAN text instead of a drawing
MAX_DRAW = 80

#: graphs with more variables than this are drawn one above the other rather than side by side
STACK_ABOVE = 15

#: above this many characters of pair sections, they are stored deflated (zlib) and base64-encoded,
#: about 5 times smaller, and unpacked by the browser's DecompressionStream when a pair is opened
COMPRESS_ABOVE = 4_000_000


def _g(x: float) -> str:
    return f"{x:g}"


def _tags(e: Explanation, hc: bool = False) -> tuple[dict[str, int], dict[str, int]]:
    ta, tb = {}, {}
    for k, (va, vb) in enumerate(e.aligned_pairs(hc), start=1):
        ta[va], tb[vb] = k, k
    return ta, tb


def _var(name: str, k: int | None) -> str:
    if not k:
        return f'<span class="v un" title="unaligned">{escape(name)}</span>'
    return f'<span class="v k{k}">{escape(name)}</span>'


def _penman(e: Explanation, side: str, tags: dict[str, int]) -> str:
    raw, g, mask = (e.raw_a, e.a, e.opt.mask_a) if side == "a" else (e.raw_b, e.b, e.opt.mask_b)
    ok = {v: bool(mask[i]) for i, v in enumerate(g.variables)}
    out = []
    lines = penman_lines(raw, g)
    branch = branch_triples(lines, g)
    for line in lines:
        parts = []
        for s in line:
            if s.kind in ("var", "ref"):
                parts.append(_var(s.text, tags.get(s.var or "")))
            elif s.kind == "concept":
                parts.append(f'<span class="{"c" if ok.get(s.var or "", True) else "c u"}">{escape(s.text)}</span>')
            elif s.kind == "role":
                t = branch.get(id(s))
                cls = "r" if t is None or mask[t] else "r u"
                parts.append(f'<span class="{cls}">{escape(s.text)}</span>')
            else:
                parts.append(escape(s.text))
        out.append("".join(parts))
    return '<pre class="penman">' + "\n".join(out) + "</pre>"


def _concepts(g) -> dict[str, str]:
    return dict(zip(g.variables, g.concepts))


def _triple(t: tuple, concepts: dict[str, str], tags: dict[str, int]) -> str:
    """A triple with its variables coloured and followed by their concepts (``vx2 / thing``),
    except the variable of an instance triple, whose concept is the triple's own target."""
    s, r, o = t

    def cell(x: str, named: bool = True) -> str:
        if x not in concepts:
            return escape(x)
        concept = f'<span class="cn"> / {escape(concepts[x])}</span>' if named else ""
        return _var(x, tags.get(x)) + concept

    return f"({cell(s, r != 'instance')}, {escape(r)}, {cell(o)})"


def _triple_list(e: Explanation, side: str, which: list[int], tags, cls: str) -> str:
    g = e.a if side == "a" else e.b
    ts = g.triples()
    if not which:
        return '<p class="none">none</p>'
    cm = _concepts(g)
    return f'<ul class="tl {cls}">' + "".join(f"<li>{_triple(ts[t], cm, tags)}</li>" for t in which) + "</ul>"


def _matched_table(e: Explanation, ta, tb) -> str:
    A, B = e.a.triples(), e.b.triples()
    ca, cb = _concepts(e.a), _concepts(e.b)
    rows = [f"<tr><td>{_triple(A[t], ca, ta)}</td><td>{_triple(B[int(e.opt.partner_a[t])], cb, tb)}</td></tr>"
            for t in np.flatnonzero(e.opt.mask_a)]
    return (f'<details><summary>matched triples ({len(rows)})</summary><table class="mt">'
            "<tr><th>A (test)</th><th>B (gold)</th></tr>" + "".join(rows) + "</table></details>")


def _numbers(e: Explanation) -> str:
    p, r, f = e.score.precision, e.score.recall, e.score.f1
    items = [("matched", _g(e.matched), e.matched), ("test_triples", str(e.test_triples), e.test_triples),
             ("gold_triples", str(e.gold_triples), e.gold_triples), ("precision", pct(p), p),
             ("recall", pct(r), r), ("f1", pct(f), f), ("lower", _g(e.matched), e.matched),
             ("upper", _g(e.upper), e.upper), ("status", e.status, e.status),
             ("stage", e.stage or "-", e.stage), ("hc_matched", _g(e.hc_matched), e.hc_matched),
             ("hc_gap", _g(e.hc_gap), e.hc_gap)]
    labels = {"matched": "matched", "test_triples": "test triples (A)", "gold_triples": "gold triples (B)",
              "precision": "P", "recall": "R", "f1": "F1", "lower": "lower", "upper": "upper bound",
              "status": "status", "stage": "stage", "hc_matched": "hill-climber matched",
              "hc_gap": "hill-climber gap"}
    return '<dl class="nums">' + "".join(
        f'<div><dt>{labels[k]}</dt><dd data-k="{k}" data-v="{escape(str(v))}">{escape(text)}</dd></div>'
        for k, text, v in items) + "</dl>"


def _graphs(e: Explanation, ta, tb, max_draw: int) -> str:
    cols = []
    for side, g, tags, mask, partner, other, name in (
            ("a", e.a, ta, e.opt.mask_a, e.opt.partner_a, e.b, "A (test)"),
            ("b", e.b, tb, e.opt.mask_b, e.opt.partner_b, e.a, "B (gold)")):
        if len(g.variables) <= max_draw:
            raw = e.raw_a if side == "a" else e.raw_b
            body = draw(g, mask.tolist(), tags, side, layout_tree(raw, g) if raw is not None else None)
        else:
            body = (f'<p class="note">{len(g.variables)} variables: too large to draw '
                    f"(limit {max_draw}); PENMAN with aligned variables coloured.</p>" + _penman(e, side, tags))
        n_un = len(g.variables) - len(tags)
        cols.append(f'<div class="col"><h3>{name}: {len(g.variables)} variables, '
                    f"{len(tags)} aligned, {n_un} unaligned</h3>"
                    f'<div class="draw">{body}</div></div>')
    # big graphs one above the other, each as wide as the page, not squeezed into half of it
    big = max(len(e.a.variables), len(e.b.variables)) > STACK_ABOVE
    return f'<div class="pair{" stack" if big else ""}">' + "".join(cols) + "</div>"


def _hc(e: Explanation, ta, tb) -> str:
    head = (f'<h3>Hill-climber</h3><p>{escape(e.hc_name)}: matched {_g(e.hc_matched)}, '
            f"F1 {pct(e.hc_f1)}, gap {_g(e.hc_gap)} triple(s) below the best alignment.</p>")
    if not e.alignments_differ:
        return head + "<p>It found the same alignment.</p>"
    opt = dict(e.aligned_pairs())
    hc = dict(e.aligned_pairs(hc=True))
    rows = []
    for v in e.a.variables:
        o, h = opt.get(v), hc.get(v)
        cls = ' class="diff"' if o != h else ""
        rows.append(f"<tr{cls}><td>{_var(v, ta.get(v))}</td><td>{_var(o, tb.get(o)) if o else '-'}</td>"
                    f"<td>{_var(h, tb.get(h)) if h else '-'}</td></tr>")
    n_diff = sum(opt.get(v) != hc.get(v) for v in e.a.variables)
    note = ("" if e.hc_gap > 0 else
            "<p>Its alignment differs but is worth as much: another optimum.</p>")
    return (head + note + f"<p>{n_diff} variable(s) of A are aligned differently "
            "(highlighted; colours are those of the optimal alignment).</p>"
            '<table class="al"><tr><th>A variable</th><th>optimal: B</th><th>hill-climber: B</th></tr>'
            + "".join(rows) + "</table>"
            + '<div class="pair"><div class="col"><h4>triples of A the hill-climber lost</h4>'
            + _triple_list(e, "a", e.lost_a(), ta, "lost")
            + "<h4>triples of A only the hill-climber matches</h4>" + _triple_list(e, "a", e.gained_a(), ta, "")
            + '</div><div class="col"><h4>triples of B the hill-climber lost</h4>'
            + _triple_list(e, "b", e.lost_b(), tb, "lost")
            + "<h4>triples of B only the hill-climber matches</h4>" + _triple_list(e, "b", e.gained_b(), tb, "")
            + "</div></div>")


def _section(e: Explanation, max_draw: int) -> str:
    ta, tb = _tags(e)
    title = f"Pair {e.index}" + (f" (id {escape(e.id)})" if e.id is not None else "")
    snt = f'<p class="snt">{escape(e.sentence)}</p>' if e.sentence else ""
    free = ""
    if e.a.free or e.b.free:
        free = "<p>Triples without variables (preset smatchpp18-lossy) are in the lists below.</p>"
    return (f'<section class="pairview" data-index="{e.index}"><p><a href="#">&larr; index</a></p>'
            f"<h2>{title}</h2>{snt}{_numbers(e)}"
            f'<p class="cert">Certificate: <b>{escape(e.certificate())}</b></p>'
            '<p class="legend">Aligned variables share a colour across the two graphs (hover one to '
            'highlight its partner); <span class="v un">dashed</span> variables are unaligned; '
            '<span class="c u">red</span> concepts, roles and values and dashed red arrows are unmatched triples. '
            'Click a drawing to switch between fit-to-width and full size.</p>'
            + _graphs(e, ta, tb, max_draw) + free
            + '<div class="pair"><div class="col"><h3>unmatched triples of A (test): '
            f"{len(e.unmatched_a())}</h3>" + _triple_list(e, "a", e.unmatched_a(), ta, "unm")
            + '</div><div class="col"><h3>unmatched triples of B (gold): '
            f"{len(e.unmatched_b())}</h3>" + _triple_list(e, "b", e.unmatched_b(), tb, "unm")
            + "</div></div>" + _soft(e, ta, tb) + _coreference(e) + _matched_table(e, ta, tb)
            + _hc(e, ta, tb) + "</section>")


def _coreference(e: Explanation) -> str:
    """docSmatch's coreference nodes and edges of both documents, unmatched ones marked."""
    marks = e.coreference_marks()
    if marks is None:
        return ""

    def items(side: list[tuple[str, bool]]) -> str:
        if not side:
            return '<p class="none">none</p>'
        return '<ul class="tl">' + "".join(
            f'<li><span class="{"c" if ok else "c u"}">{escape(text)}</span></li>' for text, ok in side) + "</ul>"

    found = sum(ok for _, ok in marks[1])
    return (f"<details open><summary>coreference items (docSmatch's --coref-subscore): test {len(marks[0])}, "
            f"gold {len(marks[1])}, matched {found}</summary>"
            '<p class="note">Coreference nodes (coref-entity, implicit-role) and the edges docSmatch counts '
            '(into a node reached from several sentences, :coref, cross-sentence :part/:subset); '
            '<span class="c u">red</span>: not matched under the optimal alignment.</p>'
            f'<div class="pair"><div class="col"><h4>A (test)</h4>{items(marks[0])}</div>'
            f'<div class="col"><h4>B (gold)</h4>{items(marks[1])}</div></div></details>')


def _soft(e: Explanation, ta, tb) -> str:
    """Soft concept matches (S2Match): aligned variables whose different concepts earn credit."""
    if not e.soft:
        return ""
    rows = "".join(f"<tr><td>{_var(e.a.variables[i], ta.get(e.a.variables[i]))} / {escape(e.a.concepts[i])}</td>"
                   f"<td>{_var(e.b.variables[j], tb.get(e.b.variables[j]))} / {escape(e.b.concepts[j])}</td>"
                   f"<td>{v:.3f}</td></tr>" for i, j, v in e.soft)
    return (f"<h3>soft concept matches under {escape(e.matcher)} ({len(e.soft)})</h3>"
            "<p class=\"note\">These instance triples are listed as unmatched above (their labels "
            "differ) but earn the similarity shown.</p><table class=\"al\"><tr><th>A</th><th>B</th>"
            f"<th>similarity</th></tr>{rows}</table>")


def _row(e: Explanation, extra: dict[str, dict[int, float]]) -> str:
    p, r, f = e.score.precision, e.score.recall, e.score.f1
    interval = f"[{_g(e.matched)}, {_g(e.upper)}]"
    snt = escape(e.sentence or "")
    cells = [(e.index, str(e.index)), (escape(e.id or ""), escape(e.id or "")), (snt, snt),
             (p, pct(p)), (r, pct(r)), (f, pct(f)), (e.matched, _g(e.matched)),
             (e.test_triples, str(e.test_triples)), (e.gold_triples, str(e.gold_triples)),
             (e.status, e.status), (e.upper - e.matched, interval), (e.hc_gap, _g(e.hc_gap))]
    cells += [(col.get(e.index, ""), _g(col[e.index]) if e.index in col else "-") for col in extra.values()]
    tds = "".join(f'<td data-v="{v}"{_hot(k, v)}>{text}</td>' for k, (v, text) in enumerate(cells))
    # the gap filter: ours, and any tool of a gap file, below the best alignment
    gap = max([e.hc_gap] + [col[e.index] for col in extra.values() if e.index in col])
    return f'<tr data-i="{e.index}" data-status="{e.status}" data-gap="{max(gap, 0):g}">{tds}</tr>'


def _hot(column: int, value) -> str:
    """Gap columns (the 12th on) show a positive gap in red."""
    return ' class="gap"' if column >= 11 and isinstance(value, (int, float)) and value > 0 else ""


_CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222}
h1{font-size:1.4em}h2{font-size:1.25em;margin:.3em 0}h3{font-size:1em;margin:.6em 0 .3em}h4{margin:.5em 0 .2em}
.meta{color:#555;font-size:.9em;overflow-wrap:anywhere}
#controls{margin:.6em 0;display:flex;gap:1em;align-items:center;flex-wrap:wrap}
table{border-collapse:collapse}
#idx th{cursor:pointer;background:#eee;position:sticky;top:0;user-select:none}
#idx th.asc::after{content:" \\25B2"}#idx th.desc::after{content:" \\25BC"}
#idx td,#idx th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}
#idx td:nth-child(2),#idx td:nth-child(3),#idx td:nth-child(10),#idx th:nth-child(3){text-align:left}
#idx td:nth-child(3){max-width:36em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
#idx tbody tr{cursor:pointer}#idx tbody tr:hover{background:#f3f7ff}
#idx td.gap{color:#c62828;font-weight:bold}
.nums{display:flex;flex-wrap:wrap;gap:.3em 1.4em;margin:.4em 0}.nums div{display:flex;gap:.4em}
.nums dt{color:#666}.nums dd{margin:0;font-weight:600}
.snt{font-style:italic}.cert{margin:.3em 0}.legend,.note{color:#555;font-size:.9em}
.pair{display:flex;gap:1.5em;align-items:flex-start}.col{flex:1 1 0;min-width:0}.pair.stack{flex-direction:column;align-items:stretch}
.draw{overflow:auto;max-height:75vh;border:1px solid #ddd;background:#fcfcfc;cursor:zoom-in}
.draw svg{max-width:100%;height:auto}.draw.full{cursor:zoom-out}.draw.full svg{max-width:none}
svg.g text{font:12px monospace;text-anchor:middle}
svg.g .e path{fill:none;stroke:#666;stroke-width:1.3}
svg.g .e text,svg.g .top text{fill:#555;font-size:11px;stroke:#fcfcfc;stroke-width:3px;paint-order:stroke;stroke-linejoin:round}
svg.g .e.u path{stroke:#c62828;stroke-dasharray:5 3;stroke-width:2}
svg.g .e.u text{fill:#c62828;font-weight:bold}
svg.g .n rect{stroke-width:1.5;fill:var(--f);stroke:var(--s)}svg.g .vn{fill:var(--s)}
svg.g .n.un rect{stroke-dasharray:4 3;fill:#fff;stroke:#888}svg.g .n.un .vn{fill:#555}
svg.g .c.u{fill:#c62828;text-decoration:underline;font-weight:bold}
svg.g .a rect{fill:#f4f4f4;stroke:#999}svg.g .a.u rect{stroke:#c62828;stroke-dasharray:4 2;fill:#fdecea}
svg.g .a.u text{fill:#c62828}
svg.g .top.u text{fill:#c62828;font-weight:bold}
svg.g .n.hl rect{stroke-width:4}
pre.penman{font:12px/1.35 monospace;margin:.4em;white-space:pre}
.v{border-radius:3px;padding:0 2px;font-family:monospace;background:var(--f);color:var(--s)}
.v.un{border:1px dashed #888;color:#555;background:none}.v.hl{outline:2px solid #000}
span.c.u,span.r.u{color:#c62828;text-decoration:underline}.r{color:#555}span.r.u{font-weight:bold}
ul.tl{font:12px monospace;padding-left:1.4em;margin:.2em 0}ul.unm li,ul.lost li{color:#c62828}
table.mt td,table.al td,table.al th,table.mt th{font:12px monospace;padding:1px 8px;border-bottom:1px solid #eee}
table.al tr.diff{background:#fff3cd}
.none{color:#888;margin:.2em 0}
table.sum td,table.sum th{padding:1px 10px;text-align:right;border-bottom:1px solid #ddd}table.sum th:first-child{text-align:left}.cn{color:#666}
"""

_JS = r"""
(function(){
  var idx=document.getElementById('index'), view=document.getElementById('view');
  var tbody=document.querySelector('#idx tbody');
  var seq=0;
  function text(t){  // a section: plain HTML text, or deflated and base64-encoded
    if(t.getAttribute('type')!=='application/x-deflate-base64') return Promise.resolve(t.textContent);
    var raw=atob(t.textContent.trim()), bin=new Uint8Array(raw.length);
    for(var i=0;i<raw.length;i++) bin[i]=raw.charCodeAt(i);
    return new Response(new Blob([bin]).stream().pipeThrough(new DecompressionStream('deflate'))).text();
  }
  function show(){
    var m=/^#pair-(\d+)$/.exec(location.hash);
    var t=m&&document.getElementById('t-'+m[1]), my=++seq;
    if(!t){view.textContent='';idx.hidden=false;view.hidden=true;return;}
    text(t).then(function(h){
      if(my!==seq) return;
      view.innerHTML=h;idx.hidden=true;view.hidden=false;window.scrollTo(0,0);
    },function(err){
      view.textContent='This browser cannot unpack the pair (it needs DecompressionStream): '+err;
      idx.hidden=true;view.hidden=false;
    });
  }
  window.addEventListener('hashchange',show);
  tbody.addEventListener('click',function(ev){
    var tr=ev.target.closest('tr'); if(tr) location.hash='pair-'+tr.getAttribute('data-i');
  });
  var ths=document.querySelectorAll('#idx th');
  ths.forEach(function(th,col){
    th.addEventListener('click',function(){
      var asc=!th.classList.contains('asc');
      ths.forEach(function(h){h.classList.remove('asc','desc');});
      th.classList.add(asc?'asc':'desc');
      var num=th.getAttribute('data-type')==='num', sign=asc?1:-1;
      var keyed=Array.prototype.map.call(tbody.rows,function(r){
        var v=r.cells[col].getAttribute('data-v'), k;
        if(num){k=parseFloat(v); if(isNaN(k)) k=-Infinity;} else k=v;
        return [k, parseInt(r.getAttribute('data-i')), r];
      });
      keyed.sort(function(a,b){
        var c=num?(a[0]<b[0]?-1:(a[0]>b[0]?1:0)):a[0].localeCompare(b[0]);
        return c!==0?sign*c:sign*(a[1]-b[1]);
      });
      var frag=document.createDocumentFragment();
      keyed.forEach(function(x){frag.appendChild(x[2]);});
      tbody.appendChild(frag);
    });
  });
  var q=document.getElementById('q'), st=document.getElementById('status'), gap=document.getElementById('gaponly');
  function filter(){
    var s=q.value.toLowerCase(), want=st.value, g=gap.checked, shown=0;
    Array.prototype.forEach.call(tbody.rows,function(r){
      var ok=(!s||r.textContent.toLowerCase().indexOf(s)>=0)&&(!want||r.getAttribute('data-status')===want)
             &&(!g||r.getAttribute('data-gap')!=='0');
      r.hidden=!ok; if(ok) shown++;
    });
    document.getElementById('shown').textContent=shown;
  }
  [q,st,gap].forEach(function(el){el.addEventListener('input',filter);el.addEventListener('change',filter);});
  smatchppView(view);
  filter(); show();
})();
"""

#: what a pair's view does (the report's and :func:`render_pair`'s): hovering a variable lights
#: its partner; a click on a drawing switches between fit-to-width and full size
_VIEW_JS = r"""
function smatchppView(view){
  view.addEventListener('mouseover',function(ev){
    var el=ev.target.closest('.v,.n'); if(!el) return;
    var m=/(?:^| )(k\d+)(?: |$)/.exec(el.getAttribute('class')||''); if(!m) return;
    view.querySelectorAll('.hl').forEach(function(x){x.classList.remove('hl');});
    view.querySelectorAll('.'+m[1]).forEach(function(x){x.classList.add('hl');});
  });
  view.addEventListener('click',function(ev){
    var d=ev.target.closest('.draw'); if(d&&d.querySelector('svg')) d.classList.toggle('full');
  });
}
"""

_COLUMNS = (("#", "num"), ("id", "text"), ("sentence", "text"), ("P", "num"), ("R", "num"),
            ("F1", "num"), ("matched", "num"), ("test", "num"), ("gold", "num"), ("status", "text"),
            ("interval", "num"), ("HC gap", "num"))


def script_json(value) -> str:
    r"""JSON to embed in a ``<script>`` element: ``<``, ``>`` and ``&`` as ``\u003c`` etc.

    Escaping only ``</`` is not enough: ``<!--<script`` in a string (a graph id, say) puts the
    HTML parser into the script's "double escaped" state, and the page's next ``</script>``
    then no longer ends this element, which swallows the page's own code.  In JSON these three
    characters occur only inside strings, where ``\u003c`` reads back as ``<``.

    >>> print(script_json({"id": "<!--<script>&"}))
    {"id": "\u003c!--\u003cscript\u003e\u0026"}
    >>> json.loads(script_json({"id": "<!--<script>"}))["id"]
    '<!--<script>'
    """
    return (json.dumps(value, sort_keys=True).replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026"))


def _inert(html: str) -> str:
    """A section as the text of a ``<script type="text/html">``: the browser does not parse it
    until the pair is opened (every user string in it is escaped, so only a literal
    ``</script`` could end it early)."""
    return html.replace("</script", "<\\/script")


def _sections(es: list[Explanation], max_draw: int, compress: bool | None) -> str:
    """Every pair's section as an unparsed script; deflated + base64 when large (see module doc)."""
    html = [_section(e, max_draw) for e in es]
    if compress is None:
        compress = sum(len(h) for h in html) > COMPRESS_ABOVE
    if not compress:
        return "".join(f'<script type="text/html" id="t-{e.index}">{_inert(h)}</script>'
                       for e, h in zip(es, html))
    return "".join(f'<script type="application/x-deflate-base64" id="t-{e.index}">'
                   f'{base64.b64encode(zlib.compress(h.encode("utf-8"), 6)).decode("ascii")}</script>'
                   for e, h in zip(es, html))


def _summary(corpus: CorpusScore) -> str:
    """Micro and macro P/R/F1 of the pairs explained, with how many are certified optimal."""
    s = corpus.summary()
    n, certified = s["scored"], s["optimal"]
    rows = "".join(f"<tr><th>{name}</th><td>{pct(s[key]['precision'])}</td><td>{pct(s[key]['recall'])}</td>"
                   f"<td>{pct(s[key]['f1'])}</td></tr>" for name, key in (("micro", "micro"), ("macro", "macro")))
    lo, hi = s["f1_interval"]
    cert = (f"{certified} of {n} pairs certified optimal" if certified < n else
            f"all {n} pairs certified optimal" if n != 1 else "the pair is certified optimal")
    interval = "" if certified == n else (f"; micro F1 is a lower bound, the optimum lies in "
                                          f"[{pct(lo)}, {pct(hi)}]")
    skipped = s["pairs"] - n
    skip = f"; {skipped} skipped (unreadable)" if skipped else ""
    return (f'<div id="summary"><table class="sum"><tr><th>{n} {"pair" if n == 1 else "pairs"} explained</th>'
            f"<th>P</th><th>R</th><th>F1</th></tr>{rows}</table>"
            f'<p class="cert">{cert}{interval}{skip}.</p></div>')


def render_report(explanations: Sequence[Explanation], title: str = "smatchpp explain",
                  signature: str = "", note: str = "", max_draw: int = MAX_DRAW,
                  extra: dict[str, dict[int, float]] | None = None,
                  compress: bool | None = None, corpus: CorpusScore | None = None) -> str:
    """The whole report as one HTML string (see the module docstring).

    ``extra`` adds numeric index columns (``{header: {pair index: value}}``), e.g.
    the gaps of other hill-climbers read by :func:`~smatchpp.explain.select.gap_columns`.
    ``compress``: deflate the pair sections (``None``: when they exceed
    :data:`COMPRESS_ABOVE` characters).  ``corpus``: the scores of every pair
    explained, summarized above the index (default: those of the pairs listed).
    """
    es = list(explanations)
    extra = extra or {}
    statuses = sorted({e.status for e in es})
    hc_name = es[0].hc_name if es else ""
    data = {str(e.index): {k: v for k, v in e.score.to_json().items()}
            | {"hc_matched": e.hc_matched, "hc_gap": e.hc_gap} for e in es}
    data_json = script_json(data)
    columns = list(_COLUMNS) + [(name, "num") for name in extra]
    head = "".join(f'<th data-type="{t}">{escape(n)}</th>' for n, t in columns)
    options = "".join(f'<option value="{escape(s)}">{escape(s)}</option>' for s in statuses)
    gaps = sum(1 for e in es if e.hc_gap > 0)
    kmax = max((max(int((e.alignment >= 0).sum()), int((e.hc_alignment >= 0).sum())) for e in es), default=0)
    meta = (f"{len(es)} pairs listed; {sum(e.status == 'optimal' for e in es)} certified optimal; "
            f"hill-climber below the best alignment on {gaps}. Hill-climber: {escape(hc_name)}.")
    # the summary counts the pairs' scores (the settings are the signature's, shown above it)
    summary = _summary(corpus if corpus is not None else CorpusScore([e.score for e in es], Config()))
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        '<link rel="icon" href="data:,">'
        f"<title>{escape(title)}</title><style>{_CSS}{colour_css(kmax)}</style></head><body>"
        f'<header><h1>{escape(title)}</h1><p class="meta">{escape(signature)}<br>{meta}'
        + (f"<br>{escape(note)}" if note else "")
        + f"<br>made by smatchpp {__version__} on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}</p>"
        "</header>"
        '<div id="index">' + summary + '<div id="controls"><label>filter <input id="q" type="search" '
        'placeholder="id, sentence, ..."></label><label>status <select id="status"><option value="">all'
        f'</option>{options}</select></label><label><input id="gaponly" type="checkbox"> '
        + ("only pairs where a hill-climber (ours or of the gap file) is below the best alignment"
           if extra else "only pairs where the hill-climber is below the best alignment") + "</label>"
        '<span><span id="shown"></span> shown</span></div>'
        f'<table id="idx"><thead><tr>{head}</tr></thead><tbody>'
        + "".join(_row(e, extra) for e in es) + "</tbody></table></div>"
        '<main id="view" hidden></main>'
        + _sections(es, max_draw, compress)
        + f'<script type="application/json" id="data">{data_json}</script>'
        f"<script>{_VIEW_JS}{_JS}</script></body></html>")


def render_pair(e: Explanation, max_draw: int = MAX_DRAW) -> str:
    """One pair's view of the report (drawings, triples, certificate, hill-climber) as a page
    of its own, without the index.

    >>> from smatchpp.explain import explain_pair
    >>> page = render_pair(explain_pair("(d / dog)", "(c / cat)"))
    >>> page.startswith("<!DOCTYPE html>") and "<svg" in page and "index</a>" not in page
    True
    """
    kmax = max(int((e.alignment >= 0).sum()), int((e.hc_alignment >= 0).sum()))
    section = _section(e, max_draw).replace('<p><a href="#">&larr; index</a></p>', "", 1)
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<style>{_CSS}{colour_css(kmax)}</style></head><body>"
            f'<main id="view">{section}</main>'
            f"<script>{_VIEW_JS}smatchppView(document.getElementById('view'));</script></body></html>")


def in_frame(page: str, title: str, height: int = 720) -> str:
    """``page`` (a whole HTML document) in an ``<iframe srcdoc>``, as a notebook shows it: its
    styles and scripts stay inside the frame (sandboxed: scripts, no access to the notebook).

    >>> in_frame("<p>a & b</p>", "t")[:60]
    '<iframe class="smatchpp" title="t" sandbox="allow-scripts" s'
    """
    return (f'<iframe class="smatchpp" title="{escape(title)}" sandbox="allow-scripts" '
            f'style="width:100%;height:{int(height)}px;border:1px solid #ddd" '
            f'srcdoc="{escape(page, quote=True)}"></iframe>')


def notebook_html(e: Explanation) -> str:
    """How a notebook shows an :class:`Explanation` (its ``_repr_html_``): :func:`render_pair` in
    :func:`in_frame` (both graphs drawn, aligned variables in one colour, unmatched triples,
    certificate, hill-climber)."""
    return in_frame(render_pair(e), f"pair {e.index}")


# the notebook display is set here: model does not import this module (no circle)
Explanation._repr_html_ = notebook_html  # type: ignore[attr-defined]


def write_report(path: str, explanations: Sequence[Explanation], **kwargs) -> None:
    """Write :func:`render_report` to ``path`` (UTF-8)."""
    with open(path, "w", encoding="utf-8") as out:
        out.write(render_report(explanations, **kwargs))

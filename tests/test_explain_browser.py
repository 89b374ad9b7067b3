"""The HTML report in a real headless browser (Chromium driven by Playwright).

Skipped, with the reason, when Playwright or a Chromium binary is missing
(``.ci/run`` installs both).  The report of the example pairs is loaded from
disk, with its pair sections as plain text and deflated (as large reports
store them); the test checks that the page logs no console error, that clicking an
index row opens that pair and that the numbers it shows equal the scorer's
``--pairs-out`` JSON, that the index link returns, that sorting by F1 orders
the rows both ways, and that the text filter hides rows.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from smatchpp.api import Config, Scorer
from smatchpp.explain import explain_entries
from smatchpp.explain.html import write_report
from smatchpp.graphs.read import read_file

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def chromium_path() -> str | None:
    """``SMATCHPP_CHROMIUM``, or a Chromium on ``PATH``."""
    for name in (os.environ.get("SMATCHPP_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


#: what Chromium needs to run headless as root in a container, without touching the network
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="Playwright is not installed (pip install '.[test]')")
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium binary found (apt-get install -y chromium, or set SMATCHPP_CHROMIUM)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield b
        b.close()


#: pairs of unequal sizes (so that P, R and F1 differ), appended to the examples
EXTRA = [("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))", "(w / want-01 :ARG0 (g / girl))"),
         ("(d / dog)", "(d / dog :ARG0-of (b / bark-01 :polarity -) :mod (s / small))"),
         ("(a / and :op1 (c / cat) :op2 (c2 / cat :mod (b / black)))", "(c / cat :mod (b / black))")]


@pytest.fixture(scope="module", params=[False, True], ids=["plain", "deflated"])
def report(tmp_path_factory, request):
    tmp = tmp_path_factory.mktemp("explain")
    for name, side in (("pred.amr", 0), ("gold.amr", 1)):
        text = (EXAMPLES / name).read_text(encoding="utf-8").rstrip("\n")
        text += "".join(f"\n\n# ::id extra{k}\n{pair[side]}" for k, pair in enumerate(EXTRA)) + "\n"
        (tmp / name).write_text(text, encoding="utf-8")
    a, b = read_file(tmp / "pred.amr"), read_file(tmp / "gold.amr")
    explanations = explain_entries(a, b, Config())
    path = tmp / "report.html"
    write_report(str(path), explanations, title="examples", compress=request.param)
    expected = {p.index: p.to_json() for p in Scorer(Config()).score_corpus(a, b).pairs}
    return path, expected


@pytest.fixture()
def page(browser, report):
    path, _ = report
    pg = browser.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("request", lambda r: errors.append(f"request {r.url}") if not r.url.startswith(("file:", "data:")) else None)
    pg.goto(path.as_uri())
    yield pg
    pg.close()
    assert errors == [], errors


def _shown(pg) -> dict[str, str]:
    return {el.get_attribute("data-k"): el.inner_text() for el in pg.query_selector_all("#view dd[data-k]")}


def test_click_opens_the_pair_with_the_scorers_numbers(page, report):
    _, expected = report
    rows = page.query_selector_all("#idx tbody tr")
    assert len(rows) == len(expected) == 7
    assert len({(w["precision"], w["recall"], w["f1"]) for w in expected.values()}) > 3
    assert page.is_visible("#index") and not page.is_visible("#view")
    # the corpus summary heads the index (micro F1 of the 7 pairs, as the scorer sums them)
    matched = sum(w["matched"] for w in expected.values())
    test, gold = (sum(w[k] for w in expected.values()) for k in ("test_triples", "gold_triples"))
    micro = page.inner_text("#summary tr:nth-child(2)").split()
    assert micro == ["micro", f"{100 * matched / test:.2f}", f"{100 * matched / gold:.2f}",
                     f"{200 * matched / (test + gold):.2f}"]
    for k in range(len(expected)):
        page.click(f'#idx tbody tr[data-i="{k}"]')
        page.wait_for_selector(f'#view section[data-index="{k}"]')  # hashchange is asynchronous
        assert page.evaluate("location.hash") == f"#pair-{k}"
        assert page.is_visible("#view") and not page.is_visible("#index") and not page.is_visible("#summary")
        assert page.inner_text("#view h2").startswith(f"Pair {k}")
        shown, want = _shown(page), expected[k]
        for key in ("matched", "test_triples", "gold_triples", "upper", "status"):
            want_text = f"{want[key]:g}" if isinstance(want[key], (int, float)) else want[key]
            assert shown[key] == want_text, key
        for key in ("precision", "recall", "f1"):
            assert shown[key] == f"{100 * want[key]:.2f}", key
        # both graphs are drawn, one box per variable
        assert len(page.query_selector_all("#view svg.g")) == 2
        page.click("#view a[href='#']")
        page.wait_for_selector("#index", state="visible")
        assert page.is_visible("#index") and not page.is_visible("#view")


def test_sorting_by_f1(page, report):
    _, expected = report
    by_f1 = sorted(expected, key=lambda i: (expected[i]["f1"], i))
    header = page.query_selector_all("#idx th")[5]
    assert header.inner_text().strip() == "F1"
    header.click()
    order = [int(r.get_attribute("data-i")) for r in page.query_selector_all("#idx tbody tr")]
    assert order == by_f1
    header.click()
    order = [int(r.get_attribute("data-i")) for r in page.query_selector_all("#idx tbody tr")]
    assert [expected[i]["f1"] for i in order] == sorted((expected[i]["f1"] for i in order), reverse=True)


def test_filter_hides_rows(page, report):
    page.fill("#q", "New York")
    visible = [r.get_attribute("data-i") for r in page.query_selector_all("#idx tbody tr") if r.is_visible()]
    assert visible == ["2"] and page.inner_text("#shown") == "1"
    page.fill("#q", "")
    assert page.inner_text("#shown") == str(len(report[1]))


def test_hovering_a_variable_highlights_its_partner(page):
    page.click('#idx tbody tr[data-i="0"]')
    node = page.wait_for_selector("#view svg.g .n.k1")
    node.hover()
    lit = page.query_selector_all("#view .hl")
    classes = {el.get_attribute("class") for el in lit}
    assert len(lit) >= 2 and all("k1" in c.split() for c in classes)
    # the partner in the other drawing is lit too
    assert len(page.query_selector_all("#view svg.g")[1].query_selector_all(".hl")) >= 1


#: text that ends or opens scripts and comments, and markup that runs code if it is ever parsed
HOSTILE = "</script><!--<script>"
HOSTILE_GRAPHS = [
    (f"# ::id <!--<script>{HOSTILE}\n# ::snt {HOSTILE} <img src=x onerror=\"window.pwned=1\"> & \"q\" "
     f"<b>bold</b> <!-- -->\n"
     f"(a / <!--<script> :<!--<script>-of (b / <svg!onload=window.pwned=1>) "
     f":op1 \"{HOSTILE}\" :ARG1 <!--<script>)",
     f"# ::id <!--<script>{HOSTILE}\n# ::snt {HOSTILE}\n"
     f"(x / <!--<script> :<!--<script>-of (y / other) :op1 \"{HOSTILE}\" :ARG1 <!--<script>)"),
    ("# ::id plain\n(d / dog)", "# ::id plain\n(d / dog :mod (b / big))"),
]


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory):
    """The report of graphs with hostile text in ids, sentences, concepts, constants and roles, made
    by the command line (title and a gap file's tool name hostile too)."""
    import json

    from clirun import run

    tmp = tmp_path_factory.mktemp("hostile")
    for name, side in (("a.amr", 0), ("b.amr", 1)):
        (tmp / name).write_text("\n\n".join(p[side] for p in HOSTILE_GRAPHS) + "\n", encoding="utf-8")
    rows = [{"index": k, f"gap_{HOSTILE}": k} for k in range(len(HOSTILE_GRAPHS))]
    (tmp / "gap.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    done = run("explain", "a.amr", "b.amr", "--quiet", "--html", "r.html", "--title", f"title {HOSTILE}",
               "--gap-file", "gap.jsonl", cwd=tmp)
    assert done.returncode == 0, done.stderr
    return tmp / "r.html"


def test_hostile_text_stays_text(browser, hostile_report):
    """Issue 22 item 16: a ``# ::id <!--<script`` in the report's JSON data block made the HTML
    parser swallow the report's own script: no pair opened, sorting and filtering were dead."""
    pg = browser.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(hostile_report.as_uri())
    try:
        assert pg.title() == f"title {HOSTILE}"
        data = pg.evaluate("JSON.parse(document.getElementById('data').textContent)")
        assert data["0"]["id"] == f"<!--<script>{HOSTILE}" and data["1"]["id"] == "plain"
        # every script of the page is one of ours: the data, the code, one section per pair
        assert pg.evaluate("document.scripts.length") == len(HOSTILE_GRAPHS) + 2
        ids = [c.inner_text() for c in pg.query_selector_all("#idx tbody td:nth-child(2)")]
        assert ids == [f"<!--<script>{HOSTILE}", "plain"]
        headers = [h.inner_text().strip() for h in pg.query_selector_all("#idx th")]
        assert headers[-1] == f"{HOSTILE} gap"
        # filtering works
        pg.fill("#q", "<!--<script>")
        assert pg.inner_text("#shown") == "1"
        pg.fill("#q", "")
        # sorting works: by F1, both ways
        by_f1 = sorted(data, key=lambda i: data[i]["f1"])
        assert data[by_f1[0]]["f1"] < data[by_f1[1]]["f1"]
        pg.query_selector_all("#idx th")[5].click()
        assert [r.get_attribute("data-i") for r in pg.query_selector_all("#idx tbody tr")] == by_f1
        pg.query_selector_all("#idx th")[5].click()
        assert [r.get_attribute("data-i") for r in pg.query_selector_all("#idx tbody tr")] == by_f1[::-1]
        # the pair opens and shows the hostile text as text
        pg.click('#idx tbody tr[data-i="0"]')
        pg.wait_for_selector('#view section[data-index="0"]')
        view = pg.inner_text("#view")
        for text in (f"<!--<script>{HOSTILE}", "<img src=x onerror=\"window.pwned=1\">", "<b>bold</b>",
                     "<svg!onload=window.pwned=1>", HOSTILE):
            assert text in view, text
        assert pg.query_selector("img") is None
        assert pg.evaluate("[...document.querySelectorAll('b')].every(b => b.textContent !== 'bold')")
        assert len(pg.query_selector_all("#view svg.g")) == 2
        assert pg.evaluate("window.pwned") is None
    finally:
        pg.close()
    assert errors == [], errors


def test_notebook_display_of_a_pair_and_a_corpus(browser, tmp_path):
    """Issue 34 item 4: ``_repr_html_`` of an explanation (the explorer's view, in a frame) and of
    a corpus (its summary), placed in a page as Jupyter places outputs, render in the browser:
    both graphs drawn, hovering lights the partner, the numbers are the pair's."""
    a, b = read_file(EXAMPLES / "pred.amr"), read_file(EXAMPLES / "gold.amr")
    explanation = explain_entries(a, b, Config())[2]
    corpus = Scorer(Config()).score_corpus(a, b)
    outputs = [explanation._repr_html_(), corpus._repr_html_()]
    page_file = tmp_path / "notebook.html"
    page_file.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>"
                         + "".join(f'<div class="output_html">{h}</div>' for h in outputs)
                         + "</body></html>", encoding="utf-8")
    pg = browser.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        pg.goto(page_file.as_uri())
        frame = pg.frame_locator("iframe.smatchpp")
        frame.locator("svg.g").first.wait_for()
        assert frame.locator("svg.g").count() == 2
        shown = {el.get_attribute("data-k"): el.get_attribute("data-v")
                 for el in frame.locator("dd[data-k]").element_handles()}
        expected = explanation.score.to_json()
        assert float(shown["matched"]) == expected["matched"] and shown["status"] == expected["status"]
        frame.locator("svg.g .n.k1").first.hover()
        assert frame.locator("svg.g").nth(1).locator(".hl").count() >= 1
        summary = pg.locator("div.smatchpp-summary")
        assert corpus.signature in summary.inner_text()
        cells = summary.locator("td").all_inner_texts()
        assert cells[cells.index("micro.f1") + 1] == str(corpus.micro.f1)
        assert pg.evaluate("document.querySelector('iframe.smatchpp').getBoundingClientRect().height") > 300
    finally:
        pg.close()
    assert errors == [], errors

"""docs/benchmarks.md stays usable: its archive links reach a heading of docs/results.md, and
every experiment script it names exists (a renamed heading or script breaks the page silently)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "docs" / "benchmarks.md"
RESULTS = ROOT / "docs" / "results.md"


def anchors(markdown: str) -> set[str]:
    """The heading anchors GitHub makes: lower case, punctuation dropped, spaces to hyphens,
    a repeated anchor numbered -1, -2, ...

    >>> sorted(anchors("# A (b)\\n## smatch 1.0.4's\\n# A (b)\\n"))
    ['a-b', 'a-b-1', 'smatch-104s']
    """
    seen: dict[str, int] = {}
    found = set()
    for line in markdown.splitlines():
        heading = re.match(r"#+ (.*)", line)
        if not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def test_archive_links_reach_a_heading_of_results():
    text = BENCHMARKS.read_text(encoding="utf-8")
    links = re.findall(r"\(results\.md#([^)]+)\)", text)
    assert links, "benchmarks.md links each section to its archive in results.md"
    missing = sorted(set(links) - anchors(RESULTS.read_text(encoding="utf-8")))
    assert not missing, f"no such heading in docs/results.md: {missing}"


def test_named_experiment_scripts_exist():
    text = BENCHMARKS.read_text(encoding="utf-8")
    scripts = set(re.findall(r"experiments/(\w+\.(?:py|sh))", text))
    assert scripts
    missing = sorted(s for s in scripts if not (ROOT / "experiments" / s).is_file())
    assert not missing, f"docs/benchmarks.md names scripts that do not exist: {missing}"


def test_results_points_to_benchmarks():
    head = RESULTS.read_text(encoding="utf-8")[:400]
    assert "benchmarks.md" in head

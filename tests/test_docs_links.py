"""The README and docs/*.md: every relative link reaches a file (and its heading, for `#anchor`
links), and the README stays short enough to read."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "DEVELOPERS.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", text, re.M)}


def relative_links(page: Path):
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):  # http:, https:, mailto:
            continue
        yield target


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_to_existing_files(page):
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(target)
    assert not broken, f"{page.name}: broken links {broken}"


def test_the_readme_links_every_docs_page():
    linked = {(ROOT / t.partition("#")[0]).resolve() for t in relative_links(ROOT / "README.md")}
    pages = {p.resolve() for p in (ROOT / "docs").glob("*.md")}
    assert not pages - linked, sorted(p.name for p in pages - linked)


def test_the_readme_is_at_most_150_lines():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 150


def test_the_readme_shows_the_real_output_of_its_score_run(tmp_path):
    from clirun import GOLD, PRED, run

    command = "$ smatchpp score examples/pred.amr examples/gold.amr\n"
    shown = (ROOT / "README.md").read_text(encoding="utf-8").split(command)[1].split("```")[0]
    done = run("score", PRED, GOLD, "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown


def test_the_readme_tables_name_every_registered_preset_matcher_and_metric():
    from smatchpp.alignment.matchers import MATCHERS
    from smatchpp.metrics import METRICS
    from smatchpp.presets import PRESETS

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for option, names in (("--preset", PRESETS), ("--match", MATCHERS), ("--metric", [*METRICS, "smatch"])):
        table = text.split(f"| `{option}` |")[1].split("\n\n")[0]
        rows = set(re.findall(r"^\| ([^|]*)\|", table, re.M))
        listed = {name for row in rows for name in re.findall(r"`([^`]+)`", row)}
        assert set(names) <= listed, (option, sorted(set(names) - listed))

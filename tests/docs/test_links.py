"""Every relative link and `#anchor` in the README and docs/ resolves, as on GitHub."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.docs.links import MD, anchors, broken, slug, targets

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken(page, ROOT) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_table_renders_as_a_table(page: Path) -> None:
    """A blank line inside a table ends it: the rows after it show as a paragraph of pipes."""
    parsed = MD.parse(page.read_text(encoding="utf-8"))
    stray = [
        t.content.splitlines()[0]
        for opener, t in pairwise(parsed)
        if opener.type == "paragraph_open" and t.type == "inline" and t.content.startswith("| ")
    ]
    assert stray == []


def test_a_table_cut_by_a_blank_line_is_found() -> None:
    cut = "| a | b |\n| --- | --- |\n| 1 | 2 |\n\n| 3 | 4 |\n"
    parsed = MD.parse(cut)
    assert [t.type for t in parsed][-3:] == ["paragraph_open", "inline", "paragraph_close"]


def test_the_readme_links_every_docs_page() -> None:
    linked = {t.partition("#")[0] for t in targets(ROOT / "README.md")}
    pages = {p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")}
    assert pages - linked == set()


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Outages and trust boundaries", "outages-and-trust-boundaries"),
        ("`curator init`", "curator-init"),
        ("JSON report (`--format json`)", "json-report---format-json"),
        ("pyproject.toml `[tool.curator]`", "pyprojecttoml-toolcurator"),
        ("What the report on this repository's `data/` means",
         "what-the-report-on-this-repositorys-data-means"),
        ("Cache, budgets and request counts", "cache-budgets-and-request-counts"),
        ("New papers: `curator discover`", "new-papers-curator-discover"),
        ("Scope / 范围", "scope--范围"),
    ],
)  # fmt: skip
def test_anchors_follow_githubs_rules(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Title\n\n## Part\n\n## Part\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n[ok](other.md#part-1) [self](#page) [gone](missing.md) [bad](other.md#nope)"
        ' [out](../x.md) <a href="#nowhere">html</a> [web](https://example.org/x.md)\n\n'
        "```\n[in a code block](nothing.md)\n```\n",
        encoding="utf-8",
    )
    assert anchors(tmp_path / "other.md") == {"title", "part", "part-1"}
    assert broken(page, tmp_path) == [
        "missing.md: no such file",
        "other.md#nope: no heading or anchor #nope",
        "../x.md: outside the repository",
        "#nowhere: no heading or anchor #nowhere",
    ]

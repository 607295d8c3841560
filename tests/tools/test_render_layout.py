# ruff: noqa: E501 - list lines and table rows are one line each
"""Issue 32 item 7: `render` keeps the list's own layout.

A Markdown-list README gets its new sections as a Markdown list (not 2,778 lines of the home
list's HTML tables), a pipe-table README pipe tables, a marked section the layout of the
entries it held; what render writes reads back as the same entries. A document whose entries
stand in a layout render does not write gets nothing appended: one line says why (exit 2).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.cli import main
from curator.core.errors import UsageError
from curator.sources.document import DocumentSource
from curator.tools.render import render
from curator.tools.render_layout import Layout, detect
from tests.conftest import SAMPLES
from tests.tools.test_render import CATALOG, PROJECTS

LIST_README = """\
# Awesome memory for agents

Prose about the list, with [a link](https://example.org/about) in it.

## Methods

- [MemGPT: Towards LLMs as Operating Systems](https://arxiv.org/abs/2310.08560) (2023-10)
- [Generative Agents: Interactive Simulacra of Human Behavior](https://arxiv.org/abs/2304.03442) (2023-04)

## Tools

- [mem0](https://github.com/mem0ai/mem0) - the memory layer
"""
PIPE_README = """\
# A table list

| Date | Paper | Code |
|---|---|---|
| 2023-10 | [MemGPT](https://arxiv.org/abs/2310.08560) | [code](https://github.com/cpacker/MemGPT) |
| 2023-04 | [Generative Agents](https://arxiv.org/abs/2304.03442) | |
"""
HEADINGS_README = """\
# A list of headings

### MemGPT
[paper](https://arxiv.org/abs/2310.08560)

### Generative Agents
[paper](https://arxiv.org/abs/2304.03442)

### MemoryBank
[paper](https://arxiv.org/abs/2305.10250)
"""


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    (folder / "papers").mkdir(parents=True)
    (folder / "papers" / "survey.yaml").write_text(CATALOG, encoding="utf-8")
    (folder / "projects.yaml").write_text(PROJECTS, encoding="utf-8")
    return folder


def rendered(readme: Path) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """(kind, title, date, link URLs) of the rendered sections' entries, read back."""
    loaded = DocumentSource().load(readme)
    return [
        (e.kind.value, e.title, e.date, tuple(lk.url for lk in e.links))
        for e in loaded.entries
        if e.section in ("Survey", "Systems")
    ]


EXPECTED = [
    ("paper", "Newer", "2025-02-01",
     ("https://aclanthology.org/2025.acl-long.2.pdf", "https://newer.example.org/")),
    ("paper", "Older & Wiser", "2024-01-05",
     ("https://arxiv.org/abs/2401.00001", "https://github.com/o/older")),
    ("project", "Pipe | Name", "", ("https://github.com/p/pipe",)),
]  # fmt: skip


def test_a_markdown_list_readme_gets_markdown_lists(data: Path, tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(LIST_README, encoding="utf-8")
    result = render(data, readme, append=True)
    text = readme.read_text(encoding="utf-8")
    assert text.startswith(LIST_README)  # the list's own text untouched
    added = text[len(LIST_README) :]
    assert "<table" not in added and "<details>" not in added and "|---|" not in added
    assert "## Survey" in added and "<!-- curator:begin Survey -->" in added
    assert (
        "- [Older & Wiser](https://arxiv.org/abs/2401.00001) (2024-01-05) · [Code](https://github.com/o/older)"
        in added
    )
    assert len(added.splitlines()) < 20
    assert result.added == ("Survey", "Systems")
    back = rendered(readme)
    assert [(t, lk) for _, t, _, lk in back] == [(t, lk) for _, t, _, lk in EXPECTED]
    # A paper with no arXiv ID reads back as a plain link in a list: the kinds of the rest hold.
    assert [k for k, *_ in back][1:] == ["paper", "project"]
    assert not render(data, readme, check=True).changed  # a second render changes nothing


def test_a_marked_section_keeps_its_own_entries_layout_and_bullet(
    data: Path, tmp_path: Path
) -> None:
    readme = tmp_path / "README.md"
    marked = (
        "# List\n\n<!-- curator:begin Survey -->\n"
        "* [Old entry](https://arxiv.org/abs/2301.00001) (2023-01)\n"
        "<!-- curator:end Survey -->\n\n<!-- curator:begin Systems -->\n<!-- curator:end Systems -->\n"
    )
    readme.write_text(marked, encoding="utf-8")
    render(data, readme)
    text = readme.read_text(encoding="utf-8")
    assert "* [Newer](https://aclanthology.org/2025.acl-long.2.pdf) (2025-02-01)" in text
    assert "* [Pipe \\| Name](https://github.com/p/pipe)" in text  # the document's bullet
    assert "Old entry" not in text and "<table" not in text


def test_a_pipe_table_readme_gets_pipe_tables(data: Path, tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(PIPE_README, encoding="utf-8")
    render(data, readme, append=True)
    text = readme.read_text(encoding="utf-8")
    assert text.startswith(PIPE_README) and "<table" not in text
    assert (
        "| 2024-01-05 | [Older & Wiser](https://arxiv.org/abs/2401.00001) | [Code](https://github.com/o/older) |"
        in text
    )
    assert [(t, d) for _, t, d, _ in rendered(readme)][:2] == [
        ("Newer", "2025-02-01"),
        ("Older & Wiser", "2024-01-05"),
    ]


def test_a_layout_render_does_not_write_is_refused_with_one_line(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(HEADINGS_README, encoding="utf-8")
    with pytest.raises(UsageError, match="foreign"):
        render(data, readme, append=True)
    assert readme.read_text(encoding="utf-8") == HEADINGS_README
    status = main(["render", "--data", str(data), "--readme", str(readme), "--append"])
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1 and "foreign" in err


@pytest.mark.parametrize(
    ("text", "layout"),
    [
        (LIST_README, Layout.LIST),
        (PIPE_README, Layout.PIPE),
        (HEADINGS_README, Layout.OTHER),
        ("# Only prose\n\n![badge](https://img.shields.io/x)\n", None),
        ("```\n- [a](https://a.org)\n- [b](https://b.org)\n```\n", None),
        ("1. [a](https://a.org)\n2. [b](https://b.org)\n", Layout.LIST),
    ],
)
def test_detect_names_the_layout_of_the_entries(text: str, layout: Layout | None) -> None:
    assert detect(text.splitlines()) is layout


def test_the_home_lists_html_papers_and_pipe_projects_are_its_html_layout() -> None:
    """The home list writes papers as HTML tables and projects as pipe tables (more rows):
    together they are the HTML layout, so render keeps writing it there."""
    text = (SAMPLES / "iaar-awesome-ai-memory.README.excerpt.md").read_text(encoding="utf-8")
    assert detect(text.splitlines()) is Layout.HTML

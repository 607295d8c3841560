"""render: README sections between curator markers, regenerated from the catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.core.errors import InputError, UsageError
from curator.core.model import Kind
from curator.sources.document import DocumentSource
from curator.tools.render import render

CATALOG = """\
section: Survey
papers:
  - title: "Older & Wiser"
    arxiv: "2401.00001"
    date: "2024-01-05"
    tags: ["Agent Memory", "Long-term_Memory"]
    code: "https://github.com/o/older"
    summary: |-
      • One <b>bold</b> claim.
      • Two.
  - title: "Newer"
    url: "https://aclanthology.org/2025.acl-long.2.pdf"
    date: "2025-02-01"
    links: [{role: website, url: "https://newer.example.org/"}]
"""
PROJECTS = """\
section: Projects
projects:
  - name: "Pipe | Name"
    repo: "https://github.com/p/pipe"
    since: "2024-03-01"
    category: "Systems"
"""
README = """\
# My list

![Papers](https://img.shields.io/badge/Papers-542-blue.svg)
[![Open Source Projects](https://img.shields.io/badge/Open%20Source%20Projects-111-green.svg)](x)

Prose that stays.

<details>
<summary><strong>Survey</strong></summary>
<!-- curator:begin Survey -->
old table that goes
<!-- curator:end Survey -->
</details>

More prose.

## Systems

<!-- curator:begin Systems -->
<!-- curator:end Systems -->

Closing prose.
"""


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    (folder / "papers").mkdir(parents=True)
    (folder / "papers" / "survey.yaml").write_text(CATALOG, encoding="utf-8")
    (folder / "projects.yaml").write_text(PROJECTS, encoding="utf-8")
    return folder


def test_marked_sections_are_rewritten_and_prose_kept(data: Path, tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(README, encoding="utf-8")
    result = render(data, readme)
    text = readme.read_text(encoding="utf-8")
    assert result.changed and result.text == text and result.added == ()
    assert "old table that goes" not in text
    for prose in ("Prose that stays.", "More prose.", "Closing prose.", "# My list"):
        assert text.count(prose) == 1
    assert "badge/Papers-2-blue.svg" in text
    assert "Open%20Source%20Projects-1-green.svg" in text
    assert text.endswith("<!-- curator:end Systems -->\n\nClosing prose.\n")


def test_rendered_rows_read_back_exactly(data: Path, tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(README, encoding="utf-8")
    render(data, readme)
    loaded = DocumentSource().load(readme)
    papers = [e for e in loaded.entries if e.kind is Kind.PAPER]
    # Newest first within the section, whatever the catalogue order.
    assert [(p.title, p.date, p.section) for p in papers] == [
        ("Newer", "2025-02-01", "Survey"),
        ("Older & Wiser", "2024-01-05", "Survey"),
    ]
    older = papers[1]
    assert older.tags == ("Agent Memory", "Long-term_Memory")
    assert older.summary == "• One <b>bold</b> claim.\n• Two."
    assert [(lk.role, lk.subject) for lk in older.links] == [
        ("paper", "arxiv:2401.00001"),
        ("code", "github:o/older"),
    ]
    assert [(lk.role, lk.url) for lk in papers[0].links] == [
        ("paper", "https://aclanthology.org/2025.acl-long.2.pdf"),
        ("website", "https://newer.example.org/"),
    ]
    (project,) = [e for e in loaded.entries if e.kind is Kind.PROJECT]
    assert (project.title, project.date, project.section) == (
        "Pipe | Name",
        "2024-03-01",
        "Systems",
    )
    assert loaded.findings == ()


def test_check_passes_after_render_and_fails_after_a_hand_edit(data: Path, tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(README, encoding="utf-8")
    assert render(data, readme, check=True).changed
    assert readme.read_text(encoding="utf-8") == README  # --check never writes
    render(data, readme)
    assert not render(data, readme, check=True).changed
    edited = readme.read_text(encoding="utf-8").replace("Older &amp; Wiser", "Older and Wiser")
    readme.write_text(edited, encoding="utf-8")
    assert render(data, readme, check=True).changed
    assert render(data, readme).changed  # render mends the edit
    assert not render(data, readme, check=True).changed


def test_document_without_markers_is_left_alone_unless_asked(data: Path, tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# Only prose\n- [A list](https://example.org) in another layout\n")
    with pytest.raises(UsageError, match="no `<!-- curator:begin SECTION -->` markers"):
        render(data, readme)
    assert readme.read_text() == "# Only prose\n- [A list](https://example.org) in another layout\n"


def test_sections_without_markers_are_appended(data: Path, tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# Only prose\n", encoding="utf-8")
    result = render(data, readme, append=True)
    assert result.added == ("Survey", "Systems")
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# Only prose\n")
    assert "<!-- curator:begin Survey -->" in text and "## Systems" in text
    assert len(DocumentSource().load(readme).entries) == 3


def test_missing_readme_is_created(data: Path, tmp_path: Path) -> None:
    result = render(data, tmp_path / "README.md")
    assert result.changed and (tmp_path / "README.md").is_file()
    assert "badge/Papers-2-blue.svg" in result.text


@pytest.mark.parametrize(
    ("markers", "message", "line"),
    [
        ("<!-- curator:begin Survey -->\n", "never ended", 2),
        ("<!-- curator:end Survey -->\n", "has no begin", 2),
        (
            "<!-- curator:begin Survey -->\n<!-- curator:begin Survey -->\n",
            "opened twice",
            3,
        ),
    ],
)
def test_broken_markers_name_the_line(
    data: Path, tmp_path: Path, markers: str, message: str, line: int
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# x\n" + markers, encoding="utf-8")
    with pytest.raises(InputError, match=message) as caught:
        render(data, readme)
    assert caught.value.line == line


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_bytes_outside_the_sections_are_kept_and_lines_are_gits(
    data: Path, tmp_path: Path, eol: str
) -> None:
    """A U+2028, a form feed or a lone CR is no line break to git: render keeps them inside
    their line, keeps the README's line endings, and a marker error names git's line."""
    odd = "Prose\u2028that\x0cstays\rhere."
    readme = tmp_path / "README.md"
    source = README.replace("Prose that stays.", odd).replace("\n", eol)
    readme.write_bytes(source.encode("utf-8"))
    render(data, readme)
    written = readme.read_bytes().decode("utf-8")
    assert odd in written and written.endswith("Closing prose." + eol)
    head = source.split("<!-- curator:begin Survey -->")[0]
    tail = source.split("<!-- curator:end Systems -->")[1]
    counted = head.replace("Papers-542", "Papers-2").replace("Projects-111", "Projects-1")
    assert written.startswith(counted) and written.endswith(tail)
    if eol == "\r\n":
        assert "\n" not in written.replace("\r\n", "")
    # Line 6 holds the odd prose: the unclosed marker below it is on git's line 8.
    readme.write_text("# L\n\nx\n\ny\nA\u2028B\n\n<!-- curator:begin Survey -->\n", "utf-8")
    with pytest.raises(InputError) as raised:
        render(data, readme)
    assert raised.value.line == 8

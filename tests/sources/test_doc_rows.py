"""Rows with more cells than their header (sources/doc_rows): named, and their hidden links
still read as entries."""

from __future__ import annotations

from pathlib import Path

from curator.sources.doc_rows import cells_of
from curator.sources.document import DocumentSource
from tests.sources.test_document import CASES

ROWS = (CASES / "hidden_rows.md").read_text(encoding="utf-8")


def test_cells_are_split_as_gfm_splits_them() -> None:
    assert cells_of("| a | `b|c` | d \\| e |") == [" a ", " `b", "c` ", " d \\| e "]
    assert cells_of("> | a | b |") == [" a ", " b "]
    assert cells_of("a | b") == ["a ", " b"]


def test_hidden_cells_are_named_and_their_links_checked(tmp_path: Path) -> None:
    path = tmp_path / "rows.md"
    path.write_text(ROWS, encoding="utf-8")
    loaded = DocumentSource().load(path)
    unread = [f for f in loaded.findings if f.code == "document-unread"]
    assert [(f.source.line, f.message.split(",")[0]) for f in unread] == [
        (8, "row has 8 cells under a 6-column header: GitHub hides cells 7–8"),
        (9, "row has 7 cells under a 6-column header: GitHub hides cell 7"),
    ]
    assert unread[0].evidence == "https://github.com/arch/ived; https://arxiv.org/abs/2310.08560"
    # Hidden from readers is not hidden from the check: each link is an entry's subject...
    at8 = {e.subject for e in loaded.entries if e.source.line == 8}
    assert at8 == {"github:letta-ai/letta", "github:arch/ived", "arxiv:2310.08560"}
    # ...once: a hidden link the row already shows makes no second entry (no duplicate).
    assert [e.subject for e in loaded.entries if e.source.line == 9] == ["github:getzep/zep"]
    # A code span's pipe splits a cell in GFM: `x|y` makes 7 cells, but no link is hidden.
    assert all(f.source.line != 10 for f in unread)


def test_lone_cr_lines_are_numbered_as_git_numbers_them(tmp_path: Path) -> None:
    # Markdown ends a line at a lone CR, git does not: the finding stands on git's line.
    text = "# Rows\r\rnote\n\n" + ROWS.split("## Projects\n\n", 1)[1]
    path = tmp_path / "rows.md"
    path.write_bytes(text.encode("utf-8"))
    loaded = DocumentSource().load(path)
    lines = [f.source.line for f in loaded.findings if f.code == "document-unread"]
    assert lines == [6, 7]

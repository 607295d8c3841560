"""Lists and quotes nested deeper than markdown-it nests (issue 29, defect 1).

markdown-it stops parsing a block nested `maxNesting` (20) levels deep and skips the rest of
the block that holds it: for a list item, every line to the end of the document. The reader
reads such blocks as plain lines instead (their links are read), names where it did, and
reads everything after them; and it stays linear in the document's size.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from curator.sources.document import DocumentSource

PAPER = "[A Paper About Agent Memory](https://arxiv.org/abs/2401.{:05d})"
#: name -> a construct nested too deep, holding paper 2 (read as a plain link).
DEEP = {
    "ten-list-markers": "- " * 10 + PAPER.format(2) + "\n",
    "ordered-markers": "1. " * 12 + PAPER.format(2) + "\n",
    "quote-25-deep": "> " * 25 + PAPER.format(2) + "\n",
    "quote-in-list-lazy-line": "- " + "> " * 19 + "see\n" + PAPER.format(2) + "\n",
    "quote-25-deep-lazy-line": "> " * 25 + "see\n" + PAPER.format(2) + "\n",
    "lists-and-quotes-mixed": "- > " * 10 + PAPER.format(2) + "\n",
    "indented-items": "".join("  " * i + "- level\n" for i in range(12)) + "  " * 12 + "- "
    + PAPER.format(2) + "\n",
}  # fmt: skip


def load(tmp_path: Path, text: str) -> tuple[list[tuple[int, str]], tuple[str, ...]]:
    doc = tmp_path / "README.md"
    doc.write_text(text, encoding="utf-8", newline="")
    loaded = DocumentSource().load(Path(doc.name))
    assert [f.code for f in loaded.findings] == []  # nothing linked is left unread
    return [(e.source.line, e.subject) for e in loaded.entries], loaded.notes


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the document is named README.md in notes


@pytest.mark.parametrize("name", list(DEEP))
def test_what_is_nested_too_deep_and_what_follows_it_are_read(tmp_path: Path, name: str) -> None:
    deep = DEEP[name]
    first = f"- {PAPER.format(1)}\n\n"
    text = f"# L\n\n{first}{deep}\n- {PAPER.format(3)}\n"
    entries, notes = load(tmp_path, text)
    where = 5 + deep.count("\n")
    assert [s for _, s in entries] == [f"arxiv:2401.{n:05d}" for n in (1, 2, 3)]
    assert entries[0][0] == 3 and entries[2][0] == where + 1
    (note,) = [n for n in notes if "nested" in n]
    assert note.startswith("README.md:") and "read as plain lines" in note


def test_a_list_nine_deep_is_read_as_a_list_and_named_nowhere(tmp_path: Path) -> None:
    text = "# L\n\n" + "- " * 9 + f"{PAPER.format(1)}\n\n- {PAPER.format(2)}\n"
    entries, notes = load(tmp_path, text)
    assert entries == [(3, "arxiv:2401.00001"), (5, "arxiv:2401.00002")]
    assert not [n for n in notes if "nested" in n]


def test_the_note_names_the_line_git_counts(tmp_path: Path) -> None:
    text = "# L\r\r- a\r\r" + "- " * 10 + f"{PAPER.format(1)}\r"
    entries, notes = load(tmp_path, text)
    assert entries == [(1, "arxiv:2401.00001")]  # lone CRs: one line for git
    assert [n.split(" ")[0] for n in notes if "nested" in n] == ["README.md:1:"]


@pytest.mark.parametrize(
    "unit",
    ["- " * 5000 + "x\n", "> " * 5000 + "x\n", "- > " * 2000 + "x\n", "1. " * 20 + "x\n"],
    ids=["list", "quote", "mixed", "ordered-short"],
)
def test_a_megabyte_of_deep_nesting_reads_in_linear_time(tmp_path: Path, unit: str) -> None:
    doc = tmp_path / "README.md"
    body = unit * (1_000_000 // len(unit))
    doc.write_text(f"# L\n\n{body}\n- {PAPER.format(1)}\n", encoding="utf-8")
    started = time.process_time()
    loaded = DocumentSource().load(doc)
    assert time.process_time() - started < 12  # about a second; markdown-it's own pace
    assert [e.subject for e in loaded.entries] == ["arxiv:2401.00001"]

"""Text a pull request turns into entries without touching their lines is checked.

Pull-request mode picks entries by the lines the diff names. An HTML comment or a code fence
in the base can hold entry-shaped text (a commented-out paper is common in awesome lists):
a pull request that deletes only the `<!--` and `-->` lines (or the fences) brings every
entry between them into the list, yet the diff names only the lines around the deletions.
Each entry the base version of the file did not have now counts as changed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from curator.cli import main
from curator.core.model import Entry, Kind, Source
from curator.sources.select import new_entries
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer
from tests.unit.test_select_references import _git

KNOWN = "MemoryBank: Enhancing Large Language Models with Long-Term Memory"
MEMORYBANK = f"- [{KNOWN}](https://arxiv.org/abs/2305.10250)\n"
HIDDEN = "".join(
    f"- [{name} Paper About Agent Memory](https://arxiv.org/abs/2501.9999{n})\n"
    for n, name in enumerate(["First", "Second", "Third", "Fourth"], 1)
)
#: The hidden entries as reference links, and the definitions that make them links.
BY_LABEL = "".join(
    f"- [{name} Paper About Agent Memory][p{n}]\n"
    for n, name in enumerate(["First", "Second", "Third", "Fourth"], 1)
)
LABELS = "".join(f"[p{n}]: https://arxiv.org/abs/2501.9999{n}\n" for n in range(1, 5))
#: name -> (the base, the pull request): only the lines around the hidden entries change.
REVEALS = {
    "html-comment": (f"# L\n\n{MEMORYBANK}<!--\n{HIDDEN}-->\n", f"# L\n\n{MEMORYBANK}{HIDDEN}"),
    "code-fence": (f"# L\n\n{MEMORYBANK}\n```\n{HIDDEN}```\n", f"# L\n\n{MEMORYBANK}\n{HIDDEN}"),
    "raw-html-block": (
        f"# L\n\n{MEMORYBANK}\n<pre>\n{HIDDEN}</pre>\n",
        f"# L\n\n{MEMORYBANK}\n{HIDDEN}",
    ),
    # Links made by definitions added below them. Caught twice: through the definitions'
    # uses (select.follow_references), and because the base's reading, under no definitions,
    # has no such entries (it must not take over the pull request's parse of the same text:
    # tests/sources/test_second_reading.py).
    "reference-definitions": (
        f"# L\n\n{BY_LABEL}{MEMORYBANK}",
        f"# L\n\n{BY_LABEL}{MEMORYBANK}\n{LABELS}",
    ),
}


@pytest.fixture
def arxiv(loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[ArxivDouble]:
    double = ArxivDouble({"2305.10250": Paper("2305.10250", KNOWN)})
    monkeypatch.setenv("CURATOR_ARXIV_API_URL", double.install(loopback))
    monkeypatch.setenv("CURATOR_ARXIV_DELAY", "0")
    yield double


@pytest.mark.parametrize("name", list(REVEALS))
def test_entries_brought_out_of_hiding_are_checked(
    name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arxiv: ArxivDouble,
) -> None:
    base, head = REVEALS[name]
    _git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "README.md").write_text(base, encoding="utf-8")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base")
    (tmp_path / "README.md").write_text(head, encoding="utf-8")
    _git(tmp_path, "commit", "-qam", "pull request")
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    status = main(["check", "README.md", "--changed-since", "HEAD~1", "--format", "json",
                   "--skip", "github,web,scope", "--no-cache"])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    missing = {f["subject"] for f in report["findings"] if f["code"] == "arxiv-not-found"}
    assert status == 1
    assert missing == {f"arxiv:2501.9999{n}" for n in range(1, 5)}


def entry(subject: str, line: int, title: str = "T") -> Entry:
    return Entry(subject, Kind.PAPER, Source("README.md", line), title=title)


def test_a_moved_or_unchanged_entry_is_not_new_an_edited_or_repeated_one_is() -> None:
    before = [entry("arxiv:1", 3), entry("arxiv:2", 4), entry("arxiv:3", 5)]
    after = [
        entry("arxiv:2", 3),  # moved up
        entry("arxiv:1", 9),  # moved down
        entry("arxiv:3", 10, title="Retitled"),  # says something else
        entry("arxiv:1", 11),  # a second copy
    ]
    assert new_entries(after, {"README.md": before}) == after[2:]
    assert new_entries(after, {"README.md": None}) == after  # the base could not be read
    assert new_entries(after, {}) == []  # the file did not change in part

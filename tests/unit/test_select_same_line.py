"""Every entry on a line a pull request adds or reveals is checked, not only the last.

Pull-request mode picks an entry when its span (its own line up to the line before the next
entry's) holds a changed line. Two entries on one line (a list item naming two papers, a
table row of two, prose) gave the first an empty span: a pull request could add a paper
that does not exist in front of one that does, and only the real one was checked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.cli import main
from curator.core.model import Entry, Kind, Source
from curator.sources.select import select_changed
from tests.unit.test_attack_second_reading import _commit, repo  # noqa: F401 (a fixture)
from tests.unit.test_select_revealed import KNOWN, arxiv  # noqa: F401 (a fixture)


def test_entries_sharing_a_line_share_its_change() -> None:
    def at(subject: str, line: int) -> Entry:
        return Entry(subject, Kind.PAPER, Source("README.md", line), title=subject)

    entries = [at("arxiv:1", 3), at("arxiv:2", 3), at("arxiv:3", 3), at("arxiv:4", 5)]
    assert select_changed(entries, {"README.md": {3}}) == entries[:3]
    assert select_changed(entries, {"README.md": {4}}) == entries[2:3]
    assert select_changed(entries, {"README.md": {5}}) == entries[3:]


MEMORYBANK = f"[{KNOWN}](https://arxiv.org/abs/2305.10250)"
FAKE = "[Fake Memory Paper](https://arxiv.org/abs/2501.99991)"


@pytest.mark.usefixtures("repo", "arxiv")
@pytest.mark.parametrize(
    "line",
    [
        f"- {FAKE}, {MEMORYBANK}",  # a list item naming two papers
        f"See {FAKE} and {MEMORYBANK}.",  # prose
        f"| {FAKE} | {MEMORYBANK} |",  # a table row
    ],
)
def test_every_entry_on_an_added_line_is_checked(
    line: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A line a pull request adds holding two entries: both are checked, not only the last
    (select_changed gave the first an empty span: its own line up to the next entry's - 1)."""
    table = "| Paper | Paper |\n| --- | --- |\n" if line.startswith("|") else ""
    base = f"# L\n\n## Papers\n\n- {MEMORYBANK}\n\n"
    _commit(Path.cwd(), {"README.md": base}, "base")
    _commit(Path.cwd(), {"README.md": f"{base}{table}{line}\n"}, "pull request")
    capsys.readouterr()
    status = main(["check", "README.md", "--changed-since", "HEAD~1", "--format", "json",
                   "--skip", "github,web,scope", "--no-cache"])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    missing = {f["subject"] for f in report["findings"] if f["code"] == "arxiv-not-found"}
    assert missing == {"arxiv:2501.99991"}
    assert status == 1

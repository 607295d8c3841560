"""Issue 29, defects 1 and 2: a pull request that hides an entry from the reader.

A reader never stops silently: a list or quote nested past what markdown-it nests is read as
plain lines, and everything after it is still read. A line is what git and GitHub call a
line: the catalogue's Unicode line breaks inside a value start no line, so the lines a pull
request changes select the entries it changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer
from tests.doubles.world import World, git
from tests.reliability.conftest import Record
from tests.reliability.world import Run, run_cli

CASES = {
    "markdown-ten-nested-list-markers": "attack",
    "markdown-blockquote-19-deep": "attack",
    "yaml-unicode-line-breaks-in-a-title": "attack",
}

KNOWN = "MemoryBank: Enhancing Large Language Models with Long-Term Memory"
MEMORYBANK = f"- [{KNOWN}](https://arxiv.org/abs/2305.10250)\n"
#: An arXiv ID arXiv does not know, added by the pull request.
MADE_UP = "- [A Paper About Agent Memory That Does Not Exist](https://arxiv.org/abs/2501.99991)\n"
#: case -> the line the pull request adds before its made-up paper. GitHub renders ten
#: nested bullets; and a quote 19 deep in a list item, which the next line continues.
OVER_DEEP = {
    "markdown-ten-nested-list-markers": "- " * 10 + "x\n\n",
    "markdown-blockquote-19-deep": "- " + "> " * 19 + "see below\n",
}


@pytest.fixture
def arxiv(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ArxivDouble]:
    double = ArxivDouble({"2305.10250": Paper("2305.10250", KNOWN)})
    World.start(loopback, tmp_path, arxiv=double, cache="").point(monkeypatch)
    yield double


def _check(capsys: pytest.CaptureFixture[str], root: Path, *args: str) -> Run:
    out = root / "report.json"
    argv = ["check", "README.md", *args, "--format", "json", "--output", str(out)]
    return run_cli([*argv, "--skip", "github,web,scope", "--no-cache"], capsys, out)


@pytest.mark.parametrize("case", list(OVER_DEEP))
def test_a_paper_after_an_over_deep_line_is_checked(
    case: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    arxiv: ArxivDouble,
    record: Record,
) -> None:
    git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "README.md").write_text(f"# L\n\n{MEMORYBANK}", encoding="utf-8")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "base")
    head = f"# L\n\n{MEMORYBANK}\n{OVER_DEEP[case]}{MADE_UP}"
    (tmp_path / "README.md").write_text(head, encoding="utf-8")
    git(tmp_path, "commit", "-qam", "pull request")
    monkeypatch.chdir(tmp_path)
    made_up = ("arxiv-not-found", "arxiv:2501.99991")
    pull = _check(capsys, tmp_path, "--changed-since", "HEAD~1")
    assert pull.status == 1, pull.report
    assert made_up in pull.findings()
    assert "document-unread" not in {code for code, _ in pull.findings()}
    audit = _check(capsys, tmp_path)  # the nightly audit reads the whole list
    assert audit.status == 1 and made_up in audit.findings()
    # Where the reading went flat is named, with the file and line.
    assert any(n.startswith("README.md:5: lists or quotes nested") for n in pull.report["notes"])
    record(
        case,
        "exit 1, arxiv-not-found for the paper after it (pull request and audit); "
        "the deep part read as plain lines, named in a note",
        hostile=1,
        refused=1,
        seconds=pull.elapsed + audit.elapsed,
    )


def _catalog(title: str, last_date: str) -> str:
    """Three papers; the first one's title is `title`, the last one's date `last_date`."""
    rows = [(title, "2305.10250", "2023-05"), ("Untouched Paper", "2305.10251", "2023-05"),
            ("Changed Paper", "2305.10252", last_date)]  # fmt: skip
    items = "".join(
        f'  - title: "{name}"\n    arxiv: "{base}"\n    date: "{date}"\n'
        for name, base, date in rows
    )
    return "section: Memory\npapers:\n" + items


@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x85", "\r"], ids=["LS", "PS", "NEL", "CR"])
def test_line_breaks_in_a_title_move_no_later_entry(
    brk: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    loopback: LoopbackServer,
    record: Record,
) -> None:
    title = "A Title" + brk * 6 + "With Six Line Breaks"
    papers = {"2305.10250": "A Title With Six Line Breaks", "2305.10251": "Untouched Paper",
              "2305.10252": "Changed Paper"}  # fmt: skip
    double = ArxivDouble({b: Paper(b, t, published="2023-05-10T12:00:00Z")
                          for b, t in papers.items()})  # fmt: skip
    World.start(loopback, tmp_path, arxiv=double, cache="").point(monkeypatch)
    git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "data").mkdir()
    catalogue = tmp_path / "data" / "papers.yaml"
    catalogue.write_bytes(_catalog(title, "2023-05").encode())
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "base")
    catalogue.write_bytes(_catalog(title, "someday").encode())  # line 11 only
    git(tmp_path, "commit", "-qam", "pull request")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "report.json"
    run = run_cli(
        ["check", "data", "--changed-since", "HEAD~1", "--format", "json", "--output", str(out),
         "--skip", "github,web,scope", "--no-cache", "--fail-on", "error"],
        capsys, out,
    )  # fmt: skip
    assert run.status == 1, run.report
    assert {f["code"] for f in run.report["findings"]} == {"entry-invalid"}
    invalid = [f for f in run.report["findings"] if f["code"] == "entry-invalid"]
    assert [(f["subject"], f["source"]["line"]) for f in invalid] == [("arxiv:2305.10252", 9)]
    assert invalid[0]["evidence"].startswith("line 11: date: 'someday'")
    # Only the changed entry is checked: not the untouched one the shifted lines pointed at.
    checked = [(e["subject"], e["source"]["line"]) for e in run.report["entries"]]
    assert checked == [("arxiv:2305.10252", 9)]
    if brk == "\u2028":
        record(
            "yaml-unicode-line-breaks-in-a-title",
            "exit 1, entry-invalid of the changed entry at its git line; only it is checked "
            "(U+2028, U+2029, U+0085, lone CR)",
            hostile=4,
            refused=4,
            seconds=run.elapsed,
        )

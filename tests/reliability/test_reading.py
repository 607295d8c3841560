"""Issue 29, defects 1 and 2: a pull request that hides an entry from the reader.

A reader never stops silently: a list or quote nested past what markdown-it nests is read as
plain lines, and everything after it is still read. A line is what git and GitHub call a
line: the catalogue's Unicode line breaks inside a value start no line, so the lines a pull
request changes select the entries it changed.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer
from tests.reliability.conftest import Record
from tests.reliability.world import Run, run_cli

CASES = {
    "markdown-ten-nested-list-markers": "attack",
    "markdown-blockquote-19-deep": "attack",
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


def _git(cwd: Path, *args: str) -> None:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    subprocess.run(["git", *ident, *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def arxiv(loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[ArxivDouble]:
    double = ArxivDouble({"2305.10250": Paper("2305.10250", KNOWN)})
    monkeypatch.setenv("CURATOR_ARXIV_API_URL", double.install(loopback))
    monkeypatch.setenv("CURATOR_ARXIV_DELAY", "0")
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
    _git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "README.md").write_text(f"# L\n\n{MEMORYBANK}", encoding="utf-8")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base")
    head = f"# L\n\n{MEMORYBANK}\n{OVER_DEEP[case]}{MADE_UP}"
    (tmp_path / "README.md").write_text(head, encoding="utf-8")
    _git(tmp_path, "commit", "-qam", "pull request")
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

"""`--format github`: workflow-command annotations with GitHub's escaping, and the summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.core.model import Finding, Report, Severity, Source
from curator.report import github
from tests.report.sample import hostile_report, realistic_report


def test_escaping_matches_actions_toolkit() -> None:
    """Data escapes %, CR, LF; properties also : and , (as @actions/core does)."""
    assert github.escape_data("100%\r\nx") == "100%25%0D%0Ax"
    assert github.escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"


def test_one_command_per_finding() -> None:
    """Each finding is one ::level line with file, line and title."""
    lines = github.render(realistic_report()).splitlines()
    assert len(lines) == 4
    assert lines[0].startswith(
        "::error file=data/papers/2024.yaml,line=12,title=curator arxiv-title-mismatch::"
    )
    assert lines[2].startswith("::warning file=data/projects.yaml,line=48,")
    assert lines[3].startswith("::notice ")


def test_properties_with_commas_and_colons() -> None:
    """A file name with , or : cannot add or end a property."""
    f = Finding("link-broken", Severity.ERROR, "u", Source("d/a,b:c.yaml", 3), "gone")
    line = github.render(Report((), (f,)))
    assert line == "::error file=d/a%2Cb%3Ac.yaml,line=3,title=curator link-broken::gone\n"


def test_hostile_text_cannot_start_a_command() -> None:
    """Newlines in untrusted text never reach stdout, so no second command can start."""
    out = github.render(hostile_report())
    lines = out.splitlines()
    assert len(lines) == 2
    assert all(line.startswith(("::error file=", "::notice file=")) for line in lines)
    assert "%250A" in out  # the literal "%0A" in the title is itself escaped


def test_write_summary_appends(tmp_path: Path) -> None:
    """The summary is appended, never overwritten."""
    path = tmp_path / "summary.md"
    path.write_text("# before\n", encoding="utf-8")
    written = github.write_summary("## curator\n", path)
    assert path.read_text(encoding="utf-8") == "# before\n## curator\n"
    assert written == len("## curator\n")


def test_write_summary_respects_one_mebibyte(tmp_path: Path) -> None:
    """A summary that would pass 1 MiB is cut at a line end with a note."""
    path = tmp_path / "summary.md"
    path.write_text("x" * 1000 + "\n", encoding="utf-8")
    github.write_summary("line ✓\n" * 200_000, path)
    data = path.read_bytes()
    assert len(data) <= github.SUMMARY_LIMIT
    assert data.decode("utf-8").endswith("see the report artifact.\n")


def test_write_summary_uses_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a path it writes to $GITHUB_STEP_SUMMARY, and does nothing when unset."""
    assert github.write_summary("x") == 0
    path = tmp_path / "s.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(path))
    github.write_summary("hello")
    assert path.read_text(encoding="utf-8") == "hello\n"

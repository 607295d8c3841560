"""`--format text`: `path:line: severity code message` lines grouped by file, the suggestion
under each, a summary line; never wider than the width, every untrusted string inert."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len

from curator.console.terminal import Display
from curator.core.model import (
    Entry,
    EntryResult,
    Finding,
    Kind,
    Report,
    RequestCounts,
    Severity,
    Source,
)
from curator.report.text import render, summary_line
from tests.report.sample import hostile_report, realistic_report

#: What colour adds (SGR); anything else starting with ESC came from the report.
SGR = re.compile(r"\x1b\[[0-9;]*m")

COMPACT_80 = """\
data/papers/2024.yaml:12: error arxiv-title-mismatch arxiv:2310.08560: The title
    differs from arXiv's.
    → MemGPT: Towards LLMs as Operating Systems
data/papers/2024.yaml:30: warning scope-review arxiv:2005.11401: Matches an
    exclusion signal; a maintainer should decide.

data/projects.yaml:48: warning repo-moved github:mem0ai/mem0: The repository was
    renamed.
    → https://github.com/mem0ai/mem0-core
data/projects.yaml:48: info link-redirect https://mem0.ai: Permanent redirect.
    → https://www.mem0.ai/
note: GitHub token present.
Found 1 error, 2 warnings, 1 info in 3 entries (1 arXiv, 2 GitHub, 2 web
    requests; 3 from cache) in 4.3 s
"""

VERBOSE_100 = """\
data/papers/2024.yaml:12: error arxiv-title-mismatch arxiv:2310.08560: The title differs from
    arXiv's.
    → MemGPT: Towards LLMs as Operating Systems
    evidence: MemGPT: Towards LLMs as Operating Systems
data/papers/2024.yaml:30: warning scope-review arxiv:2005.11401: Matches an exclusion signal; a
    maintainer should decide.
    evidence: retrieval-augmented generation for knowledge-intensive NLP tasks

data/projects.yaml:48: warning repo-moved github:mem0ai/mem0: The repository was renamed.
    → https://github.com/mem0ai/mem0-core
data/projects.yaml:48: info link-redirect https://mem0.ai: Permanent redirect.
    → https://www.mem0.ai/

data/papers/2024.yaml: 2 entries (2 papers)
data/projects.yaml: 1 entry (1 project)
note: GitHub token present.
Found 1 error, 2 warnings, 1 info in 3 entries (1 arXiv, 2 GitHub (1 GraphQL, 1 REST), 2 web
    requests; 3 from cache) in 4.3 s
"""


def widths(text: str) -> list[int]:
    """Display cells of each line, colour codes taken out."""
    return [cell_len(SGR.sub("", line)) for line in text.splitlines()]


def test_compact_layout_at_80_columns() -> None:
    assert render(realistic_report()) == COMPACT_80


def test_verbose_adds_evidence_entries_and_the_github_split() -> None:
    out = render(realistic_report(), display=Display(width=100, verbose=True))
    assert out == VERBOSE_100
    assert "evidence:" not in render(realistic_report(), display=Display(width=100))


def test_findings_are_grouped_by_file_then_line_whatever_their_severity() -> None:
    def at(file: str, line: int, sev: Severity) -> Finding:
        return Finding("link-broken", sev, f"https://e.x/{line}", Source(file, line), "gone")

    findings = (
        at("b.md", 9, Severity.ERROR),
        at("a.md", 5, Severity.ERROR),
        at("b.md", 2, Severity.INFO),
        at("a.md", 1, Severity.WARNING),
    )
    out = render(Report((), findings), display=Display(width=200)).splitlines()
    assert [line.split(":")[0] + ":" + line.split(":")[1] for line in out[:5] if line] == [
        "a.md:1",
        "a.md:5",
        "b.md:2",
        "b.md:9",
    ]
    assert out[2] == ""  # one blank line between files


def test_the_subject_leads_only_when_the_message_does_not_name_it() -> None:
    src = Source("a.md", 1)
    named = Finding("arxiv-not-found", Severity.ERROR, "arxiv:2401.1", src, "arXiv:2401.1 gone")
    repo = Finding("repo-archived", Severity.WARNING, "github:o/r", src, "o/r is archived")
    url = Finding("link-broken", Severity.ERROR, "https://e.x/", src, "url link is broken")
    out = render(Report((), (named, repo, url)), display=Display(width=200))
    assert "arxiv-not-found arXiv:2401.1 gone" in out
    assert "repo-archived o/r is archived" in out
    assert "link-broken https://e.x/: url link is broken" in out


@pytest.mark.parametrize("width", [24, 40, 80, 200])
@pytest.mark.parametrize("verbose", [False, True])
@pytest.mark.parametrize("color", [False, True])
def test_no_line_is_wider_than_the_display(width: int, verbose: bool, color: bool) -> None:
    wide = "記憶を持つ大規模言語モデル🧠🦙 Mémoire des LLM, très longue " * 3
    src = Source("data/論文/2024.yaml", 7)
    findings = (
        Finding("arxiv-title-mismatch", Severity.ERROR, "arxiv:2401.00001", src, wide, wide, wide),
        Finding("link-broken", Severity.ERROR, "https://e.x/" + "a" * 150, src, "gone"),
    )
    entries = (EntryResult(Entry("arxiv:2401.00001", Kind.PAPER, src, wide)),)
    reports = (Report(entries, findings, notes=(wide,)), hostile_report(), realistic_report())
    for report in reports:
        out = render(report, display=Display(width=width, color=color, verbose=verbose))
        assert max(widths(out)) <= width
        assert ("\x1b[" in out) is color


def test_wrapping_keeps_every_character_of_a_wide_title() -> None:
    title = "長期記憶を備えた対話エージェント🧠による検索拡張生成の評価" * 2
    finding = Finding("scope-review", Severity.WARNING, "arxiv:1", Source("a.md", 1), title)
    out = render(Report((), (finding,)), display=Display(width=30))
    assert "".join(line.strip() for line in out.splitlines()).count(title) == 1


HOSTILE = "\x1b]0;owned\x07\x1b[2J\x9b31m\u202etxt.exe\r\n::error::pwned ##[warning]x"


@pytest.mark.parametrize("color", [False, True])
def test_no_escape_sequence_or_workflow_command_from_any_field(color: bool) -> None:
    # A re-rendered JSON report (`curator report`) is untrusted: even its codes and notes.
    finding = Finding(
        HOSTILE, Severity.ERROR, HOSTILE, Source(HOSTILE, 3), HOSTILE, HOSTILE, HOSTILE
    )
    entry = EntryResult(Entry(HOSTILE, Kind.PAPER, Source(HOSTILE, 3), HOSTILE))
    report = Report((entry,), (finding,), notes=(HOSTILE,))
    out = render(report, display=Display(width=60, color=color, verbose=True))
    plain = SGR.sub("", out)
    for raw in ("\x1b", "\x07", "\x9b", "\u202e", "\r"):
        assert raw not in plain
    assert "\\x1b]0;owned\\x07" in plain  # shown, not sent
    assert "\\u202e" in plain
    for line in plain.splitlines():
        assert not line.lstrip().startswith("::")  # the runner trims the indent
        assert "##[" not in line


def test_paths_under_the_working_directory_are_relative() -> None:
    cwd = "/home/me/list"
    inside = Finding(
        "entry-duplicate",
        Severity.ERROR,
        "arxiv:1",
        Source(f"{cwd}/data/a.yaml", 4),
        "arxiv:1 is listed 2 times",
        f"first at {cwd}/data/b.yaml:9",
    )
    outside = Finding("link-broken", Severity.ERROR, "https://e.x/", Source("/srv/b.md", 2), "x")
    report = Report((), (inside, outside), notes=(f"no scope rules at {cwd}/rules/scope.yaml",))
    out = render(report, display=Display(width=120, verbose=True, cwd=cwd))
    assert cwd not in out
    assert "data/a.yaml:4: error entry-duplicate" in out
    assert "evidence: first at data/b.yaml:9" in out
    assert "note: no scope rules at rules/scope.yaml" in out
    assert "/srv/b.md:2: error link-broken" in out  # outside: as given


def test_summary_line_counts_and_requests() -> None:
    assert summary_line(Report((), ())) == "No findings in 0 entries (no requests) in 0.0 s"
    findings = (
        Finding("arxiv-unverified", Severity.WARNING, "arxiv:1", Source("a", 1), "m"),
        Finding("repo-archived", Severity.WARNING, "github:o/r", Source("a", 2), "m"),
    )
    counts = RequestCounts(arxiv=1, github_rest=4, cache_hits=7)
    line = summary_line(Report((), findings, counts, elapsed=2.06), detail=True)
    assert line == (
        "Found 2 warnings (1 could not be verified) in 0 entries "
        "(1 arXiv, 4 GitHub (4 REST) requests; 7 from cache) in 2.1 s"
    )


def test_could_not_be_verified_counts_outages_only() -> None:
    """A `scope-hold` (a paper with no official abstract) is no outage: when every service
    answered, the summary says nothing could not be verified (issue 31)."""
    held = Finding("scope-hold", Severity.WARNING, "https://openreview.net/x", Source("a", 1), "m")
    assert "could not be verified" not in summary_line(Report((), (held,)))
    outage = Finding("arxiv-unverified", Severity.WARNING, "arxiv:1", Source("a", 2), "m")
    assert "(1 could not be verified)" in summary_line(Report((), (held, outage)))

"""DocumentSource: awesome-list documents (HTML paper rows, Markdown project links)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from curator.checks.interface import CheckContext
from curator.config.options import Options
from curator.core.errors import InputError
from curator.core.model import Entry, Kind, Service, Severity
from curator.core.normalize import github_subject, parse_arxiv_id
from curator.sources.document import DocumentSource
from curator.sources.interface import ListSource, Loaded
from curator.sources.yaml_catalog import display_path
from tests.conftest import SAMPLES

CASES = Path(__file__).resolve().parent.parent / "cases" / "documents"
IAAR = SAMPLES / "iaar-awesome-ai-memory.README.excerpt.md"
XIAOMINGX = SAMPLES / "xiaomingx-awesome-ai-memory.README.md"


def load(path: Path) -> Loaded:
    return DocumentSource().load(path)


def by_kind(loaded: Loaded, kind: Kind) -> list[Entry]:
    return [e for e in loaded.entries if e.kind is kind]


def test_satisfies_the_source_protocol() -> None:
    source: ListSource = DocumentSource()
    assert source.name == "document"


@pytest.mark.parametrize("case", sorted(p.stem for p in CASES.glob("*.md")))
def test_case_documents(case: str) -> None:
    loaded = load(CASES / f"{case}.md")
    expected = json.loads((CASES / f"{case}.expected.json").read_text(encoding="utf-8"))
    got_entries = [
        [e.source.line, e.kind.value, e.subject, e.title, e.date, e.section] for e in loaded.entries
    ]
    got_findings = [[f.source.line, f.code, f.subject] for f in loaded.findings]
    assert got_entries == expected["entries"]
    assert got_findings == expected["findings"]
    assert loaded.files == (display_path(CASES / f"{case}.md"),)


def test_well_formed_row_keeps_every_field() -> None:
    first = load(CASES / "paper_rows.md").entries[0]
    assert first.tags == ("Agent Memory", "RAG")
    assert first.summary == "• First bullet.\n• Second & bullet.\n• Third bullet."
    assert [(lk.role, lk.service, lk.subject) for lk in first.links] == [
        ("paper", Service.ARXIV, "arxiv:2503.01234"),
        ("code", Service.GITHUB, "github:some-org/some-repo"),
    ]
    assert first.fields == {"arxiv": "2503.01234v2"}
    assert first.subjects() == ("arxiv:2503.01234", "github:some-org/some-repo")


def test_venue_link_is_the_paper_link() -> None:
    venue = next(e for e in load(CASES / "paper_rows.md").entries if "Venue" in e.title)
    assert [(lk.role, lk.service) for lk in venue.links] == [("paper", Service.WEB)]
    assert venue.fields == {"url": "https://aclanthology.org/2024.acl-long.1.pdf"}


def test_invalid_rows_say_what_is_missing() -> None:
    messages = {f.source.line: f.message for f in load(CASES / "paper_rows.md").findings}
    assert "no opening <tr>" in messages[32]
    assert "'2025-12-33' is not a date" in messages[40]
    assert "no date" in messages[84] and "no summary row" in messages[84]
    assert "no link" in messages[90]


def test_project_rows_keep_websites_and_columns() -> None:
    entries = {e.title: e for e in load(CASES / "projects.md").entries}
    alpha = entries["Alpha"]
    assert [(lk.role, lk.url) for lk in alpha.links] == [
        ("repo", "https://github.com/Alpha-Org/Alpha"),
        ("website", "https://alpha.example.org/"),
    ]
    assert alpha.fields["since"] == "2024-05-01"
    assert entries["Chroma"].fields["category"] == "向量数据库"
    assert entries["Mem Zero"].summary == "记忆层。"
    assert entries["Gamma"].subjects() == ("github:g/gamma",)


def test_severity_follows_configuration() -> None:
    context = CheckContext(options=Options(severity={"entry-invalid": Severity.WARNING}))
    loaded = DocumentSource(context).load(CASES / "projects.md")
    assert [f.severity for f in loaded.findings] == [Severity.WARNING]
    assert load(CASES / "projects.md").findings[0].severity is Severity.ERROR


def test_section_returns_to_heading_after_details(tmp_path: Path) -> None:
    doc = tmp_path / "list.md"
    doc.write_text(
        "## Papers\n\n<details><summary>Inner</summary>\n\n"
        "| System |\n|---|\n| [a/b](https://github.com/a/b) |\n\n</details>\n\n"
        "| System |\n|---|\n| [c/d](https://github.com/c/d) |\n",
        encoding="utf-8",
    )
    assert [e.section for e in load(doc).entries] == ["Inner", "Papers"]


# --- the real sample documents ------------------------------------------------------------


def test_iaar_sample_every_paper_row() -> None:
    text = IAAR.read_text(encoding="utf-8")
    papers = [p for p in by_kind(load(IAAR), Kind.PAPER) if p.summary]
    # Independent count: each two-row paper starts with one rowspan date cell.
    assert len(papers) == text.count('rowspan="2"') == 25
    hrefs = re.findall(r'<a href="(https://[^"]+)"', text)
    arxiv_ids = {parse_arxiv_id(h) for h in hrefs if "arxiv.org" in h}
    venues = {h for h in hrefs if "dl.acm.org" in h}
    assert {p.subject for p in papers} == {a.subject for a in arxiv_ids if a} | venues
    assert len(arxiv_ids) == 23 and len(venues) == 2
    for paper in papers:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", paper.date), paper
        assert paper.title and paper.tags and paper.section == "Survey"
    # Every bullet line of the document lands in one summary (two papers have only two).
    bullet_lines = [line for line in text.splitlines() if line.strip().startswith("•")]
    summary_lines = [line for p in papers for line in p.summary.split("\n")]
    assert all(line.startswith("•") for line in summary_lines)
    assert len(summary_lines) == len(bullet_lines) == 73


def test_iaar_sample_benchmark_table_one_paper_per_named_link() -> None:
    lines = IAAR.read_text(encoding="utf-8").splitlines()
    start = lines.index("### 📊 Benchmarks and Tasks")
    end = lines.index("### 💻 Systems and Open Sources")
    ids = {
        f"arxiv:{m}"
        for line in lines[start:end]
        for m in re.findall(r"arxiv\.org/(?:abs|pdf)/(\d{4}\.\d{5})", line)
    }
    papers = [p for p in by_kind(load(IAAR), Kind.PAPER) if start < p.source.line <= end]
    assert {p.subject for p in papers} == ids and len(ids) > 20
    memory_agent_bench = next(p for p in papers if p.subject == "arxiv:2507.05257")
    assert memory_agent_bench.title == "MemoryAgentBench"
    # The ACL Anthology links of the same cells are still checked, as plain links.
    links = {lk.url for e in by_kind(load(IAAR), Kind.LINK) for lk in e.links}
    assert "https://aclanthology.org/2025.emnlp-main.580.pdf" in links


def test_iaar_sample_every_system_row() -> None:
    lines = IAAR.read_text(encoding="utf-8").splitlines()
    start = lines.index("### 💻 Systems and Open Sources")
    rows = [line for line in lines[start:] if line.startswith("|") and "github.com/" in line]
    projects = by_kind(load(IAAR), Kind.PROJECT)
    assert len(projects) == len(rows) == 76
    assert [p.title for p in projects] == [r.split("|")[1].strip() for r in rows]
    assert all(p.section == "💻 Systems and Open Sources" and p.date for p in projects)
    assert projects[0].fields == {
        "repo": "https://github.com/getzep/zep",
        "since": "2023-05-19",
        "website": "https://www.getzep.com/",
    }


def test_iaar_sample_has_no_invented_entries_or_findings() -> None:
    loaded = load(IAAR)
    assert loaded.findings == ()
    # The list's own badges link to its repository; a badge is not an entry.
    assert "github:iaar-shanghai/awesome-ai-memory" not in {
        s for e in loaded.entries for s in e.subjects()
    }
    # Prose links (the licence badge's target, the Chinese version) are plain links.
    plain = {e.subject for e in by_kind(loaded, Kind.LINK)}
    assert "https://opensource.org/licenses/MIT" in plain


def test_xiaomingx_sample_every_repository_link() -> None:
    text = XIAOMINGX.read_text(encoding="utf-8")
    # Independent count: Markdown links whose target is a github.com repository.
    targets = re.findall(r"\]\((https://github\.com/[^)\s]+)\)", text)
    repos = [github_subject(t) for t in targets if github_subject(t) and "?" not in t]
    projects = by_kind(load(XIAOMINGX), Kind.PROJECT)
    assert len(projects) == len(repos) == 41
    assert [p.subject for p in projects] == repos
    assert load(XIAOMINGX).findings == ()
    mem0 = projects[0]
    assert (mem0.title, mem0.section) == ("Mem0", "🏗️ 1. 聚合记忆层 (Integrated Memory Layers)")


# --- unreadable input ---------------------------------------------------------------------


def test_accepts_markdown_files_only(tmp_path: Path) -> None:
    source = DocumentSource()
    (tmp_path / "folder.md").mkdir()
    assert source.accepts(tmp_path / "README.md")
    assert source.accepts(tmp_path / "LIST.MARKDOWN")
    assert not source.accepts(tmp_path / "papers.yaml")
    assert not source.accepts(tmp_path / "folder.md")


@pytest.mark.parametrize(
    ("content", "needle"),
    [(b"# ok\n\xff\xfe broken\n", "not UTF-8"), (b"# ok\n\x00\n", "NUL")],
)
def test_unreadable_documents_raise(tmp_path: Path, content: bytes, needle: str) -> None:
    doc = tmp_path / "README.md"
    doc.write_bytes(content)
    with pytest.raises(InputError, match=needle) as caught:
        load(doc)
    assert caught.value.line == 2


def test_missing_document_raises(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load(tmp_path / "README.md")


def test_a_bare_url_is_no_title() -> None:
    # A cell holding only `https://arxiv.org/abs/…` names no paper: the Framework column
    # does, as a short name (never compared with arXiv's title).
    papers = by_kind(load(CASES / "bare_url_table.md"), Kind.PAPER)
    assert [(e.title, e.short_title) for e in papers[1:3]] == [("FeB4RAG", True), ("CDQA", True)]
    assert not any("://" in e.title for e in load(CASES / "bare_url_table.md").entries)

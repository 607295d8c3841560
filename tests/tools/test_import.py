"""import_document: awesome-list documents into catalogue YAML, and back through render."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from curator.core.model import Entry, Kind, Severity
from curator.sources.document import DocumentSource
from curator.sources.yaml_catalog import CatalogSource, display_path, schema
from curator.tools.import_ import import_document, slug
from curator.tools.render import render
from tests.conftest import SAMPLES

HERE = Path(__file__).resolve().parent
CASES = HERE.parent / "cases" / "documents"
SAMPLE_DOCS = [
    SAMPLES / "iaar-awesome-ai-memory.README.excerpt.md",
    SAMPLES / "xiaomingx-awesome-ai-memory.README.md",
    SAMPLES / "woooodyy-llm-agent-paper-list.README.md",
    SAMPLES / "xnhyacinth-awesome-llm-long-context-modeling.README.md",
    SAMPLES / "hymie122-rag-survey.README.md",
]
SAMPLE_IDS = ["iaar", "xiaomingx", "woooodyy", "xnhyacinth", "hymie122"]


def identity(entry: Entry) -> tuple[object, ...]:
    subjects = entry.subjects()
    summary = entry.summary if entry.kind is Kind.PAPER else ""  # projects gain a category
    return (entry.kind, entry.subject, entry.title, entry.date, entry.section, entry.tags, subjects,
            summary)  # fmt: skip


@pytest.mark.parametrize("doc", SAMPLE_DOCS[:2], ids=SAMPLE_IDS[:2])
def test_round_trip_keeps_every_paper_and_project(doc: Path, tmp_path: Path) -> None:
    original = DocumentSource().load(doc)
    result = import_document(doc, tmp_path / "data")
    assert (result.papers, result.projects) == (
        sum(e.kind is Kind.PAPER for e in original.entries),
        sum(e.kind is Kind.PROJECT for e in original.entries),
    )
    rendered = render(tmp_path / "data", tmp_path / "README.md")
    again = DocumentSource().load(tmp_path / "README.md")
    # `render` writes the home list's layout (the two lists in it round-trip); papers and
    # projects, not the original's plain links.
    listed = [e for e in original.entries if e.kind is not Kind.LINK]
    assert Counter(map(identity, again.entries)) == Counter(map(identity, listed))
    assert original.findings == ()
    # The two-row layout wants a date; papers the list gave none say so once rendered.
    undated = {e.subject for e in listed if e.kind is Kind.PAPER and not e.date}
    assert {f.subject for f in again.findings} == undated
    assert all(f.message.endswith("no date") for f in again.findings)
    assert (rendered.papers, rendered.projects) == (result.papers, result.projects)


@pytest.mark.slow
@pytest.mark.parametrize("doc", SAMPLE_DOCS, ids=SAMPLE_IDS)
def test_imported_folder_has_the_documents_subjects(doc: Path, tmp_path: Path) -> None:
    import_document(doc, tmp_path / "data")
    catalog = CatalogSource().load(tmp_path / "data")
    document = DocumentSource().load(doc)
    assert catalog.findings == ()
    assert {s for e in catalog.entries for s in e.subjects()} == {
        s for e in document.entries for s in e.subjects()
    }
    assert Counter(e.subject for e in catalog.entries if e.kind is Kind.PAPER) == Counter(
        e.subject for e in document.entries if e.kind is Kind.PAPER
    )


def test_files_follow_the_catalogue_shape(tmp_path: Path) -> None:
    doc = SAMPLES / "iaar-awesome-ai-memory.README.excerpt.md"
    result = import_document(doc, tmp_path)
    assert [Path(f).relative_to(tmp_path).as_posix() for f in result.files] == [
        "papers/survey.yaml",
        "papers/benchmarks-and-tasks.yaml",
        "projects.yaml",
        "links.yaml",
        "schema.json",
    ]
    survey = (tmp_path / "papers" / "survey.yaml").read_text(encoding="utf-8")
    assert survey.startswith("# yaml-language-server: $schema=../schema.json\n")
    # the source as curator shows paths (relative to the working folder when below it)
    assert f"  # {display_path(doc)}:32\n  - title: " in survey
    first = yaml.safe_load(survey)["papers"][0]
    assert first == {
        "title": "Agents That Know Too Much: A Data-Centric Survey of Privacy in LLM Agents",
        "arxiv": "2606.26627v1",
        "date": "2026-06-25",
        "tags": ["Survey", "Agent Privacy", "Data Governance", "Memory Risk"],
        "summary": first["summary"],
    }
    assert first["summary"].count("\n• ") == 2
    projects = yaml.safe_load((tmp_path / "projects.yaml").read_text(encoding="utf-8"))
    assert projects["projects"][0] == {
        "name": "Zep",
        "repo": "https://github.com/getzep/zep",
        "website": "https://www.getzep.com/",
        "since": "2023-05-19",
        "category": "💻 Systems and Open Sources",
    }
    assert (tmp_path / "schema.json").read_text(encoding="utf-8").strip().startswith("{")
    assert schema()["title"] == "curator catalogue file"


def test_incomplete_rows_are_imported_and_listed(tmp_path: Path) -> None:
    result = import_document(CASES / "paper_rows.md", tmp_path)
    papers = [e for e in CatalogSource().load(tmp_path).entries if e.kind is Kind.PAPER]
    document = DocumentSource().load(CASES / "paper_rows.md").entries
    assert [e.title for e in papers] == [e.title for e in document if e.kind is Kind.PAPER]
    assert len(papers) == 7
    lines = [w.split(": ")[0].rsplit(":", 1)[1] for w in result.warnings]
    assert lines == ["32", "40", "79", "84", "90"]
    assert any("no link, so no identity" in w for w in result.warnings)
    # The catalogue flags the date that is no date too: the import does not mend it.
    invalid = [f for f in CatalogSource().load(tmp_path).findings if f.code == "entry-invalid"]
    assert [f.evidence.count("2025-12-33") for f in invalid] == [1]


def test_year_dates_are_imported_and_valid(tmp_path: Path) -> None:
    # A Year column gives a date at year precision: the catalogue keeps it and accepts it.
    import_document(CASES / "year_tables.md", tmp_path)
    catalog = CatalogSource().load(tmp_path)
    document = DocumentSource().load(CASES / "year_tables.md")
    assert catalog.findings == ()
    assert sorted((e.subject, e.date) for e in catalog.entries) == sorted(
        (e.subject, e.date) for e in document.entries
    )
    assert {e.date for e in catalog.entries} == {"2023", "2024", "2025", "2026"}


def test_chinese_document_fills_summaries_and_reports_one_language(tmp_path: Path) -> None:
    result = import_document(
        HERE / "bilingual" / "README.md", tmp_path, zh=HERE / "bilingual" / "README_cn.md"
    )
    by_title = {e.title: e for e in CatalogSource().load(tmp_path).entries}
    assert by_title["In Both Languages"].summary_zh == "• 中文要点一。\n• 中文要点二。"
    assert by_title["English Only"].summary_zh == ""
    assert by_title["Alpha"].summary_zh == "阿尔法。"
    missing = [(f.code, f.severity, f.subject, f.source.line) for f in result.findings]
    assert missing == [
        ("entry-translation-missing", Severity.WARNING, "arxiv:2503.05555", 15),
        ("entry-translation-missing", Severity.WARNING,
         "https://aclanthology.org/2025.acl-long.9.pdf", 15),
    ]  # fmt: skip
    assert "only in the Chinese document" in result.warnings[1]
    assert result.findings[1].source.file.endswith("README_cn.md")


def test_section_slugs() -> None:
    assert slug("💻 Systems and Open Sources") == "systems-and-open-sources"
    assert slug("综述") == ""


def test_sections_without_ascii_names_get_numbered_files(tmp_path: Path) -> None:
    doc = tmp_path / "README.md"
    row = (
        '<tr><td rowspan="2">2025-01-0{n}</td><td><strong>T{n}</strong></td><td></td>'
        '<td><a href="https://arxiv.org/abs/2501.0000{n}">P</a></td></tr>'
        '<tr><td colspan="3">• b</td></tr>'
    )
    doc.write_text(
        f"## 综述\n\n<table>{row.format(n=1)}</table>\n\n"
        f"## 方法\n\n<table>{row.format(n=2)}</table>\n",
        encoding="utf-8",
    )
    result = import_document(doc, tmp_path / "out")
    assert [Path(f).name for f in result.files] == [
        "section-1.yaml",
        "section-2.yaml",
        "schema.json",
    ]
    sections = [e.section for e in CatalogSource().load(tmp_path / "out").entries]
    assert sections == ["综述", "方法"]

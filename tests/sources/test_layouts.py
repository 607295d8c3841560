"""Reading any layout, as a maintainer of another list would use it: pull-request mode entry by
entry, no silent success on a document that was not read, every web link asked for once,
and the speed of a 5,000-entry list in each layout."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest

from curator.cli import main
from curator.config.options import Options
from curator.core.model import Kind, Report, Service
from curator.core.normalize import is_badge_url, subject_for_url
from curator.report import markdown
from curator.report.render_context import RenderContext
from curator.run import pipeline
from curator.sources.document import DocumentSource
from tests.benchmarks.layouts import LAYOUTS, layout_document
from tests.conftest import SAMPLES

OFFLINE = ["--skip", "arxiv,github,web,scope", "--format", "json"]
BULLETS = """# A list

## Memory

- [2024/05] **Memory Across Sessions For Agents** [[paper](https://arxiv.org/abs/2405.00007)]
- [2024/06] **Another Paper About Long Memory** [[paper](https://arxiv.org/abs/2406.00008)]
"""


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


def test_pull_request_mode_checks_only_the_added_bullet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _git(tmp_path, "init", "-q", "-b", "main")
    _git(tmp_path, "config", "user.email", "t@example.invalid")
    _git(tmp_path, "config", "user.name", "t")
    (tmp_path / "README.md").write_text(BULLETS, encoding="utf-8")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base")
    added = "- [2024/07] **A Third Paper On Memory** [[code](https://github.com/a/b)] " + (
        "[[paper](https://arxiv.org/abs/2407.00009)]\n"
    )
    (tmp_path / "README.md").write_text(BULLETS.replace("- [2024/06]", added + "- [2024/06]"))
    monkeypatch.chdir(tmp_path)
    main(["check", "README.md", *OFFLINE, "--changed-since", "HEAD"])
    report = json.loads(capsys.readouterr().out)
    assert [(e["subject"], e["title"]) for e in report["entries"]] == [
        ("arxiv:2407.00009", "A Third Paper On Memory")
    ]


def test_a_document_that_yields_nothing_is_never_clean(tmp_path: Path) -> None:
    doc = tmp_path / "README.md"
    doc.write_text("# Nothing to read\n\nJust prose, no links.\n", encoding="utf-8")
    loaded = DocumentSource().load(doc)
    assert [(f.code, f.source.line) for f in loaded.findings] == [("document-unread", 1)]
    report = Report(entries=(), findings=loaded.findings)
    verdict = markdown.verdict_line(report, RenderContext(title="t"))
    assert "No problems found" not in verdict


def test_the_report_says_which_services_were_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "README.md").write_text(BULLETS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    main(["check", "README.md", *OFFLINE])
    notes = json.loads(capsys.readouterr().out).get("notes", [])
    assert "not checked in this run: arxiv, github, web, scope" in notes


def test_every_web_link_of_the_home_list_is_asked_for_once() -> None:
    path = SAMPLES / "iaar-awesome-ai-memory.README.excerpt.md"
    text = path.read_text(encoding="utf-8")
    visible = re.sub(r"<!--.*?-->|<img\b[^>]*>|!\[[^\]]*\]\([^)]*\)", "", text, flags=re.S)
    urls = set(re.findall(r'href="(https?://[^"]+)"', visible))
    urls |= set(re.findall(r"\]\((https?://[^)\s]+)\)", visible))
    urls |= set(re.findall(r"(?<![\"(])(https?://[^\s<>\"')|\]]+)", visible))
    web = {subject_for_url(u.rstrip(".,;")) for u in urls if not is_badge_url(u)}
    web = {s for s in web if not s.startswith(("arxiv:", "github:"))}
    asked = pipeline.wanted(pipeline.load([str(path)]).entries, Options())[Service.WEB]
    assert len(asked) == len(set(asked))  # each once
    assert set(asked) == web and len(web) > 60


def test_import_keeps_what_each_layout_gives(tmp_path: Path) -> None:
    doc = tmp_path / "README.md"
    doc.write_text(
        "## Papers\n\n"
        "- [2023/10] **A Paper With Everything In It** *A. Author et al. ACL.* "
        "[[paper](https://arxiv.org/abs/2310.02071)] [[code](https://github.com/a/b)]\n"
        "- [Memory Paper On Hugging Face](https://huggingface.co/papers/2501.00003)"
        " - what it does.\n"
        "- Paper: [MemBench](https://arxiv.org/abs/2506.21605) (ICML 2026)\n",
        encoding="utf-8",
    )
    assert main(["import", str(doc), "--out", str(tmp_path / "data")]) == 0
    text = (tmp_path / "data" / "papers" / "papers.yaml").read_text(encoding="utf-8")
    assert 'venue: "ACL"' in text
    assert 'code: "https://github.com/a/b"' in text and 'date: "2023-10"' in text
    assert 'summary: "what it does."' in text
    assert "short_title: true" in text and 'venue: "ICML 2026"' in text
    entries = pipeline.load([str(tmp_path / "data")]).entries
    assert [e.short_title for e in entries] == [False, False, True]


#: CPU seconds a 5,000-entry document may take to read in the test (target: 2 s, quiet).
PARSE_LIMIT = 4.0


@pytest.mark.slow
@pytest.mark.parametrize("kind", LAYOUTS)
def test_five_thousand_entries_in_each_layout_parse_quickly(kind: str, tmp_path: Path) -> None:
    doc = tmp_path / "README.md"
    doc.write_text(layout_document(kind, 5000), encoding="utf-8")
    # The target is 2 s on a quiet machine (the benchmark measures it); here CPU time,
    # with room for a loaded one. A shared machine can slow one run by half again, so a slow
    # run is measured again: the best of three is the code's time, a regression fails all.
    spent: list[float] = []
    while len(spent) < 3 and (not spent or min(spent) >= PARSE_LIMIT):
        started = time.process_time()
        loaded = DocumentSource().load(doc)
        spent.append(time.process_time() - started)
        assert sum(e.kind is Kind.PAPER for e in loaded.entries) == 5000
    assert min(spent) < PARSE_LIMIT, spent


def test_a_year_heading_under_two_topics_is_two_sections(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `#### 2024` under two topics: a paper in both is cross-listed, not a duplicate; the
    # same paper twice under one of them is.
    monkeypatch.chdir(Path(__file__).resolve().parent.parent / "cases" / "documents")
    main(["check", "year_subheadings.md", *OFFLINE, "--fail-on", "never"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["code"], f["source"]["line"]) for f in findings] == [
        ("entry-duplicate", 21),
        ("entry-cross-listed", 15),
    ]
    assert "🔢 Papers - Parameteric Memory › 🗓️ 2024" in findings[1]["message"]

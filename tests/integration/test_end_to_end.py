"""The whole pipeline on the real list (data/ and a sample document) against the loopback
arXiv and GitHub doubles, with faults injected: every fault yields its finding, nothing else
is flagged, look-alike titles pass, and the report's request counts equal what the doubles
received. A second run within the TTL sends nothing."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from curator.config.options import Options
from curator.core.model import Kind, Report
from curator.run import pipeline
from tests.conftest import SAMPLES
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github import GithubDouble
from tests.doubles.server import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 11, 30, tzinfo=UTC)
TOKEN = "ghp_end_to_end_token"


def _published(date: str, shift_days: int = 0) -> str:
    day = datetime.fromisoformat(date[:10] if len(date) >= 10 else "2024-01-01")
    return (day + timedelta(days=shift_days)).strftime("%Y-%m-%dT12:00:00Z")


def _lookalike(title: str) -> str:
    """The same title as arXiv might spell it: other case, TeX quotes and spacing."""
    return "  " + title.upper().replace(":", " :").replace("-", "--") + " "


class World:
    """The doubles, seeded from the entries, with one fault of each kind."""

    def __init__(self, server: LoopbackServer, paths: list[str], tmp: Path) -> None:
        self.options = replace(
            Options(),
            paths=tuple(paths),
            root=str(ROOT),
            arxiv_delay=0.0,
            cache_path=str(tmp / "cache.sqlite"),
            github_token=TOKEN,
            skip=frozenset({pipeline.Service.WEB, pipeline.Service.SCOPE}),
        )
        loaded = pipeline.load(paths)
        self.papers = [e for e in loaded.entries if e.subject.startswith("arxiv:")]
        self.repos = sorted(
            {
                link.subject
                for e in loaded.entries
                for link in e.links
                if link.subject.startswith("github:")
            }
        )
        self.arxiv = ArxivDouble()
        self.options = replace(self.options, arxiv_api_url=self.arxiv.install(server))
        for i, entry in enumerate(self.papers):
            base = entry.subject.removeprefix("arxiv:")
            title = _lookalike(entry.title) if i % 2 else entry.title
            self.arxiv.papers[base] = Paper(base, title, published=_published(entry.date))
        for entry in loaded.entries:  # arXiv links of projects (a paper as their website)
            for link in entry.links:
                base = link.subject.removeprefix("arxiv:")
                if link.subject.startswith("arxiv:") and base not in self.arxiv.papers:
                    self.arxiv.papers[base] = Paper(base, "A linked paper")
        self.github = GithubDouble(server, token=TOKEN)
        self.options = replace(
            self.options,
            github_api_url=self.github.api_url,
            github_graphql_url=self.github.graphql_url,
        )
        for subject in self.repos:
            self.github.add(
                subject.removeprefix("github:"), license="MIT", pushed_at="2026-11-01T00:00:00Z"
            )
        self.expected: set[tuple[str, str]] = set()

    def inject(self) -> None:
        """One unknown, withdrawn, retitled and misdated paper; renamed, archived, missing,
        unlicensed and stale repositories."""
        unknown, withdrawn, retitled, misdated = (p.subject for p in self.papers[:4])
        del self.arxiv.papers[unknown.removeprefix("arxiv:")]
        self.arxiv.papers[
            withdrawn.removeprefix("arxiv:")
        ].comment = "This paper has been withdrawn by the authors due to an error."
        self.arxiv.papers[retitled.removeprefix("arxiv:")].title = "A Completely Different Paper"
        paper = self.arxiv.papers[misdated.removeprefix("arxiv:")]
        paper.published = _published(self.papers[3].date, shift_days=60)
        self.expected |= {
            ("arxiv-not-found", unknown),
            ("arxiv-withdrawn", withdrawn),
            ("arxiv-title-mismatch", retitled),
            ("arxiv-date-mismatch", misdated),
        }
        renamed, archived, missing, unlicensed, stale = self.repos[:5]
        name = renamed.removeprefix("github:")
        self.github.repos.pop(name)
        self.github.add(name, renamed_to=name + "-renamed")
        self.github.add(name + "-renamed", license="MIT", pushed_at="2026-11-01T00:00:00Z")
        self.github.repos[archived.removeprefix("github:")]["archived"] = True
        self.github.repos.pop(missing.removeprefix("github:"))
        self.github.repos[unlicensed.removeprefix("github:")]["license"] = None
        self.github.repos[stale.removeprefix("github:")]["pushed_at"] = "2023-01-01T00:00:00Z"
        self.expected |= {
            ("repo-moved", renamed),
            ("repo-archived", archived),
            ("repo-not-found", missing),
            ("repo-no-license", unlicensed),
            ("repo-stale", stale),
        }

    def check(self) -> Report:
        return pipeline.check(self.options, now=lambda: NOW)


@pytest.mark.parametrize(
    "paths",
    [["data"], [str(SAMPLES / "iaar-awesome-ai-memory.README.excerpt.md")]],
    ids=["data", "iaar-document"],
)
def test_every_fault_yields_its_finding_and_nothing_else(
    paths: list[str], loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    world = World(loopback, paths, tmp_path)
    world.inject()
    report = world.check()
    got = {(f.code, f.subject) for f in report.findings}
    expected_codes = world.expected | _known_data_findings(report)
    assert got == expected_codes
    assert report.requests.arxiv == len(world.arxiv.requests()) <= 1 + len(world.papers) // 100
    assert report.requests.github_graphql == world.github.count("graphql") <= 2
    assert report.requests.github_rest == world.github.count("rest")
    moved = next(f for f in report.findings if f.code == "repo-moved")
    assert moved.suggestion.endswith("-renamed")
    retitled = next(f for f in report.findings if f.code == "arxiv-title-mismatch")
    # arXiv's title shares no word with the entry's: another paper's, never suggested.
    assert retitled.suggestion == "" and "another paper" in retitled.message
    # A second run within the TTLs sends nothing and reports the same.
    before = len(loopback.requests)
    again = world.check()
    assert len(loopback.requests) == before
    assert again.requests.total == 0
    assert again.requests.cache_hits > 0
    assert {(f.code, f.subject) for f in again.findings} == expected_codes
    # "Not found" is kept only for ttl_not_found: past it, exactly the unknown paper and the
    # missing repository are asked again (one arXiv and one GraphQL request), nothing else.
    world.options = replace(world.options, ttl_not_found=0.0)
    later = world.check()
    asked = loopback.requests[before:]
    assert later.requests.total == len(asked) == 2
    # arXiv and GitHub are asked from two threads at once: find the arXiv request by its query.
    (arxiv_asked,) = [r for r in asked if "id_list" in r.query]
    # A lone ID goes with a paper arXiv has, so the answer proves arXiv's index answered.
    assert arxiv_asked.query["id_list"] == [
        unknown_of(world).removeprefix("arxiv:") + ",1706.03762"
    ]
    assert {(f.code, f.subject) for f in later.findings} == expected_codes


def unknown_of(world: World) -> str:
    return next(s for c, s in world.expected if c == "arxiv-not-found")


def _known_data_findings(report: Report) -> set[tuple[str, str]]:
    """Findings the real data carries whatever the doubles say (duplicates in the sample)."""
    return {(f.code, f.subject) for f in report.findings if f.code == "entry-duplicate"}


def test_projects_and_papers_all_resolved(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    world = World(loopback, ["data"], tmp_path)
    report = world.check()
    assert [f for f in report.findings if f.code != "entry-duplicate"] == []
    for result in report.entries:
        statuses = {m["status"] for m in result.metadata.values()}
        assert statuses <= {"found"}, (result.entry.subject, statuses)
        if result.entry.kind is Kind.PROJECT:
            assert result.metadata[result.entry.subject]["stars"] is not None

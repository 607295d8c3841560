"""check_repo: each repository problem yields exactly its finding."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest

from curator.checks.interface import CheckContext
from curator.checks.repos import check_repo
from curator.config.options import Options
from curator.config.projects import ProjectRules
from curator.core.codes import CODES
from curator.core.meta import RepoMeta
from curator.core.model import Entry, Kind, Link, Service, Severity, Source
from curator.core.outcomes import (
    Blocked,
    Found,
    Moved,
    NotFound,
    Outcome,
    Unverified,
)

NOW = datetime(2026, 11, 30, tzinfo=UTC)
SRC = Source("data/projects.yaml", 7)
REPO = "github:org/tool"


def meta(**changes: Any) -> RepoMeta:
    """Metadata of a healthy repository, as the resolver keeps it."""
    base = {
        "name_with_owner": "org/tool", "url": "https://github.com/org/tool", "stars": 120,
        "forks": 4, "license": "MIT", "archived": False, "disabled": False, "fork": False,
        "pushed_at": "2026-10-01T12:00:00Z", "default_branch": "main", "homepage": None,
        "description": "a tool",
    }  # fmt: skip
    return RepoMeta.from_cache({**base, **changes})


def project(subject: str = REPO) -> Entry:
    url = "https://github.com/" + subject.removeprefix("github:")
    link = Link("repo", url, subject, Service.GITHUB)
    return Entry(subject, Kind.PROJECT, SRC, title="Tool", links=(link,))


def paper_with_code(code: str) -> Entry:
    links = (
        Link("paper", "https://arxiv.org/abs/2305.10250", "arxiv:2305.10250", Service.ARXIV),
        Link("code", "https://github.com/" + code.removeprefix("github:"), code, Service.GITHUB),
    )
    return Entry("arxiv:2305.10250", Kind.PAPER, SRC, title="A paper", links=links)


def run(outcome: Outcome, rules: ProjectRules | None = None, **opts: Any) -> list[tuple[str, str]]:
    ctx = CheckContext(Options(**opts), NOW, projects=rules)
    found = check_repo(project(outcome.subject), {outcome.subject: outcome}, ctx)
    return [(f.code, f.severity.value) for f in found]


def test_healthy_repository_has_no_findings() -> None:
    assert run(Found(REPO, meta())) == []


@pytest.mark.parametrize(
    ("outcome", "expected"),
    [
        (NotFound(REPO, "GitHub REST answered HTTP 404: Not Found"), ("repo-not-found", "error")),
        (Moved(REPO, "https://github.com/new/tool", meta(name_with_owner="new/tool")),
         ("repo-moved", "warning")),
        (Found(REPO, meta(archived=True)), ("repo-archived", "warning")),
        (Found(REPO, meta(license=None)), ("repo-no-license", "warning")),
        (Found(REPO, meta(license="NOASSERTION")), ("repo-unrecognised-license", "info")),
        (Found(REPO, meta(pushed_at="2024-01-02T00:00:00Z")), ("repo-stale", "warning")),
        (Unverified(REPO, "GitHub answered HTTP 503"), ("repo-unverified", "warning")),
        (Blocked(REPO, "refused"), ("repo-unverified", "warning")),
    ],
)  # fmt: skip
def test_each_problem_yields_exactly_its_finding(
    outcome: Outcome, expected: tuple[str, str]
) -> None:
    assert run(outcome) == [expected]


def test_moved_suggests_the_new_url() -> None:
    moved = Moved(REPO, "https://github.com/new/tool", meta(name_with_owner="new/tool"))
    ctx = CheckContext(Options(), NOW)
    (finding,) = check_repo(project(), {REPO: moved}, ctx)
    assert finding.suggestion == "https://github.com/new/tool"
    assert finding.source == SRC and finding.subject == REPO


def test_moved_repository_is_still_checked() -> None:
    moved = Moved(REPO, "https://github.com/new/tool", meta(archived=True, license=None))
    assert [c for c, _ in run(moved)] == ["repo-moved", "repo-archived", "repo-no-license"]


def test_stale_threshold_from_rules() -> None:
    old = Found(REPO, meta(pushed_at="2026-06-01T00:00:00Z"))  # 182 days before NOW
    assert run(old) == []
    assert run(old, ProjectRules(stale_days=90)) == [("repo-stale", "warning")]
    assert (
        run(Found(REPO, meta(pushed_at="2020-01-01T00:00:00Z")), ProjectRules(stale_days=0)) == []
    )


def test_stale_message_names_days_and_push() -> None:
    ctx = CheckContext(Options(), NOW)
    found = Found(REPO, meta(pushed_at="2025-11-29T00:00:00Z"))
    (finding,) = check_repo(project(), {REPO: found}, ctx)
    assert "366 days" in finding.message and finding.evidence == "last push 2025-11-29T00:00:00Z"


def test_exactly_at_threshold_is_not_stale() -> None:
    assert run(Found(REPO, meta(pushed_at="2025-11-30T00:00:00Z"))) == []


def test_missing_or_bad_push_date_is_not_stale() -> None:
    assert run(Found(REPO, meta(pushed_at=None))) == []
    assert run(Found(REPO, meta(pushed_at="yesterday"))) == []


def test_licence_optional_by_rules() -> None:
    assert run(Found(REPO, meta(license=None)), ProjectRules(license_required=False)) == []


def test_archived_severity_from_rules_and_configuration() -> None:
    archived = Found(REPO, meta(archived=True))
    assert run(archived, ProjectRules(archived="error")) == [("repo-archived", "error")]
    assert run(archived, ProjectRules(archived="off")) == []
    override = {"repo-archived": Severity.INFO}
    assert run(archived, ProjectRules(archived="error"), severity=override) == [
        ("repo-archived", "info")
    ]


def test_few_stars_only_with_a_minimum() -> None:
    few = Found(REPO, meta(stars=3))
    assert run(few) == []
    assert run(few, ProjectRules(min_stars=10)) == [("repo-few-stars", "info")]
    assert run(Found(REPO, meta(stars=10)), ProjectRules(min_stars=10)) == []


def test_papers_code_repository_is_checked() -> None:
    code = "github:lab/paper-code"
    entry = paper_with_code(code)
    outcomes: dict[str, Outcome] = {
        "arxiv:2305.10250": Found("arxiv:2305.10250", {}),
        code: NotFound(code, "404"),
    }
    found = check_repo(entry, outcomes, CheckContext(Options(), NOW))
    assert [(f.code, f.subject) for f in found] == [("repo-not-found", code)]


def test_every_github_link_is_checked() -> None:
    other = "github:org/other"
    entry = replace(
        project(),
        links=(
            *project().links,
            Link("code", "https://github.com/org/other", other, Service.GITHUB),
        ),
    )
    outcomes: dict[str, Outcome] = {
        REPO: Found(REPO, meta(archived=True)),
        other: Unverified(other, "timeout"),
    }
    found = check_repo(entry, outcomes, CheckContext(Options(), NOW))
    assert [(f.code, f.subject) for f in found] == [
        ("repo-archived", REPO),
        ("repo-unverified", other),
    ]


def test_skipped_github_gives_no_findings() -> None:
    assert check_repo(project(), {}, CheckContext(Options(), NOW)) == []


def test_only_known_codes() -> None:
    outcomes: list[Outcome] = [
        NotFound(REPO), Moved(REPO, "https://github.com/a/b", meta(archived=True, license=None,
        pushed_at="2001-01-01T00:00:00Z", stars=0)), Unverified(REPO, "x"),
        Found(REPO, meta(license="NOASSERTION")),
    ]  # fmt: skip
    for outcome in outcomes:
        for code, _ in run(outcome, ProjectRules(min_stars=5)):
            assert code in CODES


def test_unverified_reason_is_the_evidence() -> None:
    ctx = CheckContext(Options(), NOW)
    (finding,) = check_repo(project(), {REPO: Unverified(REPO, "GitHub answered HTTP 502")}, ctx)
    assert finding.evidence == "GitHub answered HTTP 502"

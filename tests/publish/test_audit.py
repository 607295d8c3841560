"""The nightly audit issue: opened once, updated with what changed, closed when clean."""

from __future__ import annotations

from dataclasses import replace

import pytest

from curator.core.model import Finding, Severity, Source
from curator.publish.api import GitHubAPI
from curator.publish.audit import (
    MARKER,
    changes,
    changes_section,
    decode_state,
    encode_state,
    run_audit,
    state_of,
)
from curator.report.render_context import RenderContext
from tests.doubles.github_issues import FakeGitHub
from tests.publish.conftest import REPO
from tests.report.sample import HOSTILE, clean_report, hostile_report, realistic_report

CTX = RenderContext(repository=REPO, head_sha="c" * 40, title="curator audit")


def test_state_round_trip_survives_hostile_text() -> None:
    """The hidden state is base64: a `-->` in a finding cannot end the comment."""
    state = state_of(hostile_report())
    block = encode_state(state)
    assert block.count("-->") == 1 and HOSTILE not in block
    assert decode_state("text\n" + block) == state
    assert decode_state("<!-- curator:state !!! -->") == {}


def test_changes_new_resolved_and_movements() -> None:
    """Findings that came and went, and star/fork moves, are reported."""
    before = state_of(realistic_report())
    report = realistic_report()
    moved = replace(
        report.entries[2], metadata={"github:mem0ai/mem0": {"stars": 41300, "forks": 4300}}
    )
    extra = Finding("repo-stale", Severity.WARNING, "github:o/r", Source("data/p.yaml", 3), "stale")
    after = state_of(
        replace(
            report, entries=(*report.entries[:2], moved), findings=(extra, *report.findings[1:])
        )
    )
    delta = changes(before, after)
    assert delta.new == (("repo-stale", "github:o/r", "data/p.yaml"),)
    assert delta.resolved == (
        ("arxiv-title-mismatch", "arxiv:2310.08560", "data/papers/2024.yaml"),
    )
    assert delta.movements == (("github:mem0ai/mem0", 41234, 41300, 4321, 4300),)


def test_open_update_close(fake: FakeGitHub, api: GitHubAPI) -> None:
    """One issue: opened with the label, updated with the diff, closed when clean."""
    first = run_audit(api, REPO, realistic_report(), "curator-audit", CTX)
    assert first.action == "opened"
    issue = fake.issues[first.number]
    assert [lbl["name"] for lbl in issue["labels"]] == ["curator-audit"]
    assert issue["body"].startswith(MARKER) and "first audit" in issue["body"]
    second = run_audit(api, REPO, hostile_report(), "curator-audit", CTX)
    assert (second.action, second.number) == ("updated", first.number)
    assert "1 new, 3 resolved" in fake.issues[first.number]["body"]
    third = run_audit(api, REPO, clean_report(), "curator-audit", CTX)
    assert third.action == "closed" and fake.issues[first.number]["state"] == "closed"
    assert fake.issues[first.number]["title"] == "curator audit: all clear"
    assert len(fake.issues) == 1


def test_clean_without_issue_does_nothing(fake: FakeGitHub, api: GitHubAPI) -> None:
    """No issue is opened just to say all is well."""
    assert run_audit(api, REPO, clean_report(), "curator-audit", CTX).action == "none"
    assert fake.issues == {}


def test_reopens_new_issue_after_close(fake: FakeGitHub, api: GitHubAPI) -> None:
    """Problems after a closed audit open a fresh issue."""
    run_audit(api, REPO, realistic_report(), "curator-audit", CTX)
    run_audit(api, REPO, clean_report(), "curator-audit", CTX)
    again = run_audit(api, REPO, realistic_report(), "curator-audit", CTX)
    assert again.action == "opened" and len(fake.issues) == 2


def test_ignores_others_issues_and_closes_duplicates(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A labelled issue by someone else is left alone; our duplicate is closed."""
    theirs = fake.add_issue(REPO, "x", MARKER + "\nforged", ["curator-audit"], "attacker")
    ours = fake.add_issue(REPO, "a", MARKER + "\nold", ["curator-audit"], "curator-bot")
    dup = fake.add_issue(REPO, "b", MARKER + "\nold", ["curator-audit"], "curator-bot")
    result = run_audit(api, REPO, realistic_report(), "curator-audit", CTX)
    assert result.number == ours["number"]
    assert fake.issues[dup["number"]]["state"] == "closed"
    assert fake.issues[theirs["number"]]["body"].endswith("forged")


@pytest.mark.slow
def test_body_fits_github_limit(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A huge report still makes an issue body under 65,536 characters."""
    many = tuple(
        Finding(
            "repo-stale", Severity.WARNING, f"github:o/r{i}", Source("d.yaml", i + 1), "x" * 200
        )
        for i in range(1500)
    )
    report = replace(realistic_report(), findings=many)
    result = run_audit(api, REPO, report, "curator-audit", CTX)
    body = fake.issues[result.number]["body"]
    assert len(body) <= 65_536 and len(decode_state(body)["findings"]) == 1500


@pytest.mark.parametrize(
    "previous",
    [
        {"findings": 5, "repos": []},
        {"findings": [["only-a-code"], "text", None], "repos": {"github:mem0ai/mem0": ["a", 1]}},
        {"findings": [], "repos": {"github:mem0ai/mem0": [True, None, 3]}},
    ],
)
def test_an_edited_previous_state_is_read_as_far_as_it_makes_sense(
    previous: dict[str, object],
) -> None:
    """A hand-edited state block never stops the audit: its odd parts count as absent."""
    current = state_of(realistic_report())
    delta = changes(previous, current)
    assert delta.resolved == () and delta.movements == ()
    assert len(delta.new) == len(current["findings"])
    assert "new" in changes_section(delta, first=False)

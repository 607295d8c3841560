"""`discover --repo`: one new-papers issue per window, ticks kept, others' issues left alone."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from curator.discover.publish import issue_body, publish, ticked, window_marker
from curator.discover.run import DiscoverReport, Request, discover
from curator.discover.window import Window
from curator.publish.api import GitHubAPI
from curator.publish.audit import MARKER
from tests.discover.world import LATER, SINCE, UNTIL, World, build_world
from tests.doubles.github_issues import FakeGitHub
from tests.doubles.server import LoopbackServer

REPO = "acme/awesome-llm-memory"
LABEL = "curator-discover"


@pytest.fixture
def report(tmp_path: Path, loopback: LoopbackServer) -> DiscoverReport:
    """A discover report of the dev-record window."""
    world: World = build_world(tmp_path, loopback)
    return discover(world.options(), Request(SINCE, UNTIL), LATER)


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    """The issues double on a loopback server of its own."""
    with LoopbackServer() as server:
        yield FakeGitHub(server)


@pytest.fixture
def api(fake: FakeGitHub) -> Iterator[GitHubAPI]:
    """A client with a token, no real sleeping."""
    with GitHubAPI(fake.api, "ghp_secret_token_value", sleep=lambda s: None) as client:
        yield client


@pytest.mark.slow
def test_one_issue_per_window_with_a_checklist(
    report: DiscoverReport, fake: FakeGitHub, api: GitHubAPI
) -> None:
    """Opened once with every candidate as a box; a rerun updates it and keeps the ticks."""
    first = publish(api, REPO, report, LABEL)
    assert first.action == "opened"
    issue = fake.issues[first.number]
    assert issue["body"].startswith(MARKER) and window_marker(report) in issue["body"]
    assert [lbl["name"] for lbl in issue["labels"]] == [LABEL]
    likely = [c for c in report.candidates if c.group.value == "likely include"]
    # Likely include and review are boxes to tick; a proven exclude is listed, not boxed. The
    # home policy's one hard rule is its gate: its other classes are likely excludes to review.
    boxed = [c for c in report.candidates if c.group.value != "likely exclude"]
    assert "**likely exclude** (" in issue["body"]
    assert "likely exclude, each by a rule its quote proves" not in issue["body"]
    assert issue["body"].count("- [ ] ") == len(boxed) and "cut to fit" not in issue["body"]
    assert "(the entry gate's exclude)" in issue["body"]
    assert f"`arxiv:{likely[0].id}`" in issue["body"]
    assert (
        issue["title"]
        == f"curator: {len(report.candidates)} new papers submitted {report.window.label}"
    )
    issue["body"] = issue["body"].replace("- [ ] ", "- [x] ", 2)
    again = publish(api, REPO, report, LABEL)
    assert (again.action, again.number, len(fake.issues)) == ("updated", first.number, 1)
    assert len(ticked(fake.issues[first.number]["body"])) == 2


@pytest.mark.slow
def test_another_window_gets_its_own_issue(
    report: DiscoverReport, fake: FakeGitHub, api: GitHubAPI
) -> None:
    """A new window opens a second issue; the first stays as the maintainers left it."""
    first = publish(api, REPO, report, LABEL)
    later = Window(date(2026, 9, 30), date(2026, 10, 6))
    nxt = publish(
        api,
        REPO,
        DiscoverReport(later, "q", report.candidates[:1], (), report.drafts[:1], 1, (later,), 0),
        LABEL,
    )
    assert nxt.action == "opened" and nxt.number != first.number
    assert fake.issues[first.number]["state"] == "open"


def test_no_issue_for_a_window_without_candidates(fake: FakeGitHub, api: GitHubAPI) -> None:
    """Nothing new: no issue is opened."""
    empty = DiscoverReport(Window(SINCE, UNTIL), "q", (), (), (), 1, (), 0)
    assert publish(api, REPO, empty, LABEL).action == "none" and fake.issues == {}


def test_someone_elses_issue_with_our_markers_is_left_alone(
    report: DiscoverReport, fake: FakeGitHub, api: GitHubAPI
) -> None:
    """An issue forged by another account is not ours to update."""
    forged = fake.add_issue(REPO, "x", issue_body(report) + "\nforged", [LABEL], "attacker")
    result = publish(api, REPO, report, LABEL)
    assert result.action == "opened" and result.number != forged["number"]
    assert fake.issues[forged["number"]]["body"].endswith("forged")

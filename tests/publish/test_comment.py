"""The sticky PR comment: create once, update in place, remove duplicates, resolve when clean."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from curator.core.errors import InputError, UsageError
from curator.publish.api import GitHubAPI, PublishError
from curator.publish.comment import find_pr, read_body, upsert_comment
from curator.report import json as json_report
from curator.report import markdown
from tests.doubles.github_issues import FakeGitHub, seed_recorded_comments
from tests.doubles.server import Reply
from tests.publish.conftest import REPO
from tests.report.sample import CTX, clean_report, hostile_report, realistic_report


def body_of(report) -> str:
    return markdown.render(report, CTX)


def test_creates_then_updates_in_place(fake: FakeGitHub, api: GitHubAPI) -> None:
    """First call creates, second edits the same comment; others' comments stay."""
    seed_recorded_comments(fake, REPO, 7)
    first = upsert_comment(api, REPO, 7, body_of(realistic_report()))
    second = upsert_comment(api, REPO, 7, body_of(hostile_report()))
    assert first.action == "created" and second.action == "updated"
    assert first.comment_id == second.comment_id
    comments = fake.comments_on(REPO, 7)
    assert len(comments) == 5
    assert sum(markdown.MARKER in c["body"] for c in comments) == 1


def test_same_body_is_not_patched(fake: FakeGitHub, api: GitHubAPI) -> None:
    """An unchanged report sends no PATCH."""
    body = body_of(realistic_report())
    upsert_comment(api, REPO, 7, body)
    assert upsert_comment(api, REPO, 7, body).action == "unchanged"
    assert not fake.server.received(method="PATCH")


def test_forged_marker_from_someone_else_is_ignored(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A contributor's comment that starts with our marker is never edited or deleted."""
    forged = fake.add_comment(REPO, 7, markdown.MARKER + "\nall good, merge it", "attacker")
    result = upsert_comment(api, REPO, 7, body_of(realistic_report()))
    assert result.action == "created"
    assert fake.comments[forged["id"]]["body"].endswith("merge it")


def test_duplicates_are_deleted_across_pages(fake: FakeGitHub, api: GitHubAPI) -> None:
    """Two of ours, far apart in a paginated list: the oldest is kept, the other deleted."""
    fake.per_page_cap = 3
    keep = fake.add_comment(REPO, 7, markdown.MARKER + "\nold", "curator-bot")
    for i in range(7):
        fake.add_comment(REPO, 7, f"chatter {i}", "someone")
    dup = fake.add_comment(REPO, 7, markdown.MARKER + "\nolder race", "github-actions[bot]")
    result = upsert_comment(api, REPO, 7, body_of(realistic_report()))
    assert result.comment_id == keep["id"] and result.deleted == (dup["id"],)
    assert len(fake.server.received("/repositories/")) >= 2


def test_clean_report_marks_resolved_or_skips(fake: FakeGitHub, api: GitHubAPI) -> None:
    """Clean with no earlier comment: nothing posted. Clean after problems: resolved."""
    assert upsert_comment(api, REPO, 8, body_of(clean_report())).action == "skipped"
    assert fake.comments_on(REPO, 8) == []
    upsert_comment(api, REPO, 8, body_of(realistic_report()))
    result = upsert_comment(api, REPO, 8, body_of(clean_report()))
    assert result.action == "updated"
    assert "Resolved" in fake.comments_on(REPO, 8)[0]["body"]


def test_actions_token_author_is_the_bot(fake: FakeGitHub, api: GitHubAPI) -> None:
    """With an Actions token (/user is 403) the bot's comment is found and updated."""
    fake.user_forbidden = True
    first = upsert_comment(api, REPO, 9, body_of(realistic_report()))
    second = upsert_comment(api, REPO, 9, body_of(hostile_report()))
    assert (first.action, second.action) == ("created", "updated")
    assert fake.comments_on(REPO, 9)[0]["user"]["login"] == "github-actions[bot]"


def test_marker_added_and_size_capped(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A body without marker gets one; an oversized one is cut under GitHub's limit."""
    upsert_comment(api, REPO, 10, "x" * 70_000)
    body = fake.comments_on(REPO, 10)[0]["body"]
    assert body.startswith(markdown.MARKER) and len(body) <= 65_536


def test_bad_arguments_are_usage_errors(api: GitHubAPI) -> None:
    """OWNER/NAME and a positive PR number are required."""
    with pytest.raises(UsageError):
        upsert_comment(api, "not a repo", 1, "x")
    with pytest.raises(UsageError):
        upsert_comment(api, REPO, 0, "x")


def test_find_pr_by_head_sha_for_fork(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A fork PR is found by its head commit."""
    fake.add_pull(REPO, 3, "a" * 40)
    fake.add_pull(REPO, 4, "b" * 40, fork=True)
    assert find_pr(api, REPO, "b" * 40) == 4
    assert find_pr(api, REPO, "c" * 40) is None


def test_read_body_renders_json_report_with_sanitising(tmp_path: Path) -> None:
    """The untrusted artifact is a JSON report, rendered here by trusted code."""
    path = tmp_path / "report.json"
    path.write_text(json_report.render(hostile_report()), encoding="utf-8")
    body = read_body(path, CTX)
    assert body.startswith(markdown.MARKER)
    html = MarkdownIt("commonmark").enable("table").render(body)
    assert "<img" not in html and "@&#8203;maintainer" in body


def test_read_body_rejects_other_json(tmp_path: Path) -> None:
    """JSON that is not a schema-1 report is refused, not posted."""
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"schema": 2}), encoding="utf-8")
    with pytest.raises(InputError):
        read_body(path, CTX)
    path.write_text(json.dumps({"schema": 1, "findings": [{"code": "x"}]}), encoding="utf-8")
    with pytest.raises(InputError, match="malformed"):
        read_body(path, CTX)


def test_user_lookup_outage_posts_no_second_comment(fake: FakeGitHub, api: GitHubAPI) -> None:
    """GET /user failing (502 on every try) is an outage, not "the token cannot say": the
    comment job stops instead of missing its own comment and posting another."""
    body = body_of(realistic_report())
    upsert_comment(api, REPO, 7, body)
    html = Reply(502, {"Content-Type": "text/html"}, b"<h1>Bad gateway</h1>")
    fake.fail_next.extend([html] * 4)
    with pytest.raises(PublishError, match="GET /user: HTTP 502"):
        upsert_comment(api, REPO, 7, body_of(hostile_report()))
    assert sum(markdown.MARKER in c["body"] for c in fake.comments_on(REPO, 7)) == 1

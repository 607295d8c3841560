"""The REST client: auth, counting, pagination, retries, token safety."""

from __future__ import annotations

import pytest

from curator.publish.api import GitHubAPI, PublishError, parse_links
from tests.doubles.github_issues import GITHUB, FakeGitHub, recorded_headers, recorded_json
from tests.doubles.server import Reply
from tests.publish.conftest import REPO


def test_parse_recorded_link_header() -> None:
    """The recorded page-1 Link header gives next and last."""
    links = parse_links(recorded_headers("rest_issue_comments_list_page1_link_header_2024")["Link"])
    assert links["next"].endswith("/repositories/3544490/issues/1136/comments?per_page=3&page=2")
    assert set(links) == {"next", "last"}


def test_paginates_across_pages_and_counts(fake: FakeGitHub, api: GitHubAPI) -> None:
    """Items from every page, following Link URLs that switch to /repositories/{id}."""
    fake.per_page_cap = 3
    for i in range(8):
        fake.add_comment(REPO, 5, f"c{i}", "someone")
    bodies = [c["body"] for c in api.paginate(f"/repos/{REPO}/issues/5/comments")]
    assert bodies == [f"c{i}" for i in range(8)]
    assert api.requests == 3
    assert len(fake.server.received("/repositories/")) == 2


def test_sends_token_and_api_version(fake: FakeGitHub, api: GitHubAPI) -> None:
    """Bearer auth, the JSON media type and the API version header."""
    api.request("GET", "/user")
    headers = fake.server.received("/user")[0].headers
    assert headers["authorization"] == "Bearer ghp_secret_token_value"
    assert headers["x-github-api-version"] == "2022-11-28"
    assert "ghp_secret" not in repr(api)


def test_retries_5xx_then_succeeds(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A recorded 503 with an HTML body is retried."""
    html = (GITHUB / "rest_503_html_body_2012.html").read_bytes()
    fake.fail_next.append(Reply(503, {"Content-Type": "application/json"}, html))
    assert api.request("GET", "/user").data["login"] == "curator-bot"
    assert api.requests == 2


def test_retries_secondary_limit_after_retry_after(fake: FakeGitHub) -> None:
    """The recorded secondary-limit 403 waits retry-after seconds, then retries."""
    waits: list[float] = []
    body = recorded_json("rest_ratelimit_403_secondary_retry_after_2026")
    headers = recorded_headers("rest_ratelimit_403_secondary_retry_after_2026")
    fake.fail_next.append(Reply.json(body, 403, headers))
    with GitHubAPI(fake.api, "t", sleep=waits.append) as client:
        client.request("GET", "/user")
    assert waits == [60.0]


def test_gives_up_when_limit_longer_than_max_wait(fake: FakeGitHub) -> None:
    """A wait beyond max_wait fails fast with a clear message, without the token."""
    body = recorded_json("rest_ratelimit_403_secondary_retry_after_2026")
    headers = recorded_headers("rest_ratelimit_403_secondary_retry_after_2026")
    fake.fail_next.append(Reply.json(body, 403, headers))
    client = GitHubAPI(fake.api, "tok_hidden", max_wait=5, sleep=lambda s: None)
    with client, pytest.raises(PublishError, match="rate limited") as info:
        client.request("GET", "/user")
    assert "tok_hidden" not in str(info.value)


def test_error_message_names_status_not_token(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A 404 is fatal, quoting GitHub's message."""
    with pytest.raises(PublishError, match="HTTP 404: Not Found") as info:
        api.request("GET", "/repos/a/b/nothing")
    assert "ghp_secret" not in str(info.value)


def test_refuses_to_follow_links_to_other_hosts(api: GitHubAPI) -> None:
    """A Link pointing elsewhere never receives the token."""
    with pytest.raises(PublishError, match="refusing"):
        api.request("GET", "http://127.0.0.2:1/repos/x/y/issues")


def test_login_empty_for_actions_token(fake: FakeGitHub, api: GitHubAPI) -> None:
    """GET /user is 403 for an Actions token: login() says "" instead of failing."""
    fake.user_forbidden = True
    assert api.login() == ""


def test_a_post_answered_5xx_is_not_sent_again(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A 502 to POST may hide a created comment: never post twice in one run."""
    fake.fail_next.append(Reply(502, {"Content-Type": "text/html"}, b"<h1>Bad gateway</h1>"))
    with pytest.raises(PublishError):
        api.request("POST", "/repos/acme/awesome-llm-memory/issues/1/comments", json={"body": "x"})
    assert api.requests == 1
    assert len(fake.server.received("/repos/acme/awesome-llm-memory/issues/1/comments")) == 1

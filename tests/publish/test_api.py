"""Publishing through PyGithub: auth, pagination, curator's retry policy, token safety."""

from __future__ import annotations

import pytest

from curator.publish.api import GitHubAPI, PublishError
from tests.doubles.github_issues import GITHUB, FakeGitHub, recorded_headers, recorded_json
from tests.doubles.server import Reply
from tests.publish.conftest import REPO


def comments(api: GitHubAPI, number: int) -> list[str]:
    issue = api.repo(REPO).get_issue(number)
    return api.call("GET comments", lambda: [c.body for c in issue.get_comments()])


def test_paginates_across_pages_by_link_header(fake: FakeGitHub, api: GitHubAPI) -> None:
    """Items from every page, following Link URLs that switch to /repositories/{id}."""
    fake.per_page_cap = 3
    for i in range(8):
        fake.add_comment(REPO, 5, f"c{i}", "someone")
    assert comments(api, 5) == [f"c{i}" for i in range(8)]
    assert len(fake.server.received()) == 3
    assert len(fake.server.received("/repositories/")) == 2


def test_sends_token_and_api_version(fake: FakeGitHub, api: GitHubAPI) -> None:
    """The token, the API version header and curator's User-Agent; no token in repr."""
    assert api.login() == "curator-bot"
    headers = fake.server.received("/user")[0].headers
    assert headers["authorization"].endswith(" ghp_secret_token_value")
    assert headers["x-github-api-version"] == "2022-11-28"
    assert headers["user-agent"].startswith("curator/")
    assert "ghp_secret" not in repr(api)


def test_retries_5xx_then_succeeds(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A recorded 503 with an HTML body is retried."""
    html = (GITHUB / "rest_503_html_body_2012.html").read_bytes()
    fake.fail_next.append(Reply(503, {"Content-Type": "text/html"}, html))
    assert api.login() == "curator-bot"
    assert len(fake.server.received("/user")) == 2


def test_retries_secondary_limit_after_retry_after(fake: FakeGitHub) -> None:
    """The recorded secondary-limit 403 waits retry-after seconds, then retries."""
    waits: list[float] = []
    body = recorded_json("rest_ratelimit_403_secondary_retry_after_2026")
    headers = recorded_headers("rest_ratelimit_403_secondary_retry_after_2026")
    fake.fail_next.append(Reply.json(body, 403, headers))
    with GitHubAPI(fake.api, "t", sleep=waits.append) as client:
        assert client.login() == "curator-bot"
    assert waits == [60.0]


def test_gives_up_when_limit_longer_than_max_wait(fake: FakeGitHub) -> None:
    """A wait beyond max_wait fails fast with a clear message, without the token."""
    body = recorded_json("rest_ratelimit_403_secondary_retry_after_2026")
    headers = recorded_headers("rest_ratelimit_403_secondary_retry_after_2026")
    fake.fail_next.append(Reply.json(body, 403, headers))
    client = GitHubAPI(fake.api, "tok_hidden", max_wait=5, sleep=lambda s: None)
    issue = client.repo(REPO).get_issue(1)
    with client, pytest.raises(PublishError, match="rate limited") as info:
        client.call("GET comments", lambda: list(issue.get_comments()))
    assert "tok_hidden" not in str(info.value)
    assert len(fake.server.received()) == 1


def test_error_message_names_status_not_token(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A 404 (the recorded body) is fatal at once, quoting GitHub's message."""
    commit = api.repo(REPO).get_commit("no-such-ref")
    with pytest.raises(PublishError, match="GET commit: HTTP 404: Branch not found") as info:
        api.call("GET commit", lambda: commit.raw_data)
    assert "ghp_secret" not in str(info.value)
    assert len(fake.server.received()) == 1


def test_a_link_to_another_host_is_refused(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A Link header naming another host is not followed: the token goes nowhere else."""
    page = Reply.json(
        [],
        200,
        {"Link": f'<http://127.0.0.2:1/repos/{REPO}/issues/5/comments?page=2>; rel="next"'},
    )
    fake.add_comment(REPO, 5, "first", "someone")
    fake.fail_next.append(Reply.json([fake.comments_on(REPO, 5)[0]], 200, page.headers))
    with pytest.raises(PublishError, match="outside"):
        comments(api, 5)
    assert len(fake.server.received()) == 1


def test_login_empty_for_actions_token(fake: FakeGitHub, api: GitHubAPI) -> None:
    """GET /user is 403 for an Actions token: login() says "" instead of failing."""
    fake.user_forbidden = True
    assert api.login() == ""


def test_a_post_answered_5xx_is_not_sent_again(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A 502 to POST may hide a created comment: never post twice in one run."""
    fake.fail_next.append(Reply(502, {"Content-Type": "text/html"}, b"<h1>Bad gateway</h1>"))
    issue = api.repo(REPO).get_issue(1)
    with pytest.raises(PublishError, match="POST comment: HTTP 502"):
        api.call("POST comment", lambda: issue.create_comment("x"), creates=True)
    assert len(fake.server.received(f"/repos/{REPO}/issues/1/comments")) == 1
    assert fake.comments == {}


def test_a_get_without_answer_is_retried_a_post_is_not(fake: FakeGitHub, api: GitHubAPI) -> None:
    """A reset connection: the GET is asked again, the POST reported, not repeated."""
    fake.fail_next.append(Reply(reset=True))
    assert api.login() == "curator-bot"
    fake.fail_next.append(Reply(reset=True))
    issue = api.repo(REPO).get_issue(1)
    with pytest.raises(PublishError, match="POST comment: no answer"):
        api.call("POST comment", lambda: issue.create_comment("x"), creates=True)
    assert len(fake.server.received(method="POST")) == 1


def test_primary_limit_without_reset_fails_at_once(fake: FakeGitHub, api: GitHubAPI) -> None:
    """The recorded primary-limit 403 names no reset time: nothing to wait for, one request."""
    body = recorded_json("rest_ratelimit_403_primary_unauth_2013")
    headers = recorded_headers("rest_ratelimit_403_primary_unauth_2013")
    fake.fail_next.append(Reply.json(body, 403, headers))
    pulls = api.repo(REPO).get_pulls()
    with pytest.raises(PublishError, match="GET pulls: HTTP 403: API Rate Limit Exceeded"):
        api.call("GET pulls", lambda: list(pulls))
    assert len(fake.server.received()) == 1


def test_a_limit_with_an_overflowing_retry_after_date_waits_the_advised_minute(
    fake: FakeGitHub, api: GitHubAPI
) -> None:
    """A Retry-After date email.utils cannot turn into a datetime: the advised minute, no
    traceback; the POST is asked again only after that wait."""
    waits: list[float] = []
    body = recorded_json("rest_ratelimit_403_secondary_retry_after_2026")
    headers = recorded_headers("rest_ratelimit_403_secondary_retry_after_2026")
    headers["retry-after"] = "Mon, 01 Jan 99999999999999999999 00:00:00 GMT"
    fake.fail_next.append(Reply.json(body, 403, headers))
    with GitHubAPI(fake.api, "t", sleep=waits.append) as client:
        issue = client.repo(REPO).get_issue(1)
        client.call("POST comment", lambda: issue.create_comment("x"), creates=True)
    assert waits == [60.0]
    assert len(fake.comments) == 1


HTML_PAGE = Reply(200, {"Content-Type": "text/html"}, b"<html><body>Just a moment...</body></html>")
CUT_JSON = Reply(200, {"Content-Type": "application/json"}, b'[{"id": 1, "body": "a')


@pytest.mark.parametrize("page", [HTML_PAGE, CUT_JSON], ids=["html", "cut-json"])
def test_a_list_answer_that_is_not_json_is_retried_then_a_publish_error(
    fake: FakeGitHub, api: GitHubAPI, page: Reply
) -> None:
    """A proxy's page or a cut body where PyGithub expects JSON: asked again (four tries),
    then one PublishError, never a traceback."""
    fake.fail_next.extend([page] * 4)
    with pytest.raises(PublishError, match="GET comments: unreadable answer"):
        comments(api, 5)
    assert len(fake.server.received()) == 4


def test_a_cut_answer_once_is_retried(fake: FakeGitHub, api: GitHubAPI) -> None:
    fake.add_comment(REPO, 5, "first", "someone")
    fake.fail_next.append(CUT_JSON)
    assert comments(api, 5) == ["first"]


@pytest.mark.parametrize("status", [201, 502])
def test_a_post_answered_with_a_cut_body_is_not_sent_again(
    fake: FakeGitHub, api: GitHubAPI, status: int
) -> None:
    """The comment may exist already: reported, not posted twice."""
    fake.fail_next.append(Reply(status, {"Content-Type": "application/json"}, b'{"id": 6'))
    issue = api.repo(REPO).get_issue(1)
    with pytest.raises(PublishError, match="POST comment: unreadable answer"):
        api.call("POST comment", lambda: issue.create_comment("x"), creates=True)
    assert len(fake.server.received(method="POST")) == 1


def test_login_from_a_page_that_is_not_json_is_asked_again(
    fake: FakeGitHub, api: GitHubAPI
) -> None:
    """Not the string "None", nor "": a page that names no user is no answer."""
    fake.fail_next.append(HTML_PAGE)
    assert api.login() == "curator-bot"
    fake.fail_next.extend([HTML_PAGE] * 4)
    with pytest.raises(PublishError, match="GET /user: unreadable answer"):
        api.login()


@pytest.mark.parametrize("status", [401, 422])
def test_a_message_echoing_the_token_is_scrubbed(
    fake: FakeGitHub, api: GitHubAPI, status: int
) -> None:
    """GitHub's message goes into the error line; the token it may quote does not."""
    body = {"message": "Bad credentials for token ghp_secret_token_value"}
    fake.fail_next.append(Reply.json(body, status))
    issue = api.repo(REPO).get_issue(1)
    with pytest.raises(PublishError, match=r"HTTP \d+: Bad credentials") as info:
        api.call("POST comment", lambda: issue.create_comment("x"), creates=True)
    assert "ghp_secret" not in str(info.value)
    assert "***" in str(info.value)


def test_a_redirect_to_another_host_is_a_publish_error(fake: FakeGitHub, api: GitHubAPI) -> None:
    """PyGithub refuses a 301 to another host with a RuntimeError: one line, no traceback,
    and the token goes nowhere else."""
    fake.fail_next.append(Reply(301, {"Location": "http://127.0.0.2:1/user"}, b"{}"))
    with pytest.raises(PublishError, match="GET /user: redirected to an unexpected place"):
        api.login()
    assert len(fake.server.received()) == 1

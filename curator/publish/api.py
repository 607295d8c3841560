"""GitHub for publishing: PyGithub's objects and pagination (comments, issues, labels, pulls)
under curator's one retry policy (net/http.py, `publish_policy`).

PyGithub's own retries and request spacing are off. Each call (one PyGithub operation, which
may be several requests, e.g. every page of a list) is retried on a 5xx answer or a failed
connection, and after a rate limit (Retry-After, the reset time, or a minute for a secondary
limit, read by `github_limit` as the resolver reads it) when the wait fits `max_wait`, and
after an answer PyGithub cannot read (a cut body, a proxy's HTML page). A call that creates
something (a POST) is never sent again after a 5xx, no answer or an unreadable one: it may
have taken effect, and the next run finds it by its marker instead. PyGithub sends every
request, Link-header pages included, to the configured host only, so the token never leaves
it; no message or repr shows the token.
"""

from __future__ import annotations

import itertools
import math
import re
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar
from urllib.parse import urlsplit

import github
import requests

from curator.console.sanitize import clean, shorten
from curator.core.errors import CuratorError, UsageError
from curator.net.http import (
    USER_AGENT,
    Budget,
    RetryableError,
    call_with_retries,
    github_limit,
    publish_policy,
)

DEFAULT_API = "https://api.github.com"
API_VERSION = "2022-11-28"
#: What PyGithub raises reading an answer that is not the JSON it expects: a cut body
#: (JSONDecodeError, a ValueError), a proxy's HTML page, which it keeps as a string and then
#: indexes like an object (TypeError), or JSON nested past Python's recursion limit, which
#: PyGithub decodes with json.loads itself (RecursionError, before `call`'s RuntimeError).
UNREADABLE = (ValueError, TypeError, RecursionError)
T = TypeVar("T")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


class PublishError(CuratorError):
    """GitHub refused or failed a request that publishing cannot do without."""


class GitHubAPI:
    """PyGithub at `base_url` (GITHUB_API_URL) with `token`, lazily: objects are fetched only
    when an attribute they lack is read, and every fetch runs inside `call`."""

    def __init__(
        self,
        base_url: str = DEFAULT_API,
        token: str = "",
        *,
        timeout: float = 20.0,
        retries: int = 3,
        max_wait: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise PublishError(f"GITHUB_API_URL must be an http(s) URL, not {base_url!r}")
        self.policy = publish_policy(retries, max_wait)
        self._sleep = sleep
        self._token = token.strip()  # only to scrub it from messages
        self.github = github.Github(
            base_url=self.base_url,
            auth=github.Auth.Token(token) if token else None,
            timeout=max(1, math.ceil(timeout)),
            user_agent=USER_AGENT,
            per_page=100,
            retry=None,  # no urllib3 retries: the policy below decides
            seconds_between_requests=None,
            seconds_between_writes=None,
            lazy=True,
            api_version=API_VERSION,
        )

    def __repr__(self) -> str:
        return f"GitHubAPI({self.base_url!r})"

    def __enter__(self) -> GitHubAPI:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connections."""
        self.github.close()

    def repo(self, full_name: str) -> Any:
        """The repository OWNER/NAME, not fetched (its methods build the URLs)."""
        return self.github.get_repo(full_name)

    def call(self, what: str, operation: Callable[[], T], *, creates: bool = False) -> T:
        """Run one PyGithub operation under the retry policy; PublishError when it fails.

        `what` names it in messages ("POST comment"); `creates` marks an operation that must
        not be repeated once it may have taken effect.
        """
        tries = itertools.count(1)
        # No budget of its own: the tries and every wait are bounded by the policy already.
        budget = Budget(math.inf)
        try:
            return call_with_retries(
                lambda: _try(operation, next(tries), creates),
                budget,
                self.policy,
                sleep=self._sleep,
            )
        except RetryableError as exc:
            said = self._last_failure(exc, budget)
        except github.GithubException as exc:
            said = _reason(exc)
        except requests.RequestException as exc:
            said = f"no answer ({type(exc).__name__})"
        except UNREADABLE as exc:
            said = f"unreadable answer ({type(exc).__name__})"
        except AssertionError:
            # PyGithub asserts that a URL it was handed (a Link header's) is on the API host.
            said = f"refused a URL outside {self.base_url}"
        except RuntimeError:
            # PyGithub refuses a 301 to another host or scheme, or back to the same path.
            said = "redirected to an unexpected place"
        # GitHub's message may quote what it was sent, the token included.
        if self._token:
            said = said.replace(self._token, "***")
        raise PublishError(f"GitHub {what}: {said}")

    def login(self) -> str:
        """The token's user (GET /user), or "" when the token may not say (an Actions token
        is refused with a 403). Any other failure is a PublishError: guessing "" would miss
        our own comment and post a second one."""

        def user() -> str:
            try:
                name = self.github.get_user().login
            except github.RateLimitExceededException:
                raise  # a limit, not a refusal: the policy waits for it
            except github.GithubException as exc:
                if exc.status == 403:
                    return ""
                raise
            if not isinstance(name, str):  # a page that is not JSON names no user
                raise RetryableError("unreadable answer (no login)")
            return name

        return self.call("GET /user", user)

    def _last_failure(self, exc: RetryableError, budget: Budget) -> str:
        """What the last try met: a limit too long to wait for, or GitHub's own answer."""
        if exc.retry_after is not None and self.policy.refusal(exc.retry_after, budget):
            return f"rate limited for {exc.retry_after:.0f} s"
        cause = exc.__cause__
        if isinstance(cause, github.GithubException):
            return _reason(cause)
        return exc.reason


def _try(operation: Callable[[], T], attempt: int, creates: bool) -> T:
    """One try of a PyGithub operation; RetryableError when the policy may repeat it."""
    try:
        return operation()
    except requests.RequestException as exc:
        if creates:
            raise
        raise RetryableError(f"no answer ({type(exc).__name__})") from exc
    except UNREADABLE as exc:
        if creates:
            raise
        raise RetryableError(f"unreadable answer ({type(exc).__name__})") from exc
    except github.GithubException as exc:
        limit = github_limit(
            exc.status, exc.headers or {}, str(exc.data).encode(), attempt=attempt, now=time.time()
        )
        if limit is not None and limit.wait is not None:
            raise RetryableError(limit.reason, limit.wait) from exc
        if exc.status >= 500 and not creates:
            raise RetryableError(f"HTTP {exc.status}") from exc
        raise


def _reason(exc: github.GithubException) -> str:
    """HTTP status and GitHub's message, cleaned and short."""
    data = exc.data
    said = data.get("message", "") if isinstance(data, dict) else ""
    return f"HTTP {exc.status}: {shorten(clean(str(said)), 200)}"


def valid_repo(repo: str) -> str:
    """OWNER/NAME, or UsageError."""
    if not _REPO.match(repo):
        raise UsageError(f"--repo must be OWNER/NAME, not {repo!r}")
    return repo


def body_lines(body: str) -> list[str]:
    """A comment's or pull request's lines as GitHub reads them: only `\n` ends one (a U+2028
    inside a quoted value is no line break, so it can never make a marker a line of its own)."""
    return [line.removesuffix("\r") for line in body.split("\n")]


def is_ours(item: Any, logins: frozenset[str], marker: str) -> bool:
    """Whether a comment, review or issue (a PyGithub object with `user` and `body`) is
    curator's: written by one of `logins` AND starting with `marker`. A quoted or forged
    marker in someone else's text is never ours."""
    return (
        item.user is not None
        and item.user.login in logins
        and (item.body or "").lstrip().startswith(marker)
    )


def from_env(env: Mapping[str, str], **kwargs: Any) -> GitHubAPI:
    """A client from GITHUB_API_URL and GITHUB_TOKEN."""
    return GitHubAPI(
        env.get("GITHUB_API_URL") or DEFAULT_API, env.get("GITHUB_TOKEN", ""), **kwargs
    )

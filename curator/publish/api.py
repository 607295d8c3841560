"""GitHub for publishing: PyGithub's objects and pagination (comments, issues, labels, pulls)
under curator's retry policy, run by tenacity.

PyGithub's own retries and request spacing are off. Each call (one PyGithub operation, which
may be several requests, e.g. every page of a list) is retried on a 5xx answer or a failed
connection, and after a rate limit (Retry-After, the reset time, or a minute for a secondary
limit) when the wait fits `max_wait`. A call that creates something (a POST) is never sent
again after a 5xx or no answer: it may have taken effect, and the next run finds it by its
marker instead. PyGithub sends every request, Link-header pages included, to the configured
host only, so the token never leaves it; no message or repr shows the token.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar
from urllib.parse import urlsplit

import github
import requests
import tenacity

from curator import __version__
from curator.errors import CuratorError
from curator.report.sanitize import clean, shorten

DEFAULT_API = "https://api.github.com"
API_VERSION = "2022-11-28"
T = TypeVar("T")


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
        self.retries = retries
        self.max_wait = max_wait
        self._sleep = sleep
        self.github = github.Github(
            base_url=self.base_url,
            auth=github.Auth.Token(token) if token else None,
            timeout=max(1, math.ceil(timeout)),
            user_agent=f"curator/{__version__}",
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
        retrying = tenacity.Retrying(
            retry=tenacity.retry_if_exception(lambda exc: self._wait(exc, 0, creates) is not None),
            wait=lambda state: self._wait(_failure(state), state.attempt_number - 1, creates) or 0,
            stop=self._stop,
            sleep=self._sleep,
            reraise=True,
        )
        try:
            return retrying(operation)
        except github.GithubException as exc:
            raise PublishError(f"GitHub {what}: {_reason(exc)}") from None
        except requests.RequestException as exc:
            raise PublishError(f"GitHub {what}: no answer ({type(exc).__name__})") from None
        except AssertionError:
            # PyGithub asserts that a URL it was handed (a Link header's) is on the API host.
            raise PublishError(f"GitHub {what}: refused a URL outside {self.base_url}") from None

    def login(self) -> str:
        """The token's user (GET /user), or "" when the token cannot say (an Actions token)."""
        try:
            return str(self.call("GET /user", lambda: self.github.get_user().login))
        except PublishError:
            return ""

    def _wait(self, exc: BaseException, attempt: int, creates: bool) -> float | None:
        """Seconds to wait before trying `exc`'s operation again, or None: not again."""
        if isinstance(exc, requests.RequestException):
            return None if creates else 2.0**attempt
        if not isinstance(exc, github.GithubException):
            return None
        if exc.status >= 500:
            return None if creates else 2.0**attempt
        return rate_limit_wait(exc.status, exc.headers or {}, str(exc.data), attempt)

    def _stop(self, state: tenacity.RetryCallState) -> bool:
        """Stop after `retries`; a limit longer than `max_wait` fails at once, saying so."""
        wait = self._wait(_failure(state), state.attempt_number - 1, creates=False) or 0.0
        if wait > self.max_wait:
            raise PublishError(f"GitHub: rate limited for {wait:.0f} s") from None
        return state.attempt_number > self.retries


def rate_limit_wait(
    status: int, headers: Mapping[str, str], body: str, attempt: int
) -> float | None:
    """Seconds GitHub asks to wait after a 403/429 rate limit; None when it is no limit."""
    if status not in (403, 429):
        return None
    lower = {k.lower(): v for k, v in headers.items()}
    header = lower.get("retry-after", "")
    if header.isascii() and header.isdigit():
        return float(header)
    if lower.get("x-ratelimit-remaining") == "0":
        reset = lower.get("x-ratelimit-reset", "")
        return max(float(reset) - time.time(), 1.0) if reset.isascii() and reset.isdigit() else None
    text = body.lower()
    # Secondary limits without retry-after: GitHub says wait at least a minute.
    if "secondary rate limit" in text or "abuse" in text:
        return 60.0 * 2.0**attempt
    return None


def _failure(state: tenacity.RetryCallState) -> BaseException:
    """The exception of the last try."""
    assert state.outcome is not None and state.outcome.failed
    exc = state.outcome.exception()
    assert exc is not None
    return exc


def _reason(exc: github.GithubException) -> str:
    """HTTP status and GitHub's message, cleaned and short."""
    data = exc.data
    said = data.get("message", "") if isinstance(data, dict) else ""
    return f"HTTP {exc.status}: {shorten(clean(str(said)), 200)}"


def from_env(env: Mapping[str, str], **kwargs: Any) -> GitHubAPI:
    """A client from GITHUB_API_URL and GITHUB_TOKEN."""
    return GitHubAPI(
        env.get("GITHUB_API_URL") or DEFAULT_API, env.get("GITHUB_TOKEN", ""), **kwargs
    )

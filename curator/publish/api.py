"""A small GitHub REST client for publishing: token auth, request counting, retries on 5xx and
secondary rate limits, Link-header pagination. The token never appears in a message or repr."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from curator import __version__
from curator.errors import CuratorError
from curator.report.sanitize import clean, shorten

DEFAULT_API = "https://api.github.com"
_LINK = re.compile(r'<([^>]+)>\s*;\s*rel="([^"]+)"')


class PublishError(CuratorError):
    """GitHub refused or failed a request that publishing cannot do without."""


@dataclass(frozen=True)
class Response:
    """Status, lower-cased headers and the parsed JSON body (None when there is none)."""

    status: int
    headers: Mapping[str, str]
    data: Any = None
    links: Mapping[str, str] = field(default_factory=dict)


def parse_links(header: str) -> dict[str, str]:
    """rel -> URL from a Link header."""
    return {rel: url for url, rel in _LINK.findall(header or "")}


class GitHubAPI:
    """GitHub REST at `base_url` (GITHUB_API_URL); counts every request it sends."""

    def __init__(
        self,
        base_url: str = DEFAULT_API,
        token: str = "",
        *,
        timeout: float = 20.0,
        retries: int = 3,
        max_wait: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.requests = 0
        self.retries = retries
        self.max_wait = max_wait
        self._sleep = sleep
        headers = {
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
            "User-Agent": f"curator/{__version__}",
        }
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._client = httpx.Client(
            headers=headers, timeout=timeout, transport=transport, follow_redirects=False
        )

    def __repr__(self) -> str:
        return f"GitHubAPI({self.base_url!r}, requests={self.requests})"

    def __enter__(self) -> GitHubAPI:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def request(
        self, method: str, path: str, *, json: Any = None, params: Mapping[str, Any] | None = None
    ) -> Response:
        """Send one call (with retries); PublishError unless the status is 2xx."""
        url = self._url(path)
        for attempt in range(self.retries + 1):
            reply = self._send(method, url, json, params)
            wait = retry_after(reply, attempt) if reply is not None else 2.0**attempt
            if method == "POST" and (reply is None or reply.status_code >= 500):
                # The comment or issue may exist already: posting again could leave two. The
                # next run finds it by its marker (and removes any duplicate) instead.
                wait = None
            if wait is None or attempt == self.retries:
                break
            if wait > self.max_wait:
                raise PublishError(f"GitHub {method} {_where(url)}: rate limited for {wait:.0f} s")
            self._sleep(wait)
        if reply is None:
            raise PublishError(f"GitHub {method} {_where(url)}: no answer")
        return self._result(method, url, reply)

    def paginate(self, path: str, params: Mapping[str, Any] | None = None) -> Iterator[Any]:
        """Every item of a list endpoint, following Link rel="next" on this same host only."""
        response = self.request("GET", path, params={"per_page": 100, **(params or {})})
        while True:
            yield from response.data or []
            following = response.links.get("next", "")
            if not following:
                return
            response = self.request("GET", following)

    def login(self) -> str:
        """The token's user (GET /user), or "" when the token cannot say (an Actions token)."""
        try:
            data = self.request("GET", "/user").data
        except PublishError:
            return ""
        return str(data.get("login", "")) if isinstance(data, dict) else ""

    def _url(self, path: str) -> str:
        """An absolute URL; absolute ones must point at the configured API (token safety)."""
        if not path.startswith(("http://", "https://")):
            return self.base_url + "/" + path.lstrip("/")
        if _origin(path) != _origin(self.base_url):
            raise PublishError(f"refusing to send the token to {_origin(path)}")
        return path

    def _send(
        self, method: str, url: str, body: Any, params: Mapping[str, Any] | None
    ) -> httpx.Response | None:
        """One HTTP exchange, counted; None on a transport failure."""
        self.requests += 1
        try:
            return self._client.request(method, url, json=body, params=params)
        except httpx.TransportError:
            return None

    def _result(self, method: str, url: str, reply: httpx.Response) -> Response:
        """Response for a 2xx, else PublishError with GitHub's message."""
        data = _json(reply)
        if not 200 <= reply.status_code < 300:
            said = data.get("message", "") if isinstance(data, dict) else reply.reason_phrase
            text = shorten(clean(said), 200)
            raise PublishError(f"GitHub {method} {_where(url)}: HTTP {reply.status_code}: {text}")
        headers = {k.lower(): v for k, v in reply.headers.items()}
        return Response(reply.status_code, headers, data, parse_links(headers.get("link", "")))


def retry_after(reply: httpx.Response, attempt: int) -> float | None:
    """Seconds to wait before retrying this reply, or None when it should not be retried."""
    status = reply.status_code
    if status >= 500:
        return 2.0**attempt
    if status not in (403, 429):
        return None
    header = reply.headers.get("retry-after", "")
    if header.isdigit():
        return float(header)
    if reply.headers.get("x-ratelimit-remaining") == "0":
        reset = reply.headers.get("x-ratelimit-reset", "")
        return max(float(reset) - time.time(), 1.0) if reset.isdigit() else None
    message = reply.text.lower()
    # Secondary limits without retry-after: GitHub says wait at least a minute.
    if "secondary rate limit" in message or "abuse" in message:
        return 60.0 * 2.0**attempt
    return None


def _json(reply: httpx.Response) -> Any:
    """The body as JSON, or None (empty body, or HTML on a 5xx)."""
    try:
        return reply.json() if reply.content else None
    except ValueError:
        return None


def _origin(url: str) -> str:
    """scheme://host:port of a URL."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _where(url: str) -> str:
    """The path of a URL, for messages (no query string)."""
    return urlsplit(url).path


def from_env(env: Mapping[str, str], **kwargs: Any) -> GitHubAPI:
    """A client from GITHUB_API_URL and GITHUB_TOKEN."""
    return GitHubAPI(
        env.get("GITHUB_API_URL") or DEFAULT_API, env.get("GITHUB_TOKEN", ""), **kwargs
    )

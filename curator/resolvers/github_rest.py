"""GitHub REST through PyGithub: one unauthenticated `GET /repos/{owner}/{repo}` per try.

PyGithub's `Requester` (`github.Github(...).requester`) builds and sends each request. It
adds the User-Agent and, because no `auth` is given, no token: the REST path never sends one.
It follows a 301 on the configured host by itself, which is how GitHub answers for a renamed
repository (to /repositories/{id}), and returns any other status without raising. Its own
retries and request spacing are off: curator's one retry policy (net/http.py) decides.

Each run has its own PyGithub connection object, passed to every call as `cnx`, with a
requests adapter that counts every request that reached the server (a rename costs two)
and reads each whole answer within the try's time limit. Nothing here is process-global.
"""

from __future__ import annotations

import io
import logging
import math
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import github
import httpx
import requests
import urllib3
from github.Requester import HTTPRequestsConnectionClass, HTTPSRequestsConnectionClass
from requests.adapters import HTTPAdapter

from curator.config.options import Options
from curator.core.outcomes import Counter
from curator.net.http import MAX_BODY, USER_AGENT, RetryableError
from curator.resolvers.github_http import Answer, Failure

COUNT_AS = "github_rest"
_CHUNK = 65536
#: Requests one try may send: the GET, and the one hop of a renamed repository
#: (/repos/{old} -> /repositories/{id}), with one to spare. PyGithub follows 301s on the
#: API host recursively, with no limit of its own.
SENDS_PER_TRY = 3

# PyGithub gives its package logger a stderr handler at INFO on import, so every renamed
# repository would print "Following Github server redirection ..." into curator's output.
# Quiet its Requester to warnings, unless someone chose a level for it.
_REQUESTER_LOG = logging.getLogger("github.Requester")
if _REQUESTER_LOG.level == logging.NOTSET:
    _REQUESTER_LOG.setLevel(logging.WARNING)


class SlowAnswer(requests.Timeout):
    """The server kept sending the body past the time limit (a read timeout bounds one read)."""


class TooLarge(requests.RequestException):
    """The answer passed MAX_BODY bytes: no repository's is near that, so it is not read on."""


class NotReady(requests.RequestException):
    """GitHub answered 202 Accepted: still preparing the answer. PyGithub would sleep two
    seconds and ask again, without end and outside the budget; the retry policy decides."""


class CountingAdapter(HTTPAdapter):
    """The requests transport of one run: counts what reaches GitHub, bounds each answer.

    `limit` is the time allowed for the next request, body included. It is set per try
    here rather than through PyGithub, whose timeouts are whole seconds. `start_try` also
    allows the try SENDS_PER_TRY requests.
    """

    def __init__(self, counter: Counter, count_as: str = COUNT_AS) -> None:
        super().__init__(max_retries=0)  # no urllib3 retries either: tenacity decides
        self.counter = counter
        self.count_as = count_as
        self.limit = 20.0
        self.left = SENDS_PER_TRY

    def start_try(self, limit: float) -> None:
        """A new try: `limit` seconds per request, SENDS_PER_TRY requests."""
        self.limit = limit
        self.left = SENDS_PER_TRY

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        verify: Any = True,
        cert: Any = None,
        proxies: dict[str, str] | None = None,
    ) -> requests.Response:
        """Send, count, and read the whole body within `limit` (else a Timeout)."""
        if self.left <= 0:
            raise requests.TooManyRedirects(f"more than {SENDS_PER_TRY} requests in one try")
        self.left -= 1
        started = time.monotonic()
        try:
            response = super().send(request, True, self.limit, verify, cert, proxies)
        except requests.ConnectionError as exc:
            if _reached(exc):
                self.counter.add(self.count_as)
            raise
        except requests.RequestException:
            self.counter.add(self.count_as)
            raise
        self.counter.add(self.count_as)
        response.raw = io.BytesIO(_read_all(response, started + self.limit))
        if response.status_code == 202:
            raise NotReady("GitHub answered HTTP 202 (still preparing the answer)")
        return response


def _reached(exc: requests.ConnectionError) -> bool:
    """False when no connection was made (refused, unresolvable, connect timeout)."""
    if isinstance(exc, requests.ConnectTimeout):
        return False
    cause = exc.args[0] if exc.args else None
    return not isinstance(getattr(cause, "reason", None), urllib3.exceptions.NewConnectionError)


def _read_all(response: requests.Response, deadline: float) -> bytes:
    """The decoded body, read before `deadline` (monotonic); requests errors otherwise."""
    raw = response.raw
    chunks: list[bytes] = []
    try:
        # read1, not stream: stream waits for a full chunk, so a drip would never be checked.
        size = 0
        while chunk := raw.read1(_CHUNK, decode_content=True):
            chunks.append(chunk)
            size += len(chunk)
            if time.monotonic() > deadline:
                raise SlowAnswer("GitHub did not finish its answer in time")
            if size > MAX_BODY:
                raise TooLarge(f"GitHub REST answer larger than {MAX_BODY} bytes")
    except (SlowAnswer, TooLarge):  # first: requests' exceptions are OSErrors too
        raw.close()  # the server is still sending: this connection cannot be reused
        raise
    except urllib3.exceptions.ReadTimeoutError as exc:
        raw.close()
        raise requests.ReadTimeout(exc) from None
    except (urllib3.exceptions.HTTPError, OSError) as exc:
        raw.close()
        raise requests.ConnectionError(exc) from None
    finally:
        raw.release_conn()
    return b"".join(chunks)


def _connection(
    base_url: str, adapter: CountingAdapter
) -> HTTPRequestsConnectionClass | HTTPSRequestsConnectionClass:
    """A PyGithub connection to the API host whose session sends through `adapter`."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"GITHUB_API_URL must be an http(s) URL, not {base_url!r}")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    kind = HTTPSRequestsConnectionClass if parts.scheme == "https" else HTTPRequestsConnectionClass
    cnx = kind(host, parts.port, retry=None)
    cnx.adapter.close()
    cnx.session.mount(f"{parts.scheme}://", adapter)
    cnx.adapter = adapter
    return cnx


class RestClient:
    """PyGithub for one resolve run: unauthenticated REST GETs over one counting connection."""

    def __init__(self, options: Options, counter: Counter) -> None:
        base = options.github_api_url.rstrip("/")
        self.adapter = CountingAdapter(counter)
        self._cnx = _connection(base, self.adapter)  # ValueError before PyGithub asserts
        self._github = github.Github(
            base_url=base,
            timeout=max(1, math.ceil(options.timeout)),  # unused: every call passes `cnx`
            user_agent=USER_AGENT,
            retry=None,
            seconds_between_requests=None,  # pacing is tenacity's and GitHub's headers' job
            seconds_between_writes=None,
        )

    def get(self, path: str, headers: Mapping[str, str], timeout: float) -> Answer | Failure:
        """One try of `GET path` (relative to the API base) within `timeout` seconds;
        RetryableError when it is worth another."""
        self.adapter.start_try(timeout)
        sent = {"Accept": "application/vnd.github+json", **headers}
        try:
            status, got, text = self._github.requester.requestJson(
                "GET", path, headers=sent, cnx=self._cnx
            )
        except requests.Timeout:
            raise RetryableError(f"GitHub did not answer within {timeout:g}s") from None
        except NotReady as exc:
            raise RetryableError(str(exc)) from None
        except TooLarge as exc:  # no retry makes it smaller
            return Failure(str(exc))
        except requests.TooManyRedirects:  # 301 after 301: no retry fixes that
            return Failure(f"GitHub REST redirected more than {SENDS_PER_TRY - 1} times")
        except requests.RequestException as exc:
            raise RetryableError(f"connection to GitHub failed ({type(exc).__name__})") from None
        except (RuntimeError, ValueError):
            # PyGithub refuses a 301 to another host or scheme, or back to the same path
            # (RuntimeError), or cannot parse its Location (urllib's ValueError).
            return Failure("GitHub REST redirected to an unexpected place")
        return Answer(status, httpx.Headers(got), text.encode("utf-8"))

    def close(self) -> None:
        """Release the connection."""
        self._cnx.close()
        self._github.close()

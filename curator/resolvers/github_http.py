"""HTTP for the GitHub resolver: curator's one retry policy (net/http.py), and the
state of one run: its budget, and whether GitHub has been given up.

`GithubHttp.call` runs one request (an `Exchange`: one try, given its time limit) and returns
a value, never raises: an `Answer` (any HTTP status the caller interprets) or a `Failure`
(GitHub could not be asked). An exchange raises `RetryableError` for a try worth repeating.
REST tries go through PyGithub (github_rest.py), GraphQL tries through httpx here
(`GithubHttp.send`), since PyGithub's GraphQL helpers raise on errors and cannot carry 100
aliased repositories with per-alias errors. Once a limit cannot be waited out within
`Options.rate_limit_wait` and the budget, or two requests in a row fail, GitHub is given up
for the rest of the run, so the remaining subjects turn Unverified at once instead of each
waiting in turn.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import httpx

from curator.config.options import Options
from curator.core.outcomes import Counter
from curator.net.http import (
    USER_AGENT,
    Budget,
    ConnectFailure,
    GiveUp,
    RetryableError,
    call_with_retries,
    github_limit,
    github_policy,
    read_body,
)
from curator.textio import json_text

#: Requests in a row that may fail outright before GitHub is taken to be down for this run.
FAILURES_BEFORE_DOWN = 2


@dataclass(frozen=True)
class Answer:
    """A response GitHub gave: status, headers and body."""

    status: int
    headers: httpx.Headers
    body: bytes

    def json(self) -> Any:
        """The decoded JSON body; ValueError when it is not JSON (or nests too deeply)."""
        return json_text.loads(self.body)


@dataclass(frozen=True)
class Failure:
    """GitHub could not be asked usably; `reason` is safe to show (no secrets)."""

    reason: str


#: One try of a request, given the seconds it may take; raises RetryableError to try again.
Exchange = Callable[[float], Answer | Failure]


class GithubHttp:
    """The budget and give-up state of one resolve run (and its httpx client)."""

    def __init__(
        self,
        options: Options,
        counter: Counter,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.options = options
        self.counter = counter
        self.sleep = sleep
        self.clock = clock  # epoch seconds: GitHub's limit resets are epoch times
        self.policy = github_policy(options)
        self.budget = Budget(options.service_budget, clock)
        self.down = ""  # why GitHub was given up for this run; empty while it is still asked
        self._failures = 0
        self._client: httpx.Client | None = None  # made on first GraphQL use

    def close(self) -> None:
        """Release the connections."""
        if self._client is not None:
            self._client.close()

    def send(
        self,
        method: str,
        url: str,
        count_as: str,
        headers: Mapping[str, str] | None = None,
        body: Any = None,
    ) -> Answer | Failure:
        """Send one httpx request with retries; count every try under `count_as`."""
        return self.call(partial(self._httpx_try, method, url, count_as, dict(headers or {}), body))

    def call(self, exchange: Exchange) -> Answer | Failure:
        """Run one request through `exchange` with retries, limits and the budget."""
        if self.down:
            return Failure(self.down)
        tries = itertools.count(1)
        try:
            result = call_with_retries(
                lambda: self._try(exchange, next(tries)), self.budget, self.policy, sleep=self.sleep
            )
        except GiveUp as exc:
            return self._give_up(exc.reason)
        except RetryableError as exc:
            # A limit the policy would not wait out gives GitHub up for the whole run.
            if exc.retry_after is not None:
                refusal = self.policy.refusal(exc.retry_after, self.budget)
                if refusal:
                    return self._give_up(f"{exc.reason}; {refusal}")
            result = Failure(exc.reason)
        if isinstance(result, Answer):
            self._failures = 0
            return result
        self._failures += 1
        if self._failures >= FAILURES_BEFORE_DOWN:
            self.down = f"{result.reason} (GitHub given up for this run)"
        return result

    def _try(self, exchange: Exchange, attempt: int) -> Answer | Failure:
        """One try within what is left of the budget, its answer classified."""
        left = self.budget.remaining()
        if left <= 0:
            raise GiveUp(f"GitHub time budget of {self.options.service_budget:g}s used")
        result = exchange(min(self.options.timeout, left))
        if isinstance(result, Failure):
            return result
        self.counter.heard("github")
        limit = github_limit(
            result.status, result.headers, result.body, attempt=attempt, now=self.clock()
        )
        if limit is not None:
            if limit.wait is None:
                raise GiveUp(limit.reason)
            raise RetryableError(limit.reason, limit.wait)
        if result.status >= 500:
            raise RetryableError(f"GitHub answered HTTP {result.status}")
        return result

    def _httpx_try(
        self,
        method: str,
        url: str,
        count_as: str,
        headers: dict[str, str],
        body: Any,
        timeout: float,
    ) -> Answer:
        """One httpx request (GraphQL), counted when it reached GitHub."""
        # httpx bounds each read, not the body: a server dripping bytes must not outlast it.
        deadline = time.monotonic() + timeout
        reached = True
        try:
            with self._http().stream(
                method, url, headers=headers, json=body, timeout=timeout
            ) as response:
                content = read_body(response, deadline)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            # Nothing reached GitHub: not counted, and asked again only once (ConnectFailure).
            reached = False
            raise ConnectFailure(f"cannot connect to GitHub ({type(exc).__name__})") from None
        except httpx.TimeoutException:
            raise RetryableError(
                f"GitHub did not answer within {self.options.timeout:g}s"
            ) from None
        except httpx.TransportError as exc:
            raise RetryableError(f"connection to GitHub failed ({type(exc).__name__})") from None
        except httpx.DecodingError:  # a body its Content-Encoding does not fit
            raise RetryableError("GitHub's answer could not be decoded") from None
        except RetryableError:
            raise RetryableError(f"GitHub did not finish its answer within {timeout:g}s") from None
        finally:
            if reached:
                self.counter.add(count_as)
        return Answer(response.status_code, response.headers, content)

    def _http(self) -> httpx.Client:
        """The run's httpx client, made on first use."""
        if self._client is None:
            self._client = httpx.Client(
                follow_redirects=False,  # redirects are read, never followed blindly
                headers={"User-Agent": USER_AGENT, "Accept": "application/vnd.github+json"},
            )
        return self._client

    def _give_up(self, reason: str) -> Failure:
        """Mark GitHub down for the rest of the run."""
        self.down = reason
        return Failure(reason)

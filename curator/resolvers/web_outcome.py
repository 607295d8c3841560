"""What a web link's answers mean (pure): the hop chain, the outcome of its last answer,
and a hop that got no usable answer. The network side is curator/resolvers/web.py."""

from __future__ import annotations

import ssl
from collections.abc import Sequence
from dataclasses import dataclass

import httpx

from curator.config.links import LinkRules
from curator.core.meta import WebMeta
from curator.core.outcomes import Blocked, Found, Moved, NotFound, Outcome, Unverified
from curator.net.http import RETRY_STATUSES

PERMANENT = frozenset({301, 308})
GONE = frozenset({404, 410})


@dataclass(frozen=True)
class Hop:
    """One response on the way: its status and the URL that gave it."""

    status: int
    url: str


@dataclass(frozen=True)
class Answer:
    """What one HTTP exchange said, body unread."""

    status: int
    location: str = ""
    retry_after: float | None = None  # seconds, read by the one HTTP policy's parser


@dataclass(frozen=True)
class Failure:
    """A hop that got no usable answer: kind is blocked, broken, unreachable (no server
    answered: DNS, TLS; broken only if the network is shown to work) or unverified."""

    kind: str
    reason: str

    def outcome(self, subject: str, chain: Sequence[Hop], url: str) -> Outcome:
        """The subject's outcome when this failure happened at `url` after `chain`."""
        reason = self.reason if not chain else f"{self.reason} (after redirect to {url})"
        if self.kind == "blocked":
            return Blocked(subject, reason)
        if self.kind in ("broken", "unreachable"):
            meta = hop_meta(chain, url) if chain else WebMeta()
            return NotFound(subject, reason, meta, transport=self.kind == "unreachable")
        return Unverified(subject, reason)


def hop_meta(chain: Sequence[Hop], final_url: str) -> WebMeta:
    """The record of a checked link: last status, final URL and the hop chain."""
    return WebMeta(
        http_status=chain[-1].status if chain else 0,
        final_url=final_url,
        chain=tuple((hop.status, hop.url) for hop in chain),
    )


def final_outcome(
    subject: str, chain: Sequence[Hop], rules: LinkRules, retry_after: float | None = None
) -> Outcome:
    """The outcome of a subject whose last response (not a redirect) ends `chain`."""
    status, url = chain[-1].status, chain[-1].url
    meta = hop_meta(chain, url)
    if 200 <= status < 400:
        return _found_or_moved(subject, chain, meta)
    if status in GONE:
        return NotFound(subject, f"HTTP {status}", meta)
    # The host that answered last is the likeliest wall; doi.org and the like forward to it.
    hosts = [httpx.URL(hop.url).host for hop in reversed(chain)]
    walled = next((host for host in hosts if rules.is_bot_walled(host)), "")
    if walled:
        return Unverified(subject, f"HTTP {status} behind the bot wall of {walled}")
    if status == 429:
        wait = f", Retry-After: {retry_after:.0f}" if retry_after is not None else ""
        return Unverified(subject, f"rate limited (HTTP 429{wait})")
    if status >= 500 or status in RETRY_STATUSES or status < 200:
        return Unverified(subject, f"HTTP {status}")
    return NotFound(subject, f"HTTP {status}", meta)


def _found_or_moved(subject: str, chain: Sequence[Hop], meta: WebMeta) -> Outcome:
    """Moved to where the leading permanent redirects end; temporary ones stay Found."""
    stop = 0
    while stop < len(chain) - 1 and chain[stop].status in PERMANENT:
        stop += 1
    if stop == 0:
        return Found(subject, meta)
    return Moved(subject, chain[stop].url, meta)


def tls_failure(exc: BaseException) -> bool:
    """True when a connection error came from TLS (bad certificate, handshake)."""
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, ssl.SSLError) or "CERTIFICATE_VERIFY_FAILED" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False

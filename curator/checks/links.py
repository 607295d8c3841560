"""Web-link findings: broken, likely broken (a soft 404), permanently redirected, unverified
or blocked links (pure)."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from curator.checks.redirects import hop_urls, soft_404
from curator.config.context import CheckContext
from curator.config.links import LinkRules
from curator.core.meta import WebMeta, web_meta
from curator.core.model import Entry, Finding, Service
from curator.core.outcomes import Blocked, Found, Moved, NotFound, Outcome, Unverified


def check_links(entry: Entry, outcomes: Mapping[str, Outcome], ctx: CheckContext) -> list[Finding]:
    """One finding per web link of `entry` that is not simply reachable."""
    rules = ctx.links
    findings: list[Finding] = []
    seen: set[str] = set()
    for link in entry.links:
        if link.service is not Service.WEB or link.subject in seen:
            continue
        seen.add(link.subject)
        if rules is not None and rules.ignores(link.subject):
            continue
        outcome = outcomes.get(link.subject)
        finding = _finding(entry, link.role, outcome, ctx) if outcome is not None else None
        if finding is not None:
            findings.append(finding)
    return findings


def _finding(entry: Entry, role: str, outcome: Outcome, ctx: CheckContext) -> Finding | None:
    """The finding for one link outcome; None when the link is fine."""
    what = f"{role} link" if role else "link"
    subject, source = outcome.subject, entry.source
    lost = _soft_404(outcome, ctx.links)
    if lost and isinstance(outcome, Found | Moved):  # a soft 404: no target offered
        return ctx.finding(
            "link-soft-404", subject, source, f"{what} is likely broken: {lost}",
            evidence=hop_chain(web_meta(outcome.meta)),
        )  # fmt: skip
    if isinstance(outcome, Moved):
        return ctx.finding(
            "link-redirect", subject, source,
            f"{what} permanently redirects to {outcome.new_url}",
            evidence=hop_chain(web_meta(outcome.meta)), suggestion=outcome.new_url,
        )  # fmt: skip
    if isinstance(outcome, NotFound):
        return ctx.finding(
            "link-broken", subject, source, f"{what} is broken: {outcome.reason}",
            evidence=hop_chain(web_meta(outcome.meta)),
        )  # fmt: skip
    if isinstance(outcome, Unverified):
        return ctx.finding(
            "link-unverified", subject, source,
            f"{what} could not be verified: {outcome.reason}",
        )  # fmt: skip
    if isinstance(outcome, Blocked):
        return ctx.finding(
            "link-blocked", subject, source,
            f"{what} was not checked: {outcome.reason}",
        )  # fmt: skip
    return None


def _soft_404(outcome: Outcome, rules: LinkRules | None) -> str:
    """Why an answered link is likely gone (checks/redirects.py), "" when it is not or when
    a host of its chain is bot-walled: such a host sends robots to a sign-in page while a
    reader's browser gets the page."""
    if not isinstance(outcome, Found | Moved):
        return ""
    urls = hop_urls(web_meta(outcome.meta))
    if rules is not None and any(
        rules.is_bot_walled((urlsplit(url).hostname or "").lower()) for url in urls
    ):
        return ""
    return soft_404(urls)


def hop_chain(meta: WebMeta) -> str:
    """The redirect chain of an outcome as `301 http://a -> 200 https://b`, or ""."""
    return " -> ".join(f"{status} {url}" for status, url in meta.chain)

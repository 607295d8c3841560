"""check_links: web-link outcomes become link-* findings (pure, no network)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from curator.checks.interface import CheckContext
from curator.checks.links import check_links, hop_chain
from curator.config.links import LinkRules
from curator.config.options import Options
from curator.core.codes import CODES
from curator.core.meta import WebMeta
from curator.core.model import Entry, Kind, Link, Service, Severity, Source
from curator.core.outcomes import Blocked, Found, Moved, NotFound, Outcome, Unverified

SOURCE = Source("data/projects.yaml", 12)
SITE = "https://memory.example.org/"
DOCS = "http://docs.example.org/guide"


def entry(*links: tuple[str, str, Service]) -> Entry:
    """A project entry carrying the given (role, subject, service) links."""
    return Entry(
        subject="github:owner/repo",
        kind=Kind.PROJECT,
        source=SOURCE,
        title="A project",
        links=tuple(Link(role, subject, subject, service) for role, subject, service in links),
    )


def run(e: Entry, outcomes: Mapping[str, Outcome], ctx: CheckContext | None = None) -> list:
    return check_links(e, outcomes, ctx or CheckContext())


CHAIN = {"chain": [[301, SITE], [200, "https://new.example.org/"]]}


@pytest.mark.parametrize(
    ("outcome", "code", "severity"),
    [
        (NotFound(SITE, "HTTP 404", {"chain": [[404, SITE]]}), "link-broken", Severity.ERROR),
        (NotFound(SITE, "DNS: no such host memory.example.org"), "link-broken", Severity.ERROR),
        (Moved(SITE, "https://new.example.org/", CHAIN), "link-redirect", Severity.INFO),
        (Unverified(SITE, "timeout after 20s"), "link-unverified", Severity.WARNING),
        (Unverified(SITE, "rate limited (HTTP 429)"), "link-unverified", Severity.WARNING),
        (Blocked(SITE, "loopback address 127.0.0.1"), "link-blocked", Severity.ERROR),
    ],
)
def test_each_outcome_gives_its_finding(outcome: Outcome, code: str, severity: Severity) -> None:
    [finding] = run(entry(("website", SITE, Service.WEB)), {SITE: outcome})
    assert finding.code == code
    assert finding.severity is severity
    assert finding.subject == SITE
    assert finding.source == SOURCE
    assert finding.message.startswith("website link")
    assert code in CODES


def test_found_links_give_nothing() -> None:
    temporary = Found(SITE, {"chain": [[302, SITE], [200, SITE + "login"]]})
    assert run(entry(("website", SITE, Service.WEB)), {SITE: temporary}) == []


def test_redirect_suggests_the_target_and_shows_the_chain() -> None:
    [finding] = run(
        entry(("website", SITE, Service.WEB)),
        {SITE: Moved(SITE, "https://new.example.org/", CHAIN)},
    )
    assert finding.suggestion == "https://new.example.org/"
    assert finding.evidence == f"301 {SITE} -> 200 https://new.example.org/"
    assert "https://new.example.org/" in finding.message


def test_evidence_is_the_hop_chain_and_the_message_the_reason() -> None:
    redirected = NotFound(SITE, "HTTP 404", {"chain": [[301, SITE], [404, DOCS]]})
    [first] = run(entry(("website", SITE, Service.WEB)), {SITE: redirected})
    assert first.evidence == f"301 {SITE} -> 404 {DOCS}"
    [second] = run(entry(("docs", DOCS, Service.WEB)), {DOCS: NotFound(DOCS, "TLS failure: x")})
    assert second.evidence == ""
    assert "TLS failure" in second.message


def test_only_web_links_are_checked() -> None:
    e = entry(
        ("repo", "github:owner/repo", Service.GITHUB),
        ("paper", "arxiv:2305.10250", Service.ARXIV),
        ("website", SITE, Service.WEB),
    )
    outcomes: dict[str, Outcome] = {
        "github:owner/repo": NotFound("github:owner/repo", "404"),
        "arxiv:2305.10250": Unverified("arxiv:2305.10250", "down"),
        SITE: NotFound(SITE, "HTTP 410"),
    }
    assert [f.subject for f in run(e, outcomes)] == [SITE]


def test_one_finding_per_subject_and_none_without_outcome() -> None:
    e = entry(
        ("website", SITE, Service.WEB), ("url", SITE, Service.WEB), ("docs", DOCS, Service.WEB)
    )
    findings = run(e, {SITE: NotFound(SITE, "HTTP 404")})
    assert [f.subject for f in findings] == [SITE]


def test_ignored_links_give_nothing() -> None:
    ctx = CheckContext(links=LinkRules(ignore_hosts=("example.org",)))
    findings = run(entry(("website", SITE, Service.WEB)), {SITE: NotFound(SITE, "HTTP 404")}, ctx)
    assert findings == []


def test_configured_severity_wins() -> None:
    ctx = CheckContext(options=Options(severity={"link-unverified": Severity.INFO}))
    [finding] = run(
        entry(("website", SITE, Service.WEB)), {SITE: Unverified(SITE, "HTTP 503")}, ctx
    )
    assert finding.severity is Severity.INFO


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        ({}, ""),
        ({"chain": "nonsense"}, ""),
        ({"chain": [[200, SITE]]}, f"200 {SITE}"),
        ({"chain": [[301, "a"], ["bad"], [200, "b"]]}, "301 a -> 200 b"),
    ],
)
def test_hop_chain_tolerates_odd_metadata(meta: dict, expected: str) -> None:
    assert hop_chain(WebMeta.from_cache(meta)) == expected


def test_a_deep_link_sent_to_the_home_page_is_likely_broken_without_a_suggestion() -> None:
    """A permanent redirect from a deep link to the site's root is no target to offer: a
    warning, the chain as evidence, nothing suggested (it was an info `link-redirect`)."""
    chain = {"chain": [[301, DOCS], [200, "http://docs.example.org/"]]}
    [finding] = run(
        entry(("docs", DOCS, Service.WEB)), {DOCS: Moved(DOCS, "http://docs.example.org/", chain)}
    )
    assert (finding.code, finding.severity) == ("link-soft-404", Severity.WARNING)
    assert finding.suggestion == ""
    assert finding.evidence == f"301 {DOCS} -> 200 http://docs.example.org/"
    assert "likely broken" in finding.message and "home page" in finding.message


def test_a_temporary_redirect_of_a_deep_link_to_a_sign_in_page_is_likely_broken() -> None:
    chain = {"chain": [[302, DOCS], [200, "https://accounts.example.com/signin?next=guide"]]}
    [finding] = run(entry(("docs", DOCS, Service.WEB)), {DOCS: Found(DOCS, chain)})
    assert finding.code == "link-soft-404" and "a sign-in page" in finding.message


def test_a_bot_walled_host_sending_curator_to_a_sign_in_page_is_not_judged() -> None:
    """medium.com (bot-walled by default) may send a robot to its sign-in page while a
    reader gets the article: no soft 404 is claimed."""
    post = "https://medium.com/@a/memory-for-agents-123"
    chain = {"chain": [[302, post], [200, "https://medium.com/m/signin?redirect=x"]]}
    ctx = CheckContext(links=LinkRules())
    assert run(entry(("blog", post, Service.WEB)), {post: Found(post, chain)}, ctx) == []

"""What a link's redirects say about the page it names (pure): the same page under another
spelling, or a page that is likely gone although the host answers 200.

A host that removed a page often answers its old (deep) address with a redirect to the home
page, a login or an error page (a "soft 404"). Such a target must never replace the link, and the
link is reported as likely broken (`link-soft-404`). Only a redirect that keeps the
resource is one safe answer that `curator fix` writes: the same path and query on https
instead of http, on the host spelled with or without `www.` or in another case, with or
without a trailing slash. Any other target (another path, another host) is reported for a
maintainer to judge, never written.
"""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import SplitResult, urlsplit

from curator.core.meta import WebMeta

#: A host's first label that names a sign-in service (accounts.example.com, sso.example.org).
_LOGIN_HOSTS = frozenset({"accounts", "account", "login", "signin", "auth", "sso", "idp"})
#: Path segments (lower case, extension dropped) of sign-in pages.
_LOGIN_WORDS = frozenset(
    {
        "login", "log-in", "log_in", "logon", "signin", "sign-in", "sign_in", "auth",
        "authenticate", "authorize", "oauth", "oauth2", "sso", "saml", "servicelogin",
        "authwall",
    }
)  # fmt: skip
#: Path segments of pages saying the page is missing or the site is down.
_ERROR_WORDS = frozenset(
    {"404", "not-found", "notfound", "not_found", "page-not-found", "pagenotfound", "error",
     "maintenance"}
)  # fmt: skip
#: A single path segment that is still the site's home page.
_HOME_PAGES = frozenset({"index.html", "index.htm", "index.php", "home"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def hop_urls(meta: WebMeta) -> list[str]:
    """The URLs of an outcome's hop chain, in order: the link itself first, then every URL
    a redirect sent it to."""
    return [url for _, url in meta.chain]


def same_resource(old: str, new: str) -> bool:
    """True when `new` names the page `old` names: http to https (or the same scheme), the
    host with or without `www.` or in another case, the same port, path and query, a
    trailing slash added or removed. Anything else may be another page."""
    a, b = _split(old), _split(new)
    if a is None or b is None or (a.scheme, b.scheme) not in _SCHEMES:
        return False
    if _host(a) != _host(b) or _port(a) != _port(b) or a.query != b.query:
        return False
    if a.username is not None or b.username is not None:
        return False
    return a.path.rstrip("/") == b.path.rstrip("/")


_SCHEMES = frozenset({("http", "http"), ("https", "https"), ("http", "https")})


def soft_404(urls: Sequence[str]) -> str:
    """Why the page a link names is likely gone though its host answered (the link, then
    where its redirects sent it): a deep link sent to a site's home page, a sign-in or an
    error page. "" when the redirects say nothing of the kind. A link to a site's home page
    is left alone: a web application's front door often is its sign-in page."""
    if len(urls) < 2:
        return ""
    first = _split(urls[0])
    if first is None or not _deep(first):
        return ""
    for url in urls[1:]:
        hop = _split(url)
        if hop is None:
            continue
        if _home(hop):
            return f"the deep link is redirected to the site's home page {url}"
        if _kind(hop) and not _kind(first):
            return f"redirected to {_kind(hop)} {url}"
    return ""


def _split(url: str) -> SplitResult | None:
    """The parts of an http(s) URL; None for anything else or what cannot be parsed."""
    try:
        parts = urlsplit(url.strip())
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return None
    if parts.scheme.lower() not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return parts


def _host(parts: SplitResult) -> str:
    """The host without case, a final dot or a leading `www.`."""
    host = (parts.hostname or "").lower().rstrip(".")
    return host.removeprefix("www.")


def _port(parts: SplitResult) -> int | None:
    """The port, None for the scheme's default one."""
    port = parts.port
    return None if port == _DEFAULT_PORTS.get(parts.scheme.lower()) else port


def _segments(parts: SplitResult) -> list[str]:
    """The path's segments, lower case."""
    return [s for s in parts.path.lower().split("/") if s]


def _deep(parts: SplitResult) -> bool:
    """True for a link below a site's home page (a path or a query)."""
    return bool(parts.query) or not _home(parts)


def _home(parts: SplitResult) -> bool:
    """True for a site's home page: no path (or `/index.html`, `/home`) and no query."""
    segments = _segments(parts)
    at_root = not segments or (len(segments) == 1 and segments[0] in _HOME_PAGES)
    return at_root and not parts.query


def _kind(parts: SplitResult) -> str:
    """`a sign-in page` or `an error page` when the URL names one, else ""."""
    words = {s.rsplit(".", 1)[0] if "." in s else s for s in _segments(parts)}
    labels = _host(parts).split(".")
    if words & _LOGIN_WORDS or (len(labels) > 2 and labels[0] in _LOGIN_HOSTS):
        return "a sign-in page"
    if words & _ERROR_WORDS:
        return "an error page"
    return ""

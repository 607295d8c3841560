"""Normalisation of arXiv IDs, GitHub URLs and other links into CONTRACT.md subjects.

Pure functions: no network. A subject is `arxiv:<id without version>`,
`github:<owner>/<repo>` (lower-case) or the absolute URL of any other link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit, urlunsplit

from curator.core.model import Link, Service
from curator.core.subjects import arxiv_subject, repo_subject, subject_kind

# New style since 2007-04: YYMM.NNNN (to 2014-12) or YYMM.NNNNN (from 2015-01), optional vN.
_NEW_ID = re.compile(r"^(?P<id>\d{4}\.\d{4,5})(?:v(?P<v>\d+))?$", re.ASCII)
# Old style: archive(.SUBJ)?/YYMMNNN, e.g. hep-th/9901001, math.GT/0309136, cs/0112017v2.
_OLD_ID = re.compile(
    r"^(?P<id>(?P<arch>[a-z][a-z-]*)(?:\.[A-Z]{2})?/\d{7})(?:v(?P<v>\d+))?$", re.ASCII
)
_ARXIV_HOSTS = {
    "arxiv.org",
    "www.arxiv.org",
    "export.arxiv.org",
    "alphaxiv.org",
    "www.alphaxiv.org",
}
#: Mirrors and reading sites whose paths carry an arXiv ID (`/abs/ID`, `/papers/ID`, ...).
_ARXIV_MIRRORS = {
    "ar5iv.org": ("abs/", "html/"),
    "ar5iv.labs.arxiv.org": ("html/", "abs/"),
    "huggingface.co": ("papers/",),
    "hf.co": ("papers/",),
}
_DOI_HOSTS = {"doi.org", "dx.doi.org", "www.doi.org"}
#: A link can name an arXiv paper only if one of these stands in it (checked before parsing).
_ARXIV_MARKS = ("arxiv", "alphaxiv", "ar5iv", "huggingface.co", "hf.co", "doi.org")
# arXiv's DataCite DOIs: 10.48550/arXiv.<id>.
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)
#: Paths of arxiv.org that carry an identifier; other arxiv.org pages are ordinary web pages.
_ARXIV_ID_PATHS = ("abs/", "pdf/", "html/", "format/")
#: Image and badge services: a link to one of them is decoration, never checked.
BADGE_HOSTS = {"img.shields.io", "shields.io", "badgen.net", "badge.fury.io"}
_GITHUB_HOSTS = {"github.com", "www.github.com"}
_GH_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,100}$")
_GH_OWNER = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$")
# First path segments of github.com that are not owners.
_GH_RESERVED = {
    "orgs", "topics", "features", "marketplace", "sponsors", "settings", "search",
    "about", "pricing", "collections", "trending", "explore", "login", "apps", "site",
}  # fmt: skip


@dataclass(frozen=True)
class ArxivId:
    """A parsed arXiv identifier: `base` without version, `version` or None."""

    base: str
    version: int | None = None

    @property
    def subject(self) -> str:
        """CONTRACT.md subject, e.g. `arxiv:2305.10250`."""
        return arxiv_subject(self.base)

    @property
    def old_style(self) -> bool:
        """True for pre-2007 identifiers like `hep-th/9901001`."""
        return "/" in self.base

    def __str__(self) -> str:
        return self.base if self.version is None else f"{self.base}v{self.version}"


def parse_arxiv_id(text: str) -> ArxivId | None:
    """Parse an arXiv ID in any common spelling: bare, `arXiv:` prefix, abs/pdf/html URL."""
    raw = text.strip()
    if not raw:
        return None
    if "://" in raw or raw.lower().startswith(("arxiv.org/", "www.arxiv.org/")):
        return _arxiv_from_url(raw)
    if raw.lower().startswith("arxiv:"):
        raw = raw[6:].strip()
    return _match_id(raw)


def _match_id(raw: str) -> ArxivId | None:
    """Match a bare identifier, with optional version and `.pdf` suffix."""
    if raw.lower().endswith(".pdf"):
        raw = raw[:-4]
    m = _NEW_ID.match(raw)
    if m and _valid_new_style(m.group("id")):
        return ArxivId(m.group("id"), _version(m.group("v")))
    m = _OLD_ID.match(raw)
    if m:
        return ArxivId(m.group("id"), _version(m.group("v")))
    return None


def _valid_new_style(base: str) -> bool:
    """Month 01-12, year from 07; 5-digit numbers only from 1501 on."""
    yymm, number = base.split(".")
    yy, mm = int(yymm[:2]), int(yymm[2:])
    if not 1 <= mm <= 12 or yy < 7:
        return False
    return (len(number) == 5) == (int(yymm) >= 1501)


def _version(v: str | None) -> int | None:
    return int(v) if v else None


def _arxiv_from_url(url: str) -> ArxivId | None:
    """Extract the ID from arxiv.org/abs|pdf|html/<id> URLs and the mirrors that carry one.

    Also `doi.org/10.48550/arXiv.<id>`, `huggingface.co/papers/<id>`, `alphaxiv.org/abs/<id>`
    and `ar5iv` pages: all of them name one arXiv paper.
    """
    lowered = url.lower()
    if not any(mark in lowered for mark in _ARXIV_MARKS):
        return None  # most links: no need to parse them
    if "://" not in url:
        url = "https://" + url
    host = _host(url)
    try:
        path = browser_path(urlsplit(url).path).strip("/")
    except ValueError:
        return None
    if host in _DOI_HOSTS:
        m = _ARXIV_DOI.match(path)
        return _match_id(m.group(1)) if m else None
    prefixes = _ARXIV_ID_PATHS if host in _ARXIV_HOSTS else _ARXIV_MIRRORS.get(host, ())
    for prefix in prefixes:
        if path.startswith(prefix):
            return _match_id(path[len(prefix) :])
    return None


@lru_cache(maxsize=16384)
def arxiv_id_in_url(url: str) -> ArxivId | None:
    """The arXiv ID a link names (arxiv.org, its mirrors, arXiv's DOI), or None."""
    if "://" not in url and not url.lower().startswith(("arxiv.org/", "www.arxiv.org/")):
        return None
    return _arxiv_from_url(url)


@lru_cache(maxsize=16384)
def is_arxiv_id_url(url: str) -> bool:
    """True for an arxiv.org link to a paper page (abs/pdf/html), valid identifier or not.

    Such a link with an identifier that does not parse is an `arxiv-bad-id`; other arxiv.org
    pages (listings, author pages) are ordinary web links.
    """
    if _host(url) not in _ARXIV_HOSTS:
        return False
    try:
        path = urlsplit(url if "://" in url else "https://" + url).path
    except ValueError:
        return False
    return browser_path(path).strip("/").startswith(_ARXIV_ID_PATHS)


_DOT = {".", "%2e"}
_DOTS = {"..", ".%2e", "%2e.", "%2e%2e"}


def browser_path(path: str) -> str:
    """An http(s) URL's path as a browser requests it: `.` and `..` segments (and their
    percent-encoded spellings) resolved, as WHATWG's URL parser does. `arxiv.org/./abs/ID`
    opens the paper; read as written it would be a plain web link, neither its title nor its
    scope checked."""
    if "." not in path and "%2" not in path.lower():
        return path
    out: list[str] = []
    parts = path.split("/")
    for i, segment in enumerate(parts):
        lowered = segment.lower()
        last = i == len(parts) - 1
        if lowered in _DOTS:
            if len(out) > 1:
                out.pop()
            if last:
                out.append("")
        elif lowered in _DOT:
            if last:
                out.append("")
        else:
            out.append(segment)
    return "/".join(out)


def is_badge_url(url: str) -> bool:
    """True for an image/badge service link (shields.io and the like)."""
    lowered = url.lower()
    if not any(host in lowered for host in BADGE_HOSTS):
        return False  # most links: no need to parse them
    return _host(url) in BADGE_HOSTS


@lru_cache(maxsize=16384)
def _host(url: str) -> str:
    """Lower-case host of a URL (scheme optional), "" when unparsable."""
    try:
        return (urlsplit(url if "://" in url else "https://" + url).hostname or "").lower()
    except ValueError:
        return ""


def is_arxiv_url(url: str) -> bool:
    """True when the URL points at arxiv.org (whether or not its ID is valid)."""
    return _host(url) in _ARXIV_HOSTS


@lru_cache(maxsize=16384)
def github_repo(url: str) -> tuple[str, str] | None:
    """(owner, repo) as written for a github.com repository URL, else None.

    Accepts `www.`, `http`, `.git`, trailing `/`, and deeper paths (`/tree/main/x`).
    """
    text = url.strip()
    if "github.com" not in text.lower():
        return None  # most links: no need to parse them
    if "://" not in text:
        if not text.lower().startswith(("github.com/", "www.github.com/")):
            return None
        text = "https://" + text
    try:
        parts = urlsplit(text)
        if parts.scheme.lower() not in {"http", "https"} or parts.username or parts.password:
            return None
        if (parts.hostname or "").lower() not in _GITHUB_HOSTS or parts.port not in (None, 443):
            return None
    except ValueError:
        return None
    segments = [s for s in browser_path(parts.path).split("/") if s]
    if len(segments) < 2:
        return None
    owner, repo = segments[0], segments[1]
    if repo.lower().endswith(".git"):
        repo = repo[:-4]
    if owner.lower() in _GH_RESERVED or not _GH_OWNER.match(owner) or not _GH_NAME.match(repo):
        return None
    if repo in {".", ".."}:
        return None
    return owner, repo


def github_subject(url: str) -> str | None:
    """`github:owner/repo` (lower-case) for a repository URL, else None."""
    found = github_repo(url)
    return None if found is None else repo_subject(f"{found[0]}/{found[1]}")


def is_github_url(url: str) -> bool:
    """True when the URL's host is github.com (repository or not)."""
    return _host(url) in _GITHUB_HOSTS


def as_written_url(url: str) -> str:
    """A link target as a browser reads it: `//host/…` is https, and a backslash in an
    http(s) URL is a slash (WHATWG URL); so `https:\\arxiv.org\abs\\ID` is checked, not lost."""
    text = url.strip()
    if text.startswith("//"):
        text = "https:" + text
    scheme, sep, rest = text.partition(":")
    if sep and scheme.lower() in {"http", "https"} and not rest.startswith("//"):
        # Special schemes take any run of slashes and backslashes before the host.
        cut = min((i for i in (rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
        path = rest[:cut].replace(chr(92), "/")
        text = f"{scheme}://{path.lstrip('/')}{rest[cut:]}"
    elif sep and scheme.lower() in {"http", "https"} and "\\" in rest:
        cut = min((i for i in (rest.find("?"), rest.find("#")) if i >= 0), default=len(rest))
        text = f"{scheme}:{rest[:cut].replace(chr(92), '/')}{rest[cut:]}"
    return text


def url_subject(url: str) -> str:
    """Normalise any other link: lower-case scheme and host, no fragment, no default port.

    Text that is not a parsable URL comes back stripped but unchanged (never an exception).
    """
    try:
        return _stripped(_url_subject(_stripped(url)))
    except ValueError:
        return _stripped(url)


#: What urlsplit strips from both ends (WHATWG's C0 controls and space), beside str.strip's set.
_C0_OR_SPACE = "".join(map(chr, range(0x21)))


def _stripped(text: str) -> str:
    """Strip until stable: str.strip and urlsplit's C0 strip each uncover what the other removes."""
    while True:
        shorter = text.strip().strip(_C0_OR_SPACE)
        if shorter == text:
            return text
        text = shorter


def _url_subject(url: str) -> str:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    netloc = parts.netloc
    host = parts.hostname or ""
    if host:
        port = parts.port if _safe_port(parts) else None
        default = (scheme == "http" and port == 80) or (scheme == "https" and port == 443)
        shown = f"[{host}]" if ":" in host else host
        userinfo = netloc.rpartition("@")[0]
        netloc = (userinfo + "@" if userinfo else "") + shown.lower()
        if port is not None and not default:
            netloc += f":{port}"
    path = parts.path or ("/" if host else "")
    return urlunsplit((scheme, netloc, path, parts.query, ""))


def _safe_port(parts: object) -> bool:
    """urlsplit().port raises on garbage; treat that as no port."""
    try:
        return getattr(parts, "port", None) is not None
    except ValueError:
        return False


@lru_cache(maxsize=16384)
def subject_for_url(url: str) -> str:
    """The subject of any link: arXiv and GitHub repositories first, else the URL."""
    arxiv_id = arxiv_id_in_url(url)
    if arxiv_id is not None:
        return arxiv_id.subject
    return github_subject(url) or url_subject(url)


def link_for(role: str, url: str) -> Link:
    """A Link with its subject and the service that verifies it (arXiv, GitHub or web)."""
    subject = subject_for_url(url)
    return Link(role, url.strip(), subject, subject_kind(subject) or Service.WEB)

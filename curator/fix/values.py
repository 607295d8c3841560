"""What a finding asks to change in its entry (`Want`), and whether the new value is safe.

Pure. A finding with one safe answer becomes one `Want`: the entry's title, its date, the
repository of its GitHub links (and of the badges beside them), the target of a permanent
redirect that keeps the page (checks/redirects.py: https, `www.`, a trailing slash), the form
of an arXiv link, a badge's URL drawing the entry's repository, or (only with `--unsafe`) the
arXiv ID of its links. The new value comes from a service, so it is checked here before any
format writes it: a title with control, bidi or TeX characters, or that would read as a link;
a URL with spaces, quotes or brackets; none of
these is ever written.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from curator.checks.redirects import same_resource
from curator.checks.titles import same_paper
from curator.core.badges import renamed_badge
from curator.core.model import Entry, Finding
from curator.core.normalize import arxiv_id_in_url, github_repo, parse_arxiv_id, subject_for_url
from curator.core.subjects import arxiv_id_of


class Change(StrEnum):
    """What carries the wrong value."""

    TITLE = "title"  # the entry's title text
    DATE = "date"  # the entry's date, in its own written form
    REPO = "repo"  # owner/name in the GitHub links of one repository
    URL = "url"  # every link to one subject (a redirect's target that keeps the page)
    FORM = "form"  # one link as written: an arXiv link in the list's form, a badge's URL
    ARXIV_ID = "arxiv-id"  # one arXiv ID, wherever the entry writes it (--unsafe only)


@dataclass(frozen=True)
class Want:
    """One finding's answer: `change` of its entry to `new`; `unsafe` ones wait for --unsafe.

    `new` is a title, a date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`), `owner/name`, a URL, or an
    arXiv ID without version; `old` is what is replaced when the finding names it (the arXiv
    link as written for FORM, the ID for ARXIV_ID).
    """

    change: Change
    new: str
    old: str = ""
    unsafe: bool = False


#: The codes `curator fix` may answer; every other code is only ever reported.
FIXABLE = frozenset(
    {
        "arxiv-title-mismatch",
        "arxiv-date-mismatch",
        "arxiv-not-found",
        "repo-moved",
        "link-redirect",
        "arxiv-link-form",
        "badge-mismatch",
        "anchor-missing",
    }
)
#: A suggestion naming an arXiv ID (the title search's answer for a wrong ID).
ID_PREFIX = "arXiv:"
_DATE = re.compile(r"^\d{4}(?:-\d{2}(?:-\d{2})?)?$", re.ASCII)
# A URL curator may write as is: no space, quote, bracket, backslash or angle bracket.
_SAFE_URL = re.compile(r"^https?://[A-Za-z0-9\-._~:/?#@!$&*+,;=%']+$", re.ASCII)
# Text a reader would take for a link: a scheme, `www.`, or a plain-text arXiv ID.
_LINKISH = re.compile(r"://|\bwww\.|\barxiv\s*:\s*[\w.-]*\d", re.IGNORECASE)
_TEX = re.compile(r"\$|\\[A-Za-z]")
MAX_TITLE = 500


def want_of(finding: Finding, entry: Entry) -> Want | None:
    """The one safe answer to `finding` about `entry`, or None when it has none."""
    code, suggestion = finding.code, finding.suggestion
    own = finding.subject == entry.subject
    if code in {"arxiv-title-mismatch", "arxiv-not-found"} and suggestion.startswith(ID_PREFIX):
        return _new_id(finding)
    if code == "arxiv-title-mismatch" and own and same_paper(entry.title, suggestion):
        title = clean_title(suggestion)
        return Want(Change.TITLE, title) if title else None
    if code == "arxiv-date-mismatch" and own and entry.date and _DATE.match(suggestion):
        return Want(Change.DATE, suggestion)
    if code == "repo-moved" and safe_url(suggestion):
        repo = github_repo(suggestion)
        return Want(Change.REPO, f"{repo[0]}/{repo[1]}") if repo else None
    if code == "link-redirect" and safe_url(suggestion):
        # Only a target that keeps the page (https, www., a slash) is one safe answer: a
        # host may send a page it removed to its home, a sign-in or another page.
        return Want(Change.URL, suggestion) if same_resource(finding.subject, suggestion) else None
    if code in {"arxiv-link-form", "badge-mismatch"} and safe_url(suggestion) and finding.evidence:
        # One link or badge URL as written, replaced whole (the badge drawing the link's
        # repository: the entry's identity is its link, not the picture beside it).
        return Want(Change.FORM, suggestion, old=finding.evidence)
    return None


def _new_id(finding: Finding) -> Want | None:
    """The ID arXiv's title search suggests, to replace the finding's own (unsafe)."""
    new = parse_arxiv_id(finding.suggestion.removeprefix(ID_PREFIX))
    old = arxiv_id_of(finding.subject)
    if new is None or new.subject == finding.subject or not old:
        return None
    return Want(Change.ARXIV_ID, new.base, old=old, unsafe=True)


def clean_title(title: str) -> str:
    """The title to write: whitespace runs as one space; "" when it holds a control, format
    (bidi) or line-separator character, TeX, or text a reader would take for a link."""
    text = " ".join(title.split())
    if not text or len(text) > MAX_TITLE or _TEX.search(text) or _LINKISH.search(text):
        return ""
    if any(unicodedata.category(ch) in {"Cc", "Cf", "Zl", "Zp", "Co", "Cn"} for ch in text):
        return ""
    return text


def id_pattern(base: str) -> re.Pattern[str]:
    """arXiv ID `base`, any version of it (`2305.10250`, `2305.10250v2`), standing alone."""
    return re.compile(r"(?<!\w)" + re.escape(base) + r"(?:v\d+)?(?!\w)")


def safe_url(url: str) -> bool:
    """True for an http(s) URL with nothing a document or YAML file would read as syntax."""
    return bool(_SAFE_URL.match(url)) and len(url) <= 2000


def rewrite_url(want: Want, url: str, subject: str) -> str | None:
    """`url` (a link as written, about `subject`) as `want` makes it; None when it is not
    one of the links `want` changes."""
    if want.change is Change.REPO:
        # The moved repository's links, and the badges beside them that draw it.
        return _moved_repo(url, subject, want.new) or renamed_badge(url, subject, want.new)
    if want.change is Change.URL:
        if subject_for_url(url) != subject:
            return None
        fragment = url.partition("#")[2]
        keep = fragment and "#" not in want.new  # a fragment the target does not replace
        return want.new + ("#" + fragment if keep else "")
    if want.change is Change.FORM:
        return want.new if url == want.old else None
    return None


_GITHUB_PATH = re.compile(
    r"^(?P<head>[A-Za-z][A-Za-z0-9+.-]*://(?:www\.)?github\.com/)(?P<owner>[^/?#]+)/"
    r"(?P<name>[^/?#]+?)(?P<git>\.git)?(?P<tail>[/?#].*)?$",
    re.IGNORECASE,
)


def _moved_repo(url: str, subject: str, new: str) -> str | None:
    """A GitHub link to the moved repository with its owner/name replaced; scheme, host,
    `.git`, path below it (`/tree/main/x`), query and fragment kept."""
    if subject_for_url(url) != subject or arxiv_id_in_url(url) is not None:
        return None
    m = _GITHUB_PATH.match(url)
    if m is None:
        return None
    return f"{m['head']}{new}{m['git'] or ''}{m['tail'] or ''}"

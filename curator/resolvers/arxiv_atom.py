"""The arXiv export API's Atom feed, read once and strictly: papers, 400 errors, withdrawals.

curator speaks the export API itself (httpx, the one HTTP layer in net/http.py) and
parses its feed here, with the standard library, instead of going through the `arxiv`
package. That package (4.0.2) cannot give curator what a run needs through its public API:

* `arxiv.Client` sends through a `requests.Session` it creates itself, with no public way to
  supply a transport, and calls `session.get(url, headers=...)` with no timeout, so a silent
  server would hang the run forever; nothing bounds the body's size or the whole service's
  time.
* It retries and paces on its own (`num_retries`, `delay_seconds`) with no Retry-After, no
  budget and no count of the requests sent; curator must count every request (the report's
  counts equal the services' logs) and keep arXiv's 3-second spacing across runs.
* `Client.results` pages on by itself when a page is short (an entry it skipped), sending
  requests curator neither asked for nor counted.
* Its parser is lenient (lxml `recover=True`): a truncated or garbled body reads as a feed
  with fewer papers, which would turn an outage into false "not found"s.

So `parse_feed` is the strict gate every 200 answer passes, and the only parser: it checks
the feed is complete (as many entries as it announces) and turns each entry into an
`ArxivPaper`. An entry lacking <id>, <updated> or <published> is partial (listed, not a
paper), as the package skipped it; curator reports such an ID as unverified, not unknown.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Container
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from curator.core.meta import PaperMeta
from curator.core.normalize import parse_arxiv_id

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
_ERROR_ANCHOR = "/api/errors#incorrect_id_format_for_"

# arXiv has no withdrawal flag: the author's comment says so, or the abstract is replaced by
# a notice. Match the notice's sentence shapes, not any use of the word "withdrawn".
_WITHDRAWN_NOTICE = re.compile(
    r"\b(?:paper|article|submission|manuscript|preprint|version|work|this)\s+"
    r"(?:has\s+been|have\s+been|was|is|been)\s+(?:permanently\s+)?withdrawn\b"
    r"|\bwithdrawn\s+by\s+(?:the\s+)?(?:authors?|submitter|arxiv|admin)"
    r"|\bwithdrawn\s+(?:due\s+to|because|as\b|pending)",
    re.IGNORECASE,
)
# A comment that is (or starts with) just the word: "Withdrawn", "withdrawn.", "Withdrawn: ...".
_WITHDRAWN_COMMENT = re.compile(r"^\W*(?:this\s+paper\s+is\s+)?withdrawn\b", re.IGNORECASE)


class FeedError(ValueError):
    """A 200 answer that is not a complete Atom feed (blank, `Rate exceeded.`, truncated)."""


class UnreadableEntry(ValueError):
    """A complete feed with a field no reader can use (a date that is not a date): asking
    again would get the same answer."""


@dataclass(frozen=True)
class ArxivPaper:
    """One complete entry of a feed: the latest version of a paper, as arXiv describes it."""

    id: str  # base ID, no version
    version: int
    title: str
    authors: tuple[str, ...]
    abstract: str
    published: datetime  # v1 submission, UTC
    updated: datetime  # this version, UTC
    primary_category: str
    categories: tuple[str, ...]
    comment: str
    journal_ref: str
    doi: str

    def record(self) -> PaperMeta:
        """The typed record the outcome carries (and the cache keeps as JSON)."""
        return PaperMeta(
            id=self.id,
            version=self.version,
            url=f"https://arxiv.org/abs/{self.id}",
            title=self.title,
            authors=self.authors,
            abstract=self.abstract,
            published=self.published.date().isoformat(),
            published_at=_iso(self.published),
            updated=_iso(self.updated),
            primary_category=self.primary_category,
            categories=self.categories,
            comment=self.comment,
            journal_ref=self.journal_ref,
            doi=self.doi,
            withdrawn=is_withdrawal(self.comment, self.abstract),
        )

    def metadata(self) -> dict[str, Any]:
        """The JSON-able metadata the cache keeps and the reports show."""
        return self.record().to_cache()


@dataclass(frozen=True)
class Feed:
    """A complete feed: arXiv's total, the base ID of every entry (None where unreadable),
    and the papers of its complete entries."""

    total: int
    listed: tuple[str | None, ...]
    papers: tuple[ArxivPaper, ...]


def parse_feed(body: bytes) -> Feed:
    """Read a 200 answer: FeedError unless it is a complete feed, UnreadableEntry for a
    field that cannot be read; a partial entry is listed but is no paper."""
    text = body.strip()
    if not text:
        raise FeedError("blank answer")
    if text.startswith(b"Rate exceeded"):
        raise FeedError("rate limited ('Rate exceeded.' with HTTP 200)")
    root = _parse(text)
    if root.tag != ATOM + "feed":
        raise FeedError(f"answer is not an Atom feed (root {root.tag!r})")
    total = _count(root, "totalResults")
    if total is None:
        raise FeedError("feed has no opensearch:totalResults")
    # A page holds min(total - start, itemsPerPage) entries; fewer means a cut-off body.
    per_page = _count(root, "itemsPerPage")
    expected = max(0, total - (_count(root, "startIndex") or 0))
    if per_page is not None:
        expected = min(expected, per_page)
    entries = root.findall(ATOM + "entry")
    if len(entries) != expected:
        raise FeedError(f"feed lists {len(entries)} entries where it announces {expected}")
    listed = tuple(_entry_id(entry) for entry in entries)
    papers = (_paper(entry) for entry in entries)
    return Feed(total, listed, tuple(p for p in papers if p is not None))


def _entry_id(entry: ET.Element) -> str | None:
    """The base ID an entry's <id> names, or None."""
    parsed = parse_arxiv_id(entry.findtext(ATOM + "id") or "")
    return parsed.base if parsed else None


def _paper(entry: ET.Element) -> ArxivPaper | None:
    """The paper of a complete entry; None for a partial one or an ID that cannot be read."""
    parsed = parse_arxiv_id(entry.findtext(ATOM + "id") or "")
    if parsed is None:
        return None
    updated = _moment(entry, "updated")
    published = _moment(entry, "published")
    if updated is None or published is None:
        return None
    primary = entry.find(ARXIV + "primary_category")
    return ArxivPaper(
        id=parsed.base,
        version=parsed.version or 1,
        title=_text(entry, ATOM + "title"),
        authors=tuple(_text(a, ATOM + "name") for a in entry.iterfind(ATOM + "author")),
        abstract=_text(entry, ATOM + "summary"),
        published=published,
        updated=updated,
        primary_category=(primary.get("term") or "") if primary is not None else "",
        categories=tuple(
            term for c in entry.iterfind(ATOM + "category") if (term := c.get("term")) is not None
        ),
        comment=_text(entry, ARXIV + "comment"),
        journal_ref=_text(entry, ARXIV + "journal_ref"),
        doi=_text(entry, ARXIV + "doi"),
    )


def _text(element: ET.Element, tag: str) -> str:
    """A child's text with arXiv's line breaks and indentation collapsed ('' when absent)."""
    return " ".join((element.findtext(tag) or "").split())


def _moment(entry: ET.Element, name: str) -> datetime | None:
    """An entry's <updated> or <published> in UTC; None when absent or empty."""
    text = (entry.findtext(ATOM + name) or "").strip()
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        who = entry.findtext(ATOM + "id") or "an entry"
        raise UnreadableEntry(f"{who.strip()}: <{name}> {text[:40]!r} is not a date") from None
    if moment.tzinfo is None:  # Atom requires an offset; read a bare time as UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def partial_ids(
    asked: list[str], found: Container[str], listed: tuple[str | None, ...]
) -> list[str]:
    """The asked IDs missing from `found` although the feed had an entry that may be theirs."""
    missing = [base for base in asked if base not in found]
    if None in listed:  # an entry without a readable ID could be any of them
        return missing
    return [base for base in missing if base in listed]


def _count(root: ET.Element, name: str) -> int | None:
    """An opensearch counter of the feed, or None when absent or not a number."""
    text = (root.findtext(OPENSEARCH + name) or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else None


def _parse(text: bytes) -> ET.Element:
    """Parse strictly (no recovery); FeedError for anything not well-formed."""
    try:
        # Python's expat (>= 2.4) refuses entity-expansion bombs, and the body comes only
        # from the configured arXiv endpoint.
        return ET.fromstring(text)  # noqa: S314
    except ET.ParseError as exc:
        raise FeedError(f"malformed XML ({exc})") from None


def rejected_ids(body: bytes) -> tuple[list[str], str]:
    """From a 400 error feed: the IDs arXiv called malformed, and its message."""
    try:
        root = _parse(body.strip())
    except FeedError:
        return [], "HTTP 400"
    ids: list[str] = []
    messages: list[str] = []
    for entry in root.findall(ATOM + "entry"):
        anchor = entry.findtext(ATOM + "id") or ""
        if _ERROR_ANCHOR in anchor:
            ids.append(anchor.split(_ERROR_ANCHOR, 1)[1])
        messages.append((entry.findtext(ATOM + "summary") or "").strip())
    return ids, "; ".join(m for m in messages if m) or "HTTP 400"


def is_withdrawal(comment: str, abstract: str) -> bool:
    """True when the comment or abstract is arXiv's withdrawal notice."""
    if _WITHDRAWN_COMMENT.search(comment):
        return True
    return bool(_WITHDRAWN_NOTICE.search(comment) or _WITHDRAWN_NOTICE.search(abstract))


def _iso(moment: datetime) -> str:
    """UTC ISO 8601 with a Z, as arXiv writes it."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

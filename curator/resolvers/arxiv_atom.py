"""Pure helpers for arXiv export API answers: feed checks, 400 error feeds, metadata, withdrawal.

The arxiv package parses leniently (lxml `recover=True`), so a truncated or garbled body
would look like a feed with fewer papers and turn an outage into false "not found"s.
`read_feed` is the strict gate every 200 answer passes first.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Container
from datetime import UTC, datetime
from typing import Any

from curator.normalize import parse_arxiv_id

ATOM = "{http://www.w3.org/2005/Atom}"
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


def read_feed(body: bytes) -> list[str | None]:
    """The base ID of every entry of a complete feed (None where an entry's <id> is
    unreadable); FeedError when the body is not a complete feed.

    The arxiv package skips an entry that lacks <id>, <updated> or <published>; comparing its
    results with this list tells "arXiv does not know the ID" from "arXiv's record was partial".
    """
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
    return [_entry_id(entry) for entry in entries]


def _entry_id(entry: ET.Element) -> str | None:
    """The base ID an entry's <id> names, or None."""
    parsed = parse_arxiv_id((entry.findtext(ATOM + "id") or "").strip())
    return parsed.base if parsed else None


def partial_ids(asked: list[str], found: Container[str], listed: list[str | None]) -> list[str]:
    """The asked IDs missing from `found` although the feed had an entry that may be theirs."""
    missing = [base for base in asked if base not in found]
    if None in listed:  # an entry without a readable ID could be any of them
        return missing
    return [base for base in missing if base in listed]


def feed_total(body: bytes) -> int | None:
    """The `opensearch:totalResults` of a feed that passed `read_feed`, or None."""
    try:
        return _count(_parse(body.strip()), "totalResults")
    except FeedError:
        return None


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


def metadata(result: Any) -> dict[str, Any] | None:
    """JSON-able metadata of one `arxiv.Result`, or None when its ID cannot be read."""
    parsed = parse_arxiv_id(result.get_short_id())
    if parsed is None:
        return None
    comment = _squash(result.comment)
    abstract = _squash(result.summary)
    published: datetime = result.published
    return {
        "id": parsed.base,
        "version": parsed.version or 1,
        "url": f"https://arxiv.org/abs/{parsed.base}",
        "title": _squash(result.title),
        "authors": [_squash(a.name) for a in result.authors],
        "abstract": abstract,
        "published": published.astimezone(UTC).date().isoformat(),
        "published_at": _iso(published),
        "updated": _iso(result.updated),
        "primary_category": result.primary_category or "",
        "categories": list(result.categories),
        "comment": comment,
        "journal_ref": _squash(result.journal_ref),
        "doi": _squash(result.doi),
        "withdrawn": is_withdrawal(comment, abstract),
    }


def _squash(text: str | None) -> str:
    """Collapse the line breaks and indentation arXiv leaves in its fields."""
    return " ".join((text or "").split())


def _iso(moment: datetime) -> str:
    """UTC ISO 8601 with a Z, as arXiv writes it."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

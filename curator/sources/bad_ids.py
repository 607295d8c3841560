"""`arxiv-bad-id`, the one offline check every reader makes: an arXiv identifier that does
not parse. Both readers call it for their links, so a catalogue says the same as the list it
came from; a catalogue's `arxiv` field is the same check on the identifier alone."""

from __future__ import annotations

from curator.config.context import CheckContext
from curator.core.model import Finding, Source
from curator.core.normalize import arxiv_id_in_url, is_arxiv_id_url, url_subject
from curator.core.subjects import arxiv_subject

CODE = "arxiv-bad-id"


def bad_arxiv_link(url: str, source: Source, ctx: CheckContext) -> Finding | None:
    """`arxiv-bad-id` for an arxiv.org paper link (abs/pdf/html) whose identifier does not
    parse; None for every other link."""
    if not is_arxiv_id_url(url) or arxiv_id_in_url(url) is not None:
        return None
    message = f"{url} does not hold a valid arXiv identifier"
    return ctx.finding(CODE, url_subject(url), source, message, evidence=url)


def bad_arxiv_field(raw_id: str, source: Source, ctx: CheckContext) -> Finding:
    """`arxiv-bad-id` for a catalogue's `arxiv: <raw_id>` that does not parse."""
    return ctx.finding(
        CODE,
        arxiv_subject(raw_id),
        source,
        f"{raw_id!r} is not a valid arXiv identifier",
        evidence=f"arxiv: {raw_id}",
        suggestion="use YYMM.NNNNN (e.g. 2305.10250), optionally with vN, "
        "or old style archive/YYMMNNN",
    )

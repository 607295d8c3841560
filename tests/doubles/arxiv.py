"""A loopback arXiv export API (`/api/query`) speaking the current Atom format.

Built from the recordings in tests/fixtures/shared/api-samples/arxiv/: namespaces declared once on
<feed>, `arXiv Query: ...` title, entry element order `id, title, updated, link, link,
summary, category*, published, arxiv:comment?, arxiv:primary_category, arxiv:journal_ref?,
author*, arxiv:doi?, link(doi)?`, entry id `http://arxiv.org/abs/<id>v<N>`, unknown IDs
silently dropped from a 200 feed, a malformed ID answered with HTTP 400 and an Error entry.

Faults are queued with `fail(...)` and consumed one per request, in order.
"""

from __future__ import annotations

import itertools
import re
import threading
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from tests.doubles.server import LoopbackServer, Reply, Request

NOW = "2026-04-12T22:09:36Z"
_WELL_FORMED = re.compile(r"^(?:\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$")
ATOM_TYPE = "application/atom+xml; charset=utf-8"


@dataclass
class Paper:
    """One paper the double knows: latest version and v1 date, as arXiv would report them."""

    id: str
    title: str
    version: int = 1
    abstract: str = "We study memory for large language models."
    authors: tuple[str, ...] = ("Ada Lovelace",)
    published: str = "2023-05-17T17:59:46Z"
    updated: str = ""
    categories: tuple[str, ...] = ("cs.CL",)
    comment: str = ""
    journal_ref: str = ""
    doi: str = ""

    def entry_xml(self) -> str:
        """The <entry> element, in the recordings' element order and indentation."""
        vid = f"{self.id}v{self.version}"
        parts = [
            "  <entry>",
            f"    <id>http://arxiv.org/abs/{vid}</id>",
            f"    <title>{escape(self.title)}</title>",
            f"    <updated>{self.updated or self.published}</updated>",
            f'    <link href="https://arxiv.org/abs/{vid}" rel="alternate" type="text/html"/>',
            f'    <link href="https://arxiv.org/pdf/{vid}" rel="related" '
            'type="application/pdf" title="pdf"/>',
            f"    <summary>{escape(self.abstract)}</summary>",
        ]
        parts += [
            f'    <category term="{c}" scheme="http://arxiv.org/schemas/atom"/>'
            for c in self.categories
        ]
        if self.published:  # "" stands for a partial record (no <published>)
            parts.append(f"    <published>{self.published}</published>")
        if self.comment:
            parts.append(f"    <arxiv:comment>{escape(self.comment)}</arxiv:comment>")
        parts.append(f'    <arxiv:primary_category term="{self.categories[0]}"/>')
        if self.journal_ref:
            parts.append(f"    <arxiv:journal_ref>{escape(self.journal_ref)}</arxiv:journal_ref>")
        for name in self.authors:
            parts += ["    <author>", f"      <name>{escape(name)}</name>", "    </author>"]
        if self.doi:
            parts.append(f"    <arxiv:doi>{escape(self.doi)}</arxiv:doi>")
            parts.append(
                f'    <link rel="related" href={quoteattr("https://doi.org/" + self.doi)} '
                'title="doi"/>'
            )
        parts.append("  </entry>")
        return "\n".join(parts)


def feed_xml(
    query: str, entries: list[str], per_page: int, total: int | None = None, start: int = 0
) -> str:
    """A current-format feed: header elements as recorded, then the entries (`total` and
    `start` for one page of a search; an id_list answer is its own whole result)."""
    head = [
        "<?xml version='1.0' encoding='UTF-8'?>",
        '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">',
        "  <id>https://arxiv.org/api/qFNnN3Zc8bA02fouemuGZq2J4Tg</id>",
        f"  <title>arXiv Query: {escape(query)}</title>",
        f"  <updated>{NOW}</updated>",
        f"  <link href={quoteattr('https://arxiv.org/api/query?' + query)} "
        'type="application/atom+xml"/>',
        f"  <opensearch:itemsPerPage>{per_page}</opensearch:itemsPerPage>",
        f"  <opensearch:totalResults>{len(entries) if total is None else total}"
        "</opensearch:totalResults>",
        f"  <opensearch:startIndex>{start}</opensearch:startIndex>",
    ]
    return "\n".join([*head, *entries, "</feed>"]) + "\n"


def error_xml(bad: str) -> str:
    """The 400 Error feed of id_list_malformed_abc_error_400.xml for ID `bad`."""
    return error_feed(f"incorrect_id_format_for_{bad}", f"incorrect id format for {bad}")


def error_feed(name: str, message: str) -> str:
    """The shape of id_list_malformed_abc_error_400.xml for any error `name` and message."""
    anchor = f"https://arxiv.org/api/errors#{name}"
    return "\n".join(
        [
            "<?xml version='1.0' encoding='UTF-8'?>",
            '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
            'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">',
            "  <id>https://arxiv.org/</id>",
            "  <title>arXiv Search Results</title>",
            f"  <updated>{NOW}</updated>",
            "  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>",
            "  <opensearch:totalResults>1</opensearch:totalResults>",
            "  <opensearch:startIndex>0</opensearch:startIndex>",
            "  <entry>",
            f"    <id>{escape(anchor)}</id>",
            "    <title>Error</title>",
            f"    <updated>{NOW}</updated>",
            f'    <link href="{escape(anchor)}" rel="alternate" type="text/html"/>',
            f"    <summary>{escape(message)}</summary>",
            "    <author>",
            "      <name>arXiv api core</name>",
            "    </author>",
            "  </entry>",
            "</feed>",
            "",
        ]
    )


#: A paper real arXiv has: curator asks it beside IDs that only got empty answers.
CONTROL = Paper("1706.03762", "Attention Is All You Need", published="2017-06-12T17:57:34Z")


@dataclass
class ArxivDouble:
    """The fake service: `papers` by base ID, `rejected` IDs answered 400, queued faults."""

    papers: dict[str, Paper] = field(default_factory=lambda: {CONTROL.id: CONTROL})
    rejected: set[str] = field(default_factory=set)
    faults: list[str] = field(default_factory=list)
    #: When set, every search is refused with HTTP 400 and this message in arXiv's Error feed.
    refuse_search: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def install(self, server: LoopbackServer) -> str:
        """Route /api/query on `server`; returns the endpoint URL for CURATOR_ARXIV_API_URL."""
        server.route("GET", "/api/query", self.handle)
        self.server = server
        return server.url + "/api/query"

    def fail(self, *kinds: str) -> None:
        """Queue faults for the next requests: `503`, `429`, `429:<retry-after>`,
        `503:<retry-after>`, `rate-exceeded`, `blank`, `empty`, `truncated`, `slow:<seconds>`,
        `drip`, `stall`, `reset`, `html`."""
        with self._lock:
            self.faults.extend(kinds)

    def requests(self) -> list[Request]:
        """Requests received at /api/query."""
        return self.server.received("/api/query")

    def gaps(self) -> list[float]:
        """Seconds between consecutive requests' arrival."""
        times = [r.at for r in self.requests()]
        return [b - a for a, b in itertools.pairwise(times)]

    def asked_ids(self) -> list[list[str]]:
        """The id_list of every request, split."""
        return [r.query.get("id_list", [""])[0].split(",") for r in self.requests()]

    def handle(self, req: Request) -> Reply:
        """Answer one query: a fault if one is queued, else the feed."""
        with self._lock:
            fault = self.faults.pop(0) if self.faults else ""
        if fault and not fault.startswith("slow"):
            return _fault_reply(fault, self._answer(req))
        reply = self._answer(req)
        if fault:
            reply.delay = float(fault.split(":", 1)[1])
        return reply

    def searches(self) -> list[Request]:
        """Requests that carried a `search_query` (and no id_list)."""
        return [r for r in self.requests() if _search_of(r)]

    def _answer(self, req: Request) -> Reply:
        """The real answer: 400 for a malformed ID, else a feed of the known papers."""
        if _search_of(req):
            return self._search(req)
        ids = [i for i in req.query.get("id_list", [""])[0].split(",") if i]
        for raw in ids:
            if raw in self.rejected or not _WELL_FORMED.match(raw):
                return Reply(400, {"Content-Type": ATOM_TYPE}, error_xml(raw).encode())
        per_page = int(req.query.get("max_results", ["10"])[0])
        entries = [self.papers[i].entry_xml() for i in ids if i in self.papers][:per_page]
        query = (
            f"search_query={req.query.get('search_query', [''])[0]}&id_list={','.join(ids)}"
            f"&start=0&max_results={per_page}"
        )
        body = feed_xml(query, entries, per_page).encode()
        return Reply(200, {"Content-Type": ATOM_TYPE}, body)

    def _search(self, req: Request) -> Reply:
        """One page of a search: papers in any asked category, submitted in the window,
        oldest first. The word clause is recorded, not applied: arXiv stems it (memorization
        matches memory), so papers without the standalone word come back too."""
        query = _search_of(req)
        start_text = req.query.get("start", ["0"])[0]
        size_text = req.query.get("max_results", ["10"])[0]
        if not (start_text.isdigit() and size_text.isdigit()):
            return _error_reply("start_or_max_results", "start and max_results must be integers")
        if self.refuse_search:
            return _error_reply("bad_query", self.refuse_search)
        start, size = int(start_text), int(size_text)
        phrases = [_words(p) for p in re.findall(r'ti:"([^"]*)"', query)]
        if phrases:
            return self._titled(query, phrases, start, size)
        cats = set(re.findall(r"cat:([\w.\-]+)", query))
        span = re.search(r"submittedDate:\[(\d{12}) TO (\d{12})\]", query)
        low, high = (span.group(1), span.group(2)) if span else ("0" * 12, "9" * 12)
        matched = sorted(
            (
                p
                for p in self.papers.values()
                if cats & set(p.categories) and low <= _minute(p.published or p.updated) <= high
            ),
            key=lambda p: (p.published or p.updated, p.id),
        )
        entries = [p.entry_xml() for p in matched[start : start + size]]
        echo = f"search_query={query}&id_list=&start={start}&max_results={size}"
        body = feed_xml(echo, entries, size, total=len(matched), start=start).encode()
        return Reply(200, {"Content-Type": ATOM_TYPE}, body)

    def _titled(self, query: str, phrases: list[list[str]], start: int, size: int) -> Reply:
        """A title search (`ti:"words" OR ti:"words"`): the papers whose title holds one of
        the phrases word for word (arXiv matches a quoted phrase in the title field), in
        submission order."""
        matched = sorted(
            (p for p in self.papers.values() if any(_holds(_words(p.title), w) for w in phrases)),
            key=lambda p: (p.published or p.updated, p.id),
        )
        entries = [p.entry_xml() for p in matched[start : start + size]]
        echo = f"search_query={query}&id_list=&start={start}&max_results={size}"
        body = feed_xml(echo, entries, size, total=len(matched), start=start).encode()
        return Reply(200, {"Content-Type": ATOM_TYPE}, body)


def _words(text: str) -> list[str]:
    """Lower-case words, as arXiv's search tokenises a title."""
    return re.findall(r"[^\W_]+", text.lower())


def _holds(words: list[str], phrase: list[str]) -> bool:
    """True when `phrase` stands in `words` word for word."""
    n = len(phrase)
    return n > 0 and any(words[i : i + n] == phrase for i in range(len(words) - n + 1))


def _search_of(req: Request) -> str:
    """The search_query of a request without an id_list ('' otherwise)."""
    if req.query.get("id_list", [""])[0]:
        return ""
    return req.query.get("search_query", [""])[0]


def _minute(stamp: str) -> str:
    """`2026-09-23T05:49:58Z` -> `202609230549`, as submittedDate compares."""
    return "".join(ch for ch in stamp if ch.isdigit())[:12]


def _error_reply(name: str, message: str) -> Reply:
    """HTTP 400 with arXiv's Error feed."""
    return Reply(400, {"Content-Type": ATOM_TYPE}, error_feed(name, message).encode())


def _fault_reply(fault: str, real: Reply) -> Reply:
    """The reply for one injected fault (`real` is what arXiv would have said)."""
    kind, _, arg = fault.partition(":")
    headers = {"Retry-After": arg} if arg else {}
    if kind in {"503", "429", "500", "502"}:
        return Reply(int(kind), {"Content-Type": "text/plain", **headers}, b"Rate exceeded.")
    if kind == "rate-exceeded":
        return Reply(200, {"Content-Type": "text/plain"}, b"Rate exceeded.")
    if kind == "blank":
        return Reply(200, {"Content-Type": ATOM_TYPE}, b"")
    if kind == "empty":
        # arXiv under load: a well-formed feed announcing and listing no entry at all
        return Reply(200, {"Content-Type": ATOM_TYPE}, feed_xml("id_list=", [], 100).encode())
    if kind == "truncated":
        return Reply(200, real.headers, real.body[: len(real.body) * 2 // 3])
    if kind == "html":
        return Reply(403, {"Content-Type": "text/html"}, b"<html><h1>Access Denied</h1></html>")
    if kind == "drip":
        return Reply(200, real.headers, real.body, drip=0.05)
    if kind == "stall":
        # headers and one byte, then a pause longer than any test's read timeout
        return Reply(200, real.headers, real.body, drip=1.0)
    if kind == "reset":
        return Reply(reset=True)
    raise ValueError(f"unknown fault {fault!r}")

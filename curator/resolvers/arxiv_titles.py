"""Papers by title: which arXiv IDs carry a given title, for entries whose own ID is wrong.

`ArxivTitles` is the arXiv search (one HTTP, retry and spacing policy, the export API's own
feed) behind the cache-first template: a subject is `title:<words>` (the caller's normalised
title); the titles not in the cache are asked in one `search_query` per 20
(`ti:"…" OR ti:"…"`), and each title's answer is the papers whose title the caller's `match`
accepts (curator fix gives `checks.titles.titles_match`: a resolver judges nothing itself).
An outage or a refused query leaves the titles unverified and nothing cached, and the later
titles unasked; a query that matches more than MOST papers is asked again one title at a
time, and a title that alone matches that many is unverified (too vague to tell one paper)
while the others go on. A title no paper carries is remembered only as long as a "not
found" (options.ttl_not_found).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from typing import Any

from curator.config.options import Options
from curator.core.meta import plain
from curator.core.outcomes import Counter, Found, NotFound, Outcome, Unverified
from curator.net.cache import Cache, CacheItem
from curator.resolvers.arxiv_search import ArxivSearch, SearchFailed, Session

PREFIX = "title:"
#: Titles per search request, and the longest query sent (arXiv reads a GET's query).
PER_QUERY = 20
MAX_QUERY = 2000
#: A query that matches more papers than this is too vague to tell one paper.
MOST = 500


#: Whether a paper's title (second) is the title asked for (first).
Match = Callable[[str, str], bool]


class ArxivTitles(ArxivSearch):
    """Resolves `title:` subjects to the papers carrying that title (see the module doc)."""

    cache_name = "arxiv-title"

    def __init__(self, options: Options, cache: Cache, counter: Counter, *, match: Match) -> None:
        super().__init__(options, cache, counter)
        self.match = match

    def handles(self, subject: str) -> bool:
        """True for `title:` subjects with words to search for."""
        return subject.startswith(PREFIX) and bool(subject[len(PREFIX) :].strip())

    def admit(self, subjects: list[str]) -> tuple[dict[str, Outcome], list[str]]:
        """Every title with words is asked (no versions or aliases, unlike IDs), unless its
        query alone would pass MAX_QUERY: no paper has such a title, and a query arXiv
        refuses would leave every title after it unasked."""
        out: dict[str, Outcome] = {}
        for subject in subjects:
            if not self.handles(subject):
                out[subject] = Unverified(subject, "no words to search for")
            elif len(query([subject])) > MAX_QUERY:
                out[subject] = Unverified(subject, "too long to be a paper's title; not searched")
        return out, [s for s in subjects if s not in out]

    def finish(self, subjects: list[str], out: dict[str, Outcome]) -> dict[str, Outcome]:
        """The outcomes as asked."""
        return out

    def decode(self, subject: str, item: CacheItem) -> Outcome:
        """A cached answer: the papers found, or none (a "not found")."""
        papers = item.value.get("papers")
        if isinstance(papers, list) and papers:
            return Found(subject, {"papers": papers})
        return NotFound(subject, "no arXiv paper has this title")

    def encode(self, outcome: Outcome) -> dict[str, Any] | None:
        """The papers found (none for a "not found"); never an outage."""
        if isinstance(outcome, Found):
            return {"papers": list(plain(outcome.meta).get("papers", []))}
        return {"papers": []} if isinstance(outcome, NotFound) else None

    def fetch(self, subjects: list[str], stored: Mapping[str, CacheItem]) -> dict[str, Outcome]:
        """Ask arXiv about the titles, up to PER_QUERY in one search, all searches over one
        connection within one service budget (as the resolver's ID batches); after an outage
        or a refusal the rest are unverified, not asked."""
        with self.session() as session:
            return self._titles(session, subjects)

    def _titles(self, session: Session, subjects: list[str]) -> dict[str, Outcome]:
        """The titles asked in batches over `session`."""
        out: dict[str, Outcome] = {}
        failure = ""
        queue = deque(batches(subjects))
        while queue:
            batch = queue.popleft()
            if failure:
                out.update({s: Unverified(s, failure) for s in batch})
                continue
            searched = self.search_in(session, query(batch), size=MOST, most=MOST)
            if isinstance(searched, SearchFailed) and searched.vague and len(batch) > 1:
                # arXiv answered: some title in it is a common phrase. Alone, each costs one
                # query more (at most PER_QUERY), inside the same budget.
                queue.extendleft([s] for s in reversed(batch))
                continue
            if isinstance(searched, SearchFailed):
                out.update({s: Unverified(s, searched.reason) for s in batch})
                if not searched.vague:
                    failure = searched.reason
                    self.notes.append(f"arXiv's title search failed: {failure}")
                continue
            answered = {s: matches(s, searched.papers, self.match) for s in batch}
            self.store(answered)
            out.update(answered)
        return out


def batches(subjects: list[str]) -> list[list[str]]:
    """The titles in groups of at most PER_QUERY whose query stays under MAX_QUERY."""
    out: list[list[str]] = []
    for subject in subjects:
        if out and len(out[-1]) < PER_QUERY and len(query([*out[-1], subject])) <= MAX_QUERY:
            out[-1].append(subject)
        else:
            out.append([subject])
    return out


def query(subjects: list[str]) -> str:
    """`ti:"words" OR ti:"words"`: each title as a phrase of its normalised words."""
    return " OR ".join(f'ti:"{s[len(PREFIX) :]}"' for s in subjects)


def matches(subject: str, papers: tuple[Mapping[str, Any], ...], match: Match) -> Outcome:
    """The papers whose title `match` takes for the subject's, as an outcome."""
    title = subject[len(PREFIX) :]
    found = [
        {"id": str(p.get("id", "")), "title": str(p.get("title", ""))}
        for p in papers
        if p.get("id") and match(title, str(p.get("title", "")))
    ]
    return Found(subject, {"papers": found}) if found else NotFound(subject, "no match")

"""`curator discover`: the window's new arXiv papers, screened, with what was asked.

load the list → choose the window → days the cache has settled, the rest asked of arXiv
(one query per run of days, paged) → skip listed papers → the scope policy, or without one
the list's own relevance (curator/discover/relevant.py) → ranked report.
Each settled day's IDs are remembered in the cache (service `arxiv-discover`) and each
paper's metadata under the arXiv resolver's own key, so `curator check` reuses it too.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from curator.config.options import Options
from curator.core.errors import UsageError
from curator.core.model import Entry, Kind
from curator.core.outcomes import Counter
from curator.core.subjects import arxiv_id_of, arxiv_subject, is_paper
from curator.discover import relevant as rl
from curator.discover import window as win
from curator.net.cache import Cache
from curator.resolvers.arxiv_search import MAX_SLICE, ArxivSearch, SearchFailed
from curator.scope import ScopeRules
from curator.scope import screen as sc
from curator.scope.relevance import MIN_LISTED, Model

#: Cache service of the remembered days: `<query key>:<YYYY-MM-DD>` -> {"ids": [...]}. Named
#: anew (issue 29): days an earlier version remembered from arXiv's empty answer cannot be told
#: from days without papers, so none of them is trusted; their window is asked once again.
DAYS = "arxiv-discover-2"


@dataclass(frozen=True)
class Request:
    """What to discover: the window's ends (None: chosen), the categories, the list's paths."""

    since: date | None = None
    until: date | None = None
    categories: tuple[str, ...] = win.DEFAULT_CATEGORIES
    size: int = MAX_SLICE  # papers per request (arXiv allows at most 2,000)


@dataclass(frozen=True)
class DiscoverReport:
    """The outcome of one run: candidates ranked, skipped papers, drafts and what was asked."""

    window: win.Window
    query: str
    candidates: tuple[sc.Candidate, ...]
    skipped: tuple[sc.Skipped, ...]
    drafts: tuple[Mapping[str, Any], ...]
    requests: int
    asked: tuple[win.Window, ...]
    remembered: int  # days answered from the cache
    failure: str = ""
    notes: tuple[str, ...] = field(default=())

    @property
    def complete(self) -> bool:
        """False when part of the window could not be asked (outage, refusal, offline)."""
        return not self.failure


def gate_words(rules: ScopeRules) -> tuple[str, ...]:
    """The entry gate's plain words (`memory`, `memories`): what the query asks for."""
    return tuple(p.source for p in rules.gate.patterns if p.source.isalnum())


def discover(options: Options, request: Request, now: datetime | None = None) -> DiscoverReport:
    """Run discover for `options.paths` (the list) and `request` (no printing, no exiting).

    With a scope policy, the entry gate's words are asked and the policy screens; without
    one, the list's own words and categories are asked and its relevance screens."""
    from curator.run.pipeline import load
    from curator.run.rules import read_rules_folder

    moment = now or datetime.now(UTC)
    rules = read_rules_folder(options).scope
    entries = load(options.paths).entries
    listed = sc.listed_from(entries)
    cache = Cache(None if options.no_cache else options.resolved_cache_path())
    try:
        if rules is not None:
            asked = replace(request, categories=request.categories or win.DEFAULT_CATEGORIES)
            return _run(options, asked, moment, _Screener(gate_words(rules), rules), listed, cache)
        screener, categories = _relevance(options, entries, cache)
        asked = replace(request, categories=request.categories or categories)
        return _run(options, asked, moment, screener, listed, cache)
    finally:
        cache.close()


@dataclass(frozen=True)
class _Screener:
    """What screens the window: the words asked, and the policy or the list's relevance."""

    words: tuple[str, ...]
    rules: ScopeRules | None = None
    model: Model | None = None
    #: The list's model learned without the given papers (subjects) in its background: a
    #: found paper that an earlier run stored in the cache is never scored against itself.
    without: Callable[[Collection[str]], Model | None] | None = None

    def screen(
        self, papers: Sequence[Mapping[str, Any]], listed: sc.Listed, earlier: Mapping[str, Any]
    ) -> tuple[list[sc.Candidate], list[sc.Skipped]]:
        """The candidates, ranked, and the papers the list already has."""
        if self.rules is not None:
            return sc.screen(papers, listed, self.rules, earlier)
        model = self.model
        if self.without is not None:
            model = self.without({arxiv_subject(str(m["id"])) for m in papers}) or model
        assert model is not None  # a policy or a model, by construction
        return rl.screen(papers, listed, model, earlier)

    def drafts(self, candidates: Sequence[sc.Candidate]) -> tuple[Mapping[str, Any], ...]:
        """Draft screening records: a policy's only (they carry its version and gate)."""
        rules = self.rules
        return tuple(sc.draft(c, rules) for c in candidates) if rules is not None else ()


def _relevance(
    options: Options, entries: Sequence[Entry], cache: Cache
) -> tuple[_Screener, tuple[str, ...]]:
    """The list's relevance model, its words and categories; UsageError when too small."""
    from curator.run.rules import rules_folder
    from curator.scope.relevant import learn

    papers = [e for e in entries if e.kind is Kind.PAPER]
    # The words asked come from the list alone; the cache's papers join the background only
    # to score what the window finds (`without`).
    model = learn(papers, (), cache, from_cache=False)
    if model is None:
        raise UsageError(
            f"no scope rules at {rules_folder(options)}/scope.yaml, and {len(papers)} listed "
            f"papers are too few to learn the list's relevance from (at least {MIN_LISTED})"
        )
    known = cache.get_many("arxiv", [e.subject for e in papers if is_paper(e.subject)])
    categories = rl.categories(item.value for item in known.values())

    def without(scored: Collection[str]) -> Model | None:
        return learn(papers, (), cache, scored)

    screener = _Screener(model.distinctive(), model=model, without=without)
    return screener, categories or win.DEFAULT_CATEGORIES


def _run(
    options: Options,
    request: Request,
    now: datetime,
    screener: _Screener,
    listed: sc.Listed,
    cache: Cache,
) -> DiscoverReport:
    """The body of `discover` once the list, the screener and the cache are ready."""
    words = screener.words
    key = win.query_key(request.categories, words)
    window = win.choose(request.since, request.until, now.date(), _resume(cache, key))
    remembered = _remembered(cache, key, window)
    todo = [d for d in window.days() if d not in remembered]
    got = _Asked({m["id"]: m for day in remembered.values() for m in day})
    if options.offline and todo:
        got.failure = "offline: part of the window is not in the cache"
    counter = Counter()
    if todo and not got.failure:
        _ask(ArxivSearch(options, cache, counter), request, words, win.runs(todo), got)
        _judge_empty(got, now)
        for part, papers, complete in got.answers:
            _remember(cache, key, part, papers, now, complete)
        _rewind(cache, key, got, now)
    candidates, skipped = screener.screen(list(got.papers.values()), listed, got.earlier)
    return DiscoverReport(
        window=window,
        query=win.query(request.categories, words, window),
        candidates=tuple(candidates),
        skipped=tuple(skipped),
        drafts=screener.drafts(candidates),
        requests=counter.get("arxiv"),
        asked=tuple(part for part, _, _ in got.answers),
        remembered=len(remembered),
        failure=got.failure,
        notes=tuple(dict.fromkeys([*got.notes, *cache.warnings])),
    )


@dataclass
class _Asked:
    """What the run knows: papers by ID, what earlier runs saw of them, the answers."""

    papers: dict[str, Mapping[str, Any]]
    earlier: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    answers: list[tuple[win.Window, Sequence[Mapping[str, Any]], bool]] = field(
        default_factory=list
    )
    failure: str = ""
    notes: list[str] = field(default_factory=list)
    empty: list[win.Window] = field(default_factory=list)  # parts arXiv listed nothing for


def _ask(
    searcher: ArxivSearch,
    request: Request,
    words: Sequence[str],
    parts: Sequence[win.Window],
    got: _Asked,
) -> None:
    """One search per run of days, until one fails (the rest is not asked)."""
    for part in parts:
        found = searcher.search(win.query(request.categories, words, part), request.size)
        if isinstance(found, SearchFailed):
            got.failure = found.reason
            return
        if found.incomplete:
            got.notes.append(
                f"arXiv sent {found.incomplete} incomplete records for {part.label}: not "
                "screened, and those days will be asked again"
            )
        if found.empty:
            got.empty.append(part)
        got.earlier.update(_previous(searcher.cache, [m["id"] for m in found.papers]))
        got.answers.append((part, found.papers, not found.incomplete and not found.empty))
        got.papers.update({m["id"]: m for m in found.papers})


def _judge_empty(got: _Asked, now: datetime) -> None:
    """An answer listing nothing is "could not tell", never "nothing there": arXiv sends a
    well-formed empty feed (totalResults 0) as a known transient glitch, and the query
    spans whole days of busy categories. Over a settled day it makes the run incomplete;
    over days arXiv may not have announced yet it is a note. Neither is remembered."""
    settled = [p for p in got.empty if any(win.settled(d, now) for d in p.days())]
    recent = [p for p in got.empty if p not in settled]
    if settled:
        days = ", ".join(p.label for p in settled)
        said = (
            f"arXiv answered no paper at all for {days} (settled days): one empty answer "
            "cannot tell arXiv's known transient glitch (an empty feed) from days without "
            "papers, so these days stay unknown: not remembered, asked again by the next run"
        )
        got.failure = f"{got.failure}; {said}" if got.failure else said
    if recent:
        days = ", ".join(p.label for p in recent)
        got.notes.append(
            f"arXiv answered no paper for {days} (days not settled yet): asked again by the "
            "next run"
        )


def _rewind(cache: Cache, key: str, got: _Asked, now: datetime) -> None:
    """Keep the resume point before the first settled day an answer left unknown (empty, or
    with partial records), so that a run without --since asks it again rather than
    starting after it (an earlier or a later part of a run may have moved the point on)."""
    unknown = [
        d
        for part, _, complete in got.answers
        if not complete
        for d in part.days()
        if win.settled(d, now)
    ]
    resume = _resume(cache, key)
    if unknown and (resume is None or resume > min(unknown)):
        cache.put(DAYS, f"{key}:latest", {"day": (min(unknown) - timedelta(days=1)).isoformat()})


def _resume(cache: Cache, key: str) -> date | None:
    """The day after the last settled day this query remembers, if any."""
    item = cache.get(DAYS, f"{key}:latest")
    try:
        return date.fromisoformat(str(item.value["day"])) + timedelta(days=1) if item else None
    except (KeyError, ValueError):
        return None


def _remembered(cache: Cache, key: str, window: win.Window) -> dict[date, list[Mapping[str, Any]]]:
    """The window's settled days the cache holds completely: their papers' metadata."""
    days = {d: cache.get(DAYS, f"{key}:{d.isoformat()}") for d in window.days()}
    ids = {d: _ids(item.value) for d, item in days.items() if item is not None}
    metas = cache.get_many("arxiv", [arxiv_subject(i) for got in ids.values() for i in got])
    out: dict[date, list[Mapping[str, Any]]] = {}
    for day, got in ids.items():
        items = [metas.get(arxiv_subject(i)) for i in got]
        if all(item is not None and "id" in item.value for item in items):
            out[day] = [item.value for item in items if item is not None]
    return out


def _ids(value: Mapping[str, Any]) -> list[str]:
    """The IDs a remembered day lists (a hand-edited cache may hold anything)."""
    ids = value.get("ids")
    return [str(i) for i in ids] if isinstance(ids, list) else []


def _previous(cache: Cache, ids: Sequence[str]) -> dict[str, Mapping[str, Any]]:
    """Metadata an earlier run (or `curator check`) stored for these papers."""
    items = cache.get_many("arxiv", [arxiv_subject(i) for i in ids])
    return {arxiv_id_of(s): item.value for s, item in items.items() if "id" in item.value}


def _remember(
    cache: Cache,
    key: str,
    part: win.Window,
    papers: Sequence[Mapping[str, Any]],
    now: datetime,
    complete: bool = True,
) -> None:
    """Store the papers' metadata (as the resolver does) and, for a complete answer, each
    settled day's IDs."""
    cache.put_many("arxiv", [(arxiv_subject(m["id"]), dict(m), "") for m in papers])
    if not complete:
        return
    by_day: dict[date, list[str]] = {d: [] for d in part.days()}
    for meta in papers:
        day = str(meta.get("published", ""))
        target = date.fromisoformat(day) if part.holds(day) else part.until
        by_day[target].append(str(meta["id"]))
    rows = [
        (f"{key}:{d.isoformat()}", {"ids": ids}, "")
        for d, ids in by_day.items()
        if win.settled(d, now)
    ]
    cache.put_many(DAYS, rows)
    latest = max((d for d in by_day if win.settled(d, now)), default=None)
    if latest is not None and (_resume(cache, key) or date.min) <= latest:
        cache.put(DAYS, f"{key}:latest", {"day": latest.isoformat()})

"""discover runs against the loopback arXiv: paging, spacing, the empty window, arXiv's
error feed, an outage, offline, a paper revised between runs, and where a run resumes."""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from curator.discover import render
from curator.discover.run import DAYS, Request, discover
from curator.discover.window import SETTLE
from tests.conftest import SAMPLES
from tests.discover.world import LATER, SINCE, UNTIL, World, build_world, small_world, write_list
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer


@pytest.fixture
def world(tmp_path: Path, loopback: LoopbackServer) -> World:
    """The dev-record window and its list."""
    return build_world(tmp_path, loopback)


@pytest.fixture
def small(tmp_path: Path, loopback: LoopbackServer) -> World:
    """An empty list and an arXiv that knows nothing yet."""
    return small_world(tmp_path, loopback)


@pytest.mark.slow
def test_paging_in_slices_with_the_spacing(world: World, loopback: LoopbackServer) -> None:
    """Slices of 50: one request per slice, start advancing by 50, 0.2 s apart at least."""
    options = world.options(arxiv_delay=0.2)
    report = discover(options, Request(SINCE, UNTIL, size=50), LATER)
    matched = len(report.candidates) + len(report.skipped)
    asked = world.arxiv.searches()
    assert matched == len(world.records) and report.complete
    assert len(asked) == report.requests == math.ceil(matched / 50)
    assert [int(r.query["start"][0]) for r in asked] == list(range(0, matched, 50))
    assert {r.query["max_results"][0] for r in asked} == {"50"}
    assert min(world.arxiv.gaps()) >= 0.19


def _one_paper(world: World, day: date = SINCE, paper_id: str = "2609.00001") -> None:
    """arXiv knows one memory paper submitted on `day` (an answer that is not empty)."""
    world.arxiv.papers[paper_id] = Paper(paper_id, "Memory", published=f"{day}T01:00:00Z")


def test_the_empty_window_is_unknown_not_remembered(small: World, loopback: LoopbackServer) -> None:
    """No paper at all over settled days: incomplete, the days named, nothing remembered, and
    the next run asks again (an empty answer is arXiv's glitch as well as an empty window)."""
    first = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert (first.requests, first.candidates, first.skipped, first.complete) == (1, (), (), False)
    assert first.failure.startswith(
        "arXiv answered no paper at all for 2026-09-23..2026-09-29 (settled days)"
    )
    second = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert second.requests == 1 and second.remembered == 0


def test_days_without_a_paper_in_an_answer_are_remembered(
    small: World, loopback: LoopbackServer
) -> None:
    """An answer with papers settles every day of its window, the days without one too."""
    _one_paper(small)
    first = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert first.complete and [c.id for c in first.candidates] == ["2609.00001"]
    second = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert second.requests == 0 and second.remembered == 7


def test_an_empty_feed_is_not_remembered_as_nothing_submitted(
    small: World, loopback: LoopbackServer
) -> None:
    """arXiv's transient glitch (200, a well-formed feed, totalResults 0, no entry) over a
    window that has papers: incomplete, no day kept, the next run finds the paper."""
    _one_paper(small)
    small.arxiv.fail("empty")
    first = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert not first.complete and first.candidates == () and first.requests == 1
    assert "2026-09-23..2026-09-29 (settled days)" in first.failure
    assert "INCOMPLETE: arXiv answered no paper at all" in render.text(first)
    assert json.loads(render.as_json(first))["complete"] is False
    again = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert again.complete and again.remembered == 0
    assert [c.id for c in again.candidates] == ["2609.00001"]


def test_an_empty_feed_does_not_move_the_next_runs_start(
    small: World, loopback: LoopbackServer
) -> None:
    """The days of an empty answer stay the next run's start, even when a later part of the
    same run was answered (the resume point never passes a day still unknown)."""
    _one_paper(small, date(2026, 9, 26), "2609.00004")
    _one_paper(small, date(2026, 9, 28), "2609.00006")
    discover(small.options(), Request(date(2026, 9, 26), date(2026, 9, 26)), LATER)
    small.arxiv.fail("empty")  # 23..25 glitches; 27..29 is answered
    glitch = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert [w.label for w in glitch.asked] == ["2026-09-23..2026-09-25", "2026-09-27..2026-09-29"]
    assert not glitch.complete and "2026-09-23..2026-09-25 (settled days)" in glitch.failure
    nxt = discover(small.options(), Request(), datetime(2026, 10, 7, 9, 0, tzinfo=UTC))
    assert nxt.window.since == SINCE
    assert [w.label for w in nxt.asked] == ["2026-09-23..2026-09-25", "2026-09-30..2026-10-06"]


def test_unsettled_days_answered_empty_are_a_note(small: World, loopback: LoopbackServer) -> None:
    """Days arXiv may not have announced yet: nothing listed is plausible, said as a note,
    and nothing is remembered either way."""
    soon = datetime(2026, 9, 30, 12, 0, tzinfo=UTC)
    report = discover(small.options(), Request(date(2026, 9, 27), UNTIL), soon)
    assert report.complete and report.notes == (
        "arXiv answered no paper for 2026-09-27..2026-09-29 (days not settled yet): asked "
        "again by the next run",
    )


@pytest.mark.slow
def test_an_empty_slice_in_the_middle_is_asked_again(
    small: World, loopback: LoopbackServer
) -> None:
    """A later slice sent empty although arXiv counted more results is the glitch too: asked
    again (the first slices are not all of the window); when it stays empty, the run is
    incomplete and nothing is remembered."""
    for n in range(12):
        _one_paper(small, SINCE, f"2609.000{n:02d}")
    small.arxiv.fail("slow:0", "empty")
    report = discover(small.options(), Request(SINCE, UNTIL, size=5), LATER)
    assert report.complete and len(report.candidates) == 12 and report.requests == 4
    small.arxiv.fail("slow:0", *["empty"] * 5)
    cut = discover(small.options(no_cache=True), Request(SINCE, UNTIL, size=5), LATER)
    assert not cut.complete and cut.candidates == ()
    assert cut.failure == "arXiv unavailable: arXiv sent no result from 5 of the 12 it counted"


def test_an_outage_is_not_remembered(small: World, loopback: LoopbackServer) -> None:
    """Five 503s: arXiv unavailable, every attempt counted, the window asked again later."""
    small.arxiv.papers["2609.00001"] = Paper("2609.00001", "Memory", published=f"{SINCE}T01:00:00Z")
    small.arxiv.fail(*["503:0"] * 5)
    report = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert report.failure.startswith("arXiv unavailable") and report.candidates == ()
    assert report.requests == 5
    again = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert again.complete and [c.id for c in again.candidates] == ["2609.00001"]


def test_offline_without_the_window_in_the_cache(small: World, loopback: LoopbackServer) -> None:
    """--offline never asks: an unknown window is incomplete, a remembered one is answered."""
    _one_paper(small)
    report = discover(small.options(offline=True), Request(SINCE, UNTIL), LATER)
    assert not report.complete and report.requests == 0 and not small.arxiv.requests()
    discover(small.options(), Request(SINCE, UNTIL), LATER)
    cached = discover(small.options(offline=True), Request(SINCE, UNTIL), LATER)
    assert cached.complete and cached.requests == 0


def _revise(double: ArxivDouble, paper_id: str) -> None:
    """arXiv gets a v2 of the paper with another title and abstract."""
    paper = double.papers[paper_id]
    paper.version = 2
    paper.title = "A renamed memory paper"
    paper.abstract = "Version two studies long-term memory of LLM agents across sessions."
    paper.updated = "2026-10-02T10:00:00Z"


def test_a_paper_revised_between_runs(small: World, loopback: LoopbackServer) -> None:
    """Unsettled days are asked again: the revision replaces v1, its draft hash follows."""
    small.arxiv.papers["2609.00007"] = Paper(
        "2609.00007", "Episodic memory for agents", published="2026-09-28T08:00:00Z"
    )
    soon = datetime(2026, 9, 30, 12, 0, tzinfo=UTC)
    first = discover(small.options(), Request(SINCE, UNTIL), soon)
    assert [c.meta["version"] for c in first.candidates] == [1]
    assert first.remembered == 0
    _revise(small.arxiv, "2609.00007")
    later = datetime.combine(UNTIL, datetime.min.time(), UTC) + SETTLE * 3
    second = discover(small.options(), Request(SINCE, UNTIL), later)
    assert second.remembered == 3  # 23-25 settled at the first run; 26-29 asked again
    last = small.arxiv.searches()[-1].query["search_query"][0]
    assert "submittedDate:[202609260000 TO 202609292359]" in last
    assert [w.label for w in second.asked] == ["2026-09-26..2026-09-29"]
    (candidate,) = second.candidates
    assert (candidate.meta["version"], candidate.revised_from) == (2, 1)
    (draft,) = second.drafts
    assert draft["title"] == "A renamed memory paper"
    expected = hashlib.sha256(draft["abstract"].encode("utf-8")).hexdigest()
    assert draft["source_sha256"] == expected and "Version two" in draft["abstract"]
    third = discover(small.options(), Request(SINCE, UNTIL), later)
    assert third.requests == 0 and third.candidates[0].meta["version"] == 2


def test_listed_under_the_title_a_previous_run_saw(small: World, loopback: LoopbackServer) -> None:
    """Listed by its v1 title only, a paper arXiv renamed in v2 is still recognised."""
    small.arxiv.papers["2609.00008"] = Paper(
        "2609.00008", "Episodic memory for agents", published="2026-09-28T08:00:00Z"
    )
    discover(small.options(), Request(SINCE, UNTIL), datetime(2026, 9, 30, tzinfo=UTC))
    write_list(
        small.root,
        [
            {
                "title": "Episodic Memory for Agents",
                "url": "https://example.org/p",
                "date": "2026-09-28",
            }
        ],
    )
    _revise(small.arxiv, "2609.00008")
    report = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert report.candidates == ()
    assert [s.where.split(" at ")[0] for s in report.skipped] == ["listed by title"]


def test_the_next_run_starts_after_the_last_settled_day(
    small: World, loopback: LoopbackServer
) -> None:
    """Without --since, a run continues where the remembered days end."""
    _one_paper(small)
    discover(small.options(), Request(SINCE, UNTIL), LATER)
    nxt = discover(small.options(), Request(), datetime(2026, 10, 7, 9, 0, tzinfo=UTC))
    assert (nxt.window.since, nxt.window.until) == (date(2026, 9, 30), date(2026, 10, 6))
    fresh = discover(
        small.options(no_cache=True), Request(), datetime(2026, 10, 7, 9, 0, tzinfo=UTC)
    )
    assert (fresh.window.since, fresh.window.until) == (date(2026, 9, 30), date(2026, 10, 6))


def test_a_partial_record_is_a_note_and_its_days_are_asked_again(
    small: World, loopback: LoopbackServer
) -> None:
    """A partial entry (no <published>) is said, and its days are not forgotten."""
    small.arxiv.papers["2609.00009"] = Paper(
        "2609.00009", "Memory", published="", updated="2026-09-24T08:00:00Z"
    )
    small.arxiv.papers["2609.00010"] = Paper("2609.00010", "Memory", published=f"{SINCE}T01:00:00Z")
    report = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert [c.id for c in report.candidates] == ["2609.00010"]
    assert report.notes == (
        "arXiv sent 1 incomplete records for 2026-09-23..2026-09-29: not screened, and those "
        "days will be asked again",
    )
    again = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert again.requests == 1 and again.remembered == 0


def test_more_than_arxiv_serves_for_one_query(small: World, loopback: LoopbackServer) -> None:
    """Past 30,000 matches arXiv stops serving: said after the first page, nothing kept."""
    for n in range(30_001):
        pid = f"2609.{n:05d}"
        small.arxiv.papers[pid] = Paper(pid, "Memory", published=f"{SINCE}T01:00:00Z")
    report = discover(small.options(), Request(SINCE, UNTIL, size=10), LATER)
    assert report.requests == 1 and report.candidates == ()
    assert report.failure.startswith("the query matches 30001 papers, more than the 30,000")


def test_a_readme_list(tmp_path: Path, loopback: LoopbackServer) -> None:
    """The list may be an awesome-list document: its papers are skipped the same way."""
    readme = tmp_path / "README.md"
    readme.write_text(
        (SAMPLES / "iaar-awesome-ai-memory.README.excerpt.md").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    world = small_world(tmp_path, loopback)
    world.arxiv.papers["2606.06448"] = Paper(
        "2606.06448", "Memory", version=4, published=f"{SINCE}T01:00:00Z"
    )
    world.arxiv.papers["2609.00011"] = Paper("2609.00011", "Memory", published=f"{SINCE}T02:00:00Z")
    options = world.built.options(paths=(str(readme),))
    report = discover(options, Request(SINCE, UNTIL), LATER)
    assert [c.id for c in report.candidates] == ["2609.00011"]
    assert [s.id for s in report.skipped] == ["2606.06448"]
    assert report.skipped[0].where.startswith(f"listed at {readme.as_posix()}:")


def test_the_spacing_holds_across_runs(small: World, loopback: LoopbackServer) -> None:
    """A run right after another waits out arXiv's spacing before its first request."""
    options = small.options(arxiv_delay=0.3)
    discover(options, Request(SINCE, SINCE), LATER)
    discover(options, Request(UNTIL, UNTIL), LATER)
    assert len(small.arxiv.searches()) == 2 and small.arxiv.gaps()[0] >= 0.29


def test_days_an_earlier_version_remembered_are_asked_again(
    small: World, loopback: LoopbackServer
) -> None:
    """An earlier version stored arXiv's empty answer as days without papers; those rows
    cannot be told from real ones, so the days are asked again (the days' store is named
    anew), and the paper submitted on one of them is found."""
    _one_paper(small)
    first = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert first.complete and [c.id for c in first.candidates] == ["2609.00001"]
    with sqlite3.connect(small.root / "cache.sqlite") as db:
        days = db.execute(
            "SELECT subject, fetched_at FROM entries WHERE service = ? AND subject NOT LIKE "
            "'%:latest'",
            (DAYS,),
        ).fetchall()
        assert days
        db.execute("DELETE FROM entries WHERE service IN (?, 'arxiv')", (DAYS,))
        # What the earlier version kept after the glitch: every day empty, under its name.
        db.executemany(
            "INSERT INTO entries (service, subject, value, fetched_at) "
            "VALUES ('arxiv-discover', ?, '{\"ids\": []}', ?)",
            days,
        )
    again = discover(small.options(), Request(SINCE, UNTIL), LATER)
    assert again.remembered == 0 and again.requests >= 1
    assert [c.id for c in again.candidates] == ["2609.00001"]

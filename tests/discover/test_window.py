"""The pure parts: window choice, settling, runs of days, the query, hostile text."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from curator.core.errors import UsageError
from curator.core.model import Verdict
from curator.discover import render
from curator.discover.run import DiscoverReport
from curator.discover.window import (
    Window,
    choose,
    parse_categories,
    parse_day,
    query,
    query_key,
    runs,
    settled,
)
from curator.scope import Decision
from curator.scope.screen import Candidate, Group, Listed


def test_choose_the_window() -> None:
    """Given ends win; else resume after the last settled day, else a week up to yesterday."""
    today = date(2026, 10, 7)
    assert choose(None, None, today, None) == Window(date(2026, 9, 30), date(2026, 10, 6))
    assert choose(None, None, today, date(2026, 10, 2)).since == date(2026, 10, 2)
    assert choose(date(2026, 1, 1), date(2026, 1, 2), today, None).label == "2026-01-01..2026-01-02"
    with pytest.raises(UsageError):
        choose(date(2026, 10, 8), None, today, None)


def test_settled_after_four_days() -> None:
    """A day is settled four days after it ended."""
    day = date(2026, 9, 25)
    assert not settled(day, datetime(2026, 9, 29, 23, 59, tzinfo=UTC))
    assert settled(day, datetime(2026, 9, 30, 0, 0, tzinfo=UTC))


def test_runs_of_days() -> None:
    """Days to ask become as few queries as possible."""
    days = [date(2026, 9, d) for d in (29, 23, 24, 26, 27)]
    assert [w.label for w in runs(days)] == [
        "2026-09-23..2026-09-24",
        "2026-09-26..2026-09-27",
        "2026-09-29..2026-09-29",
    ]


def test_query_and_key() -> None:
    """Categories OR-ed, the submittedDate range, gate words in title or abstract."""
    text = query(("cs.CL", "cs.AI"), ("memory",), Window(date(2026, 9, 23), date(2026, 9, 29)))
    assert text == (
        "(cat:cs.CL OR cat:cs.AI) AND submittedDate:[202609230000 TO 202609292359] "
        "AND (ti:memory OR abs:memory)"
    )
    assert query_key(("cs.CL", "cs.AI"), ("memory",)) == query_key(("cs.AI", "cs.CL"), ("memory",))
    assert query_key(("cs.CL",), ("memory",)) != query_key(("cs.AI",), ("memory",))


def test_option_values() -> None:
    """Dates and categories are checked with the option named."""
    assert parse_day(" 2026-09-23 ", "--since") == date(2026, 9, 23)
    assert parse_categories("cs.CL, cs.AI,cs.CL") == ("cs.CL", "cs.AI")
    with pytest.raises(UsageError, match="--until"):
        parse_day("yesterday", "--until")
    with pytest.raises(UsageError):
        parse_categories("cs.CL OR all:x")


def test_listed_by_id_or_title() -> None:
    """The list's IDs match any version; titles match folded."""
    listed = Listed({"2609.00001": "data/p.yaml:3"}, {"a title": "README.md:9"})
    assert listed.where("2609.00001", []) == "listed at data/p.yaml:3"
    assert listed.where("2609.00002", ["", "A Title!"]) == "listed by title at README.md:9"
    assert listed.where("2609.00002", ["Another"]) == ""


HOSTILE = "@octocat <img src=x> [x](https://evil.example) `tick` #12 \x1b[31mred\u202e"


def test_hostile_titles_stay_inert() -> None:
    """A title from arXiv cannot ping, link, inject HTML or colour a terminal."""
    decision = Decision(Verdict.INCLUDE, ("gate-memory-word",), (), "abstract", HOSTILE)
    meta = {"id": "2609.00001", "version": 1, "title": HOSTILE, "published": "2026-09-24"}
    candidate = Candidate(meta, decision, Group.INCLUDE)
    window = Window(date(2026, 9, 23), date(2026, 9, 29))
    report = DiscoverReport(window, "q", (candidate,), (), ({},), 1, (window,), 0)
    md = render.markdown(report)
    assert "@octocat" not in md and "<img" not in md and "](https://evil" not in md
    text = render.text(report)
    assert "\x1b" not in text and "\u202e" not in text

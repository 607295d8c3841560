"""The submission window of a discover run: dates, the arXiv query, and which days to ask.

Pure. A window is whole UTC days, both ends included. A day counts as *settled* once it
ended long enough ago for arXiv to have announced everything submitted on it; only settled
days are remembered, so an unsettled one is asked again by the next run.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from curator.core.errors import UsageError

#: The categories asked by default: language, AI, retrieval, learning, multi-agent.
DEFAULT_CATEGORIES = ("cs.CL", "cs.AI", "cs.IR", "cs.LG", "cs.MA")
#: Days a window reaches back when neither --since nor the cache says where to start.
DEFAULT_DAYS = 7
#: arXiv announces a submission up to four days later (a Friday one on Monday evening).
SETTLE = timedelta(days=4)


@dataclass(frozen=True)
class Window:
    """Submission days `since` to `until`, both included (UTC)."""

    since: date
    until: date

    @property
    def label(self) -> str:
        """`2026-09-23..2026-09-29`: the window's name in reports, issues and the cache."""
        return f"{self.since.isoformat()}..{self.until.isoformat()}"

    def days(self) -> list[date]:
        """Every day of the window, in order."""
        count = (self.until - self.since).days + 1
        return [self.since + timedelta(days=i) for i in range(max(0, count))]

    def holds(self, day: str) -> bool:
        """True when an ISO date (or timestamp) falls inside the window."""
        return self.since.isoformat() <= day[:10] <= self.until.isoformat()


def parse_day(text: str, option: str) -> date:
    """A YYYY-MM-DD option value; UsageError naming the option otherwise."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"{option} takes a date as YYYY-MM-DD, not {text!r}") from None


def parse_categories(text: str) -> tuple[str, ...]:
    """`cs.CL,cs.AI` -> the categories; UsageError for an empty or odd name."""
    names = tuple(dict.fromkeys(c.strip() for c in text.split(",") if c.strip()))
    bad = [c for c in names if not c.replace(".", "").replace("-", "").isalnum()]
    if not names or bad:
        raise UsageError(f"--categories takes names like cs.CL,cs.AI, not {text!r}")
    return names


def choose(since: date | None, until: date | None, today: date, resume: date | None) -> Window:
    """The window: given ends, else from the day after the last settled one (or a week
    back) up to yesterday."""
    end = until or today - timedelta(days=1)
    start = since or resume or end - timedelta(days=DEFAULT_DAYS - 1)
    if start > end:
        raise UsageError(f"the window starts ({start}) after it ends ({end})")
    return Window(start, end)


def settled(day: date, now: datetime) -> bool:
    """True once arXiv has announced everything submitted on `day`."""
    end = datetime.combine(day + timedelta(days=1), datetime.min.time(), UTC)
    return now - end >= SETTLE


def runs(days: Iterable[date]) -> list[Window]:
    """Consecutive days grouped into windows (the days still to ask -> the queries)."""
    out: list[Window] = []
    for day in sorted(days):
        if out and out[-1].until + timedelta(days=1) == day:
            out[-1] = Window(out[-1].since, day)
        else:
            out.append(Window(day, day))
    return out


def query(categories: Sequence[str], words: Sequence[str], window: Window) -> str:
    """The `search_query`: any category, submitted in the window, a gate word in title or
    abstract (arXiv stems these words, so the gate still decides)."""
    cats = " OR ".join(f"cat:{c}" for c in categories)
    terms = " OR ".join(f"{field}:{w}" for w in words for field in ("ti", "abs"))
    when = f"submittedDate:[{window.since:%Y%m%d}0000 TO {window.until:%Y%m%d}2359]"
    return f"({cats}) AND {when} AND ({terms})"


def query_key(categories: Sequence[str], words: Sequence[str]) -> str:
    """A short stable name for what is asked (categories and words), for the cache."""
    text = ",".join(sorted(categories)) + "|" + ",".join(sorted(words))
    return hashlib.sha256(text.encode()).hexdigest()[:12]

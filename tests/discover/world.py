"""A list repository and an arXiv window built from the dev screening records.

The window mixes the development records (all but the lock box, curator/lab/splits.py)
that carry the official abstract: maintainer includes
and excludes, papers that fail the entry gate, and papers the list already has (by ID with a
version, by ID under an old title, by title alone). Noise the query must not return is
added: other categories, and days outside the window.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from curator.config.options import Options
from curator.lab.splits import lock_box
from curator.scope.records import Record, load_records
from tests.conftest import ROOT, SCOPE
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer
from tests.doubles.world import World as Built
from tests.doubles.world import catalogue, place

SINCE, UNTIL = date(2026, 9, 23), date(2026, 9, 29)
#: A moment long after the window: every day of it is settled.
LATER = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def dev_records() -> list[Record]:
    """The earliest 260 development records with an official abstract (a window the size of
    one issue body), in file order."""
    records = load_records(SCOPE / "2026-10-03-review.json")
    development = {r.id for r in lock_box(records)[0][:260]}
    return [r for r in records if r.abstract and r.id in development]


def stamp(i: int) -> str:
    """A submission time inside the window for the i-th paper."""
    return f"2026-09-{23 + i % 7:02d}T{i % 24:02d}:{i % 60:02d}:00Z"


@dataclass
class World:
    """The one world builder's tree and arXiv double, and which records are listed and how."""

    built: Built
    records: list[Record]
    listed: dict[str, str] = field(default_factory=dict)  # id -> how it is listed

    @property
    def root(self) -> Path:
        """The list's tree."""
        return self.built.root

    @property
    def arxiv(self) -> ArxivDouble:
        """The arXiv double, started on the test's loopback server."""
        assert self.built.arxiv is not None
        return self.built.arxiv

    def options(self, **cli: object) -> Options:
        """Options for a run on this list against the double."""
        return self.built.options(paths=("data",), **cli)


def write_list(root: Path, papers: list[dict[str, str]]) -> None:
    """rules/scope.yaml (the project's) and data/papers.yaml with `papers`."""
    place(root / "rules" / "scope.yaml", ROOT / "rules" / "scope.yaml")
    place(root / "rules" / "scope-scorer.json", ROOT / "rules" / "scope-scorer.json")
    place(root / "data" / "papers.yaml", catalogue("Papers", "papers", papers))


def small_world(root: Path, server: LoopbackServer) -> World:
    """An empty list and an arXiv that knows nothing yet."""
    write_list(root, [])
    return World(Built.start(server, root, arxiv=True), [])


def build_world(root: Path, server: LoopbackServer) -> World:
    """The window of dev records (every 9th listed, three ways) and the noise around it."""
    records = dev_records()
    world = World(Built.start(server, root, arxiv=True), records)
    double = world.arxiv
    rows: list[dict[str, str]] = []
    for i, record in enumerate(records):
        title = str(record.data["title"])
        cats = ("cs.CL", "cs.AI") if i % 2 else ("cs.LG",)
        double.papers[record.id] = Paper(
            record.id, title, version=1 + i % 3, abstract=str(record.abstract),
            published=stamp(i), categories=cats,
        )  # fmt: skip
        if i % 9 == 0:
            how = ("version", "old title", "title only")[(i // 9) % 3]
            world.listed[record.id] = how
            rows.append(_row(record.id, title, how))
    rows.append({"title": "A venue paper", "url": "https://example.org/p", "date": "2024-01-01"})
    for n in range(5):  # noise: another category, and the day before the window
        double.papers[f"2609.9990{n}"] = Paper(
            f"2609.9990{n}", f"Stellar memory {n}", published=stamp(n), categories=("astro-ph.GA",)
        )
        double.papers[f"2609.9980{n}"] = Paper(
            f"2609.9980{n}", f"Memory early {n}", published="2026-09-22T23:59:00Z"
        )
    write_list(root, rows)
    return world


def _row(paper_id: str, title: str, how: str) -> dict[str, str]:
    """A catalogue row listing the paper the way `how` says."""
    if how == "version":
        return {"title": title, "arxiv": f"{paper_id}v1", "date": "2026-09-25"}
    if how == "old title":
        return {"title": "An earlier title", "arxiv": paper_id, "date": "2026-09-25"}
    # Title only (a venue link), spelled with other case and punctuation.
    return {"title": title.upper() + " .", "url": "https://openreview.net/x", "date": "2026-09-25"}

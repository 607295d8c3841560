"""Issue 12, defect 7 (its duplicate part): N copies of one entry cost linear report size."""

from __future__ import annotations

from datetime import UTC, datetime

from curator.checks.catalog import duplicates
from curator.checks.interface import CheckContext
from curator.model import Entry, Kind, Source
from curator.options import Options

CTX = CheckContext(Options(), datetime(2026, 12, 1, tzinfo=UTC), {})


def copies(n: int) -> list[Entry]:
    return [
        Entry("arxiv:2305.10250", Kind.PAPER, Source("data/papers.yaml", 3 * i + 1), "MemoryBank")
        for i in range(n)
    ]


def test_each_copy_names_the_first_place_and_a_count() -> None:
    found = duplicates(copies(2000), CTX)
    assert len(found) == 2000
    assert max(len(f.evidence) for f in found) < 120
    assert found[5].evidence == "also at data/papers.yaml:1 ('MemoryBank') and 1998 more places"
    assert found[0].evidence == "also at data/papers.yaml:4 ('MemoryBank') and 1998 more places"
    assert sum(len(f.evidence) for f in found) < 2000 * 120


def test_two_copies_name_each_other() -> None:
    first, second = duplicates(copies(2), CTX)
    assert first.evidence == "also at data/papers.yaml:4 ('MemoryBank')"
    assert second.evidence == "also at data/papers.yaml:1 ('MemoryBank')"

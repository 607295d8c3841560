"""docs/performance.md: a new benchmark run rewrites the tables and keeps the hand-written
reading at the end."""

from __future__ import annotations

from pathlib import Path

from tests.benchmarks.report import KEPT, kept
from tests.conftest import ROOT


def test_the_committed_page_has_a_reading_the_benchmark_keeps() -> None:
    reading = kept(ROOT / "docs" / "performance.md")
    assert reading.startswith("\n" + KEPT + "\n## Reading the figures")


def test_kept_is_what_follows_the_marker(tmp_path: Path) -> None:
    page = tmp_path / "performance.md"
    assert kept(page) == ""  # no page yet
    page.write_text("# Performance\n\n| old | table |\n", encoding="utf-8")
    assert kept(page) == ""
    page.write_text(f"# Performance\n\n| old |\n\n{KEPT}\nmine\n", encoding="utf-8")
    assert kept(page) == f"\n{KEPT}\nmine\n"

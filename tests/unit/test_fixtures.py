"""The copies in tests/fixtures/shared match the project's shared/ folder, file for file."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT, SHARED

ORIGINALS = ROOT.parent / "shared"


def copies() -> list[str]:
    return sorted(str(p.relative_to(SHARED)) for p in SHARED.rglob("*") if p.is_file())


def test_the_copies_the_tests_read_are_present() -> None:
    names = copies()
    assert len([n for n in names if n.startswith("api-samples/")]) >= 70
    assert "samples/iaar-awesome-ai-memory.README.excerpt.md" in names
    assert "scope/2026-10-03-review.json" in names


@pytest.mark.skipif(not ORIGINALS.is_dir(), reason="no shared/ folder beside this clone")
def test_every_copy_matches_its_original() -> None:
    differ = [
        name
        for name in copies()
        if not (ORIGINALS / name).is_file()
        or (SHARED / name).read_bytes() != (ORIGINALS / name).read_bytes()
    ]
    assert differ == []

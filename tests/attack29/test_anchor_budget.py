"""Round 4 attack (issue 29): broken links to huge headings exhaust the anchor suggestions.

A suggestion for a broken `#fragment` compares it with every heading's anchor by edit ratio,
whose cost grows with the product of the two lengths. The budget counted anchors only: 100
headings of 15,000 letters, each linked with one letter changed (a 3 MB document), took 45 s
of `curator check` (40 pairs: 12 s). The budget now counts letters too; every broken link is
still reported.
"""

from __future__ import annotations

import json
import random
import subprocess
import time
from pathlib import Path

import pytest

from curator.cli import main

PAIRS, LETTERS = 40, 15_000


def hostile() -> str:
    """Headings of random letters, and a link to each with one letter changed."""
    rng = random.Random(1)
    headings = ["".join(rng.choice("abcdefghij") for _ in range(LETTERS)) for _ in range(PAIRS)]
    lines = ["# List", ""] + [f"## {h}\n" for h in headings]
    half = LETTERS // 2
    lines += [f"- [link](#{h[:half]}x{h[half + 1 :]})\n" for h in headings]
    return "\n".join(lines)


def test_broken_links_to_huge_headings_are_checked_in_bounded_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "README.md").write_text(hostile(), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "report.json"
    started = time.monotonic()
    status = main(["check", "README.md", "--offline", "--no-cache", "--format", "json",
                   "--output", str(out)])  # fmt: skip
    took = time.monotonic() - started
    report = json.loads(out.read_text(encoding="utf-8"))
    missing = [f for f in report["findings"] if f["code"] == "anchor-missing"]
    assert status == 1 and len(missing) == PAIRS
    assert took < 4.0, f"{took:.1f} s"

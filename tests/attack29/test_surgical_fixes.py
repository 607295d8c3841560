"""Round 4 attacks (issue 29) on `curator fix`'s new document fixes: badges and anchors.

A badge's fix replaces the badge's URL, and only it: the same URL quoted in a code span on
the badge's line (a list showing how to draw the badge) is the list's text. An anchor's fix
changes the fragment only, and what a diff shows of a hostile line stays inert.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.sources.document import DocumentSource
from tests.doubles.server import LoopbackServer
from tests.fix.world import PUSHED, make_world, seed

STARS = "https://img.shields.io/github/stars/"
SHOWN = f"`{STARS}evil/x`"
ROW = f"| {SHOWN} [Paper](https://github.com/good/y) | ![stars]({STARS}evil/x) |"
ITEM = f"- ``{STARS}bad/z`` [Tool](https://github.com/good/w) ![stars]({STARS}bad/z)"
LIST = f"# List\n\n| name | code |\n| --- | --- |\n{ROW}\n\n{ITEM}\n"


def test_a_badge_fix_leaves_the_same_url_quoted_in_a_code_span(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = make_world(loopback, tmp_path, monkeypatch, LIST)
    seed(world, DocumentSource().load(world.file).entries)
    for repo in ("good/y", "good/w"):
        world.github.add(repo, license="MIT", pushed_at=PUSHED)
    ran = world.fix()
    assert ran.status in (0, 1), ran.err
    after = world.text().split("\n")
    assert after[4] == f"| {SHOWN} [Paper](https://github.com/good/y) | ![stars]({STARS}good/y) |"
    assert after[6] == (
        f"- ``{STARS}bad/z`` [Tool](https://github.com/good/w) ![stars]({STARS}good/w)"
    )


ANCHORS = (
    "# List\n\n## Introduction here\n\n"
    "- [Intro](#introduction-her): write such links as `[Intro](#introduction-her)`\n"
    "- [\x1b[31mevil\u202e](#introduction-her) \x1b]8;;http://x\x07link\x1b]8;;\x07\n"
)


def test_an_anchor_fix_changes_the_link_and_not_its_quote_in_a_code_span(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = make_world(loopback, tmp_path, monkeypatch, ANCHORS)
    preview = world.fix("--word-diff")
    # What the preview shows of the hostile line is inert: no escape, bell or bidi character.
    assert not any(ch in preview.out + preview.err for ch in "\x1b\x07\u202e")
    assert "{+#introduction-here+}" in preview.out
    ran = world.fix()
    assert ran.status in (0, 1), ran.err
    lines = world.text().split("\n")
    assert lines[4] == (
        "- [Intro](#introduction-here): write such links as `[Intro](#introduction-her)`"
    )
    assert lines[5].startswith("- [\x1b[31mevil\u202e](#introduction-here) ")

"""Issue 33 end to end: a real list (Xiaomingx's) in its own tree with a broken TOC anchor,
a missing image, a badge of another repository, a moved repository with its badge, and an
overlong row holding an archived repository. `curator check` reports each on its line with
no request added for the new checks; `curator fix` mends the anchor and the badges."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.sources.document import DocumentSource
from tests.conftest import SAMPLES
from tests.doubles.server import LoopbackServer
from tests.fix.world import PUSHED, make_world, seed

SAMPLE = SAMPLES / "xiaomingx-awesome-ai-memory.README.md"
STARS = "https://img.shields.io/github/stars/"
TOC = "- [聚合记忆层](#1-聚合记忆层-integrated-memory-layer)"
IMAGE = "![cover](assets/cover-missing.png)"


def planted(text: str) -> str:
    """The sample with the five faults of the issue planted."""
    lines = text.split("\n")
    lines[1:1] = [TOC, "", IMAGE, "![logo](assets/logo.png)", ""]
    out = "\n".join(lines)
    mem0 = "[mem0ai/mem0](https://github.com/mem0ai/mem0)"
    out = out.replace(mem0, f"{mem0} ![stars]({STARS}MemMachine/MemMachine)", 1)
    memobase = "[memodb-io/memobase](https://github.com/memodb-io/memobase)"
    out = out.replace(memobase, f"{memobase} ![stars]({STARS}memodb-io/memobase)", 1)
    graphiti = "专注随时间演变的动态关联知识存储。 |"
    return out.replace(graphiti, graphiti + " [old](https://github.com/arch/ived) | x |", 1)


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if needle in line)


def test_planted_faults_are_reported_on_their_lines_and_fixed(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = planted(SAMPLE.read_text(encoding="utf-8"))
    world = make_world(loopback, tmp_path, monkeypatch, text)
    (tmp_path / ".git").mkdir()
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "logo.png").write_bytes(b"png")
    entries = DocumentSource().load(world.file).entries
    seed(world, entries)
    world.github.add("memodb-io/memobase-renamed", license="MIT", pushed_at=PUSHED)
    world.github.add("memodb-io/memobase", renamed_to="memodb-io/memobase-renamed")
    world.github.repos["arch/ived"]["archived"] = True

    report = world.check()
    # Besides the planted faults: the list's own cross-listings (info), nothing else.
    got = {(f["code"], f["source"]["line"]) for f in report["findings"]  # type: ignore[union-attr]
           if f["code"] != "entry-cross-listed"}  # type: ignore[index]  # fmt: skip
    want = {
        ("anchor-missing", line_of(text, TOC)),
        ("file-missing", line_of(text, IMAGE)),
        ("badge-mismatch", line_of(text, "MemMachine")),
        ("repo-moved", line_of(text, "memodb-io/memobase)")),
        ("document-unread", line_of(text, "arch/ived")),
        ("repo-archived", line_of(text, "arch/ived")),
    }
    assert got == want
    unread = next(f for f in report["findings"] if f["code"] == "document-unread")  # type: ignore[union-attr, index]
    assert unread["message"].startswith(  # type: ignore[index]
        "row has 7 cells under a 5-column header: GitHub hides cells 6–7"
    )
    # The new checks ask nothing: one GraphQL query for every repository, no web request.
    assert world.github.count("graphql") == 1
    assert world.github.count("rest") == 0

    ran = world.fix()
    assert ran.status in (0, 1), ran.err
    after = world.text()
    assert "- [聚合记忆层](#%EF%B8%8F-1-聚合记忆层-integrated-memory-layers)" in after
    assert f"![stars]({STARS}mem0ai/mem0)" in after
    memobase = "[memodb-io/memobase](https://github.com/memodb-io/memobase-renamed)"
    assert f"{memobase} ![stars]({STARS}memodb-io/memobase-renamed)" in after
    left = {f["code"] for f in world.check()["findings"]}  # type: ignore[index, union-attr]
    assert left == {"file-missing", "document-unread", "repo-archived", "entry-cross-listed"}

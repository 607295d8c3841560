"""In-page anchors, local files and badges of a document (sources/doc_targets, doc_local,
doc_badges, checks/badges), and their fixes: no request is made for any of them."""

from __future__ import annotations

import os
import time
from pathlib import Path
from urllib.parse import unquote

import pytest

from curator.checks.repos import check_repo
from curator.config.context import CheckContext
from curator.core.badges import badge_subject, renamed_badge
from curator.core.model import EntryResult, Finding, Report
from curator.core.outcomes import Found, Moved
from curator.fix.plan import plan_fixes
from curator.sources.doc_badges import mismatches
from curator.sources.doc_local import MAX_COMPARISONS, closest
from curator.sources.doc_parse import parse
from curator.sources.doc_targets import Anchors, slug, slugs, walk
from curator.sources.document import DocumentSource
from tests.conftest import SAMPLES

STARS = "https://img.shields.io/github/stars/"
LIST = (
    """# My List

- [Intro](#intro)
- [Products and Projects](#products-and-projects)
- [Other](other.md#setup)
- [Issues](../../issues)

<a name="kept"></a>
<h2 align="center">HTML Heading</h2>

## Intro

![cover](assets/cover-missing.png)
![logo](assets/logo.png)

## Products & Projects

| Name | Stars |
| --- | --- |
| [lorg](https://github.com/LorgAI/lorg-mcp-server) | ![s]("""
    + STARS
    + """MemMachine/MemMachine) |
| [ok](https://github.com/a/b) | ![s](https://img.shields.io/github/stars/a/b) |
| [old](https://github.com/old/tool) | ![s](https://img.shields.io/github/stars/old/tool) |

See [kept](#kept), [html](#html-heading), [top](#top), [intro again](#Intro), [note](#fn-1),
[back](#user-content-fnref-1), [encoded](#%70roducts--projects).
"""
)


def repo(tmp_path: Path, text: str = LIST) -> Path:
    (tmp_path / ".git").mkdir(exist_ok=True)
    (tmp_path / "assets").mkdir(exist_ok=True)
    (tmp_path / "assets" / "logo.png").write_bytes(b"png")
    (tmp_path / "other.md").write_text("# Other\n\n## Set up\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(text, encoding="utf-8")
    return tmp_path / "README.md"


def findings(path: Path, code: str) -> list[Finding]:
    return [f for f in DocumentSource().load(path).findings if f.code == code]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("Products & Projects", "products--projects"),
        ("What's new? 🚀 (2024)", "whats-new--2024"),
        ("中文 记忆", "中文-记忆"),
        ("snake_case and-hyphen", "snake_case-and-hyphen"),
        ("Ünïcödé Títle", "ünïcödé-títle"),
    ],
)
def test_slugs_follow_github(text: str, want: str) -> None:
    assert slug(text) == want


def test_repeated_headings_are_numbered_and_shortcodes_dropped() -> None:
    assert slugs(["Papers", "Papers", "Papers"]) == ({"papers", "papers-1", "papers-2"}, set())
    assert slugs([":rocket: Tools"]) == ({"-tools"}, {"rocket-tools"})
    # GitHub keeps an emoji's variation selector (a mark); a link without it is accepted.
    assert slugs(["🏗️ Build"]) == ({"\ufe0f-build"}, {"-build"})
    assert slugs(["Contents "]) == ({"contents-"}, {"contents"})  # `<!-- omit in toc -->`


def test_broken_anchor_missing_file_and_other_file_anchor(tmp_path: Path) -> None:
    path = repo(tmp_path)
    anchors = findings(path, "anchor-missing")
    assert [(f.source.line, f.evidence, f.suggestion) for f in anchors] == [
        (4, "#products-and-projects", "#products--projects"),
        (5, "other.md#setup", "#set-up"),
    ]
    files = findings(path, "file-missing")
    # `../../issues` climbs above the tree: GitHub's page of the repository, not a file.
    assert [(f.source.line, f.subject) for f in files] == [(13, "assets/cover-missing.png")]


def test_a_symbolic_link_out_of_the_tree_is_reported_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n", encoding="utf-8")
    inner = tmp_path / "list"
    inner.mkdir()
    path = repo(inner, "# L\n\n![a](assets/logo.png) [s](link/secret.md#secret)\n")
    os.symlink(outside, inner / "link")
    got = findings(path, "file-missing")
    assert [(f.source.line, f.subject) for f in got] == [(3, "link/secret.md")]
    assert "symbolic link out of the repository" in got[0].message
    assert findings(path, "anchor-missing") == []


def test_a_copy_outside_its_repository_has_no_file_findings(tmp_path: Path) -> None:
    # Every local link missing: the document's own tree is not there (a copy, an excerpt).
    text = "# L\n\n![a](assets/missing.png) [b](docs/x.md)\n"
    repo(tmp_path)
    (tmp_path / "copies").mkdir()
    copy = tmp_path / "copies" / "list.md"
    copy.write_text(text, encoding="utf-8")
    loaded = DocumentSource().load(copy)
    assert [f for f in loaded.findings if f.code == "file-missing"] == []
    assert any("2 local link(s) not checked" in n for n in loaded.notes)
    # The same text as the README at the top of the tree: the list's own, every one reported.
    top = repo(tmp_path, text)
    assert [f.source.line for f in findings(top, "file-missing")] == [3, 3]
    alone = tmp_path / "alone"
    alone.mkdir()
    # No work tree at all above a document in /tmp: nothing to compare with.
    assert repo_free_findings(Path("/"), alone) == []


def repo_free_findings(_: Path, folder: Path) -> list[Finding]:
    doc = folder / "x.md"
    doc.write_text("# L\n\n[a](a.md) [b](b.png) [c](#l)\n", encoding="utf-8")
    return [f for f in DocumentSource().load(doc).findings if f.code == "file-missing"]


def test_closest_anchor_only_when_clearly_meant() -> None:
    assert closest("products-and-projects", Anchors({"products--projects", "papers"}, set())) == (
        "products--projects"
    )
    two = Anchors({"memory-1", "memory-2"}, set())
    assert closest("memory", two) == ""  # two as close: no guess
    assert closest("zzz", Anchors({"papers"}, set())) == ""
    assert closest("papers", Anchors({"pa-pers"}, set()), compare=False) == "pa-pers"


def test_badges_name_their_repository() -> None:
    assert badge_subject("https://img.shields.io/github/stars/A/B?style=social") == "github:a/b"
    assert badge_subject("https://api.star-history.com/svg?repos=A/B&type=Date") == "github:a/b"
    assert badge_subject("https://badgen.net/github/last-commit/A/B") == "github:a/b"
    assert badge_subject("https://img.shields.io/github/actions/workflow/status/A/B/x.yml") is None
    assert badge_subject("https://api.star-history.com/svg?repos=a/b,c/d") is None
    assert renamed_badge("https://img.shields.io/github/stars/A/B.svg", "github:a/b", "N/M") == (
        "https://img.shields.io/github/stars/N/M.svg"
    )


def test_badge_mismatch_after_renames(tmp_path: Path) -> None:
    loaded = DocumentSource().load(repo(tmp_path))
    ctx = CheckContext()
    by_line = {e.source.line: e for e in loaded.entries}
    lorg = check_repo(
        by_line[20], {"github:lorgai/lorg-mcp-server": Found("x", {"license": "MIT"})}, ctx
    )
    assert [(f.code, f.source.line, f.suggestion) for f in lorg] == [
        ("badge-mismatch", 20, "https://img.shields.io/github/stars/LorgAI/lorg-mcp-server")
    ]
    assert "badges" not in by_line[21].fields  # the badge names the linked repository
    # A badge already drawing the new name of a moved repository is no mismatch.
    entry = by_line[20]
    moved = Moved(entry.subject, "https://github.com/MemMachine/MemMachine", {"license": "MIT"})
    assert [f.code for f in check_repo(entry, {entry.subject: moved}, ctx)] == ["repo-moved"]


def test_fix_mends_anchor_badge_and_moved_badges(tmp_path: Path) -> None:
    path = repo(tmp_path)
    loaded = DocumentSource().load(path)
    ctx = CheckContext()
    outcomes = {
        "github:lorgai/lorg-mcp-server": Found("x", {"license": "MIT"}),
        "github:a/b": Found("x", {"license": "MIT"}),
        "github:old/tool": Moved(
            "github:old/tool", "https://github.com/New/tool", {"license": "MIT"}
        ),
    }
    found = list(loaded.findings)
    for entry in loaded.entries:
        found += check_repo(entry, outcomes, ctx)
    report = Report(tuple(EntryResult(e) for e in loaded.entries), tuple(found))
    text = path.read_text(encoding="utf-8")
    plan = plan_fixes(report, {loaded.files[0]: text})
    after = plan.files[0].after
    assert "[Products and Projects](#products--projects)" in after
    assert "[Other](other.md#set-up)" in after
    assert "![s](https://img.shields.io/github/stars/LorgAI/lorg-mcp-server)" in after
    assert f"| [old](https://github.com/New/tool) | ![s]({STARS}New/tool) |" in after
    assert {f.code for f in plan.left} == {"file-missing"}
    # Surgical: only those bytes changed.
    assert len(after.splitlines()) == len(text.splitlines())


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.md")))
def test_samples_have_no_broken_anchor(name: str) -> None:
    # Every in-page link of the five real lists resolves (hundreds of them: the slug rules).
    text = (SAMPLES / name).read_text(encoding="utf-8")
    toks, _ = parse(text)
    html = [(t.map[0] + 1 if t.map else 1, t.content) for t in toks if t.type == "html_block"]
    found = walk(toks, html)
    inpage = [t for t in found.targets if t.url.startswith("#")]
    anchors = found.anchors()
    assert [t.url for t in inpage if unquote(t.url[1:]).lower() not in anchors] == []


def test_thousands_of_broken_anchors_cost_a_bounded_time(tmp_path: Path) -> None:
    # Each suggestion compares with every heading: only the first ones within the budget.
    heads = "".join(f"## Heading number {i} about things\n\n" for i in range(2000))
    links = "".join(f"- [x](#heading-nmber-{i}-about-thing)\n" for i in range(2000))
    doc = tmp_path / "many.md"
    doc.write_text("# Many\n\n" + links + "\n" + heads, encoding="utf-8")
    started = time.perf_counter()
    got = findings(doc, "anchor-missing")
    assert time.perf_counter() - started < 15  # unbounded: 4 million comparisons, minutes
    assert len(got) == 2000
    assert sum(bool(f.suggestion) for f in got) <= MAX_COMPARISONS // 2000


def test_hostile_paths_are_findings_or_nothing_never_errors(tmp_path: Path) -> None:
    inner = tmp_path / "list"
    inner.mkdir()
    text = (
        "# L\n\n![a](assets/logo.png)\n[loop](loop/x.png)\n[nul](a%00b.png)\n"
        f"[long]({'a' * 5000}.png)\n[dangling](gone.md)\n[abs](/assets/logo.png)\n"
    )
    path = repo(inner, text)
    os.symlink(inner / "loop", inner / "loop")
    os.symlink(inner / "nowhere", inner / "gone.md")
    got = {(f.source.line, f.subject.split("/")[0][:8]) for f in findings(path, "file-missing")}
    assert got == {(4, "loop"), (6, "a" * 8), (7, "gone.md")}


#: The badges of the five real lists that draw another repository than their link, checked
#: by hand: four in Xnhyacinth's (a typo of the owner or name, or another implementation).
REAL_MISMATCHES = {
    "xnhyacinth-awesome-llm-long-context-modeling.README.md": [
        (349, "github:devoallen/awesome-reasoning-economy-paper"),
        (575, "github:kyegomez/blockwise-parallel-transformer"),
        (938, "github:tgatech-eic/lacache"),
        (3141, "github:longreasonarena/longreasonaren"),
    ]
}


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.md")))
def test_samples_badges_mismatch_only_where_they_really_do(name: str) -> None:
    text = (SAMPLES / name).read_text(encoding="utf-8")
    toks, _ = parse(text)
    html = [(t.map[0] + 1 if t.map else 1, t.content) for t in toks if t.type == "html_block"]
    got = [(line, named) for named, _, line, _ in mismatches(walk(toks, html))]
    assert sorted(got) == REAL_MISMATCHES.get(name, [])


def test_fix_only_some_codes_and_never_an_unclear_anchor(tmp_path: Path) -> None:
    path = repo(tmp_path, "# L\n\n## Memory A\n\n## Memory B\n\n[a](#memory) [b](#memory-a-)\n")
    loaded = DocumentSource().load(path)
    text = path.read_text(encoding="utf-8")
    report = Report(tuple(EntryResult(e) for e in loaded.entries), loaded.findings)
    # `#memory` is as close to both headings: no suggestion, nothing written.
    anchors = [f for f in loaded.findings if f.code == "anchor-missing"]
    assert {f.evidence: f.suggestion for f in anchors} == {"#memory": "", "#memory-a-": "#memory-a"}
    plan = plan_fixes(report, {loaded.files[0]: text})
    assert plan.files[0].after.endswith("[a](#memory) [b](#memory-a)\n")
    assert [(e.old, e.new) for e in plan.files[0].edits] == [("-", "")]  # only what is wrong
    skipped = plan_fixes(report, {loaded.files[0]: text}, only=frozenset({"badge-mismatch"}))
    assert skipped.files == () and sum(f.code == "anchor-missing" for f in skipped.left) == 2

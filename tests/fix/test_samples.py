"""`curator fix` on a copy of each real sample list and of the catalogue, with faults planted
in the loopback doubles: retitled papers, dates off, moved repositories, permanent and
temporary redirects, IDs that name another paper, IDs that do not exist (some whose title
arXiv's search knows), withdrawn papers and archived repositories.

After `fix`, `check` reports none of the safe-fixable findings; the entries under another
paper's ID keep their titles; the file reads as the same number of entries; only the lines of
the fixed entries changed; a second `fix` changes nothing; `--diff` writes nothing; `--unsafe`
applies the ID suggestions.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Set
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from curator.checks.titles import normalize_title, same_paper
from curator.core.model import Entry, Kind, Service
from curator.fix.values import FIXABLE
from curator.sources.document import DocumentSource
from curator.sources.yaml_catalog import CatalogSource
from tests.conftest import ROOT, SAMPLES
from tests.fix.world import World, findings, make_world, published, seed

LISTS = sorted(p.name for p in SAMPLES.glob("*.README*.md"))
DIFFERENT = "A Completely Different Paper About Something Else"


@dataclass
class Planted:
    """The faults planted, by what `fix` must do with them."""

    safe: set[tuple[str, str]] = field(default_factory=set)  # fixed by `fix`
    kept: set[tuple[str, str]] = field(default_factory=set)  # reported, never edited
    unsafe: set[tuple[str, str]] = field(default_factory=set)  # fixed by `fix --unsafe`
    lines: set[int] = field(default_factory=set)  # the lines the safe fixes may touch
    titles: dict[int, str] = field(default_factory=dict)  # line -> a title that must stay


def entries_of(world: World) -> tuple[Entry, ...]:
    """The list's entries as curator reads them."""
    if world.file.is_dir():
        return CatalogSource().load(world.file).entries
    return DocumentSource().load(world.file).entries


def own_lines(entries: tuple[Entry, ...], entry: Entry) -> set[int]:
    """The lines from `entry`'s first to the next entry's (the most a fix of it may touch)."""
    file, line = entry.source.file, entry.source.line
    later = [e.source.line for e in entries if e.source.file == file and e.source.line > line]
    return set(range(line, min(later, default=line + 100)))


def plant_redirects(world: World, rng: random.Random, k: int) -> tuple[set[str], set[str]]:
    """Point 2k single-use web links of the list at loopback redirects: half temporary, a
    quarter permanent to the same page with a slash added (fixed), a quarter permanent to
    another page (reported, never written); the subjects of the two permanent kinds."""
    text = world.text()
    entries = entries_of(world)
    urls = [
        lk.url
        for e in entries
        for lk in e.links
        if lk.service is Service.WEB and text.count(lk.url) == 1 and "#" not in lk.url
    ]
    rng.shuffle(urls)
    permanent: set[str] = set()
    elsewhere: set[str] = set()
    for i, url in enumerate(urls[: 2 * k]):
        moved = world.web.url(f"/r/{i}")
        target = f"/r/{i}/" if i % 4 == 0 else f"/t/{i}"
        world.web.redirect(f"/r/{i}", world.web.url(target), status=301 if i % 2 == 0 else 302)
        world.web.page(target)
        text = text.replace(url, moved)
        if i % 4 == 0:
            permanent.add(moved)
        elif i % 2 == 0:
            elsewhere.add(moved)
    world.file.write_bytes(text.encode("utf-8"))
    return permanent, elsewhere


def plant(world: World, entries: tuple[Entry, ...], rng: random.Random, k: int) -> Planted:
    """k faults of each kind on entries drawn at random (see the module docstring)."""
    out = Planted()
    papers = [
        e
        for e in entries
        if e.kind is Kind.PAPER
        and e.subject.startswith("arxiv:")
        and e.subject[6:] in world.arxiv.papers
        and len(normalize_title(e.title).split()) >= 6
        and not e.short_title
    ]
    listed = Counter(s for e in entries for s in e.subjects())
    papers = [e for e in papers if listed[e.subject] == 1]  # one entry per planted paper
    rng.shuffle(papers)
    taken: set[str] = set()

    def take(pool: list[Entry], n: int) -> list[Entry]:
        chosen = [e for e in pool if e.subject not in taken][:n]
        taken.update(e.subject for e in chosen)
        return chosen

    def fixes(code: str, entry: Entry, subject: str = "") -> None:
        out.safe.add((code, subject or entry.subject))
        out.lines |= own_lines(entries, entry)

    for entry in take([e for e in papers if e.date and len(e.date) >= 7], k):
        base = entry.subject[6:]
        world.arxiv.papers[base].published = published(entry.date, base, 3)
        fixes("arxiv-date-mismatch", entry)
    for i, entry in enumerate(take(papers, k)):
        official = retitled(entry.title, i)
        if not same_paper(entry.title, official):  # a dropped word that was several
            official = f"{entry.title} Revisited"
        assert same_paper(entry.title, official), (entry.title, official)
        world.arxiv.papers[entry.subject[6:]].title = official
        fixes("arxiv-title-mismatch", entry)
    for i, entry in enumerate(take(papers, 2 * k)):
        base, fresh = entry.subject[6:], f"2601.{90000 + len(taken) + i}"
        known = i % 2 == 0  # arXiv's search knows the entry's title under another ID
        if i < k:
            world.arxiv.papers[base].title = DIFFERENT
            code = "arxiv-title-mismatch"
            out.titles[entry.source.line] = entry.title
        else:
            del world.arxiv.papers[base]
            code = "arxiv-not-found"
        if known:
            world.paper(fresh, entry.title, world.arxiv.papers.get(base, _any()).published)
            if entry.date:
                world.arxiv.papers[fresh].published = published(entry.date, base)
            out.unsafe.add((code, entry.subject))
        else:
            out.kept.add((code, entry.subject))
    for entry in take(papers, k):
        world.arxiv.papers[entry.subject[6:]].comment = "This paper has been withdrawn."
        out.kept.add(("arxiv-withdrawn", entry.subject))
    repos = [(e, s) for e in entries for s in e.subjects() if s.startswith("github:")]
    repos = [
        (e, s)
        for e, s in repos
        if listed[s] == 1 and s.removeprefix("github:") in world.github.repos
    ]
    rng.shuffle(repos)
    for i, (entry, subject) in enumerate(repos[: 2 * k]):
        name = world.github.repos[subject.removeprefix("github:")]["full_name"]
        if i < k:
            world.github.repos.pop(name.lower())
            world.github.add(name + "-renamed", license="MIT", pushed_at="2026-01-01T00:00:00Z")
            world.github.add(name, renamed_to=name + "-renamed")
            fixes("repo-moved", entry, subject)
        else:
            world.github.repos[name.lower()]["archived"] = True
            out.kept.add(("repo-archived", subject))
    return out


def _any() -> object:
    """A stand-in paper whose `published` is a date (for a paper deleted from the double)."""

    @dataclass
    class Stub:
        published: str = "2025-06-10T12:00:00Z"

    return Stub()


def retitled(title: str, i: int) -> str:
    """The same paper's title, changed the way papers are retitled: a word added, a word
    dropped, a typo mended."""
    words = title.split()
    if i % 3 == 0:
        return f"{title} Revisited"
    if i % 3 == 1:
        return " ".join(words[:-2] + words[-1:])
    longest = max(range(len(words)), key=lambda j: len(words[j]))
    words[longest] = words[longest][:3] + words[longest][2:]  # one letter doubled
    return " ".join(words)


def changed_lines(before: str, after: str) -> set[int]:
    """The 1-based lines that differ (the fix keeps the number of lines)."""
    old, new = before.split("\n"), after.split("\n")
    assert len(old) == len(new)
    return {i + 1 for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b}


def run_fix_cycle(
    world: World, planted: Planted, permanent: set[str], elsewhere: Set[str] = frozenset()
) -> dict[str, int]:
    """The whole cycle on one list; the counts of what was fixed and left (`elsewhere`: links
    permanently redirected to another page, reported and never written)."""
    text = world.text()
    entries = entries_of(world)
    report = world.check()
    first = findings(report)
    fixable = fixable_lines(report, entries)
    expected = planted.safe | {("link-redirect", url) for url in permanent}
    planted.kept |= {("link-redirect", url) for url in elsewhere}
    assert expected | planted.kept | planted.unsafe <= first
    # --diff writes nothing, and shows every line it would change.
    shown = world.fix("--diff")
    assert shown.status in (0, 1), shown.err
    assert world.text() == text
    # fix: the safe findings are gone; the others stay, with their titles.
    ran = world.fix()
    assert ran.status in (0, 1), ran.err
    after_text = world.text()
    after = findings(world.check())
    assert not (expected & after), expected & after
    assert planted.kept | planted.unsafe <= after
    assert len(entries_of(world)) == len(entries)
    changed = changed_lines(text, after_text)
    assert changed <= fixable, changed
    assert planted.lines <= fixable
    for line, title in planted.titles.items():
        assert title in after_text.split("\n")[line - 1] or title not in text.split("\n")[line - 1]
    assert "Would fix" in shown.err and "Fixed" in ran.out
    # A second run changes nothing.
    again = world.fix()
    assert world.text() == after_text and "Nothing to fix" in again.out
    # --unsafe: the IDs arXiv's title search names replace the wrong ones.
    unsafe = world.fix("--unsafe")
    assert unsafe.status in (0, 1), unsafe.err
    final = findings(world.check())
    assert not (planted.unsafe & final), planted.unsafe & final
    assert planted.kept <= final
    assert len(entries_of(world)) == len(entries)
    return {
        "fixed": len(expected & first - after),
        "left": len(after),
        "unsafe": len(planted.unsafe),
    }


def fixable_lines(report: dict[str, object], entries: tuple[Entry, ...]) -> set[int]:
    """The lines of the entries holding a finding `fix` may answer (the planted ones, and
    what the list itself gets wrong: a paper listed twice with two dates)."""
    found = report["findings"]
    assert isinstance(found, list)
    lines = {f["source"]["line"] for f in found if f["code"] in FIXABLE}
    return {n for e in entries if e.source.line in lines for n in own_lines(entries, e)}


@pytest.mark.slow
@pytest.mark.parametrize("name", LISTS)
def test_fix_on_a_sample_list(
    name: str, loopback: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = make_world(loopback, tmp_path, monkeypatch, SAMPLES / name)  # type: ignore[arg-type]
    rng = random.Random(name)
    permanent, elsewhere = plant_redirects(world, rng, 3)
    entries = entries_of(world)
    seed(world, entries)
    k = max(1, min(4, len(entries) // 40))
    planted = plant(world, entries, rng, k)
    counts = run_fix_cycle(world, planted, permanent, elsewhere)
    assert counts["fixed"] >= 1


@pytest.mark.slow
def test_fix_on_the_catalogue_keeps_its_comments(
    loopback: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = make_world(loopback, tmp_path, monkeypatch, ROOT / "data", name="data")  # type: ignore[arg-type]
    data = world.file
    comments = {p: [ln for ln in p.read_text("utf-8").splitlines() if ln.lstrip().startswith("#")]
                for p in data.rglob("*.yaml")}  # fmt: skip
    entries = entries_of(world)
    seed(world, entries)
    rng = random.Random("catalogue")
    planted = plant(world, entries, rng, 2)
    before = {p: p.read_bytes() for p in data.rglob("*.yaml")}
    first = findings(world.check())
    assert planted.safe | planted.kept <= first
    ran = world.fix()
    assert ran.status in (0, 1), ran.err
    after = findings(world.check())
    assert not (planted.safe & after)
    assert planted.kept | planted.unsafe <= after
    for path, lines in comments.items():
        kept = [ln for ln in path.read_text("utf-8").splitlines() if ln.lstrip().startswith("#")]
        assert kept == lines, path
    touched = [p for p in before if p.read_bytes() != before[p]]
    assert touched
    for path in touched:
        changed = changed_lines(before[path].decode("utf-8"), path.read_text("utf-8"))
        assert len(changed) <= len(planted.safe), (path, changed)
    assert "Nothing to fix" in world.fix().out
    assert world.fix("--unsafe").status in (0, 1)
    final = findings(world.check())
    assert not (planted.unsafe & final) and planted.kept <= final

"""Every sample list, in its own layout, end to end against the loopback doubles with faults
planted in their answers: the faults are found, the rest is not flagged, requests are batched.

The doubles know every arXiv ID and repository the text links (found by plain regexes, not by
curator's reader); each paper's title and date are the ones its line states, so only what is
planted differs. Planted: unknown, withdrawn, retitled and misdated papers (listed in a month
before arXiv's v1 month); missing, archived and renamed repositories.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from curator.config.options import Options
from curator.core.model import Entry, Kind, Report, Service, Severity
from curator.core.normalize import github_subject
from curator.run import pipeline
from curator.sources.document import DocumentSource
from tests.conftest import SAMPLES
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github import GithubDouble
from tests.doubles.server import LoopbackServer

ROOT = Path(__file__).resolve().parents[2]
NOW = datetime(2026, 11, 30, tzinfo=UTC)
TOKEN = "ghp_layouts_token"
LISTS = sorted(p.name for p in SAMPLES.glob("*.README*.md"))
_HIDDEN = re.compile(r"<!--.*?(?:-->|\Z)|<img\b[^>]*>|!\[[^\]]*\]\([^)]*\)", re.DOTALL)
_ARXIV = re.compile(
    r"(?:arxiv\.org/(?:abs|pdf|html)/|doi\.org/10\.48550/arXiv\.|huggingface\.co/papers/)"
    r"(\d{4}\.\d{4,5})",
    re.IGNORECASE,
)
_REPO = re.compile(r"https?://(?:www\.)?github\.com/[A-Za-z0-9-]+/[A-Za-z0-9_.-]+")


def linked(text: str) -> tuple[list[str], list[str]]:
    """arXiv IDs and repositories the text links, as a reader counting by hand would."""
    visible = _HIDDEN.sub("", text)
    ids = sorted({m for m in _ARXIV.findall(visible)})
    repos = sorted({s for s in map(github_subject, _REPO.findall(visible)) if s})
    return ids, repos


def published(entry: Entry | None, base: str, months_later: int = 0) -> str:
    """A v1 date that agrees with the listed date (else with the ID's month), shifted."""
    stated = entry.date if entry is not None and entry.date else f"20{base[:2]}-{base[2:4]}"
    year, month = (
        int(stated[:4]),
        int(stated[5:7] or 1) + months_later * (4 if len(stated) == 4 else 1),
    )
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    day = stated[8:10] if len(stated) >= 10 else "10"
    return f"{year:04d}-{month:02d}-{day}T12:00:00Z"


@dataclass
class Planted:
    """The doubles seeded from one list, and the findings the planted faults must give."""

    options: Options
    arxiv: ArxivDouble
    github: GithubDouble
    ids: list[str]
    repos: list[str]
    expected: set[tuple[str, str]] = field(default_factory=set)


def seed(server: LoopbackServer, path: Path, tmp: Path) -> Planted:
    """Doubles that know every linked paper and repository as the list states them."""
    ids, repos = linked(path.read_text(encoding="utf-8"))
    entries = DocumentSource().load(path).entries
    stated = {e.subject: e for e in entries if e.kind is Kind.PAPER}
    arxiv, github = ArxivDouble(), GithubDouble(server, token=TOKEN)
    for base in ids:
        entry = stated.get(f"arxiv:{base}")
        title = entry.title if entry is not None else f"A Linked Paper {base}"
        arxiv.papers[base] = Paper(base, title, published=published(entry, base))
    for subject in repos:
        name = subject.removeprefix("github:")
        github.add(name, license="MIT", pushed_at="2026-11-01T00:00:00Z")
    options = replace(
        Options(),
        paths=(str(path),),
        root=str(ROOT),
        arxiv_delay=0.0,
        arxiv_api_url=arxiv.install(server),
        github_api_url=github.api_url,
        github_graphql_url=github.graphql_url,
        github_token=TOKEN,
        cache_path=str(tmp / "cache.sqlite"),
        skip=frozenset({Service.WEB, Service.SCOPE}),
    )
    return Planted(options, arxiv, github, ids, repos)


def plant(world: Planted, entries: tuple[Entry, ...], rng: random.Random) -> None:
    """A few faults of each kind, on subjects drawn at random (titles and dates where stated)."""
    papers = {e.subject: e for e in entries if e.kind is Kind.PAPER}
    k = max(1, min(5, len(world.ids) // 20))
    pool = list(world.ids)
    rng.shuffle(pool)
    titled = [b for b in pool if f"arxiv:{b}" in papers and not papers[f"arxiv:{b}"].short_title]
    dated = [b for b in titled if papers[f"arxiv:{b}"].date]
    chosen: set[str] = set()

    def take(candidates: list[str]) -> list[str]:
        picked = [b for b in candidates if b not in chosen][:k]
        chosen.update(picked)
        return picked

    for base in take(dated):
        world.arxiv.papers[base].published = published(papers[f"arxiv:{base}"], base, 3)
        world.expected.add(("arxiv-date-mismatch", f"arxiv:{base}"))
    for base in take(titled):
        world.arxiv.papers[base].title = "A Completely Different Paper About Something Else"
        world.expected.add(("arxiv-title-mismatch", f"arxiv:{base}"))
    for base in take(pool):
        world.arxiv.papers[base].comment = "This paper has been withdrawn by the authors."
        world.expected.add(("arxiv-withdrawn", f"arxiv:{base}"))
    for base in take(pool):
        del world.arxiv.papers[base]
        world.expected.add(("arxiv-not-found", f"arxiv:{base}"))
    repos = list(world.repos)
    rng.shuffle(repos)
    kr = max(1, min(5, len(repos) // 20))
    missing, archived, renamed = repos[:kr], repos[kr : 2 * kr], repos[2 * kr : 3 * kr]
    for subject in missing:
        world.github.repos.pop(subject.removeprefix("github:"))
        world.expected.add(("repo-not-found", subject))
    for subject in archived:
        world.github.repos[subject.removeprefix("github:")]["archived"] = True
        world.expected.add(("repo-archived", subject))
    for subject in renamed:
        name = subject.removeprefix("github:")
        world.github.repos.pop(name)
        world.github.add(name + "-renamed", license="MIT", pushed_at="2026-11-01T00:00:00Z")
        world.github.add(name, renamed_to=name + "-renamed")
        world.expected.add(("repo-moved", subject))


def flagged(report: Report) -> set[tuple[str, str]]:
    """(code, subject) of every error and warning about a planted kind of fault or the like."""
    return {(f.code, f.subject) for f in report.findings if f.severity is not Severity.INFO}


@pytest.mark.slow
@pytest.mark.parametrize("name", LISTS)
def test_planted_faults_are_found_in_every_layout(
    name: str, loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    path = SAMPLES / name
    world = seed(loopback, path, tmp_path)
    loaded = pipeline.load([str(path)])
    plant(world, loaded.entries, random.Random(name))
    report = pipeline.check(world.options, now=lambda: NOW)
    got = flagged(report)
    subjects = {s for e in report.entries for s in e.entry.subjects()}
    # Every linked ID and repository is a subject of the report.
    assert {f"arxiv:{b}" for b in world.ids} <= subjects
    assert set(world.repos) - subjects <= {own(loaded.entries, world.repos)}
    found = world.expected & got
    assert len(found) >= 0.95 * len(world.expected), sorted(world.expected - got)
    # What else is flagged: duplicates the list really has, and nothing more than 1 % else.
    false = {(c, s) for c, s in got - world.expected if c != "entry-duplicate"}
    assert len({s for _, s in false}) <= 0.01 * len(subjects), sorted(false)[:20]
    # Batched: one arXiv request per 100 IDs, one GraphQL query per 100 repositories.
    assert report.requests.arxiv == len(world.arxiv.requests()) <= -(-len(world.ids) // 100)
    graphql = world.github.count("graphql")
    assert report.requests.github_graphql == graphql <= -(-len(world.repos) // 100)


def own(entries: tuple[Entry, ...], repos: list[str]) -> str | None:
    """The list's own repository: linked by the text, held by no entry (it is not a project)."""
    held = {s for e in entries for s in e.subjects()}
    missing = [r for r in repos if r not in held]
    assert len(missing) <= 1, missing
    return missing[0] if missing else None

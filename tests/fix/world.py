"""A list in a temporary tree, with loopback arXiv, GitHub and web doubles that know every
paper, repository and loopback link it holds, and `curator fix` / `check` run on it.

The doubles state each paper as the list does (its title, its date, else its ID's month), so
only planted faults differ. Web links to other hosts are ignored by the tree's own
rules/links.yaml: nothing leaves loopback.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from curator.cli.app import main
from curator.core.model import Entry, Finding, Kind
from curator.core.normalize import github_repo
from curator.fix.model import Edit, FileFix
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github import GithubDouble
from tests.doubles.server import LoopbackServer
from tests.doubles.web import WebDouble
from tests.doubles.world import World as Built

TOKEN = "ghp_fix_token"
PUSHED = (datetime.now(UTC) - timedelta(days=10)).strftime("%Y-%m-%dT%H:%M:%SZ")
#: Only loopback links are checked; every named host is the internet, never reached (RE2
#: has no look-ahead: a host that starts with a letter is not 127.0.0.1).
LINK_RULES = """\
ignore:
  patterns:
    - "^https?://[A-Za-z]"
"""


@dataclass
class Ran:
    """One command's exit status and output."""

    status: int
    out: str
    err: str


@dataclass
class World:
    """The tree, the doubles and the list's file in it."""

    root: Path
    file: Path
    arxiv: ArxivDouble
    github: GithubDouble
    web: WebDouble
    server: LoopbackServer
    planted: dict[str, set[str]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The list's path as curator names it (relative to the tree)."""
        return self.file.relative_to(self.root).as_posix()

    def text(self) -> str:
        """The list's text now."""
        return self.file.read_bytes().decode("utf-8-sig")

    def run(self, *args: str) -> Ran:
        """`curator ARGS` in the tree; its status and output."""
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = main(list(args))
        return Ran(status, out.getvalue(), err.getvalue())

    def fix(self, *args: str) -> Ran:
        """`curator fix LIST ARGS`."""
        return self.run("fix", self.name, *args)

    def check(self) -> dict[str, object]:
        """`curator check LIST --format json`, parsed."""
        ran = self.run("check", self.name, "--format", "json", "--fail-on", "never")
        assert ran.status == 0, ran.err
        report: dict[str, object] = json.loads(ran.out)
        return report

    def paper(self, base: str, title: str, published: str) -> None:
        """A paper the arXiv double knows."""
        self.arxiv.papers[base] = Paper(base, title, published=published)


def make_world(
    server: LoopbackServer, tmp: Path, monkeypatch: pytest.MonkeyPatch, source: Path | str,
    name: str = "README.md",
) -> World:  # fmt: skip
    """A tree holding a copy of `source` (a file, a folder, or the text itself) under
    `name`, doubles to seed, the environment pointing curator at them, the tree as working
    folder: the one world builder's, with every double started."""
    built = Built.start(
        server, tmp, arxiv=True, github=True, web=True, token=TOKEN, cache=".cache.sqlite"
    )
    file = built.write(name, source)
    built.write("rules/links.yaml", LINK_RULES)
    assert built.arxiv is not None and built.github is not None and built.web is not None
    world = World(tmp, file, built.arxiv, built.github, built.web, server)
    built.enter(monkeypatch)
    return world


def seed(world: World, entries: tuple[Entry, ...]) -> None:
    """Every paper the entries link as the list states it, every repository, found."""
    stated = {e.subject: e for e in entries if e.kind is Kind.PAPER}
    linked = {lk.subject: lk.url for e in entries for lk in e.links}
    for subject in sorted(s for s in linked if s.startswith("arxiv:")):
        base = subject.removeprefix("arxiv:")
        entry = stated.get(subject)
        title = entry.title if entry is not None and entry.title else f"A Linked Paper {base}"
        world.paper(base, title, published(entry.date if entry else "", base))
    for subject in sorted(s for s in linked if s.startswith("github:")):
        repo = github_repo(linked[subject])
        name = f"{repo[0]}/{repo[1]}" if repo else subject.removeprefix("github:")
        world.github.add(name, license="MIT", pushed_at=PUSHED)


def published(date: str, base: str, months_later: int = 0) -> str:
    """A v1 timestamp that agrees with the listed date (else the ID's month), shifted."""
    stated = date or f"20{base[:2]}-{base[2:4]}"
    year, month = int(stated[:4]), int(stated[5:7] or 6) + months_later
    year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
    day = stated[8:10] if len(stated) >= 10 else "10"
    return f"{year:04d}-{month:02d}-{day}T12:00:00Z"


def findings(report: dict[str, object]) -> set[tuple[str, str]]:
    """(code, subject) of every finding of a JSON report."""
    found = report["findings"]
    assert isinstance(found, list)
    return {(f["code"], f["subject"]) for f in found}


def long_list(file: str, found: Finding, count: int = 60_000) -> tuple[list[str], FileFix]:
    """A list of `count` dated papers and the date fix of every tenth (its month 01 -> 03):
    a pull request that copies a long list with its dates changed."""
    rows = [f"- [Paper {i}](https://arxiv.org/abs/2305.{i:05d}) (2023-01)\n" for i in range(count)]
    starts = [0]
    for row in rows:
        starts.append(starts[-1] + len(row))
    edits = tuple(
        Edit(file, at + len(rows[i]) - 4, at + len(rows[i]) - 2, "01", "03", found)
        for i, at in enumerate(starts[:-1])
        if i % 10 == 0
    )
    return rows, FileFix(file, "".join(rows), edits)

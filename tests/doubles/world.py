"""One world builder for the loopback doubles: the one way tests start doubles and build a
list's tree (a plain folder or a git repository) under a temporary path.

    world = World.start(loopback, tmp_path, arxiv=True, github=True, token=TOKEN)
    world.write("data/papers.yaml", catalogue("Papers", "papers", rows))
    world.enter(monkeypatch)            # environment pointing curator at the doubles; cd
    options = world.options(paths=("data",))

`World.start` installs the doubles a test asks for on one `LoopbackServer`, in an order
where none hides another: arXiv (/api/query), the GitHub resolver double (/repos/, /graphql),
then at most one double that takes every other path (the GitHub issues double, the pulls
double, or the web double). Routes a test registers on the server before `start` (an
interposer that answers first) keep answering first. Domain layers (tests/publish/world.py,
tests/reliability/world.py, tests/discover/world.py, tests/fix/world.py) add their lists and
runners on top; none starts a double or builds a repository another way.

Everything is written under `root` (a tmp path): never into the checkout.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from curator.config.options import Options, build
from tests.doubles.arxiv import ArxivDouble
from tests.doubles.github import GithubDouble
from tests.doubles.github_issues import FakeGitHub
from tests.doubles.github_pulls import FakeGitHubPulls
from tests.doubles.server import LoopbackServer
from tests.doubles.web import WebDouble

#: The author of every commit a world makes (fixed, so commits are reproducible).
_AUTHOR = ("-c", "user.name=t", "-c", "user.email=t@example.org")


@dataclass
class World:
    """A temporary tree and the doubles started for it on one loopback server.

    A double not asked for is None. `cache` names the SQLite cache file inside `root`
    ("" keeps the test's own)."""

    root: Path
    server: LoopbackServer
    arxiv: ArxivDouble | None = None
    github: GithubDouble | None = None
    issues: FakeGitHub | None = None
    pulls: FakeGitHubPulls | None = None
    web: WebDouble | None = None
    token: str = ""
    cache: str = "cache.sqlite"
    extra_env: dict[str, str] = field(default_factory=dict)

    @classmethod
    def start(
        cls,
        server: LoopbackServer,
        root: Path,
        *,
        arxiv: bool | ArxivDouble = False,
        github: bool = False,
        issues: bool | Mapping[str, Any] = False,
        pulls: bool | Mapping[str, Any] = False,
        web: bool = False,
        token: str = "",
        cache: str = "cache.sqlite",
    ) -> World:
        """The doubles asked for, installed on `server`: an ArxivDouble given is installed
        as it is, papers and all; `issues` (FakeGitHub) and `pulls` (FakeGitHubPulls) may be
        the double's settings, e.g. {"user_forbidden": True} for an Actions token; `token`,
        when set, is the only one the GitHub resolver double accepts."""
        if sum(bool(x) for x in (issues, pulls, web)) > 1:
            raise ValueError("the issues, pulls and web doubles each take every path: one only")
        root.mkdir(parents=True, exist_ok=True)
        world = cls(root, server, token=token, cache=cache)
        if arxiv is not False:
            world.arxiv = arxiv if isinstance(arxiv, ArxivDouble) else ArxivDouble()
            world.arxiv.install(server)
        if github:
            world.github = GithubDouble(server, token=token)
        if issues:
            world.issues = FakeGitHub(server, **_settings(issues))
        if pulls:
            world.pulls = FakeGitHubPulls(server, **_settings(pulls))
        if web:
            world.web = WebDouble(server)
        return world

    # -- where curator looks -------------------------------------------------------------
    @property
    def cache_path(self) -> Path:
        """The SQLite cache of this world."""
        return self.root / self.cache

    def env(self) -> dict[str, str]:
        """The environment that points curator at the started doubles and the cache."""
        # No cache named: the one the test has already (conftest's, in tmp_path) stays.
        env = {"CURATOR_CACHE": str(self.cache_path)} if self.cache else {}
        if self.arxiv is not None:
            env["CURATOR_ARXIV_API_URL"] = self.arxiv_url
            env["CURATOR_ARXIV_DELAY"] = "0"
        if self.github is not None:
            env["GITHUB_API_URL"] = self.github.api_url
            env["GITHUB_GRAPHQL_URL"] = self.github.graphql_url
        for rest in (self.issues, self.pulls):
            if rest is not None:
                env["GITHUB_API_URL"] = rest.api
        if self.web is not None:
            # The web double is on 127.0.0.1, which the SSRF guard refuses by default.
            env["CURATOR_ALLOW_PRIVATE_HOSTS"] = "1"
        if self.token:
            env["GITHUB_TOKEN"] = self.token
        return {**env, **self.extra_env}

    @property
    def arxiv_url(self) -> str:
        """The arXiv double's endpoint (Options.arxiv_api_url)."""
        assert self.arxiv is not None, "no arXiv double started"
        return self.server.url + "/api/query"

    def point(self, monkeypatch: pytest.MonkeyPatch) -> World:
        """Set `env()` for the test."""
        for key, value in self.env().items():
            monkeypatch.setenv(key, value)
        return self

    def enter(self, monkeypatch: pytest.MonkeyPatch) -> World:
        """`point`, no GITHUB_REPOSITORY of the machine's, and work in `root`."""
        monkeypatch.delenv("GITHUB_REPOSITORY", raising=False)
        monkeypatch.chdir(self.root)
        return self.point(monkeypatch)

    def options(self, **values: Any) -> Options:
        """Options as the CLI builds them from `values` (paths relative to `root`) and
        `env()`, in `root`."""
        paths = values.pop("paths", ())
        values["paths"] = tuple(str(self.root / p) for p in paths)
        return build(values, self.env(), self.root)

    # -- the tree ------------------------------------------------------------------------
    def write(self, name: str, source: str | bytes | Path) -> Path:
        """`source` (text, bytes as given, or a copy of a file or folder) at `name`."""
        return place(self.root / name, source)

    def commit(self, files: Mapping[str, str | bytes], message: str) -> str:
        """`files` written and committed in `root` (a git repository from the first commit
        on, on branch main); the commit."""
        if not (self.root / ".git").exists():
            git(self.root, "init", "-q", "-b", "main")
        return commit(self.root, files, message)


def _settings(asked: bool | Mapping[str, Any]) -> dict[str, Any]:
    """A double's settings: none when it is only asked for."""
    return {} if isinstance(asked, bool) else dict(asked)


def place(path: Path, source: str | bytes | Path) -> Path:
    """`source` at `path`: text as UTF-8, bytes as given (line endings untouched), or a
    copy of a file or folder; its parents made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(source, Path) and source.is_dir():
        shutil.copytree(source, path)
    elif isinstance(source, Path):
        shutil.copyfile(source, path)
    else:
        path.write_bytes(source.encode("utf-8") if isinstance(source, str) else source)
    return path


def git(folder: Path, *args: str) -> str:
    """Run git in `folder` (a fixed author); its output."""
    done = subprocess.run(
        ["git", "-C", str(folder), *_AUTHOR, *args], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def commit(folder: Path, files: Mapping[str, str | bytes], message: str) -> str:
    """Write `files` (bytes as given: line endings untouched) and commit them; the commit."""
    for name, text in files.items():
        place(folder / name, text)
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", message)
    return git(folder, "rev-parse", "HEAD")


def catalogue(section: str, key: str, rows: Sequence[Mapping[str, object]]) -> str:
    """A catalogue file's text: `section`, and `rows` under `key` (values as JSON scalars)."""
    head = f"section: {section}\n{key}:" + (" []\n" if not rows else "\n")
    return head + "".join(
        "  - " + "\n    ".join(f"{k}: {json.dumps(v)}" for k, v in row.items()) + "\n"
        for row in rows
    )

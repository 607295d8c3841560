"""A small catalogue and the loopback doubles it is checked against, run through the CLI.

Every reliability case builds one `Stage`: a temporary repository root (catalogue,
pyproject.toml with short budgets), the arXiv and GitHub doubles on one loopback server, and
`run()`, which calls `curator.cli.main` in-process and returns the exit status, the JSON
report, stderr and the elapsed time. `cache_rows()` opens the SQLite cache afterwards.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github import TOKEN, GithubDouble
from tests.doubles.server import LoopbackServer, Reply, Request
from tests.doubles.world import World

P1, P2 = "arxiv:2305.10250", "arxiv:2306.07174"
R1, R2 = "github:zhongwanjun/memorybank-siliconfriend", "github:mem0ai/mem0"
PAPERS = (P1, P2)
REPOS = (R1, R2)

PAPERS_YAML = """\
section: Methods
papers:
  - title: "MemoryBank: Enhancing Large Language Models with Long-Term Memory"
    arxiv: "2305.10250"
    date: "2023-05-17"
    code: https://github.com/zhongwanjun/MemoryBank-SiliconFriend
  - title: "Augmenting Language Models with Long-Term Memory"
    arxiv: "2306.07174"
    date: "2023-06-12"
"""
PROJECTS_YAML = """\
section: Systems
projects:
  - name: Mem0
    repo: https://github.com/mem0ai/mem0
"""
#: Short limits so a failing service gives up in about two seconds.
SETTINGS = {"timeout": 0.4, "service_budget": 1.2, "rate_limit_wait": 3.0, "arxiv_delay": 0.0}
#: Seconds a run may take beyond the service budget (start-up, the last timeout, rendering).
SLACK = 1.5


def pyproject(settings: dict[str, Any]) -> str:
    """A pyproject.toml whose [tool.curator] holds `settings`."""
    lines = ["[tool.curator]"]
    for key, value in settings.items():
        lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


class Interposer:
    """Answers requests to `prefix` with queued replies before the double behind it does.

    Register it before the double; when its queue is empty the request goes on to the
    next matching route. `served` counts the replies it gave.
    """

    def __init__(self, server: LoopbackServer, method: str, prefix: str) -> None:
        self.server = server
        self.method = method
        self.prefix = prefix
        self.replies: list[Reply] = []
        self.served = 0
        self._lock = threading.Lock()
        server.route(method, prefix, self.handle)

    def queue(self, reply: Reply, times: int = 1) -> None:
        """Answer the next `times` requests with copies of `reply`."""
        with self._lock:
            self.replies.extend(replace(reply, headers=dict(reply.headers)) for _ in range(times))

    def handle(self, req: Request) -> Reply:
        """A queued reply, else whatever the next route answers."""
        with self._lock:
            reply = self.replies.pop(0) if self.replies else None
            if reply is not None:
                self.served += 1
        if reply is not None:
            return reply
        for method, prefix, handler in self.server._routes:
            if handler == self.handle:
                continue
            if method in (req.method, "*") and req.path.startswith(prefix):
                return handler(req)
        return Reply(404)


@dataclass
class Run:
    """What one CLI run produced."""

    status: int
    stdout: str
    stderr: str
    elapsed: float
    output: str = ""
    report: dict[str, Any] = field(default_factory=dict)

    def findings(self) -> set[tuple[str, str]]:
        """(code, subject) of every finding of the JSON report."""
        return {(f["code"], f["subject"]) for f in self.report.get("findings", [])}


@dataclass
class Stage:
    """A repository root with the small catalogue, and the doubles it is checked against."""

    root: Path
    server: LoopbackServer
    monkeypatch: pytest.MonkeyPatch
    capsys: pytest.CaptureFixture[str]
    token: str = TOKEN
    settings: dict[str, Any] = field(default_factory=dict)
    arxiv_gate: Interposer | None = None
    graphql_gate: Interposer | None = None
    rest_gate: Interposer | None = None
    arxiv: ArxivDouble = field(default_factory=ArxivDouble)
    github: GithubDouble | None = None

    def build(self) -> Stage:
        """Write the catalogue and config, start the doubles, point curator at them."""
        config = {**SETTINGS, "skip": ["web", "scope"], **self.settings}
        # The gates answer before the doubles: registered first on the server.
        self.arxiv_gate = Interposer(self.server, "GET", "/api/query")
        self.graphql_gate = Interposer(self.server, "POST", "/graphql")
        self.rest_gate = Interposer(self.server, "GET", "/repos/")
        world = World.start(self.server, self.root, arxiv=self.arxiv, github=True, token=self.token)
        world.write("data/papers.yaml", PAPERS_YAML)
        world.write("data/projects.yaml", PROJECTS_YAML)
        world.write("pyproject.toml", pyproject(config))
        self.arxiv.papers["2305.10250"] = Paper(
            "2305.10250",
            "MemoryBank: Enhancing Large Language Models with Long-Term Memory",
            published="2023-05-17T17:59:46Z",
        )
        # A real finding that is only a warning: v1 is months after the entry's date.
        self.arxiv.papers["2306.07174"] = Paper(
            "2306.07174",
            "Augmenting Language Models with Long-Term Memory",
            published="2023-09-01T12:00:00Z",
        )
        self.github = world.github
        assert self.github is not None
        recent = "2026-11-01T00:00:00Z"
        self.github.add("zhongwanjun/MemoryBank-SiliconFriend", license="MIT", pushed_at=recent)
        self.github.add("mem0ai/mem0", license="Apache-2.0", pushed_at=recent, archived=True)
        world.enter(self.monkeypatch)
        return self

    @property
    def cache_path(self) -> Path:
        """The SQLite file of this stage."""
        return self.root / "cache.sqlite"

    def run(self, *args: str, fmt: str = "json", fail_on: str = "error") -> Run:
        """`curator check` with `args` in-process; the report is read back from a file."""
        out = self.root / f"report.{fmt}"
        out.unlink(missing_ok=True)
        argv = ["check", *args, "--format", fmt, "--output", str(out), "--fail-on", fail_on]
        return run_cli(argv, self.capsys, out)

    def cache_rows(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Every (service, subject) row of the cache file, with its stored value."""
        return cache_rows(self.cache_path)


#: What socketserver prints when a client hangs up on a double mid-answer (not curator's).
_DOUBLE_ERROR = re.compile(
    r"-{40}\nException occurred during processing of request.*?\n-{40}\n", re.DOTALL
)


def curator_stderr(text: str) -> str:
    """stderr without the doubles' own complaints about clients that hung up."""
    return _DOUBLE_ERROR.sub("", text)


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str], out: Path | None = None) -> Run:
    """`curator.cli.main(argv)` with stdout/stderr captured and the time taken."""
    capsys.readouterr()
    started = time.monotonic()
    status = main(argv)
    elapsed = time.monotonic() - started
    captured = capsys.readouterr()
    run = Run(status, captured.out, curator_stderr(captured.err), elapsed)
    if out is not None and out.is_file():
        run.output = out.read_text(encoding="utf-8")
        if out.suffix == ".json":
            run.report = json.loads(run.output)
    return run


def cache_rows(path: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """Every (service, subject) row of a cache file, opened read-only."""
    if not path.exists():
        return {}
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT service, subject, value FROM entries").fetchall()
    except sqlite3.OperationalError as exc:
        # Polled while another process creates the file: it exists before its table does.
        if "no such table" not in str(exc):
            raise
        rows = []
    finally:
        db.close()
    return {(service, subject): json.loads(value) for service, subject, value in rows}


def expected_findings(arxiv_ok: bool, repos_ok: dict[str, bool]) -> set[tuple[str, str]]:
    """The findings of the small catalogue when arXiv and each repository could be asked."""
    out: set[tuple[str, str]] = set()
    if arxiv_ok:
        out.add(("arxiv-date-mismatch", P2))
    else:
        out |= {("arxiv-unverified", p) for p in PAPERS}
    for repo, ok in repos_ok.items():
        if not ok:
            out.add(("repo-unverified", repo))
        elif repo == R2:
            out.add(("repo-archived", R2))
    return out

"""The loopback services of the benchmark: the project's arXiv, GitHub and web doubles,
served with a fixed latency and the services' limits, plus the stand-in pages lychee gets.

* every answer is `latency` seconds late (`TimedServer`);
* arXiv: a request that arrives sooner than `spacing` after the previous one is a violation
  and is answered 429 "Rate exceeded." (the body arXiv is seen to send);
* GitHub: the primary limit (`limit` requests, 304s free, as the double counts them) and
  the GraphQL node limit (at most 100 repositories per query) are enforced;
* web sites live on several loopback addresses (127.0.0.2, .3, ...) because real project
  sites are on distinct hosts and curator spaces requests per host;
* lychee's stand-ins: `/abs/<id>` and `/pdf/<id>` on the arXiv server (200 or 404, as
  arxiv.org), `/html/<owner>/<repo>` on the GitHub server (200, 301 to the new name, 404,
  as github.com), and a badge server for img.shields.io (200).

Only loopback addresses are bound or contacted.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.benchmarks.generate import WITHDRAWAL, Catalogue
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github import RATE_LIMITED, GithubDouble, recorded
from tests.doubles.server import LoopbackServer, Reply, Request
from tests.doubles.web import WebDouble

Guard = Callable[[Request], Reply | None]
_ALIASES = re.compile(r"\w+\s*:\s*repository\(")
NODE_LIMIT = 100
HTML = {"Content-Type": "text/html; charset=utf-8"}


class TimedServer(LoopbackServer):
    """A LoopbackServer whose every answer comes `latency` seconds late, after its guards."""

    def __init__(self, host: str = "127.0.0.1", latency: float = 0.0) -> None:
        super().__init__(host)
        self.latency = latency
        self.guards: list[Guard] = []

    def dispatch(self, req: Request) -> Reply:
        """The first guard's refusal, else the routed reply; both delayed by the latency."""
        reply = next((r for g in self.guards if (r := g(req)) is not None), None)
        if reply is None:
            reply = super().dispatch(req)
        reply.delay += self.latency
        return reply

    def since(self, mark: int, prefix: str = "", method: str = "") -> list[Request]:
        """Requests received after the first `mark` ones, filtered like `received`."""
        with self._lock:
            later = self.requests[mark:]
        return [
            r for r in later if r.path.startswith(prefix) and (not method or r.method == method)
        ]


@dataclass
class ArxivSpacing:
    """Refuses (429) and counts requests closer together than `spacing` seconds."""

    spacing: float
    violations: int = 0
    last: float = -1e9
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, req: Request) -> Reply | None:
        if not req.path.startswith("/api/query"):
            return None
        with self._lock:
            gap, self.last = req.at - self.last, req.at
            # 5% slack for timer granularity; arXiv itself states no tolerance.
            if gap >= self.spacing * 0.95:
                return None
            self.violations += 1
        return Reply(429, {"Content-Type": "text/plain"}, b"Rate exceeded.")


@dataclass
class GithubLimits:
    """GitHub's primary limit and GraphQL node limit in front of the GitHub double."""

    double: GithubDouble
    violations: int = 0

    def __call__(self, req: Request) -> Reply | None:
        if req.path.startswith("/graphql") and req.method == "POST":
            return self._graphql(req)
        if req.path.startswith(("/repos/", "/repositories/")) and self.double.remaining <= 0:
            self.violations += 1
            status, headers, body = recorded("rest_ratelimit_403_primary_unauth_2013")
            return Reply(status, headers, body)
        return None

    def _graphql(self, req: Request) -> Reply | None:
        try:
            query = str(json.loads(req.body or b"{}").get("query", ""))
        except ValueError:
            return None
        if self.double.remaining <= 0:
            self.violations += 1
            return Reply.json(RATE_LIMITED)
        if len(_ALIASES.findall(query)) > NODE_LIMIT:
            # The documented node limit; GitHub's exact error body is not recorded.
            self.violations += 1
            message = f"more than {NODE_LIMIT} repositories in one query"
            return Reply.json({"data": None, "errors": [{"type": "MAX_NODE_LIMIT_EXCEEDED",
                                                         "message": message}]})  # fmt: skip
        return None


@dataclass
class Services:
    """Every server of one benchmark size, started and filled from one catalogue."""

    latency: float
    spacing: float
    site_hosts: int
    arxiv: TimedServer = field(init=False)
    github: TimedServer = field(init=False)
    badges: TimedServer = field(init=False)
    sites: list[TimedServer] = field(default_factory=list)
    spacing_guard: ArxivSpacing = field(init=False)
    limits: GithubLimits = field(init=False)
    github_double: GithubDouble = field(init=False)
    arxiv_double: ArxivDouble = field(init=False)

    def start(self) -> None:
        """Bind every server on loopback (sites on 127.0.0.2 ... 127.0.0.<1+site_hosts>)."""
        if not 0 < self.site_hosts <= 200:
            raise ValueError("site_hosts must be 1..200")
        self.arxiv = TimedServer("127.0.0.1", self.latency)
        # Distinct addresses, as arxiv.org, github.com and img.shields.io are distinct hosts
        # (lychee and curator both limit requests per host).
        self.github = TimedServer("127.0.0.250", self.latency)
        self.badges = TimedServer("127.0.0.251", self.latency)
        self.sites = [TimedServer(f"127.0.0.{2 + k}", self.latency) for k in range(self.site_hosts)]
        for server in self.servers():
            server.start()

    def servers(self) -> list[TimedServer]:
        """All servers."""
        return [self.arxiv, self.github, self.badges, *self.sites]

    def stop(self) -> None:
        """Release every port."""
        for server in self.servers():
            server.stop()

    def site_bases(self) -> list[str]:
        """Base URLs the generator spreads websites over."""
        return [s.url for s in self.sites]

    def serve(self, cat: Catalogue, limit: int) -> None:
        """Fill the doubles from the catalogue; GitHub allows `limit` counted requests."""
        self.arxiv_double = ArxivDouble(papers=arxiv_papers(cat))
        self.spacing_guard = ArxivSpacing(self.spacing)
        self.arxiv.guards.append(self.spacing_guard)
        self.arxiv.route("GET", "/api/query", self.arxiv_double.handle)
        self.arxiv_double.server = self.arxiv
        self.arxiv.route("GET", "/abs/", self._abs_page)
        self.arxiv.route("GET", "/pdf/", self._abs_page)
        self.github_double = GithubDouble(self.github, github_repos(cat))
        self.github_double.remaining = limit
        self.limits = GithubLimits(self.github_double)
        self.github.guards.append(self.limits)
        self.github.route("GET", "/html/", self._repo_page)
        self.badges.route("GET", "/", lambda _: Reply(200, {"Content-Type": "image/svg+xml"},
                                                      b"<svg/>"))  # fmt: skip
        self._sites(cat)

    def reset_limit(self, limit: int) -> None:
        """A new hour: the GitHub primary limit starts again at `limit`."""
        self.github_double.remaining = limit

    def _sites(self, cat: Catalogue) -> None:
        doubles = {s.url: WebDouble(s) for s in self.sites}
        for repo in cat.websites():
            base, _, path = repo.website.partition("/site/")
            doubles[base].page("/site/" + path, 404 if repo.site_broken else 200)

    def _abs_page(self, req: Request) -> Reply:
        """arxiv.org/abs|pdf/<id>[vN]: 200 when the paper exists, else 404."""
        raw = req.path.split("/", 2)[2]
        base = re.sub(r"v\d+$", "", raw)
        if base in self.arxiv_double.papers:
            return Reply(200, HTML, f"<html><title>{base}</title></html>".encode())
        return Reply(404, HTML, b"<html>Article identifier not recognized</html>")

    def _repo_page(self, req: Request) -> Reply:
        """github.com/<owner>/<repo>: 200, 301 to the new name, or 404."""
        name = req.path.removeprefix("/html/").strip("/")
        spec = self.github_double.repos.get(name.lower())
        if spec is None:
            return Reply(404, HTML, b"<html>Not Found</html>")
        if spec.get("renamed_to"):
            return Reply(301, {**HTML, "Location": f"/html/{spec['renamed_to']}"}, b"")
        return Reply(200, HTML, f"<html>{spec['full_name']}</html>".encode())

    # -- what was received -------------------------------------------------------------------
    def marks(self) -> dict[str, int]:
        """Request-log positions, to count one run's requests afterwards."""
        return {s.url: len(s.requests) for s in self.servers()}

    def curator_counts(self, marks: dict[str, int]) -> dict[str, int]:
        """Requests received since `marks`, by the JSON report's service names."""
        m = marks
        return {
            "arxiv": len(self.arxiv.since(m[self.arxiv.url], "/api/query")),
            "github_graphql": len(self.github.since(m[self.github.url], "/graphql", "POST")),
            "github_rest": len(self.github.since(m[self.github.url], "/repos/"))
            + len(self.github.since(m[self.github.url], "/repositories/")),
            "web": sum(len(s.since(m[s.url], "/site/")) for s in self.sites),
        }

    def lychee_counts(self, marks: dict[str, int]) -> dict[str, int]:
        """Requests lychee sent since `marks`, by the site it meant to reach."""
        m = marks
        arxiv = self.arxiv.since(m[self.arxiv.url], "/abs/") + self.arxiv.since(
            m[self.arxiv.url], "/pdf/"
        )
        return {
            "arxiv.org": len(arxiv),
            "github.com": len(self.github.since(m[self.github.url], "/html/")),
            "img.shields.io": len(self.badges.since(m[self.badges.url])),
            "web": sum(len(s.since(m[s.url], "/site/")) for s in self.sites),
        }


def arxiv_papers(cat: Catalogue) -> dict[str, Paper]:
    """The arXiv double's papers: every paper on arXiv, and the one a pull request adds."""
    out: dict[str, Paper] = {}
    for spec in (*cat.papers, cat.added):
        if not spec.on_arxiv:
            continue
        withdrawn = spec.fault == "arxiv-withdrawn"
        out[spec.arxiv_id] = Paper(
            id=spec.arxiv_id,
            title=spec.title,
            version=2 if withdrawn or spec.fault == "arxiv-title-mismatch" else 1,
            abstract="We study long-term memory for large language model agents: how an agent "
            "writes, consolidates, retrieves and forgets what it learned across sessions.",
            published=f"{spec.published}T17:59:46Z",
            comment=WITHDRAWAL if withdrawn else "",
        )
    return out


def github_repos(cat: Catalogue, now: datetime | None = None) -> dict[str, dict[str, Any]]:
    """The GitHub double's repositories (renames point to the new name; missing ones absent)."""
    pushed = ((now or datetime.now(UTC)) - timedelta(days=30)).strftime("%Y-%m-%dT%H:%M:%SZ")
    out: dict[str, dict[str, Any]] = {}
    for repo in cat.repos:
        if repo.fault == "repo-not-found":
            continue
        spec: dict[str, Any] = {"stars": 120, "license": "MIT", "pushed_at": pushed}
        if repo.fault == "repo-archived":
            spec["archived"] = True
        if repo.fault == "repo-no-license":
            spec["license"] = None
        if repo.renamed_to:
            out[repo.renamed_to] = spec
            spec = {"renamed_to": repo.renamed_to}
        out[repo.name] = spec
    return out

"""Issue 12, defects 1, 2 and 6: an outage is never a false "broken", and never cached.

No network at all (API endpoints on a closed loopback port, every DNS lookup failing), arXiv
answering empty pages, and web servers dripping their answer a byte at a time.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from curator.config.links import LinkRules
from curator.config.options import Options
from curator.console.progress import ServiceProgress
from curator.core.model import Service
from curator.core.outcomes import Counter, Found, NotFound, Unverified
from curator.net.cache import Cache
from curator.resolvers.arxiv import ArxivResolver
from curator.resolvers.reach import settle
from curator.resolvers.web import WebResolver
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer
from tests.doubles.web import WebDouble
from tests.doubles.world import World
from tests.reliability.conftest import Record
from tests.reliability.world import cache_rows, run_cli

CASES = {
    "no-network-at-all": "attack",
    "arxiv-empty-pages-only": "attack",
    "web-slow-drip-eight-links": "attack",
}

PAPERS = """\
section: Methods
papers:
  - title: "MemoryBank: Enhancing Large Language Models with Long-Term Memory"
    arxiv: "2305.10250"
    date: "2023-05-17"
    code: https://github.com/zhongwanjun/MemoryBank-SiliconFriend
    links:
      - {role: website, url: "https://memorybank.example.org/"}
  - title: "Augmenting Language Models with Long-Term Memory"
    arxiv: "2306.07174"
    date: "2023-06-12"
    links:
      - {role: website, url: "https://longmem.example.net/paper"}
"""
SETTINGS = """\
[tool.curator]
timeout = 0.5
service_budget = 5.0
arxiv_delay = 0.0
skip = ["scope"]
"""


def closed_port() -> int:
    """A loopback port nothing listens on (connections are refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def no_dns(host: Any, *args: Any, **kwargs: Any) -> Any:
    """getaddrinfo on a machine without a resolver: every name is unknown."""
    if host in ("127.0.0.1", b"127.0.0.1"):
        return REAL_GETADDRINFO(host, *args, **kwargs)
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


REAL_GETADDRINFO = socket.getaddrinfo


@pytest.fixture
def offline_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path]]:
    """A repository whose services are all unreachable; yields (root, cache file)."""
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "papers.yaml").write_text(PAPERS, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(SETTINGS, encoding="utf-8")
    dead = f"http://127.0.0.1:{closed_port()}"
    cache = tmp_path / "cache.sqlite"
    for key, value in {
        "CURATOR_ARXIV_API_URL": dead + "/api/query",
        "GITHUB_API_URL": dead,
        "GITHUB_GRAPHQL_URL": dead + "/graphql",
        "CURATOR_CACHE": str(cache),
        "GITHUB_TOKEN": "",
    }.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(socket, "getaddrinfo", no_dns)
    monkeypatch.chdir(tmp_path)
    yield tmp_path, cache


@pytest.mark.slow
def test_no_network_at_all_is_unverified_exit_0_and_caches_nothing(
    offline_world: tuple[Path, Path], capsys: pytest.CaptureFixture[str], record: Record
) -> None:
    root, cache = offline_world
    out = root / "report.json"
    argv = ["check", "data", "--format", "json", "--output", str(out)]
    first = run_cli(argv, capsys, out)
    assert first.status == 0, first.stderr
    assert first.report["summary"]["errors"] == 0
    codes = {f["code"] for f in first.report["findings"]}
    assert "link-broken" not in codes and "link-unverified" in codes
    assert first.elapsed < 15
    notes = " ".join(first.report["notes"])
    assert "network unreachable" in notes
    assert "arxiv could not be asked" in notes and "github could not be asked" in notes
    assert cache_rows(cache) == {}
    # The network comes back: the next run asks again rather than repeating errors.
    second = run_cli(argv, capsys, out)
    assert second.report["requests"]["cache_hits"] == 0
    assert second.status == 0
    unverified = sum(f["code"].endswith("-unverified") for f in first.report["findings"])
    record(
        "no-network-at-all",
        f"exit 0, 0 errors, {unverified} unverified; nothing cached; the next run asks again",
        figures={"cache rows": len(cache_rows(cache))},
        seconds=first.elapsed,
    )


def test_transport_not_found_is_never_cached(tmp_path: Path) -> None:
    def lookup(host: str, port: int) -> list[str]:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    cache = Cache(tmp_path / "c.sqlite")
    url = "https://gone.example.org/"
    resolver = WebResolver(Options(), cache, Counter(), LinkRules(), lookup=lookup)
    outcome = resolver.resolve([url])[url]
    assert isinstance(outcome, NotFound) and outcome.transport
    assert cache.get("web", url) is None


def test_dns_failure_is_broken_only_when_another_host_answered() -> None:
    dead = NotFound("https://a.example/", "DNS: no such host a.example", transport=True)
    also = NotFound("https://b.example/", "DNS: no such host b.example", transport=True)
    outcomes = {dead.subject: dead, also.subject: also}
    assert isinstance(settle(outcomes, []).outcomes[dead.subject], Unverified)
    # arXiv answered, but every web lookup failed: the resolver, not the links, is broken
    assert isinstance(settle(outcomes, ["arxiv"]).outcomes[dead.subject], Unverified)
    assert settle(outcomes, ["web:c.example"]).outcomes[dead.subject] == dead
    assert settle({dead.subject: dead}, ["github"]).outcomes[dead.subject] == dead


def test_progress_marks_a_service_that_could_not_be_asked() -> None:
    counter = Counter()
    state = ServiceProgress({Service.GITHUB: 2, Service.ARXIV: 1, Service.WEB: 10}, counter)
    counter.finished("web", 3)
    state.finish(Service.GITHUB, {"a": Unverified("a", "down"), "b": Unverified("b", "down")})
    state.finish(Service.ARXIV, {"c": Found("c")})
    lines = state.lines()
    assert lines[0].startswith("✗ github") and "2/2" in lines[0]
    assert "could not be asked" in lines[0]
    assert lines[1].startswith("✓ arxiv")
    assert lines[2].startswith("… web") and "3/10 subjects" in lines[2]


# -- defect 2: arXiv's empty page ------------------------------------------------------------
def arxiv_env(server: LoopbackServer, tmp: Path) -> tuple[ArxivDouble, ArxivResolver, Cache]:
    world = World.start(server, tmp, arxiv=True, cache="")
    double, url = world.arxiv, world.arxiv_url
    assert double is not None
    for base in ("2305.10250", "2306.07174", "2307.00001", "2307.00002"):
        double.papers[base] = Paper(base, f"Paper {base}")
    cache = Cache(tmp / "c.sqlite")
    options = replace(Options(), arxiv_api_url=url, arxiv_delay=0.0, service_budget=10.0)
    return double, ArxivResolver(options, cache, Counter()), cache


def test_an_empty_page_is_asked_again_smaller_not_read_as_not_found(
    loopback: LoopbackServer, tmp_path: Path
) -> None:
    double, resolver, cache = arxiv_env(loopback, tmp_path)
    subjects = ["arxiv:2305.10250", "arxiv:2306.07174", "arxiv:2307.00001", "arxiv:2307.99999"]
    # a cached "found" must not be overwritten by an empty page
    cache.put("arxiv", "arxiv:2305.10250", {"id": "2305.10250", "title": "x"})
    cache._db.execute("UPDATE entries SET fetched_at = 0")  # stale: asked again
    cache._db.commit()
    double.fail("empty")
    out = resolver.resolve(subjects)
    assert all(isinstance(out[s], Found) for s in subjects[:3])
    assert isinstance(out["arxiv:2307.99999"], NotFound)  # a non-empty half proves it
    assert double.asked_ids()[1] == ["2305.10250", "2306.07174"]
    stored = cache.get("arxiv", "arxiv:2305.10250")
    assert stored is not None and stored.value.get("outcome") != "not_found"


def test_arxiv_sending_only_empty_pages_is_unverified_and_not_cached(
    loopback: LoopbackServer, tmp_path: Path, record: Record
) -> None:
    double, resolver, cache = arxiv_env(loopback, tmp_path)
    subjects = [f"arxiv:2307.{i:05d}" for i in range(1, 9)]
    double.fail(*["empty"] * 50)
    out = resolver.resolve(subjects)
    assert all(isinstance(out[s], Unverified) for s in subjects)
    assert len(double.requests()) <= 4
    assert all(cache.get("arxiv", s) is None for s in subjects)
    assert any("empty pages" in note for note in resolver.notes)
    record(
        "arxiv-empty-pages-only",
        "8 papers unverified, none not-found, nothing cached",
        faults=len(double.requests()),
    )


def test_a_single_unknown_id_is_not_found_only_beside_a_known_paper(
    loopback: LoopbackServer, tmp_path: Path
) -> None:
    double, resolver, cache = arxiv_env(loopback, tmp_path)
    out = resolver.resolve(["arxiv:2307.99999"])
    assert isinstance(out["arxiv:2307.99999"], NotFound)
    assert double.asked_ids() == [["2307.99999", "1706.03762"]]
    double.papers.clear()  # an answer without the known paper proves nothing
    out = resolver.resolve(["arxiv:2307.99998"])
    assert isinstance(out["arxiv:2307.99998"], Unverified)
    assert cache.get("arxiv", "arxiv:2307.99998") is None


# -- defect 6: slow drip ---------------------------------------------------------------------
class DripServer:
    """Sends a status line, then one header byte every `gap` seconds, forever."""

    def __init__(self, gap: float = 0.1) -> None:
        self.gap = gap
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(32)
        self.port = int(self.sock.getsockname()[1])
        self.stopped = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        try:
            conn.recv(4096)
            conn.sendall(b"HTTP/1.1 200 OK\r\nX-Slow: ")
            while not self.stopped.is_set():
                conn.sendall(b"a")
                time.sleep(self.gap)
        except OSError:
            pass
        finally:
            conn.close()

    def close(self) -> None:
        self.stopped.set()
        self.sock.close()


@pytest.mark.slow
def test_slow_drip_links_cannot_starve_the_others(tmp_path: Path, record: Record) -> None:
    drip = DripServer()
    try:
        with LoopbackServer() as server:
            web = WebDouble(server)
            fine = web.url(web.page("/fine"), host="fine.test")
            slow = [f"http://d{i}.test:{drip.port}/" for i in range(8)]

            def lookup(host: str, port: int) -> list[str]:
                return ["127.0.0.1"]

            options = Options(timeout=0.5, service_budget=6.0, web_host_spacing=0.0)
            rules = LinkRules(allow=("127.0.0.1",))
            resolver = WebResolver(options, Cache(None), Counter(), rules, lookup=lookup)
            started = time.monotonic()
            out = resolver.resolve([*slow, fine])
            elapsed = time.monotonic() - started
    finally:
        drip.close()
    assert isinstance(out[fine], Found)
    assert all(isinstance(out[s], Unverified) and "timeout" in out[s].reason for s in slow)
    assert elapsed < 3.0
    record(
        "web-slow-drip-eight-links",
        "8 dripping links unverified at their deadline; the other link found",
        faults=8,
        seconds=elapsed,
    )


def test_explain_says_when_arxiv_could_not_be_asked(
    offline_world: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = offline_world
    (root / "rules").mkdir()
    scope = Path(__file__).parents[2] / "rules" / "scope.yaml"
    (root / "rules" / "scope.yaml").write_text(scope.read_text(encoding="utf-8"), encoding="utf-8")
    scorer = scope.with_name("scope-scorer.json")  # the rules name their learned scorer
    (root / "rules" / scorer.name).write_bytes(scorer.read_bytes())
    (root / "pyproject.toml").write_text(SETTINGS.replace('skip = ["scope"]', ""), encoding="utf-8")
    run = run_cli(["explain", "2305.10250"], capsys)
    assert run.status == 0
    assert run.stdout.startswith("note: arXiv could not be asked")

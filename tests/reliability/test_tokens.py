"""Token hygiene: GITHUB_TOKEN reaches the configured GitHub API only, and nothing prints it.

A full check with the token set runs against the arXiv, GitHub and web doubles. The token
must be in the Authorization header of GitHub requests and of no other request, and never in
any report format, stderr, the cache file (with its WAL) or a finding's text, even when
GitHub echoes it back in an error body.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.doubles.github import TOKEN
from tests.doubles.server import LoopbackServer, Reply
from tests.doubles.web import WebDouble
from tests.reliability.conftest import Record
from tests.reliability.world import Stage

FORMATS = ("text", "markdown", "json", "sarif", "github")
CASES = {
    "token-sent-only-to-github-api": "token",
    "token-absent-from-reports-stderr-and-cache": "token",
    "token-echoed-by-github-is-scrubbed": "token",
}


@pytest.fixture
def web() -> LoopbackServer:
    """A separate loopback server for web links (allowed by CURATOR_GUARD_ALLOW)."""
    with LoopbackServer() as server:
        yield server


def _stage(
    tmp_path: Path,
    loopback: LoopbackServer,
    web: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Stage:
    site = WebDouble(web)
    site.page("/paper")
    stage = Stage(tmp_path, loopback, monkeypatch, capsys, settings={"skip": ["scope"]}).build()
    monkeypatch.setenv("CURATOR_GUARD_ALLOW", "127.0.0.1")
    link = f'section: Venue\npapers:\n  - title: "A venue paper"\n    url: "{site.url("/paper")}"\n'
    (tmp_path / "data" / "links.yaml").write_text(link + '    date: "2024-01-01"\n', "utf-8")
    return stage


def _texts(stage: Stage) -> dict[str, str]:
    """Every report format, stderr of each run, and the raw bytes of the cache files."""
    out: dict[str, str] = {}
    for fmt in FORMATS:
        run = stage.run(fmt=fmt, fail_on="never")
        assert run.status == 0, run.stderr
        out[fmt] = run.output + run.stdout
        out[f"{fmt} stderr"] = run.stderr
    for path in stage.root.glob("cache.sqlite*"):
        out[path.name] = path.read_bytes().decode("latin-1")
    return out


def test_token_is_sent_only_to_the_github_api(
    tmp_path: Path,
    loopback: LoopbackServer,
    web: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    stage = _stage(tmp_path, loopback, web, monkeypatch, capsys)
    run = stage.run(fail_on="never", fmt="json")
    assert run.report["requests"]["web"] >= 1, run.report
    github = loopback.received("/graphql") + loopback.received("/repos/")
    arxiv = loopback.received("/api/query")
    assert github and arxiv and web.requests
    assert all(r.headers.get("authorization") == f"bearer {TOKEN}" for r in github)
    others = arxiv + web.requests
    assert not [r for r in others if "authorization" in r.headers or TOKEN in str(r.headers)]
    record(
        "token-sent-only-to-github-api",
        f"{len(github)} GitHub requests with the token; {len(others)} arXiv/web requests without",
        figures={"requests without a token": len(others)},
        seconds=run.elapsed,
    )


def test_token_is_absent_from_reports_stderr_and_cache(
    tmp_path: Path,
    loopback: LoopbackServer,
    web: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    stage = _stage(tmp_path, loopback, web, monkeypatch, capsys)
    texts = _texts(stage)
    assert any(name.startswith("cache.sqlite") for name in texts)
    assert "mem0ai" in texts["cache.sqlite"] + texts.get("cache.sqlite-wal", "")
    leaks = [name for name, text in texts.items() if TOKEN in text or TOKEN[4:] in text]
    assert leaks == []
    record(
        "token-absent-from-reports-stderr-and-cache",
        f"token in none of {len(texts)} outputs (5 formats, stderr, cache files)",
        figures={"outputs searched": len(texts)},
    )


def test_token_echoed_by_github_is_scrubbed(
    tmp_path: Path,
    loopback: LoopbackServer,
    web: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    stage = _stage(tmp_path, loopback, web, monkeypatch, capsys)
    assert stage.graphql_gate is not None
    echo = Reply.json({"message": f"Bad credentials: token {TOKEN} is not valid"}, 401)
    stage.graphql_gate.queue(echo, 10)
    texts = _texts(stage)
    assert "repo-unverified" in texts["json"]
    assert "Bad credentials" in texts["json"]
    leaks = [name for name, text in texts.items() if TOKEN in text]
    assert leaks == []
    record(
        "token-echoed-by-github-is-scrubbed",
        "401 body quoting the token: repo-unverified, token shown as ***",
        figures={"outputs searched": len(texts)},
    )

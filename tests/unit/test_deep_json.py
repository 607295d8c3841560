"""Issue 23, hole 7: JSON nested 100,000 deep, from every place curator reads JSON.

A file of the tree is one line naming it and exit 2; a service's answer is unverified for
that answer and never cached; nothing is a RecursionError traceback. (The saved report read
by `curator comment`/`curator report` is held to the same in tests/publish/
test_hostile_report.py.)
"""

from __future__ import annotations

import base64
import shutil
import sqlite3
import zlib
from pathlib import Path

import pytest

from curator.cli import main
from curator.core.outcomes import NotFound, Unverified
from curator.net.cache import Cache
from curator.net.http import github_limit
from curator.publish.api import GitHubAPI, PublishError
from curator.publish.audit import decode_state
from curator.report.render_context import from_env
from curator.resolvers.arxiv_atom import FeedError, parse_feed
from tests.doubles.github import TOKEN, FakeTime, GithubDouble, make, options_for, repos_for
from tests.doubles.github_issues import FakeGitHub
from tests.doubles.server import LoopbackServer, Reply

ROOT = Path(__file__).resolve().parents[2]
LEVELS = 100_000
DEEP = "[" * LEVELS + "]" * LEVELS
MODES = pytest.mark.parametrize("token", [TOKEN, ""], ids=["graphql", "rest"])


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def a_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A list with this repository's rules (scope policy and learned scorer) and one paper."""
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    (tmp_path / "pyproject.toml").write_text("[tool.curator]\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "p.yaml").write_text(
        'section: A\npapers:\n  - {title: "MemGPT", arxiv: "2310.08560", date: "2023-10-12"}\n'
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


CHECK = ["check", "data", "--offline", "--skip", "arxiv,github,web"]


# -- files of the tree: one line naming the file, exit 2 -----------------------------------------
def test_a_deep_scorer_file_is_one_line_naming_it(
    a_list: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (a_list / "rules" / "scope-scorer.json").write_text('{"format": ' + DEEP + "}")
    assert main(CHECK) == 2
    assert "rules/scope-scorer.json: invalid JSON: nested deeper than" in one_line(capsys)


def test_deep_screening_records_are_one_line_naming_the_file(
    a_list: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (a_list / "screening").mkdir()
    (a_list / "screening" / "2026-01-01-review.json").write_text(f'[{{"id": {DEEP}}}]')
    assert main(CHECK) == 2
    assert "screening/2026-01-01-review.json: invalid JSON: nested deeper" in one_line(capsys)


def test_a_deep_pyproject_is_one_line_naming_it(
    a_list: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (a_list / "pyproject.toml").write_text("[tool.curator]\nskip = " + DEEP + "\n")
    assert main(CHECK) == 2
    assert "pyproject.toml: invalid TOML: nested too deeply" in one_line(capsys)


# -- service answers: unverified, never cached ------------------------------------------------
@MODES
def test_a_deep_github_answer_is_unverified_and_not_cached(
    loopback: LoopbackServer, tmp_path: Path, token: str
) -> None:
    names = ["github:org/a", "github:org/b"]
    double = GithubDouble(loopback, repos_for(names))
    double.fail("deep")
    resolver, _, cache = make(options_for(double, token), tmp_path / "c.sqlite", FakeTime())
    out = resolver.resolve(names)
    assert all(isinstance(out[n], Unverified) for n in names), out
    assert all("malformed JSON" in out[n].reason for n in names)
    assert cache.get_many("github", names) == {}


def test_a_deep_404_body_is_still_a_plain_not_found(
    loopback: LoopbackServer, tmp_path: Path
) -> None:
    """404 is GitHub's answer whatever its body says; only the body's message is left out."""
    double = GithubDouble(loopback, {})
    double.fail("deep", status=404)
    resolver, _, _ = make(options_for(double, ""), tmp_path / "c.sqlite", FakeTime())
    outcome = resolver.resolve(["github:org/gone"])["github:org/gone"]
    assert isinstance(outcome, NotFound)
    assert outcome.reason == "GitHub REST answered HTTP 404"


def test_a_deep_rate_limit_body_is_no_limit() -> None:
    body = b'{"errors": [{"type": "RATE_LIMITED"}], "data": ' + DEEP.encode() + b"}"
    assert github_limit(200, {}, body, attempt=1, now=0.0) is None


def test_a_deep_answer_to_publishing_is_a_publish_error(
    loopback: LoopbackServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """PyGithub decodes its answers itself: a deep one is "unreadable", not a traceback."""
    fake = FakeGitHub(loopback)
    deep = Reply(200, {"Content-Type": "application/json"}, DEEP.encode())
    fake.fail_next.append(deep)
    with GitHubAPI(fake.api, "ghp_deep_json_test", sleep=lambda s: None) as api:
        assert api.login() == "curator-bot"  # asked again, as after any unreadable answer
    fake.fail_next.extend([deep] * 8)
    with (
        GitHubAPI(fake.api, "ghp_deep_json_test", sleep=lambda s: None) as api,
        pytest.raises(PublishError, match="GET /user: unreadable answer"),
    ):
        api.login()


def test_a_deep_arxiv_feed_is_a_feed_error_at_most() -> None:
    """expat and ElementTree build deep trees without recursing: no limit needed there."""
    body = b'<feed xmlns="http://www.w3.org/2005/Atom">' + b"<a>" * LEVELS + b"</a>" * LEVELS
    with pytest.raises(FeedError):
        parse_feed(body + b"</feed>")


# -- what curator keeps or is handed by the workflow -----------------------------------------
def test_a_deep_event_payload_leaves_the_head_unknown(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text('{"pull_request": {"head": ' + DEEP + "}}")
    ctx = from_env({"GITHUB_EVENT_PATH": str(event), "GITHUB_SHA": "abc"})
    assert ctx.head_sha == "abc"


def test_a_deep_audit_state_is_no_state() -> None:
    packed = base64.b64encode(zlib.compress(DEEP.encode(), 9)).decode()
    assert decode_state(f"<!-- curator:audit -->\n<!-- curator:state {packed} -->") == {}


def test_a_deep_cache_row_is_a_miss(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    Cache(path).put("github", "github:a/b", {"outcome": "found", "meta": {}})
    with sqlite3.connect(path) as db:
        db.execute("UPDATE entries SET value = ?", ('{"meta": ' + DEEP + "}",))
    assert Cache(path).get("github", "github:a/b") is None

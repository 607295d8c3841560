"""`curator discover` on the command line: formats, drafts, exit statuses, the issue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.cli import main
from curator.scope.records import load_records
from tests.discover.world import World, build_world, write_list
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github_issues import FakeGitHub
from tests.doubles.server import LoopbackServer
from tests.doubles.world import World as Built

WINDOW = ["--since", "2026-09-23", "--until", "2026-09-29"]


@pytest.fixture
def world(tmp_path: Path, loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch) -> World:
    """The dev-record window; the double's URL in the environment; the list as cwd."""
    built = build_world(tmp_path, loopback)
    built.built.enter(monkeypatch)
    return built


@pytest.mark.slow
def test_json_report_and_drafts(world: World, capsys: pytest.CaptureFixture[str]) -> None:
    """--format json to --output, drafts to --drafts as a records file the checks can read."""
    status = main(
        [
            "discover",
            *WINDOW,
            "--format",
            "json",
            "--output",
            "out/r.json",
            "--drafts",
            "d.json",
            "data",
        ]
    )
    assert status == 0 and capsys.readouterr().out == ""
    data = json.loads(Path("out/r.json").read_text(encoding="utf-8"))
    assert data["schema"] == "curator-discover/1" and data["complete"] is True
    assert data["requests"] == {"arxiv": 1}
    groups = [c["group"] for c in data["candidates"]]
    assert groups == sorted(groups, key=["likely include", "to review", "likely exclude"].index)
    drafts = load_records(Path("d.json"))
    assert [r.id for r in drafts] == [c["id"] for c in data["candidates"]]


def test_text_is_the_default(world: World, capsys: pytest.CaptureFixture[str]) -> None:
    """Plain text on stdout: the summary line, then the groups."""
    assert main(["discover", *WINDOW, "data"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("curator discover 2026-09-23..2026-09-29\n")
    assert "likely include (" in out and "already listed" in out


@pytest.mark.parametrize(
    "args",
    [
        ["--since", "23/09/2026"],
        ["--since", "2026-09-29", "--until", "2026-09-23"],
        ["--categories", ","],
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    world: World, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    """A wrong date, an inverted window or no category: one line, exit 2, nothing asked."""
    assert main(["discover", *args, "data"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("curator: error: ") and err.count("\n") == 1
    assert not world.arxiv.requests()


def test_incomplete_exits_1_and_leaves_the_issue_alone(
    tmp_path: Path, loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """arXiv refuses: exit 1, and no issue is opened or edited."""
    double = ArxivDouble(refuse_search="bad query")
    write_list(tmp_path, [])
    Built.start(loopback, tmp_path, arxiv=double).enter(monkeypatch)
    with LoopbackServer() as server:
        github = FakeGitHub(server)
        monkeypatch.setenv("GITHUB_API_URL", github.api)
        monkeypatch.setenv("GITHUB_TOKEN", "ghp_x")
        assert main(["discover", *WINDOW, "--repo", "acme/list", "data"]) == 1
        assert github.issues == {} and not server.received("/repos/acme/list/issues")
    assert "incomplete" in capsys.readouterr().err


def test_an_empty_feed_exits_1_and_leaves_the_issue_alone(
    tmp_path: Path, loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """arXiv's empty 200 feed over a settled window that has a paper: exit 1, the days named
    as unknown, no issue saying "no new papers"; the next run finds the paper."""
    double = ArxivDouble()
    double.papers["2609.00001"] = Paper(
        "2609.00001", "Long-term memory for LLM agents", published="2026-09-24T10:00:00Z"
    )
    double.fail("empty")
    write_list(tmp_path, [])
    Built.start(loopback, tmp_path, arxiv=double).enter(monkeypatch)
    with LoopbackServer() as server:
        github = FakeGitHub(server)
        monkeypatch.setenv("GITHUB_API_URL", github.api)
        monkeypatch.setenv("GITHUB_TOKEN", "ghp_x")
        assert main(["discover", *WINDOW, "--repo", "acme/list", "data"]) == 1
        assert github.issues == {} and not server.received("/repos/acme/list/issues")
        out = capsys.readouterr().out
        assert "INCOMPLETE: arXiv answered no paper at all for 2026-09-23..2026-09-29" in out
        assert main(["discover", *WINDOW, "data"]) == 0
    assert "2609.00001" in capsys.readouterr().out


def test_repo_opens_the_window_issue(
    tmp_path: Path, loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """--repo: the issue is opened and its URL printed and written to GITHUB_OUTPUT."""
    double = ArxivDouble()
    double.papers["2609.00001"] = Paper(
        "2609.00001", "Long-term memory for LLM agents", published="2026-09-24T10:00:00Z"
    )
    write_list(tmp_path, [])
    Built.start(loopback, tmp_path, arxiv=double).enter(monkeypatch)
    monkeypatch.setenv("GITHUB_OUTPUT", str(tmp_path / "out.txt"))
    with LoopbackServer() as server:
        github = FakeGitHub(server)
        monkeypatch.setenv("GITHUB_API_URL", github.api)
        monkeypatch.setenv("GITHUB_TOKEN", "ghp_x")
        assert main(["discover", *WINDOW, "--repo", "acme/list", "data"]) == 0
        (issue,) = github.issues.values()
    assert "new-papers issue opened #1" in capsys.readouterr().out.splitlines()[-1]
    assert "2609.00001" in issue["body"]
    assert "issue-url<<" in (tmp_path / "out.txt").read_text(encoding="utf-8")

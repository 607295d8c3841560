"""`curator audit --fix` on the command line: the branch name is checked before anything is
asked, and a run that planned nothing leaves the fix pull request as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.cli import main
from curator.fix import bridge
from curator.publish.api import GitHubAPI
from curator.publish.fixpr import run_fix_pr
from curator.report.context import RenderContext
from tests.doubles.github_pulls import FakeGitHubPulls
from tests.publish.world import HEAD, REPO, head_fixes, list_repo

OFFLINE = ["--skip", "arxiv,github,web,scope"]


@pytest.fixture
def listed(tmp_path: Path, pulls: FakeGitHubPulls, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The list on main, in the working folder, with the variables Actions sets."""
    folder = tmp_path / "list"
    list_repo(folder, base=HEAD, head=None)
    pulls.load_git(REPO, folder)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("GITHUB_API_URL", pulls.api)
    monkeypatch.setenv("GITHUB_TOKEN", "ghs_actions_token")
    monkeypatch.setenv("GITHUB_REPOSITORY", REPO)
    return folder


@pytest.mark.parametrize("branch", ["../main", "refs/heads/main", "a b", "x.lock", ""])
def test_a_bad_fix_branch_is_refused_before_any_request(
    listed: Path, pulls: FakeGitHubPulls, branch: str, capsys: pytest.CaptureFixture[str]
) -> None:
    command = ["audit", "README.md", *OFFLINE, "--repo", REPO, "--fix", "--fix-branch", branch]
    assert main(command) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "--fix-branch" in err
    assert pulls.server.requests == []  # the default branch itself: see test_fixpr


def test_no_plan_is_not_an_empty_plan(
    listed: Path,
    pulls: FakeGitHubPulls,
    pulls_api: GitHubAPI,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Without a planner the audit runs as before and the open fix pull request stays open
    (closing it means "nothing left to fix", which nobody found out)."""
    opened = run_fix_pr(pulls_api, REPO, [head_fixes()], RenderContext(repository=REPO))
    monkeypatch.setattr(bridge, "PLANNER", "curator.fix.no_such_planner")
    assert main(["audit", "README.md", *OFFLINE, "--repo", REPO, "--fix"]) == 0
    captured = capsys.readouterr()
    assert "fix pull request skipped: no fixes were planned" in captured.err
    assert "audit issue" in captured.out
    (pull,) = [p for p in pulls.pulls_of(REPO) if p["number"] == opened.number]
    assert pull["state"] == "open" and pulls.branch(REPO, "curator/fixes") is not None

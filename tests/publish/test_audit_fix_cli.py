"""`curator audit --fix` on the command line: the branch name is checked before anything is
asked, and an audit that could not ask every service leaves the fix pull request as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.cli import main
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


def test_an_audit_that_could_not_ask_every_service_keeps_the_fix_pull_request(
    listed: Path,
    pulls: FakeGitHubPulls,
    pulls_api: GitHubAPI,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Services skipped (or down): finding no fixes proves nothing, so the open fix pull
    request is kept as it is, not closed as if the list were clean."""
    opened = run_fix_pr(pulls_api, REPO, [head_fixes()], RenderContext(repository=REPO))
    writes = len(pulls.ref_writes)
    assert main(["audit", "README.md", *OFFLINE, "--repo", REPO, "--fix"]) == 0
    out = capsys.readouterr().out
    assert "audit issue" in out and f"fix pull request kept #{opened.number}" in out
    (pull,) = [p for p in pulls.pulls_of(REPO) if p["number"] == opened.number]
    assert pull["state"] == "open" and pulls.branch(REPO, "curator/fixes") is not None
    assert len(pulls.ref_writes) == writes

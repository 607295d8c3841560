"""Issue 20's "done when" for GitHub, as a runner runs the workflows `curator init` writes:
a same-repo pull request gets one review of one-click suggestions, a fork's through the
workflow_run path, and the nightly audit with `fix: true` keeps one fix pull request, closed
once the list is clean; the default branch is never written. Against the loopback arXiv and
pulls doubles; the plan is curator fix's own (curator/fix/run.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from curator.publish.fixpr import MARKER as FIX_MARKER
from curator.publish.review import MARKER as REVIEW_MARKER
from curator.report import markdown
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github_pulls import FakeGitHubPulls
from tests.doubles.server import LoopbackServer
from tests.workflows.test_action_run import FORK, PAPERS, REPO, SHA, git, readme, runner_for

ADDED = "2305.10250"
#: The pull request's paper has its date off by four months: one safe fix.
WRONG_DATE, RIGHT_DATE = "2023-01-17", PAPERS[ADDED][1]


def commit_readme(repo: Path, text: str, message: str) -> str:
    (repo / "README.md").write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def world(tmp_path: Path, loopback: LoopbackServer) -> Iterator[dict[str, Any]]:
    """A README list with curator's workflows on main, and a pull request's head adding a
    paper whose date is wrong; the doubles know both commits."""
    arxiv = ArxivDouble(
        {pid: Paper(pid, title, published=f"{d}T12:00:00Z") for pid, (title, d) in PAPERS.items()}
    )
    arxiv_url = arxiv.install(loopback)
    with LoopbackServer() as server:
        github = FakeGitHubPulls(server, user_forbidden=True)
        repo = tmp_path / "list"
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        titles = {pid: title for pid, (title, _) in PAPERS.items()}
        base_titles = {pid: t for pid, t in titles.items() if pid != ADDED}
        (repo / "README.md").write_text(readme(base_titles), encoding="utf-8")
        assert main(["init", str(repo), "--ref", SHA]) == 0
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "a list with curator's workflows")
        base = git(repo, "rev-parse", "HEAD")
        faulty = readme(titles).replace(f">{RIGHT_DATE}<", f">{WRONG_DATE}<")
        head = commit_readme(repo, faulty, "add MemoryBank")
        github.load_git(REPO, repo)
        runner = runner_for(repo, github, arxiv_url, tmp_path)
        yield {"repo": repo, "base": base, "head": head, "github": github, "runner": runner}


def pull_request(world: dict[str, Any], head_repo: str) -> dict[str, Any]:
    return {
        "action": "synchronize",
        "number": 7,
        "pull_request": {
            "number": 7,
            "state": "open",
            "head": {
                "sha": world["head"],
                "ref": "add-memorybank",
                "repo": {"full_name": head_repo, "fork": head_repo != REPO},
            },
            "base": {"sha": world["base"], "ref": "main", "repo": {"full_name": REPO}},
        },
        "repository": {"full_name": REPO},
    }


def reviews(github: FakeGitHubPulls) -> list[dict[str, Any]]:
    return [r for r in github.reviews_on(REPO, 7) if r["body"].startswith(REVIEW_MARKER)]


def sticky(github: FakeGitHubPulls) -> str:
    (comment,) = [c for c in github.comments_on(REPO, 7) if markdown.MARKER in c["body"]]
    return str(comment["body"])


@pytest.mark.slow
def test_same_repo_pull_request_gets_the_date_as_a_suggestion(world: dict[str, Any]) -> None:
    runner, github = world["runner"], world["github"]
    github.add_pull(REPO, 7, world["head"], base_sha=world["base"])
    for _ in range(2):
        job = runner.run_job("curator-pr.yml", "check", "pull_request", pull_request(world, REPO))
        report = json.loads(Path(job.outputs["report"]).read_text(encoding="utf-8"))
        (fix,) = report["fixes"]
        assert (fix["codes"], fix["file"]) == (["arxiv-date-mismatch"], "README.md")
        assert WRONG_DATE in fix["old"] and fix["new"] == fix["old"].replace(WRONG_DATE, RIGHT_DATE)
    (review,) = reviews(github)  # the second run found the same suggestion: nothing new
    (comment,) = github.comments_of(review)
    assert f"```suggestion\n{fix['new'].rstrip(chr(10))}\n```" in comment["body"]
    assert "**1 one-click suggestion**" in sticky(github)
    assert job.outputs["review-url"] == review["html_url"]


@pytest.mark.slow
def test_fork_pull_request_gets_its_suggestion_from_the_comment_workflow(
    world: dict[str, Any],
) -> None:
    runner, github = world["runner"], world["github"]
    github.add_pull(REPO, 7, world["head"], fork=True, base_sha=world["base"])
    job = runner.run_job("curator-pr.yml", "check", "pull_request", pull_request(world, FORK))
    assert "left for the comment workflow" in job.log and github.reviews == {}
    run = {
        "workflow_run": {
            "id": runner.jobs_run + 1000,
            "name": "curator-pr",
            "event": "pull_request",
            "status": "completed",
            "conclusion": "failure",
            "head_sha": world["head"],
            "head_branch": "add-memorybank",
            "head_repository": {"full_name": FORK},
            "pull_requests": [],
        },
        "repository": {"full_name": REPO},
    }
    done = runner.run_job("curator-comment.yml", "comment", "workflow_run", run)
    assert done.success, done.log
    (review,) = reviews(github)
    assert len(github.comments_of(review)) == 1 and review["commit_id"] == world["head"]
    assert "**1 one-click suggestion**" in sticky(github)


def turn_on_the_fix(repo: Path) -> None:
    """What a maintainer does to `curator init`'s nightly workflow to turn the fix on."""
    path = repo / ".github" / "workflows" / "curator-nightly.yml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("          # fix: true", "          fix: true")
    text = text.replace("      # pull-requests: write", "      pull-requests: write")
    path.write_text(text.replace("contents: read # write", "contents: write #"), "utf-8")


@pytest.mark.slow
def test_two_nightly_runs_one_fix_pull_request_closed_when_clean(world: dict[str, Any]) -> None:
    runner, github, repo = world["runner"], world["github"], world["repo"]
    turn_on_the_fix(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the nightly fix pull request on")
    github.load_git(REPO, repo)
    main_before = github.branch(REPO, "main")
    for _ in range(2):
        job = runner.run_job("curator-nightly.yml", "audit", "schedule", {"schedule": "x"})
        assert "fix pull request" in job.log, job.log
    (pull,) = [p for p in github.pulls_of(REPO) if p["body"].startswith(FIX_MARKER)]
    assert pull["state"] == "open" and pull["head"]["ref"] == "curator/fixes"
    tip = github.branch(REPO, "curator/fixes")
    assert tip is not None and RIGHT_DATE.encode() in (github.file_at(tip, "README.md") or b"")
    assert job.outputs["fix-url"] == pull["html_url"]
    # The maintainer merges the fix (here: the same text committed to main): clean.
    fixed = github.file_at(tip, "README.md")
    assert fixed is not None
    commit_readme(repo, fixed.decode("utf-8"), "merge the fixes")
    github.load_git(REPO, repo)
    job = runner.run_job("curator-nightly.yml", "audit", "schedule", {"schedule": "x"})
    assert "fix pull request closed" in job.log, job.log
    assert pull["state"] == "closed" and github.branch(REPO, "curator/fixes") is None
    assert all(ref == "heads/curator/fixes" for _, ref in github.ref_writes)
    assert github.branch(REPO, "main") != main_before  # only by the maintainer's own commit

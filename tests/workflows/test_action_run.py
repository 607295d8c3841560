"""Issue 13's "done when": a throw-away list repository with no curator source, its workflows
as `curator init` writes them, and the Action's steps run as a runner would (runner.py)
against the loopback arXiv and GitHub doubles.

The event payloads carry the fields of GitHub's `pull_request`, `workflow_run` and
`schedule` webhook payloads that the workflows and curator read (no recorded payload is in
api-samples); the rest of a real payload is not read by anything here.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from curator.report import markdown
from curator.resolvers.arxiv_pages import CONTROL
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github_issues import FakeGitHub
from tests.doubles.server import LoopbackServer
from tests.workflows.runner import Runner

REPO = "acme/awesome-llm-memory"
FORK = "someone-else/awesome-llm-memory"
SHA = "3f1c2b4a5d6e7f8091a2b3c4d5e6f708192a3b4c"
PAPERS = {
    "2310.08560": ("MemGPT: Towards LLMs as Operating Systems", "2023-10-12"),
    "2304.03442": ("Generative Agents: Interactive Simulacra of Human Behavior", "2023-04-07"),
    "2305.10250": (
        "MemoryBank: Enhancing Large Language Models with Long-Term Memory",
        "2023-05-17",
    ),
}
ADDED = "2305.10250"
WRONG_TITLE = "MemoryBank: A Wrong Title"

ROW = """    <tr>
      <td rowspan="2">{date}</td>
      <td><strong>{title}</strong></td>
      <td><img src="https://img.shields.io/badge/Agent%20Memory-blue" alt="Agent Memory"></td>
      <td><a href="https://arxiv.org/abs/{id}"><img src="data:," alt="Paper Badge"></a></td>
    </tr>
    <tr>
      <td colspan="3">• A memory paper.</td>
    </tr>
"""


def readme(titles: dict[str, str]) -> str:
    """An awesome-list README in the two-row table layout curator reads."""
    rows = "".join(
        ROW.format(id=pid, title=title, date=PAPERS[pid][1]) for pid, title in titles.items()
    )
    return (
        "# Awesome LLM memory\n\n<details>\n"
        "  <summary><strong>Memory Systems</strong></summary>\n\n"
        "  <table>\n    <tr>\n      <td><strong>Date</strong></td>\n"
        "      <td><strong>Paper & Summary</strong></td>\n      <td><strong>Tags</strong></td>\n"
        f"      <td><strong>Links</strong></td>\n    </tr>\n{rows}  </table>\n</details>\n"
    )


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def catalogue(titles: dict[str, str]) -> str:
    """The same papers as a data/ catalogue file."""
    rows = "".join(
        f'  - {{title: "{title}", arxiv: "{pid}", date: "{PAPERS[pid][1]}"}}\n'
        for pid, title in titles.items()
    )
    return f"section: Memory Systems\npapers:\n{rows}"


def commit(repo: Path, titles: dict[str, str], message: str) -> str:
    """Write the list in the repository's layout (data/ when it has one) and commit."""
    if (repo / "data").is_dir():
        (repo / "data" / "papers.yaml").write_text(catalogue(titles), encoding="utf-8")
    else:
        (repo / "README.md").write_text(readme(titles), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def runner_for(repo: Path, github: FakeGitHub, arxiv_url: str, tmp_path: Path) -> Runner:
    """A runner for the list's workflows, its API endpoints on the loopback doubles."""
    env = {
        "GITHUB_API_URL": github.api,
        "GITHUB_GRAPHQL_URL": github.api + "/graphql",
        "CURATOR_ARXIV_API_URL": arxiv_url,
        "CURATOR_ARXIV_DELAY": "0",
        "HOME": str(tmp_path),
    }
    return Runner(repo, tmp_path / "store", REPO, env)


@pytest.fixture(params=["README.md", "data"])
def world(
    request: pytest.FixtureRequest, tmp_path: Path, loopback: LoopbackServer
) -> Iterator[dict[str, Any]]:
    """The list repository in either layout (base commit with two papers, PR commit adding a
    third with a wrong title), the doubles, and a runner for its workflows."""
    arxiv = ArxivDouble(
        {pid: Paper(pid, title, published=f"{d}T12:00:00Z") for pid, (title, d) in PAPERS.items()}
    )
    arxiv_url = arxiv.install(loopback)
    with LoopbackServer() as github_server:
        github = FakeGitHub(github_server, user_forbidden=True)  # an Actions token
        repo = tmp_path / "list"
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        base_titles = {pid: t for pid, (t, _) in PAPERS.items() if pid != ADDED}
        (repo / "README.md").write_text(readme(base_titles), encoding="utf-8")
        if request.param == "data":
            (repo / "data").mkdir()
            (repo / "data" / "papers.yaml").write_text(catalogue(base_titles), encoding="utf-8")
        assert main(["init", str(repo), "--ref", SHA]) == 0
        # The list's paths live in its settings file; the workflow filters pull requests by them.
        settings = (repo / "rules" / "curator.yaml").read_text()
        assert f"paths: [{request.param}]" in settings
        trigger = "data/**" if request.param == "data" else request.param
        assert f"      - {trigger}\n" in (repo / ".github/workflows/curator-pr.yml").read_text()
        base = commit(repo, base_titles, "a list with curator's workflows")
        head = commit(repo, {**base_titles, ADDED: WRONG_TITLE}, "add MemoryBank")
        runner = runner_for(repo, github, arxiv_url, tmp_path)
        yield {"repo": repo, "base": base, "head": head, "arxiv": arxiv, "github": github,
               "runner": runner, "list": request.param}  # fmt: skip


def test_the_list_holds_no_curator_source(world: dict[str, Any]) -> None:
    """Only the list, the four workflows (discover too: a list without a policy is screened
    by what its papers teach) and the starter rules."""
    files = sorted(git(world["repo"], "ls-files").splitlines())
    if world["list"] == "data":
        files.remove("data/papers.yaml")
    assert files == [
        ".github/workflows/curator-comment.yml",
        ".github/workflows/curator-discover.yml",
        ".github/workflows/curator-nightly.yml",
        ".github/workflows/curator-pr.yml",
        "README.md",
        "rules/curator.yaml",
        "rules/links.yaml",
        "rules/projects.yaml",
    ]


def pull_request(world: dict[str, Any], head_repo: str) -> dict[str, Any]:
    """A `pull_request` (opened) payload for PR 7 from `head_repo`."""
    return {
        "action": "opened",
        "number": 7,
        "pull_request": {
            "number": 7,
            "state": "open",
            "head": {"sha": world["head"], "ref": "add-memorybank",
                     "repo": {"full_name": head_repo, "fork": head_repo != REPO}},
            "base": {"sha": world["base"], "ref": "main", "repo": {"full_name": REPO}},
        },
        "repository": {"full_name": REPO},
    }  # fmt: skip


def ours(github: FakeGitHub) -> list[dict[str, Any]]:
    return [c for c in github.comments_on(REPO, 7) if markdown.MARKER in c["body"]]


@pytest.mark.slow
def test_pr_mode_checks_the_added_entry_and_keeps_one_comment(world: dict[str, Any]) -> None:
    """Two runs of curator-pr on a PR from this repository: only the added paper is asked
    and reported, the job fails on its error, and one comment is created then kept."""
    runner, arxiv, github = world["runner"], world["arxiv"], world["github"]
    github.add_pull(REPO, 7, world["head"])
    for _ in range(2):
        job = runner.run_job("curator-pr.yml", "check", "pull_request", pull_request(world, REPO))
        assert not job.success, job.log  # fail-on: error
        assert (job.outputs["errors"], job.outputs["warnings"]) == ("1", "0")
        report = json.loads(Path(job.outputs["report"]).read_text(encoding="utf-8"))
        assert [e["subject"] for e in report["entries"]] == [f"arxiv:{ADDED}"]
        assert report["notes"][0].startswith("pull-request mode: 1 of 3 entries changed")
        where = "README.md" if world["list"] == "README.md" else "data/papers.yaml"
        assert f"::error file={where}" in job.log and "arxiv-title-mismatch" in job.log
        # No policy: no scope error; the full run's "scope not checked" note is not a PR's.
        assert "scope-exclude" not in job.summary and "scope not checked" not in job.summary
    # Only the added paper, each time (beside the known control paper that proves an empty
    # answer is not an outage: curator.resolvers.arxiv_pages.CONTROL).
    searches = arxiv.searches()
    lookups = [r for r in arxiv.requests() if r not in searches]
    asked = [r.query["id_list"][0].split(",") for r in lookups]
    assert [[i for i in ids if i != CONTROL] for ids in asked] == [[ADDED], [ADDED]]
    # The title is another paper's (few words in common): a wrong ID, so each run's plan of
    # suggestions asks arXiv's title search once, for that entry's title alone.
    queries = [r.query["search_query"][0].lower() for r in searches]
    assert len(queries) == 2 and all("wrong title" in q and "memgpt" not in q for q in queries)
    assert not (runner.store / "cache").exists()  # a pull request restores, never saves
    (comment,) = ours(github)
    assert comment["user"]["login"] == "github-actions[bot]"
    assert "arxiv-title-mismatch" in comment["body"]
    assert len(github.server.received(method="POST")) == 1
    assert not (runner.store / "artifacts").exists()  # commented directly: nothing left over


@pytest.mark.slow
def test_a_token_that_cannot_write_leaves_the_report(world: dict[str, Any]) -> None:
    """A PR from this repository whose job lacks pull-requests: write: a warning, and the
    report is left for the comment workflow as for a fork; findings still fail the job."""
    runner, github = world["runner"], world["github"]
    github.add_pull(REPO, 7, world["head"])
    github.read_only = True
    job = runner.run_job("curator-pr.yml", "check", "pull_request", pull_request(world, REPO))
    assert not job.success and "::warning title=curator::no comment" in job.log
    assert "HTTP 403: Resource not accessible by integration" in job.log
    assert (runner.store / "artifacts" / "1001" / "curator-report" / "report.json").is_file()
    assert ours(github) == []


@pytest.mark.slow
def test_fork_pr_leaves_the_report_and_comment_mode_posts_it(world: dict[str, Any]) -> None:
    """A fork's run posts nothing and leaves the artifact; curator-comment, on workflow_run,
    finds the PR by its head commit and posts the comment; a second round edits that one."""
    runner, github = world["runner"], world["github"]
    github.add_pull(REPO, 7, world["head"], fork=True)
    for round_ in (1, 2):
        job = runner.run_job("curator-pr.yml", "check", "pull_request", pull_request(world, FORK))
        assert not job.success and "left for the comment workflow" in job.log
        assert len(github.server.received(method="POST")) == round_ - 1  # the fork's job: none
        run = {
            "workflow_run": {
                "id": int(runner.jobs_run + 1000), "name": "curator-pr", "event": "pull_request",
                "status": "completed", "conclusion": "failure", "head_sha": world["head"],
                "head_branch": "add-memorybank", "head_repository": {"full_name": FORK},
                "pull_requests": [],
            },
            "repository": {"full_name": REPO},
        }  # fmt: skip
        done = runner.run_job("curator-comment.yml", "comment", "workflow_run", run)
        assert done.success, done.log
        # The second report links another run, so the one comment is edited in place.
        assert f"comment {'created' if round_ == 1 else 'updated'}" in done.log
    (comment,) = ours(github)
    assert "arxiv-title-mismatch" in comment["body"]


def test_a_cancelled_or_push_run_comments_nothing(world: dict[str, Any]) -> None:
    """The comment job's condition: only finished pull_request runs."""
    run = {"workflow_run": {"id": 1, "event": "push", "conclusion": "success", "head_sha": "x"}}
    done = world["runner"].run_job("curator-comment.yml", "comment", "workflow_run", run)
    assert done.success and done.log == ""


@pytest.mark.slow
def test_audit_twice_one_issue_then_closed_when_clean(world: dict[str, Any]) -> None:
    """curator-nightly on schedule: opens one issue, updates it (the cache saved by the first
    run answers the second), and closes it once the list is clean."""
    runner, arxiv, github, repo = world["runner"], world["arxiv"], world["github"], world["repo"]
    schedule = {"schedule": "17 3 * * *"}
    for _ in range(2):
        job = runner.run_job("curator-nightly.yml", "audit", "schedule", schedule)
        assert not job.success and job.outputs["errors"] == "1", job.log
        assert [i["state"] for i in github.issues.values()] == ["open"]
    assert len(arxiv.asked_ids()) == 1  # the second audit restored the first one's cache
    assert Path(job.outputs["sarif"]).is_file()
    commit(repo, {pid: t for pid, (t, _) in PAPERS.items()}, "fix the title")
    job = runner.run_job("curator-nightly.yml", "audit", "schedule", schedule)
    assert job.success, job.log
    (issue,) = github.issues.values()
    assert issue["state"] == "closed" and "audit issue closed" in job.log


@pytest.mark.slow
def test_discover_weekly_keeps_one_new_papers_issue(
    tmp_path: Path, loopback: LoopbackServer
) -> None:
    """curator init with a scope policy writes curator-discover; on schedule it asks arXiv for
    the week, skips what the list has, and keeps one new-papers issue for the window."""
    from datetime import UTC, datetime, timedelta

    day = (datetime.now(UTC) - timedelta(days=2)).strftime("%Y-%m-%dT09:00:00Z")
    new = Paper(
        "2611.00001",
        "Episodic Memory for Long-Horizon LLM Agents",
        abstract="We give LLM agents an episodic memory that stores and retrieves past events.",
        published=day,
    )
    listed = Paper("2310.08560", PAPERS["2310.08560"][0], published=day)
    arxiv = ArxivDouble({p.id: p for p in (new, listed)})
    arxiv_url = arxiv.install(loopback)
    with LoopbackServer() as github_server:
        github = FakeGitHub(github_server, user_forbidden=True)
        repo = tmp_path / "list"
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        (repo / "README.md").write_text(readme({"2310.08560": PAPERS["2310.08560"][0]}))
        assert main(["init", str(repo), "--ref", SHA, "--scope-preset", "llm-memory"]) == 0
        assert (repo / ".github/workflows/curator-discover.yml").is_file()
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "a list that screens new papers")
        runner = runner_for(repo, github, arxiv_url, tmp_path)
        starts = []
        for _ in range(2):
            job = runner.run_job("curator-discover.yml", "discover", "schedule", {"schedule": "x"})
            assert job.success, job.log
            assert "2611.00001" in job.summary and "Episodic Memory" in job.summary
            asked = [r.query["search_query"][0] for r in arxiv.searches()]
            starts.append(re.search(r"submittedDate:\[(\d{8})", asked[-1]).group(1))
        # The cache the first run saved: the second asks only from its first unsettled day.
        assert starts[1] > starts[0]
        first, second = github.issues.values()  # one issue per window
        for issue in (first, second):
            assert issue["state"] == "open" and "2611.00001" in issue["body"]
            assert "2310.08560" not in issue["body"]  # already listed: skipped
            assert [label["name"] for label in issue["labels"]] == ["curator-discover"]


def source_digest() -> str:
    """What the Action's key step computes: sha256sum of each of curator's files (pyproject
    and the package, sorted as C sorts), hashed again, 40 hex digits."""
    import hashlib

    root = Path(__file__).resolve().parents[2]
    files = [root / "pyproject.toml"]
    files += [p for p in (root / "curator").rglob("*") if p.is_file()]
    names = sorted(
        (p.relative_to(root).as_posix() for p in files if "__pycache__" not in p.parts),
        key=lambda n: n.encode(),
    )
    lines = "".join(f"{hashlib.sha256((root / n).read_bytes()).hexdigest()}  {n}\n" for n in names)
    return hashlib.sha256(lines.encode()).hexdigest()[:40]


def test_a_warm_run_restores_curators_environment_instead_of_installing(
    world: dict[str, Any],
) -> None:
    """Issue 32: the install step runs once; the nightly saves the environment under a key of
    curator's own files and the Python version, and every later run (a pull request's too)
    restores it. A pull request never saves one."""
    runner = world["runner"]
    job = runner.run_job("curator-pr.yml", "check", "pull_request", pull_request(world, REPO))
    assert runner.installs == 1 and "curator-venv" not in str(list(runner.store.glob("cache/*")))
    for _ in range(2):
        runner.run_job("curator-nightly.yml", "audit", "schedule", {"schedule": "x"})
    assert runner.installs == 2  # the first nightly installed and saved; the second restored
    (key,) = [p.name for p in (runner.store / "cache").glob("curator-venv-*")]
    assert key == f"curator-venv-Linux-X64-py3.12.11-{source_digest()}"
    job = runner.run_job("curator-pr.yml", "check", "pull_request", pull_request(world, REPO))
    assert runner.installs == 2 and job.outputs["errors"] == "1", job.log

"""The pull request behind the README's pictures, run for real against the loopback doubles.

A small list (a `data/` catalogue with three papers and a project; the shipped scope policy,
as `curator init --scope-preset llm-memory` sets it up) gets a pull request adding four
papers and a project, each with a mistake a contributor makes: an older title of the same
paper (one word off), an arXiv ID with two digits swapped, a date a month off, a paper
outside the scope, a repository that was renamed. The Action's `pr` mode runs on it
(`curator check data --changed-since BASE --suggest --format json`): the JSON report it
writes, fixes included, is docs/images/review-report.json, and the pull request's files as
GitHub lists them are docs/images/review-pull.json; from both,
docs/images/make_review_image.py draws the comment and one suggestion of the review. The
papers are real records of the list's screening files (official titles and abstracts),
served by the arXiv double.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from curator.cli import main
from curator.report import json as json_report
from curator.report.reader import read_saved
from tests.conftest import ROOT, SCOPE
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github import GithubDouble
from tests.doubles.server import LoopbackServer

REPORT = ROOT / "docs" / "images" / "review-report.json"
PULL = ROOT / "docs" / "images" / "review-pull.json"
TOKEN = "ghp_review_picture_token"
#: A fixed run time: the report's other figures are what the run really did.
ELAPSED = 3.4
#: Fixed names and dates, so the commits (and the base SHA in the report's note) are stable.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "A Contributor",
    "GIT_AUTHOR_EMAIL": "contributor@example.org",
    "GIT_COMMITTER_NAME": "A Contributor",
    "GIT_COMMITTER_EMAIL": "contributor@example.org",
    "GIT_AUTHOR_DATE": "2026-10-06T09:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-10-06T09:00:00+00:00",
}

#: The Action's `pr` mode for a list set up by `curator init --scope-preset llm-memory`.
PR_RUN = ("check", "data", "--fail-on", "error", "--scope-preset", "llm-memory", "--changed-since")
#: The list's own rules: only the repository check's clock (every other key is curator's).
STARTER_PROJECTS = (
    "# The list's repository checks (curator/rulefiles/projects.py).\nstale_days: 0\n"
)
#: GitHub's word for each of `git diff --name-status`'s letters.
STATUS = {"A": "added", "M": "modified", "D": "removed"}
#: The list before the pull request.
BASE_PAPERS = """\
# yaml-language-server: $schema=../schema.json
section: Methods
papers:
  - title: "MemoryBank: Enhancing Large Language Models with Long-Term Memory"
    arxiv: "2305.10250"
    date: "2023-05-17"
  - title: "MemGPT: Towards LLMs as Operating Systems"
    arxiv: "2310.08560"
    date: "2023-10-12"
  - title: "Generative Agents: Interactive Simulacra of Human Behavior"
    arxiv: "2304.03442"
    date: "2023-04-07"
"""
BASE_PROJECTS = """\
# yaml-language-server: $schema=schema.json
section: Projects
projects:
  - name: Mem0
    repo: "https://github.com/mem0ai/mem0"
"""
#: What the pull request adds, as a contributor typed it.
ADDED_PAPERS = (
    '  - title: "MemFit: Efficient Long-Term Agent Memory"\n'
    '    arxiv: "2610.00872"\n'
    '    date: "2026-10-01"\n'
    '  - title: "How Can Recommendation Feedback Evolve Agent Memory?"\n'
    '    arxiv: "2609.37454"\n'
    '    date: "2026-09-28"\n'
    '  - title: "When Correct Memory Goes Wrong: Fuzzing Persistent Memory Use in LLM Agents"\n'
    '    arxiv: "2609.38275"\n'
    '    date: "2026-08-29"\n'
    '  - title: "MoE-CORE: Coordinated Expert Offloading and Residency for Memory-Constrained '
    'MoE Inference"\n'
    '    arxiv: "2610.01950"\n'
    '    date: "2026-10-02"\n'
)
ADDED_PROJECTS = """\
  - name: MemGPT
    repo: "https://github.com/cpacker/MemGPT"
"""
#: Papers arXiv knows (the double): the base list's, and the screening records' real ones.
KNOWN = {
    "2305.10250": ("MemoryBank: Enhancing Large Language Models with Long-Term Memory",
                   "2023-05-17"),
    "2310.08560": ("MemGPT: Towards LLMs as Operating Systems", "2023-10-12"),
    "2304.03442": ("Generative Agents: Interactive Simulacra of Human Behavior", "2023-04-07"),
}  # fmt: skip
FROM_RECORDS = {
    "2610.00872": "2026-10-01",
    "2609.37544": "2026-09-28",
    "2609.38275": "2026-09-29",
    "2610.01950": "2026-10-02",
}


def papers() -> dict[str, Paper]:
    """The arXiv double's papers: official titles and abstracts from the screening records."""
    records = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    by_id = {r["id"]: r for r in records}
    out = {pid: Paper(pid, t, published=f"{d}T12:00:00Z") for pid, (t, d) in KNOWN.items()}
    for pid, day in FROM_RECORDS.items():
        record = by_id[pid]
        out[pid] = Paper(pid, record["title"], abstract=record["source_abstract"],
                         published=f"{day}T09:00:00Z", categories=("cs.CL", "cs.AI"))  # fmt: skip
    return out


def git(repo: Path, *args: str) -> str:
    """Run git in `repo` with the fixed identity and dates; its output."""
    env = {**os.environ, **GIT_ENV}
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          check=True, env=env)  # fmt: skip
    return done.stdout.strip()


def list_repository(folder: Path) -> tuple[str, str]:
    """The list before and after the pull request, committed; (base, head) SHAs."""
    (folder / "data" / "papers").mkdir(parents=True)
    shutil.copy(ROOT / "data" / "schema.json", folder / "data" / "schema.json")
    # The scope policy is the shipped preset (`--scope-preset`, as `curator init` sets up), so
    # a retrained scorer changes the verdicts, not the SHAs. The run's clock is the real one:
    # without stale_days 0, the renamed repository would turn stale a year on.
    (folder / "rules").mkdir()
    (folder / "rules" / "projects.yaml").write_text(STARTER_PROJECTS, encoding="utf-8")
    papers_file = folder / "data" / "papers" / "methods.yaml"
    projects_file = folder / "data" / "projects.yaml"
    papers_file.write_text(BASE_PAPERS, encoding="utf-8")
    projects_file.write_text(BASE_PROJECTS, encoding="utf-8")
    git(folder, "init", "-q", "-b", "main")
    git(folder, "add", "data", "rules")
    git(folder, "commit", "-q", "-m", "the list")
    base = git(folder, "rev-parse", "HEAD")
    papers_file.write_text(BASE_PAPERS + ADDED_PAPERS, encoding="utf-8")
    projects_file.write_text(BASE_PROJECTS + ADDED_PROJECTS, encoding="utf-8")
    git(folder, "commit", "-q", "-am", "Add four memory papers and MemGPT")
    return base, git(folder, "rev-parse", "HEAD")


def pull_files(folder: Path, base: str, head: str) -> str:
    """What GitHub's `GET /pulls/N/files` says of the pull request (filename, status, patch,
    the patch as `git diff` makes it without its file header), as JSON text."""
    files = []
    for line in git(folder, "diff", "--name-status", "--no-renames", base, head).splitlines():
        status, name = line.split("\t")
        diff = git(folder, "diff", "--no-color", "--unified=3", base, head, "--", name)
        patch = diff[diff.index("\n@@") + 1 :]
        files.append({"filename": name, "status": STATUS[status], "patch": patch})
    return json.dumps(files, indent=2, ensure_ascii=False) + "\n"


def review_report(
    loopback: LoopbackServer, tmp: Path, setenv: Callable[[str, str], None]
) -> tuple[str, str]:
    """The JSON report of the Action's `pr` run (`curator check data --changed-since BASE
    --suggest`) on the pull request, run in the list's folder `tmp / "list"` (the caller's
    working directory; `setenv` points curator at the doubles), and the pull request's files
    as GitHub lists them (`pull_files`)."""
    base, head = list_repository(tmp / "list")
    arxiv = ArxivDouble(papers())
    github = GithubDouble(loopback, token=TOKEN)
    github.add("mem0ai/mem0", license="Apache-2.0", stars=41234, forks=4321)
    github.add("letta-ai/letta", license="Apache-2.0", stars=19876, forks=2087,
               pushed_at="2026-10-05T18:12:40Z")  # fmt: skip
    github.add("cpacker/MemGPT", renamed_to="letta-ai/letta")
    setenv("CURATOR_ARXIV_API_URL", arxiv.install(loopback))
    setenv("GITHUB_API_URL", github.api_url)
    setenv("GITHUB_GRAPHQL_URL", github.graphql_url)
    setenv("GITHUB_TOKEN", TOKEN)
    out = tmp / "report.json"
    args = [*PR_RUN, base, "--suggest", "--format", "json", "--output", str(out)]
    assert main(args) == 1
    saved = read_saved(out)
    report = json_report.render(replace(saved.report, elapsed=ELAPSED), fixes=saved.fixes)
    return report, pull_files(tmp / "list", base, head)

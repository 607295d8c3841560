"""The pull request behind the README's picture, run for real against the loopback doubles.

A small list (a `data/` catalogue with three papers and a project, the repository's own
scope rules) gets a pull request adding three papers and a project, each with a mistake a
contributor makes: a title typed from memory, a date a month off, a paper outside the
scope, a repository that was renamed. `curator check
--changed-since BASE --format json` runs on it as the Action's `pr` mode runs it; the JSON
report it writes is docs/images/review-report.json, from which
docs/images/make_review_image.py draws the comment. The papers are real records of the
list's screening files (official titles and abstracts), served by the arXiv double.
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
from curator.report.reader import load_report
from tests.conftest import ROOT, SCOPE
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github import GithubDouble
from tests.doubles.server import LoopbackServer

REPORT = ROOT / "docs" / "images" / "review-report.json"
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
FROM_RECORDS = {"2610.00872": "2026-10-01", "2609.38275": "2026-09-29", "2610.01950": "2026-10-02"}


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
    # The rules are the base commit's, as in a list that committed them with `curator init`:
    # a pull request's run reads them from its base, and reports rules it adds as
    # config-changed (a change to them changes the base SHA, and the picture is redrawn).
    (folder / "rules").mkdir()
    for name in ("scope.yaml", "scope-scorer.json", "links.yaml"):
        shutil.copy(ROOT / "rules" / name, folder / "rules" / name)
    # The run's clock is the real one: without this, a repository would turn stale a year on.
    (folder / "rules" / "projects.yaml").write_text("stale_days: 0\n", encoding="utf-8")
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
    git(folder, "commit", "-q", "-am", "Add three memory papers and MemGPT")
    return base, git(folder, "rev-parse", "HEAD")


def review_report(loopback: LoopbackServer, tmp: Path, setenv: Callable[[str, str], None]) -> str:
    """The JSON report of `curator check data --changed-since BASE` on the pull request, run
    in the list's folder `tmp / "list"` (the caller's working directory); `setenv` points
    curator at the doubles."""
    base, _ = list_repository(tmp / "list")
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
    args = ["check", "data", "--changed-since", base, "--format", "json", "--output", str(out)]
    assert main(args) == 1
    report = load_report(json.loads(out.read_text(encoding="utf-8")))
    return json_report.render(replace(report, elapsed=ELAPSED))

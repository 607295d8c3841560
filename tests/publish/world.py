"""A list repository in git for the pull-request and fix-PR tests: a base commit on main, a
pull request's head commit, and the fixes the planner would make, built as values; the
repository is made with the one world builder's git helpers (tests/doubles/world.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from curator.core.model import Finding, Severity, Source
from curator.fix.model import Edit, FileFix
from tests.doubles.github_pulls import FakeGitHubPulls
from tests.doubles.world import commit, git

REPO = "acme/awesome-llm-memory"
ARXIV = "https://arxiv.org/abs"
BASE = f"""# Awesome LLM memory

- [MemGPT: Towards LLMs as Operating Systems]({ARXIV}/2310.08560) (2023-10)
- [Generative Agents: Interactive Simulacra of Human Behavior]({ARXIV}/2304.03442) (2023-04)

## Projects

- [letta](https://github.com/cpacker/MemGPT): the MemGPT agent server.
"""
#: The pull request adds two papers, one with a wrong title and one with a wrong date.
ADDED = f"""- [MemoryBank: A Wrong Title]({ARXIV}/2305.10250) (2023-05)
- [Reflexion: Language Agents with Verbal Reinforcement Learning]({ARXIV}/2303.11366) (2023-01)
"""
HEAD = BASE.replace("\n## Projects", ADDED + "\n## Projects")
WRONG_TITLE = "MemoryBank: A Wrong Title"
RIGHT_TITLE = "MemoryBank: Enhancing Large Language Models with Long-Term Memory"


def actions_variables(
    folder: Path, api: str, event: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Set the variables GitHub Actions sets for a job with this event's payload, its files
    (event, step summary, outputs) in `folder`; the folder."""
    (folder / "event.json").write_text(json.dumps(event), encoding="utf-8")
    values = {
        "GITHUB_EVENT_PATH": folder / "event.json",
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_RUN_ID": "987654321",
        "GITHUB_API_URL": api,
        "GITHUB_TOKEN": "ghs_actions_token",
        "GITHUB_STEP_SUMMARY": folder / "summary.md",
        "GITHUB_OUTPUT": folder / "output.txt",
    }
    for key, value in values.items():
        monkeypatch.setenv(key, str(value))
    return folder


def list_repo(folder: Path, base: str = BASE, head: str | None = HEAD) -> tuple[str, str]:
    """A git repository with README.md at `base` on main and, on branch add-entry, at `head`;
    (base commit, head commit) (head is the base commit when `head` is None)."""
    folder.mkdir(parents=True, exist_ok=True)
    git(folder, "init", "-q", "-b", "main")
    first = commit(folder, {"README.md": base}, "the list")
    if head is None:
        return first, first
    git(folder, "checkout", "-q", "-b", "add-entry")
    second = commit(folder, {"README.md": head}, "add two papers")
    git(folder, "checkout", "-q", "main")
    return first, second


def finding(code: str, subject: str, line: int, suggestion: str = "") -> Finding:
    """A finding on README.md:line as the checks make it."""
    severity = Severity.ERROR if code == "arxiv-title-mismatch" else Severity.WARNING
    return Finding(
        code, severity, subject, Source("README.md", line), f"{code} here", "", suggestion
    )


def edit(text: str, old: str, new: str, found: Finding, file: str = "README.md") -> Edit:
    """The edit replacing the first `old` in `text` with `new`."""
    start = text.index(old)
    return Edit(file, start, start + len(old), old, new, found)


def head_fixes(text: str = HEAD) -> FileFix:
    """The fixes of the pull request's head: MemoryBank's title, Reflexion's date."""
    title = finding("arxiv-title-mismatch", "arxiv:2305.10250", 5, RIGHT_TITLE)
    date = finding("arxiv-date-mismatch", "arxiv:2303.11366", 6, "2023-03")
    reflexion = text.index("(2023-01)")
    return FileFix(
        "README.md",
        text,
        (
            edit(text, WRONG_TITLE, RIGHT_TITLE, title),
            Edit("README.md", reflexion + 1, reflexion + 8, "2023-01", "2023-03", date),
        ),
    )


def pull_world(
    folder: Path, fake: FakeGitHubPulls, *, fork: bool = False, number: int = 7
) -> tuple[str, str]:
    """The list repository loaded into the double with pull request `number` open on it."""
    base, head = list_repo(folder)
    fake.load_git(REPO, folder)
    fake.add_pull(REPO, number, head, fork, base_sha=base)
    return base, head


def outside_code(text: str) -> str:
    """The HTML GitHub-flavoured Markdown makes of `text`, without code spans and blocks
    (where nothing pings, links or renders): what a hostile value must not reach."""
    html = MarkdownIt("commonmark").enable("table").render(text)
    return re.sub(r"<code>.*?</code>|<pre>.*?</pre>", "", html, flags=re.S)


def assert_inert(text: str) -> None:
    """No mention, raw HTML or link of a hostile value outside code: the only links are the
    links curator builds itself (into this repository)."""
    outside = outside_code(text)
    assert "@org" not in outside and "<img" not in outside and "<b>" not in outside
    hrefs = re.findall(r'href="([^"]*)"', outside)
    assert all(h.startswith(f"https://github.com/{REPO}/") for h in hrefs), hrefs

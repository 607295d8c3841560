"""Issue 32 item 4: the local preview of a pull request is what the pull request gets.

A pull request adds a paper under a wrong arXiv ID (two digits swapped) and one with a date a
month off. `check --changed-since BASE` in text names the right ID (arXiv's title search finds
the entry's title there) and lists each suggested fix; in markdown it prints the comment
`curator comment` posts to the pull request (the GitHub double), byte for byte but the
review's link, which exists only once the review is posted (and the run's duration).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from curator.cli import main
from curator.report import markdown
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github_pulls import FakeGitHubPulls
from tests.doubles.server import LoopbackServer
from tests.publish.world import ARXIV, BASE, REPO, actions_variables, git, list_repo

MEMORYBANK = "MemoryBank: Enhancing Large Language Models with Long-Term Memory"
REFLEXION = "Reflexion: Language Agents with Verbal Reinforcement Learning"
#: The pull request's two entries: a swapped-digit ID, a date a month off.
ADDED = (
    f"- [{MEMORYBANK}]({ARXIV}/2305.10205) (2023-05)\n"
    f"- [{REFLEXION}]({ARXIV}/2303.11366) (2023-01)\n"
)
HEAD = BASE.replace("\n## Projects", ADDED + "\n## Projects")
RUN = ("check", "README.md", "--skip", "github,web,scope", "--fail-on", "never", "--no-cache")


@pytest.fixture
def pull(
    tmp_path: Path, loopback: LoopbackServer, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, str]:
    """The list repository with the pull request checked out, the arXiv double serving the
    papers (not 2305.10205); (base, head)."""
    arxiv = ArxivDouble()
    for pid, title, day in [
        ("2305.10250", MEMORYBANK, "2023-05-17"),
        ("2303.11366", REFLEXION, "2023-03-20"),
        ("2310.08560", "MemGPT: Towards LLMs as Operating Systems", "2023-10-12"),
        ("2304.03442", "Generative Agents: Interactive Simulacra of Human Behavior", "2023-04-07"),
    ]:
        arxiv.papers[pid] = Paper(pid, title, published=f"{day}T12:00:00Z")
    monkeypatch.setenv("CURATOR_ARXIV_API_URL", arxiv.install(loopback))
    monkeypatch.setenv("CURATOR_CACHE", str(tmp_path / "cache.sqlite"))
    folder = tmp_path / "list"
    base, head = list_repo(folder, head=HEAD)
    git(folder, "checkout", "-q", "add-entry")
    monkeypatch.chdir(folder)
    return base, head


def test_the_text_preview_names_the_right_id_and_each_fix(
    pull: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    base, _ = pull
    assert main([*RUN, "--changed-since", base, "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert "README.md:5: error arxiv-not-found" in out
    assert "→ arXiv:2305.10250" in out  # the ID arXiv's title search finds
    fixes = out[out.index("Suggested fixes") :]
    assert "README.md:5: arxiv-not-found" in fixes and "2305.10250" in fixes
    assert "curator fix --unsafe" in fixes  # another paper's ID: never applied silently
    assert "README.md:6: arxiv-date-mismatch 2023-01 → 2023-03" in fixes


def test_suggest_is_taken_with_text_and_markdown(
    pull: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Outside pull-request mode `--suggest` asks for the same: the ID and the fixes."""
    for form in ("text", "markdown"):
        assert main([*RUN, "--suggest", "--format", form]) == 0
        assert "arXiv:2305.10250" in capsys.readouterr().out


def test_the_markdown_preview_is_the_comment_as_posted(
    pull: tuple[str, str],
    tmp_path: Path,
    loopback: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    base, head = pull
    pulls = FakeGitHubPulls(loopback, user_forbidden=True)
    pulls.load_git(REPO, Path.cwd())
    pulls.add_pull(REPO, 7, head, base_sha=base)
    event = {"pull_request": {"number": 7, "head": {"sha": head}}}
    actions_variables(tmp_path, pulls.api, event, monkeypatch)
    preview, report = tmp_path / "preview.md", tmp_path / "report.json"
    assert (
        main([*RUN, "--changed-since", base, "--format", "markdown", "--output", str(preview)]) == 0
    )
    # The Action's pr mode: the JSON report with its fixes, then `curator comment`.
    json_run = ["--changed-since", base, "--suggest", "--format", "json", "--output", str(report)]
    assert main([*RUN, *json_run]) == 0
    assert main(["comment", "--repo", REPO, "--pr", "7", "--body-file", str(report)]) == 0
    (posted,) = [c["body"] for c in pulls.comments_on(REPO, 7) if markdown.MARKER in c["body"]]
    shown = preview.read_text(encoding="utf-8")
    assert "**2 one-click suggestions** in curator's review" in shown
    assert "`arXiv:2305.10250`" in shown
    posted = re.sub(r"\[curator's review\]\([^)]*\)", "curator's review", posted)
    assert same_run(posted) == same_run(shown)


def same_run(body: str) -> str:
    """The body with the run's duration left out (two runs, two durations)."""
    (body, n) = re.subn(r" · \d+\.\d s · ", " · TIME · ", body)
    assert n == 1
    return body

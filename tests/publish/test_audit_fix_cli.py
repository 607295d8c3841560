"""`curator audit --fix` on the command line: the branch name is checked before anything is
asked, and an audit that could not ask every service leaves the fix pull request as it is."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from curator.cli import main
from curator.core.codes import UNVERIFIED
from curator.publish.api import GitHubAPI
from curator.publish.fixpr import MARKER as FIX_MARKER
from curator.publish.fixpr import run_fix_pr
from curator.report.render_context import RenderContext
from curator.sources.reading import entries_of
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github_pulls import FakeGitHubPulls
from tests.doubles.server import LoopbackServer
from tests.doubles.world import World
from tests.publish.world import (
    HEAD,
    REPO,
    RIGHT_TITLE,
    assert_inert,
    commit,
    head_fixes,
    list_repo,
)

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


@pytest.mark.slow
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


AUDIT_FIX = ["audit", "README.md", "--skip", "scope", "--repo", REPO, "--fix"]
PAPERS = [
    ("2310.08560", "MemGPT: Towards LLMs as Operating Systems", "2023-10-12"),
    ("2304.03442", "Generative Agents: Interactive Simulacra of Human Behavior", "2023-04-07"),
    ("2305.10250", RIGHT_TITLE, "2023-05-17"),
    ("2303.11366", "Reflexion: Language Agents with Verbal Reinforcement Learning", "2023-03-20"),
]


@pytest.fixture
def checked(
    listed: Path, pulls: FakeGitHubPulls, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ArxivDouble]:
    """On main: the pull request's list (a wrong title, a wrong date), no repository, a
    link to a host that answers 429 and one to a page that answers; arXiv and the web as
    doubles on a loopback server of their own (the pulls double answers every path)."""
    with LoopbackServer() as server:
        yield _checked(listed, server, pulls, monkeypatch)


def _checked(
    listed: Path, server: LoopbackServer, pulls: FakeGitHubPulls, monkeypatch: pytest.MonkeyPatch
) -> ArxivDouble:
    world = World.start(server, listed, arxiv=True, web=True, cache="").point(monkeypatch)
    arxiv, web = world.arxiv, world.web
    assert arxiv is not None and web is not None
    web.rate_limited("/walled")
    web.page("/open")
    link = f"- [A walled page]({web.url('/walled')})\n- [An open page]({web.url('/open')})\n"
    commit(listed, {"README.md": HEAD.split("\n## Projects")[0] + link}, "no projects")
    pulls.load_git(REPO, listed)
    for base, title, published in PAPERS:
        arxiv.papers[base] = Paper(base, title, published=f"{published}T12:00:00Z")
    return arxiv


def _opened(capsys: pytest.CaptureFixture[str]) -> int:
    """Run the nightly audit once; the number of the fix pull request it opened."""
    assert main(AUDIT_FIX) == 0
    out = capsys.readouterr().out
    said = re.search(r"fix pull request opened #(\d+)", out)
    assert said, out
    return int(said.group(1))


@pytest.mark.slow
def test_one_link_that_could_not_be_checked_does_not_freeze_the_fix_pull_request(
    checked: ArxivDouble,
    listed: Path,
    pulls: FakeGitHubPulls,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bot wall or a timeout on one link is that link's (it gets no fix): the open fix
    pull request is still brought up to date with the fixes arXiv's answers prove."""
    number = _opened(capsys)
    text = (listed / "README.md").read_text(encoding="utf-8")
    commit(listed, {"README.md": text.replace("(2023-04)", "(2023-05)")}, "a wrong date")
    pulls.load_git(REPO, listed)
    assert main([*AUDIT_FIX, "--output", "report.json"]) == 0
    out = capsys.readouterr().out
    report = json.loads((listed / "report.json").read_text(encoding="utf-8"))
    assert {"link-unverified"} == {f["code"] for f in report["findings"]} & UNVERIFIED
    assert f"fix pull request updated #{number}" in out


@pytest.mark.slow
def test_an_arxiv_outage_still_keeps_the_fix_pull_request(
    checked: ArxivDouble,
    listed: Path,
    pulls: FakeGitHubPulls,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """arXiv could not be asked: its fixes are missing for want of an answer, so the open
    fix pull request is kept as it is."""
    number = _opened(capsys)
    writes = len(pulls.ref_writes)
    checked.fail(*["html"] * 20)
    monkeypatch.setenv("CURATOR_CACHE", str(listed.parent / "cold.sqlite"))  # ask arXiv
    assert main(AUDIT_FIX) == 0
    assert f"fix pull request kept #{number}" in capsys.readouterr().out
    assert len(pulls.ref_writes) == writes


def test_a_merge_during_the_audit_keeps_the_fix_pull_request_and_says_so(
    checked: ArxivDouble,
    listed: Path,
    pulls: FakeGitHubPulls,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 29: main's README changed after the audit read it. The open fix pull request
    still holds needed fixes: kept, untouched, and the run's output says why."""
    number = _opened(capsys)
    read = (listed / "README.md").read_text(encoding="utf-8")
    commit(listed, {"README.md": read + "- merged meanwhile\n"}, "a merge during the run")
    pulls.load_git(REPO, listed)
    (listed / "README.md").write_text(read, encoding="utf-8")  # what the audit read
    writes = len(pulls.ref_writes)
    assert main(AUDIT_FIX) == 0
    out = capsys.readouterr().out
    assert f"fix pull request kept #{number}" in out
    assert "fix pull request kept as it is: README.md changed on main since" in out
    assert [p["state"] for p in pulls.pulls_of(REPO)] == ["open"]
    assert len(pulls.ref_writes) == writes


#: arXiv's answer for Reflexion: two words off the entry's title (a safe title fix) and full
#: of what could break out of a code span, a table, an HTML comment or a <details> block.
HOSTILE_OFFICIAL = (
    "Reflexion: Language Agents with ```` <!-- </details> Verbal Reinforcement Learning | @org -->"
)


def test_a_hostile_title_from_arxiv_reaches_the_fix_pull_request_only_inert(
    checked: ArxivDouble,
    listed: Path,
    pulls: FakeGitHubPulls,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 29, held: the title is written into the list escaped (the entry reads back as
    arXiv's title), shown in the body in code spans; the branch, the commit message and the
    title are curator's own words; the only HTML comments are curator's markers."""
    checked.papers["2303.11366"] = Paper(
        "2303.11366", HOSTILE_OFFICIAL, published="2023-03-20T12:00:00Z"
    )
    _opened(capsys)
    (pull,) = [p for p in pulls.pulls_of(REPO) if p["body"].startswith(FIX_MARKER)]
    assert pull["title"] == "curator: 2 fixes from the nightly audit"
    assert "arxiv-title-mismatch" in pull["body"]
    assert_inert(pull["body"])
    comments = re.findall(
        r"<!--.*?-->", MarkdownIt("commonmark", {"html": True}).render(pull["body"])
    )
    assert comments == [FIX_MARKER, comments[1]] and "fixes-key" in comments[1]
    tip = pulls.branch(REPO, "curator/fixes")
    assert tip is not None and {ref for _, ref in pulls.refs} == {
        "heads/main",
        "heads/curator/fixes",
    }
    assert pulls.git_commits[tip]["message"] == "curator: 2 safe fixes from the nightly audit"
    fixed = (pulls.file_at(tip, "README.md") or b"").decode()
    html = MarkdownIt("commonmark", {"html": True}).render(fixed)
    assert "<!--" not in html and "</details>" not in html and "<img" not in html
    (entry,) = [e for e in entries_of("README.md", fixed) or [] if e.subject == "arxiv:2303.11366"]
    assert entry.title == HOSTILE_OFFICIAL

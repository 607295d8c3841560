"""`curator comment` with a report that carries `fixes`, as the workflows run it, against the
loopback pulls double: a same-repo pull request, a second run, a fork's run through the
workflow_run path, and forged reports that stay inert or are refused before any request."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from curator.core.model import Report
from curator.fix.suggest import suggestions
from curator.publish.review import COMMENT_MARKER, MARKER
from curator.report import json as json_report
from curator.report import markdown
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.github_pulls import FakeGitHubPulls
from tests.doubles.server import LoopbackServer
from tests.doubles.world import World
from tests.publish.world import (
    HEAD,
    REPO,
    RIGHT_TITLE,
    actions_variables,
    assert_inert,
    commit,
    finding,
    git,
    head_fixes,
    list_repo,
    pull_world,
)


def actions(
    tmp_path: Path, pulls: FakeGitHubPulls, monkeypatch: pytest.MonkeyPatch, event: dict[str, Any]
) -> Path:
    """The variables GitHub Actions sets, with this event's payload."""
    return actions_variables(tmp_path, pulls.api, event, monkeypatch)


def report() -> Report:
    """What the check of the pull request found: the two faults the fixes answer."""
    return Report(
        (),
        (
            finding("arxiv-title-mismatch", "arxiv:2305.10250", 5, RIGHT_TITLE),
            finding("arxiv-date-mismatch", "arxiv:2303.11366", 6, "2023-03"),
        ),
    )


def artifact(folder: Path, data: dict[str, Any] | None = None, name: str = "report.json") -> Path:
    """The check run's JSON report with its `fixes` (or `data` as given)."""
    path = folder / name
    if data is None:
        text = json_report.render(report(), fixes=suggestions([head_fixes()]))
    else:
        text = json.dumps(data)
    path.write_text(text, encoding="utf-8")
    return path


def ours(pulls: FakeGitHubPulls, number: int = 7) -> list[dict[str, Any]]:
    return [r for r in pulls.reviews_on(REPO, number) if r["body"].startswith(MARKER)]


def sticky(pulls: FakeGitHubPulls, number: int = 7) -> str:
    (comment,) = [c for c in pulls.comments_on(REPO, number) if markdown.MARKER in c["body"]]
    return str(comment["body"])


@pytest.mark.slow
def test_same_repo_pull_request_gets_one_review_and_a_comment_that_counts_it(
    tmp_path: Path,
    pulls: FakeGitHubPulls,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, head = pull_world(tmp_path / "list", pulls)
    event = {"pull_request": {"number": 7, "head": {"sha": head}}}
    folder = actions(tmp_path, pulls, monkeypatch, event)
    command = ["comment", "--repo", REPO, "--pr", "7", "--body-file", str(artifact(folder))]
    assert main(command) == 0
    (review,) = ours(pulls)
    assert len(pulls.comments_of(review)) == 2 and review["user"]["login"] == "github-actions[bot]"
    body = sticky(pulls)
    assert f"**2 one-click suggestions** in [curator's review]({review['html_url']})" in body
    out = capsys.readouterr().out
    assert "review posted: 2 suggestions, 0 left" in out and "comment created" in out
    outputs = (folder / "output.txt").read_text(encoding="utf-8")
    assert re.search(rf"^review-url<<\S+\n{re.escape(review['html_url'])}$", outputs, re.M)
    # A second run of the same report: nothing new on the pull request.
    posts = len(pulls.server.received(method="POST"))
    assert main(command) == 0
    assert len(ours(pulls)) == 1 and len(pulls.server.received(method="POST")) == posts
    assert "review unchanged" in capsys.readouterr().out
    assert [c["user"]["login"] for c in pulls.review_comments.values()] == [
        "github-actions[bot]"
    ] * 2


@pytest.mark.slow
def test_a_fork_pull_request_through_the_workflow_run_path(
    tmp_path: Path, pulls: FakeGitHubPulls, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fork's read-only run leaves the report; the comment job (workflow_run) finds the
    pull request by head commit and posts the review and the comment."""
    _, head = pull_world(tmp_path / "list", pulls, fork=True)
    event = {"workflow_run": {"head_sha": head, "pull_requests": [], "event": "pull_request"}}
    folder = actions(tmp_path, pulls, monkeypatch, event)
    command = ["comment", "--repo", REPO, "--head-sha", head, "--body-file", str(artifact(folder))]
    assert main(command) == 0
    (review,) = ours(pulls)
    assert review["commit_id"] == head
    assert "**2 one-click suggestions**" in sticky(pulls)
    # The fork pushes a commit that fixes the title itself: the next report suggests the date.
    fixed = head_fixes()
    one_left = suggestions([type(fixed)(fixed.file, fixed.before, fixed.edits[1:])])
    later = json_report.render(report(), fixes=one_left)
    (folder / "report.json").write_text(later, encoding="utf-8")
    assert main(command) == 0
    (same,) = ours(pulls)
    assert same["id"] == review["id"] and len(pulls.comments_of(same)) == 1
    assert "**1 one-click suggestion**" in sticky(pulls)


def test_suggestions_can_be_turned_off_by_the_trusted_side(
    tmp_path: Path, pulls: FakeGitHubPulls, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, head = pull_world(tmp_path / "list", pulls, fork=True)
    folder = actions(tmp_path, pulls, monkeypatch, {"workflow_run": {"head_sha": head}})
    command = ["comment", "--repo", REPO, "--head-sha", head, "--body-file", str(artifact(folder))]
    assert main([*command, "--no-suggest"]) == 0
    assert pulls.reviews == {} and "one-click" not in sticky(pulls)


def test_a_review_that_cannot_be_posted_still_leaves_the_comment(
    tmp_path: Path,
    pulls: FakeGitHubPulls,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pull_world(tmp_path / "list", pulls)
    folder = actions(tmp_path, pulls, monkeypatch, {})
    command = ["comment", "--repo", REPO, "--pr", "8", "--body-file", str(artifact(folder))]
    assert main(command) == 0  # no pull request 8: the review fails, the comment goes out
    assert "no suggestions posted: GitHub GET pull: HTTP 404" in capsys.readouterr().err
    assert pulls.reviews == {} and "one-click" not in sticky(pulls, 8)


# -- forged reports (a fork controls its artifact) ---------------------------------------


def forged(**changes: Any) -> dict[str, Any]:
    """The real report with its first fix changed."""
    data = json.loads(json_report.render(report(), fixes=suggestions([head_fixes()])))
    data["fixes"][0].update(changes)
    return data


HOSTILE_TITLE = "```\n@org/team <img src=x onerror=alert(1)> ](javascript:alert(1)) ~~~"


@pytest.mark.parametrize(
    ("changes", "where"),
    [
        ({"file": "../../etc/passwd"}, "fixes/0: the file is not a plain path inside the tree"),
        ({"file": "/etc/passwd"}, "fixes/0: the file is not a plain path inside the tree"),
        ({"file": ".git/config"}, "fixes/0: the file is not a plain path inside the tree"),
        ({"file": "a\\..\\b"}, "fixes/0: the file is not a plain path inside the tree"),
        ({"first": 0}, "fixes/0/first"),
        ({"last": 10**9}, "fixes/0/last"),
        ({"first": 6, "last": 5}, "fixes/0: the lines and the text do not match"),
        ({"new": HOSTILE_TITLE}, "fixes/0: the lines and the text do not match"),
        ({"codes": ["arxiv-title-mismatch](javascript:x)"]}, "fixes/0/codes/0"),
        ({"codes": []}, "fixes/0/codes"),
        ({"new": "x\x1b[31m\n"}, "fixes/0: the text holds control characters"),
        ({"safe": "yes"}, "fixes/0/safe"),
        ({"extra": 1}, "fixes/0"),
    ],
)
def test_a_malformed_fix_refuses_the_report_before_any_request(
    tmp_path: Path,
    pulls: FakeGitHubPulls,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    changes: dict[str, Any],
    where: str,
) -> None:
    actions(tmp_path, pulls, monkeypatch, {})
    path = artifact(tmp_path, forged(**changes))
    assert main(["comment", "--repo", REPO, "--pr", "7", "--body-file", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and where in err, err
    assert pulls.server.requests == []


def test_huge_counts_are_refused(
    tmp_path: Path, pulls: FakeGitHubPulls, monkeypatch: pytest.MonkeyPatch
) -> None:
    actions(tmp_path, pulls, monkeypatch, {})
    data = forged()
    data["fixes"] = data["fixes"] * 600
    path = artifact(tmp_path, data)
    command = ["comment", "--repo", REPO, "--head-sha", "a" * 40, "--body-file", str(path)]
    assert main(command) == 2
    assert pulls.server.requests == []  # refused before the pull request is even looked up


def test_hostile_text_in_a_well_formed_fix_stays_inert(
    tmp_path: Path, pulls: FakeGitHubPulls, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fork's report may say anything that fits the shape: a title full of fences,
    mentions, HTML and javascript links, a subject like it. The suggestion shows it as the
    line's new text in a longer fence; nothing outside the block pings, links or renders."""
    _, head = pull_world(tmp_path / "list", pulls, fork=True)
    folder = actions(tmp_path, pulls, monkeypatch, {"workflow_run": {"head_sha": head}})
    line = HOSTILE_TITLE.replace("\n", " ") + " ````` ``````"
    data = forged(
        new=f"- [{line}](https://arxiv.org/abs/2305.10250) (2023-05)\n",
        subject="@org/team ](javascript:alert(1)) <b>x</b>",
    )
    data["findings"][0]["message"] = "@org/team <img src=x>"
    path = artifact(folder, data)
    assert main(["comment", "--repo", REPO, "--head-sha", head, "--body-file", str(path)]) == 0
    (review,) = ours(pulls)
    for comment in pulls.comments_of(review):
        assert comment["body"].startswith(COMMENT_MARKER)
        assert_inert(comment["body"])
    assert "```````suggestion\n- [```" in pulls.comments_of(review)[0]["body"]
    assert_inert(review["body"])
    assert_inert(sticky(pulls))


def test_a_fix_whose_old_lines_are_not_the_heads_is_dropped(
    tmp_path: Path, pulls: FakeGitHubPulls, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forged (or stale) `old` is checked against the pull request's own diff: dropped."""
    _, head = pull_world(tmp_path / "list", pulls, fork=True)
    folder = actions(tmp_path, pulls, monkeypatch, {"workflow_run": {"head_sha": head}})
    lie = HEAD.splitlines()[2] + "\n"  # MemGPT's line, claimed to be on line 5
    path = artifact(folder, forged(old=lie, new=lie.replace("MemGPT", "EvilGPT")))
    assert main(["comment", "--repo", REPO, "--head-sha", head, "--body-file", str(path)]) == 0
    (review,) = ours(pulls)
    assert [c["line"] for c in pulls.comments_of(review)] == [6]
    assert "1 more fix could not be placed" in sticky(pulls)


def test_a_fork_cannot_suggest_a_change_to_a_line_its_pull_request_left_alone(
    tmp_path: Path, pulls: FakeGitHubPulls, monkeypatch: pytest.MonkeyPatch
) -> None:
    """MemGPT's line is shown on the diff as context around the pull request's two new
    entries, with its real text: a forged report that suggests a new link for it is still
    dropped, since the pull request did not change that line (someone else's entry)."""
    _, head = pull_world(tmp_path / "list", pulls, fork=True)
    folder = actions(tmp_path, pulls, monkeypatch, {"workflow_run": {"head_sha": head}})
    memgpt = HEAD.splitlines()[2] + "\n"  # line 3, unchanged
    evil = memgpt.replace("https://arxiv.org/abs/2310.08560", "https://evil.example/x")
    path = artifact(folder, forged(first=3, last=3, old=memgpt, new=evil))
    assert main(["comment", "--repo", REPO, "--head-sha", head, "--body-file", str(path)]) == 0
    (review,) = ours(pulls)
    assert [c["line"] for c in pulls.comments_of(review)] == [6]
    assert "evil.example" not in str(pulls.review_comments)
    assert "1 more fix could not be placed" in sticky(pulls)


# -- check --suggest, then comment: the plan is curator fix's own ---------------------------
ADDED_ID = "2305.10250"
HOSTILE_LINE = (
    "- [2023/01] **MemoryBank: Enhancing Large Language Models with Long-Term Memory.** "
    "[[paper](https://arxiv.org/abs/2305.10250)] ```` @org/team <img src=x> "
    "[x](javascript:alert(1)) </details>\n"
)


@pytest.fixture
def arxiv_server() -> Iterator[LoopbackServer]:
    """A loopback server of its own for the arXiv double (the GitHub double takes every
    path of the shared one)."""
    with LoopbackServer() as server:
        yield server


@pytest.mark.slow
def test_a_pull_request_line_full_of_markup_is_suggested_inside_a_longer_fence(
    tmp_path: Path,
    pulls: FakeGitHubPulls,
    monkeypatch: pytest.MonkeyPatch,
    arxiv_server: LoopbackServer,
) -> None:
    """The date of an entry whose line a contributor filled with fences, a team mention,
    HTML and a javascript link: the suggestion holds that line with the date fixed, in a
    fence longer than its backtick run; outside the block nothing pings, links or renders."""
    arxiv = ArxivDouble({ADDED_ID: Paper(ADDED_ID, RIGHT_TITLE, published="2023-05-17T12:00:00Z")})
    folder = tmp_path / "list"
    base, _ = list_repo(folder, base="# Awesome\n\n", head=None)
    git(folder, "checkout", "-q", "-b", "add-entry")
    head = commit(folder, {"README.md": "# Awesome\n\n" + HOSTILE_LINE}, "add MemoryBank")
    pulls.load_git(REPO, folder)
    pulls.add_pull(REPO, 7, head, True, base_sha=base)
    actions(tmp_path, pulls, monkeypatch, {"workflow_run": {"head_sha": head}})
    World.start(arxiv_server, folder, arxiv=arxiv, cache="").point(monkeypatch)
    monkeypatch.chdir(folder)
    report = tmp_path / "report.json"
    check = [
        "check",
        "README.md",
        "--changed-since",
        base,
        "--skip",
        "github,web,scope",
        "--suggest",
        "--format",
        "json",
        "--output",
        str(report),
    ]
    # A date is a warning; the line's `<img src=x>` names no file of the list (an error).
    assert main(check) == 1
    written = json.loads(report.read_text(encoding="utf-8"))
    assert {f["code"] for f in written["findings"]} == {"arxiv-date-mismatch", "file-missing"}
    (fix,) = written["fixes"]
    assert fix["codes"] == ["arxiv-date-mismatch"] and fix["first"] == fix["last"] == 3
    assert main(["comment", "--repo", REPO, "--head-sha", head, "--body-file", str(report)]) == 0
    (review,) = ours(pulls)
    (comment,) = pulls.comments_of(review)
    assert f"`````suggestion\n{fix['new'].rstrip()}\n`````" in comment["body"]
    assert "[2023/05]" in fix["new"] and "@org/team" in fix["new"]
    assert_inert(comment["body"].split("`````suggestion")[0])
    assert_inert(sticky(pulls))

"""GitHub failing in the middle of the nightly fix pull request or of the review (issue 29):
409, 422 and 500 answers, a 500 or a lost answer after the write took effect, at each
request. Nothing is lost (an open pull request is never closed by a failure, a review is
never left half cleared), nothing piles up (one branch, one pull request, one review holding
suggestions), and the next run repairs what the failed one left."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from curator.fix.suggest import suggestions
from curator.publish.api import GitHubAPI, PublishError
from curator.publish.fixpr import MARKER as FIX_MARKER
from curator.publish.fixpr import FixPRResult, run_fix_pr
from curator.publish.review import MARKER as REVIEW_MARKER
from curator.publish.review import post_suggestions
from curator.report.context import RenderContext
from tests.doubles.github_pulls import FakeGitHubPulls, Fault
from tests.doubles.server import LoopbackServer
from tests.publish.world import HEAD, REPO, commit, head_fixes, list_repo, pull_world

CTX = RenderContext(repository=REPO, title="curator audit")
BRANCH = "curator/fixes"
LOGINS = frozenset({"curator-bot", "github-actions[bot]"})

#: What each kind of fault is: (status, times, after, reset).
KINDS = {
    "409": (409, 1, False, False),
    "422": (422, 1, False, False),
    "422-always": (422, 99, False, False),
    "500-once": (500, 1, False, False),
    "500-always": (500, 99, False, False),
    "500-after-the-write": (500, 1, True, False),
    "answer-lost-after-the-write": (0, 1, True, True),
}
#: The requests of a run that opens the pull request, and of one that updates it.
OPENING = {
    "POST blob": ("POST", r"/git/blobs$"),
    "POST tree": ("POST", r"/git/trees$"),
    "POST commit": ("POST", r"/git/commits$"),
    "POST ref": ("POST", r"/git/refs$"),
    "POST pull": ("POST", r"/pulls$"),
    "GET pulls": ("GET", r"/pulls$"),
    "GET tree": ("GET", r"/git/trees/"),
}
UPDATING = {
    **{k: v for k, v in OPENING.items() if k not in ("POST ref", "POST pull")},
    "PATCH ref": ("PATCH", r"/git/refs/heads/curator/fixes$"),
    "PATCH pull": ("PATCH", r"/pulls/\d+$"),
}
_WRITES = ("POST blob", "POST tree", "POST commit")
#: Every request failing for the whole run; every write taking effect with its answer lost;
#: and GitHub's refusals where they come (a ref that exists or moved, a pull request refused).
OPEN_CASES = [
    *((point, "500-always") for point in OPENING),
    *((point, "answer-lost-after-the-write") for point in (*_WRITES, "POST ref", "POST pull")),
    ("POST ref", "409"), ("POST ref", "422"), ("POST ref", "500-after-the-write"),
    ("POST pull", "422"), ("POST pull", "500-after-the-write"), ("POST blob", "500-once"),
]  # fmt: skip
UPDATE_CASES = [
    *((point, "500-always") for point in UPDATING),
    *((point, "answer-lost-after-the-write") for point in ("POST commit", "PATCH ref")),
    ("PATCH pull", "answer-lost-after-the-write"),
    ("PATCH ref", "409"), ("PATCH ref", "422"), ("PATCH pull", "422"),
    ("PATCH pull", "500-after-the-write"),
]  # fmt: skip


MOVED = HEAD + "- [A merged entry](https://example.org/merged)\n"


@dataclass(frozen=True)
class Git:
    """The list's git objects, made once: main at HEAD; `merged` one commit on (a merge)."""

    blobs: dict[str, bytes]
    trees: dict[str, dict[str, tuple[str, str]]]
    commits: dict[str, dict[str, Any]]
    main: str
    merged: str


@pytest.fixture(scope="module")
def git_objects(tmp_path_factory: pytest.TempPathFactory) -> Git:
    folder = tmp_path_factory.mktemp("faults") / "list"
    main, _ = list_repo(folder, base=HEAD, head=None)
    merged = commit(folder, {"README.md": MOVED}, "merged since")
    loaded = FakeGitHubPulls(LoopbackServer())  # never started: only its git objects
    loaded.load_git(REPO, folder)
    return Git(loaded.blobs, loaded.trees, loaded.git_commits, main, merged)


def _seed(pulls: FakeGitHubPulls, git: Git) -> None:
    """The double holds the list's objects, main at its first commit."""
    pulls.blobs.update(git.blobs)
    pulls.trees.update({k: dict(v) for k, v in git.trees.items()})
    pulls.git_commits.update({k: dict(v) for k, v in git.commits.items()})
    pulls.refs[(REPO, "heads/main")] = git.main


def _fault(point: tuple[str, str], kind: str) -> Fault:
    status, times, after, reset = KINDS[kind]
    return Fault(point[0], point[1], status or 500, times=times, after=after, reset=reset)


def _fix_prs(pulls: FakeGitHubPulls) -> list[dict[str, object]]:
    return [p for p in pulls.pulls_of(REPO) if str(p["body"]).startswith(FIX_MARKER)]


def _attempt(pulls_api: GitHubAPI, fixes: list[object]) -> FixPRResult | PublishError:
    try:
        return run_fix_pr(pulls_api, REPO, fixes, CTX)  # type: ignore[arg-type]
    except PublishError as exc:  # the only failure a run may end with (one line, exit 2)
        return exc


def _assert_repaired(pulls: FakeGitHubPulls, text: str, number: int | None) -> None:
    """One open fix pull request (the same one when there was one), one branch holding the
    fixes on main's head, no other ref written."""
    (pull,) = _fix_prs(pulls)
    assert pull["state"] == "open"
    if number is not None:
        assert pull["number"] == number
    assert {ref for repo, ref in pulls.refs if repo == REPO} == {"heads/main", f"heads/{BRANCH}"}
    tip = pulls.branch(REPO, BRANCH)
    assert tip is not None and pulls.git_commits[tip]["parents"] == [pulls.branch(REPO, "main")]
    assert pulls.file_at(tip, "README.md") == head_fixes(text).after.encode()


@pytest.mark.parametrize(("point", "kind"), OPEN_CASES)
def test_a_failure_while_opening_the_fix_pull_request(
    point: str, kind: str, git_objects: Git, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    _seed(pulls, git_objects)
    main = pulls.branch(REPO, "main")
    pulls.faults = [_fault(OPENING[point], kind)]
    first = _attempt(pulls_api, [head_fixes()])
    assert pulls.faults[0].served >= 1
    if point in ("POST ref", "POST pull") and kind.endswith("after-the-write"):
        # The write took effect: this run finds that out and goes on.
        assert isinstance(first, FixPRResult) and first.action == "opened", first
    assert len(_fix_prs(pulls)) <= 1 and pulls.branch(REPO, "main") == main
    pulls.faults = []
    second = run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    assert second.action in ("opened", "updated", "unchanged"), (first, second)
    _assert_repaired(pulls, HEAD, None)
    assert pulls.branch(REPO, "main") == main


@pytest.mark.parametrize(("point", "kind"), UPDATE_CASES)
def test_a_failure_while_updating_the_fix_pull_request(
    point: str, kind: str, git_objects: Git, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    _seed(pulls, git_objects)
    opened = run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    pulls.refs[(REPO, "heads/main")] = git_objects.merged
    moved = MOVED
    pulls.faults = [_fault(UPDATING[point], kind)]
    _attempt(pulls_api, [head_fixes(moved)])
    assert pulls.faults[0].served >= 1
    (pull,) = _fix_prs(pulls)
    assert pull["state"] == "open" and pulls.branch(REPO, BRANCH) is not None
    pulls.faults = []
    again = run_fix_pr(pulls_api, REPO, [head_fixes(moved)], CTX)
    assert again.number == opened.number
    _assert_repaired(pulls, moved, opened.number)


CLOSING = {
    "PATCH pull": ("PATCH", r"/pulls/\d+$"),
    "DELETE ref": ("DELETE", r"/git/refs/heads/curator/fixes$"),
}
CLOSE_CASES = [
    ("PATCH pull", "500-always"),
    ("PATCH pull", "answer-lost-after-the-write"),
    ("DELETE ref", "500-always"),
    ("DELETE ref", "answer-lost-after-the-write"),
]


@pytest.mark.parametrize(("point", "kind"), CLOSE_CASES)
def test_a_failure_while_closing_the_fix_pull_request(
    point: str, kind: str, git_objects: Git, pulls: FakeGitHubPulls, pulls_api: GitHubAPI
) -> None:
    """Nothing left to fix: closed and its branch deleted, by this run or the next."""
    _seed(pulls, git_objects)
    opened = run_fix_pr(pulls_api, REPO, [head_fixes()], CTX)
    pulls.faults = [_fault(CLOSING[point], kind)]
    first = _attempt(pulls_api, [])
    assert pulls.faults[0].served >= 1
    if point == "DELETE ref" and kind == "answer-lost-after-the-write":
        assert isinstance(first, FixPRResult) and first.action == "closed"  # done is done
    pulls.faults = []
    again = run_fix_pr(pulls_api, REPO, [], CTX)
    assert again.action in ("closed", "none")
    (pull,) = _fix_prs(pulls)
    assert pull["state"] == "closed" and pull["number"] == opened.number
    assert pulls.branch(REPO, BRANCH) is None


# -- the review of suggestions -----------------------------------------------------------------

REVIEW_POINTS = {
    "POST review": ("POST", r"/pulls/7/reviews$"),
    "PUT review": ("PUT", r"/pulls/7/reviews/\d+$"),
    "DELETE review comment": ("DELETE", r"/pulls/comments/\d+$"),
    "DELETE pending review": ("DELETE", r"/pulls/7/reviews/\d+$"),
}
#: (what the run does, where it fails, how): the first review; a review replacing an
#: earlier one; and the one-by-one probing after GitHub refused a comment off the diff.
REVIEW_CASES = [
    ("first", "POST review", "500-always"),
    ("first", "POST review", "answer-lost-after-the-write"),
    ("first", "POST review", "422-always"),
    ("replace", "POST review", "500-always"),
    ("replace", "POST review", "answer-lost-after-the-write"),
    ("replace", "DELETE review comment", "500-always"),
    ("replace", "PUT review", "500-always"),
    ("replace", "DELETE review comment", "answer-lost-after-the-write"),
    ("probe", "DELETE pending review", "500-always"),
    ("probe", "DELETE pending review", "answer-lost-after-the-write"),
]


def _holding(pulls: FakeGitHubPulls) -> list[dict[str, Any]]:
    """curator's reviews on pull request 7 that hold suggestions."""
    return [
        r
        for r in pulls.reviews_on(REPO, 7)
        if str(r["body"]).startswith(REVIEW_MARKER) and pulls.comments_of(r)
    ]


@pytest.mark.parametrize(("run", "point", "kind"), REVIEW_CASES)
def test_a_failure_while_posting_the_review(
    run: str,
    point: str,
    kind: str,
    tmp_path: Path,
    pulls: FakeGitHubPulls,
    pulls_api: GitHubAPI,
) -> None:
    _, head = pull_world(tmp_path / "list", pulls)
    wanted = suggestions([head_fixes()])
    if run == "replace":
        post_suggestions(pulls_api, REPO, 7, wanted[:1], LOGINS, head)
    if run == "probe":
        pulls.refuse_lines = {("README.md", 6)}  # "line must be part of the diff"
    pulls.faults = [_fault(REVIEW_POINTS[point], kind)]
    try:
        first = post_suggestions(pulls_api, REPO, 7, wanted, LOGINS, head).action
    except PublishError:  # `curator comment` says so and still posts its comment
        first = "failed"
    assert pulls.faults[0].served >= 1
    if point.startswith("DELETE") and kind == "answer-lost-after-the-write":
        assert first == "posted"  # a DELETE whose answer was lost, retried: done is done
    if run == "replace":  # what the earlier review offered is still offered
        assert _holding(pulls)
    pulls.faults, pulls.refuse_lines = [], set()
    again = post_suggestions(pulls_api, REPO, 7, wanted, LOGINS, head)
    assert again.posted == 2
    (review,) = _holding(pulls)
    assert len(pulls.comments_of(review)) == 2 and review["state"] == "COMMENTED"
    assert all(r["state"] != "PENDING" for r in pulls.reviews.values())

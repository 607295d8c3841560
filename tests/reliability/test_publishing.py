"""Publishing under failure (issue 29): GitHub answering 409, 422 or 500, or a write taking
effect with its answer lost, at each request of the nightly fix pull request (opening,
updating, closing it) and of the review of suggestions. Nothing is lost (an open pull request
is never closed by a failure, what an earlier review offered is still offered), nothing piles
up (one branch, one pull request, one review holding suggestions), and the next run repairs
what the failed one left. One row per request: every kind of failure tried there, each on a
fresh double. Also: a merge on the default branch during the audit keeps the fix pull
request as it is."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from curator.fix.model import Edit, FileFix
from curator.fix.suggest import suggestions
from curator.publish.api import GitHubAPI, PublishError
from curator.publish.comment import upsert_comment
from curator.publish.fixpr import MARKER as FIX_MARKER
from curator.publish.fixpr import FixPRResult, run_fix_pr
from curator.publish.review import MARKER as REVIEW_MARKER
from curator.publish.review import post_suggestions
from curator.report import markdown
from curator.report.render_context import RenderContext
from tests.doubles.github_pulls import FakeGitHubPulls, Fault
from tests.doubles.server import LoopbackServer
from tests.publish.world import HEAD, REPO, RIGHT_TITLE, commit, head_fixes, list_repo, pull_world
from tests.reliability.conftest import Record
from tests.report.sample import CTX as SAMPLE_CTX
from tests.report.sample import realistic_report

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
_OPEN_CASES = [
    *((point, "500-always") for point in OPENING),
    *((point, "answer-lost-after-the-write") for point in (*_WRITES, "POST ref", "POST pull")),
    ("POST ref", "409"), ("POST ref", "422"), ("POST ref", "500-after-the-write"),
    ("POST pull", "422"), ("POST pull", "500-after-the-write"), ("POST blob", "500-once"),
]  # fmt: skip
_UPDATE_CASES = [
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


CLOSING = {
    "PATCH pull": ("PATCH", r"/pulls/\d+$"),
    "DELETE ref": ("DELETE", r"/git/refs/heads/curator/fixes$"),
}
_CLOSE_CASES = [
    (point, kind) for point in CLOSING for kind in ("500-always", "answer-lost-after-the-write")
]
REVIEW_POINTS = {
    "POST review": ("POST", r"/pulls/7/reviews$"),
    "PUT review": ("PUT", r"/pulls/7/reviews/\d+$"),
    "DELETE review comment": ("DELETE", r"/pulls/comments/\d+$"),
    "DELETE pending review": ("DELETE", r"/pulls/7/reviews/\d+$"),
}
#: (what the run does, where it fails, how): the first review; a review replacing an
#: earlier one; and the one-by-one probing after GitHub refused a comment off the diff.
_REVIEW_CASES = [
    ("first", "POST review", "500-always"),
    ("first", "POST review", "answer-lost-after-the-write"),
    ("first", "POST review", "422-always"),
    ("replace", "POST review", "500-always"),
    ("replace", "POST review", "answer-lost-after-the-write"),
    ("replace", "DELETE review comment", "500-always"),
    ("replace", "DELETE review comment", "answer-lost-after-the-write"),
    ("replace", "PUT review", "500-always"),
    ("probe", "DELETE pending review", "500-always"),
    ("probe", "DELETE pending review", "answer-lost-after-the-write"),
]


def _slug(point: str) -> str:
    return point.lower().replace(" ", "-")


def _kinds(cases: list[tuple[str, str]]) -> dict[str, list[str]]:
    """point -> the kinds of failure tried there."""
    out: dict[str, list[str]] = {}
    for point, kind in cases:
        out.setdefault(point, []).append(kind)
    return out


#: case -> (run, point, kinds)
FIX_PR = {
    **{f"fix-pr-opening-{_slug(p)}": ("opening", p, k) for p, k in _kinds(_OPEN_CASES).items()},
    **{f"fix-pr-updating-{_slug(p)}": ("updating", p, k) for p, k in _kinds(_UPDATE_CASES).items()},
    **{f"fix-pr-closing-{_slug(p)}": ("closing", p, k) for p, k in _kinds(_CLOSE_CASES).items()},
}  # fmt: skip
REVIEW = {
    f"review-{run}-{_slug(point)}": (run, point, [k for r, q, k in _REVIEW_CASES if (r, q) == key])
    for run, point, _ in _REVIEW_CASES
    for key in [(run, point)]
}
CASES = {
    **dict.fromkeys(FIX_PR, "state"),
    **dict.fromkeys(REVIEW, "state"),
    "fix-pr-merge-during-the-run": "state",
    "closed-marker-quoted-from-the-list": "hostile",
    "clean-marker-quoted-in-a-suggestion": "hostile",
}


@contextlib.contextmanager
def _github() -> Iterator[tuple[FakeGitHubPulls, GitHubAPI]]:
    """A fresh pulls double on its own loopback server, and an Actions client of it."""
    with LoopbackServer() as server:
        pulls = FakeGitHubPulls(server, user_forbidden=True)
        with GitHubAPI(pulls.api, "ghs_actions_token", sleep=lambda s: None) as api:
            yield pulls, api


def _fix_pr_once(run: str, point: str, kind: str, git: Git) -> str:
    """One fix pull request run failing at `point` in the way `kind`, then one clean run;
    what the failed run did."""
    with _github() as (pulls, api):
        _seed(pulls, git)
        opened = None if run == "opening" else run_fix_pr(api, REPO, [head_fixes()], CTX)
        text = MOVED if run == "updating" else HEAD
        if run == "updating":
            pulls.refs[(REPO, "heads/main")] = git.merged
        points = {"opening": OPENING, "updating": UPDATING, "closing": CLOSING}[run]
        pulls.faults = [_fault(points[point], kind)]
        fixes = [] if run == "closing" else [head_fixes(text)]
        first = _attempt(api, fixes)
        assert pulls.faults[0].served >= 1
        if opened is not None and run != "closing":  # never closed by a failure
            (pull,) = _fix_prs(pulls)
            assert pull["state"] == "open" and pulls.branch(REPO, BRANCH) is not None
        if kind.endswith("after-the-write") and (
            point in ("POST ref", "POST pull") or point == "DELETE ref"
        ):
            # The write took effect: this run finds that out and goes on.
            assert isinstance(first, FixPRResult), first
        pulls.faults = []
        again = run_fix_pr(api, REPO, fixes, CTX)
        number = opened.number if opened is not None else None
        if run == "closing":
            (pull,) = _fix_prs(pulls)
            assert again.action in ("closed", "none") and pull["state"] == "closed"
            assert pull["number"] == number and pulls.branch(REPO, BRANCH) is None
        else:
            assert again.action in ("opened", "updated", "unchanged"), (first, again)
            _assert_repaired(pulls, text, number)
        return first.action if isinstance(first, FixPRResult) else "failed"


@pytest.mark.parametrize("case", list(FIX_PR))
def test_the_fix_pull_request_under_failure(case: str, git_objects: Git, record: Record) -> None:
    run, point, kinds = FIX_PR[case]
    started = time.monotonic()
    said = [f"{kind}: {_fix_pr_once(run, point, kind, git_objects)}" for kind in kinds]
    outcome = {"opening": "one PR, one branch", "updating": "the same PR, rebuilt",
               "closing": "closed, branch gone"}[run]  # fmt: skip
    record(
        case,
        f"{'; '.join(said)}; after the next run: {outcome}",
        faults=len(kinds),
        seconds=time.monotonic() - started,
    )


def _holding(pulls: FakeGitHubPulls) -> list[dict[str, Any]]:
    """curator's reviews on pull request 7 that hold suggestions."""
    return [
        r
        for r in pulls.reviews_on(REPO, 7)
        if str(r["body"]).startswith(REVIEW_MARKER) and pulls.comments_of(r)
    ]


def _review_once(run: str, point: str, kind: str, folder: Path) -> str:
    """One review run failing at `point` in the way `kind`, then one clean run; what the
    failed run did."""
    with _github() as (pulls, api):
        _, head = pull_world(folder, pulls)
        wanted = suggestions([head_fixes()])
        if run == "replace":
            post_suggestions(api, REPO, 7, wanted[:1], LOGINS, head)
        if run == "probe":
            pulls.refuse_lines = {("README.md", 6)}  # "line must be part of the diff"
        pulls.faults = [_fault(REVIEW_POINTS[point], kind)]
        try:
            first = post_suggestions(api, REPO, 7, wanted, LOGINS, head).action
        except PublishError:  # `curator comment` says so and still posts its comment
            first = "failed"
        assert pulls.faults[0].served >= 1
        if kind == "answer-lost-after-the-write":
            # A review GitHub took is found by the same run; a DELETE retried after a lost
            # answer (404) is done.
            assert first == "posted"
        if run == "replace":  # what the earlier review offered is still offered
            assert _holding(pulls)
        pulls.faults, pulls.refuse_lines = [], set()
        again = post_suggestions(api, REPO, 7, wanted, LOGINS, head)
        assert again.posted == 2
        (review,) = _holding(pulls)
        assert len(pulls.comments_of(review)) == 2 and review["state"] == "COMMENTED"
        assert all(r["state"] != "PENDING" for r in pulls.reviews.values())
        return first


@pytest.mark.parametrize("case", list(REVIEW))
def test_the_review_under_failure(case: str, tmp_path: Path, record: Record) -> None:
    run, point, kinds = REVIEW[case]
    started = time.monotonic()
    said = [f"{kind}: {_review_once(run, point, kind, tmp_path / kind)}" for kind in kinds]
    record(
        case,
        f"{'; '.join(said)}; after the next run: one review holds both suggestions",
        faults=len(kinds),
        seconds=time.monotonic() - started,
    )


def test_a_merge_during_the_run_keeps_the_fix_pull_request(
    git_objects: Git, record: Record
) -> None:
    """Issue 29: the README changed on main after the audit read it. Its fixes cannot be
    written on the new head, but nothing says they are gone: the pull request, its branch
    and its discussion stay; the next audit (which reads the new head) updates it."""
    with _github() as (pulls, api):
        _seed(pulls, git_objects)
        opened = run_fix_pr(api, REPO, [head_fixes()], CTX)
        (pull,) = _fix_prs(pulls)
        body, tip, writes = pull["body"], pulls.branch(REPO, BRANCH), list(pulls.ref_writes)
        pulls.refs[(REPO, "heads/main")] = git_objects.merged  # merged during the audit
        kept = run_fix_pr(api, REPO, [head_fixes()], CTX)
        assert (kept.action, kept.number) == ("kept", opened.number)
        assert "README.md changed on main since the audit read it" in kept.why
        assert kept.left == ("README.md: changed on the default branch since it was read",)
        assert [p["state"] for p in _fix_prs(pulls)] == ["open"] and pull["body"] == body
        assert pulls.branch(REPO, BRANCH) == tip and pulls.ref_writes == writes
        again = run_fix_pr(api, REPO, [head_fixes(MOVED)], CTX)  # the next night
        assert (again.action, again.number) == ("updated", opened.number)
        _assert_repaired(pulls, MOVED, opened.number)
        assert run_fix_pr(api, REPO, [], CTX).action == "closed"  # fixes really gone
    record(
        "fix-pr-merge-during-the-run",
        "kept as it is (was: closed, branch deleted); the next night updates the same PR",
        figures={"pull requests": 1},
    )


# -- curator's own markers quoted in values (issue 29) -----------------------------------------


def test_a_marker_quoted_from_the_list_does_not_undo_a_maintainers_decline(
    tmp_path: Path, record: Record
) -> None:
    """The body shows each old value in a code span, raw. A title in the list holding
    curator's own "closed by curator" marker put it in the body, so a pull request a
    maintainer closed read as closed by curator: opened again every night."""
    wrong = "MemoryBank: A Wrong Title <!-- curator:closed -->"
    text = HEAD.replace("MemoryBank: A Wrong Title", wrong)
    list_repo(tmp_path / "list", base=text, head=None)
    start = text.index(wrong)
    found = head_fixes().edits[0].finding
    fix = FileFix("README.md", text, (Edit("README.md", start, start + len(wrong), wrong,
                                           RIGHT_TITLE, found),))  # fmt: skip
    with _github() as (pulls, api):
        pulls.load_git(REPO, tmp_path / "list")
        assert run_fix_pr(api, REPO, [fix], CTX).action == "opened"
        (pull,) = _fix_prs(pulls)
        assert "`MemoryBank: A Wrong Title <!-- curator:closed -->`" in str(pull["body"])
        pull["state"] = "closed"  # closed by hand, not merged
        assert run_fix_pr(api, REPO, [fix], CTX).action == "declined"
        assert len(_fix_prs(pulls)) == 1
    record(
        "closed-marker-quoted-from-the-list",
        "declined stays declined (was: opened again every night); markers count as whole lines",
        hostile=1,
        refused=1,
    )


def test_a_marker_quoted_in_a_value_does_not_make_a_report_clean(record: Record) -> None:
    """A value shown raw in a code span (a suggestion: arXiv's title, a redirect target)
    holding curator's "clean" marker made a report with errors read as clean: no comment
    was posted at all."""
    report = realistic_report()
    quoted = "A Title <!-- curator:clean -->"
    report = replace(report, findings=tuple(replace(f, suggestion=quoted) for f in report.findings))
    body = markdown.render(report, SAMPLE_CTX)
    assert f"`{quoted}`" in body and not markdown.is_clean(report)
    with _github() as (pulls, api):
        assert upsert_comment(api, REPO, 7, body).action == "created"
        assert len(pulls.comments_on(REPO, 7)) == 1
    record(
        "clean-marker-quoted-in-a-suggestion",
        "comment created (was: skipped as clean with errors in the report)",
        hostile=1,
        refused=1,
    )

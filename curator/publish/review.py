"""One-click suggestions on a pull request: the report's `fixes` as review comments holding a
```` ```suggestion ```` block, all in one review per run, curator's earlier ones cleared.

What GitHub allows decides how earlier reviews are cleared: a submitted review cannot be
deleted (only a pending one), dismissal applies to approvals and change requests only ("Can
not dismiss a commented pull request review"), but a review's body can be edited and its
comments deleted. So a run whose suggestions are all in one earlier review, still on the
same lines with the same text, keeps that review: it deletes the comments no longer wanted
(applied, outdated) and brings the body up to date. Otherwise it posts one COMMENT review
with every suggestion, then deletes the comments of curator's earlier reviews and cuts their
bodies to one line saying so. One review holds suggestions at any time. Ours means the marker
at the start of the body AND an author of ours (comment.authors). A run that failed half way
(a review posted, the earlier one not yet cleared; a probe left pending) is finished by the
next: the newest review holding every suggestion is kept, copies elsewhere are deleted, and a
DELETE answered 404 (gone already) is done. A review whose POST failed but was taken (the
answer lost) is found by the same run.

A review is all or nothing: one comment on a line outside the diff is a 422 for the whole
review. Each suggestion is placed only on lines the pull request adds (`+` lines of its files'
patches, which show the head's lines; never the context lines around them, which belong to
entries it left alone) whose text is the suggestion's `old` (a stale or forged one is
dropped); if GitHub still answers 422, each comment is tried alone in a pending review, deleted
at once, and the review is posted with those GitHub takes.

The suggestions of a fork's run come from its artifact, which the fork controls: their text
goes only inside a fence longer than any backtick run in it, the rest of each body is built
here from sanitised values, and a text with control, bidi or invisible characters is dropped.

This module posts and clears the reviews and writes their bodies; which suggestions can be
placed on the diff is review_place.py's.
"""

from __future__ import annotations

import contextlib
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import github

from curator.console import sanitize as s
from curator.core.codes import CODES
from curator.fix.suggest import Suggestion
from curator.publish.api import GitHubAPI, PublishError, is_ours, valid_repo
from curator.publish.review_place import fence, place, suggestion_block
from curator.report.render_context import Suggested

MARKER = "<!-- curator:suggestions -->"
COMMENT_MARKER = "<!-- curator:suggestion -->"
SUPERSEDED = f"{MARKER}\n*curator: these suggestions were replaced by a later review.*"
CLEARED = f"{MARKER}\n*curator: no suggestions left; they were applied or are not needed.*"


@dataclass(frozen=True)
class ReviewResult:
    """What the run did: posted (a new review), updated or unchanged (the earlier review
    kept), cleared, none, or stale (the pull request moved on after the run); how many
    suggestions the review holds, how many fixes were left, how many comments deleted."""

    action: str
    posted: int = 0
    left: int = 0
    url: str = ""
    deleted: int = 0

    @property
    def suggested(self) -> Suggested:
        """The count the sticky comment shows."""
        return Suggested(self.posted, self.left, self.url)


def comment_body(fix: Suggestion) -> str:
    """The review comment: marker, what it fixes (sanitised), then the suggestion block."""
    block = suggestion_block(fix.new)
    ticks = fence(block)
    assert ticks is not None, "placed suggestions have a fence"
    what = "; ".join(_meaning(code) for code in fix.codes)
    lines = [COMMENT_MARKER, f"**curator** · {what} · {s.code(fix.subject, 200)}"]
    if not fix.safe:
        lines.append(
            "⚠️ This names a different paper found by the entry's title: check that it is "
            "the paper meant before committing."
        )
    return "\n".join([*lines, f"{ticks}suggestion", block, ticks])


def _meaning(code: str) -> str:
    """A code and what it means (curator's own words when the code is one of curator's)."""
    known = CODES.get(code)
    return f"{s.code(code, 64)} {s.text(known[1], 120)}" if known else s.code(code, 64)


def review_body(kept: Sequence[Suggestion], left: Sequence[tuple[Suggestion, str]]) -> str:
    """The review's body: marker, how many suggestions and how to apply them, what was left."""
    plural = "s" if len(kept) != 1 else ""
    lines = [
        MARKER,
        f"**curator: {len(kept)} one-click suggestion{plural}** for entries this pull request "
        "changes, with the values arXiv, GitHub or the link itself report. *Commit "
        "suggestion* applies one; *Add suggestion to batch* applies several in one commit.",
    ]
    if left:
        reasons = Counter(reason for _, reason in left)
        said = "; ".join(f"{n} because {reason}" for reason, n in reasons.most_common())
        lines += [
            "",
            f"{len(left)} more fixes are not suggested here ({said}): run `curator fix` on "
            "the branch to apply them.",
        ]
    return "\n".join(lines)


def review_comment(fix: Suggestion) -> dict[str, Any]:
    """The `comments` item of the review request: the lines on the right side of the diff."""
    item: dict[str, Any] = {
        "path": fix.file,
        "line": fix.last,
        "side": "RIGHT",
        "body": comment_body(fix),
    }
    if fix.first < fix.last:
        item.update(start_line=fix.first, start_side="RIGHT")
    return item


def post_suggestions(
    api: GitHubAPI,
    repo: str,
    number: int,
    fixes: Sequence[Suggestion],
    logins: frozenset[str],
    head_sha: str = "",
) -> ReviewResult:
    """Post the suggestions that fit pull request `number` at `head_sha` as one review and
    clear curator's earlier ones; nothing when the pull request moved on since the run."""
    valid_repo(repo)
    pull = api.repo(repo).get_pull(number)
    head = str(api.call("GET pull", lambda: pull.head.sha))
    if head_sha and head != head_sha:
        return ReviewResult("stale", left=len(fixes))
    patches = api.call("GET pull files", lambda: {f.filename: f.patch for f in pull.get_files()})
    placed = place(fixes, patches)
    reviews, comments = _ours(api, pull, logins)
    pending = [r for r in reviews if r.state == "PENDING"]
    for review in pending:
        _delete(api, "DELETE pending review", review.delete)
    # A pending review's comments went with it (a probe left by a failed run).
    gone = {r.id for r in pending}
    comments = [c for c in comments if c.pull_request_review_id not in gone]
    submitted = [r for r in reviews if r.state != "PENDING"]
    wanted = [review_comment(fix) for fix in placed.kept]
    body = review_body(placed.kept, placed.left)
    holder = _holding(submitted, comments, wanted)
    if holder is not None:
        return _keep(api, holder, submitted, comments, wanted, body, len(placed.left))
    try:
        made, refused = _create(api, pull, repo, head, body, wanted) if wanted else (None, 0)
    except PublishError:
        # A review is never POSTed twice; when the answer was lost GitHub may still have
        # taken it: a new review of ours holding every suggestion is the one.
        made, refused = _posted_anyway(api, pull, logins, submitted, wanted), 0
        if made is None:
            raise
    changed = _clear(api, submitted, comments, SUPERSEDED if made is not None else CLEARED)
    if made is not None:
        action, url = "posted", made.html_url or ""
    else:
        action, url = ("cleared" if changed else "none"), ""
    return ReviewResult(
        action, len(wanted) - refused, len(placed.left) + refused, url, len(comments)
    )


def _posted_anyway(
    api: GitHubAPI,
    pull: Any,
    logins: frozenset[str],
    before: Sequence[Any],
    wanted: Sequence[dict[str, Any]],
) -> Any | None:
    """The review a failed POST made after all (one of ours, not among `before`, holding
    every wanted suggestion), or None."""
    reviews, comments = _ours(api, pull, logins)
    earlier = {r.id for r in before}
    new = [r for r in reviews if r.id not in earlier and r.state != "PENDING"]
    return _holding(new, comments, wanted)


def _keep(
    api: GitHubAPI,
    holder: Any,
    reviews: Sequence[Any],
    comments: Sequence[Any],
    wanted: Sequence[dict[str, Any]],
    body: str,
    left: int,
) -> ReviewResult:
    """The earlier review `holder` already holds every wanted suggestion: keep it (its body
    brought up to date), delete the comments no longer wanted (applied, outdated) and cut
    any other earlier review to a line. No new review."""
    want = {_wanted_key(w) for w in wanted}
    # A wanted suggestion in another review is a copy (a run that failed between posting a
    # review and clearing the earlier one leaves two): it goes too.
    extra = [
        c for c in comments if c.pull_request_review_id != holder.id or _comment_key(c) not in want
    ]
    others = [r for r in reviews if r.id != holder.id]
    changed = _clear(api, others, extra, SUPERSEDED)
    if holder.body != body:
        api.call("PUT review", lambda: holder.edit(body))
        changed = True
    action = "updated" if changed else "unchanged"
    return ReviewResult(action, len(wanted), left, holder.html_url or "", len(extra))


def _ours(api: GitHubAPI, pull: Any, logins: frozenset[str]) -> tuple[list[Any], list[Any]]:
    """curator's reviews and review comments on the pull request, across all pages."""
    reviews = api.call("GET reviews", lambda: list(pull.get_reviews()))
    comments = api.call("GET review comments", lambda: list(pull.get_review_comments()))
    return (
        [r for r in reviews if is_ours(r, logins, MARKER)],
        [c for c in comments if is_ours(c, logins, COMMENT_MARKER)],
    )


def _clear(api: GitHubAPI, reviews: Sequence[Any], comments: Sequence[Any], stub: str) -> bool:
    """Delete the earlier suggestions and cut their reviews' bodies to `stub`; whether
    anything changed."""
    for comment in comments:
        _delete(api, "DELETE review comment", comment.delete)
    edited = [r for r in reviews if r.body != stub]
    for review in edited:
        api.call("PUT review", partial(review.edit, stub))
    return bool(comments or edited)


def _holding(
    reviews: Sequence[Any], comments: Sequence[Any], wanted: Sequence[dict[str, Any]]
) -> Any | None:
    """The earlier review that holds every wanted suggestion, each still on the diff at the
    same lines with the same text (as the contributor commits some, the rest stay put)."""
    if not wanted:
        return None
    keys = {_wanted_key(w) for w in wanted}
    held: dict[int, set[tuple[str, int, int, str]]] = defaultdict(set)
    for comment in comments:
        held[comment.pull_request_review_id].add(_comment_key(comment))
    # The newest first: a run that failed after posting leaves it beside the earlier one.
    return next((r for r in reversed(reviews) if keys <= held[r.id]), None)


def _comment_key(comment: Any) -> tuple[str, int, int, str]:
    """A review comment's place and text (an outdated one has no line: never wanted)."""
    line = comment.line if comment.line is not None else -1
    return (comment.path, line, comment.start_line or 0, comment.body)


def _wanted_key(item: Mapping[str, Any]) -> tuple[str, int, int, str]:
    """The same key for a comment about to be posted."""
    return (item["path"], item["line"], item.get("start_line") or 0, item["body"])


def _create(
    api: GitHubAPI, pull: Any, repo: str, head: str, body: str, comments: list[dict[str, Any]]
) -> tuple[Any | None, int]:
    """Post the review; on a 422, keep only the comments GitHub takes one by one. The review
    (None when none is left) and how many comments GitHub refused."""
    commit = api.repo(repo).get_commit(head)  # lazy: only its sha is sent
    made = _review(api, pull, commit, body, comments, "COMMENT")
    if made is not None:
        return made, 0
    taken = [c for c in comments if _accepted(api, pull, commit, c)]
    if not taken:
        return None, len(comments)
    made = _review(api, pull, commit, body, taken, "COMMENT")
    return made, len(comments) - len(taken) if made is not None else len(comments)


def _review(
    api: GitHubAPI, pull: Any, commit: Any, body: str, comments: list[dict[str, Any]], event: str
) -> Any | None:
    """One review (PENDING when `event` is ""), or None when GitHub answers 422."""

    def create() -> Any:
        try:
            if event:
                return pull.create_review(commit=commit, body=body, event=event, comments=comments)
            return pull.create_review(commit=commit, body=body, comments=comments)
        except github.GithubException as exc:
            if exc.status == 422:
                return None
            raise

    return api.call("POST review", create, creates=True)


def _accepted(api: GitHubAPI, pull: Any, commit: Any, comment: dict[str, Any]) -> bool:
    """Whether GitHub takes this one comment: tried in a pending review, deleted at once."""
    probe = _review(api, pull, commit, MARKER, [comment], "")
    if probe is None:
        return False
    _delete(api, "DELETE pending review", probe.delete)
    return True


def _delete(api: GitHubAPI, what: str, delete: Any) -> None:
    """A DELETE under the retry policy. A 404 means it is gone already (a try whose answer
    was lost, then retried; a comment that went with its pending review): done, not failed."""

    def once() -> None:
        with contextlib.suppress(github.UnknownObjectException):
            delete()

    api.call(what, once)

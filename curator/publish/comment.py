"""`curator comment`: create or update, in place, the one curator comment on a pull request.

Our comment is recognised by the hidden marker at its start AND by its author (the token's
user, or github-actions[bot]), so a quoted or forged marker in someone else's comment is never
touched. Duplicates left by earlier races are deleted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from curator.core.errors import UsageError
from curator.fix.suggest import Suggestion
from curator.publish import write_output
from curator.publish.api import GitHubAPI, PublishError, body_lines, is_ours, valid_repo
from curator.publish.api import from_env as api_from_env
from curator.publish.review import ReviewResult, post_suggestions
from curator.report import markdown, render_context
from curator.report.reader import read_report, read_saved
from curator.report.render_context import RenderContext

BOT = "github-actions[bot]"
#: GitHub refuses comment bodies longer than this many characters.
BODY_LIMIT = 65_536
RESOLVED = "**✅ Resolved:** the problems this comment reported earlier are fixed."


@dataclass(frozen=True)
class CommentResult:
    """What happened: created, updated, unchanged or skipped; the comment and deletions; and
    what became of the report's suggestions (`review`), or why they were not posted."""

    action: str
    comment_id: int | None = None
    url: str = ""
    deleted: tuple[int, ...] = ()
    review: ReviewResult | None = None
    review_error: str = ""


def upsert_comment(
    api: GitHubAPI, repo: str, pr: int, body: str, logins: frozenset[str] | None = None
) -> CommentResult:
    """Create, update or (when clean and never posted) skip the curator comment on PR `pr`;
    `logins` are our authors when already asked (else GET /user)."""
    valid_repo(repo)
    if pr <= 0:
        raise UsageError(f"--pr must be a positive number, not {pr}")
    body = prepare(body)
    issue = api.repo(repo).get_issue(pr)
    ours = own_comments(api, issue, authors(api) if logins is None else logins)
    # A marker counts only as a line of its own: values shown raw in code spans may quote it.
    clean = markdown.CLEAN_MARKER in body_lines(body)
    if not ours:
        if clean:
            return CommentResult("skipped")
        made = api.call("POST comment", lambda: issue.create_comment(body), creates=True)
        return CommentResult("created", made.id, made.html_url or "")
    keep, extra = ours[0], ours[1:]
    if clean:
        body = resolved(body)
    deleted = tuple(_delete(api, c) for c in extra)
    if keep.body == body:
        return CommentResult("unchanged", keep.id, keep.html_url or "", deleted)
    api.call("PATCH comment", lambda: keep.edit(body))
    return CommentResult("updated", keep.id, keep.html_url or "", deleted)


def prepare(body: str) -> str:
    """The body with the marker first and within GitHub's size limit."""
    if not body.lstrip().startswith(markdown.MARKER):
        body = f"{markdown.MARKER}\n{body}"
    if len(body) > BODY_LIMIT:
        note = "\n\n… (cut at GitHub's comment size limit; see the workflow artifact)\n"
        body = body[: BODY_LIMIT - len(note)] + note
    return body


def resolved(body: str) -> str:
    """A clean report that says the earlier problems are fixed."""
    lines = body.split("\n")
    if RESOLVED in lines or markdown.CLEAN_MARKER not in lines:
        return body
    at = lines.index(markdown.CLEAN_MARKER) + 1
    return "\n".join([*lines[:at], RESOLVED, "", *lines[at:]])


def authors(api: GitHubAPI) -> frozenset[str]:
    """Who may have written our comment: the token's user and the Actions bot."""
    login = api.login()
    return frozenset({BOT, login} - {""})


def own_comments(api: GitHubAPI, issue: Any, logins: frozenset[str]) -> list[Any]:
    """Our comments (PyGithub IssueComments) on the PR, oldest first, across all pages."""
    comments = api.call("GET comments", lambda: list(issue.get_comments()))
    found = [c for c in comments if is_ours(c, logins, markdown.MARKER)]
    return sorted(found, key=lambda c: int(c.id))


def _delete(api: GitHubAPI, comment: Any) -> int:
    """Delete one duplicate comment; its id."""
    api.call("DELETE comment", comment.delete)
    return int(comment.id)


def find_pr(api: GitHubAPI, repo: str, head_sha: str) -> int | None:
    """The open PR whose head is `head_sha` (fork PRs too, which workflow_run does not list)."""
    valid_repo(repo)
    pulls = api.call("GET pulls", lambda: list(api.repo(repo).get_pulls(state="open")))
    for pull in pulls:
        if pull.head is not None and pull.head.sha == head_sha:
            return int(pull.number)
    return None


def read_body(path: str | Path, ctx: RenderContext) -> str:
    """The comment body: the curator JSON report at `path`, validated and rendered here by
    trusted code. Anything else (Markdown, other JSON) is refused: the file comes from a
    pull request's artifact, which a fork controls."""
    return markdown.render(read_report(path), ctx)


def comment_from_env(
    repo: str,
    pr: int | None,
    body_file: str | Path,
    env: Mapping[str, str],
    head_sha: str = "",
    suggest: bool = True,
) -> CommentResult:
    """`curator comment`: find the PR (by number, else by head commit), post the report's
    suggestions as one review (unless `suggest` is off), render, upsert, and set the step
    outputs `comment-id`, `comment-url` (and `review-url` when suggestions were posted)."""
    ctx = render_context.from_env(env, changed_only=True)
    ctx = replace(ctx, repository=ctx.repository or repo, head_sha=head_sha or ctx.head_sha)
    saved = read_saved(body_file)  # refused before any request when it is not a report
    with api_from_env(env) as api:
        number = pr or (find_pr(api, repo, ctx.head_sha) if ctx.head_sha else None)
        if not number:
            return CommentResult("skipped")
        logins = authors(api)
        review, error = None, ""
        if suggest and saved.fixes is not None:
            review, error = _suggest(api, repo, number, saved.fixes, logins, ctx.head_sha)
        if review is not None:
            ctx = replace(ctx, suggested=review.suggested)
        body = markdown.render(saved.report, ctx)
        result = upsert_comment(api, repo, number, body, logins)
    result = replace(result, review=review, review_error=error)
    out = env.get("GITHUB_OUTPUT") or None
    write_output("comment-id", str(result.comment_id or ""), out)
    write_output("comment-url", result.url, out)
    if review is not None:
        write_output("review-url", review.url, out)
    return result


def _suggest(
    api: GitHubAPI,
    repo: str,
    number: int,
    fixes: tuple[Suggestion, ...],
    logins: frozenset[str],
    head_sha: str,
) -> tuple[ReviewResult | None, str]:
    """Post the suggestions; a failure is said, never fatal: the comment still goes out."""
    try:
        return post_suggestions(api, repo, number, fixes, logins, head_sha), ""
    except PublishError as exc:
        return None, str(exc)

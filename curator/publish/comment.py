"""`curator comment`: create or update, in place, the one curator comment on a pull request.

Our comment is recognised by the hidden marker at its start AND by its author (the token's
user, or github-actions[bot]), so a quoted or forged marker in someone else's comment is never
touched. Duplicates left by earlier races are deleted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from curator.errors import UsageError
from curator.publish import write_output
from curator.publish.api import GitHubAPI
from curator.publish.api import from_env as api_from_env
from curator.report import context, markdown
from curator.report.context import RenderContext
from curator.report.reader import read_report

BOT = "github-actions[bot]"
#: GitHub refuses comment bodies longer than this many characters.
BODY_LIMIT = 65_536
RESOLVED = "**✅ Resolved:** the problems this comment reported earlier are fixed."
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")


@dataclass(frozen=True)
class CommentResult:
    """What happened: created, updated, unchanged or skipped; the comment and deletions."""

    action: str
    comment_id: int | None = None
    url: str = ""
    deleted: tuple[int, ...] = ()


def check_repo(repo: str) -> str:
    """OWNER/NAME, or UsageError."""
    if not _REPO.match(repo):
        raise UsageError(f"--repo must be OWNER/NAME, not {repo!r}")
    return repo


def upsert_comment(api: GitHubAPI, repo: str, pr: int, body: str) -> CommentResult:
    """Create, update or (when clean and never posted) skip the curator comment on PR `pr`."""
    check_repo(repo)
    if pr <= 0:
        raise UsageError(f"--pr must be a positive number, not {pr}")
    body = prepare(body)
    issue = api.repo(repo).get_issue(pr)
    ours = own_comments(api, issue, authors(api))
    clean = markdown.CLEAN_MARKER in body
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
    if RESOLVED in body:
        return body
    return body.replace(markdown.CLEAN_MARKER, f"{markdown.CLEAN_MARKER}\n{RESOLVED}\n", 1)


def authors(api: GitHubAPI) -> frozenset[str]:
    """Who may have written our comment: the token's user and the Actions bot."""
    login = api.login()
    return frozenset({BOT, login} - {""})


def own_comments(api: GitHubAPI, issue: Any, logins: frozenset[str]) -> list[Any]:
    """Our comments (PyGithub IssueComments) on the PR, oldest first, across all pages."""
    comments = api.call("GET comments", lambda: list(issue.get_comments()))
    found = [
        c
        for c in comments
        if c.user is not None
        and c.user.login in logins
        and (c.body or "").lstrip().startswith(markdown.MARKER)
    ]
    return sorted(found, key=lambda c: int(c.id))


def _delete(api: GitHubAPI, comment: Any) -> int:
    """Delete one duplicate comment; its id."""
    api.call("DELETE comment", comment.delete)
    return int(comment.id)


def find_pr(api: GitHubAPI, repo: str, head_sha: str) -> int | None:
    """The open PR whose head is `head_sha` (fork PRs too, which workflow_run does not list)."""
    check_repo(repo)
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
    repo: str, pr: int | None, body_file: str | Path, env: Mapping[str, str], head_sha: str = ""
) -> CommentResult:
    """`curator comment`: find the PR (by number, else by head commit), render, upsert, and
    set the step outputs `comment-id` and `comment-url`."""
    ctx = context.from_env(env, changed_only=True)
    ctx = replace(ctx, repository=ctx.repository or repo, head_sha=head_sha or ctx.head_sha)
    with api_from_env(env) as api:
        number = pr or (find_pr(api, repo, ctx.head_sha) if ctx.head_sha else None)
        if not number:
            return CommentResult("skipped")
        result = upsert_comment(api, repo, number, read_body(body_file, ctx))
    write_output("comment-id", str(result.comment_id or ""), env.get("GITHUB_OUTPUT") or None)
    write_output("comment-url", result.url, env.get("GITHUB_OUTPUT") or None)
    return result

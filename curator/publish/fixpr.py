"""`curator audit --fix`: the safe fixes on one branch and one pull request, through PyGithub's
Git database objects (blobs, a tree, a commit, a ref) and its pull requests.

The branch (`curator/fixes` unless the command line names another) belongs to curator: each
run rebuilds it as one commit on the default branch's head and force-updates it, so repeated
runs leave one branch and one pull request; a run whose commit would hold the same tree on the
same parent leaves the branch alone. Nothing is ever written to the default branch: the only
ref written is the fix branch, which may not be the default branch. A file is written only
when its blob on the default branch's head is exactly the text the fixes were made on (a
list changed since it was read, a symbolic link or a file the tree does not hold is left out).
When nothing is left to fix, the pull request is closed and the branch deleted. A pull request
a maintainer closed without merging is not opened again for the same fixes.

A fix pull request is closed, or rebuilt without some of its fixes, only when those fixes are
really gone. When a file whose fixes it holds changed on the default branch after the audit
read it (a merge during the run), those fixes cannot be written on the new head, but nothing
says they are no longer needed: the pull request and its branch are kept as they are, and the
next audit, which reads the new head, plans them again.

Titles, URLs and evidence in the body come from the services and the list: all sanitised.
This module holds the pull request's life cycle and body; which files are written, and the
commit and branch that carry them, are fix_branch.py's.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from curator.console import sanitize as s
from curator.core.errors import UsageError
from curator.fix.model import FileFix, line_of
from curator.publish import write_output
from curator.publish.api import GitHubAPI, PublishError, body_lines, is_ours, valid_repo
from curator.publish.api import from_env as api_from_env
from curator.publish.comment import authors
from curator.publish.fix_branch import (
    Write,
    check_branch,
    delete_branch,
    moved,
    push_commit,
    writes,
)
from curator.report import render_context
from curator.report.render_context import RenderContext

MARKER = "<!-- curator:fixes -->"
CLOSED = "<!-- curator:closed -->"
_KEY = re.compile(r"<!-- curator:fixes-key ([0-9a-f]{16}) -->")
DEFAULT_BRANCH = "curator/fixes"
#: GitHub refuses bodies longer than this many characters.
BODY_LIMIT = 65_536
MAX_ROWS = 300


@dataclass(frozen=True)
class FixPRResult:
    """What happened to the fix pull request: opened, updated, unchanged, closed, declined (a
    maintainer closed it for these fixes), kept (the audit could not verify everything, or
    files it holds fixes of changed since they were read: `why` says which) or none; the
    files and fixes it holds; the files left out and why."""

    action: str
    number: int | None = None
    url: str = ""
    files: int = 0
    fixes: int = 0
    left: tuple[str, ...] = ()
    why: str = ""


def fixes_key(done: Sequence[Write]) -> str:
    """A short fingerprint of the fixes (file, old, new of each edit), not of the commit."""
    digest = hashlib.sha256(usedforsecurity=False)
    for write in done:
        for edit in sorted(write.fix.edits, key=lambda e: e.start):
            digest.update(repr((write.fix.file, edit.old, edit.new)).encode())
    return digest.hexdigest()[:16]


def pr_title(done: Sequence[Write]) -> str:
    """The pull request's title: the number of fixes (curator's own words only)."""
    count = sum(len(w.fix.edits) for w in done)
    return f"curator: {count} fix{'es' if count != 1 else ''} from the nightly audit"


def pr_body(
    done: Sequence[Write], left: Sequence[str], ctx: RenderContext, base: str, default: str
) -> str:
    """The body: marker, key, what the branch is, a row per change with its evidence, the
    files left out; rows dropped from the end until it fits GitHub's limit."""
    edits = [(w.fix, e) for w in done for e in sorted(w.fix.edits, key=_at)][:MAX_ROWS]
    rows = [_row(fix, e, ctx, base) for fix, e in edits]
    total = sum(len(w.fix.edits) for w in done)
    while True:
        body = _compose(done, left, rows, total, default, ctx)
        if len(body) <= BODY_LIMIT or not rows:
            return body[:BODY_LIMIT]
        rows = rows[: len(rows) * 3 // 4]


def _at(edit: Any) -> int:
    return int(edit.start)


def _compose(
    done: Sequence[Write],
    left: Sequence[str],
    rows: Sequence[str],
    total: int,
    default: str,
    ctx: RenderContext,
) -> str:
    """The body for these rows."""
    codes = Counter(e.finding.code for w in done for e in w.fix.edits)
    said = ", ".join(f"{n} {s.code(code, 64)}" for code, n in codes.most_common())
    lines = [
        MARKER,
        f"<!-- curator:fixes-key {fixes_key(done)} -->",
        f"### {s.text(ctx.title, 120)}: {total} safe fix{'es' if total != 1 else ''}",
        "",
        f"The nightly audit found values it can correct with one safe answer ({said}). This "
        f"branch is rebuilt from `{s.text(default, 100)}` by every audit and force-pushed: "
        "merge it, or close it and curator will not open it again for these fixes. Commits "
        "added to this branch are replaced by the next audit.",
        "",
        "| Where | Code | Was | Now | Evidence |",
        "| --- | --- | --- | --- | --- |",
        *rows,
    ]
    if len(rows) < total:
        lines.append(f"| … {total - len(rows)} more | | | | |")
    if left:
        lines += ["", "**Not written** (the audit issue still lists their findings):", ""]
        lines += [f"- {s.text(reason, 300)}" for reason in left[:50]]
    return "\n".join(lines) + "\n"


def _row(fix: FileFix, edit: Any, ctx: RenderContext, base: str) -> str:
    """One change: file:line linked at the base commit, code, old → new, evidence."""
    line = line_of(fix.before, edit.start)
    where = s.text(f"{fix.file}:{line}", 120)
    link = RenderContext(ctx.repository, base, ctx.server_url).blob_url(fix.file, line)
    found = edit.finding
    evidence = s.text(found.evidence or found.message, 200)
    return (
        f"| {s.link(where, link)} | {s.code(found.code, 64)} | {s.code(edit.old, 200)} | "
        f"{s.code(edit.new, 200)} | {evidence} |"
    )


def run_fix_pr(
    api: GitHubAPI,
    repo: str,
    files: Sequence[FileFix],
    ctx: RenderContext,
    branch: str = DEFAULT_BRANCH,
    *,
    complete: bool = True,
) -> FixPRResult:
    """Open, update or close the one fix pull request for these fixes. When the audit could
    not verify everything (`complete` False: an outage, a skipped service), fewer fixes prove
    nothing: an open fix pull request is kept as it is (one may still be opened)."""
    valid_repo(repo)
    check_branch(branch)
    remote = api.repo(repo)
    default = str(api.call("GET repository", lambda: remote.default_branch))
    if branch == default:
        raise UsageError(f"--fix-branch {branch!r} is the default branch: never written")
    logins = authors(api)
    head = f"{repo.split('/')[0]}:{branch}"
    open_ = _ours(api, remote, head, default, logins, "open")
    for extra in open_[1:]:
        api.call("PATCH pull", partial(extra.edit, state="closed"))
    current = open_[0] if open_ else None
    if current is not None and not complete:
        why = "kept as it is: the audit could not verify everything"
        return FixPRResult("kept", current.number, current.html_url or "", why=why)
    base = api.call("GET ref", lambda: remote.get_git_ref(f"heads/{default}").object.sha)
    commit = api.call("GET commit", lambda: remote.get_git_commit(base))
    tree = api.call("GET tree", lambda: remote.get_git_tree(commit.tree.sha, recursive=True))
    entries = {e.path: (e.type, e.mode, e.sha) for e in tree.tree}
    done, left = writes(files, entries)
    if current is not None and (held := _still_needed(api, current, files, entries)):
        them = "it" if len(held) == 1 else "them"
        why = (
            f"kept as it is: {', '.join(held)} changed on {default} since the audit read "
            f"{them}; the next audit plans their fixes again"
        )
        url = current.html_url or ""
        return FixPRResult("kept", current.number, url, left=tuple(left), why=why)
    if not done:
        return _close(api, remote, current, branch, left)
    key = fixes_key(done)
    if current is None and _declined(api, remote, head, default, logins, key):
        delete_branch(api, remote, branch)
        return FixPRResult("declined", left=tuple(left))
    push_commit(api, remote, branch, commit, tree, done)
    title, body = pr_title(done), pr_body(done, left, ctx, base, default)
    fixes = sum(len(w.fix.edits) for w in done)
    if current is None:
        made = _open(api, remote, (head, default, logins), branch, title, body)
        return FixPRResult(
            "opened", made.number, made.html_url or "", len(done), fixes, tuple(left)
        )
    action = "unchanged" if (current.title, current.body) == (title, body) else "updated"
    if action == "updated":
        api.call("PATCH pull", lambda: current.edit(title=title, body=body))
    return FixPRResult(
        action, current.number, current.html_url or "", len(done), fixes, tuple(left)
    )


def _still_needed(
    api: GitHubAPI,
    current: Any,
    files: Sequence[FileFix],
    tree: Mapping[str, tuple[str, str, str]],
) -> list[str]:
    """The files changed since the audit read them whose fixes the open pull request holds
    (files it changes, as GitHub lists them): fixes nobody showed to be gone. A file that
    never matches what was read (its fixes never written) holds nothing back."""
    changed = moved(files, tree)
    if not changed:
        return []
    listed = api.call("GET pull files", lambda: [f.filename for f in current.get_files()])
    return [file for file in changed if file in listed]


def _ours(
    api: GitHubAPI, remote: Any, head: str, base: str, logins: frozenset[str], state: str
) -> list[Any]:
    """curator's pull requests from the fix branch onto the default branch, oldest first."""
    listed = remote.get_pulls(state=state, head=head, base=base)
    pulls = api.call("GET pulls", lambda: list(listed))
    return sorted((p for p in pulls if is_ours(p, logins, MARKER)), key=lambda p: int(p.number))


def _declined(
    api: GitHubAPI, remote: Any, head: str, base: str, logins: frozenset[str], key: str
) -> bool:
    """Whether a maintainer closed, without merging, a pull request of these very fixes.
    curator's markers are whole lines of the body: the rows show values from the list and
    the services raw inside code spans, where a quoted marker is never a line of its own."""
    for pull in _ours(api, remote, head, base, logins, "closed"):
        lines = body_lines(pull.body or "")
        keys = [m.group(1) for line in lines if (m := _KEY.fullmatch(line))]
        if keys[:1] == [key] and not pull.merged_at and CLOSED not in lines:
            return True
    return False


def _open(
    api: GitHubAPI,
    remote: Any,
    where: tuple[str, str, frozenset[str]],
    branch: str,
    title: str,
    body: str,
) -> Any:
    """Open the fix pull request (`where`: head label, default branch, our logins). A POST
    is never sent twice; when it failed, GitHub may still have opened it (the answer was
    lost): the pull request found then is the one."""
    head, default, logins = where
    try:
        return api.call(
            "POST pull",
            lambda: remote.create_pull(base=default, head=branch, title=title, body=body),
            creates=True,
        )
    except PublishError:
        found = _ours(api, remote, head, default, logins, "open")
        if not found:
            raise
        return found[0]


def _close(
    api: GitHubAPI, remote: Any, current: Any | None, branch: str, left: Sequence[str]
) -> FixPRResult:
    """Nothing to fix: close our pull request (marked as closed by curator) and delete the
    branch."""
    if current is not None:
        said = f"\n{CLOSED}\n*Closed by curator: nothing is left to fix.*\n"
        body = (current.body or "")[: BODY_LIMIT - len(said)] + said
        api.call("PATCH pull", lambda: current.edit(state="closed", body=body))
    deleted = delete_branch(api, remote, branch)
    if current is None:
        return FixPRResult("closed" if deleted else "none", left=tuple(left))
    return FixPRResult("closed", current.number, current.html_url or "", left=tuple(left))


def fixpr_from_env(
    repo: str,
    files: Sequence[FileFix],
    env: Mapping[str, str],
    branch: str = DEFAULT_BRANCH,
    *,
    complete: bool = True,
) -> FixPRResult:
    """`curator audit --fix` after the audit: the fix pull request, and the step output
    `fix-url`."""
    ctx = replace(render_context.from_env(env, title="curator audit"), repository=repo)
    with api_from_env(env) as api:
        result = run_fix_pr(api, repo, files, ctx, branch, complete=complete)
    write_output("fix-url", result.url, env.get("GITHUB_OUTPUT") or None)
    return result

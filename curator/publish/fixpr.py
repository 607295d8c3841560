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
"""

from __future__ import annotations

import base64
import codecs
import hashlib
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import github

from curator.console import sanitize as s
from curator.core.errors import UsageError
from curator.fix.model import FileFix, line_of
from curator.fix.suggest import inside_tree
from curator.publish import write_output
from curator.publish.api import GitHubAPI, PublishError, check_repo, is_ours
from curator.publish.api import from_env as api_from_env
from curator.publish.comment import authors
from curator.report import context
from curator.report.context import RenderContext

MARKER = "<!-- curator:fixes -->"
CLOSED = "<!-- curator:closed -->"
_KEY = re.compile(r"<!-- curator:fixes-key ([0-9a-f]{16}) -->")
DEFAULT_BRANCH = "curator/fixes"
#: GitHub refuses bodies longer than this many characters.
BODY_LIMIT = 65_536
MAX_ROWS = 300
_PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*")
_WRITABLE = ("100644", "100755")
MOVED = "changed on the default branch since it was read"


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


@dataclass(frozen=True)
class Write:
    """One file of the fix commit: its path, git mode and new bytes, and the fix."""

    fix: FileFix
    mode: str
    data: bytes


def check_branch(name: str) -> str:
    """A branch name git and GitHub accept, in plain characters (parts of letters, digits,
    `.`, `_`, `-` split by `/`, no part starting with `.` or ending in `.lock`, no `..`, not
    `HEAD` or `refs/…`);
    else UsageError."""
    parts = name.split("/")
    plain = all(_PART.fullmatch(part) and not part.endswith(".lock") for part in parts)
    odd = ".." in name or name.endswith(".") or name.startswith("refs/") or name == "HEAD"
    if not plain or odd or len(name) > 200:
        raise UsageError(f"--fix-branch must be a plain branch name, not {name!r}")
    return name


def git_blob_sha(data: bytes) -> str:
    """The SHA git gives a blob holding `data`."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def writes(
    files: Sequence[FileFix], tree: Mapping[str, tuple[str, str, str]]
) -> tuple[list[Write], list[str]]:
    """The files to write, given the default branch's tree (path -> type, mode, blob sha);
    and each file left out, with why. Pure."""
    out: list[Write] = []
    left: list[str] = []
    for fix in files:
        entry = tree.get(fix.file)
        after = fix.after
        if not inside_tree(fix.file) or entry is None:
            left.append(f"{fix.file}: not a file of the default branch")
        elif entry[0] != "blob" or entry[1] not in _WRITABLE:
            left.append(f"{fix.file}: not a plain file (a link or a submodule)")
        elif after == fix.before:
            continue
        elif (prefix := _prefix(fix.before, entry[2])) is None:
            left.append(f"{fix.file}: {MOVED}")
        else:
            out.append(Write(fix, entry[1], prefix + after.encode("utf-8")))
    return out, left


def _prefix(before: str, blob: str) -> bytes | None:
    """The bytes before the text in the stored file (a UTF-8 byte-order mark, which the text
    as read leaves out), or None when the blob is not this text."""
    data = before.encode("utf-8")
    for prefix in (b"", codecs.BOM_UTF8):
        if git_blob_sha(prefix + data) == blob:
            return prefix
    return None


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
    check_repo(repo)
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
        _delete_branch(api, remote, branch)
        return FixPRResult("declined", left=tuple(left))
    _push(api, remote, branch, commit, tree, done)
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


def moved(files: Sequence[FileFix], tree: Mapping[str, tuple[str, str, str]]) -> list[str]:
    """The files with fixes whose blob on the default branch's head is a plain file, but not
    the text the fixes were made on: changed since the audit read them. Pure."""
    out: list[str] = []
    for fix in files:
        entry = tree.get(fix.file)
        if entry is None or entry[0] != "blob" or entry[1] not in _WRITABLE:
            continue
        if fix.edits and _prefix(fix.before, entry[2]) is None:
            out.append(fix.file)
    return out


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
        lines = (pull.body or "").splitlines()
        keys = [m.group(1) for line in lines if (m := _KEY.fullmatch(line))]
        if keys[:1] == [key] and not pull.merged_at and CLOSED not in lines:
            return True
    return False


def _push(
    api: GitHubAPI, remote: Any, branch: str, base: Any, tree: Any, done: Sequence[Write]
) -> None:
    """Make the fix commit on `base` and point the branch at it (force), unless the branch
    already holds a commit of the same tree on the same parent."""
    encoded = [base64.b64encode(w.data).decode("ascii") for w in done]
    blobs = [api.call("POST blob", partial(remote.create_git_blob, e, "base64")) for e in encoded]
    elements = [
        github.InputGitTreeElement(w.fix.file, w.mode, "blob", sha=blob.sha)
        for w, blob in zip(done, blobs, strict=True)
    ]
    new_tree = api.call("POST tree", lambda: remote.create_git_tree(elements, base_tree=tree))
    ref = _branch_ref(api, remote, branch)
    if ref is not None:
        held = api.call("GET commit", lambda: remote.get_git_commit(ref.object.sha))
        if held.tree.sha == new_tree.sha and [p.sha for p in held.parents] == [base.sha]:
            return
    count = sum(len(w.fix.edits) for w in done)
    message = f"curator: {count} safe fix{'es' if count != 1 else ''} from the nightly audit"
    made = api.call("POST commit", lambda: remote.create_git_commit(message, new_tree, [base]))
    if ref is None:
        try:
            api.call("POST ref", lambda: remote.create_git_ref(f"refs/heads/{branch}", made.sha))
        except PublishError:
            # A retry after a lost answer is refused ("Reference already exists"): what
            # counts is whether the branch now holds this commit.
            now = _branch_ref(api, remote, branch)
            if now is None or now.object.sha != made.sha:
                raise
    else:
        api.call("PATCH ref", lambda: ref.edit(made.sha, force=True))


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


def _branch_ref(api: GitHubAPI, remote: Any, branch: str) -> Any | None:
    """The fix branch's ref, fetched, or None when it does not exist."""

    def fetch() -> Any | None:
        ref = remote.get_git_ref(f"heads/{branch}")
        try:
            _ = ref.object.sha  # a lazy ref: this is the GET
        except github.UnknownObjectException:
            return None
        return ref

    return api.call("GET ref", fetch)


def _delete_branch(api: GitHubAPI, remote: Any, branch: str) -> bool:
    """Delete the fix branch when it exists; whether it did."""
    ref = _branch_ref(api, remote, branch)
    if ref is None:
        return False
    try:
        api.call("DELETE ref", ref.delete)
    except PublishError:
        # A retry after a lost answer is refused ("Reference does not exist"): what counts
        # is whether the branch is gone.
        if _branch_ref(api, remote, branch) is not None:
            raise
    return True


def _close(
    api: GitHubAPI, remote: Any, current: Any | None, branch: str, left: Sequence[str]
) -> FixPRResult:
    """Nothing to fix: close our pull request (marked as closed by curator) and delete the
    branch."""
    if current is not None:
        said = f"\n{CLOSED}\n*Closed by curator: nothing is left to fix.*\n"
        body = (current.body or "")[: BODY_LIMIT - len(said)] + said
        api.call("PATCH pull", lambda: current.edit(state="closed", body=body))
    deleted = _delete_branch(api, remote, branch)
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
    ctx = replace(context.from_env(env, title="curator audit"), repository=repo)
    with api_from_env(env) as api:
        result = run_fix_pr(api, repo, files, ctx, branch, complete=complete)
    write_output("fix-url", result.url, env.get("GITHUB_OUTPUT") or None)
    return result

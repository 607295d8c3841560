"""The fix pull request's branch, through PyGithub's Git database objects: which files are
written, and the one commit (blobs, a tree, a commit) on the default branch's head that the
fix branch is force-pointed at.

A file is written only when its blob on the default branch's head is exactly the text the
fixes were made on (a UTF-8 byte-order mark kept); a symbolic link, a submodule or a file the
tree does not hold is left out, with why. The pull request itself is fixpr.py's.
"""

from __future__ import annotations

import base64
import codecs
import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import github

from curator.core.errors import UsageError
from curator.fix.model import FileFix
from curator.fix.suggest import inside_tree
from curator.publish.api import GitHubAPI, PublishError

_PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*")
_WRITABLE = ("100644", "100755")
MOVED = "changed on the default branch since it was read"


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


def push_commit(
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


def delete_branch(api: GitHubAPI, remote: Any, branch: str) -> bool:
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

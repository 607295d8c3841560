"""Where a run reads the files that decide its verdict: `[tool.curator]` and the rules folder.

A local run reads them from the working tree. A pull-request run (`--changed-since REF`)
reads them from REF, the revision the pull request is compared with: the checked-out tree is
the contributor's, and its pyproject.toml, rules/ or symbolic links must not decide whether
its own changes pass (docs/threat-model.md). Either way a file gets the checks every file of
the tree gets (size, UTF-8, no NUL byte, no symbolic link leading out of the repository).
Paths are relative to the repository's top level, POSIX style.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from curator.core.errors import InputError, UsageError
from curator.textio import git
from curator.textio.text import decode_text, read_text

#: What a link out of the repository is told, on disk or in a revision.
OUTSIDE = "is a symbolic link leading outside the repository; not read"


class ConfigFiles(Protocol):
    """A tree the configuration is read from."""

    #: Where the files come from, for notes: "the working tree" or the revision's name.
    origin: str

    def read(self, rel: str) -> str | None:
        """The text of the file at `rel`; None when there is none (missing, a folder, a
        dangling link); InputError when it cannot be read as text."""
        ...

    def is_dir(self, rel: str) -> bool:
        """True when `rel` is a folder of the repository."""
        ...

    def names(self, rel: str) -> list[str]:
        """The names of the files directly in folder `rel`, sorted ([] when no folder)."""
        ...

    def prefetch(self, rels: Iterable[str]) -> None:
        """A hint: these files will be read (a revision reads them in one call)."""
        ...

    def is_link(self, rel: str) -> bool:
        """True when `rel` itself is a symbolic link."""
        ...

    def display(self, rel: str) -> str:
        """How messages name the file at `rel`."""
        ...


class WorkingTree:
    """The files on disk below `root` (a local run, or a folder the command line names)."""

    origin = "the working tree"

    def __init__(self, root: Path) -> None:
        self.root = root

    def read(self, rel: str) -> str | None:
        """The file's text (sources.text.read_text), None when it is no file."""
        path = self.root / rel
        return read_text(path, self.display(rel)) if path.is_file() else None

    def is_dir(self, rel: str) -> bool:
        """A folder whose real path stays inside `root`."""
        path = self.root / rel
        return path.is_dir() and path.resolve().is_relative_to(self.root.resolve())

    def names(self, rel: str) -> list[str]:
        """File names in the folder (links included: `read` judges where they lead)."""
        if not self.is_dir(rel):
            return []  # no folder, or one whose real path leaves the tree: its names too
        folder = self.root / rel
        return sorted(p.name for p in folder.iterdir() if p.is_file() or p.is_symlink())

    def prefetch(self, rels: Iterable[str]) -> None:
        """Nothing to do: files on disk are read when asked for."""

    def is_link(self, rel: str) -> bool:
        """A symbolic link on disk."""
        return (self.root / rel).is_symlink()

    def display(self, rel: str) -> str:
        """The path on disk."""
        return (self.root / rel).as_posix()


class Revision:
    """The files of one commit, read raw from git's object store (never from the working
    tree, so no attribute, filter or link of the checked tree changes what is read)."""

    def __init__(self, root: Path, ref: str) -> None:
        self.root = root
        self.origin = ref
        self.commit = git.resolve(ref, root).commit

    def prefetch(self, rels: Iterable[str]) -> None:
        """Read these paths in one git call (later reads of them cost nothing)."""
        self._found(list(rels))

    def _found(self, rels: list[str]) -> dict[str, git.GitObject]:
        names = {rel: f"{self.commit}:{_plain(rel, self.display(rel))}" for rel in rels}
        # git names one object a line: a name with a line break (a pull request's file may be
        # called anything) is none the base can have.
        unnamed = {rel for rel, name in names.items() if "\n" in name}
        names = {rel: name for rel, name in names.items() if rel not in unnamed}
        missing = [name for name in names.values() if name not in _SEEN]
        if missing:
            if len(_SEEN) > _SEEN_MAX:
                _SEEN.clear()
            _SEEN.update(git.objects(missing, self.root, follow=True))
        return {rel: _SEEN[name] for rel, name in names.items()} | {
            rel: git.GitObject("missing") for rel in unnamed
        }

    def read(self, rel: str) -> str | None:
        """The blob's text; links inside the tree are followed, one leading out is refused."""
        found = self._found([rel])[rel]
        if found.kind == "symlink":
            raise InputError(OUTSIDE, self.display(rel))
        return decode_text(found.data, self.display(rel)) if found.kind == "blob" else None

    def is_dir(self, rel: str) -> bool:
        """A tree of the commit (after links inside it)."""
        return self._found([rel])[rel].kind == "tree"

    def names(self, rel: str) -> list[str]:
        """Names of the blobs (files and links) directly in the folder."""
        found = self._found([rel])[rel]
        return _blob_names(self.root, found.oid) if found.kind == "tree" else []

    def is_link(self, rel: str) -> bool:
        """A symbolic link in the commit's tree (mode 120000)."""
        path = _plain(rel, self.display(rel))
        return any(e.mode == "120000" for e in git.tree_entries(self.commit, [path], self.root))

    def display(self, rel: str) -> str:
        """`REF:path`, as git names a file of a revision."""
        return f"{self.origin}:{rel}"


#: What `COMMIT:path` holds never changes, so each is read once per process (the names carry
#: the full commit); bounded, as a long-lived process may read many revisions.
_SEEN: dict[str, git.GitObject] = {}
_SEEN_MAX = 256


@lru_cache(maxsize=32)
def _blob_names(root: Path, tree: str) -> list[str]:
    """Names of the blobs of one tree object (immutable, like _SEEN)."""
    entries = git.tree_entries(tree, [], root, recursive=False)
    return sorted(posixpath.basename(e.path) for e in entries if e.kind == "blob")


def _plain(rel: str, name: str) -> str:
    """`rel` normalised ("" for the top level); InputError when it leaves the repository.
    (`REV:./x` would be relative to the working folder in git's syntax: never produced.)"""
    path = posixpath.normpath(rel.replace("\\", "/")) if rel else "."
    if path == ".":
        return ""
    if path.startswith(("../", "/")) or path == "..":
        raise InputError("leaves the repository; not read", name)
    return path


def config_files(root: Path, ref: str | None) -> ConfigFiles:
    """The base revision `ref` in pull-request mode, else the working tree at `root`."""
    if not ref:
        return WorkingTree(root)
    try:
        return Revision(root, ref)
    except git.GitError as exc:
        raise UsageError(f"--changed-since: {exc}") from None

"""The one way curator runs git: as a reader of a tree that a pull request controls.

In a pull request's checkout git obeys files of that tree: `.gitattributes` can mark a file
`binary` or `-diff` (a diff without hunks), name a diff driver, or convert the content git
compares (`eol`, `text`, `ident`, `working-tree-encoding`, `filter`). So curator never asks
git to compare the working tree: it reads the base revision's blobs raw (`cat-file --batch`,
no conversion) and compares them with the bytes it reads itself, using `git diff --no-index`
in an empty folder outside any repository (no attributes, no repository configuration).

Every call goes through `run`, with one policy: no system configuration or attributes, no
user attributes file, no pager, no colour, no external diff or textconv, no fsmonitor, no
replace objects, literal pathspecs, names unquoted and NUL-separated where git lists them.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from curator.core.errors import UsageError

#: Configuration given on the command line of every call (it wins over every file).
_CONFIG = (
    f"core.attributesFile={os.devnull}",
    "core.quotePath=false",
    "core.fsmonitor=false",
    "core.pager=cat",
    "color.ui=never",
)
#: Options before the subcommand: no pager, literal pathspecs, no replace refs or locks.
_GLOBAL = ("--no-pager", "--literal-pathspecs", "--no-replace-objects", "--no-optional-locks")
#: Environment of every call: no system-wide configuration or attributes, never a prompt.
_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_ATTR_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_PAGER": "cat",
    "LC_ALL": "C",
}
#: Variables that would change what a diff prints.
_DROP = ("GIT_EXTERNAL_DIFF", "GIT_DIFF_OPTS", "GIT_ATTR_SOURCE")
#: Variables that point git at a repository: an isolated call must be in none.
_REPOSITORY = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE",
    "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
)  # fmt: skip
#: File modes of a regular file in a tree (a link, a submodule or a folder is none).
REGULAR = ("100644", "100755")
#: Seconds any one git call may take.
TIMEOUT = 60


class GitError(UsageError):
    """git is missing or refused a call; the message is git's own last line."""


def run(
    args: Sequence[str],
    cwd: Path,
    stdin: bytes = b"",
    ok: Iterable[int] = (0,),
    isolated: bool = False,
) -> bytes:
    """git's output for `args` in `cwd`, under the policy above; GitError otherwise.

    `isolated`: also no user configuration and no repository (for `diff --no-index`)."""
    env = {k: v for k, v in os.environ.items() if k not in _DROP}
    env.update(_ENV)
    if isolated:
        for key in _REPOSITORY:
            env.pop(key, None)
        env["GIT_CONFIG_GLOBAL"] = os.devnull
        env["GIT_CEILING_DIRECTORIES"] = str(cwd.parent)
    command = ["git", *_GLOBAL, *(a for item in _CONFIG for a in ("-c", item)), *args]
    try:
        done = subprocess.run(
            command, cwd=cwd, input=stdin, capture_output=True, env=env, timeout=TIMEOUT
        )
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"git could not be run: {exc}") from None
    if done.returncode not in ok:
        err = done.stderr.decode("utf-8", "replace").strip()
        raise GitError(err.split("\n")[-1] if err else f"git {args[0]} failed")
    return done.stdout


def top_level(start: Path) -> Path | None:
    """The real path of the working tree's top level containing `start`; None outside one."""
    try:
        out = run(["rev-parse", "--show-toplevel"], start).decode("utf-8", "surrogateescape")
    except GitError:
        return None
    top = out.rstrip("\n")
    return Path(top).resolve() if top else None


@dataclass(frozen=True)
class Base:
    """A revision resolved in a working folder: the commit, and the folder's path below the
    top level (with a trailing `/`, "" at the top)."""

    commit: str
    prefix: str


def resolve(ref: str, cwd: Path) -> Base:
    """The commit `ref` names, with `cwd`'s prefix (one call); GitError when it names none."""
    args = ["rev-parse", "--show-prefix", "--verify", "--quiet", "--end-of-options"]
    try:
        out = run([*args, f"{ref}^{{commit}}"], cwd).decode("utf-8", "surrogateescape")
    except GitError:
        if top_level(cwd) is None:  # not "no such commit": there are no commits here at all
            raise GitError(f"{ref!r} names no commit: not in a git repository") from None
        raise GitError(f"unknown revision {ref!r} (no such commit)") from None
    prefix, _, commit = out.rstrip("\n").rpartition("\n")
    return Base(commit.strip(), prefix)


def blob_name(data: bytes, like: str) -> str:
    """The object name git gives `data` as a blob, in the hash of `like` (another name)."""
    algorithm = "sha256" if len(like) == 64 else "sha1"
    return hashlib.new(algorithm, b"blob %d\0" % len(data) + data).hexdigest()


@dataclass(frozen=True)
class TreeEntry:
    """One entry of a tree: file mode, object type and name, path from the top level."""

    mode: str
    kind: str
    oid: str
    path: str

    @property
    def regular(self) -> bool:
        """A regular file (not a symbolic link, a submodule or a folder)."""
        return self.kind == "blob" and self.mode in REGULAR


def tree_entries(
    tree: str, paths: Sequence[str], cwd: Path, recursive: bool = True
) -> list[TreeEntry]:
    """The entries of `tree` (a commit, tree or `commit:folder`) at `paths` (from the top
    level; all of them when empty). NUL-separated, so any file name is read as written."""
    args = ["ls-tree", "-z", "--full-tree", *(["-r"] if recursive else []), tree]
    out = run([*args, "--", *paths] if paths else args, cwd).decode("utf-8", "surrogateescape")
    entries = []
    for record in out.split("\0"):
        head, tab, path = record.partition("\t")
        parts = head.split(" ")
        if tab and len(parts) == 3:
            entries.append(TreeEntry(parts[0], parts[1], parts[2], path))
    return entries


@dataclass(frozen=True)
class GitObject:
    """What `cat-file --batch --follow-symlinks` says of one name: the object's type and
    content, or why there is none (`missing`, `dangling`, `loop`, `notdir`, or `symlink` for
    a link leading out of the tree)."""

    kind: str
    data: bytes = b""
    oid: str = ""


def objects(names: Sequence[str], cwd: Path, follow: bool = False) -> dict[str, GitObject]:
    """Each object by name (an object name, or `commit:path`), read raw: no conversion,
    filter or textconv. `follow`: symbolic links inside the tree are followed."""
    wanted = list(dict.fromkeys(names))
    if any("\n" in n for n in wanted):
        raise GitError("a path with a line break cannot be read from a revision")
    if not wanted:
        return {}
    args = ["cat-file", "--batch", *(["--follow-symlinks"] if follow else [])]
    out = run(args, cwd, stdin="".join(f"{n}\n" for n in wanted).encode("utf-8", "surrogateescape"))
    try:
        return _parsed(out, wanted)
    except (ValueError, IndexError):
        raise GitError("cat-file gave an answer curator cannot read") from None


def _parsed(out: bytes, names: list[str]) -> dict[str, GitObject]:
    """The answers of `cat-file --batch`, one per name, in order."""
    found: dict[str, GitObject] = {}
    pos = 0
    for name in names:
        end = out.index(b"\n", pos)
        header = out[pos:end].decode("utf-8", "surrogateescape").split(" ")
        pos = end + 1
        if header[-1] in ("missing", "ambiguous"):
            found[name] = GitObject("missing")
        elif len(header) == 2:  # dangling, loop, notdir, symlink: SIZE, then that many bytes
            size = int(header[1])
            found[name] = GitObject(header[0], out[pos : pos + size])
            pos += size + 1
        else:  # OID TYPE SIZE, the content, a newline
            size = int(header[2])
            found[name] = GitObject(header[1], out[pos : pos + size], header[0])
            pos += size + 1
    return found


def changed_lines(old: bytes, new: bytes) -> set[int] | None:
    """The lines of `new` that differ from `old` (git's line numbers), set() when the two
    are the same text; None when they differ but the diff names no line (then every line
    counts as changed, never none). CRLF and LF line ends are the same text."""
    before, after = old.replace(b"\r\n", b"\n"), new.replace(b"\r\n", b"\n")
    if before == after:
        return set()
    with tempfile.TemporaryDirectory(prefix="curator-diff-") as tmp:
        folder = Path(tmp)
        (folder / "a").write_bytes(before)
        (folder / "b").write_bytes(after)
        diff = run(
            ["diff", "--no-index", "--text", "--no-ext-diff", "--no-textconv", "--no-color",
             "--diff-algorithm=myers", "--unified=0", "--", "a", "b"],
            folder, ok=(0, 1), isolated=True,
        )  # fmt: skip
    lines = hunk_lines(diff.decode("utf-8", "surrogateescape"))
    return lines or None


def hunk_lines(diff: str) -> set[int]:
    """New-side line numbers of every hunk of one file's `--unified=0` diff."""
    lines: set[int] = set()
    # Only "\n" ends a line of git's output (a lone "\r" or a form feed inside an added line
    # must not start one), and every content line starts with "+", "-", " " or "\\".
    for line in diff.split("\n"):
        if not line.startswith("@@ "):
            continue
        new = line.split(" ")[2]  # "+START[,COUNT]"
        start, _, count = new[1:].partition(",")
        first, n = int(start), int(count or "1")
        # A pure deletion (COUNT 0) touches the line it follows.
        lines.update(range(first, first + n) if n else (max(first, 1),))
    return lines


def tracked(paths: Sequence[str], cwd: Path) -> list[str]:
    """Which of `paths` (relative to `cwd`) the index tracks."""
    out = run(["ls-files", "-z", "--", *paths], cwd).decode("utf-8", "surrogateescape")
    return [p for p in out.split("\0") if p]

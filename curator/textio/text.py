"""Reading text files safely: UTF-8 only, size-capped, with a located error otherwise.

Every file of the checked tree is read here, and a pull request controls that tree: a file
reached through a symbolic link that leaves the repository is refused, never read; and a
writer into a tree (import, init) asks `refuse_links_below` first, never writing through one.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from curator.core.errors import InputError

#: Larger inputs are refused: a list is far smaller, and this bounds memory and time.
MAX_BYTES = 8 * 1024 * 1024


def read_text(path: Path, display: str | None = None) -> str:
    """The file's text; InputError (file:line) when missing, too large, not UTF-8, or has NUL."""
    name = display or path.as_posix()
    refuse_outside_links(path, name)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise InputError(f"file is {size} bytes, larger than the {MAX_BYTES} allowed", name)
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file or folder", name) from None
    except IsADirectoryError:
        raise InputError("is a folder, expected a file", name) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", name) from None
    return decode_text(data, name)


def decode_text(data: bytes, name: str) -> str:
    """The text of a file's bytes; InputError (file:line) when too large, not UTF-8, or
    holding a NUL. Files read from a git revision get the same checks as files on disk."""
    if len(data) > MAX_BYTES:
        raise InputError(f"file is {len(data)} bytes, larger than the {MAX_BYTES} allowed", name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"not UTF-8 (byte 0x{data[exc.start]:02x})", name, line) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise InputError("contains a NUL byte; not a text file", name, line)
    return text


def refuse_outside_links(path: Path, name: str) -> None:
    """InputError when `path` goes through a symbolic link to a place outside the repository
    of the working folder. A path given without links is the caller's own choice."""
    plain = Path(os.path.normpath(path.absolute()))
    real = path.resolve()
    if real == plain:
        return
    root = tree_root(str(Path.cwd()))
    if real != root and root not in real.parents:
        raise InputError("is a symbolic link leading outside the repository; not read", name)


def refuse_links_below(path: Path, root: Path | None = None) -> None:
    """InputError when `path`, or a folder between it and `root`, is a symbolic link, a
    dangling one included: a write there lands wherever the link points, outside the
    repository perhaps. `root` itself is the caller's own choice (None: check every parent)."""
    for place in [path, *path.parents]:
        if root is not None and place == root:
            break
        if place.is_symlink():
            raise InputError("refusing to write through a symbolic link", place.as_posix())


@lru_cache(maxsize=8)
def tree_root(cwd: str) -> Path:
    """The real path of the git top level containing `cwd` (else `cwd` itself)."""
    from curator.textio.git import top_level

    return top_level(Path(cwd)) or Path(cwd).resolve()


def printable(name: str) -> str:
    """A file name as reports can write it: bytes that are no UTF-8 (which Python holds as
    lone surrogates, and no UTF-8 writer takes) as `\\xff` escapes; other names unchanged."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")

"""Reading text files safely: UTF-8 only, size-capped, with a located error otherwise.

Every file of the checked tree is read here, and a pull request controls that tree: a file
reached through a symbolic link that leaves the repository is refused, never read.
"""

from __future__ import annotations

import os
import subprocess
from functools import lru_cache
from pathlib import Path

from curator.errors import InputError

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


@lru_cache(maxsize=8)
def tree_root(cwd: str) -> Path:
    """The real path of the git top level containing `cwd` (else `cwd` itself)."""
    try:
        out = subprocess.run(
            ["git", "-C", cwd, "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return Path(cwd).resolve()
    top = out.stdout.strip() if out.returncode == 0 else ""
    return Path(top or cwd).resolve()


def refuse_links_below(path: Path, root: Path | None) -> None:
    """InputError when `path`, or a folder between it and `root`, is a symbolic link: a
    committed link would make a write land outside the repository. Before any write."""
    for place in [path, *path.parents]:
        if root is not None and place == root:
            break
        if place.is_symlink():
            raise InputError("refusing to write through a symbolic link", place.as_posix())

"""Writing a fix: inside the checked tree only, never through a symbolic link, atomically,
and only over the text the plan was made from.

Every file is checked before any is written (a refusal writes nothing): it must lie below
the repository of the working folder, no part of its path below that may be a link, and it
must still hold exactly what was read. Each is then replaced at once: the new text goes to a
temporary file in the same folder, with the old file's mode, and `os.replace` puts it in
place. A byte-order mark the file had is kept.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path

from curator.core.errors import InputError
from curator.fix.model import FileFix
from curator.textio.text import read_text, refuse_links_below, tree_root


def write_fixes(fixes: Sequence[FileFix], given: Sequence[str] = ()) -> list[str]:
    """Write every fix (each file checked first: see the module docstring); the files written.

    `given` are the paths the run was asked to check: a file read through a link among them
    (the readers name it by its target) is refused too."""
    root = tree_root(str(Path.cwd()))
    linked = linked_files(given, root)
    for fix in fixes:
        if fix.file in linked:
            raise InputError("refusing to write through a symbolic link", linked[fix.file])
    places = [(fix, checked_path(fix, root)) for fix in fixes]
    written: list[str] = []
    for fix, path in places:
        if fix.edits:
            replace_text(path, fix)
            written.append(fix.file)
    return written


def linked_files(given: Sequence[str], root: Path) -> dict[str, str]:
    """The files the readers reach through a symbolic link below `root` (a given path, a
    folder on its way, or a file of a catalogue folder), by the name the readers give them
    (their target's), with the path as given."""
    from curator.sources.yaml_catalog import catalog_files, display_path

    out: dict[str, str] = {}
    for raw in given:
        path = Path(raw)
        files = catalog_files(path) if path.is_dir() else [path]
        for file in files:
            plain = Path(os.path.normpath(file.absolute()))
            try:
                refuse_links_below(plain, root)
            except InputError:
                out[display_path(file)] = file.as_posix()
    return out


def checked_path(fix: FileFix, root: Path) -> Path:
    """The file's path once it is known to be inside `root`, reached through no link, and
    unchanged since it was read; InputError (file, one line) otherwise."""
    path = Path(os.path.normpath(Path(fix.file).absolute()))
    if root not in path.parents:
        raise InputError("is outside the checked tree; not written", fix.file)
    refuse_links_below(path, root)
    if read_text(path, fix.file) != fix.before:
        raise InputError("changed since it was read; not written (run curator fix again)", fix.file)
    return path


def replace_text(path: Path, fix: FileFix) -> None:
    """Put the fixed text in place atomically, keeping the file's mode and byte-order mark;
    the text is checked once more just before (another writer in between: not written)."""
    data = path.read_bytes()
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    if data[len(bom) :].decode("utf-8") != fix.before:
        raise InputError("changed since it was read; not written (run curator fix again)", fix.file)
    mode = stat.S_IMODE(path.stat().st_mode)
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".fix", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(bom + fix.after.encode("utf-8"))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise

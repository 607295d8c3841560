"""Reading text files safely: UTF-8 only, size-capped, with a located error otherwise."""

from __future__ import annotations

from pathlib import Path

from curator.errors import InputError

#: Larger inputs are refused: a list is far smaller, and this bounds memory and time.
MAX_BYTES = 8 * 1024 * 1024


def read_text(path: Path, display: str | None = None) -> str:
    """The file's text; InputError (file:line) when missing, too large, not UTF-8, or has NUL."""
    name = display or path.as_posix()
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

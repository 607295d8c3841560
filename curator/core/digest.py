"""Digests of curator's own code, for results the cache keeps from one run to the next.

A result that curator's code computes from an input alone (a scope decision, a catalogue file
that passed the schema) stays true while that code is the same. Its key in the cache holds
a digest of the code's source, of the Python running it and of the libraries it names, so a
changed file, upgrade or install is a new key and never meets an old answer.
"""

from __future__ import annotations

import hashlib
import sys
from functools import cache
from importlib import metadata
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]


@cache
def code_digest(files: tuple[str, ...], libraries: tuple[str, ...] = ()) -> str | None:
    """The digest of curator's `files` (paths inside the package), the Python version and
    the installed versions of `libraries`; None when a file cannot be read (then a caller
    keeps nothing)."""
    digest = hashlib.sha256(sys.version.encode())
    for name in libraries:
        digest.update(f"\0{name}={_version(name)}".encode())
    try:
        for name in files:
            digest.update(f"\0{name}\0".encode() + (_PACKAGE / name).read_bytes())
    except OSError:
        return None
    return digest.hexdigest()


def _version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"

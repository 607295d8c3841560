"""Publishing a report on GitHub: the sticky PR comment, the review of suggestions, the audit
issue, the fix pull request, step outputs."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def write_output(name: str, value: str, path: str | os.PathLike[str] | None = None) -> bool:
    """Append name=value to $GITHUB_OUTPUT in heredoc form (any value is safe); False if unset."""
    target = path or os.environ.get("GITHUB_OUTPUT", "")
    if not target:
        return False
    # A random delimiter cannot occur in the value, so the value cannot add outputs of its own.
    delimiter = f"curator_{secrets.token_hex(8)}"
    while delimiter in value:
        delimiter = f"curator_{secrets.token_hex(8)}"
    with Path(target).open("a", encoding="utf-8") as out:
        out.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")
    return True

"""Pull-request mode: keep only the entries added or changed since a git ref (by entry)."""

from __future__ import annotations

import re
import subprocess
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from curator.errors import UsageError
from curator.model import Entry

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def changed_lines(ref: str, files: Sequence[str], cwd: Path) -> dict[str, set[int] | None]:
    """Per file (as given), the new-side line numbers changed since `ref`; None = whole file new."""
    if not files:
        return {}
    diff = _git(["diff", "--unified=0", "--no-color", "--no-ext-diff", ref, "--", *files], cwd)
    listed = _git(["ls-tree", "-r", "--name-only", "-z", ref, "--", *files], cwd)
    known = set(filter(None, listed.split("\0")))
    prefix = _git(["rev-parse", "--show-prefix"], cwd).strip()
    out: dict[str, set[int] | None] = {}
    for file in files:
        if (prefix + file) not in known:
            out[file] = None
    current = ""
    # Only "\n" ends a line of git's output: str.splitlines() would also split at a form feed
    # or a lone "\r" inside an added line, and a PR could forge "+++ b/…" or "@@" headers.
    for line in diff.split("\n"):
        if line.startswith("+++ "):
            current = _strip_prefix(line[4:].removeprefix("b/"), prefix)
            continue
        m = _HUNK.match(line)
        if m and current and out.get(current, set()) is not None:
            start, count = int(m.group(1)), int(m.group(2) or "1")
            lines = out.setdefault(current, set())
            assert lines is not None
            # A pure deletion (count 0) touches the entry around `start`.
            lines.update(range(start, start + count) if count else (max(start, 1),))
    return out


def _strip_prefix(path: str, prefix: str) -> str:
    return path[len(prefix) :] if prefix and path.startswith(prefix) else path


def _git(args: list[str], cwd: Path) -> str:
    """Run git; UsageError with git's own message when it fails."""
    try:
        # Bytes, decoded without newline translation ("\r" stays inside its line).
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise UsageError(f"--changed-since needs git: {exc}") from None
    if done.returncode != 0:
        err = done.stderr.decode("utf-8", "replace").strip()
        message = err.split("\n")[-1] if err else "git failed"
        raise UsageError(f"--changed-since: {message}")
    return done.stdout.decode("utf-8", "surrogateescape")


def select_changed(entries: Iterable[Entry], changed: dict[str, set[int] | None]) -> list[Entry]:
    """Entries whose line span (own line up to the next entry's) touches a changed line."""
    by_file: dict[str, list[Entry]] = defaultdict(list)
    for entry in entries:
        by_file[entry.source.file].append(entry)
    chosen: list[Entry] = []
    for file, group in by_file.items():
        if file not in changed:
            continue
        lines = changed[file]
        group.sort(key=lambda e: e.source.line)
        for i, entry in enumerate(group):
            end = group[i + 1].source.line - 1 if i + 1 < len(group) else 10**9
            if lines is None or any(entry.source.line <= n <= end for n in lines):
                chosen.append(entry)
    return chosen

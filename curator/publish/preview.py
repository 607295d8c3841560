"""What a pull request's review would hold, worked out locally: the preview side of
`check --changed-since REF --format markdown` (the comment body as `curator comment` posts it).

`curator comment` places the report's suggestions on the lines the pull request adds, as
GitHub's pull files API shows them (publish.review_place.place). Locally the same placement runs
on the same kind of patch, made from REF's version of each file (read raw from git, as every
pull-request comparison is: curator.sources.select) and the file on disk; only the review's link is
unknown until it is posted.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from pathlib import Path

from curator.fix.suggest import Suggestion
from curator.report.render_context import Suggested


def review_preview(fixes: Sequence[Suggestion], ref: str, cwd: Path) -> Suggested:
    """How many of `fixes` a review on the pull request REF..(the tree at `cwd`) would hold
    as one-click suggestions, and how many would be left (no link: none is posted)."""
    from curator.publish.review_place import place

    placed = place(fixes, local_patches(sorted({f.file for f in fixes}), ref, cwd))
    return Suggested(len(placed.kept), len(placed.left))


def local_patches(files: Sequence[str], ref: str, cwd: Path) -> dict[str, str | None]:
    """Each changed file's patch since `ref`, as GitHub's pull files API gives it (hunks, 3
    lines of context, lines split at "\\n" only); an unchanged file is left out."""
    from curator.sources.select import changes

    found = changes(ref, files, cwd)
    patches: dict[str, str | None] = {}
    for file, lines in found.lines.items():
        # None: every line is new (a file the base has not, or a change git names no line of)
        before = _text(found.base[file]) if lines is not None and file in found.base else ""
        try:
            after = _text((cwd / file).read_bytes())
        except OSError:
            patches[file] = None
            continue
        patches[file] = patch(before, after)
    return patches


def patch(before: str, after: str) -> str:
    """The hunks of the unified diff `before` → `after`, as a pull request's file shows it."""
    rows = difflib.unified_diff(before.split("\n"), after.split("\n"), lineterm="", n=3)
    return "\n".join(list(rows)[2:])


def _text(data: bytes) -> str:
    """Bytes as the list's readers read them (UTF-8, a byte-order mark not counted)."""
    return data.decode("utf-8", "replace").removeprefix("\ufeff")

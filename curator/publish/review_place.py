"""Where a pull request can take one-click suggestions: only on lines it adds.

Each suggestion is placed only on lines the pull request adds (`+` lines of its files'
patches, which show the head's lines; never the context lines around them, which belong to
entries it left alone) whose text is the suggestion's `old` (a stale or forged one is
dropped), one suggestion per line, at most LIMIT in one review. A suggestion's text goes only
inside a fence longer than any backtick run in it, and a text with control, bidi or invisible
characters is not shown. Each one left out carries its reason. Posting the review is
review.py's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from curator.console import sanitize as s
from curator.fix.model import lines_of
from curator.fix.suggest import Suggestion

#: At most this many suggestions in one review; the rest are counted in its body.
LIMIT = 50
#: A longer backtick run than this in a suggestion's text: not shown (no sane fence).
MAX_FENCE = 16
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@")

# Why a fix is not suggested (counted in the review's body).
NOT_CHANGED = "the pull request does not change its file"
NO_PATCH = "GitHub shows no diff of its file"
OFF_DIFF = "its lines are not on the pull request's diff"
UNCHANGED = "its lines are not lines the pull request changed"
MOVED = "its lines are no longer what the pull request's head holds"
NO_OP = "it changes nothing"
UNSHOWABLE = "its text cannot be shown safely"
OVERLAP = "it overlaps another suggestion"
OVER_LIMIT = f"only {LIMIT} suggestions fit one review"
REFUSED = "GitHub refused it"


@dataclass(frozen=True)
class Placement:
    """The suggestions to post, and each one left out with the reason."""

    kept: tuple[Suggestion, ...]
    left: tuple[tuple[Suggestion, str], ...]


class Shown(NamedTuple):
    """One line a patch shows on its right side: its hunk, its text, whether it is added."""

    hunk: int
    text: str
    added: bool


def right_lines(patch: str) -> dict[int, Shown]:
    """New-file line number -> each line a patch shows on its right side (added or context);
    the text keeps a carriage return, as the patch does."""
    found: dict[int, Shown] = {}
    hunk, line = -1, 0
    for raw in patch.split("\n"):
        head = _HUNK.match(raw)
        if head:
            hunk, line = hunk + 1, int(head.group(1))
        elif hunk >= 0 and raw[:1] in (" ", "+"):
            found[line] = Shown(hunk, raw[1:], raw[:1] == "+")
            line += 1
    return found


def place(
    fixes: Iterable[Suggestion], patches: Mapping[str, str | None], limit: int = LIMIT
) -> Placement:
    """Which suggestions can be posted on a pull request whose files have these patches."""
    kept: list[Suggestion] = []
    left: list[tuple[Suggestion, str]] = []
    taken: set[tuple[str, int]] = set()
    diffs = {name: right_lines(patch) for name, patch in patches.items() if patch}
    for fix in fixes:
        lines = {(fix.file, n) for n in range(fix.first, fix.last + 1)}
        reason = refusal(fix, patches, diffs)
        if not reason and lines & taken:
            reason = OVERLAP
        if not reason and len(kept) >= limit:
            reason = OVER_LIMIT
        if reason:
            left.append((fix, reason))
        else:
            kept.append(fix)
            taken |= lines
    return Placement(tuple(kept), tuple(left))


def refusal(
    fix: Suggestion,
    patches: Mapping[str, str | None],
    diffs: Mapping[str, Mapping[int, Shown]],
) -> str:
    """Why `fix` cannot be a suggestion on this diff, or ""."""
    if fix.file not in patches:
        return NOT_CHANGED
    if not patches[fix.file]:
        return NO_PATCH
    shown = diffs[fix.file]
    numbers = range(fix.first, fix.last + 1)
    if any(n not in shown for n in numbers) or len({shown[n].hunk for n in numbers}) != 1:
        return OFF_DIFF
    # A context line is someone else's entry: a fork's forged report could otherwise have
    # curator suggest a new link for a line its pull request never touched.
    if not all(shown[n].added for n in numbers):
        return UNCHANGED
    if [shown[n].text for n in numbers] != [line.rstrip("\n") for line in lines_of(fix.old)]:
        return MOVED
    if fix.new == fix.old:
        return NO_OP
    if fence(suggestion_block(fix.new)) is None:
        return UNSHOWABLE
    return ""


def suggestion_block(text: str) -> str:
    """The suggestion's lines as the block shows them: no line endings but the separators."""
    return "\n".join(line.rstrip("\r\n") for line in lines_of(text))


def fence(text: str) -> str | None:
    """A backtick fence longer than any backtick run in `text` (at least three), or None when
    the text holds control, bidi or invisible characters or too long a backtick run."""
    if s.hidden(text) or any(unicodedata.category(ch) == "Cc" and ch not in "\t\n" for ch in text):
        return None
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    if longest >= MAX_FENCE:
        return None
    return "`" * max(3, longest + 1)

"""Suggestions: a fix's whole-line changes as they travel from a check run to a pull request
review (the JSON report's `fixes`), and the limits every reader holds them to.

Pure. A suggestion names lines `first`..`last` of one file, the text they hold (`old`) and
what they become (`new`); a fix only changes values inside lines, so both have as many lines.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from curator.fix.model import FileFix, LineChange, lines_of

#: At most this many suggestions in one report (a pull request's changed entries are far fewer).
MAX_FIXES = 1000
#: Lines one suggestion may span, and characters of its old or new text.
MAX_LINES = 20
MAX_TEXT = 4000
#: Codes one suggestion may answer (edits on touching lines are merged into one change).
MAX_CODES = 8


@dataclass(frozen=True)
class Suggestion:
    """Lines `first`..`last` (1-based) of `file` hold `old` and should hold `new`; `codes` and
    `subject` say which findings it answers; `safe` is False for a fix curator would only
    apply with `--unsafe` (another paper's ID found by title)."""

    file: str
    first: int
    last: int
    old: str
    new: str
    codes: tuple[str, ...]
    subject: str
    safe: bool = True

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of the report's `fixes` array."""
        return {
            "file": self.file,
            "first": self.first,
            "last": self.last,
            "old": self.old,
            "new": self.new,
            "codes": list(self.codes),
            "subject": self.subject,
            "safe": self.safe,
        }


def suggestions(files: Iterable[FileFix], unsafe: Iterable[FileFix] = ()) -> tuple[Suggestion, ...]:
    """The whole-line changes of `files` (one FileFix per file, as `FixPlan.fixes(True)` gives
    the safe and unsafe edits together; a change holding an edit of `unsafe` is marked
    unsafe), in file and line order, each that changes something and that a reader takes
    (`problem`); at most MAX_FIXES."""
    risky = {edit for fix in unsafe for edit in fix.edits}
    found = (
        _suggestion(fix.file, change, safe=not risky.intersection(change.edits))
        for fix in files
        for change in fix.line_changes()
        if change.text != change.old
    )
    return tuple(s for s in found if not problem(s))[:MAX_FIXES]


def _suggestion(file: str, change: LineChange, safe: bool) -> Suggestion:
    """A LineChange as a suggestion: its findings' codes (in order, once) and first subject."""
    codes = tuple(dict.fromkeys(edit.finding.code for edit in change.edits))
    subject = change.edits[0].finding.subject if change.edits else ""
    return Suggestion(
        file, change.first, change.last, change.old, change.text, codes, subject, safe
    )


def problem(suggestion: Suggestion) -> str:
    """Why a reader refuses this suggestion (and with it the whole report), or "": the one
    policy for both sides, so `check --suggest` never writes a report `curator comment`
    refuses (a stray control character on a line of the list would cost the pull request
    its comment, not one suggestion)."""
    if not inside_tree(suggestion.file):
        return "the file is not a plain path inside the tree"
    if not fits(suggestion):
        return "the lines and the text do not match or exceed the limits"
    if not plain_text(suggestion.old) or not plain_text(suggestion.new):
        return "the text holds control characters"
    return ""


def inside_tree(name: str) -> bool:
    """A relative POSIX file name that stays inside the tree: no `..`, `.` or empty part, no
    leading `/`, drive or backslash, no `.git` folder, no control or format character."""
    if name.startswith("/") or "\\" in name or (len(name) > 1 and name[1] == ":"):
        return False
    if any(unicodedata.category(ch) in {"Cc", "Cf", "Zl", "Zp"} for ch in name):
        return False
    parts = name.split("/")
    return all(part not in ("", ".", "..") and part.lower() != ".git" for part in parts)


def plain_text(text: str) -> bool:
    """No control character but tab, line feed and carriage return."""
    return not any(unicodedata.category(ch) == "Cc" and ch not in "\t\n\r" for ch in text)


def fits(suggestion: Suggestion) -> bool:
    """Within the limits a reader enforces: lines, text sizes, codes, equal line counts."""
    span = suggestion.last - suggestion.first + 1
    return (
        1 <= suggestion.first <= suggestion.last
        and span <= MAX_LINES
        and len(suggestion.old) <= MAX_TEXT
        and len(suggestion.new) <= MAX_TEXT
        and 1 <= len(suggestion.codes) <= MAX_CODES
        and len(lines_of(suggestion.old)) == span
        and len(lines_of(suggestion.new)) == span
    )

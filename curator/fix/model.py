"""The values of a fix: one replacement in one file (`Edit`) and one file's fixes (`FileFix`).

Pure and frozen. An edit names the exact characters it replaces, so everything else in the
file stays as it was (line endings, comments, HTML, quoting); publishing builds on the same
values (a suggestion on a pull request, the nightly fix pull request), never on files.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from curator.core.model import Finding


@dataclass(frozen=True)
class Edit:
    """In `file`, the text `old` at [start, end) becomes `new` (offsets into the text as
    read: a str, line endings untranslated, a byte-order mark not counted). `finding` is
    the finding this edit answers: its code, subject, evidence and suggestion."""

    file: str
    start: int
    end: int
    old: str
    new: str
    finding: Finding


def narrowed(edit: Edit) -> Edit:
    """The same change with the characters `old` and `new` share at both ends left out (a
    date's year, a URL's host): only what carries the wrong value is replaced."""
    old, new = edit.old, edit.new
    head = 0
    limit = min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    if head == 0 and tail == 0:
        return edit
    start, end = edit.start + head, edit.end - tail
    return Edit(edit.file, start, end, old[head : len(old) - tail], new[head : len(new) - tail],
                edit.finding)  # fmt: skip


class OverlapError(ValueError):
    """Two edits of one file touch the same characters: no safe order to apply them."""


def apply(text: str, edits: Sequence[Edit]) -> str:
    """`text` with every edit made; the edits must not overlap and must match `text`."""
    out: list[str] = []
    at = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < at:
            raise OverlapError(f"{edit.file}: edits overlap at offset {edit.start}")
        if text[edit.start : edit.end] != edit.old:
            raise ValueError(f"{edit.file}: offset {edit.start} does not hold {edit.old!r}")
        out.append(text[at : edit.start])
        out.append(edit.new)
        at = edit.end
    out.append(text[at:])
    return "".join(out)


def line_of(text: str, offset: int) -> int:
    """The 1-based line holding `offset`."""
    return text.count("\n", 0, offset) + 1


def lines_of(text: str) -> list[str]:
    """The lines of `text` with their endings, split at "\n" only (as `line_of` counts, and
    as the list's readers number lines: a form feed or U+2028 in a title starts no line)."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    return [*lines, parts[-1]] if parts[-1] else lines


@dataclass(frozen=True)
class LineChange:
    """Whole lines `first`..`last` (1-based, inclusive) of the old text, and what they become:
    the shape of a GitHub suggested change. `text` keeps the lines' own endings."""

    first: int
    last: int
    old: str
    text: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class FileFix:
    """One file's text before and after its edits."""

    file: str
    before: str
    edits: tuple[Edit, ...]

    @property
    def after(self) -> str:
        """The text with every edit made."""
        return apply(self.before, self.edits)

    def diff(self) -> str:
        """A unified diff (`a/FILE`, `b/FILE`), three lines of context, endings kept: what
        difflib.unified_diff gives, built from the edits' own lines (a fix never adds or
        removes a line), so thousands of fixes in a long list take linear time, not
        difflib's matching of every line against every other."""
        blocks = _blocks(self.line_changes())
        if not blocks:
            return ""
        old = lines_of(self.before)
        out = [f"--- a/{self.file}\n", f"+++ b/{self.file}\n"]
        for hunk in _hunks(blocks):
            start = max(1, hunk[0][0] - CONTEXT)
            end = min(len(old), hunk[-1][1] + CONTEXT)
            span = _range(start, end)
            out.append(f"@@ -{span} +{span} @@\n")
            at = start
            for first, last, new in hunk:
                out += [" " + line for line in old[at - 1 : first - 1]]
                out += ["-" + line for line in old[first - 1 : last]]
                out += ["+" + line for line in new]
                at = last + 1
            out += [" " + line for line in old[at - 1 : end]]
        return "".join(line if line.endswith("\n") else line + "\n" for line in out)

    def line_changes(self) -> list[LineChange]:
        """The edits as whole-line replacements; edits whose lines touch are merged into one.
        The text's lines are found once (thousands of edits in a long list stay linear)."""
        starts = line_starts(self.before)
        groups: list[list[Edit]] = []
        spans: list[tuple[int, int]] = []
        for edit in sorted(self.edits, key=lambda e: e.start):
            first = bisect.bisect_right(starts, edit.start)
            last = bisect.bisect_right(starts, max(edit.start, edit.end - 1))
            if spans and first <= spans[-1][1]:
                groups[-1].append(edit)
                spans[-1] = (spans[-1][0], max(spans[-1][1], last))
            else:
                groups.append([edit])
                spans.append((first, last))
        return [
            self._change(starts, first, last, group)
            for (first, last), group in zip(spans, groups, strict=True)
        ]

    def _change(self, starts: list[int], first: int, last: int, group: list[Edit]) -> LineChange:
        """One LineChange: lines first..last of `before` with the group's edits made."""
        start = starts[first - 1]
        end = starts[last] if last < len(starts) else len(self.before)
        old = self.before[start:end]
        shifted = [
            Edit(e.file, e.start - start, e.end - start, e.old, e.new, e.finding) for e in group
        ]
        return LineChange(first, last, old, apply(old, shifted), tuple(group))


#: Lines of context around each change in a diff (difflib's and git's default).
CONTEXT = 3


def _blocks(changes: Sequence[LineChange]) -> list[tuple[int, int, list[str]]]:
    """Runs of changed lines (first, last, their new lines): line changes on consecutive
    lines form one run, as difflib shows one replacement for them."""
    blocks: list[tuple[int, int, list[str]]] = []
    for change in changes:
        if change.text == change.old:
            continue
        new = lines_of(change.text)
        if blocks and blocks[-1][1] + 1 == change.first:
            first, _, lines = blocks[-1]
            blocks[-1] = (first, change.last, [*lines, *new])
        else:
            blocks.append((change.first, change.last, new))
    return blocks


def _hunks(
    blocks: list[tuple[int, int, list[str]]],
) -> list[list[tuple[int, int, list[str]]]]:
    """Runs grouped into hunks: two runs share one when the unchanged lines between them
    are no more than twice the context (difflib's grouping)."""
    hunks: list[list[tuple[int, int, list[str]]]] = []
    for block in blocks:
        if hunks and block[0] - hunks[-1][-1][1] - 1 <= 2 * CONTEXT:
            hunks[-1].append(block)
        else:
            hunks.append([block])
    return hunks


def _range(start: int, end: int) -> str:
    """A unified diff's range of lines start..end (1-based, inclusive), as difflib writes it."""
    length = end - start + 1
    return str(start) if length == 1 else f"{start},{length}"


def line_starts(text: str) -> list[int]:
    """The offset where each line of `text` starts (lines end at "\n" only, as `line_of`)."""
    return [0, *(m.end() for m in re.finditer("\n", text))]


_TICKS = re.compile(r"(?<!`)`+(?!`)")


def code_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The (start, end) offsets of the code spans in text[start:end]: a run of backticks up
    to the next run of the same length (CommonMark's rule; an unmatched run is text)."""
    spans: list[tuple[int, int]] = []
    runs = list(_TICKS.finditer(text, start, end))
    i = 0
    while i < len(runs):
        opening = runs[i]
        width = len(opening.group(0))
        close = next((j for j in range(i + 1, len(runs)) if len(runs[j].group(0)) == width), None)
        if close is None:
            i += 1
            continue
        spans.append((opening.start(), runs[close].end()))
        i = close + 1
    return spans

"""Proof that a file's edits did only what they meant: the file read again, entry by entry.

Pure (parsing only). The text before and after the edits is read with the list's own reader;
the entries must be the same, on the same lines, of the same kinds, with the same titles,
dates and subjects, except exactly the values the edits were made for. An escape that went
wrong (a `|` that split a table cell, a `<` that opened a tag) shows up here, and the edit is
dropped instead of written.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from curator.checks.titles import compact
from curator.core.model import Entry
from curator.core.normalize import subject_for_url
from curator.core.subjects import arxiv_subject, repo_subject
from curator.fix.values import Change, Want
from curator.sources.reading import entries_of


@dataclass(frozen=True)
class Shape:
    """What a reader made of one entry, as far as a fix may change it."""

    line: int
    kind: str
    subject: str
    title: str  # compacted; "" when a link edit may change it (a URL as the link's text)
    date: str
    subjects: frozenset[str]


def shape(entry: Entry) -> Shape:
    """The shape of an entry as read."""
    return Shape(
        entry.source.line,
        entry.kind.value,
        entry.subject,
        compact(entry.title),
        entry.date,
        frozenset(entry.subjects()),
    )


def read_entries(file: str, text: str) -> list[Entry] | None:
    """The entries of `file`'s text in line order, or None when it no longer reads."""
    return entries_of(file, text)


def misread(
    file: str, before: Sequence[Entry], after: str, changes: Sequence[tuple[Entry, Want, str]]
) -> set[tuple[int, str]] | None:
    """The entries of `before` (line, subject) that `after` does not read as expected with
    `changes` made ((entry, want, the finding's subject) per edited finding): set() when all
    do; None when `after` does not read as as many entries, or a change names no entry of
    `before` (as the earlier changes left it)."""
    now = read_entries(file, after)
    if now is None or len(now) != len(before):
        return None
    expected = [shape(e) for e in before]
    where = _Places(expected)
    for entry, want, subject in changes:
        at = where.first((entry.source.line, entry.subject))
        if at is None:
            return None
        expected[at] = changed(expected[at], want, subject)
        where.move(at, (expected[at].line, expected[at].subject))
    got = [shape(e) for e in now]
    return {
        (e.source.line, e.subject)
        for e, want, have in zip(before, expected, got, strict=True)
        if not _alike(want, have)
    }


class _Places:
    """Where each (line, subject) stands among the shapes, kept as changes move subjects:
    one look-up per change, not a scan of every shape."""

    def __init__(self, shapes: Sequence[Shape]) -> None:
        self.keys = [(s.line, s.subject) for s in shapes]
        self.at: dict[tuple[int, str], list[int]] = defaultdict(list)
        for i, key in enumerate(self.keys):
            self.at[key].append(i)  # ascending

    def first(self, key: tuple[int, str]) -> int | None:
        """The first shape with `key` now, or None."""
        places = self.at.get(key)
        return places[0] if places else None

    def move(self, i: int, key: tuple[int, str]) -> None:
        """Shape `i` now has `key`."""
        if key != self.keys[i]:
            self.at[self.keys[i]].remove(i)
            bisect.insort(self.at[key], i)
            self.keys[i] = key


def changed(before: Shape, want: Want, subject: str) -> Shape:
    """The shape an entry should have once `want` is made."""
    if want.change is Change.TITLE:
        return replace(before, title=compact(want.new))
    if want.change is Change.DATE:
        return replace(before, date=want.new)
    old, new = _subjects(want, subject)
    subjects = frozenset(new if s == old else s for s in before.subjects)
    main = new if before.subject == old else before.subject
    return replace(before, subject=main, subjects=subjects, title="")


def _subjects(want: Want, subject: str) -> tuple[str, str]:
    """The subject a link edit replaces, and the one it becomes."""
    if want.change is Change.REPO:
        return subject, repo_subject(want.new)
    if want.change is Change.URL:
        return subject, subject_for_url(want.new)
    if want.change is Change.ARXIV_ID:
        return arxiv_subject(want.old), arxiv_subject(want.new)
    return subject, subject  # FORM: the same paper, another form of its link


def _alike(expected: Shape, got: Shape) -> bool:
    """True when `got` is `expected` (a title left blank in `expected` is not compared)."""
    if not expected.title:
        got = replace(got, title="")
    return expected == got

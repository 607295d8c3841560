"""Proof that a file's edits did only what they meant: the file read again, entry by entry.

Pure (parsing only). The text before and after the edits is read with the list's own reader;
the entries must be the same, on the same lines, of the same kinds, with the same titles,
dates and subjects, except exactly the values the edits were made for. An escape that went
wrong (a `|` that split a table cell, a `<` that opened a tag) shows up here, and the edit is
dropped instead of written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from curator.checks.titles import compact
from curator.fix.values import Change, Want
from curator.model import Entry
from curator.normalize import subject_for_url
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


def reads_as_expected(
    file: str, before: Sequence[Entry], after: str, changes: Sequence[tuple[Entry, Want, str]]
) -> bool:
    """True when `after` reads as `before` (the entries of the text before the edits) with
    exactly `changes` made: (entry, want, the finding's subject) per edited finding."""
    return misread(file, before, after, changes) == set()


def misread(
    file: str, before: Sequence[Entry], after: str, changes: Sequence[tuple[Entry, Want, str]]
) -> set[tuple[int, str]] | None:
    """The entries of `before` (line, subject) that `after` does not read as expected with
    `changes` made (see `reads_as_expected`): set() when all do; None when `after` does not
    read as as many entries, or a change names no entry of `before`."""
    now = read_entries(file, after)
    if now is None or len(now) != len(before):
        return None
    expected = [shape(e) for e in before]
    for entry, want, subject in changes:
        at = _index(expected, entry)
        if at is None:
            return None
        expected[at] = changed(expected[at], want, subject)
    got = [shape(e) for e in now]
    return {
        (e.source.line, e.subject)
        for e, want, have in zip(before, expected, got, strict=True)
        if not _alike(want, have)
    }


def _index(shapes: list[Shape], entry: Entry) -> int | None:
    """Where `entry` stands among `shapes` (its line and subject), or None."""
    return next(
        (
            i
            for i, s in enumerate(shapes)
            if (s.line, s.subject) == (entry.source.line, entry.subject)
        ),
        None,
    )


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
        return subject, f"github:{want.new.lower()}"
    if want.change is Change.URL:
        return subject, subject_for_url(want.new)
    if want.change is Change.ARXIV_ID:
        return f"arxiv:{want.old}", f"arxiv:{want.new}"
    return subject, subject  # FORM: the same paper, another form of its link


def _alike(expected: Shape, got: Shape) -> bool:
    """True when `got` is `expected` (a title left blank in `expected` is not compared)."""
    if not expected.title:
        got = replace(got, title="")
    return expected == got

"""The fix planner: a check's report and the files' texts in, the edits that fix it out.

Pure. Each finding with one safe answer (`values.want_of`) is located in its entry's own
text (`doc_edits` for documents, `yaml_edits` for the catalogue); the edits of one file are
then read back (`verify`) and kept only if the file still reads as the same entries with
just those values changed. Everything else is `left`, never guessed.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from curator.core.model import Entry, Finding, Report
from curator.fix import yaml_edits
from curator.fix.anchors import anchor_edits
from curator.fix.model import Edit, FileFix, apply, narrowed
from curator.fix.values import Want, want_of
from curator.fix.verify import misread, read_entries
from curator.sources.reading import is_catalog

if TYPE_CHECKING:  # the document locator (markdown-it) is imported when a document has a fix
    from curator.fix import doc_edits


@dataclass(frozen=True)
class FixPlan:
    """What `curator fix` would do: safe edits per file, edits that wait for `--unsafe`
    (an arXiv ID that arXiv's title search names), and the findings no edit answers."""

    files: tuple[FileFix, ...]  # safe edits, one FileFix per file that has any
    unsafe: tuple[FileFix, ...]  # edits made only with --unsafe; same `before` as in `files`
    left: tuple[Finding, ...]  # findings not fixed (no safe answer, or not located)

    def fixes(self, unsafe: bool = False) -> tuple[FileFix, ...]:
        """The FileFix of every file to write: the safe edits, and with `unsafe` the unsafe
        ones too (merged per file; they never overlap)."""
        if not unsafe:
            return self.files
        merged: dict[str, FileFix] = {f.file: f for f in self.files}
        for extra in self.unsafe:
            have = merged.get(extra.file)
            edits = (*have.edits, *extra.edits) if have else extra.edits
            merged[extra.file] = FileFix(extra.file, extra.before, _in_order(edits))
        return tuple(merged[f] for f in sorted(merged))

    def fixed(self, unsafe: bool = False) -> tuple[Finding, ...]:
        """The findings the edits answer (with `unsafe`, the ID suggestions too), in order."""
        return _findings(e for fix in self.fixes(unsafe) for e in fix.edits)

    def remaining(self, unsafe: bool = False) -> tuple[Finding, ...]:
        """What is still wrong once the edits are made: `left`, and without `unsafe` the
        findings whose only answer is an unsafe edit."""
        waiting = () if unsafe else _findings(e for fix in self.unsafe for e in fix.edits)
        return (*self.left, *waiting)


@dataclass(frozen=True)
class _Located:
    """One finding, its entry, its answer and the edits that make it."""

    finding: Finding
    entry: Entry
    want: Want
    edits: tuple[Edit, ...]


def plan_fixes(
    report: Report,
    texts: Mapping[str, str],
    *,
    only: frozenset[str] | None = None,
    entries: Sequence[Entry] | None = None,
) -> FixPlan:
    """The plan for `report`'s findings over `texts` (file as the report names it -> its
    text as read: `sources.text.read_text`). `only` limits it to some codes; `entries` are
    every entry the check read from those texts (`prepare` gives them: an entry's own text
    ends where the next one starts, and in pull-request mode the report holds only the
    chosen ones). Without them each file is read once more here."""
    chosen = [r.entry for r in report.entries]
    befores = {file: _read_before(file, text, entries) for file, text in texts.items()}
    places = _by_place(chosen)
    readers = _readers(texts, befores)
    located: dict[str, list[_Located]] = defaultdict(list)
    left: list[Finding] = []
    for finding in report.findings:
        got = _locate(finding, places, readers, only)
        if got is None:
            left.append(finding)
        else:
            located[finding.source.file].append(got)
    files: list[FileFix] = []
    unsafe: list[FileFix] = []
    for file in sorted(located):
        text = texts[file]
        before = befores[file]
        safe, risky = _settle(file, text, before, located[file]) if before else ([], [])
        if safe:
            files.append(FileFix(file, text, _in_order(e for got in safe for e in got.edits)))
        if risky:
            unsafe.append(FileFix(file, text, _in_order(e for got in risky for e in got.edits)))
        kept = {id(got.finding) for got in (*safe, *risky)}
        left.extend(got.finding for got in located[file] if id(got.finding) not in kept)
    files, left = _with_anchors(files, left, texts, only)
    order = {id(f): i for i, f in enumerate(report.findings)}
    return FixPlan(tuple(files), tuple(unsafe), tuple(sorted(left, key=lambda f: order[id(f)])))


def _with_anchors(
    files: list[FileFix], left: list[Finding], texts: Mapping[str, str], only: frozenset[str] | None
) -> tuple[list[FileFix], list[Finding]]:
    """The broken anchors that have one clear answer, added to their file's edits where they
    touch no other edit (an anchor is no entry's value: nothing to read back)."""
    if only is not None and "anchor-missing" not in only:
        return files, left
    by_file = {f.file: f for f in files}
    still: list[Finding] = []
    for finding in left:
        text = texts.get(finding.source.file)
        found = anchor_edits(finding.source.file, text, finding) if text is not None else []
        edits = [narrowed(e) for e in found]
        have = by_file.get(finding.source.file)
        taken = have.edits if have is not None else ()
        if not edits or any(a.start < b.end and b.start < a.end for a in edits for b in taken):
            still.append(finding)
            continue
        assert text is not None
        by_file[finding.source.file] = FileFix(
            finding.source.file, text, _in_order((*taken, *edits))
        )
    return [by_file[f] for f in sorted(by_file)], still


def _read_before(file: str, text: str, entries: Sequence[Entry] | None) -> list[Entry]:
    """The file's entries before any edit, in line order: those given (every entry the check
    read), else the file read here (a report may hold only some of them)."""
    if entries is None:
        return read_entries(file, text) or []
    return sorted((e for e in entries if e.source.file == file), key=lambda e: e.source.line)


def _by_place(entries: Iterable[Entry]) -> dict[tuple[str, int], list[Entry]]:
    """Entries by (file, first line)."""
    out: dict[tuple[str, int], list[Entry]] = defaultdict(list)
    for entry in entries:
        out[(entry.source.file, entry.source.line)].append(entry)
    return out


Reader: TypeAlias = "doc_edits.DocText | yaml_edits.CatalogText"


def _readers(texts: Mapping[str, str], befores: Mapping[str, list[Entry]]) -> dict[str, Reader]:
    """A locator per file: the catalogue's items, or the document's entry lines."""
    if not all(is_catalog(file) for file in texts):
        from curator.fix import doc_edits
    return {
        file: yaml_edits.CatalogText(file, text)
        if is_catalog(file)
        else doc_edits.DocText(file, text, sorted({e.source.line for e in befores[file]}))
        for file, text in texts.items()
    }


def _locate(
    finding: Finding,
    places: Mapping[tuple[str, int], list[Entry]],
    readers: Mapping[str, Reader],
    only: frozenset[str] | None,
) -> _Located | None:
    """The finding located in its entry's text, or None when it stays as it is."""
    reader = readers.get(finding.source.file)
    if reader is None or (only is not None and finding.code not in only):
        return None
    entry = _entry_of(finding, places)
    want = want_of(finding, entry) if entry is not None else None
    if entry is None or want is None:
        return None
    if isinstance(reader, yaml_edits.CatalogText):
        edits = yaml_edits.edits_for(reader, want, entry, finding)
    else:
        from curator.fix import doc_edits

        edits = doc_edits.edits_for(reader, want, entry, finding)
    changes = tuple(narrowed(e) for e in edits or () if e.old != e.new)
    return _Located(finding, entry, want, changes) if changes else None


def _entry_of(finding: Finding, places: Mapping[tuple[str, int], list[Entry]]) -> Entry | None:
    """The one entry the finding is about: at its place, its own subject first, else the
    one entry there that links the subject; None when that is not one entry."""
    here = places.get((finding.source.file, finding.source.line), [])
    own = [e for e in here if e.subject == finding.subject]
    if len(own) == 1:
        return own[0]
    linked = [e for e in here if finding.subject in e.subjects()]
    return linked[0] if len(linked) == 1 and not own else None


def _settle(
    file: str, text: str, before: list[Entry], located: list[_Located]
) -> tuple[list[_Located], list[_Located]]:
    """The safe and the unsafe answers of one file that apply together and read back as
    meant (unsafe ones on top of the safe ones); the rest are dropped. `before`: the entries
    read from `text` (the check's own reading of it)."""
    safe = _proven(file, text, before, _disjoint([g for g in located if not g.want.unsafe]))
    risky = [g for g in located if g.want.unsafe]
    if not risky:
        return safe, []
    together = _proven(file, text, before, _disjoint([*safe, *risky]))
    if sum(not g.want.unsafe for g in together) < len(safe):
        # The unsafe answers would cost proven safe ones: the safe ones stand alone.
        return safe, []
    return safe, [g for g in together if g.want.unsafe]


def _disjoint(located: list[_Located]) -> list[_Located]:
    """The answers whose edits touch no character another (earlier) one edits."""
    taken = _Taken()
    out: list[_Located] = []
    for got in located:
        spans = [(e.start, e.end) for e in got.edits]
        if any(taken.hits(a, b) for a, b in spans):
            continue
        for a, b in spans:
            taken.add(a, b)
        out.append(got)
    return out


class _Taken:
    """The characters earlier answers edit, as sorted disjoint spans (and the places empty
    edits insert at): a look-up is a bisect, not a scan of every span taken (a long list's
    thousands of answers stay near-linear)."""

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.points: list[int] = []

    def hits(self, a: int, b: int) -> bool:
        """True when some taken span (x, y), empty or not, has a < y and x < b."""
        i = bisect.bisect_left(self.starts, b) - 1  # the last span starting before b
        if i >= 0 and a < self.ends[i]:  # spans before it end before its start
            return True
        j = bisect.bisect_right(self.points, a)  # the first point after a
        return j < len(self.points) and self.points[j] < b

    def add(self, x: int, y: int) -> None:
        """Take (x, y), merged with the spans it overlaps."""
        if x >= y:
            bisect.insort(self.points, x)
            return
        i = bisect.bisect_left(self.starts, y)
        j = i
        while j > 0 and self.ends[j - 1] > x:
            j -= 1
            x, y = min(x, self.starts[j]), max(y, self.ends[j])
        self.starts[j:i] = [x]
        self.ends[j:i] = [y]


#: Readings of one file the proof may spend (each one parses the whole file). Without a
#: bound, answers that each fail (redirects a contributor's server sends to GitHub, which
#: would turn links into projects) cost two readings per answer: 127 readings and 41 s of
#: CPU for 64 of them in a 2,000-entry list. An answer not proven within it is left.
MAX_READINGS = 16


@dataclass
class _Readings:
    """What is left of one file's MAX_READINGS."""

    left: int = MAX_READINGS


def _proven(file: str, text: str, before: list[Entry], located: list[_Located]) -> list[_Located]:
    """The answers whose edits read back as meant: all of them, or else the most that do
    within MAX_READINGS readings of the file (see `_prove`)."""
    return _prove(file, text, before, located, _Readings())


def _prove(
    file: str, text: str, before: list[Entry], located: list[_Located], readings: _Readings
) -> list[_Located]:
    """The answers that read back as meant. A reading that fails names the entries that
    read wrong: the answers on other entries are proven without those first (one more
    reading when the culprits are their own entries' answers); else the list is halved
    until the culprits stand alone. Nothing is kept that no reading proved."""
    if not located or readings.left <= 0:
        return []
    readings.left -= 1
    wrong = _misread(file, text, before, located)
    if wrong == set():
        return located
    if len(located) == 1:
        return []
    rest = [g for g in located if (g.entry.source.line, g.entry.subject) not in (wrong or ())]
    if rest and len(rest) < len(located):
        kept = _prove(file, text, before, rest, readings)
        if kept:
            return kept
    half = len(located) // 2
    first = _prove(file, text, before, located[:half], readings)
    second = _prove(file, text, before, located[half:], readings)
    both = [*first, *second]
    if len(both) < len(located) and first and second and readings.left > 0:
        readings.left -= 1
        if _misread(file, text, before, both) == set():
            return both
    return max(first, second, key=len)


def _misread(
    file: str, text: str, before: list[Entry], located: list[_Located]
) -> set[tuple[int, str]] | None:
    """The entries (line, subject) that `text` with these answers' edits does not read as
    meant; None when it does not even read as as many entries (verify.misread)."""
    after = apply(text, [e for got in located for e in got.edits])
    changes = [(g.entry, g.want, g.finding.subject) for g in located]
    return misread(file, before, after, changes)


def _in_order(edits: Iterable[Edit]) -> tuple[Edit, ...]:
    """Edits by position in the file."""
    return tuple(sorted(edits, key=lambda e: (e.start, e.end)))


def _findings(edits: Iterable[Edit]) -> tuple[Finding, ...]:
    """The findings of `edits`, each once, in first-edit order."""
    seen: dict[int, Finding] = {}
    for edit in edits:
        seen.setdefault(id(edit.finding), edit.finding)
    return tuple(seen.values())

"""Pull-request mode: keep only the entries added or changed since a git ref (by entry)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from curator.core.errors import UsageError
from curator.core.model import Entry
from curator.sources.interface import Reference
from curator.textio import git
from curator.textio.text import MAX_BYTES

if TYPE_CHECKING:
    from curator.sources.doc_parse import InlineParses


@dataclass(frozen=True)
class Changes:
    """What a pull request changed in the files read: per file, the lines changed (None:
    every line; a file left out is unchanged); and for each file changed in part, its bytes
    at the base revision (to read the entries it had: `new_entries`)."""

    lines: dict[str, set[int] | None]
    base: dict[str, bytes]


def changed_lines(ref: str, files: Sequence[str], cwd: Path) -> dict[str, set[int] | None]:
    """Per file (as given, relative to `cwd`), the lines changed since `ref`; None = every
    line (a file new since `ref`, or one whose change has no line to show). A file left out
    is unchanged. The base's blobs are read raw and compared with the files' bytes, so no
    attribute or configuration of the checked tree changes the answer (curator.textio.git)."""
    return changes(ref, files, cwd).lines


def changes(ref: str, files: Sequence[str], cwd: Path) -> Changes:
    """`changed_lines`, with the base's bytes of each file changed in part."""
    if not files:
        return Changes({}, {})
    try:
        return _changed(ref, files, cwd)
    except UsageError as exc:
        raise UsageError(f"--changed-since: {exc}") from None


class Comparison:
    """One pull-request run's comparison with its base revision, each file compared once for
    every stage that asks (the catalogue reader validates only what changed, the select
    stage picks entries: one comparison was twice the git calls), and the inline parses its
    readings of a document share (the base's reading takes over the unchanged paragraphs).
    A value of one run, handed to its stages, never kept past it: the tree may change."""

    def __init__(self, ref: str, cwd: Path) -> None:
        self.ref = ref
        self.cwd = cwd
        self._found = Changes({}, {})
        self._asked: set[str] = set()

    def changes(self, files: Sequence[str]) -> Changes:
        """`changes(ref, files, cwd)`, comparing only the files not compared before."""
        new = [f for f in dict.fromkeys(files) if f not in self._asked]
        if new:
            got = changes(self.ref, new, self.cwd)
            self._found.lines.update(got.lines)
            self._found.base.update(got.base)
            self._asked.update(new)
        # In the caller's order, and sets of its own (callers add to them).
        found, base = self._found.lines, self._found.base
        return Changes(
            {f: None if found[f] is None else set(found[f] or ()) for f in files if f in found},
            {f: base[f] for f in files if f in base},
        )

    @cached_property
    def inlines(self) -> InlineParses:
        """The inline parses of the run's documents (made when a document is first read)."""
        from curator.sources.doc_parse import InlineParses

        return InlineParses()


def _changed(ref: str, files: Sequence[str], cwd: Path) -> Changes:
    base = git.resolve(ref, cwd)
    paths = [base.prefix + f for f in files]
    listed = {e.path: e for e in git.tree_entries(base.commit, paths, cwd) if e.regular}
    current = {f: _current(cwd / f) for f in files}
    # Only the files whose bytes are not the base's blob are read from git and compared.
    differ = {
        f: listed[p]
        for f, p in zip(files, paths, strict=True)
        if p in listed and current[f] is not None
        and git.blob_name(current[f] or b"", listed[p].oid) != listed[p].oid
    }  # fmt: skip
    blobs = git.objects([e.oid for e in differ.values()], cwd)
    out: dict[str, set[int] | None] = {}
    before: dict[str, bytes] = {}
    for file, path in zip(files, paths, strict=True):
        if path not in listed or current[file] is None:
            out[file] = None  # new since the base (or no longer a regular file there)
        elif file in differ:
            data = blobs[differ[file].oid].data
            lines = git.changed_lines(data, current[file] or b"")
            if lines is None or lines:
                out[file] = lines
            if lines:
                before[file] = data
    return Changes(out, before)


def _current(path: Path) -> bytes | None:
    """The file's bytes as curator reads them; None when it cannot (then it is wholly new)."""
    try:
        return path.read_bytes() if path.stat().st_size <= MAX_BYTES else None
    except OSError:
        return None


def follow_references(
    changed: dict[str, set[int] | None], references: Iterable[Reference]
) -> dict[str, set[int] | None]:
    """The changed lines as entries see them: a changed Markdown reference definition
    (`[label]: url`) changes the links that use its label, wherever they stand, and not the
    entry whose line span happens to hold the definition."""
    out = {file: None if lines is None else set(lines) for file, lines in changed.items()}
    for ref in references:
        lines = out.get(ref.file)
        if not lines:
            continue  # unchanged, or wholly changed already
        span = range(ref.first, ref.last + 1)
        # Walk the smaller side: a definition's few lines, or a small diff's (a walk over
        # every changed line per definition was quadratic: 1.4 s for 5,000 x 10,000).
        if len(span) < len(lines):
            hit = {n for n in span if n in lines}
        else:
            hit = {n for n in lines if n in span}
        if hit:
            lines -= hit
            lines.update(ref.used_at)
    return out


def new_entries(
    entries: Iterable[Entry], before: Mapping[str, Sequence[Entry] | None]
) -> list[Entry]:
    """The entries of each file of `before` that the file did not have at the base (`before`:
    its entries there; None when they could not be read, then every entry counts): judged
    by what an entry says, not where it stands, so text a pull request makes an entry
    without touching its lines (an HTML comment's or a code fence's ends removed, a table's
    delimiter row mended) is new. Moved entries are not."""
    had: dict[str, Counter[tuple[object, ...]]] = {
        file: Counter(map(identity, old)) for file, old in before.items() if old is not None
    }
    out: list[Entry] = []
    for entry in entries:
        file = entry.source.file
        if file not in before:
            continue
        known = had.get(file)
        key = identity(entry)
        if known is not None and known[key] > 0:
            known[key] -= 1
        else:
            out.append(entry)
    return out


def identity(entry: Entry) -> tuple[object, ...]:
    """What an entry says that the checks verify: kind, subjects, title, date."""
    return (entry.kind, entry.subjects(), entry.title, entry.date)


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
            # Entries on one line all hold it (the next entry's line - 1 left the first none).
            after = group[i + 1].source.line - 1 if i + 1 < len(group) else 10**9
            end = max(entry.source.line, after)
            if lines is None or any(entry.source.line <= n <= end for n in lines):
                chosen.append(entry)
    return chosen

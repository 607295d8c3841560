"""What `curator fix` prints: a line per file changed (with `--verbose`, a line per change)
and a one-line summary, or the diff.

Pure: strings in, strings out; the command writes them, wrapped to the terminal by
`report.terminal`, whose pieces (relative paths, plurals, the requests phrase) it shares with
`check`. Every name and text from the checked tree goes through `report.sanitize.terminal`
(a diff line keeps its tabs and its CRLF ending, nothing else a terminal would act on).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

from rich.text import Text

from curator.console.sanitize import terminal
from curator.console.terminal import PATH_STYLE, inert, plural, requests_phrase, seconds, shown_path
from curator.core.model import RequestCounts
from curator.fix.model import Edit, FileFix, apply, line_of, lines_of
from curator.fix.plan import FixPlan

#: A value longer than this is shown clipped in a `--verbose` change line.
SHOWN = 60


def _codes(findings: Iterable[object]) -> str:
    """`2 repo-moved, 1 arxiv-date-mismatch`: codes by count, most first (three at most)."""
    counts = Counter(str(getattr(f, "code", "")) for f in findings)
    shown = [f"{n} {code}" for code, n in counts.most_common(3)]
    return ", ".join(shown) + (", …" if len(counts) > 3 else "")


def file_lines(fixes: Sequence[FileFix], cwd: str = "") -> list[str]:
    """One line per file changed: its path (relative to `cwd`) and what was fixed in it."""
    lines = []
    for fix in fixes:
        findings = {id(e.finding): e.finding for e in fix.edits}.values()
        lines.append(f"{inert(shown_path(fix.file, cwd))}: {_codes(findings)}")
    return lines


def change_lines(fixes: Sequence[FileFix], cwd: str = "") -> list[str]:
    """`--verbose`: one line per change, `path:line: code old → new`, each value the whole
    word(s) it changes (an edit holds only the characters that differ), clipped."""
    lines = []
    for fix in fixes:
        for edit in sorted(fix.edits, key=lambda e: e.start):
            old, new = _words(fix.before, edit)
            where = f"{inert(shown_path(fix.file, cwd))}:{line_of(fix.before, edit.start)}"
            lines.append(f"{where}: {edit.finding.code} {_clip(old)} → {_clip(new)}")
    return lines


#: Where a value shown in a change line stops: spaces and the marks around a value.
_EDGE = frozenset(" \t\r\n|()[]<>\"'`*")


def _words(text: str, edit: Edit) -> tuple[str, str]:
    """The edit's old and new text widened to the words around it on its line."""
    start, end = _word_span(text, edit)
    head, tail = text[start : edit.start], text[edit.end : end]
    return head + edit.old + tail, head + edit.new + tail


def _word_span(text: str, edit: Edit) -> tuple[int, int]:
    """[start, end) of the words around the edit, on its line."""
    start, end = edit.start, edit.end
    while start > 0 and text[start - 1] not in _EDGE:
        start -= 1
    while end < len(text) and text[end] not in _EDGE:
        end += 1
    return start, end


def _clip(text: str) -> str:
    """A value as one inert line, at most SHOWN characters."""
    shown = inert(text)
    return shown if len(shown) <= SHOWN else shown[: SHOWN - 1] + "…"


def summary(plan: FixPlan, unsafe: bool, dry: bool, requests: RequestCounts, elapsed: float) -> str:
    """`Fixed 7 findings in 2 files (3 left: 2 arxiv-withdrawn, 1 repo-archived); 12 arXiv
    requests in 2.1 s`, ruff-style (`Would fix` with --diff)."""
    fixes = [f for f in plan.fixes(unsafe) if f.edits]
    fixed = plan.fixed(unsafe)
    left = plan.remaining(unsafe)
    tail = f" ({len(left)} left: {_codes(left)})" if left else ""
    cost = f"; {requests_phrase(requests)} in {seconds(elapsed)}"
    if not fixed:
        return f"Nothing to fix{tail}{cost}"
    verb = "Would fix" if dry else "Fixed"
    return f"{verb} {plural(len(fixed), 'finding')} in {plural(len(fixes), 'file')}{tail}{cost}"


def waiting(plan: FixPlan, unsafe: bool) -> list[str]:
    """The line saying how many ID suggestions wait for --unsafe (none once applied)."""
    if unsafe or not plan.unsafe:
        return []
    n = len({id(e.finding) for fix in plan.unsafe for e in fix.edits})
    what = "arXiv ID suggestion" if n == 1 else "arXiv ID suggestions"
    return [f"{n} {what} not applied (rerun with --unsafe to apply)"]


def notes(lines: Iterable[str]) -> list[str]:
    """Run notes (the title search's outage), one escaped line each."""
    return [f"note: {terminal(line)}" for line in lines]


def diff(fixes: Sequence[FileFix]) -> str:
    """The unified diff of every fix, each line inert for a terminal. Lines end at "\n"
    only, as the diff's own: a form feed or a U+2028 in the list's text is shown escaped
    inside its line, never starts one (a forged `+` line under a real context line)."""
    return "".join(diff_line(line) for fix in fixes for line in lines_of(fix.diff()))


def diff_line(line: str) -> str:
    """A diff line with every control character escaped but its tabs and line ending."""
    body, end = (line[:-2], "\r\n") if line.endswith("\r\n") else (line.rstrip("\n"), "\n")
    return "\t".join(terminal(part) for part in body.split("\t")) + end


# -- the word diff: `fix --diff` on a terminal ------------------------------------------------
#: Characters of unchanged text shown on each side of a change (and kept of a long gap).
CONTEXT = 30
OLD_STYLE = "red strike"
NEW_STYLE = "green"


def word_diff(fixes: Sequence[FileFix], cwd: str = "", color: bool = False) -> list[Text]:
    """One line per changed line: `path:line: …context [-old-]{+new+} context…`, the changed
    words marked inside the line (git's word-diff markers) with at most CONTEXT characters
    of the line around them; with `color` the old words red and struck through and the new
    ones green, without markers. Every text from the file is made inert (its spaces kept)."""
    out: list[Text] = []
    for fix in fixes:
        by_line: dict[int, list[Edit]] = {}
        for edit in sorted(fix.edits, key=lambda e: e.start):
            by_line.setdefault(line_of(fix.before, edit.start), []).append(edit)
        where = inert(shown_path(fix.file, cwd))
        for number, edits in sorted(by_line.items()):
            head = Text(f"{where}:{number}: ", PATH_STYLE)
            out.append(_whole(head + _marked_line(fix.before, edits, color)))
    return out


def _whole(line: Text) -> Text:
    """The line, inert as a whole too: two inert pieces may meet as `::` or `##[` (what the
    Actions runner reads as a command), then the line is shown plain, escaped as one."""
    plain = line.plain
    return Text(terminal(plain)) if terminal(plain) != plain else line


def _marked_line(text: str, edits: Sequence[Edit], color: bool) -> Text:
    """One line of `text` with its edits marked, clipped to CONTEXT around the changes."""
    spans = _merged(text, edits)
    first, last = spans[0][0], spans[-1][1]
    begin = text.rfind("\n", 0, first) + 1
    stop = text.find("\n", last)
    stop = len(text) if stop < 0 else stop
    line = Text(_clip_left(text[begin:first].lstrip("\ufeff")))
    for i, (start, end, new) in enumerate(spans):
        if i:
            line.append(_clip_middle(text[spans[i - 1][1] : start]))
        line.append_text(_change(text[start:end], new, color))
    line.append(_clip_right(text[last:stop].rstrip("\r")))
    return line


def _merged(text: str, edits: Sequence[Edit]) -> list[tuple[int, int, str]]:
    """The edits of one line as changed spans widened to whole words (start, end, new
    text): edits whose words touch are one span."""
    spans: list[tuple[int, int, list[Edit]]] = []
    for edit in edits:
        start, end = _word_span(text, edit)
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(end, spans[-1][1]), [*spans[-1][2], edit])
        else:
            spans.append((start, end, [edit]))
    out = []
    for start, end, group in spans:
        shifted = [replace(e, start=e.start - start, end=e.end - start) for e in group]
        out.append((start, end, apply(text[start:end], shifted)))
    return out


def _change(old: str, new: str, color: bool) -> Text:
    """`[-old-]{+new+}` (a side left out when empty), or the two styled without markers."""
    out = Text()
    if color:
        out.append(terminal(old), OLD_STYLE)
        out.append(terminal(new), NEW_STYLE)
        return out
    if old:
        out.append(f"[-{terminal(old)}-]")
    if new:
        out.append(f"{{+{terminal(new)}+}}")
    return out


def _clip_left(text: str) -> str:
    return terminal(text if len(text) <= CONTEXT else "…" + text[-CONTEXT:])


def _clip_right(text: str) -> str:
    return terminal(text if len(text) <= CONTEXT else text[:CONTEXT] + "…")


def _clip_middle(text: str) -> str:
    return terminal(text if len(text) <= 2 * CONTEXT else text[:CONTEXT] + "…" + text[-CONTEXT:])

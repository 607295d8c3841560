"""`--format text`: findings as `path:line: severity code message` lines grouped by file, each
suggestion under its finding, notes, then one summary line; fitted to the terminal's width.

`--verbose` adds each finding's evidence, the entries read per file, and GitHub's requests
split into GraphQL and REST.
Every string from the report (the checked tree or a service said it) is made inert first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import groupby

from rich.text import Text

from curator.console import terminal as t
from curator.console.terminal import Display
from curator.core.codes import OUTAGES
from curator.core.model import Finding, Kind, Report, Severity
from curator.core.subjects import is_repo, subject_id
from curator.report.render_context import Suggested

#: How a fix that `curator fix` makes only with `--unsafe` is marked (another paper's ID).
UNSAFE_MARK = "unsafe"


@dataclass(frozen=True)
class Preview:
    """What a pull request gets besides its findings: each planned fix as one inert line
    (`path:line: code old → new`, fix.output.change_lines), `marks` beside them ("unsafe"
    or ""), and the review's count of one-click suggestions (pull-request mode)."""

    fixes: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    suggested: Suggested | None = None


def render(
    report: Report,
    ctx: object = None,
    display: Display | None = None,
    preview: Preview | None = None,
) -> str:
    """The report as terminal text (plain, 80 columns, compact unless `display` says else)."""
    shown = display or Display()
    return t.write(lines(report, shown, preview), shown)


def lines(report: Report, display: Display, preview: Preview | None = None) -> Iterator[Text]:
    """Every line of the text report, each at most `display.width` cells wide."""
    for i, (_, findings) in enumerate(_by_file(report.findings, display.cwd)):
        if i:
            yield Text()
        for finding in findings:
            yield from finding_lines(finding, display)
    if preview is not None and preview.fixes:
        yield from fix_lines(preview, display)
    if display.verbose:
        yield from _entry_lines(report, display)
    for note in report.notes:  # few, and each may say what to do: never clipped
        yield from t.wrap(Text(f"note: {t.relative_in(t.inert(note), display.cwd)}"), display.width)
    yield from t.wrap(summary_text(report, display.verbose), display.width)


def fix_lines(preview: Preview, display: Display) -> Iterator[Text]:
    """`Suggested fixes:`, then one line per fix, as `curator fix -v` lists them."""
    yield Text()
    yield Text("Suggested fixes (one-click suggestions on the pull request; `curator fix` "
               "writes them):", "bold")  # fmt: skip
    for line, mark in zip(preview.fixes, preview.marks, strict=False):
        said = f"{line} (another paper's ID: `curator fix --unsafe` writes it)" if mark else line
        yield from _under(Text(t.relative_in(said, display.cwd), t.SUGGESTION_STYLE), display.width)


def _by_file(findings: Iterable[Finding], cwd: str) -> Iterator[tuple[str, list[Finding]]]:
    """Findings grouped by the file shown, files in order, lines in order within each."""

    def key(f: Finding) -> tuple[str, int, int, str]:
        return (t.shown_path(f.source.file, cwd), f.source.line, -f.severity.rank, f.code)

    for file, group in groupby(sorted(findings, key=key), key=lambda f: key(f)[0]):
        yield file, list(group)


def finding_lines(finding: Finding, display: Display) -> list[Text]:
    """`path:line: severity code message`, then `→ suggestion` (and, verbose, the evidence)."""
    cwd = display.cwd
    style = t.SEVERITY_STYLE.get(finding.severity, "")
    head = Text.assemble(
        (f"{t.inert(t.shown_path(finding.source.file, cwd))}:{finding.source.line}:", t.PATH_STYLE),
        " ",
        (finding.severity.value, style),
        " ",
        (t.inert(finding.code), style if finding.severity is Severity.ERROR else "bold"),
        " ",
        said(finding, cwd),
    )
    out = t.wrap(head, display.width)
    if finding.suggestion:
        tip = Text(f"→ {t.relative_in(t.inert(finding.suggestion), cwd)}", t.SUGGESTION_STYLE)
        out += _under(tip, display.width)
    if display.verbose:
        for i, line in enumerate(t.inert_lines(finding.evidence)):
            label = "evidence: " if i == 0 else "  "
            out += _under(Text(label + t.relative_in(line, cwd), t.EVIDENCE_STYLE), display.width)
    return out


def said(finding: Finding, cwd: str) -> str:
    """The message, led by the subject when the message does not name it (a link's URL)."""
    message = t.relative_in(t.inert(finding.message), cwd)
    subject = t.relative_in(t.inert(finding.subject), cwd)
    if not subject or _names(message, subject):
        return message
    return f"{subject}: {message}"


def _names(message: str, subject: str) -> bool:
    """True when `message` names `subject` (`arXiv:2401.1` for arxiv:2401.1, `o/r` for
    github:o/r)."""
    text = message.casefold()
    bare = subject.casefold()
    return bare in text or (is_repo(bare) and subject_id(bare) in text)


def _under(line: Text, width: int) -> list[Text]:
    """`line` indented under its finding, wrapped with a deeper indent."""
    wrapped = t.wrap(line, width - t.INDENT, indent=2)
    return [Text(" " * t.INDENT) + part for part in wrapped]


def _entry_lines(report: Report, display: Display) -> Iterator[Text]:
    """Verbose: how many entries (papers, projects, links) each file gave."""
    per_file: dict[str, Counter[Kind]] = {}
    for result in report.entries:
        file = t.inert(t.shown_path(result.entry.source.file, display.cwd))
        per_file.setdefault(file, Counter())[result.entry.kind] += 1
    if per_file:
        yield Text()
    for file, kinds in sorted(per_file.items()):
        parts = ", ".join(t.plural(n, kind.value) for kind, n in kinds.items())
        total = t.plural(kinds.total(), "entry", "entries")
        yield from t.wrap(Text(f"{file}: {total} ({parts})"), display.width)


def summary_text(report: Report, detail: bool = False) -> Text:
    """The summary line, styled by the worst severity found."""
    counts = {s: report.count(s) for s in Severity}
    return Text.assemble((t.found(counts), t.style_of(counts)), _rest(report, detail))


def summary_line(report: Report, detail: bool = False) -> str:
    """`Found 3 errors, 5 warnings (2 could not be verified) in 42 entries (12 arXiv, …
    requests; 80 from cache) in 2.1 s`."""
    return summary_text(report, detail).plain


def _rest(report: Report, detail: bool) -> str:
    """What follows `Found …`: unverified count, entries, requests and time."""
    unverified = sum(1 for f in report.findings if f.code in OUTAGES)
    could_not = f" ({unverified} could not be verified)" if unverified else ""
    entries = t.plural(len(report.entries), "entry", "entries")
    asked = t.requests_phrase(report.requests, detail)
    return f"{could_not} in {entries} ({asked}) in {t.seconds(report.elapsed)}"

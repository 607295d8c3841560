"""What `curator fix` prints: a line per file changed and a one-line summary, or the diff.

Pure: strings in, strings out; the command writes them. Every name and text from the
checked tree goes through `report.sanitize.terminal` (a diff line keeps its tabs and its
CRLF ending, nothing else a terminal would act on).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from curator.fix.model import FileFix, lines_of
from curator.fix.plan import FixPlan
from curator.report.sanitize import terminal


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _codes(findings: Iterable[object]) -> str:
    """`2 repo-moved, 1 arxiv-date-mismatch`: codes by count, most first (three at most)."""
    counts = Counter(str(getattr(f, "code", "")) for f in findings)
    shown = [f"{n} {code}" for code, n in counts.most_common(3)]
    return ", ".join(shown) + (", …" if len(counts) > 3 else "")


def file_lines(fixes: Sequence[FileFix]) -> list[str]:
    """One line per file changed: its path and what was fixed in it."""
    lines = []
    for fix in fixes:
        findings = {id(e.finding): e.finding for e in fix.edits}.values()
        lines.append(f"{terminal(fix.file)}: {_codes(findings)}")
    return lines


def summary(plan: FixPlan, unsafe: bool, dry: bool) -> str:
    """`Fixed 7 findings in 2 files (3 left: 2 arxiv-withdrawn, 1 repo-archived)`, ruff-style
    (`Would fix` with --diff)."""
    fixes = [f for f in plan.fixes(unsafe) if f.edits]
    fixed = plan.fixed(unsafe)
    left = plan.remaining(unsafe)
    tail = f" ({len(left)} left: {_codes(left)})" if left else ""
    if not fixed:
        return f"Nothing to fix{tail}" if left else "Nothing to fix"
    verb = "Would fix" if dry else "Fixed"
    return f"{verb} {_plural(len(fixed), 'finding')} in {_plural(len(fixes), 'file')}{tail}"


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

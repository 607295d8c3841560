"""`--format github`: workflow commands that GitHub Actions turns into annotations, and the
job summary writer."""

from __future__ import annotations

import os
from pathlib import Path

from curator.console.sanitize import clean
from curator.core.model import Finding, Report, Severity

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
#: GitHub refuses a step summary larger than 1 MiB.
SUMMARY_LIMIT = 1024 * 1024


def escape_data(value: str) -> str:
    """Escape a command's message the way @actions/core does (%, CR, LF)."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """Escape a command property value (also : and ,, which end a property)."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, ctx: object = None) -> str:
    """One `::error file=…,line=…,title=…::message` line per finding, for stdout."""
    return "".join(annotation(f) + "\n" for f in report.findings)


def annotation(finding: Finding) -> str:
    """The workflow command for one finding."""
    props = [f"file={escape_property(clean(finding.source.file))}"]
    if finding.source.line > 0:
        props.append(f"line={finding.source.line}")
    props.append(f"title={escape_property('curator ' + clean(finding.code))}")
    text = clean(finding.message)
    if finding.evidence:
        text += f' Evidence: "{clean(finding.evidence)}".'
    if finding.suggestion:
        text += f" Suggestion: {clean(finding.suggestion)}"
    return f"::{COMMAND[finding.severity]} {','.join(props)}::{escape_data(text)}"


def write_summary(markdown: str, path: str | os.PathLike[str] | None = None) -> int:
    """Append Markdown to $GITHUB_STEP_SUMMARY (or `path`) within 1 MiB; bytes written."""
    target = path or os.environ.get("GITHUB_STEP_SUMMARY", "")
    if not target:
        return 0
    file = Path(target)
    used = file.stat().st_size if file.exists() else 0
    data = fit(markdown, SUMMARY_LIMIT - used)
    with file.open("a", encoding="utf-8") as out:
        out.write(data)
    return len(data.encode("utf-8"))


def fit(markdown: str, room: int) -> str:
    """The Markdown, cut at a line end with a note when it would exceed `room` bytes."""
    data = markdown if markdown.endswith("\n") else markdown + "\n"
    if len(data.encode("utf-8")) <= room:
        return data
    note = "\n> [!NOTE]\n> Summary cut at GitHub's 1 MiB limit; see the report artifact.\n"
    budget = room - len(note.encode("utf-8"))
    if budget <= 0:
        return ""
    cut = data.encode("utf-8")[:budget].decode("utf-8", errors="ignore")
    return cut[: cut.rfind("\n") + 1] + note

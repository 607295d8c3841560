"""`--format markdown`: the pull-request comment (also the audit issue and the step summary).

Every string that came from a pull request or a service goes through `sanitize`; only URLs
curator builds itself (blob links, the run link) are written as links.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from curator.console import sanitize as s
from curator.core.model import EntryResult, Finding, Report, Service, Severity, Source, Verdict
from curator.core.subjects import subject_kind
from curator.report.render_context import RenderContext

if TYPE_CHECKING:
    from curator.core.decision import Decision

MARKER = "<!-- curator:report -->"
CLEAN_MARKER = "<!-- curator:clean -->"
LIMIT = 60_000

ICON = {Severity.ERROR: "❌", Severity.WARNING: "⚠️", Severity.INFO: "ℹ️"}
PLURAL = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.INFO: "notes"}


@dataclass(frozen=True)
class Shape:
    """How much to show: metadata tables, <details> blocks, and at most `rows` rows in each
    of the problems and scope tables."""

    metadata: bool = True
    details: bool = True
    rows: int | None = None

    @property
    def shortened(self) -> bool:
        """True when anything was left out."""
        return not (self.metadata and self.details and self.rows is None)


def render(report: Report, ctx: RenderContext | None = None, limit: int = LIMIT) -> str:
    """The report as a GitHub comment of at most `limit` characters, shortened in stages."""
    ctx = ctx or RenderContext()
    for shape in (Shape(), Shape(metadata=False), Shape(metadata=False, details=False)):
        body = compose(report, ctx, shape)
        if len(body) <= limit:
            return body
    # Whole rows go, never part of one; at 0 rows only the counts and the footer are left.
    rows = max(len(_problems(report)), len(_held(report)))
    while rows > 0:
        rows = rows * 3 // 4
        body = compose(report, ctx, Shape(metadata=False, details=False, rows=rows))
        if len(body) <= limit:
            return body
    return body


def is_clean(report: Report) -> bool:
    """No errors and no warnings (notes alone do not need a reviewer)."""
    return not _problems(report)


def compose(report: Report, ctx: RenderContext, shape: Shape) -> str:
    """The comment for one shape; `render` picks the largest shape that fits."""
    parts = [MARKER]
    if is_clean(report):
        parts.append(CLEAN_MARKER)
    parts += [f"### {s.text(ctx.title, 120)}", "", verdict_line(report, ctx), ""]
    parts += suggestions_line(ctx)
    parts += problems_table(report, ctx, shape.rows)
    parts += scope_section(report, ctx, shape.rows)
    if shape.details:
        parts += notes_section(report, ctx)
    if shape.metadata:
        parts += metadata_section(report, ctx)
    parts.append(footer(report, ctx, shape))
    return "\n".join(parts) + "\n"


def verdict_line(report: Report, ctx: RenderContext) -> str:
    """One line: what was checked and how it went, with counts by severity."""
    scope = "changed entr" if ctx.changed_only else "entr"
    entries = len(report.entries)
    checked = f"{entries} {scope}{'y' if entries == 1 else 'ies'}"
    counts = " · ".join(
        f"{report.count(sev)} {PLURAL[sev] if report.count(sev) != 1 else PLURAL[sev][:-1]}"
        for sev in Severity
    )
    if report.count(Severity.ERROR):
        return f"**❌ Changes needed** in {checked}: {counts}."
    if report.count(Severity.WARNING):
        return f"**⚠️ Please review** {checked}: {counts}."
    return f"**✅ No problems found** in {checked}: {counts}."


def suggestions_line(ctx: RenderContext) -> list[str]:
    """How many one-click suggestions the pull request's review holds, and the fixes left."""
    told = ctx.suggested
    if told is None or not (told.posted or told.left):
        return []
    said = []
    if told.posted:
        review = s.link("curator's review", told.url) if told.url else "curator's review"
        plural = "s" if told.posted != 1 else ""
        said.append(
            f"💡 **{told.posted} one-click suggestion{plural}** in {review}: "
            "*Commit suggestion* applies one."
        )
    if told.left:
        plural = "es" if told.left != 1 else ""
        said.append(
            f"{told.left} more fix{plural} could not be placed on this pull request's diff "
            "(`curator fix` applies them)."
        )
    return [" ".join(said), ""]


def _problems(report: Report) -> list[Finding]:
    """Errors then warnings, each in source order."""
    found = [f for f in report.findings if f.severity is not Severity.INFO]
    return sorted(found, key=lambda f: (-f.severity.rank, f.source, f.code))


def problems_table(report: Report, ctx: RenderContext, rows: int | None) -> list[str]:
    """The table of errors and warnings (at most `rows`, then "… N more")."""
    problems = _problems(report)
    if not problems:
        return []
    shown = problems if rows is None else problems[:rows]
    titles = _titles(report)
    out = ["| | Entry | What is wrong | Suggested fix |", "| --- | --- | --- | --- |"]
    out += [_finding_row(f, ctx, titles.get(f.source, "")) for f in shown]
    if len(shown) < len(problems):
        out.append(f"| | … {len(problems) - len(shown)} more | | |")
    return [*out, ""]


def _finding_row(finding: Finding, ctx: RenderContext, title: str) -> str:
    """One table row: severity and code, linked entry, message with evidence, suggestion."""
    what = s.text(finding.message)
    if finding.evidence and finding.evidence != finding.message:  # said once is enough
        what += f"<br>“{s.text(finding.evidence, 200)}”"
    fix = s.code(finding.suggestion, 300) if finding.suggestion else ""
    sev = f"{ICON[finding.severity]} {s.code(finding.code)}"
    entry = entry_cell(finding.source.file, finding.source.line, title, ctx)
    return f"| {sev} | {entry} | {what} | {fix} |"


def entry_cell(file: str, line: int, title: str, ctx: RenderContext) -> str:
    """file:line linked to the PR head blob, then the entry's title."""
    where = s.text(f"{file}:{line}" if line > 0 else file, 120)
    cell = s.link(where, ctx.blob_url(file, line))
    return f"{cell}<br>{s.text(title, 120)}" if title else cell


def _titles(report: Report) -> dict[Source, str]:
    """Entry title by source location, to name the entry a finding is about."""
    return {r.entry.source: r.entry.title for r in report.entries}


def _held(report: Report) -> list[EntryResult]:
    """Entries the scope rules did not simply include."""
    return [r for r in report.entries if r.verdict not in (None, Verdict.INCLUDE)]


def scope_section(report: Report, ctx: RenderContext, rows: int | None = None) -> list[str]:
    """Entries the scope rules did not simply include (at most `rows`), evidence quoted."""
    held = _held(report)
    if not held:
        return []
    out = ["**Scope**", "", "| Entry | Verdict | Evidence |", "| --- | --- | --- |"]
    shown = held if rows is None else held[:rows]
    for result in shown:
        src = result.entry.source
        cell = entry_cell(src.file, src.line, result.entry.title, ctx)
        verdict = s.text(verdict_word(result))
        out.append(f"| {cell} | **{verdict}** | {scope_evidence(result.scope)} |")
    if len(shown) < len(held):
        out.append(f"| … {len(held) - len(shown)} more | | |")
    return [*out, ""]


def verdict_word(result: EntryResult) -> str:
    """The Scope table's verdict: an exclusion no hard rule makes is a "likely exclude" (a
    review, not a failing check)."""
    if result.verdict is None:
        return ""
    scope = result.scope
    if result.verdict is Verdict.EXCLUDE and scope is not None and scope.code == "scope-review":
        return "likely exclude"
    return result.verdict.value


def scope_evidence(decision: Decision | None) -> str:
    """The rules that decided, the sentences they quote and the learned scorer's P(include)."""
    if decision is None:
        return ""
    if decision.decided_by:
        # The maintainers' record decided, not the rules the engine read: name the record.
        return s.text(f"{decision.reason} (recorded at {decision.decided_by})", 300)
    parts = [", ".join(s.code(rule, 80) for rule in decision.rules)] if decision.rules else []
    weighed = decision.scorer
    if weighed is not None and decision.verdict is Verdict.REVIEW:
        # A review is ranked by this score; include needs the threshold.
        parts.append(
            s.text(f"(P(include) {weighed.score:.2f}, include at {weighed.threshold:.2f})")
        )
    elif weighed is not None and weighed.floor is not None and decision.by_floor:
        # Ranked under nearly every include: why the scorer calls it a likely exclude.
        parts.append(
            s.text(f"(P(include) {weighed.score:.3f}, under the floor {weighed.floor:.3f})")
        )
    quoted = " … ".join(q.text for q in decision.quotes[:3]) or decision.reason
    if quoted:
        parts.append(f"“{s.text(quoted, 300)}”")
    return " ".join(parts)


def notes_section(report: Report, ctx: RenderContext) -> list[str]:
    """Info findings and run notes, folded in a <details> block whose summary counts each
    apart: the verdict line's "notes" are the info findings alone."""
    infos = [f for f in report.findings if f.severity is Severity.INFO]
    if not infos and not report.notes:
        return []
    counts = [(len(infos), "note"), (len(report.notes), "run note")]
    said = " · ".join(f"{n} {what}{'s' if n != 1 else ''}" for n, what in counts if n)
    out = ["<details>", f"<summary>{said}</summary>", ""]
    titles = _titles(report)
    if infos:
        out += ["| | Entry | Note | Suggestion |", "| --- | --- | --- | --- |"]
        out += [_finding_row(f, ctx, titles.get(f.source, "")) for f in infos]
        out.append("")
    out += [f"- {s.text(note)}" for note in report.notes]
    return [*out, "", "</details>", ""]


METADATA_HEAD = (
    "| Entry | arXiv ID | v1 date | Category | Stars | Forks | Licence | Last push |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
)


def metadata_section(report: Report, ctx: RenderContext) -> list[str]:
    """A table of what the services said about each entry, folded in a <details> block."""
    rows = [row for r in report.entries if (row := metadata_row(r, ctx))]
    if not rows:
        return []
    head = f"<summary>Metadata of {len(rows)} entr{'y' if len(rows) == 1 else 'ies'}</summary>"
    return ["<details>", head, "", *METADATA_HEAD, *rows, "", "</details>", ""]


def metadata_row(result: EntryResult, ctx: RenderContext) -> str:
    """One metadata row, or "" when no service answered for this entry."""
    paper = _meta(result.metadata, Service.ARXIV)
    repo = _meta(result.metadata, Service.GITHUB)
    if not paper and not repo:
        return ""
    src = result.entry.source
    cells = [
        entry_cell(src.file, src.line, result.entry.title, ctx),
        s.code(paper.get("id", ""), 40),
        s.text(str(paper.get("published", ""))[:10], 10),
        s.code(paper.get("primary_category", ""), 30),
        _number(repo.get("stars")),
        _number(repo.get("forks")),
        s.text(repo.get("license") or ("—" if repo else ""), 40),
        s.text(str(repo.get("pushed_at") or "")[:10], 10)
        + (" (archived)" if repo.get("archived") else ""),
    ]
    return "| " + " | ".join(cells) + " |"


def _meta(metadata: Mapping[str, Any], service: Service) -> Mapping[str, Any]:
    """The first metadata dict of a `service` subject, else {}."""
    for subject, meta in metadata.items():
        if subject_kind(str(subject)) is service and isinstance(meta, Mapping):
            return meta
    return {}


def _number(value: object) -> str:
    """An integer with thousands separators; anything else as inert text."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**15:
        return f"{value:,}"
    return s.text(value if value is not None else "", 20)


def footer(report: Report, ctx: RenderContext, shape: Shape) -> str:
    """Request counts and time; where the full report is when this one was shortened."""
    req = report.requests
    counts: Iterable[str] = (
        f"arXiv {req.arxiv}",
        f"GitHub GraphQL {req.github_graphql}",
        f"GitHub REST {req.github_rest}",
        f"web {req.web}",
        *(f"{s.text(name.replace('_', ' '), 40)} {n}" for name, n in req.added().items()),
        f"cache hits {req.cache_hits}",
    )
    line = f"<sub>Requests: {' · '.join(counts)} · {report.elapsed:.1f} s"
    if ctx.run_url:
        line += " · " + s.link("workflow run", ctx.run_url)
    line += "</sub>"
    if shape.shortened:
        where = (
            s.link("the workflow run's artifacts", ctx.run_url)
            if ctx.run_url
            else ("the workflow run's artifacts")
        )
        note = f"> [!NOTE]\n> This report was shortened to fit; the full report is in {where}."
        line = f"{note}\n\n{line}"
    return line

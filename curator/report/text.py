"""`--format text`: a `rich` table for a maintainer's terminal, grouped by severity."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table
from rich.text import Text

from curator.model import Report, RequestCounts, Severity
from curator.report.sanitize import clean

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def render(report: Report, ctx: object = None, width: int = 120, color: bool = False) -> str:
    """The report as terminal text: one table per severity, then counts and requests."""
    buffer = io.StringIO()
    console = Console(
        file=buffer, width=width, force_terminal=color, no_color=not color, highlight=False
    )
    for severity in Severity:
        rows = [f for f in report.findings if f.severity is severity]
        if not rows:
            continue
        table = Table(title=f"{severity.value}s ({len(rows)})", title_justify="left", expand=True)
        table.add_column("where", overflow="fold", ratio=3)  # file:line must stay whole
        table.add_column("code", style=_STYLE[severity], no_wrap=True, ratio=2)
        table.add_column("subject", overflow="fold", ratio=3)
        table.add_column("what", overflow="fold", ratio=6)
        for f in rows:
            # Text(): never interpret markup in untrusted strings; clean(): no escape
            # sequences or bidi overrides from them reach the terminal.
            what = Text(clean(f.message))
            if f.evidence:
                what.append(f"\n{clean(f.evidence)}", style="dim")
            if f.suggestion:
                what.append(f"\n→ {clean(f.suggestion)}", style="green")
            table.add_row(Text(clean(f.source)), Text(clean(f.code)), Text(clean(f.subject)), what)
        console.print(table)
    console.print(Text(summary_line(report)))
    for note in report.notes:
        console.print(Text(f"note: {clean(note)}"))
    return buffer.getvalue()


def summary_line(report: Report) -> str:
    """One line: entries, counts by severity, requests by service, time."""
    s = report.summary()
    r = report.requests
    return (
        f"{s['entries']} entries: {s['errors']} errors, {s['warnings']} warnings, "
        f"{s['infos']} infos · requests: arxiv {r.arxiv}, github graphql {r.github_graphql}, "
        f"github rest {r.github_rest}, web {r.web}, {_added(r)}cache hits {r.cache_hits} · "
        f"{report.elapsed:.1f}s"
    )


def _added(counts: RequestCounts) -> str:
    """`name N, ` for each counter of a service added since CONTRACT.md's."""
    return "".join(f"{name.replace('_', ' ')} {n}, " for name, n in counts.added().items())

"""The discover report as text, Markdown (also the issue's checklist) or JSON.

Every string from arXiv is untrusted: `clean` for the terminal, `sanitize.text`/`code` for
Markdown, so no title can ping, link, or break the checklist.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from curator.console import sanitize as s
from curator.console.sanitize import clean
from curator.core.decision import SCORER_ID
from curator.core.model import Verdict
from curator.core.registry import Registry
from curator.discover.run import DiscoverReport
from curator.scope.engine import LIKELY_EXCLUDE
from curator.scope.relevant import RULE as RELEVANCE
from curator.scope.screen import Candidate, Group

#: The JSON report's schema name (its own: a discover report is not a check report).
SCHEMA = "curator-discover/1"


def _summary(report: DiscoverReport) -> str:
    """One line: counts by group, skipped, requests."""
    counts = {g: sum(c.group is g for c in report.candidates) for g in Group}
    parts = ", ".join(f"{n} {g.value}" for g, n in counts.items())
    return (
        f"{len(report.candidates)} new papers ({parts}); {len(report.skipped)} already listed; "
        f"arXiv requests: {report.requests}, days from the cache: {report.remembered}"
    )


def _quote(c: Candidate) -> str:
    """The deciding quote, or the reason when there is none (the gate's exclude)."""
    q = c.deciding
    return f'{q.field}: "{q.text}"' if q else c.decision.reason


def _version(c: Candidate) -> str:
    """`v2` or `v2 (was v1 when first seen)`."""
    now = f"v{c.meta.get('version', 1)}"
    return f"{now} (was v{c.revised_from} when first seen)" if c.revised_from else now


def text(report: DiscoverReport) -> str:
    """Plain text for a terminal: the summary, then each group's candidates."""
    lines = [f"curator discover {report.window.label}", _summary(report)]
    if report.failure:
        lines.append(f"INCOMPLETE: {clean(report.failure)}")
    for group in Group:
        chosen = [c for c in report.candidates if c.group is group]
        if not chosen:
            continue
        lines += ["", f"{group.value} ({len(chosen)})"]
        for c in chosen:
            when = clean(c.meta.get("published", ""))
            lines.append(f"- {clean(c.id)} {clean(_version(c))}  {when}")
            lines.append(f"  {clean(c.meta.get('title', ''))}")
            lines.append(f"  {verdict_word(c)} ({clean(', '.join(c.decision.rules))})")
            lines.append(f"  {s.shorten(clean(_quote(c)), 400)}")
    lines += [f"note: {clean(n)}" for n in report.notes]
    return "\n".join(lines) + "\n"


def markdown(
    report: DiscoverReport, limit: int = 60_000, checked: frozenset[str] = frozenset()
) -> str:
    """Markdown with a checklist per group (the issue body), cut to fit `limit`; the IDs in
    `checked` keep the ticks a maintainer gave them."""
    head = [f"## curator discover: {report.window.label}", "", _summary(report) + ".", ""]
    if report.failure:
        head += [f"> **Incomplete:** {s.text(report.failure)}", ""]
    head += [f"Query: {s.code(report.query, 500)}", ""]
    body: list[str] = []
    gate_only = [c for c in report.candidates if c.unquoted_exclude]
    for group in (Group.INCLUDE, Group.REVIEW):
        chosen = [c for c in report.candidates if c.group is group]
        if chosen:
            body += [f"### {group.value.capitalize()} ({len(chosen)})", ""]
            body += [item(c, c.id in checked) for c in chosen] + [""]
    proven = [c for c in report.candidates if c.group is Group.EXCLUDE and not c.unquoted_exclude]
    if proven:
        # A proven exclusion: a rule of the policy and the sentence proving it, no box to tick.
        # A list without a policy has no rule to prove: its likely excludes are unlike it.
        why = "each by a rule its quote proves"
        if all(c.decision.rules == (RELEVANCE,) for c in proven):
            why = "each unlike anything in the list"
        body += [f"<details><summary>{len(proven)} likely exclude, {why}</summary>", ""]
        body += [
            f"- {s.code('arxiv:' + c.id)} {s.text(c.meta.get('title', ''), 90)} "
            f"({s.code(_rules(c), 60)}): {s.text(_quote(c), 80)}"
            for c in proven
        ]
        body += ["", "</details>", ""]
    if gate_only:
        body += [
            f"<details><summary>{len(gate_only)} more likely exclude without a memory word "
            "(the entry gate's exclude)</summary>",
            "",
        ]
        body += [
            f"- {s.code('arxiv:' + c.id)} {s.text(c.meta.get('title', ''), 100)}" for c in gate_only
        ]
        body += ["", "</details>", ""]
    out = "\n".join(head) + "\n"
    for line in body:
        if len(out) + len(line) > limit - 200:
            return out + "\n… (cut to fit; the JSON report has every candidate)\n"
        out += line + "\n"
    return out


def item(c: Candidate, checked: bool = False) -> str:
    """One checklist line: box, title, ID, date, verdict and the deciding quote."""
    url = f"https://arxiv.org/abs/{c.id}"
    title = s.link(s.text(c.meta.get("title", ""), 160), url)
    box = "x" if checked else " "
    verdict = verdict_word(c)
    return (
        f"- [{box}] {title} — {s.code('arxiv:' + c.id)} {s.text(_version(c))}, "
        f"{s.text(c.meta.get('published', ''), 10)}, **{verdict}** "
        f"({s.code(_rules(c), 60)}): {s.text(_quote(c), 160)}"
    )


def verdict_word(c: Candidate) -> str:
    """The candidate's verdict as every output names it: an exclusion no hard rule makes is
    for review, a likely exclude (ranked by P(include))."""
    if c.decision.verdict is Verdict.EXCLUDE and c.group is Group.REVIEW:
        return LIKELY_EXCLUDE
    return c.decision.verdict.value


def _rules(c: Candidate) -> str:
    """The rules that decided, without the two every include and review names (the entry
    gate, first, and the scorer)."""
    rules = c.decision.rules
    if c.decision.verdict in (Verdict.INCLUDE, Verdict.REVIEW):
        rules = tuple(r for r in rules[1:] if r != SCORER_ID)
    return ", ".join(rules or c.decision.rules)


def as_json(report: DiscoverReport) -> str:
    """Everything, drafts included, as JSON."""
    data: dict[str, Any] = {
        "schema": SCHEMA,
        "window": {
            "since": report.window.since.isoformat(),
            "until": report.window.until.isoformat(),
        },
        "query": report.query,
        "complete": report.complete,
        "failure": report.failure,
        "requests": {"arxiv": report.requests},
        "asked": [w.label for w in report.asked],
        "days_from_cache": report.remembered,
        "candidates": [
            _candidate(c, report.drafts[i] if report.drafts else None)
            for i, c in enumerate(report.candidates)
        ],
        "skipped": [{"id": k.id, "title": k.title, "where": k.where} for k in report.skipped],
        "notes": list(report.notes),
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _candidate(c: Candidate, draft: Mapping[str, Any] | None) -> dict[str, Any]:
    """One candidate in the JSON report; `draft`: its draft screening record, which only a
    list with a policy has (None: no `draft` key)."""
    out = {
        "id": c.id,
        "version": c.meta.get("version", 1),
        "revised_from": c.revised_from,
        "title": c.meta.get("title", ""),
        "published": c.meta.get("published", ""),
        "categories": list(c.meta.get("categories", [])),
        "group": c.group.value,
        "scope": c.decision.as_dict(),
    }
    if draft is not None:
        out["draft"] = dict(draft)
    return out


#: `--format` -> its renderer: the one registry shape every extension point has.
RENDERERS: Registry[str, Callable[[DiscoverReport], str]] = Registry(
    "discover renderer", {"text": text, "markdown": markdown, "json": as_json}
)

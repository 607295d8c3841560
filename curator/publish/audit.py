"""`curator audit`: keep one open issue (found by label, marker and author) with the latest full
report and what changed since the last audit; close it when everything is clean.

The previous audit's state rides in the issue body as a hidden block of compressed, base64
JSON: base64 cannot contain `-->`, so no finding text can end the comment and leak markup.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from curator.console import sanitize as s
from curator.core.model import Report, Severity
from curator.core.subjects import is_repo
from curator.publish import write_output
from curator.publish.api import GitHubAPI, is_ours, valid_repo
from curator.publish.api import from_env as api_from_env
from curator.publish.comment import authors
from curator.report import markdown, render_context
from curator.report.render_context import RenderContext
from curator.textio import json_text

if TYPE_CHECKING:
    from github.Issue import Issue

MARKER = "<!-- curator:audit -->"
_STATE = re.compile(r"<!-- curator:state ([A-Za-z0-9+/=]+) -->")
BODY_LIMIT = 65_536
#: The most a hidden state may inflate to (an issue body is at most BODY_LIMIT characters).
STATE_LIMIT = 4 * 1024 * 1024
MAX_LISTED = 30


@dataclass(frozen=True)
class AuditResult:
    """What happened to the audit issue: opened, updated, closed or none."""

    action: str
    number: int | None = None
    url: str = ""


@dataclass(frozen=True)
class Changes:
    """Findings new and resolved since the last audit, and star/fork movements."""

    new: tuple[tuple[str, ...], ...] = ()
    resolved: tuple[tuple[str, ...], ...] = ()
    movements: tuple[tuple[str, int, int, int, int], ...] = ()


def state_of(report: Report) -> dict[str, Any]:
    """What the next audit compares against: problem findings and repository counts."""
    problems = sorted(
        {
            (f.code, f.subject, f.source.file)
            for f in report.findings
            if f.severity is not Severity.INFO
        }
    )
    repos: dict[str, list[int]] = {}
    for result in report.entries:
        for subject, meta in result.metadata.items():
            if is_repo(str(subject)) and isinstance(meta, Mapping):
                stars, forks = meta.get("stars"), meta.get("forks")
                if isinstance(stars, int) and isinstance(forks, int):
                    repos[str(subject)] = [stars, forks]
    return {"v": 1, "findings": [list(p) for p in problems], "repos": repos}


def encode_state(state: Mapping[str, Any]) -> str:
    """The hidden block carrying `state`."""
    packed = zlib.compress(json.dumps(state, separators=(",", ":")).encode(), 9)
    return f"<!-- curator:state {base64.b64encode(packed).decode()} -->"


def decode_state(body: str) -> dict[str, Any]:
    """The state hidden in an issue body, or {} when absent or unreadable."""
    match = _STATE.search(body or "")
    if not match:
        return {}
    try:
        inflate = zlib.decompressobj()
        packed = inflate.decompress(base64.b64decode(match.group(1)), STATE_LIMIT)
        if inflate.unconsumed_tail:  # more than any state: not ours
            return {}
        state = json_text.loads(packed)
    except (ValueError, zlib.error):
        return {}
    return state if isinstance(state, dict) else {}


def changes(previous: Mapping[str, Any], current: Mapping[str, Any]) -> Changes:
    """New and resolved findings, and repositories whose stars or forks moved."""
    before = _findings(previous)
    after = _findings(current)
    moves = []
    old_repos = _repos(previous)
    for subject, (stars, forks) in sorted(_repos(current).items()):
        old = old_repos.get(subject)
        if old is not None and (stars, forks) != old:
            moves.append((subject, old[0], stars, old[1], forks))
    moves.sort(key=lambda m: -abs(m[2] - m[1]))
    return Changes(tuple(sorted(after - before)), tuple(sorted(before - after)), tuple(moves))


def _findings(state: Mapping[str, Any]) -> set[tuple[str, ...]]:
    """(code, subject, file) of each finding a state lists; odd items are skipped.

    The previous state comes from an issue body anyone with write access may have edited.
    """
    found = state.get("findings")
    items = found if isinstance(found, list) else []
    return {tuple(map(str, f)) for f in items if isinstance(f, list) and len(f) == 3}


def _repos(state: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """Stars and forks by repository subject, for the entries of a state that hold two counts."""
    repos = state.get("repos")
    if not isinstance(repos, Mapping):
        return {}
    return {
        str(subject): (counts[0], counts[1])
        for subject, counts in repos.items()
        if isinstance(counts, list)
        and len(counts) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in counts)
    }


def changes_section(delta: Changes, first: bool) -> str:
    """Markdown for what changed since the last audit."""
    if first:
        return "**Since the last audit:** this is the first audit.\n"
    lines = [
        f"**Since the last audit:** {len(delta.new)} new, {len(delta.resolved)} resolved, "
        f"{len(delta.movements)} repositories moved in stars or forks.",
        "",
    ]
    lines += _listed("New", delta.new) + _listed("Resolved", delta.resolved)
    for subject, s0, s1, f0, f1 in delta.movements[:MAX_LISTED]:
        lines.append(
            f"- {s.code(subject, 100)}: ★ {s0:,} → {s1:,} ({s1 - s0:+,}), forks {f0:,} → {f1:,}"
        )
    return "\n".join(lines) + "\n"


def _listed(label: str, items: tuple[tuple[str, ...], ...]) -> list[str]:
    """Bullets for new or resolved findings (code, subject, file), capped."""
    out = [
        f"- {label}: {s.code(code, 60)} {s.code(subject, 100)} in {s.code(file, 100)}"
        for code, subject, file in (i[:3] for i in items[:MAX_LISTED])
    ]
    if len(items) > MAX_LISTED:
        out.append(f"- {label}: … {len(items) - MAX_LISTED} more")
    return out


def audit_body(report: Report, ctx: RenderContext, previous: Mapping[str, Any] | None) -> str:
    """Issue body: marker, state, what changed, then the report sized to fit the limit."""
    state = state_of(report)
    head = f"{MARKER}\n{encode_state(state)}\n\n"
    head += changes_section(changes(previous or {}, state), previous is None) + "\n"
    room = BODY_LIMIT - len(head) - 100
    return head + markdown.render(report, ctx, limit=max(room, 1000))


def find_issue(api: GitHubAPI, repo: str, label: str) -> list[Issue]:
    """Our open audit issues (PyGithub Issues) carrying `label`, oldest first, without PRs."""
    logins = authors(api)
    listed = api.repo(repo).get_issues(state="open", labels=[label])
    issues = api.call("GET issues", lambda: list(listed))
    found = [
        issue
        for issue in issues
        # A PR is listed too; its html_url says so without another request.
        if "/pull/" not in (issue.html_url or "") and is_ours(issue, logins, MARKER)
    ]
    return sorted(found, key=lambda i: int(i.number))


def run_audit(
    api: GitHubAPI,
    repo: str,
    report: Report,
    label: str = "curator-audit",
    ctx: RenderContext | None = None,
) -> AuditResult:
    """Open, update or close the audit issue for this report."""
    valid_repo(repo)
    ctx = ctx or RenderContext(repository=repo, title="curator audit")
    issues = find_issue(api, repo, label)
    for extra in issues[1:]:
        _close_duplicate(api, extra)
    current = issues[0] if issues else None
    clean = markdown.is_clean(report)
    if current is None and clean:
        return AuditResult("none")
    previous = decode_state(current.body or "") if current else None
    body, title = audit_body(report, ctx, previous), _title(report, ctx)
    if current is None:
        made = api.call(
            "POST issue",
            lambda: api.repo(repo).create_issue(title=title, body=body, labels=[label]),
            creates=True,
        )
        return AuditResult("opened", made.number, made.html_url or "")
    if clean:
        api.call(
            "PATCH issue",
            lambda: current.edit(title=title, body=body, state="closed", state_reason="completed"),
        )
    else:
        api.call("PATCH issue", lambda: current.edit(title=title, body=body))
    return AuditResult("closed" if clean else "updated", current.number, current.html_url or "")


def _close_duplicate(api: GitHubAPI, issue: Issue) -> None:
    """Close a duplicate audit issue."""
    api.call("PATCH issue", lambda: issue.edit(state="closed", state_reason="not_planned"))


def _title(report: Report, ctx: RenderContext) -> str:
    """Issue title with the counts, e.g. "curator audit: 2 errors, 5 warnings"."""
    errors, warnings = report.count(Severity.ERROR), report.count(Severity.WARNING)
    if not errors and not warnings:
        return f"{s.clean(ctx.title)}: all clear"
    return f"{s.clean(ctx.title)}: {errors} errors, {warnings} warnings"


def audit_from_env(
    repo: str, report: Report, env: Mapping[str, str], label: str = "curator-audit"
) -> AuditResult:
    """`curator audit` after the check: publish the issue and set the `issue-url` output."""
    ctx = replace(render_context.from_env(env, title="curator audit"), repository=repo)
    with api_from_env(env) as api:
        result = run_audit(api, repo, report, label, ctx)
    write_output("issue-url", result.url, env.get("GITHUB_OUTPUT") or None)
    return result

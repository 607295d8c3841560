"""Repository checks: existence, renames, archive state, licence, staleness and stars.

`check_repo` is pure: it reads the GitHub outcomes the resolver produced for every
`github:` subject of the entry (a project's repository, a paper's `code`) and the rules in
`ctx.projects`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime

from curator.config.context import CheckContext
from curator.config.projects import ProjectRules
from curator.core.meta import RepoMeta, repo_meta
from curator.core.model import Entry, Finding
from curator.core.outcomes import Blocked, Found, Moved, NotFound, Outcome, Unverified
from curator.core.subjects import is_repo, subject_id


def check_repo(entry: Entry, outcomes: Mapping[str, Outcome], ctx: CheckContext) -> list[Finding]:
    """Findings for every GitHub repository the entry links (none when GitHub was skipped)."""
    rules = ctx.projects if ctx.projects is not None else ProjectRules()
    findings: list[Finding] = []
    for subject in entry.subjects():
        outcome = outcomes.get(subject)
        if is_repo(subject) and outcome is not None:
            findings.extend(_findings(entry, subject, outcome, rules, ctx))
    if "badges" in entry.fields:
        from curator.checks.badges import check_badges

        findings.extend(check_badges(entry, outcomes, ctx))
    return findings


def _findings(
    entry: Entry, subject: str, outcome: Outcome, rules: ProjectRules, ctx: CheckContext
) -> list[Finding]:
    """The findings of one repository outcome."""
    where = entry.source
    if isinstance(outcome, NotFound):
        return [
            ctx.finding(
                "repo-not-found",
                subject,
                where,
                f"GitHub has no repository {_name(subject)}",
                outcome.reason,
            )
        ]
    if isinstance(outcome, Unverified | Blocked):
        return [
            ctx.finding(
                "repo-unverified",
                subject,
                where,
                f"GitHub could not be asked about {_name(subject)}",
                outcome.reason,
            )
        ]
    found: list[Finding] = []
    if isinstance(outcome, Moved):
        canonical = repo_meta(outcome.meta).name_with_owner or outcome.new_url
        found.append(
            ctx.finding(
                "repo-moved",
                subject,
                where,
                f"{_name(subject)} was renamed or transferred to {outcome.new_url}",
                evidence=f"GitHub resolves it as {canonical}",
                suggestion=outcome.new_url,
            )
        )
    if isinstance(outcome, Found | Moved):
        found.extend(_meta_findings(entry, subject, repo_meta(outcome.meta), rules, ctx))
    return found


def _meta_findings(
    entry: Entry, subject: str, meta: RepoMeta, rules: ProjectRules, ctx: CheckContext
) -> list[Finding]:
    """Archive state, licence, staleness and stars of a repository that exists."""
    out: list[Finding] = []
    name, where = _name(subject), entry.source
    archived = rules.archived_severity
    if meta.archived and archived is not None:
        finding = ctx.finding("repo-archived", subject, where, f"{name} is archived (read-only)")
        if "repo-archived" not in ctx.options.severity:  # configuration beats the rules file
            finding = replace(finding, severity=archived)
        out.append(finding)
    licence = meta.license
    if licence == "NOASSERTION":
        out.append(
            ctx.finding(
                "repo-unrecognised-license",
                subject,
                where,
                f"{name} has a licence file GitHub cannot classify",
                evidence="GitHub licence: NOASSERTION",
            )
        )
    elif not licence and rules.license_required:
        out.append(
            ctx.finding("repo-no-license", subject, where, f"GitHub detects no licence in {name}")
        )
    out.extend(_stale(subject, meta, rules, ctx, entry))
    stars = meta.stars
    if rules.min_stars and stars < rules.min_stars:
        out.append(
            ctx.finding(
                "repo-few-stars",
                subject,
                where,
                f"{name} has {stars} stars, fewer than {rules.min_stars}",
            )
        )
    return out


def _stale(
    subject: str, meta: RepoMeta, rules: ProjectRules, ctx: CheckContext, entry: Entry
) -> list[Finding]:
    """repo-stale when the last push is older than the rules allow."""
    pushed = _when(meta.pushed_at)
    if not rules.stale_days or pushed is None:
        return []
    days = (ctx.now - pushed).days
    if days <= rules.stale_days:
        return []
    return [
        ctx.finding(
            "repo-stale",
            subject,
            entry.source,
            f"no push to {_name(subject)} for {days} days (the rules allow {rules.stale_days})",
            evidence=f"last push {meta.pushed_at}",
        )
    ]


def _when(value: object) -> datetime | None:
    """An aware datetime for GitHub's ISO timestamps (`2026-04-14T07:25:38Z`), else None."""
    if not isinstance(value, str):
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _name(subject: str) -> str:
    """`owner/repo` of a `github:` subject, for messages."""
    return subject_id(subject)

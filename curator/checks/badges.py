"""Badges that draw another repository than the entry's link beside them.

Pure. The document reader keeps each such pair on its entry (`sources/doc_badges`); here
GitHub's answers decide: a badge that names where a moved repository went is no mismatch
(the link's `repo-moved` is what is wrong), any other is `badge-mismatch`, suggesting the
badge's URL drawing the link's repository (its new name when it moved). No request is made.
"""

from __future__ import annotations

from collections.abc import Mapping

from curator.config.context import CheckContext
from curator.core.badges import badge_repo, renamed_badge
from curator.core.model import Entry, Finding, Source
from curator.core.normalize import github_repo, github_subject
from curator.core.outcomes import Moved, Outcome
from curator.core.subjects import subject_id


def check_badges(entry: Entry, outcomes: Mapping[str, Outcome], ctx: CheckContext) -> list[Finding]:
    """`badge-mismatch` for each badge beside the entry's link naming another repository."""
    found: list[Finding] = []
    for named, repo, line, url in entry.fields.get("badges", ()):
        outcome = outcomes.get(repo)
        moved = outcome.new_url if isinstance(outcome, Moved) else ""
        now = github_subject(moved) if moved else None
        if named in {repo, now}:
            continue
        target = _written(entry, repo) if now is None else _repo_of(moved, now)
        fixed = renamed_badge(url, named, target)
        found.append(
            ctx.finding(
                "badge-mismatch",
                repo,
                Source(entry.source.file, line),
                f"a badge draws {badge_repo(url) or subject_id(named)}, "
                f"but the link beside it is {target}",
                evidence=url,
                suggestion=fixed or "",
            )
        )
    return found


def _written(entry: Entry, subject: str) -> str:
    """`owner/name` of `subject` as the entry's link writes it (its case)."""
    for link in entry.links:
        if github_subject(link.url) == subject:
            return _repo_of(link.url, subject)
    return subject_id(subject)


def _repo_of(url: str, subject: str) -> str:
    """`owner/name` as `url` writes it, else as `subject` names it."""
    repo = github_repo(url)
    return f"{repo[0]}/{repo[1]}" if repo else subject_id(subject)

"""Pure parts of the GitHub resolver: GraphQL query text, metadata extraction, outcomes.

No I/O here: every function maps decoded JSON to values, so the shapes GitHub really sends
(see tests/fixtures/shared/api-samples/github) are tested without a server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from curator.core.meta import RepoMeta
from curator.core.outcomes import Found, Moved, NotFound, Outcome, Unverified
from curator.core.subjects import is_repo, repo_subject, subject_id

#: Fields asked for each aliased `repository(owner:, name:)`; no connections, so 1 point.
REPO_FIELDS = (
    "nameWithOwner url stargazerCount forkCount licenseInfo { spdxId } isArchived "
    "isDisabled isFork pushedAt defaultBranchRef { name } homepageUrl description"
)

#: The largest number of aliases curator puts into one GraphQL query.
BATCH_SIZE = 100


def split_subject(subject: str) -> tuple[str, str] | None:
    """(owner, repo) of a `github:owner/repo` subject, else None."""
    if not is_repo(subject):
        return None
    owner, _, repo = subject_id(subject).partition("/")
    if not owner or not repo or "/" in repo:
        return None
    return owner, repo


def canonical_url(name_with_owner: str) -> str:
    """The canonical web address of a repository, e.g. https://github.com/o/r."""
    return f"https://github.com/{name_with_owner}"


def graphql_query(pairs: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """A GraphQL request body with one aliased `repository` selection per (owner, name).

    Names travel as variables, never spliced into the query text, so no name can change it.
    """
    params = ", ".join(f"$o{i}: String!, $n{i}: String!" for i in range(len(pairs)))
    selections = "\n".join(
        f"  r{i}: repository(owner: $o{i}, name: $n{i}) {{ {REPO_FIELDS} }}"
        for i in range(len(pairs))
    )
    variables: dict[str, str] = {}
    for i, (owner, name) in enumerate(pairs):
        variables[f"o{i}"] = owner
        variables[f"n{i}"] = name
    return {"query": f"query Repos({params}) {{\n{selections}\n}}", "variables": variables}


def meta_from_graphql(node: Any) -> RepoMeta:
    """The kept metadata of a GraphQL `repository` node; ValueError when malformed."""
    if not isinstance(node, Mapping) or not isinstance(node.get("nameWithOwner"), str):
        raise ValueError("repository node without nameWithOwner")
    licence = node.get("licenseInfo")
    branch = node.get("defaultBranchRef")
    return RepoMeta(
        name_with_owner=node["nameWithOwner"],
        url=_text(node.get("url")) or canonical_url(node["nameWithOwner"]),
        stars=_count(node.get("stargazerCount")),
        forks=_count(node.get("forkCount")),
        license=_text(licence.get("spdxId")) if isinstance(licence, Mapping) else None,
        archived=node.get("isArchived") is True,
        disabled=node.get("isDisabled") is True,
        fork=node.get("isFork") is True,
        pushed_at=_text(node.get("pushedAt")),
        default_branch=_text(branch.get("name")) if isinstance(branch, Mapping) else None,
        homepage=_text(node.get("homepageUrl")),
        description=_text(node.get("description")),
    )


def meta_from_rest(data: Any) -> RepoMeta:
    """The kept metadata of a REST `GET /repos/{o}/{r}` body; ValueError when malformed."""
    if not isinstance(data, Mapping) or not isinstance(data.get("full_name"), str):
        raise ValueError("repository body without full_name")
    licence = data.get("license")
    return RepoMeta(
        name_with_owner=data["full_name"],
        url=_text(data.get("html_url")) or canonical_url(data["full_name"]),
        stars=_count(data.get("stargazers_count")),
        forks=_count(data.get("forks_count")),
        license=_text(licence.get("spdx_id")) if isinstance(licence, Mapping) else None,
        archived=data.get("archived") is True,
        disabled=data.get("disabled") is True,
        fork=data.get("fork") is True,
        pushed_at=_text(data.get("pushed_at")),
        default_branch=_text(data.get("default_branch")),
        homepage=_text(data.get("homepage")),
        description=_text(data.get("description")),
    )


def _text(value: Any) -> str | None:
    """A non-empty string, else None (GitHub sends null or "" for missing text)."""
    return value if isinstance(value, str) and value else None


def _count(value: Any) -> int:
    """A non-negative count; anything else counts as 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def outcome_from_meta(subject: str, meta: RepoMeta) -> Outcome:
    """Found, Moved (the canonical name differs) or NotFound (a disabled repository)."""
    if meta.disabled:
        return NotFound(subject, "GitHub has disabled this repository", meta)
    canonical = repo_subject(meta.name_with_owner)
    if canonical != subject.lower():
        return Moved(subject, canonical_url(meta.name_with_owner), meta)
    return Found(subject, meta)


def graphql_outcomes(aliases: Mapping[str, str], body: Any) -> dict[str, Outcome]:
    """Outcomes for `aliases` (alias -> subject) from a decoded GraphQL response body.

    A null alias with a NOT_FOUND error on its path is NotFound; any other error, or a body
    without usable data, leaves the subject Unverified.
    """
    if not isinstance(body, Mapping):
        return {s: Unverified(s, "malformed GraphQL response") for s in aliases.values()}
    per_alias, general = _errors_by_alias(body.get("errors"), aliases)
    data = body.get("data")
    if not isinstance(data, Mapping):
        reason = _error_reason(general[0]) if general else "GraphQL response without data"
        return {s: Unverified(s, reason) for s in aliases.values()}
    return {
        subject: _alias_outcome(subject, data.get(alias), per_alias.get(alias), general)
        for alias, subject in aliases.items()
    }


def _errors_by_alias(
    errors: Any, aliases: Mapping[str, str]
) -> tuple[dict[str, Mapping[str, Any]], list[Mapping[str, Any]]]:
    """Split GraphQL errors into those on one alias's path and the rest."""
    per_alias: dict[str, Mapping[str, Any]] = {}
    general: list[Mapping[str, Any]] = []
    for error in errors if isinstance(errors, list) else []:
        if not isinstance(error, Mapping):
            continue
        path = error.get("path")
        head = path[0] if isinstance(path, list) and path else None
        if isinstance(head, str) and head in aliases:
            per_alias.setdefault(head, error)
        else:
            general.append(error)
    return per_alias, general


def _alias_outcome(
    subject: str,
    node: Any,
    error: Mapping[str, Any] | None,
    general: list[Mapping[str, Any]],
) -> Outcome:
    """The outcome of one alias: its node, or its error."""
    if node is not None:
        try:
            return outcome_from_meta(subject, meta_from_graphql(node))
        except ValueError:
            return Unverified(subject, "malformed repository in GraphQL response")
    if error is not None and error.get("type") == "NOT_FOUND":
        return NotFound(subject, str(error.get("message") or "GitHub GraphQL: NOT_FOUND"))
    if error is not None:
        return Unverified(subject, _error_reason(error))
    if general:
        return Unverified(subject, _error_reason(general[0]))
    return Unverified(subject, "GraphQL response without this repository")


def _error_reason(error: Mapping[str, Any]) -> str:
    """A short reason for a GraphQL error: its type and message."""
    kind = str(error.get("type") or "error")
    message = str(error.get("message") or "").strip()
    return f"GitHub GraphQL {kind}: {message}"[:300] if message else f"GitHub GraphQL {kind}"

"""Badge images that name a GitHub repository, and the same badge naming another one.

Pure. shields.io and badgen.net draw a repository's stars, forks, licence, last commit,
issues or release from `…/github/<kind>/<owner>/<name>`; star-history draws its stars from
`?repos=<owner>/<name>` or `#<owner>/<name>`. Only the kinds listed here are read: any other
path (`github/actions/workflow/status/…`, a user's followers) names no repository here, so
it can never make a false finding.
"""

from __future__ import annotations

import re

from curator.core.subjects import repo_subject

# The shields.io and badgen.net badge kinds whose next two path segments are owner and name.
_KINDS = (
    r"stars|forks|watchers|license|last-commit|issues|issues-raw|issues-closed"
    r"|issues-closed-raw|issues-pr|issues-pr-raw|issues-pr-closed|issues-pr-closed-raw"
    r"|release|release-date|release-pre|tag|tag-date|v/release|v/tag|contributors"
    r"|contributors-anon|repo-size|code-size|languages/top|languages/count|languages/code-size"
    r"|commit-activity/[wmyt]|commits-since|created-at|discussions|downloads"
    r"|downloads-pre|directory-file-count|open-issues"
)
_SHIELDS = re.compile(
    r"^(?P<head>https?://(?:img\.shields\.io|badgen\.net|flat\.badgen\.net)/github/"
    rf"(?:{_KINDS})/)(?P<owner>[A-Za-z0-9-]+)/(?P<name>[A-Za-z0-9_.-]+?)"
    r"(?P<tail>(?:\.svg|\.png|\.json)?(?:[/?#].*)?)$",
    re.IGNORECASE,
)
# star-history: one repository (a chart of several names none alone).
_STAR_HISTORY = re.compile(
    r"^(?P<head>https?://(?:api\.)?star-history\.com/(?:svg\?(?:[^#]*&)?repos=|#|chart\?(?:[^#]*&)?repos=))"
    r"(?P<owner>[A-Za-z0-9-]+)/(?P<name>[A-Za-z0-9_.-]+?)(?P<tail>(?:[&#].*)?)$",
    re.IGNORECASE,
)


def _match(url: str) -> re.Match[str] | None:
    return _SHIELDS.match(url) or _STAR_HISTORY.match(url)


def badge_repo(url: str) -> str | None:
    """`owner/name` as the badge writes it, else None."""
    m = _match(url.strip())
    return f"{m['owner']}/{m['name']}" if m is not None else None


def badge_subject(url: str) -> str | None:
    """`github:owner/name` (lower-case) of the repository a badge image draws, else None."""
    m = _match(url.strip())
    if m is None:
        return None
    return repo_subject(f"{m['owner']}/{m['name']}")


def renamed_badge(url: str, subject: str, new: str) -> str | None:
    """The badge `url` drawing `subject`'s repository, drawing `new` (`owner/name`) instead;
    None when `url` is no badge of `subject`. Host, kind, query and style are kept."""
    m = _match(url)
    if m is None or repo_subject(f"{m['owner']}/{m['name']}") != subject:
        return None
    return f"{m['head']}{new}{m['tail']}"

"""Subjects, the key of everything curator verifies, and the one place that reads them.

A subject is `arxiv:<id without version>`, `github:<owner>/<name>` (lower-case) or the URL of
any other link (CONTRACT.md). Every stage tells them apart and builds them here, rather than
by testing the prefix where it stands.
"""

from __future__ import annotations

from curator.core.model import Service

#: The prefix of each service's subjects; any other subject is a link's URL.
PREFIXES: dict[Service, str] = {Service.ARXIV: "arxiv:", Service.GITHUB: "github:"}


def subject_kind(subject: str) -> Service | None:
    """The service whose subject this is (arXiv or GitHub), else None (a link's URL)."""
    for service, prefix in PREFIXES.items():
        if subject.startswith(prefix):
            return service
    return None


def is_paper(subject: str) -> bool:
    """True for an `arxiv:` subject."""
    return subject_kind(subject) is Service.ARXIV


def is_repo(subject: str) -> bool:
    """True for a `github:` subject."""
    return subject_kind(subject) is Service.GITHUB


def subject_id(subject: str) -> str:
    """What the subject names within its service: the arXiv ID of `arxiv:ID`, `owner/name` of
    `github:owner/name`; any other subject (a URL) as it is."""
    kind = subject_kind(subject)
    return subject if kind is None else subject[len(PREFIXES[kind]) :]


def arxiv_id_of(subject: str) -> str:
    """The arXiv ID of an `arxiv:` subject; any other subject as it is."""
    return subject.removeprefix(PREFIXES[Service.ARXIV])


def arxiv_subject(arxiv_id: str) -> str:
    """`arxiv:ID` for an arXiv ID without its version."""
    return f"{PREFIXES[Service.ARXIV]}{arxiv_id}"


def repo_subject(name_with_owner: str) -> str:
    """`github:owner/name`, lower-case, for a repository's `owner/name` as written."""
    return f"{PREFIXES[Service.GITHUB]}{name_with_owner.lower()}"

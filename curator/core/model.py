"""The values that flow through the pipeline: entries, metadata outcomes, findings, report.

Everything here is frozen and free of I/O, so each stage is a pure function of the last.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

# The scope engine's values (Verdict lives with the Decision it is part of, so that neither
# module needs the other back; it is re-exported here, where it has always been imported from).
from curator.core.decision import Verdict as Verdict

if TYPE_CHECKING:  # a type only: the scope engine's values are built on these
    from curator.core.decision import Decision


class Severity(StrEnum):
    """How bad a finding is; ordered by `rank`."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Higher is worse: error 3, warning 2, info 1."""
        return {"error": 3, "warning": 2, "info": 1}[self.value]


class Format(StrEnum):
    """Every `--format` value; each maps to one renderer module (a test proves it)."""

    TEXT = "text"
    MARKDOWN = "markdown"
    JSON = "json"
    SARIF = "sarif"
    GITHUB = "github"


class FailOn(StrEnum):
    """Every `--fail-on` value: the least severity that makes the exit status 1."""

    ERROR = "error"
    WARNING = "warning"
    NEVER = "never"


class Kind(StrEnum):
    """What an entry is."""

    PAPER = "paper"
    PROJECT = "project"
    LINK = "link"


class Service(StrEnum):
    """A service a subject is verified through; also the names of `--skip` values."""

    ARXIV = "arxiv"
    GITHUB = "github"
    WEB = "web"
    SCOPE = "scope"


@dataclass(frozen=True, order=True)
class Source:
    """Where an entry was read: file path (as given, POSIX) and 1-based line."""

    file: str
    line: int

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of CONTRACT.md."""
        return {"file": self.file, "line": self.line}

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Link:
    """A link of an entry: its role (paper, code, repo, website, url) and normalised subject."""

    role: str
    url: str
    subject: str
    service: Service


@dataclass(frozen=True)
class Entry:
    """One item of the catalogue: a paper or a project, with where it was read.

    `subject` is CONTRACT.md's normalised subject of the entry's main identity (arXiv ID,
    repository or URL). `links` holds every link the entry carries, the main one included.
    `fields` keeps the raw values as read, for renderers and the scope engine.
    """

    subject: str
    kind: Kind
    source: Source
    title: str = ""
    date: str = ""
    section: str = ""
    tags: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    summary: str = ""
    summary_zh: str = ""
    fields: Mapping[str, Any] = field(default_factory=dict)
    #: The title is a short name the list links the paper by ("MemoryAgentBench"), not a
    #: title: it cannot be told from a wrong one, so it is not compared with arXiv's.
    short_title: bool = False

    def subjects(self) -> tuple[str, ...]:
        """Every subject this entry needs verified, main subject first, no repeats."""
        seen: dict[str, None] = {self.subject: None}
        for link in self.links:
            seen.setdefault(link.subject, None)
        return tuple(seen)


@dataclass(frozen=True)
class Finding:
    """One thing wrong (or worth knowing) about one subject of one entry."""

    code: str
    severity: Severity
    subject: str
    source: Source
    message: str
    evidence: str = ""
    suggestion: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The JSON shape of CONTRACT.md."""
        return {
            "code": self.code,
            "severity": self.severity.value,
            "subject": self.subject,
            "source": self.source.as_dict(),
            "message": self.message,
            "evidence": self.evidence,
            "suggestion": self.suggestion,
        }


#: The request counters of CONTRACT.md's JSON report, in its order, always present.
REQUEST_KEYS = ("arxiv", "github_graphql", "github_rest", "web", "cache_hits")


class RequestCounts(Mapping[str, int]):
    """HTTP requests really sent in one run, by counter name, plus cache hits.

    A mapping: CONTRACT.md's counters always (0 when unused), in their order, then any counter
    a service added since uses, so a new service needs no field here.
    """

    def __init__(self, counts: Mapping[str, int] | None = None, /, **named: int) -> None:
        given = {**(counts or {}), **named}
        self._counts = {key: int(given.get(key, 0)) for key in REQUEST_KEYS}
        self._counts.update((k, int(v)) for k, v in given.items() if k not in REQUEST_KEYS)

    def __getitem__(self, name: str) -> int:
        return self._counts[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._counts)

    def __len__(self) -> int:
        return len(self._counts)

    def __repr__(self) -> str:
        return f"RequestCounts({self._counts!r})"

    arxiv = property(lambda self: self["arxiv"], doc="Requests to the arXiv API.")
    github_graphql = property(lambda self: self["github_graphql"], doc="GitHub GraphQL calls.")
    github_rest = property(lambda self: self["github_rest"], doc="GitHub REST calls.")
    web = property(lambda self: self["web"], doc="Requests to web links.")
    cache_hits = property(lambda self: self["cache_hits"], doc="Answers taken from the cache.")

    def added(self) -> dict[str, int]:
        """The counters beyond CONTRACT.md's (services added since), in first-counted order."""
        return {k: v for k, v in self._counts.items() if k not in REQUEST_KEYS}

    def as_dict(self) -> dict[str, int]:
        """The JSON shape of CONTRACT.md (then any added counter)."""
        return dict(self._counts)

    @property
    def total(self) -> int:
        """Requests sent over the network (cache hits excluded)."""
        return sum(n for name, n in self._counts.items() if name != "cache_hits")


@dataclass(frozen=True)
class EntryResult:
    """An entry with what was learned about it: merged metadata and the scope verdict."""

    entry: Entry
    metadata: Mapping[str, Any] = field(default_factory=dict)
    verdict: Verdict | None = None
    scope: Decision | None = None

    def as_dict(self, trail: bool = True) -> dict[str, Any]:
        """The JSON shape of CONTRACT.md (plus `title`, `date`, `links` and `scope` detail;
        the scope scorer's every signal and word only with `trail`)."""
        out: dict[str, Any] = {
            "subject": self.entry.subject,
            "kind": self.entry.kind.value,
            "title": self.entry.title,
            "date": self.entry.date,
            "source": self.entry.source.as_dict(),
            "metadata": dict(self.metadata),
            "verdict": self.verdict.value if self.verdict else None,
            # What will be checked for this entry: its paper, code, repository and sites.
            "links": [
                {"role": lk.role, "url": lk.url, "subject": lk.subject} for lk in self.entry.links
            ],
        }
        if self.scope is not None:
            out["scope"] = self.scope.as_dict(trail=trail)
        return out


@dataclass(frozen=True)
class Report:
    """Everything one run learned, ready for any renderer."""

    entries: tuple[EntryResult, ...]
    findings: tuple[Finding, ...]
    requests: RequestCounts = field(default_factory=RequestCounts)
    notes: tuple[str, ...] = ()
    elapsed: float = 0.0
    #: Services that could not be asked as a whole (an outage, a spent budget, no network):
    #: not in the JSON report, which says it per finding and in `notes`.
    outages: tuple[Service, ...] = ()
    #: A pull-request run (`--changed-since`): only the changed entries were checked. Not in
    #: the JSON report, whose `notes` say it; a saved report's reader derives it from them.
    pull_request: bool = False

    def count(self, severity: Severity) -> int:
        """How many findings have this severity."""
        return sum(1 for f in self.findings if f.severity is severity)

    def worst(self) -> Severity | None:
        """The worst severity present, or None when there are no findings."""
        if not self.findings:
            return None
        return max((f.severity for f in self.findings), key=lambda s: s.rank)

    def summary(self) -> dict[str, int]:
        """The JSON `summary` object of CONTRACT.md."""
        return {
            "entries": len(self.entries),
            "errors": self.count(Severity.ERROR),
            "warnings": self.count(Severity.WARNING),
            "infos": self.count(Severity.INFO),
        }

"""What every stage past the command line reads: settings, the clock and the loaded rules
that checks read (links and projects; the scope stage receives its policy on its own).

It lives below sources, resolvers and checks so that a finding made while loading takes the
configured severity exactly as one made by a check does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

from curator.config.links import LinkRules
from curator.config.options import Options
from curator.config.projects import ProjectRules
from curator.core.codes import severity_of
from curator.core.model import Finding, Source


@dataclass(frozen=True)
class CheckContext:
    """What every check may read besides the entry: settings, the clock, the loaded link and
    project rules (None when the run skips the service or reads none), and the titles under
    which the whole list names each subject (`listings`: a paper listed again elsewhere, e.g.
    in a projects table, is judged with its other listings)."""

    options: Options = field(default_factory=Options)
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    links: LinkRules | None = None
    projects: ProjectRules | None = None
    listings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def finding(
        self,
        code: str,
        subject: str,
        source: Source,
        message: str,
        evidence: str = "",
        suggestion: str = "",
    ) -> Finding:
        """A Finding with the configured severity for `code`."""
        sev = severity_of(code, dict(self.options.severity))
        return Finding(code, sev, subject, source, message, evidence, suggestion)

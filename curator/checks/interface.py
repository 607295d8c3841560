"""What a check is: a pure function (entry, outcomes, context) -> findings."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from curator.codes import severity_of
from curator.model import Entry, Finding, Source
from curator.options import Options
from curator.resolvers.interface import Outcome


@dataclass(frozen=True)
class CheckContext:
    """What every check may read besides the entry: settings, the clock, loaded rules."""

    options: Options = field(default_factory=Options)
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    rules: Mapping[str, Any] = field(default_factory=dict)

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


Check = Callable[[Entry, Mapping[str, Outcome], CheckContext], list[Finding]]

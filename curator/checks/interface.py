"""What a check is: a pure function (entry, outcomes, context) -> findings."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from curator.config.context import CheckContext
from curator.core.model import Entry, Finding
from curator.core.outcomes import Outcome

Check = Callable[[Entry, Mapping[str, Outcome], CheckContext], list[Finding]]

__all__ = ["Check", "CheckContext"]

"""What a check is: a pure function (entry, outcomes, context) -> findings."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from curator.context import CheckContext
from curator.model import Entry, Finding
from curator.resolvers.interface import Outcome

Check = Callable[[Entry, Mapping[str, Outcome], CheckContext], list[Finding]]

__all__ = ["Check", "CheckContext"]

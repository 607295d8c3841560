"""Registry entries imported on first use: a service's resolver or check, named by module.

A run asks only some services (a pull request that adds one paper asks arXiv alone), and
`curator --version` or a run that fails on its input asks none: importing every resolver
with its HTTP stack up front cost about half of the pipeline's import time. Each entry is
still checked against its type when it is first used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol, cast

from curator.checks.interface import Check, CheckContext
from curator.config.options import Options
from curator.core.model import Entry, Finding
from curator.core.outcomes import Counter, Outcome

if TYPE_CHECKING:
    from curator.net.cache import Cache
    from curator.resolvers.base import CachedResolver


class ResolverClass(Protocol):
    """What a resolver registry holds: a CachedResolver class, or a stand-in for one."""

    def build(
        self, options: Options, cache: Cache, counter: Counter, rules: Mapping[str, Any]
    ) -> CachedResolver:
        """The resolver of one run (CachedResolver.build)."""
        ...


@dataclass(frozen=True)
class DeferredResolver:
    """The CachedResolver class `name` of `module`, imported when a run first builds it."""

    module: str
    name: str

    def load(self) -> type[CachedResolver]:
        """The class itself."""
        from curator.resolvers.base import CachedResolver

        found = getattr(import_module(self.module), self.name)
        if not (isinstance(found, type) and issubclass(found, CachedResolver)):
            raise TypeError(f"{self.module}.{self.name} is not a CachedResolver")
        return found

    def build(
        self, options: Options, cache: Cache, counter: Counter, rules: Mapping[str, Any]
    ) -> CachedResolver:
        """The resolver of one run, built by the class as it would be without deferral."""
        return self.load().build(options, cache, counter, rules)


@dataclass(frozen=True)
class DeferredCheck:
    """The check function `name` of `module`, imported when it is first called."""

    module: str
    name: str

    @cached_property
    def function(self) -> Check:
        """The function itself, imported on first use."""
        found = getattr(import_module(self.module), self.name)
        if not callable(found):
            raise TypeError(f"{self.module}.{self.name} is not a check")
        return cast(Check, found)

    def __call__(
        self, entry: Entry, outcomes: Mapping[str, Outcome], ctx: CheckContext
    ) -> list[Finding]:
        """The check's findings for one entry."""
        return self.function(entry, outcomes, ctx)

"""The run's registries (curator.core.registry's one shape): sources by reader, resolvers and
checks by service. A new service is its resolver's file plus one line in `RESOLVERS` (and its
check's line in `CHECKS`, when it has findings of its own); a new input format is one line in
`sources/formats.py`'s suffix table and one in `SOURCES`. Each is imported when a run first
asks for it (the CLI imports the pipeline only to run a check, so `curator --version` stays
fast)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from curator.checks.interface import Check, CheckContext
from curator.config.links import LinkRules
from curator.config.options import Options
from curator.core.model import Service
from curator.core.outcomes import Counter
from curator.core.registry import Lazy, Registry
from curator.sources.formats import Reader
from curator.sources.interface import ListSource
from curator.sources.select import Comparison

if TYPE_CHECKING:
    from curator.net.cache import Cache
    from curator.resolvers.base import CachedResolver


class ResolverClass(Protocol):
    """What the resolver registry holds: a CachedResolver class, or a stand-in for one."""

    def build(
        self, options: Options, cache: Cache, counter: Counter, links: LinkRules | None
    ) -> CachedResolver:
        """The resolver of one run (CachedResolver.build)."""
        ...


#: A source as the registry holds it: built with the run's context, cache and (pull-request
#: mode) comparison with the base revision.
SourceFactory = Callable[[CheckContext, "Cache | None", Comparison | None], ListSource]


def _catalog(
    context: CheckContext, cache: Cache | None, comparison: Comparison | None
) -> ListSource:
    """The YAML catalogue reader (jsonschema is imported only for a run that validates a
    file); with the run's cache, files that passed the schema before are not validated again;
    in pull-request mode, with the run's comparison (only what changed is validated)."""
    from curator.sources.catalog_schema import CleanFiles
    from curator.sources.yaml_catalog import CatalogSource

    clean = CleanFiles.over(cache) if cache is not None else None
    return CatalogSource(context, clean, comparison)


def _document(
    context: CheckContext, cache: Cache | None, comparison: Comparison | None
) -> ListSource:
    """The awesome-list document reader (markdown-it only for a run that reads a document);
    in pull-request mode its inline parses are kept for the base revision's reading."""
    from curator.sources.document import DocumentSource

    return DocumentSource(context, comparison.inlines if comparison is not None else None)


def _resolver_class(found: object) -> bool:
    from curator.resolvers.base import CachedResolver

    return isinstance(found, type) and issubclass(found, CachedResolver)


#: Reader (sources/formats.py's suffix table names it) -> its source. Both factories import
#: their reader on first use, so they are registered as themselves.
SOURCES: Registry[Reader, SourceFactory] = Registry(
    "source", {Reader.CATALOGUE: _catalog, Reader.DOCUMENT: _document}
)

#: Service -> its resolver.
RESOLVERS: Registry[Service, ResolverClass] = Registry(
    "CachedResolver",
    {
        Service.ARXIV: Lazy("curator.resolvers.arxiv", "ArxivResolver"),
        Service.GITHUB: Lazy("curator.resolvers.github", "GithubResolver"),
        Service.WEB: Lazy("curator.resolvers.web", "WebResolver"),
    },
    _resolver_class,
)

#: Service -> the check that reads that service's outcomes.
CHECKS: Registry[Service, Check] = Registry(
    "check",
    {
        Service.ARXIV: Lazy("curator.checks.papers", "check_paper"),
        Service.GITHUB: Lazy("curator.checks.repos", "check_repo"),
        Service.WEB: Lazy("curator.checks.links", "check_links"),
    },
)

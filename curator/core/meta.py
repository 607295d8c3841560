"""What a service says about a subject, as typed frozen values.

`PaperMeta` is arXiv's record of a paper and `RepoMeta` GitHub's record of a repository.
Each keeps the exact JSON object the cache stores and the report shows (`to_cache`, same
keys in the same order), and reads it back (`from_cache`), tolerant of a row written by an
older curator that lacks a key: a missing or mistyped value reads as empty, never raises.
`WebMeta` is what a checked link answered. Other services (arXiv's title search, a service
added by a user) carry a plain mapping.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True)
class PaperMeta:
    """arXiv's record of the latest version of a paper."""

    id: str = ""  # base ID, no version
    version: int = 1
    url: str = ""
    title: str = ""
    authors: tuple[str, ...] = ()
    abstract: str = ""
    published: str = ""  # v1 submission day, YYYY-MM-DD
    published_at: str = ""  # v1 submission, UTC ISO 8601 with Z
    updated: str = ""  # this version, UTC ISO 8601 with Z
    primary_category: str = ""
    categories: tuple[str, ...] = ()
    comment: str = ""
    journal_ref: str = ""
    doi: str = ""
    withdrawn: bool = False
    #: The keys of the cache row this record was read from, in the row's order; see `meta_json`.
    keys: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    def to_cache(self) -> dict[str, object]:
        """The JSON object the cache keeps and the report shows (key order is the format)."""
        return _cache_json(self)

    @classmethod
    def from_cache(cls, value: Mapping[str, object]) -> PaperMeta:
        """The record of a cached (or freshly built) JSON object."""
        version = value.get("version")
        return cls(
            id=_text(value, "id"),
            version=version if isinstance(version, int) and not isinstance(version, bool) else 1,
            url=_text(value, "url"),
            title=_text(value, "title"),
            authors=_texts(value, "authors"),
            abstract=_text(value, "abstract"),
            published=_text(value, "published"),
            published_at=_text(value, "published_at"),
            updated=_text(value, "updated"),
            primary_category=_text(value, "primary_category"),
            categories=_texts(value, "categories"),
            comment=_text(value, "comment"),
            journal_ref=_text(value, "journal_ref"),
            doi=_text(value, "doi"),
            withdrawn=value.get("withdrawn") is True,
            keys=tuple(value),
        )


@dataclass(frozen=True)
class RepoMeta:
    """GitHub's record of a repository (from GraphQL or REST, the same fields)."""

    name_with_owner: str = ""  # GitHub's canonical spelling, `Owner/Name`
    url: str = ""
    stars: int = 0
    forks: int = 0
    license: str | None = None  # SPDX ID; "NOASSERTION" for a file GitHub cannot classify
    archived: bool = False
    disabled: bool = False
    fork: bool = False
    pushed_at: str | None = None  # ISO 8601, as GitHub sends it
    default_branch: str | None = None
    homepage: str | None = None
    description: str | None = None
    #: The keys of the cache row this record was read from, in the row's order; see `meta_json`.
    keys: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    def to_cache(self) -> dict[str, object]:
        """The JSON object the cache keeps and the report shows (key order is the format)."""
        return _cache_json(self)

    @classmethod
    def from_cache(cls, value: Mapping[str, object]) -> RepoMeta:
        """The record of a cached JSON object."""
        return cls(
            name_with_owner=_text(value, "name_with_owner"),
            url=_text(value, "url"),
            stars=_int(value, "stars"),
            forks=_int(value, "forks"),
            license=_optional(value, "license"),
            archived=value.get("archived") is True,
            disabled=value.get("disabled") is True,
            fork=value.get("fork") is True,
            pushed_at=_optional(value, "pushed_at"),
            default_branch=_optional(value, "default_branch"),
            homepage=_optional(value, "homepage"),
            description=_optional(value, "description"),
            keys=tuple(value),
        )


@dataclass(frozen=True)
class WebMeta:
    """What a checked link answered: the last status, the final URL and the hop chain."""

    http_status: int = 0
    final_url: str = ""
    chain: tuple[tuple[int, str], ...] = ()  # (status, url) of each hop, the link first
    #: The keys of the cache row this record was read from, in the row's order; see `meta_json`.
    keys: tuple[str, ...] | None = field(default=None, compare=False, repr=False)

    def to_cache(self) -> dict[str, object]:
        """The JSON object the cache keeps and the report shows (key order is the format)."""
        return _cache_json(self)

    @classmethod
    def from_cache(cls, value: Mapping[str, object]) -> WebMeta:
        """The record of a cached JSON object; a hop that is not a `[status, url]` pair is
        left out."""
        items = value.get("chain")
        hops = items if isinstance(items, list | tuple) else ()
        return cls(
            http_status=_int(value, "http_status"),
            final_url=_text(value, "final_url"),
            chain=tuple(
                (hop[0], str(hop[1]))
                for hop in hops
                if isinstance(hop, list | tuple) and len(hop) == 2 and isinstance(hop[0], int)
            ),
            keys=tuple(value),
        )


def _cache_json(record: PaperMeta | RepoMeta | WebMeta) -> dict[str, object]:
    """A record's JSON object: every field but `keys`, in declaration order (the format), a
    tuple as a list."""
    return {f.name: _plain(getattr(record, f.name)) for f in fields(record) if f.name != "keys"}


def _plain(value: object) -> object:
    """A value as JSON holds it: tuples (of tuples) as lists."""
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


def _text(value: Mapping[str, object], key: str) -> str:
    item = value.get(key)
    return item if isinstance(item, str) else ""


def _texts(value: Mapping[str, object], key: str) -> tuple[str, ...]:
    items = value.get(key)
    if not isinstance(items, list | tuple):
        return ()
    return tuple(i for i in items if isinstance(i, str))


def _optional(value: Mapping[str, object], key: str) -> str | None:
    item = value.get(key)
    return item if isinstance(item, str) else None


def _int(value: Mapping[str, object], key: str) -> int:
    item = value.get(key)
    return item if isinstance(item, int) and not isinstance(item, bool) else 0


#: What a Found/NotFound/Moved carries: a typed record, or (web, title search) a mapping.
Meta = PaperMeta | RepoMeta | WebMeta | Mapping[str, Any]


def meta_json(meta: Meta) -> dict[str, Any]:
    """Any service's metadata as the JSON object the cache and the report keep. A record read
    from the cache shows the keys its row held, in the row's order (the cache writes sorted
    keys; a row of an older curator may lack one), as the report always showed it."""
    if not isinstance(meta, PaperMeta | RepoMeta | WebMeta):
        return dict(meta)
    full = meta.to_cache()
    return full if meta.keys is None else {key: full[key] for key in meta.keys if key in full}


def paper_meta(meta: Meta) -> PaperMeta:
    """arXiv's record in `meta`: as is, read from a plain mapping (a double or a service that
    keeps one), or an empty one when `meta` is another service's record."""
    if isinstance(meta, PaperMeta):
        return meta
    return PaperMeta() if isinstance(meta, RepoMeta | WebMeta) else PaperMeta.from_cache(meta)


def repo_meta(meta: Meta) -> RepoMeta:
    """GitHub's record in `meta`: as is, read from a plain mapping, or an empty one when
    `meta` is another service's record."""
    if isinstance(meta, RepoMeta):
        return meta
    return RepoMeta() if isinstance(meta, PaperMeta | WebMeta) else RepoMeta.from_cache(meta)


def web_meta(meta: Meta) -> WebMeta:
    """A checked link's record in `meta`: as is, read from a plain mapping, or an empty one
    when `meta` is another service's record."""
    if isinstance(meta, WebMeta):
        return meta
    return WebMeta() if isinstance(meta, PaperMeta | RepoMeta) else WebMeta.from_cache(meta)


def plain(meta: Meta) -> Mapping[str, Any]:
    """The untyped metadata of a service without a record type (the web's hop chain, a
    title search's papers); empty for a typed record."""
    return {} if isinstance(meta, PaperMeta | RepoMeta | WebMeta) else meta

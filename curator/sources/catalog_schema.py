"""The catalogue's JSON Schema: a file's structure errors (fatal) and its items' messages.

A file is validated as a whole, or (pull-request mode) its structure alone and then only the
items the run reports on, one by one against the item schema: the same errors at the same
paths, without validating thousands of unchanged items.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

import yaml

from curator.core.digest import code_digest
from curator.core.errors import InputError
from curator.net.cache import Cache
from curator.textio import json_text
from curator.textio.located_yaml import line_of, written_keys

if TYPE_CHECKING:
    import jsonschema

#: The keys whose lists hold the items (entries) of a catalogue file.
LISTS = ("papers", "projects", "links")

#: A schema error with its path from the top of the file (keys and indexes).
Located = tuple[list[Any], Any]


@cache
def schema() -> dict[str, Any]:
    """The catalogue JSON Schema shipped with curator (published as data/schema.json)."""
    text = resources.files("curator").joinpath("schema/catalog.schema.json").read_text("utf-8")
    data: dict[str, Any] = json_text.loads(text)
    return data


@cache
def _validator() -> jsonschema.protocols.Validator:
    # Imported here: a run whose files are all known clean (CleanFiles) never needs it.
    import jsonschema

    cls = jsonschema.validators.validator_for(schema())
    # Local `$ref`s inlined once: resolving them per item is a third of validation time.
    flat = _inline(schema(), schema()["$defs"])
    return cls(flat, format_checker=cls.FORMAT_CHECKER)


@cache
def _item_validator(list_key: str) -> jsonschema.protocols.Validator:
    """The validator of one item of `list_key` (the whole file's, evolved to the item schema)."""
    whole = _validator()
    flat: Any = whole.schema
    return whole.evolve(schema=flat["properties"][list_key]["items"])


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with every `{"$ref": "#/$defs/NAME"}` replaced by its definition."""
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = _inline(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
        return {**target, **{k: _inline(v, defs) for k, v in node.items() if k != "$ref"}}
    return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}


def file_errors(data: Any, items: bool) -> list[Located]:
    """Schema errors of the whole file (`items`) or of its structure alone, sorted by path."""
    checked = data if items else _without_items(data)
    return _sorted((list(e.absolute_path), e) for e in _validator().iter_errors(checked))


def item_errors(data: dict[str, Any], wanted: Iterable[tuple[str, int]]) -> list[Located]:
    """Schema errors of the `wanted` items (list key, index) of a file whose structure is
    valid, sorted by path: what validating the whole file says about those items.

    Valid structure means each list key holds a list, and the schema asks nothing of a list
    but its items (tests/sources/test_catalog_schema.py holds it to that).
    """
    found: list[Located] = []
    for list_key, index in wanted:
        item = data[list_key][index]
        found += (
            ([list_key, index, *e.absolute_path], e)
            for e in _item_validator(list_key).iter_errors(item)
        )
    return _sorted(found)


def _sorted(errors: Iterable[Located]) -> list[Located]:
    return sorted(errors, key=lambda pair: _path_key(pair[0]))


def _without_items(data: Any) -> Any:
    """The file with its item lists emptied (a list key that holds no list is kept as is)."""
    if not isinstance(data, dict):
        return data
    return {k: [] if k in LISTS and isinstance(v, list) else v for k, v in data.items()}


def raise_structure_error(errors: list[Located], node: yaml.Node, name: str) -> None:
    """Fatal: the file is not a catalogue file at all (errors outside the item lists)."""
    for path, err in errors:
        if len(path) >= 2 and path[0] in LISTS and isinstance(path[1], int):
            continue
        extra = _unknown_key(err, node, path)
        if extra:
            allowed = ", ".join(schema()["properties"])
            raise InputError(f"unknown key {extra[0]!r} (allowed: {allowed})", name, extra[1])
        where = "/".join(str(p) for p in path) or "top level"
        raise InputError(f"not a catalogue file: {where}: {_plain(err)}", name, line_of(node, path))


def messages(errors: list[Located], node: yaml.Node, name: str) -> dict[tuple[str, int], list[str]]:
    """Schema messages per (list, index) with the line of the offending key or value."""
    out: dict[tuple[str, int], list[str]] = {}
    for path, err in errors:
        if len(path) < 2:
            continue
        key = (str(path[0]), int(path[1]))
        out.setdefault(key, []).append(_located(err, node, path, name))
    return out


def _located(err: Any, node: yaml.Node, path: list[Any], name: str) -> str:
    """`line N: message` for one schema error inside an item."""
    extra = _unknown_key(err, node, path)
    if extra:
        return f"line {extra[1]}: unknown key {extra[0]!r}"
    return f"line {line_of(node, path)}: {'/'.join(map(str, path[2:])) or 'entry'}: {_plain(err)}"


def _path_key(path: Any) -> list[tuple[int, int | str]]:
    """A sort key for a schema error path whose steps may mix indexes and keys."""
    return [(0, step) if isinstance(step, int) else (1, str(step)) for step in path]


def _unknown_key(err: Any, node: yaml.Node, path: list[Any]) -> tuple[str, int] | None:
    """For an unknown-key error: the first such key as written, with its line; else None.

    Read from the YAML nodes: a key need not load as a string (`1:`, `~:`, `true:`).
    """
    if err.validator != "additionalProperties" or not isinstance(err.schema, dict):
        return None
    allowed = err.schema.get("properties", {})
    return next(((k, line) for k, line in written_keys(node, path) if k not in allowed), None)


def _plain(err: Any) -> str:
    """A short schema message; dates get a human sentence."""
    if err.validator == "pattern" and "0[1-9]" in str(err.validator_value):
        return f"{err.instance!r} is not a date YYYY-MM-DD, YYYY-MM or YYYY (two-digit month, day)"
    if err.validator == "anyOf" and isinstance(err.instance, dict):
        return "needs `arxiv` (an arXiv ID) or `url` (for other venues)"
    message = str(err.message)
    return message if len(message) <= 200 else message[:197] + "..."


#: What decides whether a file's text passes the schema: how it is read and how validated.
_CODE = (
    "textio/located_yaml.py",
    "textio/yaml_tree.py",
    "sources/catalog_schema.py",
    "schema/catalog.schema.json",
)


class CleanFiles:
    """Catalogue files that passed the whole schema, remembered in the cache by a digest of
    their text and of the code that read and validated them (and its libraries), so that an
    unchanged file is not validated again. Only a clean pass is kept: a file with a problem
    is validated on every run, and any change to it or to that code is a new key."""

    SERVICE = "schema"

    def __init__(self, cache: Cache, code: str) -> None:
        self.cache = cache
        self.code = code

    @classmethod
    def over(cls, cache: Cache) -> CleanFiles | None:
        """The memo over an open cache; None when there is none or the code cannot be read."""
        code = code_digest(_CODE, ("jsonschema", "PyYAML"))
        if not cache.enabled or code is None:
            return None
        return cls(cache, code + ("+libyaml" if hasattr(yaml, "CSafeLoader") else ""))

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.code}\0{text}".encode()).hexdigest()

    def known(self, text: str) -> bool:
        """True when exactly this text passed the schema before."""
        key = self._key(text)
        return self.cache.recall(self.SERVICE, [key]).get(key) == {"clean": True}

    def remember(self, text: str) -> None:
        """Keep that this text passed the whole schema."""
        self.cache.keep(self.SERVICE, [(self._key(text), {"clean": True})])

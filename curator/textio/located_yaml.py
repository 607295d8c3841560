"""The one located-YAML reader: safe YAML with line numbers for every file curator reads.

PyYAML's SafeLoader already refuses arbitrary objects; on top of it this loader keeps dates
as the strings the contributor wrote (the schema checks them), refuses alias bombs and
absurd nesting, and returns the node tree so every value can be traced to its line. The
catalogue (sources/yaml_catalog), the rules files (run/rules.py) and the scope policy
(scope/rules) all read through it: `compose` + the node helpers, or `load_located`, whose
mappings remember their lines.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from curator.core.errors import InputError
from curator.textio.text import read_text
from curator.textio.yaml_tree import (
    MAX_ALIASES,
    MAX_DEPTH,
    git_lines,
    plain_values,
    to_git_lines,
    within_limits,
)


class _Loader(yaml.SafeLoader):
    """SafeLoader that counts aliases and depth while composing."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._aliases = 0
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        """Compose one node, refusing alias bombs and deep nesting."""
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                event = self.peek_event()  # type: ignore[no-untyped-call]
                raise _refused(f"more than {MAX_ALIASES} aliases", event)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise _refused(f"nested deeper than {MAX_DEPTH} levels", event)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


# Keep `2025-12-3` and `2025-12-03` as strings: the schema, not the parser, judges dates.
_Loader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


# libyaml (C) parses about ten times faster; the pure-Python loader is the fallback.
_CBase: Any = getattr(yaml, "CSafeLoader", None)
if _CBase is not None:

    class _CLoader(_CBase):  # type: ignore[misc]
        """CSafeLoader with the same resolvers (no timestamps)."""

        def __init__(self, stream: str) -> None:
            super().__init__(stream)
            self._plain_tags: dict[str, str] = {}

        def resolve(self, kind: Any, value: str, implicit: tuple[bool, bool]) -> Any:
            """The resolver's own answer, found once per distinct plain scalar (keys and tags
            repeat on every item; the regular expressions were a third of composing)."""
            if kind is not yaml.ScalarNode or self.yaml_path_resolvers:
                return super().resolve(kind, value, implicit)
            if not implicit[0]:
                return self.DEFAULT_SCALAR_TAG  # quoted, or tagged `!`: a string
            tag = self._plain_tags.get(value)
            if tag is None:
                tag = self._plain_tags[value] = super().resolve(kind, value, implicit)
            return tag

    _CLoader.yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers

_OPEN = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSE = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


def _scan(loader: Any) -> None:
    """Refuse alias bombs and deep nesting from the event stream, before any node is built."""
    aliases = depth = 0
    while loader.check_event():
        event = loader.get_event()
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise _refused(f"more than {MAX_ALIASES} aliases", event)
        elif isinstance(event, _OPEN):
            depth += 1
            if depth > MAX_DEPTH:
                raise _refused(f"nested deeper than {MAX_DEPTH} levels", event)
        elif isinstance(event, _CLOSE):
            depth -= 1


def _refused(problem: str, event: Any) -> yaml.MarkedYAMLError:
    """A located YAML error for an input the loader refuses."""
    return yaml.MarkedYAMLError(problem=problem, problem_mark=event.start_mark)


def _compose_fast(text: str) -> yaml.Node | None:
    """Compose with libyaml, then count aliases and depth on the tree (one parse, not two).

    libyaml itself stops at 1,000 levels, so composing first is safe. When composing fails or
    a limit is passed, the events are scanned first as before, so the error raised is the
    same one, at the same place.
    """
    loader = _CLoader(text)
    try:
        node: yaml.Node | None = loader.get_single_node()
    except Exception:  # any failure: the careful path below raises it as it always did
        return _compose_scanned(text)
    finally:
        loader.dispose()
    if node is not None and not within_limits(node, tracks_aliases="&" in text):
        return _compose_scanned(text)
    return node


def _compose_scanned(text: str) -> yaml.Node | None:
    """Scan the events (limits refused before any node is built), then compose, with libyaml."""
    scanner = _CLoader(text)
    try:
        _scan(scanner)
    finally:
        scanner.dispose()
    loader = _CLoader(text)
    try:
        node: yaml.Node | None = loader.get_single_node()
        return node
    finally:
        loader.dispose()


def _compose_python(text: str) -> yaml.Node | None:
    loader = _Loader(text)
    try:
        node: yaml.Node | None = loader.get_single_node()
        return node
    finally:
        loader.dispose()


def yaml_error(exc: yaml.YAMLError, text: str, file: str) -> InputError:
    """One located line for a YAML error that has no mark: a refused character (the reader
    knows only its position), or anything else."""
    if isinstance(exc, yaml.reader.ReaderError):
        line = text[: max(0, exc.position)].count("\n") + 1
        what = f"character #x{exc.character:04x}" if isinstance(exc.character, int) else "byte"
        return InputError(f"invalid YAML: {what} not allowed ({exc.reason})", file, line)
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return InputError(f"invalid YAML: {first}", file)


def compose(text: str, file: str) -> yaml.Node | None:
    """The node tree of a one-document YAML text; InputError with file:line when malformed.

    Every mark counts lines as git and GitHub do (at "\n" only), not as YAML does (which
    also breaks a line at U+2028, U+2029, U+0085 and a lone CR): the lines findings name and
    a pull request's diff selects by."""
    try:
        node = _compose_fast(text) if _CBase is not None else _compose_python(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = _git_line(text, mark.index) if mark else 0
        problem = exc.problem or exc.context or "invalid YAML"
        raise InputError(f"invalid YAML: {problem}", file, line) from None
    except yaml.YAMLError as exc:
        raise yaml_error(exc, text, file) from None
    except RecursionError:
        raise InputError("invalid YAML: nested too deeply", file) from None
    if node is not None and (lines := git_lines(text)) is not None:
        to_git_lines(node, lines)
    return node


def _git_line(text: str, index: int) -> int:
    """The 1-based line git counts for the character at `index`."""
    return text.count("\n", 0, max(0, index)) + 1


def compose_file(path: Path) -> yaml.Node | None:
    """The node tree of the YAML file at `path`; None when it is absent or empty (a rules file
    left out means the defaults)."""
    if not path.is_file():
        return None
    name = path.as_posix()
    return compose(read_text(path, name), name)


def construct(node: yaml.Node, file: str) -> Any:
    """Plain Python values (dict, list, str, int, ...) for a node."""
    try:
        return plain_values(node, _Loader(""), set())
    except Exception:  # anything unusual: PyYAML's own constructor decides (and raises)
        return _construct(node, file, _Loader(""))


def _construct(node: yaml.Node, file: str, loader: yaml.SafeLoader) -> Any:
    """Values for a node built by `loader`; InputError with file:line when that fails."""
    try:
        return loader.construct_document(node)
    except InputError as exc:
        raise InputError(exc.message, file, exc.line) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise InputError(
            f"invalid YAML: {exc.problem}", file, mark.line + 1 if mark else 0
        ) from None
    except yaml.YAMLError as exc:
        raise InputError(f"invalid YAML: {exc}", file) from None
    finally:
        loader.dispose()


class LocatedMap(dict[str, Any]):
    """A YAML mapping that remembers the line it started on and the line of each key."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        """The line of `key`, else the mapping's own line."""
        return self.key_lines.get(key, self.line)


class _LocatedLoader(_Loader):
    """The safe loader whose mappings are LocatedMaps and refuse duplicate keys."""


def _construct_map(loader: _LocatedLoader, node: yaml.MappingNode) -> LocatedMap:
    out = LocatedMap()
    out.line = node_line(node)
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in out:
            raise InputError(f"duplicate key {key!r}", "", node_line(key_node))
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[str(key)] = node_line(key_node)
    return out


_LocatedLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_map)


def load_located(text: str, file: str) -> Any:
    """The values of a one-document YAML text, every mapping a LocatedMap (None when empty);
    InputError with file:line when malformed."""
    node = compose(text, file)
    return None if node is None else _construct(node, file, _LocatedLoader(""))


def line_of(node: yaml.Node, path: list[str | int]) -> int:
    """1-based line of the value at `path` (keys and indexes) below `node`, as deep as found."""
    current = node
    for step in path:
        child = _child(current, step)
        if child is None:
            break
        current = child
    return int(current.start_mark.line) + 1


def _child(node: yaml.Node, step: str | int) -> yaml.Node | None:
    """The child node at a mapping key or sequence index, or None."""
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if getattr(key, "value", None) == step:
                return value if isinstance(value, yaml.Node) else None
    elif (
        isinstance(node, yaml.SequenceNode)
        and isinstance(step, int)
        and 0 <= step < len(node.value)
    ):
        item = node.value[step]
        return item if isinstance(item, yaml.Node) else None
    return None


def item_lines(node: yaml.Node, key: str) -> list[int]:
    """1-based line of each item of the sequence at mapping key `key`: `line_of(node, [key, i])`
    for every i at once ([] when `key` holds no sequence)."""
    items = _child(node, key)
    if not isinstance(items, yaml.SequenceNode):
        return []
    return [int(item.start_mark.line) + 1 for item in items.value]


def written_keys(node: yaml.Node, path: list[str | int]) -> list[tuple[str, int]]:
    """(key as written, line) of each key of the mapping at `path`, in document order.

    The written text, not the loaded value: `~:` or `true:` load as None and True.
    """
    target: yaml.Node | None = node
    for step in path:
        target = _child(target, step) if target is not None else None
    if not isinstance(target, yaml.MappingNode):
        return []
    return [(str(k.value), int(k.start_mark.line) + 1) for k, _v in target.value]


def key_line(node: yaml.Node, path: list[str | int], key: str) -> int:
    """Line of mapping key `key` inside the mapping at `path` (for unknown-key messages)."""
    target = node
    for step in path:
        child = _child(target, step)
        if child is None:
            return line_of(node, path)
        target = child
    if isinstance(target, yaml.MappingNode):
        for k, _v in target.value:
            if getattr(k, "value", None) == key:
                return int(k.start_mark.line) + 1
    return int(target.start_mark.line) + 1


def node_line(node: yaml.Node) -> int:
    """1-based line of a node."""
    return int(node.start_mark.line) + 1


def mapping_nodes(node: yaml.Node, file: str, what: str) -> dict[str, tuple[yaml.Node, yaml.Node]]:
    """A mapping node as key -> (key node, value node); InputError when it is not a mapping,
    a key is not a plain name, or a key is repeated."""
    if not isinstance(node, yaml.MappingNode) or node.tag != "tag:yaml.org,2002:map":
        raise InputError(f"{what} must be a mapping", file, node_line(node))
    out: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode):
            raise InputError("keys must be plain names", file, node_line(key))
        if key.value in out:
            raise InputError(f"duplicate key {key.value!r}", file, node_line(key))
        out[str(key.value)] = (key, value)
    return out

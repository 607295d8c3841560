"""Safe YAML with line numbers: no tags, no timestamps, capped aliases and depth.

PyYAML's SafeLoader already refuses arbitrary objects; on top of it this loader keeps dates
as the strings the contributor wrote (the schema checks them), refuses alias bombs and
absurd nesting, and returns the node tree so every value can be traced to its line.
"""

from __future__ import annotations

from typing import Any

import yaml

from curator.errors import InputError

MAX_ALIASES = 50
MAX_DEPTH = 64


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
                mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                raise yaml.YAMLError(f"more than {MAX_ALIASES} aliases (line {mark.line + 1})")
        self._depth += 1
        if self._depth > MAX_DEPTH:
            mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
            raise yaml.YAMLError(f"nested deeper than {MAX_DEPTH} levels (line {mark.line + 1})")
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


# Keep `2025-12-3` and `2025-12-03` as strings: the schema, not the parser, judges dates.
_Loader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def compose(text: str, file: str) -> yaml.Node | None:
    """The node tree of a one-document YAML text; InputError with file:line when malformed."""
    try:
        loader = _Loader(text)
        try:
            return loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        problem = exc.problem or exc.context or "invalid YAML"
        raise InputError(f"invalid YAML: {problem}", file, line) from None
    except yaml.YAMLError as exc:
        raise InputError(f"invalid YAML: {exc}", file) from None
    except RecursionError:
        raise InputError("invalid YAML: nested too deeply", file) from None


def construct(node: yaml.Node, file: str) -> Any:
    """Plain Python values (dict, list, str, int, ...) for a node."""
    loader = _Loader("")
    try:
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise InputError(
            f"invalid YAML: {exc.problem}", file, mark.line + 1 if mark else 0
        ) from None
    except yaml.YAMLError as exc:
        raise InputError(f"invalid YAML: {exc}", file) from None
    finally:
        loader.dispose()


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

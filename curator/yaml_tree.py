"""The located-YAML reader's work on a composed node tree: limits counted, plain values built.

`located_yaml.compose` parses with libyaml once and checks the limits here (the careful
event scan runs only when in doubt); `located_yaml.construct` builds plain trees here and
leaves anything unusual to PyYAML's own constructor. tests/sources/test_located_yaml_fast.py
holds both to the careful paths.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import chain
from typing import Any

import yaml

MAX_ALIASES = 50
MAX_DEPTH = 64


def within_limits(root: yaml.Node, tracks_aliases: bool) -> bool:
    """True unless the tree holds more than MAX_ALIASES aliases or nests deeper than MAX_DEPTH,
    counted as `_scan` counts the events. Without an anchor (`&`) in the text there can be
    no alias, and the tree is a plain tree."""
    if isinstance(root, yaml.ScalarNode):
        return True
    return _aliases_within_limits(root) if tracks_aliases else _shallow(root, 1)


def _shallow(node: yaml.Node, depth: int) -> bool:
    """True unless a collection below this one (at `depth`) nests deeper than MAX_DEPTH;
    scalars add no depth."""
    if depth > MAX_DEPTH:
        return False
    children = chain.from_iterable(node.value) if isinstance(node, yaml.MappingNode) else node.value
    for child in children:
        if not isinstance(child, yaml.ScalarNode) and not _shallow(child, depth + 1):
            return False
    return True


def _aliases_within_limits(root: yaml.Node) -> bool:
    """`within_limits` for a tree with aliases: visited in document order, an alias is a node
    met again (not entered again); only collections add depth."""
    seen: set[int] = set()
    aliases = 0
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            aliases += 1
            if aliases > MAX_ALIASES:
                return False
            continue
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            continue
        if depth > MAX_DEPTH:
            return False
        children = (
            [n for pair in node.value for n in pair]
            if isinstance(node, yaml.MappingNode)
            else list(node.value)
        )
        stack.extend((child, depth + 1) for child in reversed(children))
    return True


_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
#: Keys PyYAML's constructor rewrites before building a mapping (`<<` merges, `=`).
_SPECIAL_KEYS = ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value")


class Unusual(Exception):
    """A node `plain_values` leaves to PyYAML's constructor."""


def plain_values(node: yaml.Node, loader: yaml.SafeLoader, seen: set[int]) -> Any:
    """The values of a tree of plain strings, lists and mappings, built directly: what
    SafeLoader builds, at a third of its cost (no per-node bookkeeping). Other scalars are
    built by `loader`; a shared collection (an alias) or an unusual tag or key raises
    `Unusual`, and so does every constructor error (which PyYAML then reports itself)."""
    if isinstance(node, yaml.ScalarNode):
        return node.value if node.tag == _STR else loader.construct_object(node, deep=True)
    if id(node) in seen:
        raise Unusual
    seen.add(id(node))
    # String scalars, most of a list, are read in place rather than through a call each.
    if isinstance(node, yaml.SequenceNode) and node.tag == _SEQ:
        return [
            c.value
            if c.tag == _STR and isinstance(c, yaml.ScalarNode)
            else plain_values(c, loader, seen)
            for c in node.value
        ]
    if not isinstance(node, yaml.MappingNode) or node.tag != _MAP:
        raise Unusual
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag in _SPECIAL_KEYS:
            raise Unusual
        if key_node.tag == _STR:
            key = key_node.value
        else:
            key = loader.construct_object(key_node, deep=True)
            if not isinstance(key, Hashable):
                raise Unusual
        out[key] = (
            value_node.value
            if value_node.tag == _STR and isinstance(value_node, yaml.ScalarNode)
            else plain_values(value_node, loader, seen)
        )
    return out

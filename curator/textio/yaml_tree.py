"""The located-YAML reader's work on a composed node tree: limits counted, plain values built.

`located_yaml.compose` parses with libyaml once and checks the limits here (the careful
event scan runs only when in doubt); `located_yaml.construct` builds plain trees here and
leaves anything unusual to PyYAML's own constructor. tests/sources/test_located_yaml_fast.py
holds both to the careful paths. A text whose lines YAML counts otherwise than git has its
marks moved to git's lines here (`git_lines`, `to_git_lines`).
"""

from __future__ import annotations

import bisect
import re
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


#: The line breaks YAML counts and git does not (besides a lone CR): NEL, LS and PS.
_YAML_ONLY_BREAKS = ("\x85", "\u2028", "\u2029")


class GitLines:
    """Lines and columns as git and GitHub count them (a line ends at "\n" only) for the
    character offsets of a text. PyYAML's marks count a line at every YAML line break; their
    `index` is the character's offset in the text, with either loader."""

    __slots__ = ("_ends",)

    def __init__(self, text: str) -> None:
        self._ends = [m.start() for m in re.finditer("\n", text)]

    def line(self, index: int) -> int:
        """The 0-based line of the character at `index`."""
        return bisect.bisect_left(self._ends, index)

    def mark(self, mark: yaml.Mark) -> yaml.Mark:
        """`mark` with git's line and column."""
        line = self.line(mark.index)
        start = self._ends[line - 1] + 1 if line else 0
        return yaml.Mark(mark.name, mark.index, line, mark.index - start, mark.buffer, mark.pointer)


def git_lines(text: str) -> GitLines | None:
    """The text's git lines when YAML numbers them otherwise (a Unicode line break, a lone
    CR), else None (the marks are right as they are)."""
    # `in` is a thousandth of a regular expression's scan of a large catalogue.
    odd = any(brk in text for brk in _YAML_ONLY_BREAKS)
    lone_cr = "\r" in text and text.count("\r") != text.count("\r\n")
    return GitLines(text) if odd or lone_cr else None


def to_git_lines(root: yaml.Node, lines: GitLines) -> None:
    """Every node's marks below `root` in git's lines (each node once: aliases share one)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        node.start_mark, node.end_mark = lines.mark(node.start_mark), lines.mark(node.end_mark)
        if isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in node.value for n in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


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

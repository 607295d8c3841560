"""The located-YAML reader's fast paths give what the careful paths give, for any text.

`compose` parses once (resolving each distinct plain scalar once) and counts aliases and
depth on the tree; the careful path scans the events first, with PyYAML's own resolver.
`construct` builds plain trees directly; the careful path is PyYAML's constructor. Both are
compared on generated documents (values dumped in several styles, and token soup with
anchors, aliases, tags, merges and deep nesting): the same nodes, the same values, or the
same located error.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from curator.core.errors import InputError
from curator.textio import located_yaml
from curator.textio.located_yaml import (
    MAX_ALIASES,
    MAX_DEPTH,
    compose,
    construct,
    item_lines,
    line_of,
)
from curator.textio.yaml_tree import Unusual


class _LibyamlLoader(yaml.CSafeLoader):
    """libyaml's loader with the reader's resolvers and PyYAML's own `resolve`."""


_LibyamlLoader.yaml_implicit_resolvers = located_yaml._Loader.yaml_implicit_resolvers


def _outcome(text: str, careful: bool) -> tuple[str, str]:
    """("ok", nodes and values) or ("error", the located message) for one text."""
    patches = (
        [
            mock.patch.object(located_yaml, "_compose_fast", located_yaml._compose_scanned),
            mock.patch.object(located_yaml, "_CLoader", _LibyamlLoader),
            mock.patch.object(located_yaml, "plain_values", _refuse),
        ]
        if careful
        else []
    )
    try:
        for patch in patches:
            patch.start()
        try:
            node = compose(text, "f.yaml")
        except InputError as exc:
            return "error", f"compose {exc.message} {exc.line}"
        if node is None:
            return "ok", "empty"
        try:
            value = construct(node, "f.yaml")
        except InputError as exc:
            return "error", f"construct {exc.message} {exc.line}"
        except Exception as exc:  # PyYAML's own exceptions outside YAMLError
            return "error", f"construct {type(exc).__name__}: {exc}"
        return "ok", f"{_nodes(node)} {value!r} {_shape(value)}"
    finally:
        for patch in reversed(patches):
            patch.stop()


def _refuse(node: yaml.Node, loader: Any, seen: set[int]) -> Any:
    raise Unusual


def _nodes(root: yaml.Node) -> str:
    """Every node once, in document order: kind, tag, value and line; aliases by number."""
    seen: dict[int, int] = {}
    out: list[str] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            out.append(f"*{seen[id(node)]}")
            continue
        seen[id(node)] = len(seen)
        out.append(f"{type(node).__name__}:{node.tag}:{node.start_mark.line}")
        if isinstance(node, yaml.ScalarNode):
            out.append(repr(node.value))
        elif isinstance(node, yaml.MappingNode):
            stack.extend(n for pair in reversed(node.value) for n in reversed(pair))
        else:
            stack.extend(reversed(node.value))
    return " ".join(out)


def _shape(value: Any, depth: int = 0) -> str:
    """Types all the way down (repr shows 1 and True apart, not list identity)."""
    if depth > 20:
        return "..."
    if isinstance(value, dict):
        return "{" + ",".join(f"{_shape(k)}:{_shape(v, depth + 1)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_shape(v, depth + 1) for v in value) + "]"
    return type(value).__name__


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=8),
    st.sampled_from(["2025-01-02", "0x1F", "1_000", ".inf", "~", "yes", "=", "<<", "null"]),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(scalars, inner, max_size=4),
    max_leaves=20,
)
TOKENS = [
    "- ", "-", "a", "b: ", "c:", ": ", "? ", "&x ", "&y ", "*x", "*y", "!!str ", "!!int ",
    "!!map ", "!!seq ", "!!set ", "!!binary ", "!!timestamp ", "!!python/tuple ", "<<: ", "= ",
    "[", "]", "{", "}", ", ", "'q'", '"d"', "1", "2.5", "true", "~", "2025-12-03", "\n", "\n  ",
    "\n    ", "|\n  t", "#c", "---\n", "x", "AA", "!local ", "! ", "0o7", "1e3", ".nan", "Null",
    "FALSE", "-1", "+2", "0b1", "::", "'",
]  # fmt: skip


def _same(text: str) -> None:
    assert _outcome(text, careful=False) == _outcome(text, careful=True), text


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values, st.booleans(), st.integers(1, 4))
def test_dumped_values_read_the_same(value: Any, flow: bool, indent: int) -> None:
    shared = [value, value]  # dumped with an anchor and an alias
    for doc in (value, {"papers": [value, {"k": value}]}, shared):
        _same(yaml.safe_dump(doc, default_flow_style=flow, indent=indent + 1, sort_keys=False))


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=30))
def test_token_soup_reads_the_same(tokens: list[str]) -> None:
    _same("".join(tokens))


@pytest.mark.parametrize(
    "text",
    [
        "a: &x [1, 2]\nb: *x\n",
        "a: &x {k: v}\nb: *x\nc: *x\n",
        "&r [*r]\n",
        "base: &b {k: 1}\nnew:\n  <<: *b\n  j: 2\n",
        "new:\n  <<: {k: 1}\n  j: 2\n",
        "new:\n  <<: [{k: 1}, {m: 2}]\n  k: 3\n",
        "{=: 1, b: 2}\n",
        "? [1, 2]\n: v\n",
        "a: !!int nope\n",
        "a: !!binary aGk=\n",
        "s: !!set {a, b}\n",
        "- !!timestamp 2025-01-02\n",
        "a: 1\na: 2\n",
        "1: x\ntrue: y\n~: z\n",
        "&a x: *a\n",
        "items: [" + ", ".join(["&a1 v"] + ["*a1"] * MAX_ALIASES) + "]\n",
        "items: [" + ", ".join(["&a1 v"] + ["*a1"] * (MAX_ALIASES + 1)) + "]\n",
        "[" * MAX_DEPTH + "]" * MAX_DEPTH,
        "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
        "x: " + "[" * (MAX_DEPTH + 1) + "\n",
        "- " * MAX_DEPTH + "a\n",
        "- " * (MAX_DEPTH + 1) + "a\n",
        "a: &x [" + "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2) + "]\nb: [*x]\n",
        "[" * 2000,
        "a: *undefined\n",
        "a: &x 1\nb: &x 2\nc: *x\n",
        "a: b: c\n",
        "\t- tab\n",
        "a: \x07\n",
    ],
)
def test_hand_picked_documents_read_the_same(text: str) -> None:
    _same(text)


def test_an_anchor_bomb_is_refused_at_the_same_line() -> None:
    lines = ["a0: &a0 [x, x]"] + [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}]" for i in range(1, 40)]
    text = "\n".join(lines) + "\n"
    with pytest.raises(InputError) as fast:
        compose(text, "f.yaml")
    assert "aliases" in fast.value.message
    _same(text)


def test_an_aliased_collection_is_one_object_as_pyyaml_builds_it() -> None:
    node = compose("a: &x [1, 2]\nb: *x\n", "f.yaml")
    assert node is not None
    value = construct(node, "f.yaml")
    assert value == {"a": [1, 2], "b": [1, 2]}
    assert value["a"] is value["b"]


@pytest.mark.parametrize("title", ["Q&A", "Plain"])  # with `&`, aliases are counted
def test_an_ordinary_catalogue_takes_the_fast_paths(title: str) -> None:
    depth = "x: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    text = f"section: S\npapers:\n  - {{title: '{title}', arxiv: '2401.00001', tags: [a, 1]}}\n"
    text += depth
    careful = mock.Mock(side_effect=AssertionError("took the careful path"))
    with (
        mock.patch.object(located_yaml, "_compose_scanned", careful),
        mock.patch.object(located_yaml, "_construct", careful),
    ):
        node = compose(text, "f.yaml")
        assert node is not None
        assert construct(node, "f.yaml")["papers"][0]["tags"] == ["a", 1]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(values, max_size=6), st.sampled_from([False, None]))
def test_item_lines_are_the_lines_line_of_gives(items: list[Any], flow: bool | None) -> None:
    text = yaml.safe_dump({"section": "S", "papers": items}, default_flow_style=flow)
    for extra in ("", "papers: [x, y, z, w, v, u, t]\n", "papers: {a: 1}\n"):
        node = compose(text + extra, "f.yaml")
        assert node is not None
        lines = item_lines(node, "papers")
        assert lines == [line_of(node, ["papers", i]) for i in range(len(lines))]
    assert item_lines(node, "projects") == []

"""Edits of a catalogue YAML file: the exact characters of one scalar, in its own style.

Pure. The file is composed once with the located-YAML reader; an entry is the item of
`papers`, `projects` or `links` that starts on the finding's line, and a value is the scalar
under its key (`title`, `date`, `since`, a URL anywhere in the item, the `arxiv` ID). Only
that scalar's characters change: comments, layout and every other value stay as they are.
The new value keeps the old one's style (plain, 'single' or "double" quoted); a plain value
that would not read back as the same string is double-quoted. Block and multi-line scalars
are never rewritten (a changed line count would move every later line).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import yaml

from curator.core.errors import InputError
from curator.core.model import Entry, Finding, Kind
from curator.core.normalize import parse_arxiv_id, subject_for_url
from curator.fix.model import Edit
from curator.fix.values import Change, Want, id_pattern, rewrite_url
from curator.sources.catalog_schema import LISTS
from curator.textio.located_yaml import compose

_STR = "tag:yaml.org,2002:str"
_URL = re.compile(r"^\s*https?://\S+\s*$", re.IGNORECASE)
#: The key of an entry's title and date, by kind.
TITLE_KEY = {Kind.PAPER: "title", Kind.PROJECT: "name", Kind.LINK: "title"}
DATE_KEY = {Kind.PAPER: "date", Kind.PROJECT: "since"}


@dataclass
class CatalogText:
    """One catalogue file's text and its items by first line."""

    file: str
    text: str
    items: dict[int, yaml.MappingNode] = field(default_factory=dict)

    def __post_init__(self) -> None:
        try:
            root = compose(self.text, self.file)
        except InputError:
            return  # unreadable: nothing can be located (the check said why)
        if not isinstance(root, yaml.MappingNode):
            return
        for key, value in root.value:
            if getattr(key, "value", None) in LISTS and isinstance(value, yaml.SequenceNode):
                for item in value.value:
                    if isinstance(item, yaml.MappingNode):
                        self.items[int(item.start_mark.line) + 1] = item


def edits_for(cat: CatalogText, want: Want, entry: Entry, finding: Finding) -> list[Edit] | None:
    """The edits that make `want` in `entry`'s item; None when a value cannot be rewritten."""
    item = cat.items.get(entry.source.line)
    if item is None:
        return None
    if want.change in {Change.TITLE, Change.DATE}:
        keys = TITLE_KEY if want.change is Change.TITLE else DATE_KEY
        node = _value(item, keys.get(entry.kind, ""))
        if node is None:
            return None
        edit = _rewrite(cat, node, False, want.new, finding)
        return [edit] if edit is not None else None
    edits: list[Edit] = []
    for node, flow, key in _scalars(item, False, ""):
        new = _new_value(want, node.value.strip(), key, finding.subject)
        if new is None:
            continue
        edit = _rewrite(cat, node, flow, new, finding)
        if edit is None:
            return None  # a link that cannot be rewritten: none of them is
        edits.append(edit)
    return edits or None


def _new_value(want: Want, value: str, key: str, subject: str) -> str | None:
    """What one scalar of the item becomes, or None when `want` leaves it."""
    if want.change is Change.ARXIV_ID:
        if key == "arxiv":
            parsed = parse_arxiv_id(value)
            return want.new if parsed is not None and parsed.base == want.old else None
        if _URL.match(value) and subject_for_url(value) == subject:
            return id_pattern(want.old).sub(want.new, value)
        return None
    if want.change is Change.FORM and key == "arxiv":
        return _arxiv_form(want, value)
    if not _URL.match(value):
        return None
    new = rewrite_url(want, value, subject)
    return new if new is not None and new != value else None


def _arxiv_form(want: Want, value: str) -> str | None:
    """An `arxiv` field in the form the list asks for: the ID of the link it makes
    (`https://arxiv.org/abs/<arxiv>`, sources/yaml_catalog.arxiv_link) as the rules want it."""
    parsed, wanted = parse_arxiv_id(value), parse_arxiv_id(want.new)
    if parsed is None or wanted is None or want.old != f"https://arxiv.org/abs/{parsed}":
        return None
    return str(wanted) if str(wanted) != value else None


def _value(item: yaml.MappingNode, key: str) -> yaml.ScalarNode | None:
    """The scalar under `key` of the item, or None."""
    for k, v in item.value:
        if getattr(k, "value", None) == key and isinstance(v, yaml.ScalarNode):
            return v
    return None


def _scalars(node: yaml.Node, flow: bool, key: str) -> Iterator[tuple[yaml.ScalarNode, bool, str]]:
    """Every string scalar below `node` (values, not keys), with whether it stands in a flow
    collection and the mapping key it stands under."""
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _STR:
            yield node, flow, key
    elif isinstance(node, yaml.MappingNode):
        inner = flow or bool(node.flow_style)
        for k, v in node.value:
            yield from _scalars(v, inner, str(getattr(k, "value", "")))
    elif isinstance(node, yaml.SequenceNode):
        inner = flow or bool(node.flow_style)
        for v in node.value:
            yield from _scalars(v, inner, key)


def _rewrite(
    cat: CatalogText, node: yaml.ScalarNode, flow: bool, value: str, finding: Finding
) -> Edit | None:
    """The edit writing `value` in place of `node`, in its style; None for a block or
    multi-line scalar."""
    start, end = int(node.start_mark.index), int(node.end_mark.index)
    old = cat.text[start:end]
    written = scalar(value, node.style or "", flow)
    if written is None or "\n" in old or "\r" in old:
        return None
    return Edit(cat.file, start, end, old, written, finding)


def scalar(value: str, style: str, flow: bool = False) -> str | None:
    """`value` as a YAML scalar in `style` (`'`, `"` or plain); a plain value that would not
    read back as this string is double-quoted; None for a block style or a line break."""
    if style in {"|", ">"} or "\n" in value or "\r" in value:
        return None
    if style == "'":
        return "'" + value.replace("'", "''") + "'"
    if style == '"' or not plain_reads_back(value, flow):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return value


def plain_reads_back(value: str, flow: bool = False) -> bool:
    """True when `value` written plain (in a block mapping, or inside a flow collection) is
    read back as exactly this string (not a number, a date, a comment or more syntax)."""
    if not value or value != value.strip():
        return False
    head = "k: [" if flow else "k: "
    try:
        root = compose(head + value + ("]\n" if flow else "\n"), "")
    except InputError:
        return False
    if not isinstance(root, yaml.MappingNode) or len(root.value) != 1:
        return False
    node = root.value[0][1]
    if flow:
        if not isinstance(node, yaml.SequenceNode) or len(node.value) != 1:
            return False
        node = node.value[0]
    return (
        isinstance(node, yaml.ScalarNode)
        and node.tag == _STR
        and not node.style
        and node.value == value
        and int(node.end_mark.index) == len(head) + len(value)
    )

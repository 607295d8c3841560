"""markdown-it as curator runs it: CommonMark plus GFM tables, link targets kept as written,
the inline parses of a run shared between readings of a document (`InlineParses`), and blocks
nested past `FLAT_FROM` levels read as plain lines; `parse` gives the tokens and the env, and
`definitions` and `flat_lines` read what the env holds. The walk of the tokens is
`doc_markdown`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core.state_core import StateCore
from markdown_it.token import Token


def _as_written(url: str) -> str:
    return url.strip()


class InlineParses:
    """The inline parses of one run's documents, by the text parsed, for each set of
    reference definitions in force: what a second reading of a document (a pull request's
    base revision of it) takes over for every paragraph, cell and heading it shares with
    the first, instead of parsing them again.

    markdown-it parses an inline run from its text, the parser's options and the document's
    reference definitions (a `[text][label]` link takes its target and title from them)
    and from nothing else; so an earlier parse of the same text under the same definitions
    is the same tokens. Readers only read the tokens, never change them."""

    __slots__ = ("_by_references",)

    def __init__(self) -> None:
        self._by_references: dict[tuple[tuple[str, str, str], ...], dict[str, list[Token]]] = {}

    def under(self, references: dict[str, Any]) -> dict[str, list[Token]]:
        """The parses (text -> child tokens) made under these reference definitions."""
        key = tuple(sorted((label, d["href"], d["title"]) for label, d in references.items()))
        return self._by_references.setdefault(key, {})

    def keep(self, tokens: list[Token], env: dict[str, Any]) -> None:
        """Remember the inline parses of a finished token stream (after every core rule)."""
        known = self.under(env.get("references", {}))
        for tok in tokens:
            if tok.type == "inline" and tok.children is not None:
                known.setdefault(tok.content, tok.children)


#: The key of a parse's `env` that holds the run's InlineParses (markdown-it gives rules
#: the env for such data).
_INLINES = "curator_inline_parses"


def _inline_rule(state: StateCore) -> None:
    """markdown-it's own `inline` core rule, taking the tokens of an inline run parsed before
    under the same reference definitions from the parse's InlineParses, when it has one.

    Those tokens already went through `text_join`, which leaves such a list as it is (it
    joins adjacent text tokens, and none are left)."""
    parses: InlineParses | None = state.env.get(_INLINES)
    known = parses.under(state.env.get("references", {})) if parses is not None else {}
    for token in state.tokens:
        if token.type != "inline":
            continue
        found = known.get(token.content)
        if found is not None:
            token.children = found
            continue
        if token.children is None:
            token.children = []
        state.md.inline.parse(token.content, state.md, state.env, token.children)


#: The key of a parse's `env` that lists the first line of each block read flat.
_FLAT = "curator_flat_lines"
#: The block nesting from which lists and quotes are read as plain lines (a list item is
#: two levels: the list and the item). Below markdown-it's own `maxNesting` (20), where its
#: block parser stops and skips the rest of the enclosing block: for a list item, every line
#: to the end of the document (`- - - - - - - - - - x` was the end of the reading).
FLAT_FROM = 18
#: The block rules that open a container (and parse its content one level deeper).
_CONTAINERS = {"blockquote", "list"}


def _flat_rule(md: MarkdownIt) -> Callable[[StateBlock, int, int, bool], bool]:
    """A block rule, tried first, that reads each block nested `FLAT_FROM` levels or deeper
    with the leaf rules alone (paragraph, fence, table, HTML, heading …): a list item or
    quote there is a paragraph's text (`- > x`), whose links are read. So the nesting stays
    bounded (no deeper recursion, no rescanning per level) and nothing after it is skipped.
    The first line of each block that would have opened a list or quote is listed in the
    parse's env (`_FLAT`), for the reader to name."""
    names, rules = md.block.ruler.get_active_rules(), md.block.ruler.getRules("")
    chain = [(rule, name in _CONTAINERS) for name, rule in zip(names, rules, strict=True)]

    def flat(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        if state.level < FLAT_FROM:
            return False
        opens = False
        for rule, container in chain:
            if container:
                # Asked silently: would it open here? (The rules before it come first.)
                opens = opens or rule(state, start, end, True)
            elif rule(state, start, end, silent):
                if opens and not silent:
                    state.env.setdefault(_FLAT, []).append(start + 1)
                return True
        return False

    return flat


@cache
def _parser() -> MarkdownIt:
    """CommonMark plus tables; link targets kept as written (curator normalises them itself,
    and markdown-it's percent-encoding pass was a third of the parse time); inline runs
    parsed before in the run taken over (`InlineParses`); blocks nested past `FLAT_FROM`
    read flat (`_flat_rule`)."""
    md = MarkdownIt("commonmark", {"store_labels": True}).enable("table")
    md.normalizeLink = _as_written  # type: ignore[method-assign]
    md.core.ruler.at("inline", _inline_rule)
    md.block.ruler.before("table", "curator_flat", _flat_rule(md))
    return md


def parse(text: str, inlines: InlineParses | None = None) -> tuple[list[Token], dict[str, Any]]:
    """markdown-it's tokens of `text` and its env (the reference definitions read), taking
    over and adding to the run's inline parses when given."""
    env: dict[str, Any] = {} if inlines is None else {_INLINES: inlines}
    tokens = _parser().parse(text, env)
    if inlines is not None:
        inlines.keep(tokens, env)
    return tokens, env


def definitions(env: dict[str, Any]) -> list[tuple[str, int, int]]:
    """(label, first line, last line) of every reference definition markdown-it read."""
    found = [(label, ref.get("map")) for label, ref in env.get("references", {}).items()]
    # A later definition of a label is hidden by the first: no link uses it (label "").
    found += [("", ref.get("map")) for ref in env.get("duplicate_refs", [])]
    return [(label, where[0] + 1, where[1]) for label, where in found if where]


def flat_lines(env: dict[str, Any]) -> list[int]:
    """The first line of each block the parse read flat (see `_flat_rule`)."""
    lines: list[int] = env.get(_FLAT, [])
    return lines

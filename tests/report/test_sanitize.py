"""Untrusted text is inert in GitHub Markdown: each trick from the issue, one by one."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from curator.console import sanitize

MD = MarkdownIt("commonmark").enable("table")
ZW = "\u200b"


def html_of(cell: str) -> str:
    """Render the sanitised text inside a one-row table, as GitHub would."""
    return MD.render(f"| a | b |\n| --- | --- |\n| {cell} | end |\n")


def visible(cell: str) -> str:
    """The text a reader sees (tags stripped, entities decoded by the renderer)."""
    import html

    first = re.findall(r"<td>(.*?)</td>", html_of(cell), re.S)[0]
    return html.unescape(re.sub(r"<[^>]+>", "", first))


@pytest.mark.parametrize(
    ("trick", "forbidden"),
    [
        ("hi @maintainer", r"@maintainer"),
        ("ping @org/team", r"@org/team"),
        ("fixes #1", r"#1"),
        ("closes owner/repo#12", r"repo#12"),
        ("see GH-7", r"GH-7"),
        ("mail a@b.example", r"a@b"),
        ("https://evil.example/x", r"https://"),
        ("www.evil.example", r"www\."),
    ],
)
def test_patterns_github_links_are_broken(trick: str, forbidden: str) -> None:
    """Mentions, references and bare URLs no longer match once a zero-width space is in."""
    text = visible(sanitize.text(trick))
    assert not re.search(forbidden, text)
    assert text.replace(ZW, "").strip().startswith(trick.split()[0])


@pytest.mark.parametrize(
    "trick",
    [
        "<img src=x onerror=alert(1)>",
        "<script>alert(1)</script>",
        "<!-- hidden -->",
        "[link](javascript:alert(1))",
        "![img](https://e.example/p.png)",
        "<https://evil.example>",
        "<details open>",
    ],
)
def test_no_html_links_or_images(trick: str) -> None:
    """No tag, comment, link or image reaches the rendered HTML."""
    out = html_of(sanitize.text(trick))
    assert "<img" not in out and "<a " not in out and "<!--" not in out
    assert "<script" not in out and "<details" not in out


def test_table_and_fence_cannot_break() -> None:
    """Pipes and newlines stay inside the cell; a fence or heading cannot start a line."""
    cell = sanitize.text("a | b\n```\n# title\r\n| c |")
    assert "\n" not in cell and "|" not in cell
    out = html_of(cell)
    assert out.count("<td>") == 2 and "<pre" not in out and "<h1" not in out


def test_code_span_is_closed_and_table_safe() -> None:
    """Backticks inside cannot close the span early; pipes are escaped for the table."""
    cell = sanitize.code("x``y|z @u #1")
    out = html_of(cell)
    assert out.count("<td>") == 2
    assert "<code>x``y|z @u #1</code>" in out


def test_invisible_and_bidi_characters_are_dropped() -> None:
    """A zero-width or bidi character cannot hide a mention from the sanitiser."""
    assert "\u202e" not in sanitize.clean("abc\u202edef")
    assert sanitize.text("@\u200bmaintainer") == "@&#8203;maintainer"


def test_shorten_counts_characters() -> None:
    """Long untrusted text is cut with an ellipsis before escaping."""
    assert sanitize.shorten("x" * 20, 10) == "x" * 9 + "…"
    assert len(visible(sanitize.text("y" * 1000, 50))) == 50


def test_link_only_for_http_urls() -> None:
    """link() refuses other schemes and percent-encodes what could end the destination."""
    assert sanitize.link("x", "javascript:alert(1)") == "x"
    assert sanitize.link("x", "https://h/a (b)") == "[x](https://h/a%20%28b%29)"


@given(st.text(max_size=200))
def test_any_text_stays_in_one_cell(value: str) -> None:
    """Whatever the input, the cell holds no raw pipe, newline, < or backtick."""
    cell = sanitize.text(value)
    assert not set(cell) & set("|\n\r<>`[]")
    assert "@" not in cell.replace("@&#8203;", "")

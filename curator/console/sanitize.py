"""Make untrusted strings inert in GitHub-flavoured Markdown: no pings, issue links, HTML,
images, links, autolinks, hidden comments, table breaks or code fences.

The approach follows Renovate's `sanitizeMarkdown` (a zero-width space after `@` and between
`#` and a digit) and Dependabot's habit of never letting upstream text form a link, and adds
entity-escaping of every character that Markdown or HTML could read as syntax. GitHub finds
mentions, issue references and bare URLs in the *rendered* text, so escaping alone would not
stop them: only a zero-width space inside the pattern does.
"""

from __future__ import annotations

import re
import unicodedata

ZWSP = "\u200b"

#: Characters dropped from untrusted input: bidi overrides (Trojan Source) and invisible ones
#: that could hide a pattern from us but not from a reader.
_INVISIBLE = dict.fromkeys(
    map(
        ord,
        "\u200b\u200c\u200d\u2060\ufeff\u00ad\u202a\u202b\u202c\u202d\u202e"
        "\u2066\u2067\u2068\u2069\u200e\u200f\u061c",
    ),
    None,
)

#: Patterns GitHub turns into pings, cross-references or links, and where to break them.
_BREAKS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"@"), "@" + ZWSP),  # @user, @org/team, e-mail autolinks
    (re.compile(r"#(?=\d)"), "#" + ZWSP),  # #1, owner/repo#1, fixes #1
    (re.compile(r"\b(GH)-(?=\d)", re.IGNORECASE), r"\1" + ZWSP + "-"),  # GH-1
    (re.compile(r":(?=//)"), ":" + ZWSP),  # bare http(s):// autolinks
    (re.compile(r"\b(www)\.", re.IGNORECASE), r"\1" + ZWSP + "."),  # www. autolinks
)

#: Markdown/HTML syntax characters -> numeric character references (shown, never parsed).
_ENTITIES = {ch: f"&#{ord(ch)};" for ch in "&<>|`[]\\*_~#$"}
_ENTITIES[ZWSP] = "&#8203;"

_WS = re.compile(r"\s+")


def clean(value: object) -> str:
    """The value as one line of text: control and invisible characters gone, spaces collapsed."""
    text = str(value).translate(_INVISIBLE)
    chars = (" " if unicodedata.category(ch) in {"Cc", "Zl", "Zp"} else ch for ch in text)
    return _WS.sub(" ", "".join(chars)).strip()


def hidden(value: str) -> bool:
    """True when `value` holds a character `clean` drops: a bidi override or an invisible one
    (text that would read differently to a reviewer than to the file)."""
    return value != value.translate(_INVISIBLE)


def shorten(text: str, limit: int) -> str:
    """Text cut to at most `limit` characters, ending in … when cut."""
    if limit <= 0 or len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + "…"


def plain(value: object) -> str:
    """Untrusted text as one line of plain text for a reader that finds links in it: SARIF
    viewers (GitHub code scanning) turn `[text](uri)` into a link, so `](` is broken."""
    return clean(value).replace("](", "] (")


def text(value: object, limit: int = 300) -> str:
    """Untrusted text as inert inline Markdown, safe in a paragraph or a table cell."""
    raw = shorten(clean(value), limit)
    for pattern, repl in _BREAKS:
        raw = pattern.sub(repl, raw)
    return "".join(_ENTITIES.get(ch, ch) for ch in raw)


def code(value: object, limit: int = 200) -> str:
    """Untrusted text as an inline code span (no links, pings or references), table-safe."""
    raw = shorten(clean(value), limit)
    if not raw:
        return ""
    # A fence longer than any backtick run inside keeps the span closed; GitHub skips
    # mentions, references and autolinks inside code.
    longest = max((len(m) for m in re.findall(r"`+", raw)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if raw.startswith("`") or raw.endswith("`") else ""
    # GFM splits table cells on | even inside code spans; \| is the documented escape.
    return f"{fence}{pad}{raw.replace('|', chr(92) + '|')}{pad}{fence}"


def link(label: str, url: str) -> str:
    """A Markdown link from an already-inert label to a URL curator built itself."""
    if not url.startswith(("https://", "http://")):
        return label
    safe_url = url.replace("(", "%28").replace(")", "%29").replace(" ", "%20")
    safe_url = safe_url.replace("<", "%3C").replace(">", "%3E")
    return f"[{label}]({safe_url})"


def terminal(value: object) -> str:
    """Untrusted text for one line of stderr or a log: control, bidi and line-breaking
    characters shown as `\\xNN` or `\\uNNNN`, so a file name cannot start a new line (a
    workflow command such as `::add-mask::`) or send escape sequences to the terminal; and
    `::` and `##[` shown as `:\\x3a` and `#\\x23[`: the Actions runner reads a line as a
    command when it starts with `::` after its indent, or holds `##[` anywhere (its old form),
    and wrapped output can put any part of a string at the start of a line."""
    shown = "".join(_visible(ch) for ch in str(value))
    return shown.replace("##[", "#\\x23[").replace("::", ":\\x3a")


def _visible(ch: str) -> str:
    """`ch`, or its escape when it is a control, format or line-separator character."""
    if unicodedata.category(ch) not in {"Cc", "Cf", "Zl", "Zp"}:
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code < 256 else f"\\u{code:04x}"

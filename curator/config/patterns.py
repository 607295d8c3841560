"""URL patterns of a rules file (links.yaml's `ignore.patterns`), matched by RE2.

The rules files are part of the checked tree, which a pull request controls, and a pattern
runs on every link. Python's `re` backtracks: `^https://x\\.example/(a|aa)+$` takes minutes on
one 44-character link. RE2 (the `google-re2` bindings of Google's engine) matches in time
linear in the link whatever the pattern, within a bounded memory per pattern, and refuses
what it cannot match that way (look-around, backreferences) when the file is read. This module
is the one adapter to it (the bindings have no type hints): each pattern is compiled alone
first, so a refusal names its line, then all run as one RE2 Set, one pass per link however
many patterns there are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import re2

from curator.core.errors import InputError

#: Bytes of memory RE2 may use for one pattern, and for the set of all of them.
MAX_MEMORY = 8 << 20
#: Where the syntax RE2 takes is written down (the README's link-rules section points here).
SYNTAX = "https://github.com/google/re2/wiki/Syntax"


@dataclass(frozen=True)
class UrlPatterns:
    """Patterns as written (compared, shown) and the RE2 Set that matches them all."""

    sources: tuple[str, ...] = ()
    matcher: Any = field(default=None, compare=False, repr=False)

    def search(self, url: str) -> bool:
        """True when any pattern matches somewhere in `url`."""
        return self.matcher is not None and self.matcher.Match(url) is not None


def compile_patterns(items: Sequence[tuple[str, int]], file: str, key: str) -> UrlPatterns:
    """The patterns (text, line) of `key` in `file`; InputError at the line of one RE2 refuses."""
    if not items:
        return UrlPatterns()
    options = _options()
    for text, line in items:
        try:
            check_pattern(text, options)
        except re2.error as exc:
            raise InputError(f"{key}: bad regex {text!r}: {_refusal(exc)}", file, line) from None
    matcher = re2.Set.SearchSet(options)
    for text, _ in items:
        matcher.Add(text)
    try:
        matcher.Compile()
    except re2.error:
        reason = f"{key}: the {len(items)} patterns together are too large for RE2; use fewer"
        raise InputError(reason, file, items[0][1]) from None
    return UrlPatterns(tuple(text for text, _ in items), matcher)


def _options() -> Any:
    """RE2 options: bounded memory, errors raised rather than printed to stderr."""
    options = re2.Options()
    options.max_mem = MAX_MEMORY
    options.log_errors = False
    return options


#: Reasons RE2 gives (their start), and what a maintainer writes instead.
_HINTS = (
    ("invalid perl operator: (?=", "RE2 has no look-around"),
    ("invalid perl operator: (?!", "RE2 has no look-around"),
    ("invalid perl operator: (?<", "RE2 has no look-around"),
    ("invalid perl operator: (?P=", "RE2 has no backreferences"),
    ("invalid perl operator: (?P", "RE2 has no backreferences"),
    ("invalid escape sequence: \\Z", "write \\z for the end of the link"),
    ("invalid escape sequence: \\", "RE2 has no backreferences or this escape"),
    ("invalid repetition size", "the pattern is too large for RE2"),
    ("pattern too large", "the pattern is too large for RE2"),
)
#: `{,n}`: Python's `re` reads "0 to n times", RE2 reads the characters: refused, not guessed.
_OPEN_LOWER = re2.compile(r"(?:^|[^\\])(?:\\\\)*\{,[0-9]*\}")


def check_pattern(text: str, options: Any) -> None:
    """re2.error when RE2 refuses `text`, or would read it otherwise than Python's `re`."""
    if _OPEN_LOWER.search(text):
        raise re2.error(b"{,n} repeats nothing in RE2: write {0,n}")
    re2.compile(text, options)


def _refusal(exc: Exception) -> str:
    """RE2's reason for refusing a pattern, with what to do about the common ones."""
    raw = exc.args[0] if exc.args else ""
    reason = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    hint = next((h for start, h in _HINTS if reason.startswith(start)), "")
    return f"{reason} ({hint}; see {SYNTAX})" if hint else f"{reason} (see {SYNTAX})"

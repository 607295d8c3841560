"""Where a scope rule's patterns match: word-indexed spans, the sentences that hold them.

Pure and cached per text: one paper's title and abstract are read by many rules.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import itemgetter

from curator.core.decision import PaperText


@dataclass(frozen=True)
class Pattern:
    """One whole-word phrase; `source` is the phrase as the maintainer wrote it.

    The phrase is checked when the rules are read; its regex is compiled on first use, since
    most of a policy's hundreds of phrases are never tried (scope/matching.py tries a phrase
    only where its first word occurs).
    """

    source: str

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """The compiled phrase (compile_phrase)."""
        return compile_phrase(self.source)

    def finditer(self, text: str) -> list[tuple[int, int]]:
        """Spans of every match in `text`."""
        return [m.span() for m in self.regex.finditer(text)]


def compile_phrase(phrase: str) -> re.Pattern[str]:
    """The regex for one whole-word, case-insensitive phrase (see scope/rules.py's docstring)."""
    return re.compile(phrase_regex(phrase), re.IGNORECASE)


def phrase_regex(phrase: str) -> str:
    """The regex text of a phrase, matched case-insensitively; ValueError when it has no
    word to match."""
    words = [w for w in re.split(r"[\s\-]+", phrase.strip()) if w]
    if not words:
        raise ValueError("empty pattern")
    parts = []
    for word in words:
        star = word.endswith("*")
        core = word.rstrip("*")
        if not core:
            raise ValueError(f"pattern word {word!r} has no letters")
        parts.append(re.escape(core) + (r"\w*" if star else ""))
    body = r"(?:\s*[-\u2010\u2011]\s*|\s+)".join(parts)
    return rf"(?<!\w){body}(?!\w)"


# A sentence ends at . ! ? followed by space and a capital, digit, quote or bracket.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[\\])")


def sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of `text`, without surrounding whitespace."""
    spans: list[tuple[int, int]] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(text.rstrip())))
    return [(a, b) for a, b in spans if b > a]


@dataclass(frozen=True)
class Hit:
    """One match of a rule's pattern in one field."""

    field: str
    start: int
    end: int
    phrase: str


def find_hits(patterns: Iterable[Pattern], paper: PaperText, fields: Iterable[str]) -> list[Hit]:
    group = tuple(patterns)
    out: list[Hit] = []
    for name in fields:
        text = paper.field(name)
        if not text:
            continue
        for pattern, places in _candidates(group, text):
            found = pattern.finditer(text) if places is None else _at(pattern, text, places)
            out.extend(Hit(name, a, b, pattern.source) for a, b in found)
    return sorted(out, key=text_order)


def text_order(hit: Hit) -> tuple[bool, int]:
    """Sort key of hits: the title's first, then by place."""
    return hit.field != "title", hit.start


#: A pattern's position in its group and the other words it needs, all present in the text.
_Needs = tuple[int, frozenset[str]]
_Plan = tuple[dict[str, list[_Needs]], list[tuple[str, _Needs]], list[int]]
_PLANS: dict[int, tuple[tuple[Pattern, ...], _Plan]] = {}


def _plan(group: tuple[Pattern, ...]) -> _Plan:
    """Positions in `group` by exact first word, by first-word prefix, and the rest."""
    # Keyed by identity: a rule's pattern tuple lives as long as the rules, and hashing a
    # tuple of hundreds of patterns on every call would cost more than the plan saves.
    known = _PLANS.get(id(group))
    if known is not None and known[0] is group:
        return known[1]
    exact: dict[str, list[_Needs]] = {}
    prefixed: list[tuple[str, _Needs]] = []
    other: list[int] = []
    for i, pattern in enumerate(group):
        first = _first_word(pattern.source)
        needs = (i, _later_words(pattern.source))
        if first is None:
            other.append(i)
        elif first[1]:
            prefixed.append((first[0], needs))
        else:
            exact.setdefault(first[0], []).append(needs)
    plan = (exact, prefixed, other)
    if len(_PLANS) > 4096:  # rules reloaded many times (tests): start over
        _PLANS.clear()
    _PLANS[id(group)] = (group, plan)
    return plan


#: A candidate pattern and the places where its first word starts (None: try it everywhere).
_Candidate = tuple[Pattern, Sequence[int] | None]


def _candidates(group: tuple[Pattern, ...], text: str) -> list[_Candidate]:
    """The patterns of `group` whose words occur in `text`, in their own order, each with the
    places where its first word starts."""
    exact, prefixed, other = _plan(group)
    words, starts = _index(text)
    present = starts.keys()
    # The first words both sides know (a set operation over the smaller side), then only
    # the patterns whose other plain words are words of the text too.
    chosen: list[tuple[int, Sequence[int] | None]] = [
        (i, starts[w]) for w in exact.keys() & present for i, later in exact[w] if present >= later
    ]
    for core, (i, later) in prefixed:
        if present >= later:
            places = _prefix_places(words, starts, core)
            if places:
                chosen.append((i, places))
    chosen.extend((i, None) for i in other)
    chosen.sort(key=itemgetter(0))
    return [(group[i], places) for i, places in chosen]


# A phrase can only match where its first word starts a word of the text. Trying the regex
# only at those places (instead of scanning the whole abstract ~750 times per paper) gives
# the same spans as `finditer` at a fraction of the cost.
_WORD = re.compile(r"\w+")


@lru_cache(maxsize=256)
def _index(text: str) -> tuple[tuple[str, ...], dict[str, list[int]]]:
    """The text's case-folded words, sorted, and where each word starts."""
    starts: dict[str, list[int]] = {}
    if text.isascii():
        # ASCII folds character by character: the words of the folded text are the folded
        # words of the text, at the same places (one fold instead of one per word).
        for m in _WORD.finditer(text.lower()):
            starts.setdefault(m.group(), []).append(m.start())
    else:
        for m in _WORD.finditer(text):
            starts.setdefault(m.group().casefold(), []).append(m.start())
    return tuple(sorted(starts)), starts


def _prefix_places(words: tuple[str, ...], starts: dict[str, list[int]], core: str) -> list[int]:
    """Where the words beginning with `core` start, in text order."""
    i = bisect_left(words, core)
    chosen: list[int] = []
    while i < len(words) and words[i].startswith(core):
        chosen.extend(starts[words[i]])
        i += 1
    return sorted(chosen)


@lru_cache(maxsize=4096)
def _first_word(phrase: str) -> tuple[str, bool] | None:
    """(case-folded first word, ends with *) when it is plain word characters, else None."""
    first = re.split(r"[\s\-]+", phrase.strip())[0]
    core = first.rstrip("*")
    if not core or not _WORD.fullmatch(core):
        return None
    return core.casefold(), first.endswith("*")


@lru_cache(maxsize=4096)
def _later_words(phrase: str) -> frozenset[str]:
    """The case-folded words after the first that must each be a whole word of a text the
    phrase matches: plain word characters without `*` (a middle or last word of the phrase
    is bounded by separators or the phrase's end, which are not word characters)."""
    later = [w for w in re.split(r"[\s\-]+", phrase.strip()) if w][1:]
    return frozenset(w.casefold() for w in later if _WORD.fullmatch(w))


def spans(pattern: Pattern, text: str) -> list[tuple[int, int]]:
    """What `pattern.finditer(text)` gives, trying the regex only where the phrase may start."""
    first = _first_word(pattern.source)
    if first is None:
        return pattern.finditer(text)
    core, prefix = first
    words, starts = _index(text)
    places = _prefix_places(words, starts, core) if prefix else starts.get(core, ())
    return _at(pattern, text, places)


def _at(pattern: Pattern, text: str, places: Iterable[int]) -> list[tuple[int, int]]:
    """Matches of the pattern starting at `places` (ascending), none overlapping the last."""
    out: list[tuple[int, int]] = []
    end = -1
    match = pattern.regex.match
    for pos in places:
        if pos < end:
            continue
        m = match(text, pos)
        if m:
            out.append(m.span())
            end = m.end()
    return out


@lru_cache(maxsize=64)
def sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    """`sentences(text)`, cached: every hit in the same abstract asks for its sentence."""
    return tuple(sentences(text))


def sentence_of(text: str, pos: int) -> tuple[int, int]:
    for a, b in sentence_spans(text):
        if a <= pos < b:
            return a, b
    return pos, pos

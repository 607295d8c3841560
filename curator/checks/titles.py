"""Title comparison for papers: equal after normalising case, spacing, TeX, punctuation, unicode.

Pure functions. Two titles match when only their spelling differs (`MemGPT$^2$` vs
`MemGPT²`, `Memory \\& Reasoning` vs `Memory and reasoning`, curly vs straight quotes,
hyphen vs space); they differ when a word does.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

# TeX commands that only format their argument: dropped, the argument kept.
_FORMATTING = (
    "textbf|textit|textrm|textsf|texttt|textsc|textup|textsl|textnormal|text|emph|underline"
    "|mathrm|mathbf|mathit|mathsf|mathtt|mathcal|mathbb|mathfrak|mathscr|mathnormal"
    "|boldsymbol|bm|operatorname|mbox|hbox|rm|bf|it|sf|tt|sc|em|cal|small|large|Large"
    "|footnotesize|scriptsize|tiny|normalsize|huge|Huge|left|right|big|Big|bigg|Bigg|displaystyle"
)
_FORMAT_CMD = re.compile(rf"\\(?:{_FORMATTING})(?![A-Za-z])\*?")
# Accent commands: \"o, \'{e}, \^o, \v{c}, \c{c} ... keep the letter (accents are ignored).
_ACCENT = re.compile(r"\\[\"'`^~=.]\s*\{?\s*([A-Za-z])\s*\}?|\\[uvHckrbd]\s*\{\s*([A-Za-z])\s*\}")
_ESCAPED = re.compile(r"\\([&%$#_{}])")
_COMMAND = re.compile(r"\\([A-Za-z]+)")
_GREEK = {
    name: chr(code)
    for name, code in (
        ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4),
        ("epsilon", 0x3B5), ("varepsilon", 0x3B5), ("zeta", 0x3B6), ("eta", 0x3B7),
        ("theta", 0x3B8), ("iota", 0x3B9), ("kappa", 0x3BA), ("lambda", 0x3BB),
        ("mu", 0x3BC), ("nu", 0x3BD), ("xi", 0x3BE), ("pi", 0x3C0), ("rho", 0x3C1),
        ("sigma", 0x3C3), ("tau", 0x3C4), ("upsilon", 0x3C5), ("phi", 0x3C6),
        ("varphi", 0x3C6), ("chi", 0x3C7), ("psi", 0x3C8), ("omega", 0x3C9),
    )
}  # fmt: skip


def normalize_title(title: str) -> str:
    """Lower-case words separated by single spaces: no TeX, accents, punctuation or symbols."""
    text = _untex(unicodedata.normalize("NFKC", title))
    text = text.replace("&", " and ")
    # Repeat to a fixed point: case folding and decomposition can expose new changes.
    for _ in range(4):
        done = _fold(text)
        if done == text:
            break
        text = done
    return text


def _untex(text: str) -> str:
    """Replace TeX markup by the text it stands for (braces and `$` go with punctuation)."""
    text = _FORMAT_CMD.sub(" ", text)
    text = _ACCENT.sub(lambda m: m.group(1) or m.group(2), text)
    text = _ESCAPED.sub(r"\1", text)
    return _COMMAND.sub(lambda m: _GREEK.get(m.group(1).lower(), m.group(1)), text)


def _fold(text: str) -> str:
    """Case-fold, drop accents, and turn everything but letters and digits into one space."""
    if text.isascii():
        # ASCII folds to lower case and decomposes to itself: the same result as below
        # without two passes per character (most titles are ASCII).
        return " ".join(_NOT_ASCII_ALNUM.sub(" ", text.lower()).split())
    return _fold_unicode(text)


_NOT_ASCII_ALNUM = re.compile(r"[^a-z0-9]+")


def _fold_unicode(text: str) -> str:
    """`_fold` for any text."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = unicodedata.normalize("NFKC", text)
    kept = "".join(c if c.isalnum() else " " for c in text)
    return " ".join(kept.split())


def compact(title: str) -> str:
    """The normalised title without spaces, so `Long-term`, `Long term` and `Longterm` agree."""
    return normalize_title(title).replace(" ", "")


def titles_match(entry_title: str, official_title: str) -> bool:
    """True when the two titles differ only in case, spacing, TeX, punctuation or accents."""
    return compact(entry_title) == compact(official_title)


# -- the same paper, retitled ---------------------------------------------------------------
# A title that differs in a word or two (a typo, a word added or dropped, "LLMs" for "Large
# Language Models") names the same paper; a title another paper has shares the field's words
# but not their sequence. Measured on the 1,846 distinct paper titles of the five sample lists
# (tests/fixtures/shared/samples: 1.7 million pairs of different papers of one field): no pair
# passes `same_paper`, while of the titles changed at random it passes 95% of one-letter
# typos, 91% of one word added, 93% dropped, 82% replaced, every "LLMs" spelt out, 55% of two
# words changed and no new subtitle (tests/checks/test_titles.py keeps the first figure).
_ABBREVIATIONS = {
    "llm": ("large", "language", "model"),
    "llms": ("large", "language", "models"),
    "lm": ("language", "model"),
    "lms": ("language", "models"),
}
_ROMAN = frozenset(["ii", "iii", "iv", "vi", "vii", "viii", "ix", "xi", "xii"])
#: Fewest words a title needs for a word-level comparison to mean anything.
MIN_WORDS = 4
#: Least share of words in the same order (2·same / (|a| + |b|)) of a retitled paper.
SAME_SHARE = 0.85
#: Most words added, dropped or replaced between two titles of one paper.
MOST_CHANGED = 2


def same_paper(listed: str, official: str) -> bool:
    """True when two titles that do not match are still one paper's: the same words in the same
    order but for at most two (typos aside), no number or numeral changed ("Speed Always Wins
    II", "Qwen2.5-1M") and no other name before a colon."""
    a, b = _paper_words(listed), _paper_words(official)
    if min(len(a), len(b)) < MIN_WORDS:
        return False
    names = _colon_name(listed), _colon_name(official)
    if names[0] and names[1] and names[0] != names[1] and not _typos(*names):
        return False
    same = changed = 0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        left, right = a[i1:i2], b[j1:j2]
        if op == "equal" or _typos(left, right):
            same += len(left)
            continue
        if any(_numbered(w) for w in (*left, *right)):
            return False
        changed += max(len(left), len(right))
    return changed <= MOST_CHANGED and 2 * same / (len(a) + len(b)) >= SAME_SHARE


def _paper_words(title: str) -> list[str]:
    """The normalised words, abbreviations spelt out, a plural `s` dropped."""
    words: list[str] = []
    for word in normalize_title(title).split():
        words.extend(_ABBREVIATIONS.get(word, (word,)))
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words]


def same_name(listed: str, official: str) -> bool:
    """True when both titles open with the same name before a colon (`MemFit: …`): the same
    paper retitled as often as another paper of that name (31 names are shared by different
    papers in five real lists), so it decides nothing; a message may say so."""
    name = _colon_name(listed)
    return bool(name) and name == _colon_name(official)


def _colon_name(title: str) -> list[str]:
    """The words of the name before a title's first colon (`MemGPT` of `MemGPT: Towards
    ...`); none when there is no colon or more than four words stand before it (a sentence)."""
    head, colon, _ = title.partition(":")
    words = normalize_title(head).split()
    return words if colon and len(words) <= 4 else []


def _typos(left: list[str], right: list[str]) -> bool:
    """True when `right` is `left` with a typo in some words: as many words, each one equal or
    both long and alike."""
    return len(left) == len(right) and all(
        x == y
        or (len(x) >= 5 and len(y) >= 5 and difflib.SequenceMatcher(None, x, y).ratio() >= 0.8)
        for x, y in zip(left, right, strict=True)
    )


def _numbered(word: str) -> bool:
    """True for a word that tells a paper from its sequel or variant (`2`, `1m`, `ii`)."""
    return word in _ROMAN or any(ch.isdigit() for ch in word)

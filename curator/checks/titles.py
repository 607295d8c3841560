"""Title comparison for papers: equal after normalising case, spacing, TeX, punctuation, unicode.

Pure functions. Two titles match when only their spelling differs (`MemGPT$^2$` vs
`MemGPT²`, `Memory \\& Reasoning` vs `Memory and reasoning`, curly vs straight quotes,
hyphen vs space); they differ when a word does.
"""

from __future__ import annotations

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


def normalise_title(title: str) -> str:
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
    return normalise_title(title).replace(" ", "")


def titles_match(entry_title: str, official_title: str) -> bool:
    """True when the two titles differ only in case, spacing, TeX, punctuation or accents."""
    return compact(entry_title) == compact(official_title)

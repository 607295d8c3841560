"""The arithmetic of relevance (relevance.py): a text's content words, the word counts of
listed and background papers and a paper's affinity to the list, TF-IDF vectors, a value's
standing among the list's own, and the one-feature logistic regression of P(relevant). Pure."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from curator.scope.lexical import logistic

#: Fewest listed papers a model is learned from (fewer: no relevance at all).
MIN_LISTED = 8


_WORD = re.compile(r"[a-z0-9]+")
# Function words and the words of every paper title (they say nothing of a topic).
_STOP_WORDS = (
    "a an and are as at be by for from in into is it its of on or our over the their this to "
    "via vs we with without towards toward using based can do does how what when which who why "
    "not no new more than beyond through under all one two three"
)
_STOP = frozenset(_STOP_WORDS.split())


def words(text: str) -> list[str]:
    """The content words of a text, lower-case, with a light plural stem (`memories` ->
    `memory`, `agents` -> `agent`)."""
    out = [_stem(w) for w in _WORD.findall(text.lower())]
    return [w for w in out if w]


@lru_cache(maxsize=65536)
def _stem(w: str) -> str:
    """The word's stem, or '' for a word that says nothing (short, or a function word)."""
    if len(w) < 2 or w in _STOP:
        return ""
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w


@dataclass(frozen=True)
class Counts:
    """In how many listed and background papers each word occurs, and how many there are."""

    listed: Mapping[str, int]
    background: Mapping[str, int]
    n_listed: int
    n_background: int

    def affinity(self, tokens: set[str], own: set[str] | None = None, mine: bool = True) -> float:
        """Mean log-odds of the words being the list's; `own`: the words of the paper itself
        when it is one of the counted ones (left out: `mine` says on which side)."""
        total, n = 0.0, 0
        drop_l = 1 if own is not None and mine else 0
        drop_b = 1 if own is not None and not mine else 0
        for w in tokens:
            cl = self.listed.get(w, 0) - (drop_l if own is not None and w in own else 0)
            cb = self.background.get(w, 0) - (drop_b if own is not None and w in own else 0)
            if cl <= 0 and cb <= 0:
                continue  # a word nobody else uses says nothing either way
            pl = (cl + 0.5) / (self.n_listed - drop_l + 1.0)
            pb = (cb + 0.5) / (self.n_background - drop_b + 1.0)
            total += math.log(pl / pb)
            n += 1
        return total / n if n else _NOTHING


#: The affinity of a paper that shares no word with anything counted: as far as it goes.
_NOTHING = -10.0


def standing(value: float, own: Sequence[float]) -> float:
    """Mid-rank share of the sorted `own` values below `value`."""
    if not own:
        return 1.0
    below = _bisect(own, value, strict=True)
    equal = _bisect(own, value, strict=False) - below
    return (below + 0.5 * equal) / len(own)


def fit_logistic(
    positives: Sequence[float], negatives: Sequence[float]
) -> tuple[float, float] | None:
    """P(listed | affinity) = logistic(a·x + b), class-balanced, lightly regularised
    (Newton steps on one feature); None without enough of both."""
    if len(positives) < MIN_LISTED or len(negatives) < MIN_LISTED:
        return None
    data = [(x, 1.0, 0.5 / len(positives)) for x in positives]
    data += [(x, 0.0, 0.5 / len(negatives)) for x in negatives]
    a = b = 0.0
    ridge = 1e-3
    for _ in range(100):
        ga, gb, haa, hab, hbb = ridge * a, 0.0, ridge, 0.0, 0.0
        for x, y, w in data:
            p = logistic(a * x + b)
            ga += w * (p - y) * x
            gb += w * (p - y)
            h = w * p * (1.0 - p)
            haa, hab, hbb = haa + h * x * x, hab + h * x, hbb + h
        det = haa * hbb - hab * hab
        if det <= 1e-12:
            break
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a - da, b - db
        if abs(da) + abs(db) < 1e-9:
            break
    return (a, b)


def idf_weights(counts: Counts) -> dict[str, float]:
    n = counts.n_listed + counts.n_background
    df = Counter(counts.listed)
    df.update(counts.background)
    return {w: math.log((1 + n) / (1 + c)) + 1.0 for w, c in df.items()}


def tfidf(tokens: Sequence[str], idf: Mapping[str, float]) -> dict[str, float]:
    tf = Counter(t for t in tokens if t in idf)
    raw = {w: (1.0 + math.log(c)) * idf[w] for w, c in tf.items()}
    norm = math.sqrt(sum(v * v for v in raw.values()))
    return {w: v / norm for w, v in raw.items()} if norm else {}


def p_relevant(params: tuple[float, float] | None, x: float) -> float | None:
    return None if params is None else logistic(params[0] * x + params[1])


def _bisect(values: Sequence[float], x: float, strict: bool) -> int:
    """How many sorted values are below x (strict) or at most x."""
    lo, hi = 0, len(values)
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] < x or (not strict and values[mid] == x):
            lo = mid + 1
        else:
            hi = mid
    return lo

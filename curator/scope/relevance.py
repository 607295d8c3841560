"""Relevance learned from the list itself: how like a paper is to the papers a list holds.

Pure. The papers a list already holds are its scope; papers of the field it did not take
(background: discover's window, other papers in the cache, a small shipped set) say which
words are the list's own. A paper's *affinity* to the list is the mean, over its distinct
content words, of each word's log-odds of appearing in a listed paper rather than in a
background paper (add-one-half smoothing): a paper made of the list's words is near the list,
one made of the field's general words or of another field's is not. The model calibrates it
two ways:

- against the list's own papers, each left out in turn (leave-one-out): the paper's
  *standing* is the share of listed papers whose affinity to the rest of the list is lower
  (mid-rank). A standing under `UNLIKE` (5 %) means "less like the list than 19 in 20 of its
  own papers are like the rest": unlike anything in it;
- against the background papers, each left out of the background in turn: a class-balanced
  logistic regression of "listed rather than background" on the affinity, P(relevant).

The evidence names the nearest listed papers (TF-IDF cosine over the same words) and the
section most of them are in. Papers are read by their titles (`abstracts=True` reads the
abstract too; curator's runs do not: see curator/scope/relevant.py). No numpy, no
scikit-learn: a few thousand short documents and an inverted index suffice.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

# MIN_LISTED re-exported: discover and explain read it here, beside the model it bounds.
from curator.scope.affinity import MIN_LISTED as MIN_LISTED
from curator.scope.affinity import (
    Counts,
    fit_logistic,
    idf_weights,
    p_relevant,
    standing,
    tfidf,
    words,
)

T = TypeVar("T")

#: Standing under which a paper is unlike anything in the list (a `scope-review` warning).
UNLIKE = 0.05
#: Standing from which discover calls a candidate a likely include: as like the list as a
#: typical listed paper is like the rest (the median).
LIKELY = 0.5
#: Discover's query: at most this many words, enough for this share of the listed papers.
QUERY_WORDS = 20
COVER = 0.8
#: Listed and background papers the calibrations are measured on at most (every k-th).
CALIBRATION = 2000
#: Format of a model kept in the cache.
FORMAT = "curator-relevance/1"


@dataclass(frozen=True)
class Paper:
    """A paper as the model reads it: an identity, its title, its abstract ('' if unknown)
    and, for a listed paper, the section the list files it under."""

    key: str
    title: str
    abstract: str = ""
    section: str = ""

    def text(self, abstracts: bool) -> str:
        """What is compared: the title, with the abstract when the model reads abstracts."""
        return f"{self.title}\n{self.abstract}" if abstracts else self.title


@dataclass(frozen=True)
class Neighbour:
    """A listed paper near the scored one, with its cosine."""

    title: str
    section: str
    key: str
    cosine: float


@dataclass(frozen=True)
class Relevance:
    """What the model says of one paper."""

    #: Mean log-odds of the paper's words being the list's rather than the background's.
    affinity: float
    #: Share of listed papers whose affinity to the rest of the list is lower (mid-rank).
    standing: float
    #: P(relevant) from the background calibration; None without enough background papers.
    probability: float | None
    nearest: tuple[Neighbour, ...]
    section: str

    @property
    def unlike(self) -> bool:
        """True when the paper is less like the list than 19 in 20 of its own papers."""
        return self.standing < UNLIKE

    @property
    def likely(self) -> bool:
        """True when the paper is as like the list as a typical listed paper (discover)."""
        return self.standing >= LIKELY

    def like(self) -> str:
        """`most like "X" and "Y"; likeliest section "Benchmarks"`: the evidence sentence
        (plain text: renderers escape Markdown in evidence). The section is a vote of the
        nearest papers' sections, not necessarily X's or Y's own."""
        names = [f'"{n.title}"' for n in self.nearest[:2]]
        if not names:
            return "shares no word with any listed paper"
        where = f'; likeliest section "{self.section}"' if self.section else ""
        return f"most like {' and '.join(names)}{where}"

    def measure(self) -> str:
        """The numbers behind the verdict, in words."""
        text = f"as like the list as {self.standing:.1%} of the list's own papers are like the rest"
        if self.probability is not None:
            text += f"; P(relevant) {self.probability:.2f} against papers the list did not take"
        return text


@dataclass(frozen=True)
class Model:
    """A list's relevance model: word counts, the listed papers' words (indexed, for the
    nearest ones by TF-IDF cosine) and the two calibrations (the listed papers' own
    affinities, sorted; the background's logistic)."""

    abstracts: bool
    counts: Counts
    idf: Mapping[str, float]
    listed: tuple[Paper, ...]
    docs: tuple[tuple[str, ...], ...]
    own: tuple[float, ...]
    logistic: tuple[float, float] | None
    index: Mapping[str, tuple[int, ...]]
    places: Mapping[str, int]
    #: The listed papers' TF-IDF vectors, made when first compared.
    vectors: dict[int, Mapping[str, float]] = field(default_factory=dict, compare=False)

    def tokens(self, paper: Paper) -> set[str]:
        """The distinct content words of what the model reads of the paper."""
        return set(words(paper.text(self.abstracts)))

    def affinity(self, paper: Paper) -> float:
        """The paper's affinity to the list (a listed paper's own words left out)."""
        tokens = self.tokens(paper)
        mine = paper.key in self.places
        return self.counts.affinity(tokens, tokens if mine else None)

    def nearest(self, paper: Paper, n: int = 5) -> tuple[Neighbour, ...]:
        """The listed papers most like this one by TF-IDF cosine (not itself)."""
        vector = tfidf(words(paper.text(self.abstracts)), self.idf)
        sharing = {i for word in vector for i in self.index.get(word, ())}
        sharing.discard(self.places.get(paper.key, -1))
        cosines = []
        for i in sharing:
            other = self.vectors.get(i)
            if other is None:
                other = self.vectors[i] = tfidf(self.docs[i], self.idf)
            cosines.append((sum(w * other.get(t, 0.0) for t, w in vector.items()), i))
        best = sorted(cosines, key=lambda ci: (-ci[0], ci[1]))[:n]
        return tuple(
            Neighbour(self.listed[i].title, self.listed[i].section, self.listed[i].key, c)
            for c, i in best
        )

    def score(self, paper: Paper) -> Relevance:
        """The paper's relevance to the list (a listed paper is left out of its own)."""
        value = self.affinity(paper)
        near = self.nearest(paper)
        return Relevance(
            affinity=value,
            standing=standing(value, self.own),
            probability=p_relevant(self.logistic, value),
            nearest=near,
            section=_section(near),
        )

    def distinctive(self, most: int = QUERY_WORDS) -> tuple[str, ...]:
        """Words that would find the list's own papers: chosen greedily, each time the word
        whose log-odds against the background times the listed papers it newly covers is
        highest, until `COVER` of the listed papers hold one of them (or `most` words)."""
        c = self.counts
        odds = {}
        for word, cl in c.listed.items():
            pl = (cl + 0.5) / (c.n_listed + 1.0)
            pb = (c.background.get(word, 0) + 0.5) / (c.n_background + 1.0)
            if cl >= 2 and word.isalpha() and pl > pb:
                odds[word] = math.log(pl / pb)
        uncovered = [set(doc) & odds.keys() for doc in self.docs]
        chosen: list[str] = []
        while len(chosen) < most and sum(not u for u in uncovered) < COVER * len(self.listed):
            gain: Counter[str] = Counter(w for u in uncovered for w in u)
            if not gain:
                break
            best = max(sorted(gain), key=lambda w: gain[w] * odds[w])
            chosen.append(best)
            uncovered = [set() if best in u else u for u in uncovered]
        return tuple(chosen)

    def as_dict(self) -> dict[str, Any]:
        """What the cache keeps: the learned numbers (the papers are the caller's)."""
        return {
            "format": FORMAT,
            "abstracts": self.abstracts,
            "own": list(self.own),
            "logistic": list(self.logistic) if self.logistic else None,
        }


def build(
    listed: Sequence[Paper], background: Sequence[Paper] = (), abstracts: bool = False
) -> Model | None:
    """Learn the list's model (None with fewer than MIN_LISTED listed papers). The listed
    papers' own affinities, and the background's, are measured on at most CALIBRATION of each
    (every k-th), which describes them as well and keeps a long list quick."""
    listed = _distinct(listed)
    if len(listed) < MIN_LISTED:
        return None
    model = _assemble(abstracts, listed, background, (), None)
    c = model.counts
    own = sorted(c.affinity(set(doc), set(doc)) for doc in _every_kth(model.docs, CALIBRATION))
    known = {p.key for p in listed}
    others = [p for p in _distinct(background) if p.key not in known]
    sets = [model.tokens(p) for p in _every_kth(others, CALIBRATION)]
    logistic = fit_logistic(own, [c.affinity(t, t, mine=False) for t in sets])
    return replace(model, own=tuple(own), logistic=logistic)


def restore(
    value: Mapping[str, Any], listed: Sequence[Paper], background: Sequence[Paper]
) -> Model | None:
    """The model `as_dict` kept for these papers; None for a value that is not one."""
    try:
        if value.get("format") != FORMAT:
            return None
        own = tuple(float(x) for x in value["own"])
        raw = value.get("logistic")
        logistic = (float(raw[0]), float(raw[1])) if raw else None
        return _assemble(bool(value["abstracts"]), _distinct(listed), background, own, logistic)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return None


def digest(listed: Sequence[Paper], background: Sequence[Paper], abstracts: bool) -> str:
    """The cache key of a model: everything it is learned from, and its format."""
    rows: list[Any] = [[p.key, p.title, p.abstract] for p in _distinct(listed)]
    rows.append([[p.key, p.title, p.abstract] for p in _distinct(background)])
    text = json.dumps([FORMAT, abstracts, rows], ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _assemble(
    abstracts: bool,
    listed: Sequence[Paper],
    background: Sequence[Paper],
    own: tuple[float, ...],
    logistic: tuple[float, float] | None,
) -> Model:
    """The model's counts and index from the papers (`listed` already distinct)."""
    known = {p.key for p in listed}
    docs = tuple(tuple(words(p.text(abstracts))) for p in listed)
    others = [set(words(p.text(abstracts))) for p in _distinct(background) if p.key not in known]
    counts = Counts(
        listed=Counter(w for doc in docs for w in set(doc)),
        background=Counter(w for doc in others for w in doc),
        n_listed=len(listed),
        n_background=len(others),
    )
    index: dict[str, list[int]] = defaultdict(list)
    for i, doc in enumerate(docs):
        for w in set(doc):
            index[w].append(i)
    places = {p.key: i for i, p in enumerate(listed)}
    frozen = {w: tuple(ix) for w, ix in index.items()}
    return Model(
        abstracts, counts, idf_weights(counts), tuple(listed), docs, own, logistic, frozen, places
    )


def _every_kth(items: Sequence[T], most: int) -> Sequence[T]:
    """At most `most` of the items, evenly spaced (all of them when there are few)."""
    return items if len(items) <= most else items[:: math.ceil(len(items) / most)]


def _distinct(papers: Iterable[Paper]) -> list[Paper]:
    """Papers with a title, each key once (the first), in a stable order."""
    seen: dict[str, Paper] = {}
    for p in papers:
        if p.title.strip() and p.key not in seen:
            seen[p.key] = p
    return list(seen.values())


def _section(nearest: Sequence[Neighbour]) -> str:
    """The section the nearest papers are in, weighed by their cosines ('' if none)."""
    votes: dict[str, float] = defaultdict(float)
    for n in nearest:
        if n.section:
            votes[n.section] += n.cosine
    return max(sorted(votes), key=lambda s: votes[s]) if votes else ""

"""The learned scope scorer: term weights + threshold from rules/, scored in pure Python.

The scorer reads the official title and abstract of a paper that passed the entry gate and
gives the probability that the maintainers would exclude it. Its evidence is the abstract
sentence(s) whose terms weigh most towards exclusion, quoted verbatim, and the top terms.
The file is data (JSON) written by `curator scope train`; see curator/scope/train.py.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise, repeat
from pathlib import Path
from typing import Any

from curator.codes import CODES
from curator.config_files import ConfigFiles, WorkingTree
from curator.errors import InputError
from curator.model import Verdict
from curator.scope.decision import SCORER_ID, Contribution, Decision, PaperText, Quote
from curator.scope.engine import sentences
from curator.scope.rules import VERDICT_CODES

FORMAT = "curator-scope-scorer/1"

# Function words carry no topic: dropping them keeps bigrams on content words.
_STOP_WORDS = """a an the and or but nor of in on at to for from by with without into onto
    over under
    as is are was were be been being this that these those it its we our us they their them
    which who whom whose what when where while than then thus also such both each either
    not no can could may might must shall should will would do does did done has have had
    having via per across among between through during before after above below up down out
    off about against further more most other some any all only own same so too very just
    i he she his her you your one two three new based using use used"""
_STOP = frozenset(_STOP_WORDS.split())
_WORD = re.compile(r"[^\W\d_][\w]*")


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    """A light plural fold (memories -> memory, agents -> agent); nothing more."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def terms(text: str) -> set[str]:
    """The features of one text: content words and bigrams of adjacent content words."""
    kept = [_stem(w) for w in _WORD.findall(text.casefold()) if len(w) > 1 and w not in _STOP]
    return set(kept) | set(map(" ".join, pairwise(kept)))


def _sentence_terms(abstract: str) -> list[tuple[int, int, set[str]]]:
    """Each abstract sentence's span and terms (a bigram never spans two sentences)."""
    return [(a, b, terms(abstract[a:b])) for a, b in sentences(abstract)]


def paper_terms(title: str, abstract: str) -> set[str]:
    """The features of a paper: its title's and its abstract sentences' terms."""
    return terms(title).union(*(found for _, _, found in _sentence_terms(abstract)))


@dataclass(frozen=True)
class Scorer:
    """Logistic-regression term weights over binary, length-normalised term features."""

    weights: Mapping[str, float]
    bias: float
    threshold: float
    provenance: Mapping[str, Any] = field(default_factory=dict)
    path: str = ""

    def probability(self, found: Iterable[str]) -> float:
        """P(maintainers exclude) for a paper with these terms."""
        # In the order of `found`: the same sum, to the last bit, however it is computed.
        known = [w for w in map(self.weights.get, found) if w is not None]
        norm = 1 / math.sqrt(len(known)) if known else 0.0
        z = self.bias + norm * sum(known)
        return 1 / (1 + math.exp(-z)) if z > -500 else 0.0

    def contribution(self, paper: PaperText) -> Contribution | None:
        """The scorer's view of a paper with both title and abstract (None otherwise)."""
        title, abstract = paper.title or "", paper.abstract or ""
        if not title.strip() or not abstract.strip():
            return None
        parts = _sentence_terms(abstract)
        found = terms(title).union(*(t for _, _, t in parts))
        weights = self.weights
        top = sorted(
            ((t, weights[t]) for t in weights.keys() & found if weights[t] > 0),
            key=lambda tw: (-tw[1], tw[0]),
        )[:5]
        return Contribution(
            self.probability(found), self.threshold, tuple(top), self._quotes(abstract, parts)
        )

    def apply(self, decision: Decision, paper: PaperText) -> Decision:
        """The rules' decision with this scorer's contribution; a flagged include -> review."""
        seen = self.contribution(paper)
        if seen is None:
            return decision
        if decision.verdict is not Verdict.INCLUDE or not seen.flagged:
            return replace(decision, scorer=seen)
        terms = ", ".join(t for t, _ in seen.terms[:3]) or "none above zero"
        reason = (
            f"{decision.reason}, but the learned scorer gives {seen.score:.3f} "
            f"(threshold {seen.threshold:.3f}; terms weighing towards exclusion: {terms}); "
            "the abstract sentence(s) that weigh most are quoted"
        )
        return replace(
            decision,
            verdict=Verdict.REVIEW,
            rules=(*decision.rules, SCORER_ID),
            quotes=(*seen.quotes, *decision.quotes),
            reason=reason,
            code=VERDICT_CODES[Verdict.REVIEW],
            severity=CODES["scope-review"][0].value,
            scorer=seen,
        )

    def _quotes(self, abstract: str, parts: list[tuple[int, int, set[str]]]) -> tuple[Quote, ...]:
        """The abstract sentence that weighs most towards exclusion, and a close second."""
        ranked = sorted(
            ((sum(map(self.weights.get, found, repeat(0.0))), a, b) for a, b, found in parts),
            key=lambda s: (-s[0], s[1]),
        )
        if not ranked:
            return ()
        best = ranked[0][0]
        chosen = [ranked[0]] + [s for s in ranked[1:2] if s[0] > 0 and s[0] >= best / 2]
        return tuple(
            Quote("abstract", a, b, abstract[a:b], SCORER_ID)
            for _, a, b in sorted(chosen, key=lambda s: s[1])
        )


def scorer_data(scorer: Scorer) -> dict[str, Any]:
    """The JSON document of a scorer (weights sorted by term, rounded)."""
    return {
        "format": FORMAT,
        "provenance": dict(scorer.provenance),
        "threshold": round(scorer.threshold, 6),
        "bias": round(scorer.bias, 6),
        "weights": {t: round(w, 6) for t, w in sorted(scorer.weights.items())},
    }


def load_scorer(path: Path) -> Scorer:
    """Read a scorer file; InputError naming the file when it is not one."""
    return read_scorer(WorkingTree(path.parent), path.name)


def read_scorer(files: ConfigFiles, rel: str) -> Scorer:
    """The scorer file at `rel` of `files` (a regular file: a link is refused)."""
    name = files.display(rel)
    if files.is_link(rel):
        raise InputError("the scorer file must be a regular file, not a symlink", name)
    text = files.read(rel)
    if text is None:
        raise InputError("no such file or folder", name)
    return scorer_from_text(text, name)


def scorer_from_text(text: str, name: str) -> Scorer:
    """The scorer of a scorer file's text; InputError naming the file when it is not one."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", 0)
        raise InputError(f"invalid JSON: {exc}", name, line) from None
    return parse_scorer(data, name)


def parse_scorer(data: Any, name: str) -> Scorer:
    """A Scorer from its JSON document, every value checked."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"not a scope scorer (expected format {FORMAT!r})", name)
    weights = data.get("weights")
    if not isinstance(weights, dict) or not weights:
        raise InputError("`weights` must map terms to numbers", name)
    clean: dict[str, float] = {}
    for term, weight in weights.items():
        number = _number(weight)
        if number is None:
            raise InputError(f"weight of {term!r} is not a finite number", name)
        clean[str(term)] = number
    bias, threshold = _number(data.get("bias")), _number(data.get("threshold"))
    if bias is None:
        raise InputError("`bias` must be a finite number", name)
    if threshold is None or not 0 < threshold < 1:
        raise InputError("`threshold` must be a probability between 0 and 1", name)
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict):
        raise InputError("`provenance` must be a mapping", name)
    return Scorer(clean, bias, threshold, provenance, name)


def _number(value: Any) -> float | None:
    """The value as a float when it is a finite JSON number (not a boolean), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer of more than 308 digits
        return None
    return number if math.isfinite(number) else None

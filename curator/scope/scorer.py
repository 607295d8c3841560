"""The learned scope scorer: the signal view, the lexical view and how they combine, in pure Python.

The scorer turns a gate-passing paper into the probability that the maintainers include it.
Two independent views read the paper: the signal view weighs the policy's named signals
(curator/scope/signals.py), one weight each; the lexical view weighs the words and word pairs
of the title and abstract (curator/scope/lexical.py). A stacked logistic regression combines
their log-odds into P(include). The scorer never decides alone: include needs strong evidence
from the signals as well as P(include) at or above `threshold`, and a score (combined, or the
signal view's own) at or above `veto` sends an exclusion the rules prove to review instead.
`floor` (optional) is the score that all but a few of the maintainers' includes reach (the
share `recall`, out of fold): a gate-passing paper below it is a likely exclude, a warning
that says it ranks under nearly every include (unless a view leans to include: the veto sends
it to review); `curator discover` counts a review at or above it as a likely include.

The file is data (JSON) written by `curator scope train`; see curator/lab/train.py. Format
/3 carries both views; a /2 file (the signal view alone) is still read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curator.config.config_files import ConfigFiles, WorkingTree
from curator.core.decision import Contribution, PaperText, Reading, Weighed
from curator.core.errors import InputError
from curator.scope.lexical import Lexical, features, logistic, logit
from curator.textio.json_text import parse_json

FORMAT = "curator-scope-scorer/3"
#: The earlier format: the signal view alone.
FORMAT_SIGNALS = "curator-scope-scorer/2"


@dataclass(frozen=True)
class Stack:
    """How the two views combine: weights on each view's log-odds, and a bias."""

    signals: float
    lexical: float
    bias: float

    def probability(self, signal_p: float, lexical_p: float) -> float:
        """P(include) from the two views' probabilities."""
        return logistic(
            self.bias + self.signals * logit(signal_p) + self.lexical * logit(lexical_p)
        )


@dataclass(frozen=True)
class Scorer:
    """The signal view's weights, the lexical view, their combination and the two thresholds."""

    weights: Mapping[str, float]
    bias: float
    threshold: float
    veto: float
    provenance: Mapping[str, Any] = field(default_factory=dict)
    path: str = ""
    lexical: Lexical | None = None
    stack: Stack | None = None
    floor: float | None = None
    #: The share of the training includes at or above `floor` (out of fold).
    recall: float | None = None

    def probability(self, features: Mapping[str, float]) -> float:
        """The signal view's P(maintainers include) for a paper with these signal values."""
        z = self.bias + sum(v * self.weights.get(k, 0.0) for k, v in sorted(features.items()))
        return logistic(z)

    def weigh(self, reading: Reading, paper: PaperText) -> Contribution:
        """The scorer's view of one paper: the score, every signal with its weight, and (with
        a lexical view) each view's score and the words that weighed most."""
        signals = tuple(
            Weighed(s.name, s.value, self.weights.get(s.name, 0.0), s.quote)
            for s in reading.signals
        )
        signal_p = self.probability(reading.features())
        if self.lexical is None or self.stack is None:
            return Contribution(signal_p, self.threshold, self.veto, signals, floor=self.floor)
        seen = features(paper)
        lexical_p = self.lexical.probability(seen)
        score = self.stack.probability(signal_p, lexical_p)
        terms = self.lexical.terms(paper, seen)
        return Contribution(
            score, self.threshold, self.veto, signals, signal_p, lexical_p, terms, self.floor
        )


def scorer_data(scorer: Scorer) -> dict[str, Any]:
    """The JSON document of a scorer (weights sorted by name, rounded)."""
    out: dict[str, Any] = {
        "format": FORMAT if scorer.lexical is not None else FORMAT_SIGNALS,
        "provenance": dict(scorer.provenance),
        "threshold": round(scorer.threshold, 6),
        "veto": round(scorer.veto, 6),
        "bias": round(scorer.bias, 6),
        "weights": {t: round(w, 6) for t, w in sorted(scorer.weights.items())},
    }
    if scorer.floor is not None and scorer.recall is not None:
        out["floor"] = round(scorer.floor, 6)
        out["recall"] = round(scorer.recall, 6)
    if scorer.lexical is not None and scorer.stack is not None:
        stack = scorer.stack
        out["stack"] = {
            "signals": round(stack.signals, 6),
            "lexical": round(stack.lexical, 6),
            "bias": round(stack.bias, 6),
        }
        out["lexical"] = {
            "bias": round(scorer.lexical.bias, 6),
            "weights": {t: round(w, 6) for t, w in sorted(scorer.lexical.weights.items())},
        }
    return out


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
    return parse_scorer(parse_json(text, name), name)


def parse_scorer(data: Any, name: str) -> Scorer:
    """A Scorer from its JSON document, every value checked."""
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, FORMAT_SIGNALS):
        raise InputError(f"not a scope scorer (expected format {FORMAT!r})", name)
    clean = _weights(data.get("weights"), "weights", name)
    bias = _required(data, "bias", name)
    cuts = {key: _number(data.get(key)) for key in ("threshold", "veto")}
    for key, cut in cuts.items():
        if cut is None or not 0 < cut < 1:
            raise InputError(f"`{key}` must be a probability between 0 and 1", name)
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict):
        raise InputError("`provenance` must be a mapping", name)
    threshold, veto = cuts["threshold"], cuts["veto"]
    assert threshold is not None and veto is not None  # checked just above
    lexical, stack = _views(data, name) if data["format"] == FORMAT else (None, None)
    floor, recall = _floor(data, threshold, name)
    return Scorer(clean, bias, threshold, veto, provenance, name, lexical, stack, floor, recall)


def _floor(data: dict[str, Any], threshold: float, name: str) -> tuple[float | None, float | None]:
    """The optional `floor` and its `recall`: both or neither, each a probability, the floor
    at most the include threshold (a paper cannot be both an include and below every include)."""
    if "floor" not in data and "recall" not in data:
        return None, None
    floor, recall = _number(data.get("floor")), _number(data.get("recall"))
    if floor is None or recall is None or not 0 < floor < 1 or not 0 < recall <= 1:
        raise InputError("`floor` and `recall` must both be probabilities between 0 and 1", name)
    if floor > threshold:
        raise InputError("`floor` must not be above `threshold`", name)
    return floor, recall


def _views(data: dict[str, Any], name: str) -> tuple[Lexical, Stack]:
    """The lexical view and the stack of a /3 file."""
    raw, stack = data.get("lexical"), data.get("stack")
    if not isinstance(raw, dict):
        raise InputError("`lexical` must map `bias` and `weights`", name)
    if not isinstance(stack, dict):
        raise InputError("`stack` must map `signals`, `lexical` and `bias` to numbers", name)
    lexical = Lexical(
        _weights(raw.get("weights"), "lexical.weights", name), _required(raw, "bias", name)
    )
    parts = [_required(stack, key, name) for key in ("signals", "lexical", "bias")]
    return lexical, Stack(*parts)


def _weights(weights: Any, key: str, name: str) -> dict[str, float]:
    """A mapping of names to finite numbers."""
    if not isinstance(weights, dict) or not weights:
        raise InputError(f"`{key}` must map names to numbers", name)
    clean: dict[str, float] = {}
    for term, weight in weights.items():
        number = _number(weight)
        if number is None:
            raise InputError(f"weight of {term!r} is not a finite number", name)
        clean[str(term)] = number
    return clean


def _required(data: dict[str, Any], key: str, name: str) -> float:
    number = _number(data.get(key))
    if number is None:
        raise InputError(f"`{key}` must be a finite number", name)
    return number


def _number(value: Any) -> float | None:
    """The value as a float when it is a finite JSON number (not a boolean), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer of more than 308 digits
        return None
    return number if math.isfinite(number) else None

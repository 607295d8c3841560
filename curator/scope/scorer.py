"""The learned scope scorer: one weight per signal, a bias and two thresholds, in pure Python.

The scorer weighs the signals of a gate-passing paper (curator/scope/signals.py) into the
probability that the maintainers include it. It never decides alone: include needs strong
evidence from the signals as well as a score at or above `threshold`, and a score at or above
`veto` sends an exclusion the rules prove to review instead. The file is data (JSON) written
by `curator scope train`; see curator/scope/train.py.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from curator.config_files import ConfigFiles, WorkingTree
from curator.errors import InputError
from curator.json_text import parse_json
from curator.scope.decision import Contribution, Weighed
from curator.scope.signals import Reading

FORMAT = "curator-scope-scorer/2"


@dataclass(frozen=True)
class Scorer:
    """Logistic-regression weights over the named signals, with the two thresholds."""

    weights: Mapping[str, float]
    bias: float
    threshold: float
    veto: float
    provenance: Mapping[str, Any] = field(default_factory=dict)
    path: str = ""

    def probability(self, features: Mapping[str, float]) -> float:
        """P(maintainers include) for a paper with these signal values."""
        z = self.bias + sum(v * self.weights.get(k, 0.0) for k, v in sorted(features.items()))
        return logistic(z)

    def weigh(self, reading: Reading) -> Contribution:
        """The scorer's view of one reading: the score and every signal with its weight."""
        signals = tuple(
            Weighed(s.name, s.value, self.weights.get(s.name, 0.0), s.quote)
            for s in reading.signals
        )
        score = self.probability(reading.features())
        return Contribution(score, self.threshold, self.veto, signals)


def logistic(z: float) -> float:
    """1 / (1 + e^-z), without overflow."""
    if z >= 0:
        return 1 / (1 + math.exp(-z))
    e = math.exp(z) if z > -700 else 0.0
    return e / (1 + e)


def scorer_data(scorer: Scorer) -> dict[str, Any]:
    """The JSON document of a scorer (weights sorted by signal, rounded)."""
    return {
        "format": FORMAT,
        "provenance": dict(scorer.provenance),
        "threshold": round(scorer.threshold, 6),
        "veto": round(scorer.veto, 6),
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
    return parse_scorer(parse_json(text, name), name)


def parse_scorer(data: Any, name: str) -> Scorer:
    """A Scorer from its JSON document, every value checked."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError(f"not a scope scorer (expected format {FORMAT!r})", name)
    weights = data.get("weights")
    if not isinstance(weights, dict) or not weights:
        raise InputError("`weights` must map signal names to numbers", name)
    clean: dict[str, float] = {}
    for signal, weight in weights.items():
        number = _number(weight)
        if number is None:
            raise InputError(f"weight of {signal!r} is not a finite number", name)
        clean[str(signal)] = number
    bias = _number(data.get("bias"))
    if bias is None:
        raise InputError("`bias` must be a finite number", name)
    cuts = {key: _number(data.get(key)) for key in ("threshold", "veto")}
    for key, cut in cuts.items():
        if cut is None or not 0 < cut < 1:
            raise InputError(f"`{key}` must be a probability between 0 and 1", name)
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict):
        raise InputError("`provenance` must be a mapping", name)
    threshold, veto = cuts["threshold"], cuts["veto"]
    assert threshold is not None and veto is not None  # checked just above
    return Scorer(clean, bias, threshold, veto, provenance, name)


def _number(value: Any) -> float | None:
    """The value as a float when it is a finite JSON number (not a boolean), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer of more than 308 digits
        return None
    return number if math.isfinite(number) else None

"""What the scope engine reads and says: the paper's text, quotes, the scorer's part, the verdict.

Plain values, typed end to end: the pipeline keeps a `Decision` on the entry's result, the
renderers read its fields, and the JSON report carries `as_dict()`, read back by `from_dict`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Verdict(StrEnum):
    """Scope decision for one entry."""

    INCLUDE = "include"
    EXCLUDE = "exclude"
    HOLD = "hold"
    REVIEW = "review"


#: The learned scorer's name where rules name themselves (Decision.rules, Quote.rule).
SCORER_ID = "scope-scorer"


@dataclass(frozen=True)
class Signal:
    """One signal: its name, value in [0, 1], the rule it comes from and the sentence showing it."""

    name: str
    value: float
    rule: str
    quote: Quote | None


@dataclass(frozen=True)
class Proof:
    """An exclusion a rule of the policy proves, with the sentences that prove it."""

    rules: tuple[str, ...]
    reason: str
    quotes: tuple[Quote, ...]


@dataclass(frozen=True)
class Reading:
    """What the signals found in one gate-passing paper."""

    signals: tuple[Signal, ...]
    proof: Proof | None
    track: str

    def value(self, name: str) -> float:
        """The value of a signal (0 when it did not fire)."""
        return next((s.value for s in self.signals if s.name == name), 0.0)

    def features(self) -> dict[str, float]:
        """Signal name -> value, for the scorer."""
        return {s.name: s.value for s in self.signals if s.value}


@dataclass(frozen=True)
class PaperText:
    """What the engine reads: the official title and abstract, plus non-evidence context."""

    title: str | None
    abstract: str | None
    primary_category: str = ""
    tags: tuple[str, ...] = ()
    summary: str = ""

    def field(self, name: str) -> str:
        """The text of one readable field ('' when absent)."""
        if name == "tags":
            return " ; ".join(self.tags)
        value = getattr(self, name)
        return value if isinstance(value, str) else ""


@dataclass(frozen=True, slots=True)
class Quote:
    """A verbatim sentence of the official title or abstract, with its position there."""

    field: str
    start: int
    end: int
    text: str
    rule: str

    def as_dict(self) -> dict[str, Any]:
        """JSON shape."""
        return {
            "field": self.field,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "rule": self.rule,
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Quote:
        """The quote `as_dict` wrote."""
        return cls(raw["field"], raw["start"], raw["end"], raw["text"], raw["rule"])


@dataclass(frozen=True, slots=True)
class Weighed:
    """One signal as the scorer weighed it: value in [0, 1], weight, and the sentence showing it."""

    name: str
    value: float
    weight: float
    quote: Quote | None = None

    @property
    def effect(self) -> float:
        """What the signal adds to the log-odds of include (value x weight)."""
        return self.value * self.weight

    def as_dict(self, exact: bool = False) -> dict[str, Any]:
        """JSON shape; numbers to 4 places unless `exact`."""
        out: dict[str, Any] = {
            "name": self.name,
            "value": _num(self.value, exact),
            "weight": _num(self.weight, exact),
        }
        if self.quote is not None:
            out["quote"] = self.quote.as_dict()
        return out

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Weighed:
        """The signal `as_dict` wrote."""
        quote = raw.get("quote")
        return cls(
            str(raw["name"]),
            float(raw["value"]),
            float(raw["weight"]),
            Quote.from_dict(quote) if quote is not None else None,
        )


def _num(x: float, exact: bool) -> float:
    return x if exact else round(x, 4)


@dataclass(frozen=True, slots=True)
class Contribution:
    """What the scorer made of a paper: P(include), its thresholds, the signals, and (with
    a lexical view) each view's own P(include) and the words that weighed most."""

    score: float
    #: P(include) at or above which strong evidence gives include.
    threshold: float
    #: P(include) at or above which a proven exclusion is sent to review instead.
    veto: float
    signals: tuple[Weighed, ...]
    #: The signal view's P(include) and the lexical view's, when the scorer combines the two.
    signal_score: float | None = None
    lexical_score: float | None = None
    #: The lexical view's heaviest words and word pairs for and against, with their sentences.
    terms: tuple[Weighed, ...] = ()
    #: P(include) that all but a few of the maintainers' includes reach (the scorer's
    #: `recall` of them, out of fold): below it a paper ranks under nearly every include.
    floor: float | None = None

    @property
    def include(self) -> bool:
        """True when the score reaches the include threshold."""
        return self.score >= self.threshold

    @property
    def vetoes(self) -> bool:
        """True when the score, or the signal view's own, is too high for an exclusion."""
        return max(self.score, self.signal_score or 0.0) >= self.veto

    @property
    def below_floor(self) -> bool:
        """True when the score is under the floor: ranked below nearly every include."""
        return self.floor is not None and self.score < self.floor

    def strongest(self, sign: int, n: int = 2) -> tuple[Weighed, ...]:
        """The `n` signals that weigh most for (sign 1) or against (sign -1) include."""
        chosen = [w for w in self.signals if w.effect * sign > 0]
        return tuple(sorted(chosen, key=lambda w: -abs(w.effect))[:n])

    def as_dict(self, exact: bool = False, trail: bool = True) -> dict[str, Any]:
        """JSON shape (inside the report entry's `scope`): numbers to 4 places, or `exact`
        (as the cache keeps them, so that `from_dict` gives this contribution back).
        Without `trail`: `signals` is empty and `terms` left out (the report's default,
        `--scope-trail` keeps them)."""
        out: dict[str, Any] = {
            "score": _num(self.score, exact),
            "threshold": _num(self.threshold, exact),
            "veto": _num(self.veto, exact),
            "signals": [w.as_dict(exact) for w in self.signals] if trail else [],
        }
        if self.signal_score is not None:
            out["signal_score"] = _num(self.signal_score, exact)
        if self.lexical_score is not None:
            out["lexical_score"] = _num(self.lexical_score, exact)
        if self.terms and trail:
            out["terms"] = [w.as_dict(exact) for w in self.terms]
        if self.floor is not None:
            out["floor"] = _num(self.floor, exact)
        return out

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Contribution:
        """The contribution `as_dict` wrote."""
        return cls(
            float(raw["score"]),
            float(raw["threshold"]),
            float(raw["veto"]),
            tuple(Weighed.from_dict(w) for w in raw["signals"]),
            _optional(raw.get("signal_score")),
            _optional(raw.get("lexical_score")),
            tuple(Weighed.from_dict(w) for w in raw.get("terms") or ()),
            _optional(raw.get("floor")),
        )


def _optional(value: Any) -> float | None:
    return float(value) if value is not None else None


@dataclass(frozen=True, slots=True)
class Decision:
    """The engine's verdict on one paper and the trail that led to it."""

    verdict: Verdict
    rules: tuple[str, ...]
    quotes: tuple[Quote, ...]
    reading_scope: str
    reason: str
    code: str | None = None
    severity: str = ""
    track: str = ""
    missing: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    #: The signals of a gate-passing paper, weighed by the scorer when the rules name one.
    scorer: Contribution | None = None
    #: Where the maintainers' recorded decision that settled this entry is written
    #: (`rules/scope-decisions.yaml:3`, a screening record, an inline marker); "" for the
    #: engine's own verdict (curator/scope/decided.py).
    decided_by: str = ""

    @property
    def by_floor(self) -> bool:
        """True for the engine's likely exclude by the score: the scorer, named last, ranked
        the paper under its floor (read from the decision, not recomputed from rounded
        numbers, so a saved report says what the run said)."""
        return (
            self.verdict is Verdict.EXCLUDE
            and self.code == "scope-review"
            and not self.decided_by
            and self.rules[-1:] == (SCORER_ID,)
            and self.scorer is not None
            and self.scorer.floor is not None
        )

    def as_dict(self, exact: bool = False, trail: bool = True) -> dict[str, Any]:
        """JSON-able form for the report entry's `scope` (`exact`: the scorer's numbers
        unrounded, as the cache keeps them; without `trail`, the scorer's P(include) and
        thresholds but not every signal and word it weighed)."""
        out: dict[str, Any] = {
            "verdict": self.verdict.value,
            "rules": list(self.rules),
            "quotes": [q.as_dict() for q in self.quotes],
            "reading_scope": self.reading_scope,
            "reason": self.reason,
            "code": self.code,
            "severity": self.severity or None,
        }
        if self.track:
            out["track"] = self.track
        if self.missing:
            out["missing"] = list(self.missing)
        if self.notes:
            out["notes"] = list(self.notes)
        if self.scorer is not None:
            out["scorer"] = self.scorer.as_dict(exact, trail)
        if self.decided_by:
            out["decided_by"] = self.decided_by
        return out

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Decision:
        """The decision `as_dict` wrote (a saved report read back)."""
        scorer = raw.get("scorer")
        return cls(
            verdict=Verdict(raw["verdict"]),
            rules=tuple(raw["rules"]),
            quotes=tuple(Quote.from_dict(q) for q in raw["quotes"]),
            reading_scope=raw["reading_scope"],
            reason=raw["reason"],
            code=raw.get("code"),
            severity=raw.get("severity") or "",
            track=raw.get("track") or "",
            missing=tuple(raw.get("missing") or ()),
            notes=tuple(raw.get("notes") or ()),
            scorer=Contribution.from_dict(scorer) if scorer is not None else None,
            decided_by=raw.get("decided_by") or "",
        )


_QUOTE_SCHEMA = {
    "type": "object",
    "required": ["field", "start", "end", "text", "rule"],
    "properties": {
        "field": {"type": "string"},
        "start": {"type": "integer", "minimum": 0},
        "end": {"type": "integer", "minimum": 0},
        "text": {"type": "string"},
        "rule": {"type": "string"},
    },
}
_STRINGS = {"type": "array", "items": {"type": "string"}}
_WEIGHED = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["name", "value", "weight"],
        "properties": {
            "name": {"type": "string"},
            "value": {"type": "number"},
            "weight": {"type": "number"},
            "quote": _QUOTE_SCHEMA,
        },
    },
}
#: A probability as a saved report may hold it (a score, a threshold, the floor).
_PROBABILITY = {"type": "number", "minimum": 0, "maximum": 1}
#: What `Decision.as_dict` writes, for readers of a saved (untrusted) report.
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["verdict", "rules", "quotes", "reading_scope", "reason"],
    "properties": {
        "verdict": {"enum": [v.value for v in Verdict]},
        "rules": _STRINGS,
        "quotes": {"type": "array", "items": _QUOTE_SCHEMA},
        "reading_scope": {"type": "string"},
        "reason": {"type": "string"},
        "code": {"type": ["string", "null"]},
        "severity": {"type": ["string", "null"]},
        "track": {"type": "string"},
        "missing": _STRINGS,
        "notes": _STRINGS,
        "decided_by": {"type": "string"},
        "scorer": {
            "type": "object",
            "required": ["score", "threshold", "veto", "signals"],
            "properties": {
                "score": _PROBABILITY,
                "threshold": _PROBABILITY,
                "veto": _PROBABILITY,
                "floor": _PROBABILITY,
                "signals": _WEIGHED,
                "signal_score": _PROBABILITY,
                "lexical_score": _PROBABILITY,
                "terms": _WEIGHED,
            },
        },
    },
}

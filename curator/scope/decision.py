"""What the scope engine reads and says: the paper's text, quotes, the scorer's part, the verdict.

Plain values, typed end to end: the pipeline keeps a `Decision` on the entry's result, the
renderers read its fields, and the JSON report carries `as_dict()`, read back by `from_dict`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from curator.model import Verdict

#: The learned scorer's name where rules name themselves (Decision.rules, Quote.rule).
SCORER_ID = "scope-scorer"


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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Contribution:
    """What the scorer said about one paper: probability, threshold, terms and quotes."""

    score: float
    threshold: float
    terms: tuple[tuple[str, float], ...]
    quotes: tuple[Quote, ...]

    @property
    def flagged(self) -> bool:
        """True when the score reaches the threshold: the scorer asks for review."""
        return self.score >= self.threshold

    def as_dict(self, exact: bool = False) -> dict[str, Any]:
        """JSON shape (inside the report entry's `scope`): numbers to 4 places, or `exact`
        (as the cache keeps them, so that `from_dict` gives this contribution back)."""

        def num(x: float) -> float:
            return x if exact else round(x, 4)

        return {
            "score": num(self.score),
            "threshold": num(self.threshold),
            "flagged": self.flagged,
            "terms": [{"term": t, "weight": num(w)} for t, w in self.terms],
            "quotes": [q.as_dict() for q in self.quotes],
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Contribution:
        """The contribution `as_dict` wrote (`flagged` follows from score and threshold)."""
        return cls(
            float(raw["score"]),
            float(raw["threshold"]),
            tuple((t["term"], float(t["weight"])) for t in raw["terms"]),
            tuple(Quote.from_dict(q) for q in raw["quotes"]),
        )


@dataclass(frozen=True)
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
    #: What the learned scorer said (gate-passing papers, when the rules name a scorer).
    scorer: Contribution | None = None

    def as_dict(self, exact: bool = False) -> dict[str, Any]:
        """JSON-able form for the report entry's `scope` (`exact`: the scorer's numbers
        unrounded, as the cache keeps them)."""
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
            out["scorer"] = self.scorer.as_dict(exact)
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
        "scorer": {
            "type": "object",
            "required": ["score", "threshold", "terms", "quotes"],
            "properties": {
                "score": {"type": "number"},
                "threshold": {"type": "number"},
                "terms": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["term", "weight"],
                        "properties": {"term": {"type": "string"}, "weight": {"type": "number"}},
                    },
                },
                "quotes": {"type": "array", "items": _QUOTE_SCHEMA},
            },
        },
    },
}

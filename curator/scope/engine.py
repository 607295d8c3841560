"""The scope engine: an entry's official text plus rules/scope.yaml -> a verdict with evidence.

Pure: it reads only the title and abstract it is given (the entry's own summary is never
evidence) and quotes them verbatim, with character positions, for every rule it names.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from curator.codes import CODES
from curator.model import Verdict
from curator.scope.rules import (
    VERDICT_CODES,
    Kind,
    Pattern,
    Rule,
    ScopeRules,
    load_rules,
)

if TYPE_CHECKING:
    from curator.scope.scorer import Contribution

__all__ = ["Decision", "PaperText", "Quote", "ScopeRules", "decide", "load_rules", "sentences"]

#: The learned scorer's name where rules name themselves (Decision.rules, Quote.rule).
SCORER_ID = "scope-scorer"

# A sentence ends at . ! ? followed by space and a capital, digit, quote or bracket.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[\\])")


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

    def as_dict(self) -> dict[str, Any]:
        """JSON-able form for the report entry's `scope`."""
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
            out["scorer"] = self.scorer.as_dict()
        return out


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
class _Hit:
    """One match of a rule's pattern in one field."""

    field: str
    start: int
    end: int
    phrase: str


def _hits(patterns: Iterable[Pattern], paper: PaperText, fields: Iterable[str]) -> list[_Hit]:
    group = tuple(patterns)
    out: list[_Hit] = []
    for name in fields:
        text = paper.field(name)
        if not text:
            continue
        for pattern in _candidates(group, text):
            out.extend(_Hit(name, a, b, pattern.source) for a, b in _spans(pattern, text))
    return sorted(out, key=lambda h: (h.field != "title", h.start))


_Plan = tuple[dict[str, list[int]], list[tuple[str, int]], list[int]]
_PLANS: dict[int, tuple[tuple[Pattern, ...], _Plan]] = {}


def _plan(group: tuple[Pattern, ...]) -> _Plan:
    """Positions in `group` by exact first word, by first-word prefix, and the rest."""
    # Keyed by identity: a rule's pattern tuple lives as long as the rules, and hashing a
    # tuple of hundreds of patterns on every call would cost more than the plan saves.
    known = _PLANS.get(id(group))
    if known is not None and known[0] is group:
        return known[1]
    exact: dict[str, list[int]] = {}
    prefixed: list[tuple[str, int]] = []
    other: list[int] = []
    for i, pattern in enumerate(group):
        first = _first_word(pattern.source)
        if first is None:
            other.append(i)
        elif first[1]:
            prefixed.append((first[0], i))
        else:
            exact.setdefault(first[0], []).append(i)
    plan = (exact, prefixed, other)
    if len(_PLANS) > 4096:  # rules reloaded many times (tests): start over
        _PLANS.clear()
    _PLANS[id(group)] = (group, plan)
    return plan


def _candidates(group: tuple[Pattern, ...], text: str) -> list[Pattern]:
    """The patterns of `group` whose first word occurs in `text`, in their own order."""
    exact, prefixed, other = _plan(group)
    words, _starts = _index(text)
    chosen = [i for w in words for i in exact.get(w, ())] + other
    for core, i in prefixed:
        k = bisect_left(words, core)
        if k < len(words) and words[k].startswith(core):
            chosen.append(i)
    return [group[i] for i in sorted(chosen)]


# A phrase can only match where its first word starts a word of the text. Trying the regex
# only at those places (instead of scanning the whole abstract ~750 times per paper) gives
# the same spans as `finditer` at a fraction of the cost.
_WORD = re.compile(r"\w+")


@lru_cache(maxsize=256)
def _index(text: str) -> tuple[tuple[str, ...], dict[str, tuple[int, ...]]]:
    """The text's case-folded words, sorted, and where each word starts."""
    starts: dict[str, list[int]] = {}
    for m in _WORD.finditer(text):
        starts.setdefault(m.group().casefold(), []).append(m.start())
    return tuple(sorted(starts)), {w: tuple(p) for w, p in starts.items()}


@lru_cache(maxsize=4096)
def _first_word(phrase: str) -> tuple[str, bool] | None:
    """(case-folded first word, ends with *) when it is plain word characters, else None."""
    first = re.split(r"[\s\-]+", phrase.strip())[0]
    core = first.rstrip("*")
    if not core or not _WORD.fullmatch(core):
        return None
    return core.casefold(), first.endswith("*")


def _spans(pattern: Pattern, text: str) -> list[tuple[int, int]]:
    """What `pattern.finditer(text)` gives, trying the regex only where the phrase may start."""
    first = _first_word(pattern.source)
    if first is None:
        return pattern.finditer(text)
    core, prefix = first
    words, starts = _index(text)
    if prefix:
        i = bisect_left(words, core)
        chosen: list[int] = []
        while i < len(words) and words[i].startswith(core):
            chosen.extend(starts[words[i]])
            i += 1
        places: Iterable[int] = sorted(chosen)
    else:
        places = starts.get(core, ())
    out: list[tuple[int, int]] = []
    end = -1
    for pos in places:
        if pos < end:
            continue
        m = pattern.regex.match(text, pos)
        if m:
            out.append(m.span())
            end = m.end()
    return out


@lru_cache(maxsize=64)
def _sentence_spans(text: str) -> tuple[tuple[int, int], ...]:
    # Cached: every hit in the same abstract asks for its sentence.
    return tuple(sentences(text))


def _sentence_of(text: str, pos: int) -> tuple[int, int]:
    for a, b in _sentence_spans(text):
        if a <= pos < b:
            return a, b
    return pos, pos


def _rule_hits(rule: Rule, paper: PaperText) -> list[_Hit]:
    """Matches of a rule outside the summary, minus those whose sentence holds an exception."""
    fields = [f for f in rule.fields if f != "summary"]
    hits = _hits(rule.patterns, paper, fields)
    if not rule.exceptions:
        return hits
    kept = []
    for hit in hits:
        text = paper.field(hit.field)
        a, b = _sentence_of(text, hit.start)
        sentence = text[a:b] if b > a else text
        if not any(p.regex.search(sentence) for p in rule.exceptions):
            kept.append(hit)
    return kept


def _blocked(rule: Rule, paper: PaperText) -> bool:
    """True when an `unless` phrase occurs in the title, abstract or another field it reads."""
    # The official title and abstract always count: a rule that reads only the category
    # must still step aside when the abstract says the paper is about language models.
    fields = dict.fromkeys(("title", "abstract", *rule.fields))
    fields.pop("summary", None)
    return bool(rule.unless) and bool(_hits(rule.unless, paper, fields))


def _quote(paper: PaperText, hit: _Hit, rule: str) -> Quote | None:
    if hit.field not in ("title", "abstract"):
        return None
    text = paper.field(hit.field)
    a, b = _sentence_of(text, hit.start)
    return Quote(hit.field, a, b, text[a:b], rule)


def _quotes(paper: PaperText, fired: list[tuple[Rule, list[_Hit]]]) -> tuple[Quote, ...]:
    """The first quotable sentence for each fired rule, without repeating a sentence."""
    out: list[Quote] = []
    seen: set[tuple[str, int]] = set()
    for rule, hits in fired:
        for hit in hits:
            quote = _quote(paper, hit, rule.id)
            if quote and (quote.field, quote.start) not in seen:
                seen.add((quote.field, quote.start))
                out.append(quote)
                break
    return tuple(out)


def _where(hits: list[_Hit]) -> str:
    """Non-evidence fields a rule matched in, for the reason line."""
    names = sorted({h.field for h in hits if h.field not in ("title", "abstract")})
    return f" (matched in {', '.join(names)})" if names else ""


def decide(paper: PaperText, rules: ScopeRules) -> Decision:
    """The scope verdict for one paper: gate, exclusion and skill signals, then core signals."""
    held = _unavailable(paper, rules)
    if held is not None:
        return held
    gate_hits = _rule_hits(rules.gate, paper)
    if not gate_hits:
        words = "/".join(p.source for p in rules.gate.patterns)
        reason = (
            f"no standalone {words} in the official title or abstract, "
            "so there is no memory sentence to quote"
        )
        return _decision(rules.gate, rules.gate.verdict, "abstract", reason)
    decision = _after_gate(paper, rules, gate_hits)
    if rules.scorer is None:
        return decision
    return rules.scorer.apply(decision, paper)


def _unavailable(paper: PaperText, rules: ScopeRules) -> Decision | None:
    """Hold when the official title or abstract is missing: the gate cannot be checked."""
    title, abstract = (paper.title or "").strip(), (paper.abstract or "").strip()
    if title and abstract:
        return None
    if not title and not abstract:
        return _decision(
            rules.gate,
            Verdict.HOLD,
            "none",
            "official title and abstract unavailable; nothing to quote",
        )
    missing = "abstract" if title else "title"
    # Only the title was read: say so rather than claim an abstract reading.
    scope = "title_topic_screen" if title else "none"
    reason = (
        f"official {missing} unavailable, so the entry gate cannot be checked; nothing to quote"
    )
    return _decision(rules.gate, Verdict.HOLD, scope, reason)


def _decision(rule: Rule, verdict: Verdict, scope: str, reason: str) -> Decision:
    """A quote-less decision by one rule (the gate's exclude or hold)."""
    code = VERDICT_CODES.get(verdict)
    severity = rule.severity if verdict is rule.verdict else ""
    if code and not severity:
        severity = CODES[code][0].value
    return Decision(verdict, (rule.id,), (), scope, reason, code, severity)


def _after_gate(paper: PaperText, rules: ScopeRules, gate_hits: list[_Hit]) -> Decision:
    """Exclusion and skill signals give their verdict (review); else core signals give include."""
    fired = _exclusions(paper, rules, gate_hits)
    missing: tuple[str, ...] = ()
    for rule in rules.of_kind(Kind.SKILL):
        result = _skill(rule, paper)
        if result is not None:
            fired.append((rule, result[0]))
            missing += result[1]
    notes = _summary_notes(paper, rules)
    if fired:
        return _signalled(paper, fired, missing, notes)
    core = [(r, h) for r in rules.of_kind(Kind.CORE) if (h := _rule_hits(r, paper))]
    core = [(r, _memory_first(paper, h, gate_hits)) for r, h in core if not _blocked(r, paper)]
    if core:
        return _include(paper, rules, gate_hits, core, notes)
    fallback = rules.of_kind(Kind.FALLBACK)
    rule = fallback[0] if fallback else rules.gate
    verdict = rule.verdict if fallback else Verdict.REVIEW
    return Decision(
        verdict,
        (rules.gate.id, rule.id),
        _quotes(paper, [(rule, gate_hits)]),
        "abstract",
        "passes the entry gate but shows no core-scope signal; the memory sentence is quoted",
        VERDICT_CODES.get(verdict),
        rule.severity if fallback else CODES["scope-review"][0].value,
        notes=notes,
    )


def _include(
    paper: PaperText,
    rules: ScopeRules,
    gate_hits: list[_Hit],
    core: list[tuple[Rule, list[_Hit]]],
    notes: tuple[str, ...],
) -> Decision:
    """Include, quoting the memory sentence and the core-scope sentence of each signal."""
    names = ", ".join(r.id for r, _ in core)
    return Decision(
        Verdict.INCLUDE,
        (rules.gate.id, *(r.id for r, _ in core)),
        _quotes(paper, [(rules.gate, gate_hits), *core]),
        "abstract",
        f"passes the entry gate with core-scope signals ({names}) and no exclusion signal",
        track=core[0][0].track,
        notes=notes,
    )


#: When signals disagree, the strongest verdict wins.
_STRENGTH = {Verdict.EXCLUDE: 3, Verdict.HOLD: 2, Verdict.REVIEW: 1, Verdict.INCLUDE: 0}
_RANK = {"error": 3, "warning": 2, "info": 1}


def _signalled(
    paper: PaperText,
    fired: list[tuple[Rule, list[_Hit]]],
    missing: tuple[str, ...],
    notes: tuple[str, ...],
) -> Decision:
    """The verdict of the fired exclusion/skill rules (review unless the YAML says otherwise)."""
    quotes = _quotes(paper, fired)
    names = ", ".join(r.id + _where(h) for r, h in fired)
    reason = f"passes the entry gate but matches {names}"
    if missing:
        reason += f"; lifecycle not shown: {', '.join(missing)}"
    if not quotes:
        reason += "; no quote because the signal is outside the title and abstract"
    verdict = max((r.verdict for r, _ in fired), key=_STRENGTH.__getitem__)
    severity = max(
        (r.severity for r, _ in fired if r.verdict is verdict), key=lambda s: _RANK.get(s, 0)
    )
    return Decision(
        verdict,
        tuple(r.id for r, _ in fired),
        quotes,
        "abstract",
        reason,
        VERDICT_CODES.get(verdict),
        severity,
        missing=missing,
        notes=notes,
    )


def _exclusions(
    paper: PaperText, rules: ScopeRules, gate_hits: list[_Hit]
) -> list[tuple[Rule, list[_Hit]]]:
    """Exclusion rules that fire: memory-sense rules only when they explain every mention."""
    fired: list[tuple[Rule, list[_Hit]]] = []
    senses: list[tuple[Rule, list[_Hit]]] = []
    for rule in rules.of_kind(Kind.EXCLUSION):
        hits = _rule_hits(rule, paper)
        if not hits or _blocked(rule, paper):
            continue
        (senses if rule.memory_sense else fired).append((rule, hits))
    covered = [h for _, hits in senses for h in hits]
    if senses and all(_inside(g, covered) for g in gate_hits):
        fired = senses + fired
    return fired


def _memory_first(paper: PaperText, hits: list[_Hit], gate_hits: list[_Hit]) -> list[_Hit]:
    """Hits whose sentence also holds a memory word first: the best quote for include."""

    def with_memory(hit: _Hit) -> bool:
        a, b = _sentence_of(paper.field(hit.field), hit.start)
        return any(g.field == hit.field and a <= g.start < b for g in gate_hits)

    return sorted(hits, key=lambda h: not with_memory(h))


def _inside(hit: _Hit, spans: list[_Hit]) -> bool:
    return any(s.field == hit.field and s.start <= hit.start and hit.end <= s.end for s in spans)


def _skill(rule: Rule, paper: PaperText) -> tuple[list[_Hit], tuple[str, ...]] | None:
    """(trigger hits, missing aspects) when a skill paper does not show its whole lifecycle."""
    hits = _rule_hits(rule, paper)
    if not hits or _blocked(rule, paper):
        return None
    fields = [f for f in rule.fields if f != "summary"]
    missing = tuple(a for a, pats in rule.aspects.items() if not _hits(pats, paper, fields))
    return (hits, missing) if missing else None


def _summary_notes(paper: PaperText, rules: ScopeRules) -> tuple[str, ...]:
    """Rules that match only the entry's own summary: shown to maintainers, never evidence."""
    if not paper.summary:
        return ()
    out = []
    for rule in rules.rules:
        if "summary" in rule.fields and _hits(rule.patterns, paper, ["summary"]):
            out.append(f"{rule.id} matches the entry's own summary (not evidence)")
    return tuple(out)

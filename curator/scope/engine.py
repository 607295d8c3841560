"""The scope engine: an entry's official text plus rules/scope.yaml -> a verdict with evidence.

Pure: it reads only the title and abstract it is given (the entry's own summary is never
evidence) and quotes them verbatim, with character positions, for every rule it names.
"""

from __future__ import annotations

from curator.codes import CODES
from curator.model import Verdict
from curator.scope.decision import SCORER_ID, Contribution, Decision, PaperText, Quote
from curator.scope.matching import Hit, find_hits, sentence_of, sentences
from curator.scope.rules import (
    VERDICT_CODES,
    Kind,
    Rule,
    ScopeRules,
    load_rules,
)

__all__ = [
    "SCORER_ID",
    "Contribution",
    "Decision",
    "PaperText",
    "Quote",
    "ScopeRules",
    "decide",
    "load_rules",
    "sentences",
]


def _rule_hits(rule: Rule, paper: PaperText) -> list[Hit]:
    """Matches of a rule outside the summary, minus those whose sentence holds an exception."""
    fields = [f for f in rule.fields if f != "summary"]
    hits = find_hits(rule.patterns, paper, fields)
    if not rule.exceptions:
        return hits
    kept = []
    for hit in hits:
        text = paper.field(hit.field)
        a, b = sentence_of(text, hit.start)
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
    return bool(rule.unless) and bool(find_hits(rule.unless, paper, fields))


def _quote(paper: PaperText, hit: Hit, rule: str) -> Quote | None:
    if hit.field not in ("title", "abstract"):
        return None
    text = paper.field(hit.field)
    a, b = sentence_of(text, hit.start)
    return Quote(hit.field, a, b, text[a:b], rule)


def _quotes(paper: PaperText, fired: list[tuple[Rule, list[Hit]]]) -> tuple[Quote, ...]:
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


def _where(hits: list[Hit]) -> str:
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


def _after_gate(paper: PaperText, rules: ScopeRules, gate_hits: list[Hit]) -> Decision:
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
    gate_hits: list[Hit],
    core: list[tuple[Rule, list[Hit]]],
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
    fired: list[tuple[Rule, list[Hit]]],
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
    paper: PaperText, rules: ScopeRules, gate_hits: list[Hit]
) -> list[tuple[Rule, list[Hit]]]:
    """Exclusion rules that fire: memory-sense rules only when they explain every mention."""
    fired: list[tuple[Rule, list[Hit]]] = []
    senses: list[tuple[Rule, list[Hit]]] = []
    for rule in rules.of_kind(Kind.EXCLUSION):
        hits = _rule_hits(rule, paper)
        if not hits or _blocked(rule, paper):
            continue
        (senses if rule.memory_sense else fired).append((rule, hits))
    covered = [h for _, hits in senses for h in hits]
    if senses and all(_inside(g, covered) for g in gate_hits):
        fired = senses + fired
    return fired


def _memory_first(paper: PaperText, hits: list[Hit], gate_hits: list[Hit]) -> list[Hit]:
    """Hits whose sentence also holds a memory word first: the best quote for include."""

    def with_memory(hit: Hit) -> bool:
        a, b = sentence_of(paper.field(hit.field), hit.start)
        return any(g.field == hit.field and a <= g.start < b for g in gate_hits)

    return sorted(hits, key=lambda h: not with_memory(h))


def _inside(hit: Hit, spans: list[Hit]) -> bool:
    return any(s.field == hit.field and s.start <= hit.start and hit.end <= s.end for s in spans)


def _skill(rule: Rule, paper: PaperText) -> tuple[list[Hit], tuple[str, ...]] | None:
    """(trigger hits, missing aspects) when a skill paper does not show its whole lifecycle."""
    hits = _rule_hits(rule, paper)
    if not hits or _blocked(rule, paper):
        return None
    fields = [f for f in rule.fields if f != "summary"]
    missing = tuple(a for a, pats in rule.aspects.items() if not find_hits(pats, paper, fields))
    return (hits, missing) if missing else None


def _summary_notes(paper: PaperText, rules: ScopeRules) -> tuple[str, ...]:
    """Rules that match only the entry's own summary: shown to maintainers, never evidence."""
    if not paper.summary:
        return ()
    out = []
    for rule in rules.rules:
        if "summary" in rule.fields and find_hits(rule.patterns, paper, ["summary"]):
            out.append(f"{rule.id} matches the entry's own summary (not evidence)")
    return tuple(out)

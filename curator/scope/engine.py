"""The scope engine: an entry's official text plus rules/scope.yaml -> a verdict with evidence.

Pure: it reads only the title and abstract it is given (the entry's own summary is never
evidence) and quotes them verbatim, with character positions. Three verdicts, each with its
promise: `exclude` when a rule of the policy is proven by the quoted sentences (no memory
word at all, every memory word another kind of memory, or a class outside language models
with no language model named), an error only for the list's hard rules; `exclude` as a
likely exclude (a warning) when the scorer ranks the paper below its floor, under nearly
every paper the maintainers include; `include` only on strong evidence (memory is the
contribution, in a language model's or agent's sense, of a named owner, and the scorer
agrees); everything else `review`, the near misses, with the strongest evidence for and
against.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from curator.core.codes import CODES
from curator.core.decision import SCORER_ID, Contribution, Decision, PaperText, Quote
from curator.core.model import Verdict
from curator.scope.matching import Hit, find_hits, sentences
from curator.scope.rules import VERDICT_CODES, Rule, RuleKind, ScopeRules, load_rules
from curator.scope.signals import (
    LM_SENSE,
    MEMORY_COMPONENT,
    MEMORY_IN_CONTRIBUTION,
    MEMORY_IN_TITLE,
    MEMORY_NAMED,
    NO_SUBJECT,
    Reading,
    distinct,
    quote_of,
    read,
    rule_hits,
    skill_missing,
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


def decide(paper: PaperText, rules: ScopeRules) -> Decision:
    """The scope verdict for one paper: hold, the gate, then the signals and the scorer."""
    held = _unavailable(paper, rules)
    if held is not None:
        return held
    gate_hits = rule_hits(rules.gate, paper)
    if not gate_hits:
        words = "/".join(p.source for p in rules.gate.patterns)
        reason = (
            f"no standalone {words} in the official title or abstract, "
            "so there is no memory sentence to quote"
        )
        return _decision(rules.gate, rules.gate.verdict, "abstract", reason)
    reading = read(paper, rules, gate_hits)
    weighed = rules.scorer.weigh(reading, paper) if rules.scorer is not None else None
    return _after_gate(Case(paper, rules, gate_hits, reading, weighed))


@dataclass(frozen=True)
class Case:
    """A gate-passing paper and what was read and weighed of it."""

    paper: PaperText
    rules: ScopeRules
    gate_hits: list[Hit]
    reading: Reading
    weighed: Contribution | None

    @property
    def memory_quote(self) -> Quote:
        """The memory sentence: the first in a language model's sense, else the first."""
        for signal in self.reading.signals:
            if signal.name == LM_SENSE and signal.quote is not None:
                q = signal.quote
                return Quote(q.field, q.start, q.end, q.text, self.rules.gate.id)
        quote = quote_of(self.paper, self.gate_hits[0], self.rules.gate.id)
        assert quote is not None  # gate hits are in the title or abstract
        return quote

    def fired(self, kinds: tuple[RuleKind, ...]) -> list[Rule]:
        """The rules of these kinds whose signal fired, in file order."""
        names = {s.rule for s in self.reading.signals if s.value}
        return [r for r in self.rules.rules if r.kind in kinds and r.id in names]


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
    if verdict is Verdict.EXCLUDE:
        code, severity, reason = _exclusion_finding([rule], reason)
        return Decision(verdict, (rule.id,), (), scope, reason, code, severity)
    held = VERDICT_CODES.get(verdict)
    severity = CODES[held][0].value if held else ""
    return Decision(verdict, (rule.id,), (), scope, reason, held, severity)


#: How the reason of an exclusion that no hard rule makes begins: a review, not an error.
LIKELY_EXCLUDE = "likely exclude"


def _exclusion_finding(rules: list[Rule], reason: str) -> tuple[str, str, str]:
    """The code, severity and reason of an exclusion by `rules`.

    Only a hard rule of the list's own policy (`hard: true`: its gate, or an exclusion rule
    it makes exclude on its own) gives `scope-exclude`, at the rule's severity (error by
    default). Every other exclusion (a class read from the signals: hardware memory, robot
    control, ...) is a "likely exclude" `scope-review` warning for a maintainer, never a
    failing check.
    """
    hard = [r for r in rules if r.hard]
    if hard:
        code = VERDICT_CODES[Verdict.EXCLUDE]
        return code, _strictest(r.severity for r in hard) or CODES[code][0].value, reason
    code = VERDICT_CODES[Verdict.REVIEW]
    names = ", ".join(r.id for r in rules)
    severity = _strictest(r.severity for r in rules) or CODES[code][0].value
    return code, severity, f"{LIKELY_EXCLUDE}: {names}; {reason}"


def _after_gate(case: Case) -> Decision:
    """Exclude on a proven rule, include on strong evidence, a likely exclude below the
    scorer's floor, else review."""
    return _excluded(case) or _included(case) or _below_floor(case) or _review(case)


def _excluded(case: Case) -> Decision | None:
    """Exclude when a hard rule of the list's own policy is proven by its quote; else when a
    rule of the policy is proven and the scorer does not object (a likely exclude)."""
    strict = [
        r for r in case.fired((RuleKind.EXCLUSION, RuleKind.SKILL)) if r.verdict is Verdict.EXCLUDE
    ]
    # A hard rule decides on its own: the maintainers' rule, not the scorer's judgement.
    hard = [r for r in strict if r.hard and _rule_quote(case, r) is not None]
    if hard:
        return _strict(case, hard)
    weighed = case.weighed
    if weighed is not None and weighed.vetoes:
        return None
    if strict:
        # A maintainer made this rule exclude on its own (verdict: exclude in the YAML).
        return _strict(case, strict)
    proof = case.reading.proof
    if proof is None:
        return None
    # A class read from the signals is never hard, whatever its rules say: a likely exclude.
    rules = [replace(r, hard=False) for r in map(case.rules.by_id, proof.rules) if r is not None]
    reason = f"passes the entry gate, but {proof.reason}"
    return _verdict(case, proof.rules, proof.quotes, reason, rules)


def _strict(case: Case, rules: list[Rule]) -> Decision:
    """An exclusion by rules the maintainers made exclude on their own."""
    quotes = distinct(_rule_quote(case, r) for r in rules)
    names = ", ".join(r.id for r in rules)
    reason = f"passes the entry gate but matches {names}, which the rules make an exclusion"
    return _verdict(case, tuple(r.id for r in rules), quotes, reason, rules)


def strong(reading: Reading, rules: ScopeRules, scored: bool) -> list[str]:
    """What strong evidence for include lacks ([] when it is all there).

    Memory is the contribution (title, contribution sentence or a method named after it, and
    not one item of a list of components), in a language model's or an agent's sense, of a
    named owner; no class outside language models, no class the policy leaves to a maintainer
    (`blocks_include`) and no skill gate fires. Without a scorer to weigh them, no exclusion
    class at all may fire.
    """
    lacking = []
    if not any(reading.value(n) for n in (MEMORY_IN_TITLE, MEMORY_IN_CONTRIBUTION, MEMORY_NAMED)):
        lacking.append("memory is not named in the title or the contribution sentence")
    elif reading.value(MEMORY_COMPONENT):
        lacking.append(
            "memory is one item of a list of components in the contribution sentence and not in "
            "the title"
        )
    if not reading.value(LM_SENSE):
        lacking.append("no memory word is a language model's or an agent's memory")
    if reading.value(NO_SUBJECT):
        lacking.append("no language model or agent is named")
    for signal in reading.signals:
        rule = rules.by_id(signal.rule)
        if (
            not signal.value
            or rule is None
            or rule.kind not in (RuleKind.EXCLUSION, RuleKind.SKILL)
        ):
            continue
        if rule.off_topic or rule.blocks_include or rule.kind is RuleKind.SKILL or not scored:
            lacking.append(f"{rule.id} fires")
    return lacking


def _included(case: Case) -> Decision | None:
    """Include when the evidence is strong and the scorer (if any) reaches its threshold."""
    if strong(case.reading, case.rules, case.weighed is not None):
        return None
    if case.weighed is not None and not case.weighed.include:
        return None
    core = case.fired((RuleKind.CORE,))
    ids = (case.rules.gate.id, *(r.id for r in core))
    central = [s.quote for s in case.reading.signals if s.name == MEMORY_IN_CONTRIBUTION]
    quotes = distinct([case.memory_quote, *central, *(_rule_quote(case, r) for r in core)])
    score = f"; score {case.weighed.score:.3f}" if case.weighed is not None else ""
    reason = (
        "memory is the contribution, in a language model's or agent's sense, of a named owner "
        f"({', '.join(r.id for r in core)}), and no class outside language models fires{score}"
    )
    return Decision(
        Verdict.INCLUDE,
        ids,
        quotes,
        "abstract",
        reason,
        track=case.reading.track,
        notes=_summary_notes(case.paper, case.rules),
        scorer=case.weighed,
    )


def _below_floor(case: Case) -> Decision | None:
    """A likely exclude (a warning, never an error) when the score is under the floor that all
    but a few of the maintainers' includes reach, and neither view leans to include (the veto
    sends such a paper to review, floor or not): quoting the memory sentence and the
    strongest evidence against."""
    weighed, scorer = case.weighed, case.rules.scorer
    if weighed is None or scorer is None or not weighed.below_floor or weighed.vetoes:
        return None
    assert weighed.floor is not None  # below_floor says so
    share = f"{100 * scorer.recall:.0f} %" if scorer.recall is not None else "nearly all"
    against = weighed.strongest(-1)
    reason = (
        f"{LIKELY_EXCLUDE}: passes the entry gate but ranks below nearly every paper the "
        f"maintainers include (score {weighed.score:.3f}, under {weighed.floor:.3f}, which "
        f"{share} of their includes reach); against: "
        + (", ".join(w.name for w in against) or "nothing")
    )
    code = VERDICT_CODES[Verdict.REVIEW]
    # The scorer decided, with the classes that fired (if any), not the gate, which the
    # paper passes.
    fired = tuple(r.id for r in case.fired((RuleKind.EXCLUSION, RuleKind.SKILL)))
    return Decision(
        Verdict.EXCLUDE,
        (*fired, SCORER_ID),
        distinct([case.memory_quote, *(w.quote for w in against)]),
        "abstract",
        reason,
        code,
        CODES[code][0].value,
        track=case.reading.track,
        notes=_summary_notes(case.paper, case.rules),
        scorer=weighed,
    )


def _review(case: Case) -> Decision:
    """Review, quoting the memory sentence and the strongest evidence for and against."""
    lacking = strong(case.reading, case.rules, case.weighed is not None)
    weighed = case.weighed
    quotes: list[Quote | None] = [case.memory_quote]
    parts = []
    if weighed is not None:
        against = weighed.strongest(-1)
        support = weighed.strongest(1)
        quotes += [w.quote for w in (*against, *support)]
        parts.append(f"score {weighed.score:.3f} (include at {weighed.threshold:.3f})")
        parts.append("against: " + (", ".join(w.name for w in against) or "nothing"))
        parts.append("for: " + (", ".join(w.name for w in support) or "nothing"))
    else:
        quotes += [_rule_quote(case, r) for r in case.fired((RuleKind.EXCLUSION, RuleKind.SKILL))]
    if lacking:
        parts.insert(0, "not strong enough to include: " + "; ".join(lacking))
    if case.reading.proof is not None and weighed is not None and weighed.vetoes:
        parts.insert(0, f"{case.reading.proof.reason}, but the score is too high to exclude")
    fired = case.fired((RuleKind.EXCLUSION, RuleKind.SKILL))
    skill = [r for r in fired if r.kind is RuleKind.SKILL]
    missing = skill_missing(skill[0], case.paper) if skill else ()
    if missing:
        parts.append(f"lifecycle not shown: {', '.join(missing)}")
    reason = "passes the entry gate; " + "; ".join(parts)
    rule_ids = (case.rules.gate.id, *(r.id for r in fired))
    if not fired:
        rule_ids += tuple(r.id for r in case.rules.of_kind(RuleKind.FALLBACK))
    if weighed is not None:
        rule_ids += (SCORER_ID,)
    return Decision(
        Verdict.REVIEW,
        rule_ids,
        distinct(quotes),
        "abstract",
        reason,
        VERDICT_CODES[Verdict.REVIEW],
        _severity(fired, Verdict.REVIEW),
        track=case.reading.track,
        missing=missing,
        notes=_summary_notes(case.paper, case.rules),
        scorer=weighed,
    )


_RANK = {"error": 3, "warning": 2, "info": 1}


def _strictest(severities: Iterable[str]) -> str:
    """The most severe of these severities ('' when none is given)."""
    return max((s for s in severities if s), key=lambda s: _RANK.get(s, 0), default="")


def _severity(rules: list[Rule], verdict: Verdict) -> str:
    """The most severe severity the rules give this verdict (the code's default otherwise)."""
    own = _strictest(r.severity for r in rules if r.verdict is verdict)
    return own or CODES[VERDICT_CODES[verdict]][0].value


def _verdict(
    case: Case,
    ids: tuple[str, ...],
    quotes: tuple[Quote, ...],
    reason: str,
    rules: list[Rule],
) -> Decision:
    """An exclusion with its proving rules and sentences (see `_exclusion_finding`)."""
    if not quotes:
        reason += "; no quote because the signal is outside the title and abstract"
        # A hard rule proves an exclusion by its quote: without one it is a likely exclude.
        rules = [replace(r, hard=False) for r in rules]
    code, severity, reason = _exclusion_finding(rules, reason)
    return Decision(
        Verdict.EXCLUDE,
        ids,
        quotes,
        "abstract",
        reason,
        code,
        severity,
        notes=_summary_notes(case.paper, case.rules),
        scorer=case.weighed,
    )


def _rule_quote(case: Case, rule: Rule) -> Quote | None:
    """The sentence a fired rule's signal quotes."""
    return next((s.quote for s in case.reading.signals if s.rule == rule.id and s.quote), None)


def _summary_notes(paper: PaperText, rules: ScopeRules) -> tuple[str, ...]:
    """Rules that match only the entry's own summary: shown to maintainers, never evidence."""
    if not paper.summary:
        return ()
    out = []
    for rule in rules.rules:
        if "summary" in rule.fields and find_hits(rule.patterns, paper, ["summary"]):
            out.append(f"{rule.id} matches the entry's own summary (not evidence)")
    return tuple(out)

"""One rule of the scope policy: the Rule value, what a rule may read and do, and a rule's
YAML mapping read and validated (rules.py reads the whole file)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from curator.core.codes import CODES
from curator.core.errors import InputError
from curator.core.model import Verdict
from curator.scope.matching import Pattern, phrase_regex
from curator.textio.located_yaml import LocatedMap

#: The fields a rule may read. `summary` is the entry's own text: readable, never evidence.
FIELDS = ("title", "abstract", "primary_category", "tags", "summary")
EVIDENCE_FIELDS = ("title", "abstract")

#: Verdict -> the finding code it emits (include emits none).
VERDICT_CODES: dict[Verdict, str] = {
    Verdict.EXCLUDE: "scope-exclude",
    Verdict.HOLD: "scope-hold",
    Verdict.REVIEW: "scope-review",
}


class RuleKind(StrEnum):
    """What a rule does in the decision."""

    GATE = "gate"  # the lexical entry gate (exactly one)
    EXCLUSION = "exclusion"  # a signal that the paper is outside the core scope
    SKILL = "skill"  # the procedural-skill gate: triggers plus required lifecycle aspects
    CORE = "core"  # a core-scope subject (agent, model, evaluation) supporting include
    CUE = "cue"  # words the signals read: an LM sense of memory, a contribution, an operation
    FALLBACK = "fallback"  # what happens when the gate passes but no core signal is found


class Cue(StrEnum):
    """What a cue rule's phrases tell the signals (curator/scope/signals.py)."""

    MEMORY_SENSE = "memory-sense"  # memory as a language model's or an agent's memory
    CONTRIBUTION = "contribution"  # the sentence that states the paper's contribution
    OPERATION = "operation"  # an operation on memory: write, retrieve, update, forget, ...


@dataclass(frozen=True)
class Rule:
    """One rule of scope.yaml, validated."""

    id: str
    kind: RuleKind
    line: int
    en: str
    zh: str
    fields: tuple[str, ...]
    patterns: tuple[Pattern, ...]
    exceptions: tuple[Pattern, ...] = ()
    unless: tuple[Pattern, ...] = ()
    memory_sense: bool = False
    #: An exclusion class wholly outside language models (physics, pure vision, hardware):
    #: it proves an exclusion when the paper names no language model or agent at all.
    off_topic: bool = False
    #: An exclusion class the policy says a maintainer must judge (it is not memory research
    #: unless a person finds memory to be the object): when it fires the paper is not included.
    blocks_include: bool = False
    #: A core rule that names who owns the memory (a language model, an agent); false for
    #: one that names a kind of paper (a benchmark, a survey).
    owner: bool = True
    cue: Cue | None = None
    verdict: Verdict = Verdict.REVIEW
    severity: str = ""
    #: A hard rule of the list's own policy (`hard: true`, on the gate or an exclusion rule
    #: with `verdict: exclude`): the only kind of rule whose exclusion is an error-level
    #: `scope-exclude`. Any other exclusion is a "likely exclude" `scope-review` warning.
    hard: bool = False
    track: str = ""
    reason_codes: tuple[str, ...] = ()
    aspects: Mapping[str, tuple[Pattern, ...]] = field(default_factory=dict)

    @property
    def code(self) -> str | None:
        """The finding code this rule's verdict emits, None for include: `scope-exclude`
        only for a hard rule, a "likely exclude" `scope-review` for any other exclusion."""
        if self.verdict is Verdict.EXCLUDE and not self.hard:
            return VERDICT_CODES[Verdict.REVIEW]
        return VERDICT_CODES.get(self.verdict)

    def describe(self, lang: str = "en") -> str:
        """The maintainer's description in `lang` (zh or en)."""
        return self.zh if lang == "zh" and self.zh else self.en


_RULE_KEYS = {
    "id",
    "kind",
    "description",
    "fields",
    "patterns",
    "exceptions",
    "unless",
    "memory_sense",
    "off_topic",
    "blocks_include",
    "owner",
    "cue",
    "verdict",
    "severity",
    "track",
    "reason_codes",
    "aspects",
    "hard",
}


def read_rule(item: Any, name: str, parent_line: int) -> Rule:
    """One validated Rule from its YAML mapping."""
    if not isinstance(item, LocatedMap):
        raise InputError("each rule must be a mapping", name, parent_line)
    line = item.line
    known_keys(item, _RULE_KEYS, name)
    rule_id = item.get("id")
    if not isinstance(rule_id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", rule_id):
        raise InputError("rule `id` must be lower-case words joined by hyphens", name, line)
    where = f"rule {rule_id}: "
    try:
        kind = RuleKind(str(item.get("kind", "")))
    except ValueError:
        kinds = ", ".join(k.value for k in RuleKind)
        raise InputError(where + f"`kind` must be one of {kinds}", name, line) from None
    en, zh = _description(item, where, name)
    fields = _fields(item, where, name)
    verdict = _verdict(item, kind, where, name)
    hard = _hard(item, kind, verdict, where, name)
    severity = _rule_severity(item, verdict, hard, where, name)
    patterns = _patterns(item, "patterns", where, name, required=kind is not RuleKind.FALLBACK)
    return Rule(
        id=rule_id,
        kind=kind,
        line=line,
        en=en,
        zh=zh,
        fields=fields,
        patterns=patterns,
        exceptions=_patterns(item, "exceptions", where, name),
        unless=_patterns(item, "unless", where, name),
        memory_sense=bool(item.get("memory_sense", False)),
        off_topic=bool(item.get("off_topic", False)),
        blocks_include=_blocks_include(item, kind, where, name),
        owner=bool(item.get("owner", True)),
        cue=_cue(item, kind, where, name),
        verdict=verdict,
        severity=severity,
        hard=hard,
        track=str(item.get("track", "")),
        reason_codes=tuple(str(c) for c in _list(item, "reason_codes", where, name)),
        aspects=_aspects(item, kind, where, name),
    )


def _hard(item: LocatedMap, kind: RuleKind, verdict: Verdict, where: str, name: str) -> bool:
    """`hard`: only the gate and exclusion rules that exclude on their own take it (a hard
    rule's match, or the gate's miss, is the proof; a class read from the signals never is)."""
    raw = item.get("hard", False)
    if not isinstance(raw, bool):
        raise InputError(where + "`hard` must be true or false", name, item.line_of("hard"))
    if raw and (verdict is not Verdict.EXCLUDE or kind not in (RuleKind.GATE, RuleKind.EXCLUSION)):
        raise InputError(
            where + "only the gate or an exclusion rule with `verdict: exclude` takes `hard`",
            name,
            item.line_of("hard"),
        )
    return raw


def _rule_severity(item: LocatedMap, verdict: Verdict, hard: bool, where: str, name: str) -> str:
    """`severity` of the rule's finding: error only for a hard rule; an exclusion that is not
    hard is a "likely exclude" review, a warning unless the rule says info."""
    severity = str(item.get("severity", ""))
    code = VERDICT_CODES.get(verdict)
    line = item.line_of("severity")
    if severity and (code is None or severity not in {"error", "warning", "info"}):
        raise InputError(where + "`severity` must be error, warning or info", name, line)
    if severity == "error" and not hard:
        raise InputError(
            where + "only a hard rule (`hard: true`) gives an error; others are reviews",
            name,
            line,
        )
    if severity or code is None:
        return severity
    if verdict is Verdict.EXCLUDE and not hard:
        return CODES[VERDICT_CODES[Verdict.REVIEW]][0].value
    return CODES[code][0].value


def _blocks_include(item: LocatedMap, kind: RuleKind, where: str, name: str) -> bool:
    """`blocks_include`: only exclusion rules take it."""
    raw = item.get("blocks_include", False)
    if raw and kind is not RuleKind.EXCLUSION:
        line = item.line_of("blocks_include")
        raise InputError(where + "only rules of kind exclusion take `blocks_include`", name, line)
    return bool(raw)


def _cue(item: LocatedMap, kind: RuleKind, where: str, name: str) -> Cue | None:
    """`cue`: required for (and only for) rules of kind cue."""
    raw = item.get("cue")
    if kind is not RuleKind.CUE:
        if raw is not None:
            raise InputError(where + "only rules of kind cue take `cue`", name, item.line_of("cue"))
        return None
    try:
        return Cue(str(raw))
    except ValueError:
        cues = ", ".join(c.value for c in Cue)
        line = item.line_of("cue")
        raise InputError(where + f"`cue` must be one of {cues}", name, line) from None


def known_keys(item: LocatedMap, allowed: set[str], name: str) -> None:
    unknown = sorted(str(k) for k in item if k not in allowed)
    if unknown:
        raise InputError(
            f"unknown key {unknown[0]!r} (allowed: {sorted(allowed)})",
            name,
            item.line_of(unknown[0]),
        )


def _description(item: LocatedMap, where: str, name: str) -> tuple[str, str]:
    desc = item.get("description")
    if not isinstance(desc, Mapping) or not desc.get("en") or not desc.get("zh"):
        raise InputError(
            where + "`description` needs both `en` and `zh` text", name, item.line_of("description")
        )
    return " ".join(str(desc["en"]).split()), " ".join(str(desc["zh"]).split())


def _fields(item: LocatedMap, where: str, name: str) -> tuple[str, ...]:
    fields = tuple(str(f) for f in _list(item, "fields", where, name)) or EVIDENCE_FIELDS
    bad = [f for f in fields if f not in FIELDS]
    if bad:
        raise InputError(
            where + f"unknown field {bad[0]!r} (allowed: {FIELDS})", name, item.line_of("fields")
        )
    return fields


def _verdict(item: LocatedMap, kind: RuleKind, where: str, name: str) -> Verdict:
    default = {RuleKind.GATE: "exclude", RuleKind.CORE: "include"}.get(kind, "review")
    try:
        verdict = Verdict(str(item.get("verdict", default)))
    except ValueError:
        choices = ", ".join(v.value for v in Verdict)
        raise InputError(
            where + f"`verdict` must be one of {choices}", name, item.line_of("verdict")
        ) from None
    if (kind is RuleKind.CORE) != (verdict is Verdict.INCLUDE):
        raise InputError(where + "only core rules give `include`", name, item.line_of("verdict"))
    return verdict


def _list(item: LocatedMap, key: str, where: str, name: str) -> list[Any]:
    value = item.get(key, [])
    if not isinstance(value, list):
        raise InputError(where + f"`{key}` must be a list", name, item.line_of(key))
    return value


def _patterns(
    item: LocatedMap, key: str, where: str, name: str, required: bool = False
) -> tuple[Pattern, ...]:
    raw = _list(item, key, where, name)
    if required and not raw:
        raise InputError(where + f"`{key}` must list at least one phrase", name, item.line_of(key))
    out = []
    for phrase in raw:
        if not isinstance(phrase, str):
            raise InputError(
                where + f"`{key}` entries must be text, got {phrase!r}", name, item.line_of(key)
            )
        try:
            phrase_regex(phrase)  # refuse a phrase with no word now, compile it when used
            out.append(Pattern(phrase))
        except ValueError as exc:
            raise InputError(
                where + f"bad phrase {phrase!r}: {exc}", name, item.line_of(key)
            ) from None
    return tuple(out)


def _aspects(
    item: LocatedMap, kind: RuleKind, where: str, name: str
) -> dict[str, tuple[Pattern, ...]]:
    raw = item.get("aspects")
    if raw is None and kind is not RuleKind.SKILL:
        return {}
    if not isinstance(raw, LocatedMap) or not raw:
        raise InputError(
            where + "`aspects` must map aspect names to phrases", name, item.line_of("aspects")
        )
    return {str(k): _patterns(raw, str(k), where, name, required=True) for k in raw}

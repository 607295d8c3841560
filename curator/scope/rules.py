"""Loading and validating rules/scope.yaml: the scope policy as data a maintainer can edit.

A pattern is a phrase matched as whole words, case-insensitively. Inside a phrase a space or
a hyphen matches any run of spaces and hyphens (so `memory efficient` also finds
`Memory -Efficient`), and a trailing `*` on a word matches any word ending (`quantum*`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator.config.config_files import ConfigFiles, WorkingTree
from curator.core.codes import CODES
from curator.core.errors import InputError
from curator.core.model import Verdict

# Re-exported: a pattern and its regex are matching's (which so needs nothing of this module).
from curator.scope.matching import Pattern as Pattern
from curator.scope.matching import compile_phrase as compile_phrase
from curator.scope.matching import phrase_regex as phrase_regex
from curator.textio.located_yaml import LocatedMap, load_located

if TYPE_CHECKING:
    from curator.scope.scorer import Scorer

#: The fields a rule may read. `summary` is the entry's own text: readable, never evidence.
FIELDS = ("title", "abstract", "primary_category", "tags", "summary")
EVIDENCE_FIELDS = ("title", "abstract")

#: Verdict -> the finding code it emits (include emits none).
VERDICT_CODES: dict[Verdict, str] = {
    Verdict.EXCLUDE: "scope-exclude",
    Verdict.HOLD: "scope-hold",
    Verdict.REVIEW: "scope-review",
}


class Kind(StrEnum):
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
    kind: Kind
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


@dataclass(frozen=True)
class ScopeRules:
    """The whole rules file: the gate, the other rules in file order, and record settings."""

    path: str
    policy: str
    gate: Rule
    rules: tuple[Rule, ...]
    records: Mapping[str, Any] = field(default_factory=dict)
    #: `scorer:` of the file: the learned scorer's file name, beside the rules file.
    scorer_file: str = ""
    scorer: Scorer | None = None

    def of_kind(self, kind: Kind) -> tuple[Rule, ...]:
        """The rules of one kind, in file order."""
        return tuple(r for r in self.rules if r.kind is kind)

    def cues(self, cue: Cue) -> tuple[Rule, ...]:
        """The cue rules of one cue, in file order."""
        return tuple(r for r in self.rules if r.cue is cue)

    def by_id(self, rule_id: str) -> Rule | None:
        """The rule with this id (the gate included), or None."""
        if rule_id == self.gate.id:
            return self.gate
        return next((r for r in self.rules if r.id == rule_id), None)


def load_rules(path: Path) -> ScopeRules:
    """Read and validate a scope rules file; InputError with file and line when malformed."""
    found = read_rules(WorkingTree(path.parent), path.name)
    if found is None:
        raise InputError("no such file or folder", path.as_posix())
    return found


def read_rules(files: ConfigFiles, rel: str) -> ScopeRules | None:
    """The scope policy at `rel` of `files` (the working tree, or the base revision in
    pull-request mode) with its learned scorer, found beside it; None when there is none."""
    text = files.read(rel)
    if text is None:
        return None
    rules = parse_rules(text, files.display(rel))
    if not rules.scorer_file:
        return rules
    from curator.scope.scorer import read_scorer

    # The scorer is found where the rules were found, whichever folder that is.
    where = posixpath.join(posixpath.dirname(rel), rules.scorer_file)
    return replace(rules, scorer=read_scorer(files, where))


def parse_rules(text: str, name: str = "rules/scope.yaml") -> ScopeRules:
    """Validate rules from YAML text; `name` is used in error messages."""
    data = load_located(text, name)
    if not isinstance(data, LocatedMap):
        raise InputError("expected a mapping with `policy` and `rules`", name, 1)
    return _build(data, name)


def _build(data: LocatedMap, name: str) -> ScopeRules:
    _known(data, {"version", "policy", "rules", "records", "scorer"}, name)
    policy = str(data.get("policy", ""))
    if not policy:
        raise InputError("missing `policy` (the screening policy version)", name, data.line)
    raw_rules = data.get("rules")
    if not isinstance(raw_rules, list) or not raw_rules:
        raise InputError("`rules` must be a non-empty list", name, data.line_of("rules"))
    rules = [_rule(item, name, data.line) for item in raw_rules]
    _unique_ids(rules, name)
    gates = [r for r in rules if r.kind is Kind.GATE]
    if len(gates) != 1:
        raise InputError(f"need exactly one rule of kind gate, found {len(gates)}", name, data.line)
    records = _records_spec(data.get("records", {}), name, data.line_of("records"))
    rest = tuple(r for r in rules if r.kind is not Kind.GATE)
    scorer = _scorer_file(data.get("scorer", ""), name, data.line_of("scorer"))
    return ScopeRules(name, policy, gates[0], rest, records, scorer)


def _scorer_file(raw: Any, name: str, line: int) -> str:
    """`scorer`: a plain file name in the rules folder (never a path out of it)."""
    if raw in ("", None):
        return ""
    if not isinstance(raw, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*\.json", raw):
        raise InputError("`scorer` must be a .json file name in the rules folder", name, line)
    return raw


_RECORD_KEYS = {"reading_scopes", "sections_required_for", "required", "reassessment_fields"}


def _records_spec(raw: Any, name: str, line: int) -> dict[str, Any]:
    """The `records` section: allowed reading scopes and required fields per policy version."""
    if not isinstance(raw, Mapping):
        raise InputError("`records` must be a mapping", name, line)
    where = getattr(raw, "line", line)
    unknown = sorted(str(k) for k in raw if k not in _RECORD_KEYS)
    if unknown:
        raise InputError(f"records: unknown key {unknown[0]!r}", name, where)
    for key in ("reading_scopes", "sections_required_for", "reassessment_fields"):
        if not _strings(raw.get(key, [])):
            raise InputError(f"records: `{key}` must be a list of names", name, where)
    required = raw.get("required", {})
    if not isinstance(required, Mapping):
        raise InputError("records: `required` must map policy versions to fields", name, where)
    for version, table in required.items():
        at = getattr(table, "line", where)
        if not isinstance(table, Mapping) or not all(_strings(v) for v in table.values()):
            raise InputError(
                f"records: required[{version!r}] must map decisions to field lists", name, at
            )
    return dict(raw)


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


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


def _rule(item: Any, name: str, parent_line: int) -> Rule:
    """One validated Rule from its YAML mapping."""
    if not isinstance(item, LocatedMap):
        raise InputError("each rule must be a mapping", name, parent_line)
    line = item.line
    _known(item, _RULE_KEYS, name)
    rule_id = item.get("id")
    if not isinstance(rule_id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", rule_id):
        raise InputError("rule `id` must be lower-case words joined by hyphens", name, line)
    where = f"rule {rule_id}: "
    try:
        kind = Kind(str(item.get("kind", "")))
    except ValueError:
        kinds = ", ".join(k.value for k in Kind)
        raise InputError(where + f"`kind` must be one of {kinds}", name, line) from None
    en, zh = _description(item, where, name)
    fields = _fields(item, where, name)
    verdict = _verdict(item, kind, where, name)
    hard = _hard(item, kind, verdict, where, name)
    severity = _rule_severity(item, verdict, hard, where, name)
    patterns = _patterns(item, "patterns", where, name, required=kind is not Kind.FALLBACK)
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


def _hard(item: LocatedMap, kind: Kind, verdict: Verdict, where: str, name: str) -> bool:
    """`hard`: only the gate and exclusion rules that exclude on their own take it (a hard
    rule's match, or the gate's miss, is the proof; a class read from the signals never is)."""
    raw = item.get("hard", False)
    if not isinstance(raw, bool):
        raise InputError(where + "`hard` must be true or false", name, item.line_of("hard"))
    if raw and (verdict is not Verdict.EXCLUDE or kind not in (Kind.GATE, Kind.EXCLUSION)):
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


def _blocks_include(item: LocatedMap, kind: Kind, where: str, name: str) -> bool:
    """`blocks_include`: only exclusion rules take it."""
    raw = item.get("blocks_include", False)
    if raw and kind is not Kind.EXCLUSION:
        line = item.line_of("blocks_include")
        raise InputError(where + "only rules of kind exclusion take `blocks_include`", name, line)
    return bool(raw)


def _cue(item: LocatedMap, kind: Kind, where: str, name: str) -> Cue | None:
    """`cue`: required for (and only for) rules of kind cue."""
    raw = item.get("cue")
    if kind is not Kind.CUE:
        if raw is not None:
            raise InputError(where + "only rules of kind cue take `cue`", name, item.line_of("cue"))
        return None
    try:
        return Cue(str(raw))
    except ValueError:
        cues = ", ".join(c.value for c in Cue)
        line = item.line_of("cue")
        raise InputError(where + f"`cue` must be one of {cues}", name, line) from None


def _known(item: LocatedMap, allowed: set[str], name: str) -> None:
    unknown = sorted(str(k) for k in item if k not in allowed)
    if unknown:
        raise InputError(
            f"unknown key {unknown[0]!r} (allowed: {sorted(allowed)})",
            name,
            item.line_of(unknown[0]),
        )


def _unique_ids(rules: Sequence[Rule], name: str) -> None:
    seen: set[str] = set()
    for rule in rules:
        if rule.id in seen:
            raise InputError(f"rule id {rule.id!r} is used twice", name, rule.line)
        seen.add(rule.id)


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


def _verdict(item: LocatedMap, kind: Kind, where: str, name: str) -> Verdict:
    default = {Kind.GATE: "exclude", Kind.CORE: "include"}.get(kind, "review")
    try:
        verdict = Verdict(str(item.get("verdict", default)))
    except ValueError:
        choices = ", ".join(v.value for v in Verdict)
        raise InputError(
            where + f"`verdict` must be one of {choices}", name, item.line_of("verdict")
        ) from None
    if (kind is Kind.CORE) != (verdict is Verdict.INCLUDE):
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


def _aspects(item: LocatedMap, kind: Kind, where: str, name: str) -> dict[str, tuple[Pattern, ...]]:
    raw = item.get("aspects")
    if raw is None and kind is not Kind.SKILL:
        return {}
    if not isinstance(raw, LocatedMap) or not raw:
        raise InputError(
            where + "`aspects` must map aspect names to phrases", name, item.line_of("aspects")
        )
    return {str(k): _patterns(raw, str(k), where, name, required=True) for k in raw}

"""Loading and validating rules/scope.yaml: the scope policy as data a maintainer can edit
(one rule's mapping is read by rule_item.py).

A pattern is a phrase matched as whole words, case-insensitively. Inside a phrase a space or
a hyphen matches any run of spaces and hyphens (so `memory efficient` also finds
`Memory -Efficient`), and a trailing `*` on a word matches any word ending (`quantum*`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator.config.config_files import ConfigFiles, WorkingTree
from curator.core.errors import InputError

# Re-exported: a pattern and its regex are matching's (which so needs nothing of this module).
from curator.scope.matching import Pattern as Pattern
from curator.scope.matching import compile_phrase as compile_phrase
from curator.scope.matching import phrase_regex as phrase_regex

# Re-exported: one rule and what it may be are rule_item's (the engine and signals read them here).
from curator.scope.rule_item import VERDICT_CODES as VERDICT_CODES
from curator.scope.rule_item import Cue as Cue
from curator.scope.rule_item import Rule as Rule
from curator.scope.rule_item import RuleKind as RuleKind
from curator.scope.rule_item import known_keys, read_rule
from curator.textio.located_yaml import LocatedMap, load_located

if TYPE_CHECKING:
    from curator.scope.scorer import Scorer


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

    def of_kind(self, kind: RuleKind) -> tuple[Rule, ...]:
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
    known_keys(data, {"version", "policy", "rules", "records", "scorer"}, name)
    policy = str(data.get("policy", ""))
    if not policy:
        raise InputError("missing `policy` (the screening policy version)", name, data.line)
    raw_rules = data.get("rules")
    if not isinstance(raw_rules, list) or not raw_rules:
        raise InputError("`rules` must be a non-empty list", name, data.line_of("rules"))
    rules = [read_rule(item, name, data.line) for item in raw_rules]
    _unique_ids(rules, name)
    gates = [r for r in rules if r.kind is RuleKind.GATE]
    if len(gates) != 1:
        raise InputError(f"need exactly one rule of kind gate, found {len(gates)}", name, data.line)
    records = _records_spec(data.get("records", {}), name, data.line_of("records"))
    rest = tuple(r for r in rules if r.kind is not RuleKind.GATE)
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


def _unique_ids(rules: Sequence[Rule], name: str) -> None:
    seen: set[str] = set()
    for rule in rules:
        if rule.id in seen:
            raise InputError(f"rule id {rule.id!r} is used twice", name, rule.line)
        seen.add(rule.id)

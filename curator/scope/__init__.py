"""Scope rules: the screening policy as data (rules/scope.yaml), the engine and the records."""

from __future__ import annotations

from curator.scope.engine import Decision, PaperText, Quote, decide
from curator.scope.explain import explain
from curator.scope.records import Record, check_records, load_records
from curator.scope.rules import Rule, RuleKind, ScopeRules, load_rules, parse_rules

__all__ = [
    "Decision",
    "PaperText",
    "Quote",
    "Record",
    "Rule",
    "RuleKind",
    "ScopeRules",
    "check_records",
    "decide",
    "explain",
    "load_records",
    "load_rules",
    "parse_rules",
]

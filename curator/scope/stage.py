"""The pipeline's scope stage: each paper's official text, its decision, and its finding.

Pure: the decisions a run already has (remembered in the cache by `scope.memo`, read at the
pipeline's edge) are handed in; any paper without one is decided here by the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from curator.checks.interface import CheckContext
from curator.model import Entry, EntryResult, Finding, Kind, Service, Severity, Verdict
from curator.resolvers.interface import Found, Moved, Outcome, describe
from curator.scope.decision import Decision, PaperText
from curator.scope.engine import decide
from curator.scope.rules import ScopeRules


def paper_text(entry: Entry, outcome: Outcome | None) -> PaperText:
    """What the scope engine reads: the official title and abstract (None when unknown)."""
    meta = outcome.meta if isinstance(outcome, Found | Moved) else {}
    return PaperText(
        title=meta.get("title") if meta else None,
        abstract=meta.get("abstract") if meta else None,
        primary_category=str(meta.get("primary_category", "")) if meta else "",
        tags=entry.tags,
        summary=entry.summary,
    )


def scope_rules(ctx: CheckContext) -> ScopeRules | None:
    """The run's scope rules, or None when it has none or `--skip scope` was given."""
    rules = ctx.rules.get("scope")
    if not isinstance(rules, ScopeRules) or ctx.options.skips(Service.SCOPE):
        return None
    return rules


def papers_to_decide(
    entries: Sequence[Entry], outcomes: Mapping[str, Outcome], ctx: CheckContext
) -> list[PaperText]:
    """The texts the stage will decide on, once each (none when scope is not checked)."""
    if scope_rules(ctx) is None:
        return []
    texts = (paper_text(e, outcomes.get(e.subject)) for e in entries if e.kind is Kind.PAPER)
    return list(dict.fromkeys(texts))


def apply_scope(
    entries: Sequence[Entry],
    outcomes: Mapping[str, Outcome],
    ctx: CheckContext,
    decided: Mapping[PaperText, Decision] | None = None,
) -> tuple[list[EntryResult], list[Finding]]:
    """Entry results with metadata and, for papers, the scope verdict and its finding."""
    rules = scope_rules(ctx)
    results: list[EntryResult] = []
    findings: list[Finding] = []
    for entry in entries:
        outcome = outcomes.get(entry.subject)
        meta = {s: describe(outcomes[s]) for s in entry.subjects() if s in outcomes}
        result = EntryResult(entry, meta)
        if rules is not None and entry.kind is Kind.PAPER:
            paper = paper_text(entry, outcome)
            known = decided.get(paper) if decided else None
            decision = known if known is not None else decide(paper, rules)
            result = replace(result, verdict=Verdict(decision.verdict), scope=decision)
            finding = scope_finding(entry, decision, ctx)
            if finding is not None:
                findings.append(finding)
        results.append(result)
    return results, findings


def scope_finding(entry: Entry, decision: Decision, ctx: CheckContext) -> Finding | None:
    """The finding a decision gives (None for include), quoting up to three sentences."""
    if not decision.code:
        return None
    quote = "; ".join(f'{q.field}: "{q.text}"' for q in decision.quotes[:3])
    finding = ctx.finding(
        decision.code,
        entry.subject,
        entry.source,
        decision.reason,
        evidence=quote or decision.reason,
        suggestion="rules: " + ", ".join(decision.rules),
    )
    # The rule's own severity (rules/scope.yaml) applies unless configuration overrides the code.
    if decision.severity and decision.code not in ctx.options.severity:
        finding = replace(finding, severity=Severity(decision.severity))
    return finding

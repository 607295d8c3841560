"""The pipeline's scope stage: each paper's official text, its decision, and its finding.

Pure: the decisions a run already has (remembered in the cache by `scope.memo`, read at the
pipeline's edge) are handed in; any paper without one is decided here by the engine. A
decision the maintainers recorded (scope.decided) settles its entry over the engine's.

One problem, one finding: a paper its service says does not exist (`arxiv-not-found`,
`link-broken`) or whose latest version is a withdrawal (`arxiv-withdrawn`) gets no scope
decision at all, since there is no paper to judge (the withdrawal notice is not an abstract).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from curator.checks.interface import CheckContext
from curator.core.decision import Decision, PaperText
from curator.core.meta import PaperMeta, paper_meta
from curator.core.model import Entry, EntryResult, Finding, Kind, Service, Severity, Verdict
from curator.core.outcomes import Found, Moved, NotFound, Outcome, describe
from curator.scope.decided import Recorded, settle
from curator.scope.engine import decide
from curator.scope.rules import ScopeRules


def paper_text(entry: Entry, outcome: Outcome | None) -> PaperText:
    """What the scope engine reads: the official title and abstract (None when unknown)."""
    meta = outcome.meta if isinstance(outcome, Found | Moved) else None
    paper = meta if isinstance(meta, PaperMeta) else None
    return PaperText(
        title=paper.title if paper else None,
        abstract=paper.abstract if paper else None,
        primary_category=paper.primary_category if paper else "",
        tags=entry.tags,
        summary=entry.summary,
    )


def scope_rules(rules: ScopeRules | None, ctx: CheckContext) -> ScopeRules | None:
    """The run's scope rules, or None when it has none or `--skip scope` was given."""
    if rules is None or ctx.options.skips(Service.SCOPE):
        return None
    return rules


def papers_to_decide(
    entries: Sequence[Entry],
    outcomes: Mapping[str, Outcome],
    ctx: CheckContext,
    rules: ScopeRules | None,
) -> list[PaperText]:
    """The texts the stage will decide on, once each (none when scope is not checked)."""
    if scope_rules(rules, ctx) is None:
        return []
    texts = (paper_text(e, outcomes.get(e.subject)) for e in entries if judged(e, outcomes))
    return list(dict.fromkeys(texts))


def judged(entry: Entry, outcomes: Mapping[str, Outcome]) -> bool:
    """True for a paper whose scope is to be decided: not one its service says does not
    exist or is withdrawn (that finding says all there is to say)."""
    if entry.kind is not Kind.PAPER:
        return False
    outcome = outcomes.get(entry.subject)
    if isinstance(outcome, NotFound):
        return False
    return not (isinstance(outcome, Found) and paper_meta(outcome.meta).withdrawn)


def apply_scope(
    entries: Sequence[Entry],
    outcomes: Mapping[str, Outcome],
    ctx: CheckContext,
    decided: Mapping[PaperText, Decision] | None = None,
    recorded: Mapping[str, Recorded] | None = None,
    *,
    policy: ScopeRules | None = None,
) -> tuple[list[EntryResult], list[Finding]]:
    """Entry results with metadata and, for papers, the scope verdict and its finding under
    the run's `policy` (none: no verdicts); `recorded`: the maintainers' decisions by
    subject, which settle their entries."""
    rules = scope_rules(policy, ctx)
    results: list[EntryResult] = []
    findings: list[Finding] = []
    for entry in entries:
        outcome = outcomes.get(entry.subject)
        meta = {s: describe(outcomes[s]) for s in entry.subjects() if s in outcomes}
        result = EntryResult(entry, meta)
        if rules is not None and judged(entry, outcomes):
            paper = paper_text(entry, outcome)
            known = decided.get(paper) if decided else None
            decision = known if known is not None else decide(paper, rules)
            settled = recorded.get(entry.subject) if recorded else None
            if settled is not None:
                decision = settle(decision, settled)
            result = replace(result, verdict=Verdict(decision.verdict), scope=decision)
            finding = scope_finding(entry, decision, ctx)
            if finding is not None:
                findings.append(finding)
        results.append(result)
    return results, findings


def scope_finding(entry: Entry, decision: Decision, ctx: CheckContext) -> Finding | None:
    """The finding a decision gives (None for include), quoting up to three sentences and
    naming the rules (or the record) that decided: evidence, never a value to write."""
    if not decision.code:
        return None
    quote = "; ".join(f'{q.field}: "{q.text}"' for q in decision.quotes[:3])
    if decision.decided_by:
        quote = ""  # the maintainers' record decided, not the sentences the engine read
    which = f"recorded at {decision.decided_by}" if decision.decided_by else ""
    which = which or ("rules: " + ", ".join(decision.rules) if decision.rules else "")
    evidence = "; ".join(part for part in (quote, which) if part)
    finding = ctx.finding(
        decision.code,
        entry.subject,
        entry.source,
        decision.reason,
        evidence=evidence or decision.reason,
    )
    # The rule's own severity (rules/scope.yaml) applies unless configuration overrides the code.
    if decision.severity and decision.code not in ctx.options.severity:
        finding = replace(finding, severity=Severity(decision.severity))
    return finding

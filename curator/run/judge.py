"""The pure stages after the outcomes are known: the checks, the scope (its decisions kept in the
run's cache), screening records, the second language, and what the report leaves out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from curator.checks.interface import CheckContext
from curator.config.options import Options
from curator.core.model import Entry, EntryResult, Finding, Kind, Service
from curator.core.outcomes import Outcome
from curator.core.subjects import is_paper
from curator.run.registries import CHECKS
from curator.run.rules import Rules
from curator.run.selection import Selection
from curator.sources.interface import Loaded

if TYPE_CHECKING:
    from curator.net.cache import Cache
    from curator.scope.decided import Recorded
    from curator.scope.records import Record


def run_checks(
    entries: Sequence[Entry], outcomes: Mapping[str, Outcome], ctx: CheckContext
) -> list[Finding]:
    """Every registered check over every entry (pure)."""
    if not entries:
        return []  # no check is imported for nothing to check
    checks = [CHECKS[s] for s in CHECKS if not ctx.options.skips(s)]
    findings: list[Finding] = []
    for entry in entries:
        for check in checks:
            findings.extend(check(entry, outcomes, ctx))
    return findings


def recorded_decisions(
    entries: Sequence[Entry],
    ctx: CheckContext,
    rules: Rules,
    records: Sequence[Record] | None,
) -> Mapping[str, Recorded]:
    """The maintainers' recorded scope decisions by subject, read where the rules are (the
    base in a pull request); none when the scope check is skipped or no paper is chosen."""
    if ctx.options.skips(Service.SCOPE) or not any(e.kind is Kind.PAPER for e in entries):
        return {}
    from curator.scope.recorded import recorded_decisions as read

    return read(ctx.options, rules.scope_decisions, (e.source.file for e in entries), records)


def scope(
    entries: Sequence[Entry],
    outcomes: Mapping[str, Outcome],
    ctx: CheckContext,
    rules: Rules,
    cache: Cache,
    recorded: Mapping[str, Recorded] | None = None,
) -> tuple[list[EntryResult], list[Finding]]:
    """Entry results and scope findings; decisions already made under the same rules and
    engine are read from the run's cache (the stage's edge), the rest are made and kept there.
    `recorded`: the maintainers' decisions by subject, which settle their entries."""
    from curator.scope.stage import apply_scope, papers_to_decide, scope_rules

    policy = scope_rules(rules.scope, ctx)
    papers = papers_to_decide(entries, outcomes, ctx, policy)
    if policy is None or not papers:
        return apply_scope(entries, outcomes, ctx)
    from curator.scope.memo import DecisionMemo, decide_all, engine_digest

    engine = engine_digest()
    memo = DecisionMemo(cache, policy, engine) if cache.enabled and engine else None
    decided = decide_all(papers, policy, memo)
    return apply_scope(entries, outcomes, ctx, decided, recorded, policy=policy)


def check_screening_records(
    entries: Sequence[Entry],
    outcomes: Mapping[str, Outcome],
    ctx: CheckContext,
    rules: Rules,
    records: Sequence[Record] | None,
) -> list[Finding]:
    """`record-*` findings when the list keeps screening records (pure)."""
    if records is None:
        return []
    from curator.scope.records import check_records
    from curator.scope.stage import paper_text

    papers = [e for e in entries if e.kind is Kind.PAPER and is_paper(e.subject)]
    findings = check_records(
        list(records),
        {e.subject: paper_text(e, outcomes.get(e.subject)) for e in papers},
        sources={e.subject: e.source for e in papers},
        context=ctx,
        rules=rules.scope,
    )
    if ctx.options.changed_since:
        chosen = {e.subject for e in entries}
        findings = [f for f in findings if f.subject in chosen]
    return findings


def kept(findings: list[Finding], options: Options) -> list[Finding]:
    """The findings whose code the configuration did not turn `off`."""
    return [f for f in findings if f.code not in options.silenced]


def silenced_note(options: Options) -> list[str]:
    """Which finding codes the configuration turned `off`: a code is never dropped silently."""
    off = ", ".join(sorted(options.silenced))
    return [f"not reported (severity off in the configuration): {off}"] if off else []


def skipped_note(options: Options) -> list[str]:
    """Which services this run left out, so a report never reads as a full check."""
    skipped = [s.value for s in Service if options.skips(s)]
    return [f"not checked in this run: {', '.join(skipped)}"] if skipped else []


def translations(
    loaded: Loaded, chinese: Loaded | None, selection: Selection, ctx: CheckContext
) -> list[Finding]:
    """With `--zh` (its document read in the load stage), entries missing from one language
    version, or with another ID or date (pure)."""
    if chinese is None:
        return []
    from curator.checks.bilingual import compare_documents

    found = compare_documents(loaded.entries, chinese.entries, ctx)
    if selection.changed is None:
        return found
    chosen = {e.subject for e in selection.entries}
    return [f for f in found if f.subject in chosen or selection.keeps(f)]

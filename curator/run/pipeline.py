"""The flow of one `curator check`: load → select → resolve → check → scope → report.

Only the load stage (the list, its rules, screening records and second-language document),
`resolve` and the git call of `select` touch the world; everything after the outcomes are
known is pure. Each stage has its module: run/load, run/selection, run/resolve (and the
run's cache), run/judge (checks, scope, what the report leaves out); this one runs them in
order. Sources, resolvers and checks are found through the registries of run/registries.py
(the CLI imports this module only to run a check, so `curator --version` stays fast).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from curator.checks.catalog import duplicates, listings
from curator.checks.interface import CheckContext
from curator.checks.link_forms import link_forms
from curator.config.options import Options
from curator.core import heap
from curator.core.model import Entry, Finding, Report, Service
from curator.run.config_changes import config_changes
from curator.run.judge import (
    check_screening_records,
    kept,
    recorded_decisions,
    run_checks,
    scope,
    silenced_note,
    skipped_note,
    translations,
)
from curator.run.load import load, screening_records
from curator.run.registries import CHECKS, RESOLVERS, SOURCES
from curator.run.resolve import (
    Resolved,
    open_cache,
    open_cache_path,
    planted_cache,
    resolve,
    wanted,
)
from curator.run.rules import read_rules_folder, scope_not_checked
from curator.run.selection import Selection, select
from curator.sources.select import Comparison

if TYPE_CHECKING:
    from curator.net.cache import Cache


@dataclass(frozen=True)
class Run:
    """One run of the pipeline: its report, and every entry read (in pull-request mode the
    report holds only the chosen ones; `curator fix` needs them all to bound each one's text)."""

    report: Report
    entries: tuple[Entry, ...]


def check(options: Options, now: Callable[[], datetime] | None = None) -> Report:
    """Run the pipeline for `options` and return the report (no printing, no exiting)."""
    return run(options, now).report


def run(
    options: Options, now: Callable[[], datetime] | None = None, cache: Cache | None = None
) -> Run:
    """`check`, with every entry read beside the report.

    The cache is opened once for the whole run (or is the caller's, `open_cache`'s, left
    open): a file another process holds costs one wait (SQLite's busy timeout), not one per
    stage that reads it."""
    with heap.settled():
        if cache is not None:
            return _check(options, now, cache)
        cache = open_cache(options)
        try:
            return _check(options, now, cache)
        finally:
            cache.close()


def _check(options: Options, now: Callable[[], datetime] | None, cache: Cache) -> Run:
    started = time.monotonic()
    ctx = CheckContext(options, (now or (lambda: datetime.now(UTC)))())
    comparison = Comparison(options.changed_since, Path.cwd()) if options.changed_since else None
    loaded = load(options.paths, ctx, cache, comparison)
    heap.keep()  # the list lives until the report is written
    selection = select(loaded, options, comparison)
    del comparison  # the tokens its readings shared are not needed past the select stage
    chosen = selection.entries
    rules = read_rules_folder(options)
    ctx = replace(
        ctx, links=rules.links, projects=rules.projects, listings=listings(loaded.entries)
    )
    settings_changed = config_changes(ctx)
    chinese = load([options.zh], ctx) if options.zh else None
    records = screening_records(options)
    # Duplicates are looked for across the whole list, reported at the chosen entries; an
    # offline finding on a changed line counts even when it belongs to no entry (no identity).
    offline = [
        f for f in (*loaded.findings, *duplicates(loaded.entries, ctx)) if selection.keeps(f)
    ]
    offline += link_forms(chosen, ctx)
    resolved = resolve(chosen, options, rules.links, cache)
    findings = offline + run_checks(chosen, resolved.outcomes, ctx)
    recorded = recorded_decisions(chosen, ctx, rules, records)
    results, scope_findings = scope(chosen, resolved.outcomes, ctx, rules, cache, recorded)
    from curator.scope.recorded import trusted_records
    from curator.scope.relevant import relevance

    # In a pull request the model learns from the base's records, never the PR's own.
    skip = options.skips(Service.SCOPE) or not chosen
    teaching = records if skip else trusted_records(options, records)
    results, scope_findings = relevance(
        loaded.entries,
        results,
        scope_findings,
        resolved.outcomes,
        ctx,
        cache,
        teaching,
        recorded,
        has_policy=rules.scope is not None,
    )
    scope_findings += check_screening_records(chosen, resolved.outcomes, ctx, rules, records)
    findings += translations(loaded, chinese, selection, ctx)
    findings += settings_changed
    # What the cache said (a corrupt file set aside, a failed write), once.
    notes = [*loaded.notes, *skipped_note(options), *silenced_note(options)]
    notes += [*resolved.notes, *cache.warnings]
    notes = list(dict.fromkeys(notes))
    # A pull request's papers are weighed against the list even without a policy.
    if rules.scope is None and not options.skips(Service.SCOPE) and not options.changed_since:
        notes.append(scope_not_checked(options))
    if options.changed_since:
        notes.insert(
            0,
            f"pull-request mode: {len(chosen)} of {len(loaded.entries)} entries "
            f"changed since {options.changed_since}",
        )
    report = Report(
        entries=tuple(results),
        findings=tuple(sorted(kept(findings + scope_findings, options), key=_order)),
        requests=resolved.counter.snapshot(),
        notes=tuple(notes),
        elapsed=time.monotonic() - started,
        outages=resolved.outages,
        pull_request=bool(options.changed_since),
    )
    return Run(report, loaded.entries)


def _order(f: Finding) -> tuple[int, str, int, str]:
    return (-f.severity.rank, f.source.file, f.source.line, f.code)


#: The pipeline's names, each stage's from its own module (run/load, selection, resolve,
#: judge), and the registries (run/registries) that a new service or format adds a line to.
__all__ = [
    "CHECKS",
    "RESOLVERS",
    "SOURCES",
    "Resolved",
    "Run",
    "Selection",
    "Service",
    "check",
    "check_screening_records",
    "kept",
    "load",
    "open_cache",
    "open_cache_path",
    "planted_cache",
    "recorded_decisions",
    "resolve",
    "run",
    "run_checks",
    "scope",
    "screening_records",
    "select",
    "silenced_note",
    "skipped_note",
    "translations",
    "wanted",
]

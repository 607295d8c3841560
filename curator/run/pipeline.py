"""The flow of one `curator check`: load → select → resolve → check → scope → report.

Only the load stage (the list, its rules, screening records and second-language document),
`resolve` and the git call of `select` touch the world; everything after the outcomes are
known is pure. Sources, resolvers and checks are found through the typed
registries below (the CLI imports this module only to run a check, so `curator --version`
stays fast).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator.checks.catalog import duplicates, listings
from curator.checks.interface import Check, CheckContext
from curator.checks.link_forms import link_forms
from curator.config.options import Options
from curator.console import progress
from curator.core import heap
from curator.core.errors import InputError
from curator.core.model import Entry, EntryResult, Finding, Kind, Report, Service
from curator.core.outcomes import Counter, Outcome
from curator.resolvers.reach import outages, settle_run
from curator.run.config_changes import config_changes
from curator.run.deferred import DeferredCheck, DeferredResolver, ResolverClass
from curator.run.rules import load_rules, scope_not_checked
from curator.sources.interface import Loaded, Reference, Source
from curator.sources.select import Comparison

if TYPE_CHECKING:
    from curator.net.cache import Cache
    from curator.scope.decided import Recorded
    from curator.scope.records import Record

#: Service -> its resolver: a new service is its resolver's file plus one line here (and its
#: check's line below, when it has findings of its own), imported when first used.
RESOLVERS: dict[Service, ResolverClass] = {
    Service.ARXIV: DeferredResolver("curator.resolvers.arxiv", "ArxivResolver"),
    Service.GITHUB: DeferredResolver("curator.resolvers.github", "GithubResolver"),
    Service.WEB: DeferredResolver("curator.resolvers.web", "WebResolver"),
}

#: Service -> the check that reads that service's outcomes.
CHECKS: dict[Service, Check] = {
    Service.ARXIV: DeferredCheck("curator.checks.papers", "check_paper"),
    Service.GITHUB: DeferredCheck("curator.checks.repos", "check_repo"),
    Service.WEB: DeferredCheck("curator.checks.links", "check_links"),
}


def _catalogue(context: CheckContext, cache: Cache | None, comparison: Comparison | None) -> Source:
    """The YAML catalogue reader (jsonschema is imported only for a run that validates a
    file); with the run's cache, files that passed the schema before are not validated again;
    in pull-request mode, with the run's comparison (only what changed is validated)."""
    from curator.sources.catalog_schema import CleanFiles
    from curator.sources.yaml_catalog import CatalogSource

    clean = CleanFiles.over(cache) if cache is not None else None
    return CatalogSource(context, clean, comparison)


def _document(context: CheckContext, cache: Cache | None, comparison: Comparison | None) -> Source:
    """The awesome-list document reader (markdown-it only for a run that reads a document);
    in pull-request mode its inline parses are kept for the base revision's reading."""
    from curator.sources.document import DocumentSource

    return DocumentSource(context, comparison.inlines if comparison is not None else None)


#: Source formats by file suffix ("" = a folder), each built with the run's context, cache
#: and (pull-request mode) comparison with the base revision.
SOURCES: dict[str, Callable[[CheckContext, Cache | None, Comparison | None], Source]] = {
    "": _catalogue,
    ".yaml": _catalogue,
    ".yml": _catalogue,
    ".md": _document,
    ".markdown": _document,
}


@dataclass
class Resolved:
    """Outcomes of every subject asked, what was sent, and notes for the reader."""

    outcomes: dict[str, Outcome] = field(default_factory=dict)
    counter: Counter = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    #: Services that could not be asked as a whole (see reach.outages).
    outages: tuple[Service, ...] = ()


# -- load ---------------------------------------------------------------------------------
def load(
    paths: Sequence[str],
    context: CheckContext | None = None,
    cache: Cache | None = None,
    comparison: Comparison | None = None,
) -> Loaded:
    """Read every path with the source for its kind (folder, YAML file, Markdown document);
    findings made while reading take the severities of `context` (the run's configuration).
    With the run's `cache`, what a source worked out before from the same text is reused;
    with its `comparison` (pull-request mode), what the select stage shares."""
    ctx = context or CheckContext()
    entries: list[Entry] = []
    findings: list[Finding] = []
    files: list[str] = []
    notes: list[str] = []
    references: list[Reference] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise InputError(_missing(path), raw)
        source = SOURCES.get("" if path.is_dir() else path.suffix.lower())
        if source is None:
            raise InputError("not a catalogue folder, YAML file or Markdown document", raw)
        got = source(ctx, cache, comparison).load(path)
        entries.extend(got.entries)
        findings.extend(got.findings)
        files.extend(got.files)
        notes.extend(got.notes)
        references.extend(got.references)
    return Loaded(tuple(entries), tuple(findings), tuple(files), tuple(notes), tuple(references))


def _missing(path: Path) -> str:
    """Why a path cannot be read: missing, with a hint when a folder (the default `data`) is
    asked for where the list is a README.md (an awesome-list run with no PATH lands here)."""
    if not path.suffix and Path("README.md").is_file():
        return "no such file or folder (is the list README.md? give it as the PATH)"
    return "no such file or folder"


# -- select -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Selection:
    """The entries to check and, in PR mode, the lines changed per file (None: whole file)."""

    entries: list[Entry]
    changed: dict[str, set[int] | None] | None = None

    @cached_property
    def places(self) -> set[tuple[str, int]]:
        """(file, line) of every chosen entry."""
        return {(e.source.file, e.source.line) for e in self.entries}

    def keeps(self, finding: Finding) -> bool:
        """True for a finding at a chosen entry or on a changed line (always outside PR mode)."""
        if self.changed is None:
            return True
        if (finding.source.file, finding.source.line) in self.places:
            return True
        if finding.source.file not in self.changed:
            return False
        lines = self.changed[finding.source.file]
        return lines is None or finding.source.line in lines


def select(loaded: Loaded, options: Options, comparison: Comparison | None = None) -> Selection:
    """All entries, or in PR mode only those added or changed since the ref (`comparison`:
    the run's, when its load stage compared files already)."""
    if not options.changed_since:
        return Selection(list(loaded.entries))
    from curator.sources.select import Comparison, follow_references, select_changed

    comparison = comparison or Comparison(options.changed_since, Path.cwd())
    files = sorted({e.source.file for e in loaded.entries} | set(loaded.files))
    found = comparison.changes(files)
    lines = follow_references(found.lines, loaded.references)
    # An entry the base did not have counts as changed where it stands, whichever lines the
    # pull request touched to make it one.
    for entry in _revealed(loaded.entries, found.base, comparison):
        held = lines[entry.source.file]
        if held is not None:
            held.add(entry.source.line)
    # Findings on a definition's line and on the links it redirects are the pull request's.
    kept = {f: None if n is None else n | (lines[f] or set()) for f, n in found.lines.items()}
    return Selection(select_changed(loaded.entries, lines), kept)


def _revealed(
    entries: Sequence[Entry], base: Mapping[str, bytes], comparison: Comparison
) -> list[Entry]:
    """The entries of the files changed in part that their base version did not have (a
    document's base reading takes over the inline parses of its head's: `comparison`)."""
    from curator.sources.reading import entries_of, is_catalogue
    from curator.sources.select import new_entries
    from curator.textio.text import decode_text

    before: dict[str, Sequence[Entry] | None] = {}
    with heap.bulk_build():  # plain values, no cycles: see curator.core.heap
        for file, data in base.items():
            inlines = None if is_catalogue(file) else comparison.inlines
            try:
                before[file] = entries_of(file, decode_text(data, file), inlines)
            except InputError:
                before[file] = None
    return new_entries(entries, before)


# -- resolve ------------------------------------------------------------------------------
def wanted(entries: Iterable[Entry], options: Options) -> dict[Service, list[str]]:
    """Subjects to ask each service about, in first-seen order, skipped services left out."""
    out: dict[Service, dict[str, None]] = {s: {} for s in RESOLVERS if not options.skips(s)}
    for entry in entries:
        for link in entry.links:
            if link.service in out:
                out[link.service].setdefault(link.subject, None)
    return {s: list(subjects) for s, subjects in out.items() if subjects}


def resolve(
    entries: Sequence[Entry],
    options: Options,
    rules: Mapping[str, Any],
    cache: Cache | None = None,
) -> Resolved:
    """Ask every service (concurrently, one thread each) about the subjects it handles,
    through the run's `cache` (opened here when none is given)."""
    result = Resolved()
    subjects = wanted(entries, options)
    if not subjects:
        return result
    own = cache is None
    cache = cache if cache is not None else open_cache(options)
    totals = {s: len(v) for s, v in subjects.items()}
    try:
        resolvers = {s: RESOLVERS[s].build(options, cache, result.counter, rules) for s in subjects}
        with (
            progress.show(totals, result.counter, offline=options.offline) as shown,
            ThreadPoolExecutor(len(resolvers)) as pool,
        ):
            futures = {s: pool.submit(resolvers[s].resolve, subjects[s]) for s in resolvers}
            for service, future in futures.items():
                future.add_done_callback(_finisher(shown, service))
            for service, future in futures.items():
                result.outcomes.update(future.result())
                result.notes.extend(resolvers[service].notes)
    finally:
        result.notes.extend(cache.warnings)
        if own:
            cache.close()
    # Transport failures judged against the whole run's answers; services never reached.
    settled = settle_run(result.outcomes, result.counter.heard_from(), subjects)
    result.outcomes = settled.outcomes
    result.notes.extend(settled.notes)
    spent = [service for service, resolver in resolvers.items() if resolver.spent]
    result.outages = outages(subjects, settled, spent)
    return result


def _finisher(shown: progress.ServiceProgress, service: Service) -> Callable[[Any], None]:
    """A done-callback that ticks `service` off the progress display, ✗ when it failed."""

    def done(future: Any) -> None:
        crashed = future.exception() is not None
        shown.finish(service, None if crashed else future.result(), crashed=crashed)

    return done


# -- check --------------------------------------------------------------------------------
def run_checks(
    entries: Sequence[Entry], outcomes: Mapping[str, Outcome], ctx: CheckContext
) -> list[Finding]:
    """Every registered check over every entry (pure)."""
    checks = [check for s, check in CHECKS.items() if not ctx.options.skips(s)]
    findings: list[Finding] = []
    for entry in entries:
        for check in checks:
            findings.extend(check(entry, outcomes, ctx))
    return findings


# -- scope --------------------------------------------------------------------------------
def recorded_decisions(
    entries: Sequence[Entry], ctx: CheckContext, records: Sequence[Record] | None
) -> Mapping[str, Recorded]:
    """The maintainers' recorded scope decisions by subject, read where the rules are (the
    base in a pull request); none when the scope check is skipped or no paper is chosen."""
    if ctx.options.skips(Service.SCOPE) or not any(e.kind is Kind.PAPER for e in entries):
        return {}
    from curator.scope.recorded import recorded_decisions as read

    return read(ctx.options, ctx.rules, (e.source.file for e in entries), records)


def scope(
    entries: Sequence[Entry],
    outcomes: Mapping[str, Outcome],
    ctx: CheckContext,
    cache: Cache,
    recorded: Mapping[str, Recorded] | None = None,
) -> tuple[list[EntryResult], list[Finding]]:
    """Entry results and scope findings; decisions already made under the same rules and
    engine are read from the run's cache (the stage's edge), the rest are made and kept there.
    `recorded`: the maintainers' decisions by subject, which settle their entries."""
    from curator.scope.stage import apply_scope, papers_to_decide, scope_rules

    rules = scope_rules(ctx)
    papers = papers_to_decide(entries, outcomes, ctx)
    if rules is None or not papers:
        return apply_scope(entries, outcomes, ctx)
    from curator.scope.memo import DecisionMemo, decide_all, engine_digest

    engine = engine_digest()
    memo = DecisionMemo(cache, rules, engine) if cache.enabled and engine else None
    decided = decide_all(papers, rules, memo)
    return apply_scope(entries, outcomes, ctx, decided, recorded)


def screening_records(options: Options) -> list[Record] | None:
    """The list's screening records (`screening/*.json`), read in the load stage; None when
    it keeps none or the scope check is skipped."""
    folder = Path(options.root) / options.records_dir
    if options.skips(Service.SCOPE) or not folder.is_dir():
        return None
    from curator.scope.records import load_records

    return [r for path in sorted(folder.glob("*.json")) for r in load_records(path)]


def check_screening_records(
    entries: Sequence[Entry],
    outcomes: Mapping[str, Outcome],
    ctx: CheckContext,
    records: Sequence[Record] | None,
) -> list[Finding]:
    """`record-*` findings when the list keeps screening records (pure)."""
    if records is None:
        return []
    from curator.scope.records import check_records
    from curator.scope.stage import paper_text

    papers = [e for e in entries if e.kind is Kind.PAPER and e.subject.startswith("arxiv:")]
    findings = check_records(
        list(records),
        {e.subject: paper_text(e, outcomes.get(e.subject)) for e in papers},
        sources={e.subject: e.source for e in papers},
        context=ctx,
        rules=ctx.rules.get("scope"),
    )
    if ctx.options.changed_since:
        chosen = {e.subject for e in entries}
        findings = [f for f in findings if f.subject in chosen]
    return findings


# -- the whole flow -----------------------------------------------------------------------
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


def open_cache(options: Options) -> Cache:
    """The run's cache, the one way every stage opens it: none with --no-cache, and none
    (a warning says why) for a file the pull request could have planted (`planted_cache`)."""
    from curator.net.cache import Cache

    refused = planted_cache(options)
    cache = Cache(None if refused else open_cache_path(options))
    cache.warnings.extend(refused)
    return cache


def open_cache_path(options: Options) -> Path | None:
    """The cache file of a run, None with --no-cache."""
    return None if options.no_cache else options.resolved_cache_path()


def planted_cache(options: Options) -> list[str]:
    """Why a pull-request run may not use its cache file ([] when it may): one inside the
    checked tree that git tracks (the pull request could commit one saying its paper exists)
    or that is reached through a symbolic link of the tree. CURATOR_CACHE outside the tree,
    as the Action sets it, is never refused."""
    path = open_cache_path(options)
    if not options.changed_since or path is None:
        return []
    from curator.textio import git

    root = os.path.realpath(options.root)
    rel = os.path.relpath(os.path.abspath(path), root)
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return []
    why = ""
    if os.path.realpath(path) != os.path.join(root, rel):
        why = "is reached through a symbolic link of the checked tree"
    elif git.tracked([rel + suffix for suffix in ("", "-wal", "-shm", "-journal")], Path(root)):
        why = "is a file of the checked tree (committed)"
    if not why:
        return []
    return [f"cache {rel} not used: it {why}; set CURATOR_CACHE outside the repository"]


def _check(options: Options, now: Callable[[], datetime] | None, cache: Cache) -> Run:
    started = time.monotonic()
    ctx = CheckContext(options, (now or (lambda: datetime.now(UTC)))())
    comparison = Comparison(options.changed_since, Path.cwd()) if options.changed_since else None
    loaded = load(options.paths, ctx, cache, comparison)
    heap.keep()  # the list lives until the report is written
    selection = select(loaded, options, comparison)
    del comparison  # the tokens its readings shared are not needed past the select stage
    chosen = selection.entries
    rules = load_rules(options)
    ctx = replace(ctx, rules=rules, listings=listings(loaded.entries))
    settings_changed = config_changes(ctx)
    chinese = load([options.zh], ctx) if options.zh else None
    records = screening_records(options)
    # Duplicates are looked for across the whole list, reported at the chosen entries; an
    # offline finding on a changed line counts even when it belongs to no entry (no identity).
    offline = [
        f for f in (*loaded.findings, *duplicates(loaded.entries, ctx)) if selection.keeps(f)
    ]
    offline += link_forms(chosen, ctx)
    resolved = resolve(chosen, options, rules, cache)
    findings = offline + run_checks(chosen, resolved.outcomes, ctx)
    recorded = recorded_decisions(chosen, ctx, records)
    results, scope_findings = scope(chosen, resolved.outcomes, ctx, cache, recorded)
    from curator.scope.recorded import trusted_records
    from curator.scope.relevant import relevance

    # In a pull request the model learns from the base's records, never the PR's own.
    skip = options.skips(Service.SCOPE) or not chosen
    teaching = records if skip else trusted_records(options, records)
    results, scope_findings = relevance(
        loaded.entries, results, scope_findings, resolved.outcomes, ctx, cache, teaching, recorded
    )
    scope_findings += check_screening_records(chosen, resolved.outcomes, ctx, records)
    findings += translations(loaded, chinese, selection, ctx)
    findings += settings_changed
    # What the cache said (a corrupt file set aside, a failed write), once.
    notes = [*loaded.notes, *skipped_note(options), *silenced_note(options)]
    notes += [*resolved.notes, *cache.warnings]
    notes = list(dict.fromkeys(notes))
    # A pull request's papers are weighed against the list even without a policy.
    if "scope" not in rules and not options.skips(Service.SCOPE) and not options.changed_since:
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


def _order(f: Finding) -> tuple[int, str, int, str]:
    return (-f.severity.rank, f.source.file, f.source.line, f.code)

"""The resolve stage: every service asked (concurrently) about the subjects it handles, through
the run's cache, which is opened here the one way every stage opens it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from curator.config.links import LinkRules
from curator.config.options import Options
from curator.console import progress
from curator.core.model import Entry, Service
from curator.core.outcomes import Counter, Outcome
from curator.resolvers.reach import outages, settle_run
from curator.run.registries import RESOLVERS

if TYPE_CHECKING:
    from curator.net.cache import Cache


@dataclass
class Resolved:
    """Outcomes of every subject asked, what was sent, and notes for the reader."""

    outcomes: dict[str, Outcome] = field(default_factory=dict)
    counter: Counter = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    #: Services that could not be asked as a whole (see reach.outages).
    outages: tuple[Service, ...] = ()


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
    links: LinkRules | None,
    cache: Cache | None = None,
) -> Resolved:
    """Ask every service (concurrently, one thread each) about the subjects it handles
    (`links`: the run's link rules, which the web resolver reads),
    through the run's `cache` (opened here when none is given)."""
    result = Resolved()
    subjects = wanted(entries, options)
    if not subjects:
        return result
    own = cache is None
    cache = cache if cache is not None else open_cache(options)
    totals = {s: len(v) for s, v in subjects.items()}
    try:
        resolvers = {s: RESOLVERS[s].build(options, cache, result.counter, links) for s in subjects}
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

"""Badges that name another repository than the link beside them, kept on their entry.

Pure. A badge (`curator.core.badges`) and the repository link it describes sit in one group of
`doc_targets` (a table cell, a line, an HTML cell or list item; a cell of badges alone
describes its row's link). When a group links exactly one repository and a badge there
draws another, the pair is kept on the entry that holds the link, as `fields["badges"]`:
(badge's repository, linked repository, line, badge URL). The check (`checks/badges`)
decides once GitHub's answers are known, so that a badge already naming the new name of a
moved repository is no mismatch. A group that links several repositories is left alone:
which one a badge describes is not known.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import replace

from curator.core.badges import badge_subject
from curator.core.model import Entry
from curator.core.normalize import github_subject
from curator.sources.doc_targets import Targets

Pair = tuple[str, str, int, str]


def mismatches(targets: Targets) -> list[Pair]:
    """(badge's repository, linked repository, line, badge URL) of every badge whose group
    links one repository, another one."""
    links: dict[tuple[int, int], set[str]] = defaultdict(set)
    rows: dict[int, set[str]] = defaultdict(set)
    badges: dict[tuple[int, int], list[tuple[str, int, str]]] = defaultdict(list)
    row_of: dict[tuple[int, int], int] = {}
    for target in targets.targets:
        row_of[target.group] = target.row
        if target.image:
            named = badge_subject(target.url)
            if named is not None:
                badges[target.group].append((named, target.line, target.url))
        else:
            repo = github_subject(target.url)
            if repo is not None:
                links[target.group].add(repo)
                rows[target.row].add(repo)
    out: list[Pair] = []
    for group, found in badges.items():
        # The badge's own cell first; a cell of badges alone describes its row's link.
        linked = links.get(group) or (rows.get(row_of[group], set()) if row_of[group] else set())
        if len(linked) != 1:
            continue
        (repo,) = linked
        out += [(named, repo, line, url) for named, line, url in found if named != repo]
    return out


def with_badges(entries: list[Entry], targets: Targets) -> list[Entry]:
    """`entries` with each mismatched badge kept on the entry that links its repository:
    the one at the badge's line, else the nearest one above it."""
    pairs = mismatches(targets)
    if not pairs:
        return entries
    holders: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for i, entry in enumerate(entries):
        for subject in set(entry.subjects()):
            holders[subject].append((entry.source.line, i))
    for places in holders.values():
        places.sort()
    kept: dict[int, list[Pair]] = defaultdict(list)
    for pair in pairs:
        places = holders.get(pair[1], [])
        at = bisect.bisect_right(places, (pair[2], len(entries))) - 1
        if at >= 0:
            kept[places[at][1]].append(pair)
    out = list(entries)
    for i, found in kept.items():
        out[i] = replace(out[i], fields={**out[i].fields, "badges": tuple(found)})
    return out

"""Discover for a list without a scope policy: its own words, categories and relevance.

Pure. The query asks for the words that would find the list's own papers
(`Model.distinctive`) in the categories its papers are filed under (the cache's metadata of
the listed papers; the defaults when it has none). Candidates are grouped by the relevance
model `curator check` uses: *likely include* when a candidate is as like the list as a typical
listed paper is like the rest (standing >= 50 %), *likely exclude* when it is unlike anything
in the list (standing < 5 %, the pull-request warning's test), *to review* between, each group
ranked by standing. The groups follow one number, so no likely include is ever below a likely
exclude.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from curator.core.decision import Decision
from curator.core.model import Verdict
from curator.core.subjects import arxiv_subject
from curator.scope.relevance import Model, Paper, Relevance
from curator.scope.relevant import RULE
from curator.scope.screen import Candidate, Group, Listed, Skipped, revised, seen

#: At most this many categories are asked, and only while they add listed papers.
MOST_CATEGORIES = 5
#: The categories asked cover this share of the listed papers the cache knows.
CATEGORY_COVER = 0.9


def categories(metas: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    """The primary categories of the listed papers, most used first, until they cover
    CATEGORY_COVER of them (at most MOST_CATEGORIES); () when the cache knows none."""
    counts = Counter(str(m.get("primary_category") or "") for m in metas)
    counts.pop("", None)
    total = sum(counts.values())
    chosen: list[str] = []
    covered = 0
    for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if covered >= CATEGORY_COVER * total or len(chosen) >= MOST_CATEGORIES:
            break
        if name.replace(".", "").replace("-", "").isalnum():
            chosen.append(name)
            covered += n
    return tuple(chosen)


def decision(rel: Relevance) -> Decision:
    """A candidate's decision: include when likely, review otherwise (never an error)."""
    if rel.likely:
        verdict, head = Verdict.INCLUDE, "like the list"
    elif rel.unlike:
        verdict, head = Verdict.REVIEW, "unlike anything in the list"
    else:
        verdict, head = Verdict.REVIEW, "somewhat like the list"
    reason = f"{head}: {rel.like()} ({rel.measure()})"
    return Decision(verdict, (RULE,), (), "title_topic_screen", reason)


def group(rel: Relevance) -> Group:
    """The candidate's group, from its standing alone."""
    if rel.likely:
        return Group.INCLUDE
    return Group.EXCLUDE if rel.unlike else Group.REVIEW


def screen(
    papers: Sequence[Mapping[str, Any]],
    listed: Listed,
    model: Model,
    earlier: Mapping[str, Mapping[str, Any]] | None = None,
) -> tuple[list[Candidate], list[Skipped]]:
    """Candidates ranked by group then standing, and the papers the list already has."""
    scored: list[tuple[float, Candidate]] = []
    skipped: list[Skipped] = []
    for meta in papers:
        before, held = seen(meta, listed, earlier)
        if held is not None:
            skipped.append(held)
            continue
        title, abstract = str(meta.get("title", "")), str(meta.get("abstract", ""))
        paper = Paper(arxiv_subject(meta["id"]), title, abstract)
        rel = model.score(paper)
        found = Candidate(meta, decision(rel), group(rel), revised(meta, before))
        scored.append((rel.affinity, found))
    order = {Group.INCLUDE: 0, Group.REVIEW: 1, Group.EXCLUDE: 2}
    scored.sort(key=lambda sc: (order[sc[1].group], -sc[0], sc[1].id))
    return [c for _, c in scored], sorted(skipped, key=lambda s: s.id)

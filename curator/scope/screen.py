"""Screening found papers: skip what the list has, decide the rest, rank, draft records.

Pure. The verdict is the scope engine's (`curator.scope.decide`, whatever contributes to
it); this module only groups it for a maintainer and writes the record a maintainer would.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from curator.core.model import Entry, Kind, Verdict
from curator.core.normalize import parse_arxiv_id
from curator.core.subjects import is_paper
from curator.scope import Decision, PaperText, Quote, ScopeRules, decide
from curator.scope.records import normal_text

#: How a draft's `source_sha256` was computed (the policy's `hash_basis` field).
HASH_BASIS = "UTF-8 official arXiv abstract (export API summary, whitespace folded)"


class Group(StrEnum):
    """Where a candidate stands for the maintainer, in report order."""

    INCLUDE = "likely include"
    REVIEW = "to review"
    EXCLUDE = "likely exclude"


@dataclass(frozen=True)
class Listed:
    """What the list already holds: arXiv IDs (no version) and normalised titles, located."""

    ids: Mapping[str, str]
    titles: Mapping[str, str]

    def where(self, paper_id: str, titles: Iterable[str]) -> str:
        """Where the list has this paper ('' when it does not): by ID, else by a title."""
        if paper_id in self.ids:
            return f"listed at {self.ids[paper_id]}"
        for title in titles:
            place = self.titles.get(normal_text(title))
            if title and place:
                return f"listed by title at {place}"
        return ""


def listed_from(entries: Iterable[Entry]) -> Listed:
    """The IDs (any link of a paper, any version) and titles of the list's papers."""
    ids: dict[str, str] = {}
    titles: dict[str, str] = {}
    for entry in entries:
        if entry.kind is not Kind.PAPER:
            continue
        place = str(entry.source)
        for subject in entry.subjects():
            parsed = parse_arxiv_id(subject) if is_paper(subject) else None
            if parsed is not None:
                ids.setdefault(parsed.base, place)
        if entry.title.strip():
            titles.setdefault(normal_text(entry.title), place)
    return Listed(ids, titles)


@dataclass(frozen=True)
class Candidate:
    """One new paper: its official metadata, the engine's decision and its group."""

    meta: Mapping[str, Any]
    decision: Decision
    group: Group
    revised_from: int | None = None

    @property
    def id(self) -> str:
        """The arXiv ID without version."""
        return str(self.meta["id"])

    @property
    def unquoted_exclude(self) -> bool:
        """An exclude with nothing to quote: the entry gate's (no memory word)."""
        return self.decision.verdict is Verdict.EXCLUDE and not self.decision.quotes

    @property
    def deciding(self) -> Quote | None:
        """The quote that decided the verdict: after the memory sentence (which comes first
        for include and review), the first other evidence; else the first quote."""
        quotes = self.decision.quotes
        if self.decision.verdict is not Verdict.EXCLUDE and len(quotes) > 1:
            return quotes[1]
        return quotes[0] if quotes else None


@dataclass(frozen=True)
class Skipped:
    """A paper arXiv found that the list already has."""

    id: str
    title: str
    where: str


def group_of(decision: Decision) -> Group:
    """The verdict's group. Likely include: an include, or a near miss (any review, a vetoed
    exclusion among them) that the scorer ranks where nearly all of the maintainers' includes
    rank (at or above its floor), so that the group holds what a maintainer most likely
    takes. Likely exclude: only an exclusion a hard rule of the list's policy proves (a
    `scope-exclude`, the check's error), where nobody looks. Everything else to review (ranked
    by P(include)): every likely exclude no hard rule makes, its reason saying so, and a
    review under the floor (one a view leans to include)."""
    if decision.verdict is Verdict.INCLUDE:
        return Group.INCLUDE
    if decision.verdict is Verdict.EXCLUDE and decision.code == "scope-exclude":
        return Group.EXCLUDE
    weighed = decision.scorer
    ranked_high = weighed is not None and weighed.floor is not None and not weighed.below_floor
    if decision.verdict is Verdict.REVIEW and ranked_high:
        return Group.INCLUDE
    return Group.REVIEW


def screen(
    papers: Sequence[Mapping[str, Any]],
    listed: Listed,
    rules: ScopeRules,
    earlier: Mapping[str, Mapping[str, Any]] | None = None,
) -> tuple[list[Candidate], list[Skipped]]:
    """Candidates (ranked) and skipped papers; `earlier` is what a previous run saw."""
    candidates: list[Candidate] = []
    skipped: list[Skipped] = []
    for meta in papers:
        before, held = seen(meta, listed, earlier)
        if held is not None:
            skipped.append(held)
            continue
        text = PaperText(
            title=str(meta.get("title", "")) or None,
            abstract=str(meta.get("abstract", "")) or None,
            primary_category=str(meta.get("primary_category", "")),
        )
        decision = decide(text, rules)
        candidates.append(Candidate(meta, decision, group_of(decision), revised(meta, before)))
    return rank(candidates), sorted(skipped, key=lambda s: s.id)


def seen(
    meta: Mapping[str, Any], listed: Listed, earlier: Mapping[str, Mapping[str, Any]] | None
) -> tuple[Mapping[str, Any], Skipped | None]:
    """What a previous run saw of a found paper, and the paper as skipped when the list holds
    it already (by ID, or by its title now or then)."""
    before = (earlier or {}).get(str(meta["id"]), {})
    titles = [str(meta.get("title", "")), str(before.get("title", ""))]
    where = listed.where(str(meta["id"]), titles)
    return before, (Skipped(str(meta["id"]), titles[0], where) if where else None)


def revised(meta: Mapping[str, Any], before: Mapping[str, Any]) -> int | None:
    """The version a previous run saw, when arXiv has a newer one now."""
    old = before.get("version")
    return old if isinstance(old, int) and old < int(meta.get("version", 1)) else None


_ORDER = {Group.INCLUDE: 0, Group.REVIEW: 1, Group.EXCLUDE: 2}


def rank(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Likely includes first; within a group, the scorer's P(include) first (the review list
    is ranked), then more quoted evidence, then the newest."""

    def key(c: Candidate) -> tuple[int, int, float, int, str, str]:
        score = c.decision.scorer.score if c.decision.scorer is not None else 0.0
        return (
            _ORDER[c.group],
            int(c.unquoted_exclude),
            -score,
            -len(c.decision.quotes),
            _inverse(str(c.meta.get("published_at", ""))),
            c.id,
        )

    return sorted(candidates, key=key)


def _inverse(text: str) -> str:
    """A string that sorts in the opposite order of `text` (newest first)."""
    return "".join(chr(0x10FFFF - ord(ch)) for ch in text)


def gate_excluded(candidate: Candidate, rules: ScopeRules) -> bool:
    """True when the entry gate itself excluded the paper (no memory word)."""
    decision = candidate.decision
    return decision.verdict is Verdict.EXCLUDE and decision.rules == (rules.gate.id,)


def draft(candidate: Candidate, rules: ScopeRules) -> dict[str, Any]:
    """A screening record as the policy asks for, `decision` left to the maintainer unless the
    gate excluded the paper; curator's suggestion rides under `curator`."""
    meta, decision = candidate.meta, candidate.decision
    abstract = str(meta.get("abstract", ""))
    gate = gate_excluded(candidate, rules)
    record: dict[str, Any] = {
        "id": candidate.id,
        "title": str(meta.get("title", "")),
        "policy_version": rules.policy,
        "decision": "exclude" if gate else "",
        "reading_scope": "abstract",
        "reason": decision.reason if gate else f"draft from curator: {decision.reason}",
        "source_url": f"https://arxiv.org/abs/{candidate.id}",
        "abstract": abstract,
        "source_sha256": hashlib.sha256(abstract.encode("utf-8")).hexdigest(),
        "hash_basis": HASH_BASIS,
        "v1_utc": str(meta.get("published_at", "")),
    }
    memory = next((q for q in decision.quotes if q.rule == rules.gate.id), None)
    if memory is not None:
        record["memory_focus_quote"] = memory.text
        record["memory_focus_reason"] = _focus_reason(decision, rules)
    record["curator"] = {
        "verdict": decision.verdict.value,
        "group": candidate.group.value,
        "rules": list(decision.rules),
        "track": decision.track or None,
        "version": int(meta.get("version", 1)),
    }
    return record


def _focus_reason(decision: Decision, rules: ScopeRules) -> str:
    """A draft memory_focus_reason: the descriptions of the rules that matched."""
    described = [
        f"{rule.id}: {rule.describe().rstrip('.')}"
        for rule_id in decision.rules
        if rule_id != rules.gate.id and (rule := rules.by_id(rule_id)) is not None
    ]
    text = "; ".join(described) or decision.reason
    return f"draft from curator, to be confirmed by a maintainer: {text}"

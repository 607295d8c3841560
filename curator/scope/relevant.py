"""The relevance stage: a pull request's papers against the list they join.

In pull-request mode every new or changed paper is scored against the list's other papers
(`curator.scope.relevance`). A list without a scope policy gets its scope from this alone:
a paper unlike anything in the list is a `scope-review` warning naming its nearest listed
papers; any other paper gets no finding. A list with a policy keeps the policy's verdicts;
its scope findings gain the same "most like …" evidence. A full run scores nothing: the
papers a list holds are its scope.

The model is learned from what the run already has, with no request of its own: the titles
as the list gives them, the papers of the field the cache holds (and a small shipped set) as
background, and the screening records (includes join the listed papers, excludes the
background). It reads titles only: every listed paper has one (an abstract only where the
cache holds it), so all are compared alike; it is what the evaluation measured; and reading
abstracts took 1.2–1.7 s on a list of 5,000 papers, beyond a pull request's time. What it
learned is kept in the cache under a digest of all of its inputs.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from functools import cache as cache_result
from importlib import resources

from curator.checks.interface import CheckContext
from curator.core.decision import Decision
from curator.core.meta import PaperMeta, paper_meta
from curator.core.model import Entry, EntryResult, Finding, Kind, Service, Verdict
from curator.core.outcomes import Found, Moved, Outcome
from curator.core.subjects import arxiv_subject, is_paper
from curator.net.cache import Cache
from curator.scope.decided import Recorded, settle
from curator.scope.records import Record
from curator.scope.relevance import Model, Paper, Relevance, build, digest
from curator.scope.relevance import restore as restore_model
from curator.scope.stage import scope_finding
from curator.textio import json_text

#: The id under which relevance names itself in a decision's rules and quotes.
RULE = "list-relevance"
#: The cache's kind for learned models (`Cache.keep`: no TTL, the key names every input).
KEPT = "relevance"
#: Background papers read from the cache at most (the newest stored).
BACKGROUND = 2000
#: The shipped background's file in curator/presets.
SHIPPED = "relevance-background.json"


def relevance(
    listed: Sequence[Entry],
    results: Sequence[EntryResult],
    findings: Sequence[Finding],
    outcomes: Mapping[str, Outcome],
    ctx: CheckContext,
    cache: Cache,
    records: Sequence[Record] | None = None,
    recorded: Mapping[str, Recorded] | None = None,
    *,
    has_policy: bool = False,
) -> tuple[list[EntryResult], list[Finding]]:
    """The scope stage's results and findings with the pull request's papers scored.
    `recorded`: the maintainers' decisions by subject; a decided paper gets the decision, not
    the model's verdict (with a policy the scope stage has already settled it). `has_policy`:
    the run has a scope policy (rules/scope.yaml or a preset)."""
    chosen = {r.entry.subject for r in results if r.entry.kind is Kind.PAPER}
    # With a policy, only the papers it has a scope finding for gain evidence.
    wanted = {f.subject for f in findings if f.code.startswith("scope-")} if has_policy else chosen
    if not ctx.options.changed_since or ctx.options.skips(Service.SCOPE) or not wanted & chosen:
        return list(results), list(findings)
    others = [e for e in listed if e.kind is Kind.PAPER and e.subject not in chosen]
    model = learn(others, records or (), cache, chosen)
    if model is None:
        return list(results), list(findings)
    scored = {
        r.entry.subject: model.score(query(r.entry, outcomes.get(r.entry.subject)))
        for r in results
        if r.entry.subject in wanted
        and r.entry.kind is Kind.PAPER
        and _readable(r.entry, outcomes.get(r.entry.subject))
    }
    if has_policy:
        return list(results), [_with_evidence(f, scored) for f in findings]
    new_results, new_findings = [], list(findings)
    for result in results:
        rel = scored.get(result.entry.subject)
        if rel is None:
            new_results.append(result)
            continue
        decision = decision_of(rel)
        settled = (recorded or {}).get(result.entry.subject)
        if settled is not None:
            decision = settle(decision, settled)
            found = scope_finding(result.entry, decision, ctx)
        else:
            found = _finding(result.entry, decision, rel, ctx) if decision.code else None
        new_results.append(replace(result, verdict=decision.verdict, scope=decision))
        if found is not None:
            new_findings.append(found)
    return new_results, new_findings


def learn(
    entries: Sequence[Entry],
    records: Sequence[Record],
    cache: Cache,
    scored: Collection[str] = (),
    *,
    from_cache: bool = True,
) -> Model | None:
    """The model of these listed entries (the cache's, or learned now and kept); the papers
    being `scored` are never part of it, not even as background. Without `from_cache` the
    background is the shipped one alone: a model that depends on the list only (discover's
    query words, which must not drift as the cache fills, or its days would be asked again)."""
    listed = [Paper(e.subject, e.title, "", e.section) for e in entries]
    background: list[Paper] = []
    for record in records:
        if arxiv_subject(record.id) in scored:
            continue
        paper = Paper(arxiv_subject(record.id), str(record.data.get("title", "")))
        (listed if record.decision == "include" else background).append(paper)
    known = {p.key for p in listed}
    stored = cache.latest("arxiv", BACKGROUND) if from_cache else {}
    for key, value in stored.items():
        if key not in known and key not in scored and value.get("title"):
            background.append(Paper(key, str(value["title"])))
    background += [p for p in shipped_background() if p.key not in scored]
    key = digest(listed, background, False)
    kept = cache.recall(KEPT, [key]).get(key)
    model = restore_model(kept, listed, background) if kept is not None else None
    if model is None:
        model = build(listed, background)
        if model is not None:
            cache.keep(KEPT, [(key, model.as_dict())])
    return model


@cache_result
def shipped_background() -> tuple[Paper, ...]:
    """The small background curator ships (`presets/relevance-background.json`): titles of
    papers of the field that a list's screening did not take, for a cache that holds few."""
    raw = resources.files("curator.presets").joinpath(SHIPPED).read_text(encoding="utf-8")
    data = json_text.loads(raw)
    return tuple(Paper(arxiv_subject(i), str(t)) for i, t in data["papers"])


def _meta(outcome: Outcome | None) -> PaperMeta:
    return paper_meta(outcome.meta) if isinstance(outcome, Found | Moved) else PaperMeta()


def _readable(entry: Entry, outcome: Outcome | None) -> bool:
    """True when there is a title to read: arXiv's, or for a paper elsewhere the list's own.
    An arXiv paper arXiv does not answer for is the `arxiv-*` finding's alone."""
    if is_paper(entry.subject):
        return bool(_meta(outcome).title)
    return bool(entry.title.strip())


def query(entry: Entry, outcome: Outcome | None) -> Paper:
    """The scored paper: the official title, else the list's."""
    title = _meta(outcome).title or entry.title
    return Paper(entry.subject, title, "", entry.section)


def decision_of(rel: Relevance) -> Decision:
    """The scope decision of a list without a policy: include, or review when the paper is
    unlike anything in the list (a warning, never an error). No quote: the title is what was
    compared, and the reason names the listed papers it was compared with."""
    if rel.unlike:
        reason = f"unlike anything in the list: {rel.like()} ({rel.measure()})"
        return Decision(
            verdict=Verdict.REVIEW,
            rules=(RULE,),
            quotes=(),
            reading_scope="title_topic_screen",
            reason=reason,
            code="scope-review",
            severity="warning",
        )
    reason = f"like the list: {rel.like()} ({rel.measure()})"
    return Decision(Verdict.INCLUDE, (RULE,), (), "title_topic_screen", reason)


def _finding(entry: Entry, decision: Decision, rel: Relevance, ctx: CheckContext) -> Finding:
    """The `scope-review` warning of a paper unlike anything in the list."""
    return ctx.finding(
        "scope-review",
        entry.subject,
        entry.source,
        "unlike anything in the list: a maintainer decides whether it belongs",
        evidence=f"{rel.like()}; {rel.measure()}",
    )


def _with_evidence(finding: Finding, scored: Mapping[str, Relevance]) -> Finding:
    """A policy's scope finding with the relevance evidence added."""
    rel = scored.get(finding.subject)
    if rel is None or not finding.code.startswith("scope-"):
        return finding
    evidence = f"{finding.evidence}; {rel.like()}" if finding.evidence else rel.like()
    return replace(finding, evidence=evidence)

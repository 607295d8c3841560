"""Hand-built Reports for renderer tests: a realistic pull request and a hostile entry."""

from __future__ import annotations

from curator.core.decision import Decision, Quote
from curator.core.model import (
    Entry,
    EntryResult,
    Finding,
    Kind,
    Report,
    RequestCounts,
    Severity,
    Source,
    Verdict,
)
from curator.report.render_context import RenderContext

HOSTILE = (
    "Memory @maintainer @org/team <img src=x onerror=alert(1)> fixes #1 closes owner/repo#2 "
    "a|b <!-- hidden --> [link](javascript:alert(1)) ![i](https://e.x/p.png) "
    "<https://evil.example> https://evil.example www.evil.example\n```\n# Heading\r\n"
    "::error::injected %0A"
)

CTX = RenderContext(
    repository="acme/awesome-llm-memory",
    head_sha="4f2b1c9d0e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c",
    run_url="https://github.com/acme/awesome-llm-memory/actions/runs/123456789",
    changed_only=True,
    title="curator: 3 changed entries",
)


def _decision(rule: str, quote: str) -> Decision:
    """A scope decision naming `rule` and quoting `quote` from the abstract."""
    return Decision(
        Verdict.REVIEW,
        (rule,),
        (Quote("abstract", 0, len(quote), quote, rule),),
        "abstract",
        f"{rule} matched",
    )


def _paper(line: int, arxiv: str, title: str) -> Entry:
    return Entry(f"arxiv:{arxiv}", Kind.PAPER, Source("data/papers/2024.yaml", line), title)


def realistic_report() -> Report:
    """A PR adding two papers and a project: a title mismatch, a moved repo, a scope review."""
    memgpt = _paper(12, "2310.08560", "MemGPT: LLMs as Operating Systems")
    rag = _paper(30, "2005.11401", "Retrieval-Augmented Generation for NLP Tasks")
    mem0 = Entry("github:mem0ai/mem0", Kind.PROJECT, Source("data/projects.yaml", 48), "Mem0")
    entries = (
        EntryResult(
            memgpt,
            {
                "arxiv:2310.08560": {
                    "id": "2310.08560",
                    "title": "MemGPT: Towards LLMs as Operating Systems",
                    "published": "2023-10-12T17:51:32Z",
                    "primary_category": "cs.AI",
                }
            },
            Verdict.INCLUDE,
        ),
        EntryResult(
            rag,
            {
                "arxiv:2005.11401": {
                    "id": "2005.11401",
                    "published": "2020-05-22T05:52:22Z",
                    "primary_category": "cs.CL",
                }
            },
            Verdict.REVIEW,
            _decision(
                "exclude-generic-rag",
                "retrieval-augmented generation for knowledge-intensive NLP tasks",
            ),
        ),
        EntryResult(
            mem0,
            {
                "github:mem0ai/mem0": {
                    "name_with_owner": "mem0ai/mem0",
                    "stars": 41234,
                    "forks": 4321,
                    "license": "Apache-2.0",
                    "pushed_at": "2026-11-28T09:12:00Z",
                    "archived": False,
                }
            },
            Verdict.INCLUDE,
        ),
    )
    findings = (
        Finding(
            "arxiv-title-mismatch",
            Severity.ERROR,
            memgpt.subject,
            memgpt.source,
            "The title differs from arXiv's.",
            "MemGPT: Towards LLMs as Operating Systems",
            "MemGPT: Towards LLMs as Operating Systems",
        ),
        Finding(
            "scope-review",
            Severity.WARNING,
            rag.subject,
            rag.source,
            "Matches an exclusion signal; a maintainer should decide.",
            "retrieval-augmented generation for knowledge-intensive NLP tasks",
        ),
        Finding(
            "repo-moved",
            Severity.WARNING,
            mem0.subject,
            mem0.source,
            "The repository was renamed.",
            "",
            "https://github.com/mem0ai/mem0-core",
        ),
        Finding(
            "link-redirect",
            Severity.INFO,
            "https://mem0.ai",
            mem0.source,
            "Permanent redirect.",
            "",
            "https://www.mem0.ai/",
        ),
    )
    requests = RequestCounts(arxiv=1, github_graphql=1, github_rest=1, web=2, cache_hits=3)
    return Report(entries, findings, requests, ("GitHub token present.",), 4.27)


def clean_report() -> Report:
    """The same entries with nothing wrong."""
    base = realistic_report()
    entries = tuple(EntryResult(r.entry, r.metadata, Verdict.INCLUDE) for r in base.entries)
    return Report(entries, (), base.requests, (), 2.5)


def hostile_report() -> Report:
    """One entry whose every string is an attack on the rendered output."""
    src = Source("data/papers/x.yaml", 7)
    entry = Entry("arxiv:2401.00001", Kind.PAPER, src, HOSTILE, summary=HOSTILE)
    meta = {
        "arxiv:2401.00001": {"id": HOSTILE, "published": HOSTILE, "primary_category": HOSTILE},
        "github:x/y": {"license": HOSTILE, "stars": HOSTILE, "pushed_at": HOSTILE},
    }
    result = EntryResult(entry, meta, Verdict.EXCLUDE, _decision(HOSTILE, HOSTILE))
    findings = tuple(
        Finding(code, sev, entry.subject, src, HOSTILE, HOSTILE, HOSTILE)
        for code, sev in (
            ("arxiv-title-mismatch", Severity.ERROR),
            ("link-redirect", Severity.INFO),
        )
    )
    return Report((result,), findings, RequestCounts(), (HOSTILE,), 0.1)

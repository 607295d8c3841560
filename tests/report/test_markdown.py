"""The PR comment: marker, verdict, tables, links, metadata, footer and the size limit."""

from __future__ import annotations

import re
from dataclasses import replace

from markdown_it import MarkdownIt

from curator.core.model import Finding, Report, Severity, Source
from curator.report import markdown
from curator.report.render_context import RenderContext
from tests.report.sample import CTX, clean_report, hostile_report, realistic_report

MD = MarkdownIt("commonmark").enable("table")


def test_marker_first_and_verdict() -> None:
    """The hidden marker opens the comment; the verdict line counts by severity."""
    body = markdown.render(realistic_report(), CTX)
    assert body.startswith(markdown.MARKER + "\n")
    assert markdown.CLEAN_MARKER not in body
    assert "1 error · 2 warnings · 1 note" in body
    assert "3 changed entries" in body


def test_rows_link_to_head_blob() -> None:
    """Each problem names file:line linked to the PR head, and the suggested fix."""
    body = markdown.render(realistic_report(), CTX)
    url = f"https://github.com/{CTX.repository}/blob/{CTX.head_sha}/data/papers/2024.yaml#L12"
    assert f"]({url})" in body
    assert "`https://github.com/mem0ai/mem0-core`" in body
    assert "`MemGPT: Towards LLMs as Operating Systems`" in body


def test_scope_evidence_and_metadata() -> None:
    """Scope verdicts quote their evidence; metadata shows id, date, category, stars."""
    body = markdown.render(realistic_report(), CTX)
    assert "**review**" in body and "`exclude-generic-rag`" in body
    assert "| `2310.08560` | 2023-10-12 | `cs.AI` |" in body
    assert "| 41,234 | 4,321 | Apache-2.0 | 2026-11-28 |" in body


def test_footer_counts_requests_and_time() -> None:
    """The footer says how many requests went to each service and how long it took."""
    body = markdown.render(realistic_report(), CTX)
    assert "arXiv 1 · GitHub GraphQL 1 · GitHub REST 1 · web 2 · cache hits 3 · 4.3 s" in body


def test_clean_report_says_so() -> None:
    """A clean report carries the clean marker and a ✅ verdict, no problem table."""
    body = markdown.render(clean_report(), CTX)
    assert markdown.CLEAN_MARKER in body and "✅ No problems found" in body
    assert "What is wrong" not in body


def test_tolerates_missing_metadata_keys() -> None:
    """Metadata without the usual keys, or not a dict at all, renders without error."""
    base = realistic_report()
    odd = replace(base.entries[0], metadata={"arxiv:1": "unverified", "github:a/b": {}})
    body = markdown.render(replace(base, entries=(odd,)), RenderContext())
    assert body.startswith(markdown.MARKER)


def test_no_blob_link_without_repository() -> None:
    """Without repository and commit the entry is plain text, not a dead link."""
    body = markdown.render(realistic_report(), RenderContext())
    assert "/blob/" not in body and "data/papers/2024.yaml" in body


def _big_report(n: int) -> Report:
    base = realistic_report()
    findings = tuple(
        Finding(
            "repo-stale",
            Severity.WARNING,
            f"github:o/r{i}",
            Source("data/p.yaml", i + 1),
            "No push for 900 days. " * 8,
        )
        for i in range(n)
    )
    return replace(base, findings=base.findings + findings)


def test_shortened_in_stages_under_limit() -> None:
    """Past the limit, metadata goes first, then details, then rows with '… N more'."""
    report = _big_report(400)
    full = markdown.compose(report, CTX, markdown.Shape())
    assert len(full) > markdown.LIMIT
    body = markdown.render(report, CTX)
    assert len(body) <= markdown.LIMIT
    assert "Metadata of" not in body and "<details>" not in body
    assert re.search(r"… \d+ more", body)
    assert "full report is in [the workflow run's artifacts](" in body


def test_first_stage_drops_metadata_only() -> None:
    """A report just over the limit loses its metadata table and keeps its rows."""
    report = realistic_report()
    full = markdown.render(report, CTX, limit=100_000)
    body = markdown.render(report, CTX, limit=len(full) - 1)
    assert "Metadata of" not in body and "1 note · 1 run note" in body and "more |" not in body


def test_the_notes_block_counts_what_the_verdict_line_calls_notes() -> None:
    """The verdict line's notes are the info findings; the folded block counts those and the
    run's notes apart, so a report with none of the one never says "0 notes", then "1 note"."""
    report = realistic_report()
    without_infos = replace(
        report, findings=tuple(f for f in report.findings if f.severity is not Severity.INFO)
    )
    body = markdown.render(without_infos, CTX)
    assert "· 0 notes." in body and "<summary>1 run note</summary>" in body
    body = markdown.render(replace(report, notes=()), CTX)
    assert "· 1 note." in body and "<summary>1 note</summary>" in body


def test_hostile_entry_is_inert() -> None:
    """The hostile entry pings no one, links nothing, hides nothing, breaks no table."""
    body = markdown.render(hostile_report(), CTX)
    html = MD.render(body)
    # GitHub finds no mention, reference or autolink inside <code>, so only text outside counts.
    text = re.sub(r"<[^>]+>", "", re.sub(r"<code>.*?</code>", "", html, flags=re.S))
    assert not re.search(r"@maintainer|@org|#1\b|repo#2|https://evil|www\.evil", text)
    assert "<img" not in html and "javascript:" not in html.split('href="')[-1][:12]
    assert "<!-- hidden" not in html and "<pre" not in html and "<h1" not in html
    hrefs = re.findall(r'href="([^"]+)"', html)
    assert hrefs and all(h.startswith("https://github.com/acme/") for h in hrefs)
    for table in re.findall(r"<table>.*?</table>", html, re.S):
        rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
        widths = {len(re.findall(r"<t[hd]", r)) for r in rows}
        assert len(widths) == 1


def test_an_exclusion_no_hard_rule_makes_is_a_likely_exclude_in_the_scope_table() -> None:
    """Issue 31: a class of the policy that is not a hard rule is a review, and the Scope
    table says so; an exclusion by a hard rule stays `exclude`."""
    from curator.core.decision import Decision
    from curator.core.model import EntryResult, Verdict

    report = realistic_report()
    result = next(r for r in report.entries if r.scope is not None)
    likely = Decision(Verdict.EXCLUDE, ("robot-control",), (), "abstract", "likely exclude: x",
                      "scope-review", "warning")  # fmt: skip
    hard = replace(likely, code="scope-exclude", severity="error", reason="no memory word")
    rows = []
    for decision in (likely, hard):
        entry = EntryResult(result.entry, {}, Verdict.EXCLUDE, decision)
        body = markdown.render(replace(report, entries=(entry,)), CTX)
        rows.append(next(line for line in body.splitlines() if "`robot-control`" in line))
    assert "| **likely exclude** |" in rows[0]
    assert "| **exclude** |" in rows[1]

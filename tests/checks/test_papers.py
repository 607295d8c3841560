"""check_paper: each kind of wrong paper yields exactly its finding; good papers yield none."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from curator.checks.interface import CheckContext
from curator.checks.papers import check_paper, date_span
from curator.config.options import Options
from curator.core.codes import CODES
from curator.core.meta import PaperMeta
from curator.core.model import Entry, Kind, Link, Service, Severity, Source
from curator.core.outcomes import Counter, Found, NotFound, Outcome, Unverified
from curator.net.cache import Cache
from curator.resolvers.arxiv import ArxivResolver
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer

SRC = Source("data/papers.yaml", 12)
TITLE = "MemoryBank: Enhancing Large Language Models with Long-Term Memory"


def paper_entry(base: str, title: str = TITLE, date: str = "2023-05-17", **kw: Any) -> Entry:
    subject = f"arxiv:{base}"
    link = Link("paper", f"https://arxiv.org/abs/{base}", subject, Service.ARXIV)
    return Entry(subject, Kind.PAPER, SRC, title=title, date=date, links=(link,), **kw)


def meta(base: str = "2305.10250", **kw: Any) -> PaperMeta:
    out: dict[str, Any] = {
        "id": base,
        "version": 1,
        "title": TITLE,
        "published": "2023-05-17",
        "published_at": "2023-05-17T17:59:46Z",
        "comment": "",
        "abstract": "We propose MemoryBank.",
        "withdrawn": False,
    }
    out.update(kw)
    return PaperMeta.from_cache(out)


def codes(entry: Entry, outcome: Outcome, ctx: CheckContext | None = None) -> list[str]:
    findings = check_paper(entry, {outcome.subject: outcome}, ctx or CheckContext())
    return [f.code for f in findings]


S = "arxiv:2305.10250"


def test_good_paper_has_no_findings() -> None:
    assert codes(paper_entry("2305.10250"), Found(S, meta())) == []


def test_lookalike_title_is_no_mismatch() -> None:
    entry = paper_entry(
        "2305.10250", title="{MemoryBank}: enhancing large language models with long term memory."
    )
    assert codes(entry, Found(S, meta())) == []


def test_retitled_paper() -> None:
    listed = "MemoryBank: Enhancing Large Language Models with Long-Term Memory Storage"
    findings = check_paper(
        paper_entry("2305.10250", title=listed), {S: Found(S, meta())}, CheckContext()
    )
    assert [f.code for f in findings] == ["arxiv-title-mismatch"]
    f = findings[0]
    assert f.severity is Severity.ERROR
    assert f.suggestion == TITLE
    assert listed in f.evidence and TITLE in f.evidence
    assert f.subject == S and f.source == SRC
    assert "another paper" not in f.message


def test_another_papers_title_is_never_suggested() -> None:
    """Few words in common: the ID names another paper; its title is no fix for the entry."""
    entry = paper_entry("2305.10250", title="Chatbots with Long-Term Memory Banks")
    findings = check_paper(entry, {S: Found(S, meta())}, CheckContext())
    assert [f.code for f in findings] == ["arxiv-title-mismatch"]
    f = findings[0]
    assert f.suggestion == ""
    assert "likely names another paper" in f.message
    assert "Chatbots with Long-Term Memory Banks" in f.evidence and TITLE in f.evidence


def test_withdrawn_paper() -> None:
    notice = "This paper has been withdrawn by the author"
    findings = check_paper(
        paper_entry("2305.10250"),
        {S: Found(S, meta(version=3, withdrawn=True, comment=notice))},
        CheckContext(),
    )
    assert [f.code for f in findings] == ["arxiv-withdrawn"]
    assert "v3" in findings[0].message and findings[0].evidence == notice


def test_misdated_paper() -> None:
    findings = check_paper(
        paper_entry("2305.10250", date="2023-07-01"), {S: Found(S, meta())}, CheckContext()
    )
    assert [f.code for f in findings] == ["arxiv-date-mismatch"]
    assert findings[0].severity is Severity.WARNING
    assert findings[0].suggestion == "2023-05-17"


@pytest.mark.parametrize(
    ("date", "ok"),
    [
        ("2023-05-17", True),
        ("2023-05-24", True),  # 7 days: within the tolerance
        ("2023-05-10", True),
        ("2023-05-25", False),
        ("2023-05-09", False),
        ("2023-05", True),
        ("2023-06", False),  # 2023-06-01 is 15 days after the v1 date
        ("2023", True),
        ("2022", False),
        ("2023/05/17", True),
        ("", True),  # no date: nothing to compare
        ("spring 2023", True),  # unreadable: entry-invalid's business, not this check's
    ],
)
def test_date_tolerance(date: str, ok: bool) -> None:
    result = codes(paper_entry("2305.10250", date=date), Found(S, meta()))
    assert result == ([] if ok else ["arxiv-date-mismatch"])


def test_date_tolerance_is_configurable() -> None:
    ctx = CheckContext(options=replace(Options(), date_tolerance_days=30))
    assert codes(paper_entry("2305.10250", date="2023-06-10"), Found(S, meta()), ctx) == []


def test_month_precision_suggestion_keeps_the_precision() -> None:
    findings = check_paper(
        paper_entry("2305.10250", date="2024-01"), {S: Found(S, meta())}, CheckContext()
    )
    assert findings[0].suggestion == "2023-05"


def test_unknown_paper() -> None:
    findings = check_paper(
        paper_entry("2305.10250"), {S: NotFound(S, "no such paper")}, CheckContext()
    )
    assert [f.code for f in findings] == ["arxiv-not-found"]
    assert findings[0].severity is Severity.ERROR


def test_unverified_paper_is_a_warning_only() -> None:
    findings = check_paper(
        paper_entry("2305.10250"), {S: Unverified(S, "HTTP 503")}, CheckContext()
    )
    assert [f.code for f in findings] == ["arxiv-unverified"]
    assert findings[0].severity is Severity.WARNING
    assert findings[0].evidence == "HTTP 503"


def test_no_outcome_no_finding() -> None:
    assert check_paper(paper_entry("2305.10250"), {}, CheckContext()) == []


def test_project_arxiv_link_is_checked_but_not_its_title_or_date() -> None:
    link = Link("paper", "https://arxiv.org/abs/2305.10250", S, Service.ARXIV)
    project = Entry("github:zhongwanjun/memorybank-siliconfriend", Kind.PROJECT, SRC,
                    title="SiliconFriend", date="2020-01-01", links=(link,))  # fmt: skip
    assert check_paper(project, {S: Found(S, meta())}, CheckContext()) == []
    assert codes(project, NotFound(S)) == ["arxiv-not-found"]
    assert codes(project, Found(S, meta(withdrawn=True))) == ["arxiv-withdrawn"]


def test_configured_severity_is_used() -> None:
    ctx = CheckContext(options=replace(Options(), severity={"arxiv-date-mismatch": Severity.ERROR}))
    entry = paper_entry("2305.10250", date="2020-01-01")
    findings = check_paper(entry, {S: Found(S, meta())}, ctx)
    assert findings[0].severity is Severity.ERROR


def test_only_known_codes() -> None:
    entry = paper_entry("2305.10250", title="Other", date="2001")
    outcomes: list[Outcome] = [Found(S, meta(withdrawn=True)), NotFound(S), Unverified(S, "x")]
    for outcome in outcomes:
        assert all(code in CODES for code in codes(entry, outcome))


def test_date_span() -> None:
    assert str(date_span("2024-02")) == "(datetime.date(2024, 2, 1), datetime.date(2024, 2, 29))"
    assert date_span("2024-13") is None
    assert date_span("2024-02-30") is None


# -- end to end through the resolver and the arXiv double ---------------------------------------
def test_each_wrong_paper_yields_exactly_its_finding(
    loopback: LoopbackServer, tmp_path: Path
) -> None:
    memgpt = "MemGPT: Towards LLMs as Operating Systems"
    agents = "Generative Agents: Interactive Simulacra of Human Behavior"
    reflexion = "Reflexion: Language Agents with Verbal Reinforcement Learning"
    withdrawal = "This paper has been withdrawn by the authors."
    double = ArxivDouble(
        {
            "2305.10250": Paper("2305.10250", TITLE, published="2023-05-17T17:59:46Z"),
            "2310.08560": Paper("2310.08560", memgpt, published="2023-10-12T17:51:32Z", version=2),
            "2304.03442": Paper(
                "2304.03442", agents, published="2023-04-07T14:26:09Z", comment=withdrawal
            ),
            "2303.11366": Paper("2303.11366", reflexion, published="2023-03-20T18:08:50Z"),
        }
    )
    url = double.install(loopback)
    entries = {
        "good": paper_entry("2305.10250", title=TITLE.lower().replace("-", " ")),
        "retitled": paper_entry("2310.08560", title="MemGPT: LLMs as Memory Managers"),
        "withdrawn": paper_entry("2304.03442", title=agents, date="2023-04"),
        "misdated": paper_entry("2303.11366", title=reflexion.upper(), date="2023-10-01"),
        "unknown": paper_entry("2312.99999", title="No Such Paper"),
    }
    entries["retitled"] = replace(entries["retitled"], date="2023-10-12")
    entries["unknown"] = replace(entries["unknown"], date="2023-12-01")
    options = replace(Options(), arxiv_api_url=url, arxiv_delay=0.0)
    counter = Counter()
    resolver = ArxivResolver(options, Cache(tmp_path / "c.sqlite"), counter)
    outcomes = resolver.resolve([e.subject for e in entries.values()])
    assert len(double.requests()) == 1 == counter.get("arxiv")
    ctx = CheckContext(options=options)
    got = {name: [f.code for f in check_paper(e, outcomes, ctx)] for name, e in entries.items()}
    assert got == {
        "good": [],
        "retitled": ["arxiv-title-mismatch"],
        "withdrawn": ["arxiv-withdrawn"],
        "misdated": ["arxiv-date-mismatch"],
        "unknown": ["arxiv-not-found"],
    }


@pytest.mark.slow
def test_outage_yields_unverified_warnings_only(loopback: LoopbackServer, tmp_path: Path) -> None:
    double = ArxivDouble({"2305.10250": Paper("2305.10250", TITLE)})
    url = double.install(loopback)
    double.fail(*["503"] * 10)
    options = replace(Options(), arxiv_api_url=url, arxiv_delay=0.01, service_budget=1.0)
    outcomes = ArxivResolver(options, Cache(None), Counter()).resolve([S])
    findings = check_paper(paper_entry("2305.10250"), outcomes, CheckContext(options=options))
    assert [(f.code, f.severity) for f in findings] == [("arxiv-unverified", Severity.WARNING)]


@pytest.mark.parametrize(
    ("date", "published", "ok"),
    [
        ("2023-05", "2023-05-31", True),  # listed in its own month
        ("2023-06", "2023-05-29", True),  # the month after, within the tolerance of its end
        ("2023-04", "2023-05-02", False),  # a month before the v1 month: impossible
        ("2023-04", "2023-04-30", True),
        ("2022", "2023-01-03", False),  # a year before, likewise
        ("2024", "2023-10-02", True),  # a year alone may be the venue's, the year after
        ("2025", "2023-10-02", False),
    ],
)
def test_a_month_is_compared_at_month_precision(date: str, published: str, ok: bool) -> None:
    outcome = Found(S, meta(published=published, published_at=f"{published}T12:00:00Z"))
    result = codes(paper_entry("2305.10250", date=date), outcome)
    assert result == ([] if ok else ["arxiv-date-mismatch"])


def test_a_short_name_is_not_compared_with_the_title() -> None:
    named = paper_entry("2305.10250", title="MemoryBank", short_title=True)
    assert codes(named, Found(S, meta(title="Something Else Entirely"))) == []
    # The same words as a title (from bold text or a title column) are compared.
    titled = paper_entry("2305.10250", title="MemoryBank")
    assert codes(titled, Found(S, meta())) == ["arxiv-title-mismatch"]


def test_a_listing_that_links_a_paper_named_properly_elsewhere_is_a_reference() -> None:
    """A projects table row (its own name, description and date) linking a paper the list
    names by its title elsewhere: its title and date are not the paper's to compare."""
    row = paper_entry("2305.10250", title="A memory layer for chat apps", date="2026-06")
    both = CheckContext(listings={S: ("A memory layer for chat apps", TITLE)})
    assert codes(row, Found(S, meta()), both) == []
    alone = CheckContext(listings={S: ("A memory layer for chat apps", "Another wrong title")})
    assert codes(row, Found(S, meta()), alone) == ["arxiv-title-mismatch", "arxiv-date-mismatch"]
    # The listing with the paper's title is still checked (its date here is off).
    proper = paper_entry("2305.10250", date="2024-05")
    assert codes(proper, Found(S, meta()), both) == ["arxiv-date-mismatch"]


def test_a_title_of_the_same_name_says_it_may_be_retitled() -> None:
    """`MemoryBank: …` against `MemoryBank: …` with most words changed: no suggestion (it may be
    another paper of that name), and the message says both are possible."""
    entry = paper_entry("2305.10250", title="MemoryBank: Long-Term Memory for Chatbots")
    plain = paper_entry("2305.10250", title="Long-Term Memory for Chatbots and Assistants Today")
    named = check_paper(entry, {S: Found(S, meta())}, CheckContext())[0]
    other = check_paper(plain, {S: Found(S, meta())}, CheckContext())[0]
    assert named.suggestion == "" and "retitled, or another paper of the same name" in named.message
    assert "likely names another paper" in other.message

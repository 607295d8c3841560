"""ArxivTitles against the loopback arXiv double: titles asked in one search per 20, matched
exactly, kept in the cache; an outage or refusal leaves them unverified and uncached."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from curator.checks.titles import titles_match
from curator.config.options import Options
from curator.core.outcomes import Counter, Found, NotFound, Unverified
from curator.fix.run import title_subject
from curator.net.cache import Cache
from curator.resolvers.arxiv_titles import MAX_QUERY, PER_QUERY, ArxivTitles, batches, query
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer

TITLE = "MemGPT: Towards LLMs as Operating Systems"


@pytest.fixture
def double(loopback: LoopbackServer) -> ArxivDouble:
    arxiv = ArxivDouble()
    arxiv.install(loopback)
    arxiv.papers["2310.08560"] = Paper("2310.08560", TITLE, published="2023-10-12T17:51:32Z")
    arxiv.papers["2401.00001"] = Paper(
        "2401.00001", "MemGPT Towards LLMs as Operating Systems: A Reply"
    )
    arxiv.papers["2402.00001"] = Paper("2402.00001", "Twin Title Paper About Agent Memory")
    arxiv.papers["2402.00002"] = Paper("2402.00002", "Twin Title Paper about Agent Memory")
    return arxiv


def searcher(double: ArxivDouble, tmp: Path, **changes: object) -> tuple[ArxivTitles, Counter]:
    counter = Counter()
    settings: dict[str, object] = {
        "arxiv_api_url": double.server.url + "/api/query",
        "arxiv_delay": 0.0,
        "service_budget": 10.0,
        "timeout": 5.0,
        **changes,
    }
    options = replace(Options(), **settings)  # type: ignore[arg-type]
    return ArxivTitles(options, Cache(tmp / "cache.sqlite"), counter, match=titles_match), counter


def test_one_search_for_many_titles_and_exact_matches_only(
    double: ArxivDouble, tmp_path: Path
) -> None:
    titles = [TITLE, "Twin Title Paper About Agent Memory", "A Title No Paper Carries At All"]
    subjects = [title_subject(t) for t in titles]
    titles_searcher, counter = searcher(double, tmp_path)
    got = titles_searcher.resolve(subjects)
    assert len(double.searches()) == 1 and counter.get("arxiv") == 1
    one = got[subjects[0]]
    assert isinstance(one, Found)
    assert [p["id"] for p in one.meta["papers"]] == ["2310.08560"]  # not the "Reply" paper
    two = got[subjects[1]]
    assert isinstance(two, Found) and len(two.meta["papers"]) == 2
    assert isinstance(got[subjects[2]], NotFound)
    # Kept: asked again, nothing is sent (a title no paper has: only for ttl_not_found).
    again, counter2 = searcher(double, tmp_path)
    assert again.resolve(subjects[:2]) == {s: got[s] for s in subjects[:2]}
    assert len(double.searches()) == 1 and counter2.get("cache_hits") == 2


def test_an_outage_leaves_every_title_unverified_and_nothing_kept(
    double: ArxivDouble, tmp_path: Path
) -> None:
    double.refuse_search = "too complex"
    subjects = [title_subject(TITLE)]
    titles_searcher, _ = searcher(double, tmp_path)
    got = titles_searcher.resolve(subjects)
    assert isinstance(got[subjects[0]], Unverified)
    assert titles_searcher.notes == [
        "arXiv's title search failed: arXiv refused the query: too complex"
    ]
    double.refuse_search = ""
    fresh, _ = searcher(double, tmp_path)
    assert isinstance(fresh.resolve(subjects)[subjects[0]], Found)


def test_offline_a_title_not_kept_is_unverified_and_nothing_is_sent(
    double: ArxivDouble, tmp_path: Path
) -> None:
    titles_searcher, counter = searcher(double, tmp_path, offline=True)
    subject = title_subject(TITLE)
    assert isinstance(titles_searcher.resolve([subject])[subject], Unverified)
    assert double.requests() == [] and counter.get("arxiv") == 0


def test_titles_are_grouped_into_short_queries() -> None:
    subjects = [title_subject(f"Paper number {i} about agent memory") for i in range(45)]
    groups = batches(subjects)
    assert [len(g) for g in groups] == [PER_QUERY, PER_QUERY, 5]
    assert query(groups[2][:2]) == (
        'ti:"paper number 40 about agent memory" OR ti:"paper number 41 about agent memory"'
    )
    long = [title_subject(("word " * 300) + str(i)) for i in range(3)]
    assert [len(g) for g in batches(long)] == [1, 1, 1]


@pytest.mark.slow
def test_all_the_searches_of_a_run_share_one_service_budget(
    double: ArxivDouble, tmp_path: Path
) -> None:
    """A pull request with a hundred entries whose IDs are wrong makes five searches of
    twenty titles. They share the service's one budget (as the ID batches do), not one
    each: with arXiv answering slowly, a 1.5 s budget sends two or three of them (all five
    were sent, one budget per search: a run's title search had no bound), and the titles
    not asked are unverified, never "not found"."""
    subjects = [title_subject(f"Paper Number {n} About Agent Memory") for n in range(100)]
    double.fail(*["slow:0.6"] * 5)
    titles_searcher, _ = searcher(double, tmp_path, service_budget=1.5)
    got = titles_searcher.resolve(subjects)
    assert 1 <= len(double.searches()) <= 3
    left = [s for s in subjects if isinstance(got[s], Unverified)]
    assert len(left) >= 40 and not any(isinstance(got[s], Found) for s in subjects)
    assert any("title search failed" in note for note in titles_searcher.notes)


def test_no_query_is_longer_than_the_bound_whatever_a_title_holds(
    double: ArxivDouble, tmp_path: Path
) -> None:
    """An entry whose 'title' runs to thousands of words is asked about alone in a query
    that long (a GET arXiv may refuse, which would leave the titles after it unasked). It
    is not searched; the others are, in one query within MAX_QUERY."""
    huge = title_subject("Memory " + "very " * 2000 + "long title")
    subjects = [huge, title_subject(TITLE)]
    titles_searcher, _ = searcher(double, tmp_path)
    got = titles_searcher.resolve(subjects)
    assert isinstance(got[huge], Unverified) and "too long" in got[huge].reason
    assert isinstance(got[subjects[1]], Found)
    (sent,) = double.searches()
    assert len(sent.query["search_query"][0]) <= MAX_QUERY


@pytest.mark.slow
def test_a_vague_title_costs_only_itself_and_the_later_titles_are_still_asked(
    double: ArxivDouble, tmp_path: Path
) -> None:
    """A query matching more than 500 papers is arXiv's answer, not an outage: its titles
    are asked again one at a time, the vague one alone is unverified, and every later
    batch is asked as usual."""
    for i in range(501):
        base = f"2403.{i:05d}"
        double.papers[base] = Paper(base, f"Large Language Model Agents With Memory {i}")
    vague = title_subject("Large Language Model Agents With Memory")
    fillers = [title_subject(f"A Title No Paper Carries Number {i}") for i in range(18)]
    twin = title_subject("Twin Title Paper About Agent Memory")
    subjects = [vague, title_subject(TITLE), *fillers, twin]
    assert [len(b) for b in batches(subjects)] == [PER_QUERY, 1]
    titles_searcher, counter = searcher(double, tmp_path)
    got = titles_searcher.resolve(subjects)
    found = got[title_subject(TITLE)]
    assert isinstance(found, Found) and found.meta["papers"][0]["id"] == "2310.08560"
    assert all(isinstance(got[s], NotFound) for s in fillers)
    assert isinstance(got[twin], Found) and len(got[twin].meta["papers"]) == 2
    assert isinstance(got[vague], Unverified) and "501 papers" in got[vague].reason
    assert counter.get("arxiv") == len(double.searches()) == 1 + PER_QUERY + 1
    assert titles_searcher.notes == []  # no outage to report

"""ArxivResolver against the loopback arXiv double: batching, cache, pacing, outages, 400s."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from curator.config.options import Options
from curator.core.meta import meta_json
from curator.core.model import Service
from curator.core.outcomes import Counter, Found, NotFound, Outcome, Unverified
from curator.net.cache import Cache
from curator.resolvers.arxiv import ArxivResolver
from curator.run import pipeline
from tests.conftest import API_SAMPLES
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer, Reply

RECORDINGS = API_SAMPLES / "arxiv"


def ids(n: int, start: int = 1) -> list[str]:
    """`n` well-formed new-style IDs."""
    return [f"2301.{i:05d}" for i in range(start, start + n)]


def papers(bases: list[str]) -> dict[str, Paper]:
    return {b: Paper(b, f"Paper {b}", version=2) for b in bases}


class Env:
    """A double on loopback plus what a resolver needs; `run` resolves with fresh objects."""

    def __init__(self, server: LoopbackServer, tmp: Path) -> None:
        self.double = ArxivDouble()
        self.url = self.double.install(server)
        self.cache = Cache(tmp / "cache.sqlite")
        self.counter = Counter()
        self.options = replace(
            Options(), arxiv_api_url=self.url, arxiv_delay=0.0, service_budget=10.0, timeout=5.0
        )

    def resolver(self, **changes: Any) -> ArxivResolver:
        return ArxivResolver(replace(self.options, **changes), self.cache, self.counter)

    def run(self, subjects: list[str], **changes: Any) -> dict[str, Outcome]:
        return self.resolver(**changes).resolve(subjects)


@pytest.fixture
def env(loopback: LoopbackServer, tmp_path: Path) -> Env:
    return Env(loopback, tmp_path)


def subjects(bases: list[str]) -> list[str]:
    return [f"arxiv:{b}" for b in bases]


def test_cold_run_of_500_ids_takes_five_batched_requests(env: Env) -> None:
    bases = ids(500)
    env.double.papers = papers(bases)
    out = env.run(subjects(bases))
    assert len(env.double.requests()) <= 6
    assert len(env.double.requests()) == 5
    assert env.counter.get("arxiv") == len(env.double.requests())
    assert all(isinstance(out[s], Found) for s in subjects(bases))
    asked = [i for batch in env.double.asked_ids() for i in batch]
    assert sorted(asked) == bases  # every ID once, base form, no version
    assert all(len(batch) <= 100 for batch in env.double.asked_ids())


def test_second_run_within_ttl_sends_nothing(env: Env) -> None:
    bases = ids(500)
    env.double.papers = papers(bases)
    env.run(subjects(bases))
    sent = len(env.double.requests())
    again = env.run(subjects(bases))
    assert len(env.double.requests()) == sent
    assert env.counter.get("cache_hits") == 500
    first = again[f"arxiv:{bases[0]}"]
    assert isinstance(first, Found)
    assert first.meta.title == f"Paper {bases[0]}"


def test_stale_cache_is_asked_again(env: Env) -> None:
    env.double.papers = papers(ids(3))
    env.run(subjects(ids(3)))
    env.run(subjects(ids(3)), ttl_arxiv=0.0)
    assert len(env.double.requests()) == 2
    assert env.counter.get("cache_hits") == 0


@pytest.mark.slow
def test_spacing_between_requests_is_at_least_the_delay(env: Env) -> None:
    bases = ids(8)
    env.double.papers = papers(bases)
    env.run(subjects(bases), arxiv_delay=0.2, arxiv_batch_size=2)
    gaps = env.double.gaps()
    assert len(gaps) == 3
    assert min(gaps) >= 0.2


def test_unknown_id_is_not_found_and_found_metadata_is_latest_version(env: Env) -> None:
    env.double.papers = {
        "2305.10250": Paper(
            "2305.10250",
            "MemoryBank: Enhancing Large Language Models with Long-Term Memory",
            version=3,
            published="2023-05-17T17:59:46Z",
            updated="2023-05-21T08:00:00Z",
            categories=("cs.CL", "cs.AI"),
            doi="10.1609/aaai.v38i17.29946",
            journal_ref="AAAI 2024",
        )
    }
    out = env.run(["arxiv:2305.10250", "arxiv:2305.99999"])
    assert isinstance(out["arxiv:2305.99999"], NotFound)
    found = out["arxiv:2305.10250"]
    assert isinstance(found, Found)
    meta = meta_json(found.meta)  # the JSON the cache keeps and the report shows
    assert meta["version"] == 3
    assert meta["published"] == "2023-05-17"
    assert meta["published_at"] == "2023-05-17T17:59:46Z"
    assert meta["updated"] == "2023-05-21T08:00:00Z"
    assert meta["categories"] == ["cs.CL", "cs.AI"]
    assert meta["primary_category"] == "cs.CL"
    assert meta["doi"] == "10.1609/aaai.v38i17.29946"
    assert meta["journal_ref"] == "AAAI 2024"
    assert meta["withdrawn"] is False
    assert env.double.asked_ids() == [["2305.10250", "2305.99999"]]
    # Found is cached; "not found" is cached as such (fresh only for ttl_not_found).
    missing = env.cache.get("arxiv", "arxiv:2305.99999")
    assert missing is not None and missing.value["outcome"] == "not_found"
    assert env.cache.get("arxiv", "arxiv:2305.10250") is not None


def test_withdrawal_notice_sets_withdrawn(env: Env) -> None:
    env.double.papers = {
        "2301.00001": Paper(
            "2301.00001",
            "A paper",
            version=2,
            comment="This paper has been withdrawn by the author due to a crucial error",
        )
    }
    found = env.run(["arxiv:2301.00001"])["arxiv:2301.00001"]
    assert isinstance(found, Found)
    assert found.meta.withdrawn is True


def test_old_style_ids_are_asked_and_found(env: Env) -> None:
    env.double.papers = {"hep-th/9901001": Paper("hep-th/9901001", "Old", version=1)}
    out = env.run(["arxiv:hep-th/9901001"])
    assert isinstance(out["arxiv:hep-th/9901001"], Found)
    assert out["arxiv:hep-th/9901001"].meta.id == "hep-th/9901001"  # type: ignore[union-attr]


def test_every_subject_gets_an_outcome_even_two_spellings_of_one_id(env: Env) -> None:
    env.double.papers = papers(ids(1))
    out = env.run(["arxiv:2301.00001", "arxiv:2301.00001v1", "arxiv:2301.00001"])
    assert set(out) == {"arxiv:2301.00001", "arxiv:2301.00001v1"}
    assert out["arxiv:2301.00001v1"].subject == "arxiv:2301.00001v1"
    assert isinstance(out["arxiv:2301.00001v1"], Found)
    assert env.double.asked_ids() == [["2301.00001", "1706.03762"]]  # a lone ID: with proof


def test_other_subjects_are_not_asked(env: Env) -> None:
    out = env.run(["github:a/b", "arxiv:not-an-id"])
    assert all(isinstance(o, Unverified) for o in out.values())
    assert env.double.requests() == []


# -- outages -------------------------------------------------------------------------------
DRILLS: dict[str, list[str]] = {
    "503": ["503"] * 20,
    "503 with Retry-After": ["503:1"] * 20,
    "429": ["429"] * 20,
    "429 with Retry-After": ["429:1"] * 20,
    "Rate exceeded with 200": ["rate-exceeded"] * 20,
    "blank 200": ["blank"] * 20,
    "truncated XML": ["truncated"] * 20,
    "connection reset": ["reset"] * 20,
    "slow answer": ["slow:3"] * 20,
    "dripping answer": ["drip"] * 20,
    "HTML access denied": ["html"],
}


@pytest.mark.slow
@pytest.mark.parametrize("faults", DRILLS.values(), ids=DRILLS.keys())
def test_outage_ends_unverified_within_budget_and_caches_nothing(
    env: Env, faults: list[str]
) -> None:
    bases = ids(4)
    env.double.papers = papers(bases)
    env.double.fail(*faults)
    budget = 4.0
    started = time.monotonic()
    out = env.run(subjects(bases), arxiv_delay=0.1, service_budget=budget, timeout=1.0)
    elapsed = time.monotonic() - started
    assert elapsed < budget + 2.0, elapsed  # the budget, plus one paced request's slack
    assert all(isinstance(o, Unverified) for o in out.values()), out
    assert all(not isinstance(o, NotFound) for o in out.values())
    assert all(env.cache.get("arxiv", s) is None for s in subjects(bases))
    assert env.counter.get("arxiv") == len(env.double.requests()) >= 1
    # the next run (arXiv back) asks again: nothing stale was cached
    env.double.faults.clear()
    assert all(isinstance(o, Found) for o in env.run(subjects(bases)).values())


@pytest.mark.slow
def test_answer_that_stalls_after_its_headers_is_counted_once(env: Env) -> None:
    # Regression: the headers were counted, then the body's read timeout counted again.
    env.double.papers = papers(ids(2))
    env.double.fail("stall")
    out = env.run(subjects(ids(2)), arxiv_delay=0.01, timeout=0.3)
    assert all(isinstance(o, Found) for o in out.values())
    assert len(env.double.requests()) == 2
    assert env.counter.get("arxiv") == 2


def test_partial_record_is_unverified_not_a_missing_paper(env: Env) -> None:
    # An entry without <published> is no paper; but the ID was not unknown to arXiv.
    bases = ids(3)
    env.double.papers = papers(bases)
    env.double.papers[bases[1]] = replace(env.double.papers[bases[1]], published="")
    out = env.run([*subjects(bases), "arxiv:2301.99999"])
    assert isinstance(out[f"arxiv:{bases[0]}"], Found)
    assert isinstance(out[f"arxiv:{bases[2]}"], Found)
    partial = out[f"arxiv:{bases[1]}"]
    assert isinstance(partial, Unverified), partial
    assert "incomplete record" in partial.reason
    assert isinstance(out["arxiv:2301.99999"], NotFound)  # absent from the feed: unknown
    assert env.cache.get("arxiv", f"arxiv:{bases[1]}") is None  # never cached
    # one request: the arxiv package asked again from the short page's end, unseen
    assert len(env.double.requests()) == env.counter.get("arxiv") == 1


def test_a_feed_curator_cannot_read_leaves_its_batch_unverified(env: Env) -> None:
    # A complete, well-formed feed whose entry carries a date that is no date: asking again
    # would get the same feed, so it costs that batch only, never the run.
    bases = ids(4)
    env.double.papers = papers(bases)
    env.double.papers[bases[0]] = replace(env.double.papers[bases[0]], published="yesterday")
    out = env.run(subjects(bases), arxiv_batch_size=2, arxiv_delay=0.01)
    for base in bases[:2]:
        outcome = out[f"arxiv:{base}"]
        assert isinstance(outcome, Unverified), outcome
        assert "could not read" in outcome.reason
        assert "yesterday" in outcome.reason
    assert all(isinstance(out[f"arxiv:{b}"], Found) for b in bases[2:])
    assert len(env.double.requests()) == 2  # not asked again: the same feed fails the same way
    assert env.counter.get("arxiv") == 2
    assert env.cache.get("arxiv", f"arxiv:{bases[0]}") is None


def test_a_partial_record_prints_nothing(env: Env, capsys: pytest.CaptureFixture[str]) -> None:
    # The arxiv package logged each entry it skipped, which reached stderr through logging's
    # last-resort handler; the report says it instead.
    env.double.papers = papers(ids(2))
    env.double.papers[ids(1)[0]] = replace(env.double.papers[ids(1)[0]], published="")
    out = env.run(subjects(ids(2)))
    assert isinstance(out[f"arxiv:{ids(1)[0]}"], Unverified)
    captured = capsys.readouterr()
    assert captured.err == captured.out == ""


@pytest.mark.slow
def test_outage_of_one_batch_leaves_the_others_unasked(env: Env) -> None:
    bases = ids(6)
    env.double.papers = papers(bases)
    env.double.fail(*["503"] * 50)
    out = env.run(subjects(bases), arxiv_batch_size=2, arxiv_delay=0.01, service_budget=5.0)
    assert all(isinstance(o, Unverified) for o in out.values())
    assert {tuple(b) for b in env.double.asked_ids()} == {tuple(bases[:2])}
    assert len(env.double.requests()) == 5  # the attempts of one batch


@pytest.mark.parametrize("fault", ["503", "429", "rate-exceeded", "blank", "truncated", "reset"])
def test_transient_failure_is_retried_then_found(env: Env, fault: str) -> None:
    env.double.papers = papers(ids(2))
    env.double.fail(fault)
    out = env.run(subjects(ids(2)), arxiv_delay=0.05)
    assert all(isinstance(o, Found) for o in out.values())
    assert len(env.double.requests()) == 2
    assert env.counter.get("arxiv") == 2


@pytest.mark.slow
def test_retry_after_is_honoured(env: Env) -> None:
    env.double.papers = papers(ids(1))
    env.double.fail("429:1")
    out = env.run(subjects(ids(1)), arxiv_delay=0.01)
    assert isinstance(out["arxiv:2301.00001"], Found)
    assert env.double.gaps()[0] >= 1.0


def test_retry_after_beyond_the_limit_gives_up_at_once(env: Env) -> None:
    env.double.papers = papers(ids(1))
    env.double.fail("429:3600")
    started = time.monotonic()
    out = env.run(subjects(ids(1)), rate_limit_wait=60.0)
    assert time.monotonic() - started < 2.0
    assert isinstance(out["arxiv:2301.00001"], Unverified)
    assert "429" in out["arxiv:2301.00001"].reason  # type: ignore[union-attr]
    assert len(env.double.requests()) == 1


def test_dead_endpoint_is_unverified_and_counts_nothing(tmp_path: Path) -> None:
    dead = os.environ["CURATOR_ARXIV_API_URL"]  # conftest: a closed loopback port
    options = replace(Options(), arxiv_api_url=dead, arxiv_delay=0.0, service_budget=2.0)
    counter = Counter()
    out = ArxivResolver(options, Cache(tmp_path / "c.sqlite"), counter).resolve(
        ["arxiv:2301.00001"]
    )
    assert isinstance(out["arxiv:2301.00001"], Unverified)
    assert counter.get("arxiv") == 0


# -- 400 for a batch -------------------------------------------------------------------------
def test_400_names_the_bad_id_and_the_rest_is_asked_again(env: Env) -> None:
    bases = ids(5)
    env.double.papers = papers(bases)
    env.double.rejected = {bases[2]}
    out = env.run(subjects(bases))
    bad = out[f"arxiv:{bases[2]}"]
    assert isinstance(bad, NotFound)
    assert "incorrect id format" in bad.reason
    assert all(isinstance(out[f"arxiv:{b}"], Found) for b in bases if b != bases[2])
    assert len(env.double.requests()) == 2


def test_400_without_a_named_id_is_bisected(env: Env, loopback: LoopbackServer) -> None:
    bases = ids(4)
    env.double.papers = papers(bases)
    bad = bases[3]
    anonymous = (RECORDINGS / "id_list_malformed_abc_error_400.xml").read_bytes()

    def handler(req: Any) -> Reply:
        if bad in req.query["id_list"][0]:
            return Reply(400, {"Content-Type": "application/atom+xml"}, anonymous)
        return env.double.handle(req)

    loopback._routes.insert(0, ("GET", "/api/query", handler))
    out = env.run(subjects(bases))
    assert isinstance(out[f"arxiv:{bad}"], NotFound)
    assert all(isinstance(out[f"arxiv:{b}"], Found) for b in bases[:3])
    assert len(env.double.requests()) <= 5


# -- offline ---------------------------------------------------------------------------------
def test_offline_uses_only_the_cache_even_stale(env: Env) -> None:
    env.double.papers = papers(ids(1))
    env.run(subjects(ids(1)))
    out = env.run(["arxiv:2301.00001", "arxiv:2301.00002"], offline=True, ttl_arxiv=0.0)
    assert isinstance(out["arxiv:2301.00001"], Found)
    miss = out["arxiv:2301.00002"]
    assert isinstance(miss, Unverified) and "offline" in miss.reason
    assert len(env.double.requests()) == 1


def test_no_cache_neither_reads_nor_writes(env: Env, tmp_path: Path) -> None:
    """--no-cache is the pipeline's `Cache(None)` (one place decides it, for every resolver)."""
    env.double.papers = papers(ids(1))
    catalogue = tmp_path / "p.yaml"
    catalogue.write_text(
        'section: A\npapers:\n  - {title: x, arxiv: "2301.00001", date: "2023-01-01"}\n'
    )
    options = replace(
        env.options,
        paths=(str(catalogue),),
        cache_path=str(tmp_path / "cache.sqlite"),
        skip=frozenset({Service.GITHUB, Service.WEB, Service.SCOPE}),
    )
    pipeline.check(replace(options, no_cache=True))
    assert Cache(tmp_path / "cache.sqlite").get("arxiv", "arxiv:2301.00001") is None
    pipeline.check(options)
    pipeline.check(replace(options, no_cache=True))
    assert len(env.double.requests()) == 3


# -- the real recordings ------------------------------------------------------------------
def serve(loopback: LoopbackServer, name: str, status: int = 200) -> Callable[[], int]:
    """Answer every query with a recorded body; returns a request counter."""
    body = (RECORDINGS / name).read_bytes()
    loopback.route(
        "GET",
        "/api/query",
        lambda req: Reply(status, {"Content-Type": "application/atom+xml; charset=utf-8"}, body),
    )
    return lambda: len(loopback.received("/api/query"))


def recorded(
    loopback: LoopbackServer, tmp_path: Path, name: str, wanted: list[str]
) -> dict[str, Outcome]:
    serve(loopback, name)
    options = replace(Options(), arxiv_api_url=loopback.url + "/api/query", arxiv_delay=0.0)
    return ArxivResolver(options, Cache(tmp_path / "c.sqlite"), Counter()).resolve(wanted)


def test_recording_two_ids_one_missing(loopback: LoopbackServer, tmp_path: Path) -> None:
    out = recorded(loopback, tmp_path, "id_list_two_ids_one_nonexistent.xml",
                   ["arxiv:1707.08567", "arxiv:1707.08568"])  # fmt: skip
    found = out["arxiv:1707.08567"]
    assert isinstance(found, Found)
    assert found.meta.title.startswith("Proceedings of Workshop AEW10")
    assert len(found.meta.authors) == 34
    assert found.meta.published == "2017-07-27"
    assert found.meta.version == 1
    assert found.meta.comment.startswith("44 pages")
    assert isinstance(out["arxiv:1707.08568"], NotFound)


def test_recording_old_style_with_journal_ref(loopback: LoopbackServer, tmp_path: Path) -> None:
    out = recorded(loopback, tmp_path, "id_list_oldstyle_astro-ph_0601001.xml",
                   ["arxiv:astro-ph/0601001"])  # fmt: skip
    found = out["arxiv:astro-ph/0601001"]
    assert isinstance(found, Found)
    assert found.meta.journal_ref == "ActaAstron.56:1-50,2006"
    assert found.meta.primary_category == "astro-ph"
    assert found.meta.authors[0] == "Andrew Gould"


def test_recording_title_zero(loopback: LoopbackServer, tmp_path: Path) -> None:
    out = recorded(loopback, tmp_path, "id_list_title_zero_2104.12255v1.xml", ["arxiv:2104.12255"])
    assert isinstance(out["arxiv:2104.12255"], Found)
    assert out["arxiv:2104.12255"].meta.title == "0"  # type: ignore[union-attr]


def test_recording_empty_feed_alone_is_no_proof(loopback: LoopbackServer, tmp_path: Path) -> None:
    # The same empty feed for every question, the known paper beside it too: arXiv's index
    # is not shown to answer, so the ID is unverified (not cached), never "not found".
    count = serve(loopback, "id_list_nonexistent_0000.0000_empty_feed.xml")
    options = replace(Options(), arxiv_api_url=loopback.url + "/api/query", arxiv_delay=0.0)
    cache = Cache(tmp_path / "c.sqlite")
    out = ArxivResolver(options, cache, Counter()).resolve(["arxiv:2301.00001"])
    assert isinstance(out["arxiv:2301.00001"], Unverified)
    assert count() == 2  # asked twice, each time beside a paper arXiv has
    assert cache.get("arxiv", "arxiv:2301.00001") is None


def test_recording_multi_entry_with_doi(loopback: LoopbackServer, tmp_path: Path) -> None:
    out = recorded(loopback, tmp_path, "search_query_testing_max10.xml", ["arxiv:2202.12139"])
    found = out["arxiv:2202.12139"]
    assert isinstance(found, Found)
    assert found.meta.doi == "10.1109/ICSTW55395.2022.00035"
    assert found.meta.categories == ("cs.SE", "cs.LG")


def test_recording_400_for_a_single_id_is_not_found(
    loopback: LoopbackServer, tmp_path: Path
) -> None:
    serve(loopback, "id_list_malformed_abc_error_400.xml", status=400)
    options = replace(Options(), arxiv_api_url=loopback.url + "/api/query", arxiv_delay=0.0)
    out = ArxivResolver(options, Cache(None), Counter()).resolve(["arxiv:2301.00001"])
    assert isinstance(out["arxiv:2301.00001"], NotFound)
    assert len(loopback.received("/api/query")) == 1

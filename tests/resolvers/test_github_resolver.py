"""GithubResolver against the loopback double: batching, ETags, cache, outcomes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.core.meta import meta_json
from curator.core.model import Service
from curator.core.outcomes import Found, Moved, NotFound, Unverified
from curator.resolvers.github import SLOW_NOTE, GithubResolver
from tests.doubles.github import TOKEN, GithubDouble, make, options_for, repos_for, subjects
from tests.doubles.server import LoopbackServer

DAY = 86400.0


@pytest.fixture
def cache_path(tmp_path: Path) -> Path:
    return tmp_path / "cache.sqlite"


def test_handles_only_github_subjects(loopback: LoopbackServer, cache_path: Path) -> None:
    resolver, _, _ = make(options_for(GithubDouble(loopback)), cache_path)
    assert resolver.service is Service.GITHUB
    assert resolver.handles("github:a/b")
    assert not resolver.handles("arxiv:2305.10250")
    assert not resolver.handles("https://github.com/a/b")


@pytest.mark.parametrize(("count", "batches"), [(1, 1), (100, 1), (101, 2), (200, 2)])
def test_graphql_batches_at_most_100(
    loopback: LoopbackServer, cache_path: Path, count: int, batches: int
) -> None:
    names = subjects(count)
    double = GithubDouble(loopback, repos_for(names, stars=5))
    resolver, counter, _ = make(options_for(double, TOKEN), cache_path)
    out = resolver.resolve(names)
    assert double.count("graphql") == batches == counter.get("github_graphql")
    assert double.count("rest") == 0
    assert all(isinstance(out[s], Found) for s in names)
    assert out[names[-1]].meta.stars == 5  # type: ignore[union-attr]
    assert resolver.notes == []


def test_graphql_second_run_within_ttl_sends_nothing(
    loopback: LoopbackServer, cache_path: Path
) -> None:
    names = subjects(100)
    double = GithubDouble(loopback, repos_for(names))
    first, _, _ = make(options_for(double, TOKEN), cache_path)
    first.resolve(names)
    again, counter, _ = make(options_for(double, TOKEN), cache_path, now=DAY / 2)
    out = again.resolve(names)
    assert double.count("graphql") == 1
    assert counter.get("github_graphql") == 0
    assert counter.get("cache_hits") == 100
    assert all(isinstance(o, Found) for o in out.values())


def test_graphql_after_ttl_asks_again(loopback: LoopbackServer, cache_path: Path) -> None:
    names = subjects(3)
    double = GithubDouble(loopback, repos_for(names))
    make(options_for(double, TOKEN), cache_path)[0].resolve(names)
    again, counter, _ = make(options_for(double, TOKEN), cache_path, now=2 * DAY)
    again.resolve(names)
    assert counter.get("github_graphql") == 1 and counter.get("cache_hits") == 0


def test_graphql_metadata_and_outcomes(loopback: LoopbackServer, cache_path: Path) -> None:
    double = GithubDouble(
        loopback,
        {
            "Org/Live": {
                "stars": 42,
                "forks": 7,
                "license": "Apache-2.0",
                "homepage": "https://x.org",
            },
            "org/noassert": {"license": "NOASSERTION"},
            "org/nolicence": {"license": None, "archived": True},
            "old/name": {"renamed_to": "New/Name"},
            "org/disabled": {"disabled": True},
        },
    )
    resolver, _, _ = make(options_for(double, TOKEN), cache_path)
    wanted = ["github:org/live", "github:org/noassert", "github:org/nolicence", "github:old/name",
              "github:org/disabled", "github:org/missing"]  # fmt: skip
    out = resolver.resolve(wanted)
    live = out["github:org/live"]
    assert isinstance(live, Found)
    assert meta_json(live.meta) == {
        "name_with_owner": "Org/Live", "url": "https://github.com/Org/Live", "stars": 42,
        "forks": 7, "license": "Apache-2.0", "archived": False, "disabled": False, "fork": False,
        "pushed_at": "2026-04-14T07:25:38Z", "default_branch": "main",
        "homepage": "https://x.org", "description": "A repository",
    }  # fmt: skip
    assert out["github:org/noassert"].meta.license == "NOASSERTION"  # type: ignore[union-attr]
    assert out["github:org/nolicence"].meta.license is None  # type: ignore[union-attr]
    assert out["github:old/name"] == Moved(
        "github:old/name",
        "https://github.com/New/Name",
        out["github:old/name"].meta,  # type: ignore[union-attr]
    )
    assert isinstance(out["github:org/disabled"], NotFound)
    missing = out["github:org/missing"]
    assert isinstance(missing, NotFound) and "Could not resolve" in missing.reason


def test_graphql_partial_error_is_unverified_not_missing(
    loopback: LoopbackServer, cache_path: Path
) -> None:
    double = GithubDouble(loopback, {"org/ok": {}, "org/odd": {"graphql_error": "FORBIDDEN"}})
    resolver, _, _ = make(options_for(double, TOKEN), cache_path)
    out = resolver.resolve(["github:org/ok", "github:org/odd"])
    assert isinstance(out["github:org/ok"], Found)
    odd = out["github:org/odd"]
    assert isinstance(odd, Unverified) and "FORBIDDEN" in odd.reason


def test_rest_without_token_uses_etags(loopback: LoopbackServer, cache_path: Path) -> None:
    names = subjects(5)
    double = GithubDouble(loopback, repos_for(names, license="MIT"))
    cold, counter, _ = make(options_for(double), cache_path)
    out = cold.resolve(names)
    assert all(isinstance(out[s], Found) for s in names)
    assert counter.get("github_rest") == 5 and double.count("graphql") == 0
    assert cold.notes == [SLOW_NOTE]
    assert all("if-none-match" not in r.headers for r in loopback.received("/repos/"))

    warm, counter, _ = make(options_for(double), cache_path, now=2 * DAY)
    again = warm.resolve(names)
    conditional = loopback.received("/repos/")[5:]
    assert [r.headers.get("if-none-match", "")[:3] for r in conditional] == ['W/"'] * 5
    assert counter.get("github_rest") == 5 and counter.get("cache_hits") == 0
    assert again == out
    # The 304s refreshed the entries: a third run inside the TTL sends nothing.
    third, counter, _ = make(options_for(double), cache_path, now=2 * DAY + 60)
    assert third.resolve(names) == out
    assert counter.get("github_rest") == 0 and counter.get("cache_hits") == 5


def test_rest_304_statuses_seen_by_double(loopback: LoopbackServer, cache_path: Path) -> None:
    double = GithubDouble(loopback, {"a/b": {}})
    make(options_for(double), cache_path)[0].resolve(["github:a/b"])
    remaining = double.remaining
    make(options_for(double), cache_path, now=2 * DAY)[0].resolve(["github:a/b"])
    assert double.remaining == remaining  # a 304 does not count against the limit


def test_rest_rename_follows_301(loopback: LoopbackServer, cache_path: Path) -> None:
    double = GithubDouble(loopback, {"old/name": {"renamed_to": "new/renamed"}})
    resolver, counter, _ = make(options_for(double), cache_path)
    out = resolver.resolve(["github:old/name"])
    moved = out["github:old/name"]
    assert isinstance(moved, Moved) and moved.new_url == "https://github.com/new/renamed"
    new_id = double.repos["new/renamed"]["id"]
    assert [r.path for r in loopback.requests] == ["/repos/old/name", f"/repositories/{new_id}"]
    assert counter.get("github_rest") == 2
    # Moved is cached with its new URL.
    again, counter, _ = make(options_for(double), cache_path)
    assert again.resolve(["github:old/name"]) == out
    assert counter.get("cache_hits") == 1


def test_rest_not_found_and_blocked(loopback: LoopbackServer, cache_path: Path) -> None:
    double = GithubDouble(loopback, {"dmca/repo": {"status": 451}, "org/off": {"disabled": True}})
    resolver, _, cache = make(options_for(double), cache_path)
    out = resolver.resolve(["github:org/nope", "github:dmca/repo", "github:org/off"])
    assert isinstance(out["github:org/nope"], NotFound)
    assert "404" in out["github:org/nope"].reason  # type: ignore[union-attr]
    assert isinstance(out["github:dmca/repo"], NotFound)
    assert isinstance(out["github:org/off"], NotFound)
    stored = cache.get_many("github", list(out))
    assert {s: i.value["outcome"] for s, i in stored.items()} == dict.fromkeys(
        ("github:org/nope", "github:dmca/repo", "github:org/off"), "not_found"
    )


def test_offline_uses_cache_only(loopback: LoopbackServer, cache_path: Path) -> None:
    double = GithubDouble(loopback, {"a/b": {}})
    make(options_for(double, TOKEN), cache_path)[0].resolve(["github:a/b"])
    offline, counter, _ = make(options_for(double, TOKEN, offline=True), cache_path, now=9 * DAY)
    out = offline.resolve(["github:a/b", "github:a/c"])
    assert isinstance(out["github:a/b"], Found)
    assert out["github:a/c"] == Unverified("github:a/c", "offline: not in the cache")
    assert double.count("graphql") == 1 and counter.get("cache_hits") == 1


def test_no_cache_file_still_resolves(loopback: LoopbackServer) -> None:
    double = GithubDouble(loopback, {"a/b": {}})
    resolver, counter, _ = make(options_for(double, TOKEN), None)
    assert isinstance(resolver.resolve(["github:a/b"])["github:a/b"], Found)
    assert isinstance(resolver.resolve(["github:a/b"])["github:a/b"], Found)
    assert counter.get("github_graphql") == 2


def test_every_subject_gets_an_outcome(loopback: LoopbackServer, cache_path: Path) -> None:
    double = GithubDouble(loopback, {"a/b": {}})
    resolver, _, _ = make(options_for(double, TOKEN), cache_path)
    out = resolver.resolve(["github:a/b", "github:a/b", "github:broken", "arxiv:2305.10250"])
    assert set(out) == {"github:a/b", "github:broken", "arxiv:2305.10250"}
    assert isinstance(out["github:broken"], Unverified)


def test_token_goes_only_to_graphql_and_never_into_values(
    loopback: LoopbackServer, cache_path: Path
) -> None:
    double = GithubDouble(loopback, {"a/b": {}, "c/d": {"graphql_error": "FORBIDDEN"}})
    double.fail("html5xx", on="graphql", times=1)
    resolver, _, cache = make(options_for(double, TOKEN), cache_path)
    out = resolver.resolve(["github:a/b", "github:c/d", "github:e/f"])
    assert {r.headers.get("authorization") for r in loopback.requests} == {f"bearer {TOKEN}"}
    assert all(r.path == "/graphql" for r in loopback.requests)
    cache.close()
    assert TOKEN not in repr(out) and TOKEN not in " ".join(resolver.notes)
    for path in cache_path.parent.glob("cache.sqlite*"):
        assert TOKEN.encode() not in path.read_bytes()
    assert TOKEN not in repr(resolver.options)


def test_rest_never_sends_a_token(loopback: LoopbackServer, cache_path: Path) -> None:
    double = GithubDouble(loopback, {"old/name": {"renamed_to": "new/name"}})
    make(options_for(double), cache_path)[0].resolve(["github:old/name"])
    assert all("authorization" not in r.headers for r in loopback.requests)


def test_cache_value_is_json_metadata(loopback: LoopbackServer, cache_path: Path) -> None:
    double = GithubDouble(loopback, {"a/b": {"license": "MIT"}})
    resolver, _, cache = make(options_for(double), cache_path)
    resolver.resolve(["github:a/b"])
    item = cache.get("github", "github:a/b")
    assert item is not None and item.etag.startswith('W/"')
    assert item.value["outcome"] == "found" and item.value["meta"]["license"] == "MIT"
    json.dumps(item.value)


def test_constructor_matches_the_brief(loopback: LoopbackServer, cache_path: Path) -> None:
    from curator.core.outcomes import Counter
    from curator.net.cache import Cache

    double = GithubDouble(loopback, {"a/b": {}})
    resolver = GithubResolver(options_for(double, TOKEN), Cache(cache_path), Counter())
    assert isinstance(resolver.resolve(["github:a/b"])["github:a/b"], Found)

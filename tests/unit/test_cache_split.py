"""Cache.split: the one freshness rule the arXiv, GitHub and web resolvers share."""

from __future__ import annotations

from pathlib import Path

from curator.core.outcomes import Counter, Found, Outcome, Unverified
from curator.net.cache import OFFLINE_MISS, Cache, CacheItem

DAY = 86400.0


def _decode(subject: str, item: CacheItem) -> Outcome | None:
    return Found(subject, item.value) if item.value.get("ok") else None


def _cache(tmp_path: Path, age: float) -> Cache:
    """A cache holding a usable `a`, an unusable `b`, both stored `age` seconds ago."""
    writer = Cache(tmp_path / "c.sqlite", clock=lambda: 1000.0)
    writer.put_many("svc", [("a", {"ok": True}, 'W/"a"'), ("b", {"ok": False}, "")])
    writer.close()
    return Cache(tmp_path / "c.sqlite", clock=lambda: 1000.0 + age)


def test_fresh_entries_are_counted_hits(tmp_path: Path) -> None:
    counter = Counter()
    split = _cache(tmp_path, DAY / 2).split(
        "svc", ["a", "b", "c"], ttl=DAY, offline=False, decode=_decode, counter=counter
    )
    assert split.hits == {"a": Found("a", {"ok": True})}
    assert split.ask == ["b", "c"] and list(split.stored) == ["b"]
    assert split.offline == {} and counter.get("cache_hits") == 1


def test_stale_entries_are_asked_with_their_etag(tmp_path: Path) -> None:
    counter = Counter()
    split = _cache(tmp_path, DAY).split(
        "svc", ["a", "c"], ttl=DAY, offline=False, decode=_decode, counter=counter
    )
    assert split.hits == {} and split.ask == ["a", "c"]
    assert split.stored["a"].etag == 'W/"a"' and counter.get("cache_hits") == 0


def test_offline_takes_any_age_and_never_asks(tmp_path: Path) -> None:
    counter = Counter()
    split = _cache(tmp_path, 99 * DAY).split(
        "svc", ["a", "b", "c"], ttl=DAY, offline=True, decode=_decode, counter=counter,
        offline_reason="gone offline",
    )  # fmt: skip
    assert list(split.hits) == ["a"] and split.ask == []
    assert split.offline == {
        "b": Unverified("b", "gone offline"),
        "c": Unverified("c", "gone offline"),
    }
    assert counter.get("cache_hits") == 1
    default = _cache(tmp_path, 0).split(
        "svc", ["c"], ttl=DAY, offline=True, decode=_decode, counter=counter
    )
    assert default.offline == {"c": Unverified("c", OFFLINE_MISS)}


def test_no_cache_is_all_misses() -> None:
    """--no-cache is a Cache(None): every subject is a miss, nothing counted."""
    counter = Counter()
    split = Cache(None).split("svc", ["a"], ttl=DAY, offline=False, decode=_decode, counter=counter)
    assert split.hits == {} and split.ask == ["a"] and split.stored == {}
    assert counter.get("cache_hits") == 0

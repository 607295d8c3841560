"""The SQLite cache: resolved metadata by service and subject, with ETags and fetch times.

Only answers a service really gave are stored: found, moved, and "not found" (fresh for a
short TTL of its own). Errors and unverified results never are, so an outage cannot poison
later runs. Apart from them (`keep`, `recall`) it holds what curator worked out itself from
an input, keyed by a digest of that input and of the code. WAL journaling and a busy timeout
let two runs share one file; only a file SQLite calls corrupt is set aside and rebuilt with a
warning, and nothing else is ever moved. A file that is not an SQLite database at all is not
curator's cache, whoever named it so: it is left as it is and the run goes without a cache
(opening the file is cache_file.py's; this module holds what is read and written in it).

`Cache.split` is the one freshness rule of every resolver: an entry younger than the TTL
(any age when offline) is a cache hit, an offline miss is Unverified, the rest is asked.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curator.core.outcomes import Counter, NotFound, Outcome, Unverified
from curator.net.cache_file import open_cache
from curator.textio import json_text

_TABLES = frozenset({"entries", "kept"})
#: Days a kept result (`Cache.keep`) stays after it was written.
KEPT_DAYS = 30
DAY = 86400.0
#: The reason of an offline subject the cache cannot answer (a resolver may word its own).
OFFLINE_MISS = "offline: not in the cache"

#: How a "not found" answer is stored by every resolver.
NOT_FOUND = "not_found"


def not_found_value(outcome: NotFound) -> dict[str, Any]:
    """The stored form of a real "not found" answer."""
    return {"outcome": NOT_FOUND, "reason": outcome.reason}


def not_found_from(subject: str, item: CacheItem) -> NotFound | None:
    """A stored "not found" answer back as NotFound, else None."""
    if item.value.get("outcome") != NOT_FOUND:
        return None
    return NotFound(subject, str(item.value.get("reason", "")) + " (cached)")


@dataclass(frozen=True)
class CacheItem:
    """One stored answer: the metadata, its ETag (may be empty) and when it was fetched."""

    value: dict[str, Any]
    etag: str
    fetched_at: float

    def age(self, now: float) -> float:
        """Seconds since the answer was fetched."""
        return max(0.0, now - self.fetched_at)


def _item(value: str, etag: str, fetched_at: float) -> CacheItem | None:
    """A stored row as a CacheItem; None when its value is not a JSON object (damaged)."""
    try:
        data = json_text.loads(value)
    except ValueError:
        return None
    return CacheItem(data, etag, fetched_at) if isinstance(data, dict) else None


#: Turns a stored entry back into an outcome; None for an entry that is no longer usable.
Decode = Callable[[str, CacheItem], Outcome | None]


@dataclass(frozen=True)
class Split:
    """A run's subjects by what the cache can answer (see `Cache.split`)."""

    hits: dict[str, Outcome]
    offline: dict[str, Outcome]
    ask: list[str]
    stored: dict[str, CacheItem]  # the entries of `ask` that exist (stale): ETags to send


class Cache:
    """A small key-value store over sqlite3. `path=None` is a cache that keeps nothing."""

    def __init__(self, path: Path | None, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock
        self.warnings: list[str] = []
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        if path is not None:
            self._db = open_cache(path, self.warnings)

    @property
    def enabled(self) -> bool:
        """False for --no-cache or when the file could not be opened."""
        return self._db is not None

    def _read(self, sql: str, params: Sequence[object]) -> list[Any] | None:
        """The rows of one query; None without a file or when SQLite fails (a warning: a
        cache that cannot be read is a cache miss, never a failed run)."""
        if self._db is None:
            return None
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.DatabaseError as exc:
                self.warnings.append(f"cache read failed: {exc}")
                return None

    def _write(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        """Run one statement for each row, in one transaction; a failure is a warning."""
        if self._db is None:
            return
        with self._lock:
            try:
                with self._db:
                    self._db.executemany(sql, rows)
            except sqlite3.DatabaseError as exc:
                self.warnings.append(f"cache write failed: {exc}")

    def get(self, service: str, subject: str) -> CacheItem | None:
        """The stored answer for (service, subject), fresh or not, or None."""
        rows = self._read(
            "SELECT value, etag, fetched_at FROM entries WHERE service=? AND subject=?",
            (service, subject),
        )
        return _item(*rows[0]) if rows else None

    def get_many(
        self, service: str, subjects: list[str], table: str = "entries"
    ) -> dict[str, CacheItem]:
        """Stored answers for many subjects at once (one query per 500); `table="kept"` reads
        what `keep` stored."""
        out: dict[str, CacheItem] = {}
        if self._db is None or table not in _TABLES:
            return out
        for start in range(0, len(subjects), 500):
            chunk = subjects[start : start + 500]
            marks = ",".join("?" * len(chunk))
            sql = (
                f"SELECT subject, value, etag, fetched_at FROM {table} "  # noqa: S608 - names only
                f"WHERE service=? AND subject IN ({marks})"
            )
            rows = self._read(sql, (service, *chunk))
            if rows is None:
                return out
            for subject, *row in rows:
                item = _item(*row)
                if item is not None:
                    out[subject] = item
        return out

    def split(
        self,
        service: str,
        subjects: Sequence[str],
        *,
        ttl: float,
        offline: bool,
        decode: Decode,
        counter: Counter,
        offline_reason: str = OFFLINE_MISS,
        ttl_not_found: float = 0.0,
    ) -> Split:
        """Hits (fresh, or any age offline; counted), offline misses, and subjects to ask.

        A stored "not found" is fresh for `ttl_not_found` only (a paper may be announced, a
        repository created).
        """
        items = self.get_many(service, list(subjects))
        now = self.clock()
        split = Split({}, {}, [], {})
        for subject in subjects:
            item = items.get(subject)
            outcome = decode(subject, item) if item is not None else None
            limit = ttl_not_found if isinstance(outcome, NotFound) else ttl
            if item is not None and outcome is not None and (offline or item.age(now) < limit):
                split.hits[subject] = outcome
            elif offline:
                split.offline[subject] = Unverified(subject, offline_reason)
            else:
                split.ask.append(subject)
                if item is not None:
                    split.stored[subject] = item
        if split.hits:
            counter.add("cache_hits", len(split.hits))
        return split

    def latest(self, service: str, limit: int) -> dict[str, dict[str, Any]]:
        """The `limit` answers of a service stored last, by subject (the relevance model's
        background: papers of the field the cache has met, discover's windows among them)."""
        if self._db is None or limit <= 0:
            return {}
        sql = (
            "SELECT subject, value, etag, fetched_at FROM entries WHERE service=? "
            "ORDER BY fetched_at DESC, subject LIMIT ?"
        )
        rows = self._read(sql, (service, limit)) or []
        items = {subject: _item(*row) for subject, *row in rows}
        return {s: item.value for s, item in items.items() if item is not None}

    def put(self, service: str, subject: str, value: dict[str, Any], etag: str = "") -> None:
        """Store a real answer now (found, moved, not found); never errors or unverified."""
        self.put_many(service, [(subject, value, etag)])

    def put_many(
        self, service: str, items: list[tuple[str, dict[str, Any], str]], table: str = "entries"
    ) -> None:
        """Store many answers in one transaction (`table="kept"`: see `keep`)."""
        if self._db is None or not items or table not in _TABLES:
            return
        now = self.clock()
        rows = [(service, s, json.dumps(v, sort_keys=True), e, now) for s, v, e in items]
        self._write(f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?, ?, ?)", rows)  # noqa: S608

    def recall(self, kind: str, keys: list[str]) -> dict[str, dict[str, Any]]:
        """What `keep` stored under these keys (no TTL: a key names everything the value
        depends on)."""
        return {k: item.value for k, item in self.get_many(kind, keys, "kept").items()}

    def keep(self, kind: str, rows: list[tuple[str, dict[str, Any]]]) -> None:
        """Store results curator worked out itself, apart from the services' answers.

        Each edit of the rules or the code makes new keys, so rows written more than
        KEPT_DAYS ago go when new ones come: the file stays the size of about a month's
        keys, and a result still wanted after that is worked out once more."""
        if self._db is None or not rows:
            return
        self.put_many(kind, [(key, value, "") for key, value in rows], "kept")
        self._write("DELETE FROM kept WHERE fetched_at < ?", [(self.clock() - KEPT_DAYS * DAY,)])

    def stamp(self, name: str) -> float | None:
        """The time (clock seconds) recorded under `name`, or None."""
        rows = self._read("SELECT at FROM stamps WHERE name=?", (name,))
        return float(rows[0][0]) if rows else None

    def set_stamp(self, name: str, at: float | None = None) -> None:
        """Record a time (now by default) under `name`."""
        at = self.clock() if at is None else at
        self._write("INSERT OR REPLACE INTO stamps VALUES (?, ?)", [(name, at)])

    def touch(self, service: str, subject: str) -> None:
        """Mark a stored answer fresh again (after a 304 Not Modified)."""
        self._write(
            "UPDATE entries SET fetched_at=? WHERE service=? AND subject=?",
            [(self.clock(), service, subject)],
        )

    def close(self) -> None:
        """Close the file."""
        if self._db is not None:
            with self._lock:
                self._db.close()
            self._db = None

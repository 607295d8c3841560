"""Opening the cache's SQLite file: its tables, WAL and the wait for another run's lock.

Only a file SQLite calls corrupt is set aside (with its journal files) and rebuilt with a
warning; a lock or any other failure leaves every file as it is and the run goes without a
cache. A file that does not start as an SQLite database does is someone else's and is never
opened. A folder curator makes for its cache gets a `.gitignore` of everything in it. What is
read and written in the file is cache.py's.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tenacity import Retrying, retry_if_exception, stop_after_delay, wait_random

from curator.core.errors import UsageError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    service TEXT NOT NULL,
    subject TEXT NOT NULL,
    value TEXT NOT NULL,
    etag TEXT NOT NULL DEFAULT '',
    fetched_at REAL NOT NULL,
    PRIMARY KEY (service, subject)
)
"""
# What curator worked out itself from an input (scope decisions, files that passed the schema),
# keyed by a digest of that input and of the code (curator/core/digest.py): apart from the services'
# answers, so that nothing of it is ever taken for one.
_KEPT = _SCHEMA.replace("entries", "kept")
# `keep` deletes old rows on every call: by age through this index, not a scan of the table.
_KEPT_AGE = "CREATE INDEX IF NOT EXISTS kept_age ON kept (fetched_at)"
# Times of the last request to a service, shared by every run using this cache file.
_STAMPS = "CREATE TABLE IF NOT EXISTS stamps (name TEXT PRIMARY KEY, at REAL NOT NULL)"
_VERSION = 1
#: Seconds a run waits for another run's lock on the file (SQLite's busy timeout).
BUSY_TIMEOUT = 30.0
#: SQLite's primary result codes for a damaged file: SQLITE_CORRUPT and SQLITE_NOTADB.
_DAMAGED = frozenset({11, 26})
#: SQLite's primary result codes for a file another connection holds: SQLITE_BUSY, SQLITE_LOCKED.
_HELD = frozenset({5, 6})


def _held(exc: BaseException) -> bool:
    """True when SQLite refused because another connection holds the file."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _HELD


#: The first bytes of every SQLite database file (its documented file format).
SQLITE_HEADER = b"SQLite format 3\x00"


def _may_be_cache(path: Path) -> bool:
    """True for a path curator may open as its cache: no file yet, an empty one, or one that
    starts as an SQLite database does (a damaged cache included). Any other file is someone
    else's (a list, a README, a repository's configuration named as the cache): it is never
    opened, let alone set aside as corrupt and replaced."""
    try:
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return True
    except OSError:
        return True  # unreadable: SQLite's own open says why, and nothing is moved then
    return not head or head == SQLITE_HEADER


def _corrupt(exc: sqlite3.DatabaseError) -> bool:
    """True only when SQLite says the file itself is damaged (not locked, not unopenable)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _DAMAGED


def open_cache(path: Path, warnings: list[str]) -> sqlite3.Connection | None:
    """Open (or create) the file. Only a file SQLite calls corrupt is moved aside (with
    its journal files) and rebuilt; a lock or any other failure leaves every file as it
    is and runs without the cache, and a folder in its place is a usage error."""
    if path.is_dir():
        raise UsageError(f"cache path {path} is a folder, not a file (CURATOR_CACHE)")
    if not _may_be_cache(path):
        warnings.append(
            f"cache disabled for this run: {path} is a file that is not an SQLite "
            "database, so not curator's cache: left as it is"
        )
        return None
    try:
        made = not path.parent.exists()
        path.parent.mkdir(parents=True, exist_ok=True)
        if made:
            _ignore_in_git(path.parent)
        return connect(path)
    except sqlite3.DatabaseError as exc:
        if not _corrupt(exc):
            warnings.append(f"cache disabled for this run: {path}: {exc}")
            return None
        warnings.append(f"cache {path} was corrupt ({exc}); set it aside and rebuilt it")
        try:
            for suffix in ("", "-wal", "-shm"):
                old = Path(str(path) + suffix)
                if old.exists():
                    old.replace(Path(str(path) + ".corrupt" + suffix))
            return connect(path)
        except (OSError, sqlite3.DatabaseError) as again:
            warnings.append(f"cache disabled: {again}")
            return None
    except OSError as exc:
        warnings.append(f"cache disabled: cannot create {path}: {exc.strerror}")
        return None


def connect(path: Path) -> sqlite3.Connection:
    """Open the file, waiting up to BUSY_TIMEOUT for another run that holds it.

    SQLite does not consult its busy timeout while a new file is switched to WAL, so two
    runs starting at once on a new cache would see "database is locked" at once; the open
    is tried again until the other run is through."""
    retrying = Retrying(
        retry=retry_if_exception(_held),
        stop=stop_after_delay(BUSY_TIMEOUT),
        wait=wait_random(0.01, 0.1),
        reraise=True,
    )
    return retrying(_connect_once, path)


def _connect_once(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(_SCHEMA)
        db.execute(_STAMPS)
        db.execute(_KEPT)
        db.execute(_KEPT_AGE)
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, _VERSION):
            db.execute("DELETE FROM entries")
        db.execute(f"PRAGMA user_version={_VERSION}")
        db.execute("SELECT count(*) FROM entries").fetchone()
        db.commit()
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


#: What a folder curator made for its cache holds, so that a local run in a list's repository
#: (`.curator/cache.sqlite` by default) leaves git nothing to show, as ruff's and mypy's do.
GITIGNORE = "# curator's cache: nothing here belongs in git\n*\n"


def _ignore_in_git(folder: Path) -> None:
    """A `.gitignore` of everything in a cache folder curator has just made (never one that
    was there: a new file in a new folder); best effort, as the cache itself is."""
    try:
        with open(folder / ".gitignore", "x", encoding="utf-8") as out:
            out.write(GITIGNORE)
    except OSError:
        pass

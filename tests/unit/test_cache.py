"""The SQLite cache: round trips, freshness, corrupt files, two writers at once."""

from __future__ import annotations

import multiprocessing
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from curator.net.cache import Cache
from curator.net.cache_file import SQLITE_HEADER

ROOT = Path(__file__).resolve().parent.parent.parent


def test_round_trip_and_touch(tmp_path: Path) -> None:
    now = [1000.0]
    cache = Cache(tmp_path / "c.sqlite", clock=lambda: now[0])
    cache.put("github", "github:a/b", {"stars": 3}, etag='W/"x"')
    now[0] = 1500.0
    item = cache.get("github", "github:a/b")
    assert item is not None
    assert item.value == {"stars": 3}
    assert item.etag == 'W/"x"'
    assert item.age(now[0]) == 500.0
    cache.touch("github", "github:a/b")
    again = cache.get("github", "github:a/b")
    assert again is not None
    assert again.age(now[0]) == 0.0
    assert cache.get("arxiv", "github:a/b") is None


def test_a_cache_folder_curator_makes_is_ignored_by_git(tmp_path: Path) -> None:
    """A local run in a list's repository makes `.curator/`: git shows none of it."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    Cache(tmp_path / ".curator" / "cache.sqlite").put("arxiv", "arxiv:1", {"i": 1})
    status = subprocess.run(
        ["git", "-C", str(tmp_path), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert status.stdout == ""
    # A folder that was there already is the user's: nothing is added to it.
    (tmp_path / "mine").mkdir()
    Cache(tmp_path / "mine" / "cache.sqlite")
    assert not (tmp_path / "mine" / ".gitignore").exists()


def test_get_many(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "c.sqlite")
    cache.put_many("arxiv", [(f"arxiv:{i}", {"i": i}, "") for i in range(1200)])
    got = cache.get_many("arxiv", [f"arxiv:{i}" for i in range(0, 1300, 2)])
    assert len(got) == 600


def test_damaged_rows_are_misses(tmp_path: Path) -> None:
    # A row whose value is not a JSON object (hand-edited, another tool) is no answer at all.
    cache = Cache(tmp_path / "c.sqlite")
    cache.put("arxiv", "arxiv:1", {"ok": True})
    db = sqlite3.connect(tmp_path / "c.sqlite")
    with db:
        db.execute("INSERT INTO entries VALUES ('arxiv', 'arxiv:2', '[1, 2]', '', 0)")
        db.execute("INSERT INTO entries VALUES ('arxiv', 'arxiv:3', 'not json', '', 0)")
    db.close()
    assert set(cache.get_many("arxiv", ["arxiv:1", "arxiv:2", "arxiv:3"])) == {"arxiv:1"}
    assert cache.get("arxiv", "arxiv:2") is None
    assert cache.get("arxiv", "arxiv:3") is None


def test_corrupt_file_is_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    path.write_bytes(SQLITE_HEADER + b"not a database" * 100)
    cache = Cache(path)
    assert cache.enabled
    assert any("rebuilt" in w for w in cache.warnings)
    cache.put("web", "https://x.example/", {"status": 200})
    assert cache.get("web", "https://x.example/") is not None


def test_disabled_cache_keeps_nothing() -> None:
    cache = Cache(None)
    cache.put("web", "u", {"a": 1})
    assert cache.get("web", "u") is None
    assert not cache.enabled


def _writer(path: str, start: int) -> None:
    cache = Cache(Path(path))
    for i in range(start, start + 200):
        cache.put("arxiv", f"arxiv:{i}", {"i": i})
    cache.close()


def test_two_processes_share_one_cache(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite")
    Cache(Path(path)).close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, n * 1000)) for n in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    keys = [f"arxiv:{i}" for i in range(200)] + [f"arxiv:{1000 + i}" for i in range(200)]
    assert len(Cache(Path(path)).get_many("arxiv", keys)) == 400


def _opener(folder: str, rounds: int, barrier: Any, warnings: Any) -> None:
    for n in range(rounds):
        barrier.wait(30)
        cache = Cache(Path(folder) / f"{n}.sqlite")
        warnings.put((n, cache.enabled, cache.warnings))
        cache.close()


def test_two_runs_opening_a_new_cache_at_once_both_use_it(tmp_path: Path) -> None:
    # SQLite answers "database is locked" at once, without its busy timeout, to a second
    # connection while the first one switches a new file to WAL: the open waits instead.
    ctx = multiprocessing.get_context("spawn")
    barrier, warnings = ctx.Barrier(2), ctx.Queue()
    rounds = 20
    procs = [ctx.Process(target=_opener, args=(str(tmp_path), rounds, barrier, warnings))]
    procs.append(ctx.Process(target=_opener, args=(str(tmp_path), rounds, barrier, warnings)))
    for p in procs:
        p.start()
    seen = [warnings.get(timeout=60) for _ in range(2 * rounds)]
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert [(enabled, said) for _, enabled, said in seen] == [(True, [])] * (2 * rounds)


def test_kept_results_are_apart_from_answers_and_go_after_a_month(tmp_path: Path) -> None:
    now = [0.0]
    cache = Cache(tmp_path / "c.sqlite", clock=lambda: now[0])
    cache.put("arxiv", "arxiv:1", {"title": "T"})
    cache.keep("scope", [("k1", {"v": 1})])
    assert cache.recall("scope", ["k1", "k2"]) == {"k1": {"v": 1}}
    assert cache.get("scope", "k1") is None  # never taken for a service's answer
    now[0] = 31 * 86400.0
    cache.keep("scope", [("k2", {"v": 2})])
    assert cache.recall("scope", ["k1", "k2"]) == {"k2": {"v": 2}}
    assert cache.get("arxiv", "arxiv:1") is not None  # answers follow their own TTLs


def test_published_schema_is_the_packaged_one() -> None:
    packaged = (ROOT / "curator" / "schema" / "catalog.schema.json").read_text()
    assert (ROOT / "data" / "schema.json").read_text() == packaged

"""Issue 12, defect 9: the cache only ever touches its own file.

A folder named as the cache, or a lock held by another run, is never "fixed" by renaming:
only a file SQLite itself calls corrupt is set aside.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from curator.core.errors import UsageError
from curator.net import cache_file
from curator.net.cache import Cache
from curator.net.cache_file import SQLITE_HEADER


def test_a_folder_named_as_the_cache_is_a_usage_error_and_left_alone(tmp_path: Path) -> None:
    folder = tmp_path / "precious"
    folder.mkdir()
    (folder / "thesis.tex").write_text("years of work", encoding="utf-8")
    with pytest.raises(UsageError, match="is a folder"):
        Cache(folder)
    assert (folder / "thesis.tex").read_text(encoding="utf-8") == "years of work"
    assert not (tmp_path / "precious.corrupt").exists()


def test_a_locked_cache_is_not_moved_and_keeps_the_other_runs_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "cache.sqlite"
    first = Cache(path)
    first.put("arxiv", "arxiv:1", {"id": "1"})
    first.close()
    # Another run is writing and holds the lock longer than this run will wait.
    other = sqlite3.connect(str(path), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("INSERT INTO entries VALUES ('arxiv', 'arxiv:2', '{}', '', 0)")
    monkeypatch.setattr(cache_file, "BUSY_TIMEOUT", 0.2)
    try:
        second = Cache(path)
        assert not second.enabled
        assert any("cache disabled for this run" in w for w in second.warnings)
        assert not list(tmp_path.glob("*.corrupt*"))
        assert Path(str(path) + "-wal").exists()  # the other run's journal is untouched
        other.execute("COMMIT")
    finally:
        other.close()
    rows = sqlite3.connect(str(path)).execute("SELECT subject FROM entries").fetchall()
    assert sorted(r[0] for r in rows) == ["arxiv:1", "arxiv:2"]


def test_only_a_damaged_file_is_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    path.write_bytes(SQLITE_HEADER + b"this is not a database" * 100)
    cache = Cache(path)
    assert cache.enabled
    assert (tmp_path / "cache.sqlite.corrupt").read_bytes().endswith(b"not a database")
    cache.close()


@pytest.mark.parametrize("name", ["README.md", "config"])
def test_a_file_that_is_not_a_database_is_never_taken_for_a_corrupt_cache(
    tmp_path: Path, name: str
) -> None:
    """A pull request's pyproject.toml may name any file of the tree as the cache; run on
    its branch, curator set that file aside as 'corrupt' and put a database in its place
    (the list, or the repository's `.git/config`: git then stops with 'bad config line 1').
    A file that is not an SQLite database is not curator's: left as it is, no cache."""
    path = tmp_path / name
    path.write_text("# Awesome LLM memory\n\n- [MemGPT](https://arxiv.org/abs/2310.08560)\n")
    before = path.read_bytes()
    cache = Cache(path)
    assert not cache.enabled
    assert any("not an SQLite database" in w for w in cache.warnings)
    cache.put("arxiv", "arxiv:1", {"id": "1"})
    cache.close()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]

"""Catalogue files that passed the schema are not validated again while their text and the
code that read them stay the same; a file with a problem is validated on every run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curator.cli import main
from curator.net.cache import Cache
from curator.net.cache_file import SQLITE_HEADER
from curator.sources import yaml_catalog
from curator.sources.catalog_schema import CleanFiles
from curator.sources.yaml_catalog import load_file

GOOD = """\
section: Methods
papers:
  - title: "MemoryBank: Enhancing Large Language Models with Long-Term Memory"
    arxiv: "2305.10250"
    date: "2023-05"
"""
BAD = GOOD + "    colour: blue\n"


def _refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("validated again")


@pytest.fixture
def clean(tmp_path: Path) -> CleanFiles:
    memo = CleanFiles.over(Cache(tmp_path / "cache.sqlite"))
    assert memo is not None
    return memo


def test_a_file_that_passed_is_not_validated_again(
    tmp_path: Path, clean: CleanFiles, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "papers.yaml"
    path.write_text(GOOD, encoding="utf-8")
    first = load_file(path, clean=clean)
    with monkeypatch.context() as m:
        m.setattr(yaml_catalog, "file_errors", _refuse)
        m.setattr(yaml_catalog, "item_errors", _refuse)
        assert load_file(path, clean=clean) == first
        assert load_file(path, lines={3}, clean=clean) == first  # pull-request mode too
    # One character more is another text: validated again.
    path.write_text(GOOD.replace("2023-05", "2023-13"), encoding="utf-8")
    assert [f.code for f in load_file(path, clean=clean).findings] == ["entry-invalid"]


def test_a_file_with_a_problem_is_validated_on_every_run(tmp_path: Path, clean: CleanFiles) -> None:
    path = tmp_path / "papers.yaml"
    path.write_text(BAD, encoding="utf-8")
    for _ in range(2):
        findings = load_file(path, clean=clean).findings
        assert [f.code for f in findings] == ["entry-invalid"]
        assert "colour" in findings[0].evidence
    assert not clean.known(BAD)


def test_only_a_whole_file_pass_is_remembered(tmp_path: Path, clean: CleanFiles) -> None:
    # Structure alone (a file a pull request left unchanged) or some items: not a pass.
    path = tmp_path / "papers.yaml"
    path.write_text(GOOD, encoding="utf-8")
    load_file(path, check_items=False, clean=clean)
    load_file(path, lines={3}, clean=clean)
    assert not clean.known(GOOD)
    load_file(path, clean=clean)
    assert clean.known(GOOD)


def test_the_code_that_read_a_file_is_part_of_its_key(tmp_path: Path) -> None:
    cache = Cache(tmp_path / "cache.sqlite")
    CleanFiles(cache, "code-1").remember(GOOD)
    assert CleanFiles(cache, "code-1").known(GOOD)
    assert not CleanFiles(cache, "code-2").known(GOOD)


def test_a_warm_check_validates_nothing_and_reports_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "papers.yaml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "data" / "bad.yaml").write_text(BAD, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.curator]\n", encoding="utf-8")
    monkeypatch.setenv("CURATOR_CACHE", str(tmp_path / "cache.sqlite"))
    monkeypatch.chdir(tmp_path)
    args = ["check", "data", "--offline", "--skip", "scope", "--format", "json"]
    assert main([*args, "--output", "cold.json"]) == 1
    seen: list[object] = []
    real = yaml_catalog.file_errors
    with monkeypatch.context() as m:
        m.setattr(yaml_catalog, "file_errors", lambda *a, **k: seen.append(a) or real(*a, **k))
        assert main([*args, "--output", "warm.json"]) == 1
    assert len(seen) == 1  # bad.yaml only
    cold, warm = (Path(n).read_text(encoding="utf-8") for n in ("cold.json", "warm.json"))
    assert cold.split('"elapsed_seconds"')[0] == warm.split('"elapsed_seconds"')[0]
    assert "colour" in warm


def test_a_corrupt_cache_found_while_reading_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "papers.yaml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text("[tool.curator]\n", encoding="utf-8")
    (tmp_path / "cache.sqlite").write_bytes(SQLITE_HEADER + b"this is not a database" * 200)
    monkeypatch.setenv("CURATOR_CACHE", str(tmp_path / "cache.sqlite"))
    monkeypatch.chdir(tmp_path)
    args = ["check", "data", "--offline", "--skip", "scope", "--format", "json"]
    assert main([*args, "--output", "r.json"]) in (0, 1)
    notes = json.loads(Path("r.json").read_text(encoding="utf-8"))["notes"]
    assert any("corrupt" in note and "rebuilt" in note for note in notes), notes

"""Pull-request mode selects entries by entry, not by file, using a real git repository."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from curator.config.context import CheckContext
from curator.config.options import Options
from curator.sources.select import Comparison, changes
from curator.sources.yaml_catalog import CatalogSource
from curator.textio import git

BASE = """section: A
papers:
  - title: One
    arxiv: "2310.08560"
    date: "2023-10-12"
  - title: Two
    arxiv: "2306.07174"
    date: "2023-06-12"
  - title: Three
    arxiv: "2305.10250"
    date: "2023-05-17"
"""


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _git(tmp_path, "init", "-q", "-b", "main")
    _git(tmp_path, "config", "user.email", "t@example.invalid")
    _git(tmp_path, "config", "user.name", "t")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.yaml").write_text(BASE)
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _subjects(capsys: pytest.CaptureFixture[str], *extra: str) -> list[str]:
    main(["check", "data", "--skip", "arxiv,github,web,scope", "--format", "json", *extra])
    return [e["subject"] for e in json.loads(capsys.readouterr().out)["entries"]]


def test_only_the_changed_entry(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = BASE.replace("title: Two", "title: Two (renamed)")
    (repo / "data" / "a.yaml").write_text(text)
    assert _subjects(capsys, "--changed-since", "HEAD") == ["arxiv:2306.07174"]


def test_added_entry_and_new_file(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "data" / "a.yaml").write_text(
        BASE + '  - title: Four\n    arxiv: "2504.19413"\n    date: "2025-04-28"\n'
    )
    (repo / "data" / "b.yaml").write_text(
        'section: B\nprojects:\n  - {name: Mem0, repo: "https://github.com/mem0ai/mem0"}\n'
    )
    _git(repo, "add", ".")
    got = _subjects(capsys, "--changed-since", "HEAD")
    assert got == ["arxiv:2504.19413", "github:mem0ai/mem0"]


def test_duplicates_found_against_the_whole_list(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "data" / "a.yaml").write_text(
        BASE + '  - title: One again\n    arxiv: "2310.08560v2"\n    date: "2023-10-12"\n'
    )
    main(["check", "data", "--skip", "arxiv,github,web,scope", "--format", "json",
          "--changed-since", "HEAD"])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert [e["subject"] for e in report["entries"]] == ["arxiv:2310.08560"]
    dups = [f for f in report["findings"] if f["code"] == "entry-duplicate"]
    assert [f["source"]["line"] for f in dups] == [12]
    assert "data/a.yaml:3" in dups[0]["evidence"]


def test_bad_ref_is_a_usage_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["check", "data", "--skip", "arxiv,github,web,scope",
                   "--changed-since", "no-such-ref"])  # fmt: skip
    assert status == 2
    assert "--changed-since" in capsys.readouterr().err


def test_added_entry_without_identity_is_still_reported(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "data" / "a.yaml").write_text(
        BASE + '  - title: No ID at all\n    date: "2025-01-01"\n'
    )
    status = main(["check", "data", "--skip", "arxiv,github,web,scope", "--format", "json",
                   "--changed-since", "HEAD"])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    assert status == 1
    # The new item has no identity, so it is no entry; its lines extend the entry before it.
    assert [e["subject"] for e in report["entries"]] == ["arxiv:2305.10250"]
    assert [(f["code"], f["source"]["line"]) for f in report["findings"]] == [("entry-invalid", 12)]


def _commit_second_file(repo: Path, text: str) -> None:
    (repo / "data" / "b.yaml").write_text(text)
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "b")


BAD_ITEM = 'section: B\npapers:\n  - title: Old\n    arxiv: "2401.00001"\n    date: "2024-13-01"\n'


def test_items_of_an_unchanged_file_are_not_validated(repo: Path) -> None:
    """Pull-request mode reports nothing of an unchanged file: its items are not checked."""
    _commit_second_file(repo, BAD_ITEM)
    (repo / "data" / "a.yaml").write_text(BASE.replace('"2023-06-12"', '"2023-06-32"'))
    pr = CatalogSource(CheckContext(Options(changed_since="HEAD"))).load(Path("data"))
    full = CatalogSource(CheckContext(Options())).load(Path("data"))
    invalid = [(f.source.file, f.source.line) for f in pr.findings if f.code == "entry-invalid"]
    assert invalid == [("data/a.yaml", 6)]
    assert {(f.source.file, f.source.line) for f in full.findings} == {
        ("data/a.yaml", 6),
        ("data/b.yaml", 3),
    }
    assert pr.entries == full.entries


def test_an_unchanged_file_that_is_no_catalogue_still_stops_the_run(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _commit_second_file(repo, BAD_ITEM + "colour: blue\n")
    (repo / "data" / "a.yaml").write_text(BASE.replace("title: Two", "title: Two (renamed)"))
    status = main(["check", "data", "--skip", "arxiv,github,web,scope",
                   "--changed-since", "HEAD"])  # fmt: skip
    assert status == 2
    assert "data/b.yaml:6: unknown key 'colour'" in capsys.readouterr().err


def _git_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """Every git call curator makes from now on (its arguments)."""
    calls: list[tuple[str, ...]] = []
    real = git.run

    def counted(args: Sequence[str], *rest: Any, **named: Any) -> bytes:
        calls.append(tuple(args))
        return real(args, *rest, **named)

    monkeypatch.setattr(git, "run", counted)
    return calls


def test_a_run_compares_each_file_with_the_base_once(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catalogue reader (which validates only what changed) and the select stage share
    the run's comparison: one diff, one read of the base's blob."""
    (repo / "data" / "a.yaml").write_text(BASE.replace("title: Two", "title: Two (renamed)"))
    calls = _git_calls(monkeypatch)
    assert _subjects(capsys, "--changed-since", "HEAD") == ["arxiv:2306.07174"]
    assert [c[0] for c in calls].count("diff") == 1
    assert calls.count(("cat-file", "--batch")) == 1


def test_a_comparison_asks_git_only_about_files_it_has_not_compared(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / "data" / "a.yaml").write_text(BASE.replace("title: Two", "title: Two (renamed)"))
    (repo / "data" / "b.yaml").write_text(BAD_ITEM)
    comparison = Comparison("HEAD", repo)
    calls = _git_calls(monkeypatch)
    first = comparison.changes(["data/a.yaml"])
    assert first == changes("HEAD", ["data/a.yaml"], repo)
    assert calls
    calls.clear()
    assert comparison.changes(["data/a.yaml"]) == first
    assert calls == []
    both = comparison.changes(["data/b.yaml", "data/a.yaml"])
    assert both == changes("HEAD", ["data/a.yaml", "data/b.yaml"], repo)
    assert both.lines["data/b.yaml"] is None  # new since the base
    # Each answer is the caller's own: changing it changes no later answer.
    lines = both.lines["data/a.yaml"]
    assert lines
    lines.clear()
    assert comparison.changes(["data/a.yaml"]) == first

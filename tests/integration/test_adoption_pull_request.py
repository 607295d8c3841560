"""The pull request that adopts curator is checked on its list, not refused.

Its base has the list's README.md and no settings file yet (init writes rules/curator.yaml in
the same pull request, and a pull request's settings are read from the base). With nothing
naming what to check, the base's files decide: no data/ and a README.md, so the README is the
list. Before, the default `data` did not exist and the adoption PR's own check exited 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main
from tests.integration.test_config_changes_untracked import SHA, git

README = "# Awesome memory\n\n- [MemGPT](https://arxiv.org/abs/2310.08560)\n"


@pytest.fixture
def adopting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An awesome-list on main; on branch `adopt`, curator init's files committed."""
    root = tmp_path / "list"
    root.mkdir()
    (root / "README.md").write_text(README, encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "the list")
    monkeypatch.chdir(root)
    git(root, "checkout", "-q", "-b", "adopt")
    assert main(["init", "--ref", SHA]) == 0
    git(root, "add", "-A")
    git(root, "commit", "-qm", "curator")
    return root


def test_the_adoption_pull_request_checks_the_readme(
    adopting: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    args = ["check", "--changed-since", "main", "--offline", "--format", "json"]
    assert main([*args, "--fail-on", "error"]) == 0
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert report["notes"][0].startswith("pull-request mode: 0 of 1 entries changed")


def test_a_pull_request_cannot_move_the_check_by_adding_a_folder(
    adopting: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The base decides: a data/ the pull request adds does not replace the README."""
    (adopting / "data").mkdir()
    (adopting / "data" / "a.yaml").write_text("section: A\npapers: []\n", encoding="utf-8")
    git(adopting, "add", "-A")
    git(adopting, "commit", "-qm", "a folder")
    capsys.readouterr()
    args = ["check", "--changed-since", "main", "--offline", "--format", "json"]
    main([*args, "--fail-on", "never"])
    report: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert {e["source"]["file"] for e in report["entries"]} <= {"README.md"}
    assert "0 of 1 entries" in report["notes"][0]

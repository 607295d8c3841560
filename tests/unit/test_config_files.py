"""Configuration read from a revision gets the checks a file on disk gets (issue 23)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from curator.config.config_files import Revision, WorkingTree, config_files
from curator.core.errors import InputError, UsageError


def _git(cwd: Path, *args: str) -> None:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    subprocess.run(["git", *ident, *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def base(tmp_path: Path) -> Revision:
    """A commit with a rules folder holding a file, links in and out of the tree, bad bytes."""
    _git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "links.yaml").write_text("bot_walled: []\n", encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "projects.yaml").write_text("archived: error\n", encoding="utf-8")
    os.symlink("../shared/links.yaml", tmp_path / "rules" / "links.yaml")
    os.symlink("/etc/hostname", tmp_path / "rules" / "scope.yaml")
    (tmp_path / "rules" / "bad.json").write_bytes(b'{"a": "\xff"}')
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base")
    # The working tree then changes: none of it is what the revision holds.
    (tmp_path / "rules" / "projects.yaml").write_text("archived: off\n", encoding="utf-8")
    return Revision(tmp_path, "main")


def test_a_file_of_the_revision_not_of_the_working_tree(base: Revision) -> None:
    assert base.read("rules/projects.yaml") == "archived: error\n"
    assert WorkingTree(base.root).read("rules/projects.yaml") == "archived: off\n"


def test_a_link_inside_the_tree_is_followed_one_out_of_it_refused(base: Revision) -> None:
    assert base.read("rules/links.yaml") == "bot_walled: []\n"
    assert base.is_link("rules/links.yaml") and not base.is_link("rules/projects.yaml")
    with pytest.raises(InputError, match="symbolic link leading outside") as caught:
        base.read("rules/scope.yaml")
    assert caught.value.file == "main:rules/scope.yaml"


def test_bytes_that_are_no_utf8_are_refused_at_their_line(base: Revision) -> None:
    with pytest.raises(InputError, match="not UTF-8") as caught:
        base.read("rules/bad.json")
    assert (caught.value.file, caught.value.line) == ("main:rules/bad.json", 1)


def test_folders_missing_files_and_paths_out_of_the_repository(base: Revision) -> None:
    assert base.read("rules") is None and base.is_dir("rules")
    assert base.read("rules/none.yaml") is None and not base.is_dir("none")
    assert base.names("rules") == ["bad.json", "links.yaml", "projects.yaml", "scope.yaml"]
    with pytest.raises(InputError, match="leaves the repository"):
        base.read("../elsewhere.yaml")


def test_an_unknown_revision_is_a_usage_error(base: Revision) -> None:
    with pytest.raises(UsageError, match="--changed-since: unknown revision"):
        config_files(base.root, "no-such-branch")
    assert isinstance(config_files(base.root, None), WorkingTree)


def test_a_revision_outside_any_repository_says_so(tmp_path: Path) -> None:
    """Outside git, `--changed-since HEAD` is not an unknown commit: there is no repository."""
    (tmp_path / "list").mkdir()
    with pytest.raises(UsageError, match="'HEAD' names no commit: not in a git repository"):
        config_files(tmp_path / "list", "HEAD")

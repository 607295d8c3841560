"""Issue 32 item 5: only files a pull request can hold count as its configuration changes.

A pull request is commits: a file git does not track (curator init's starter files before
`git add`) is none of its changes, so `check --changed-since main` on main right after `init`
reports no `config-changed`. A tracked file edited and not yet committed counts (a local run
compares the base with the tracked files as they are on disk: what the next commit holds).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from curator.cli import main

PAPERS = 'section: A\npapers:\n  - title: "A paper"\n    arxiv: "2305.10250"\n'
SHA = "0" * 40


def git(cwd: Path, *args: str) -> None:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    subprocess.run(["git", *ident, *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A list repository on main with one commit (a catalogue, no configuration)."""
    root = tmp_path / "list"
    (root / "data").mkdir(parents=True)
    (root / "data" / "papers.yaml").write_text(PAPERS, encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    monkeypatch.chdir(root)
    return root


def changed_config(root: Path) -> set[str]:
    """The files of `check data --changed-since main`'s config-changed findings (offline)."""
    out = root.parent / "report.json"
    args = ["check", "data", "--changed-since", "main", "--offline", "--format", "json"]
    main([*args, "--fail-on", "never", "--output", str(out)])
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return {f["source"]["file"] for f in report["findings"] if f["code"] == "config-changed"}


def test_init_starter_files_left_untracked_are_no_change(repo: Path) -> None:
    assert main(["init", "--ref", SHA]) == 0
    assert (repo / "rules").is_dir()  # the starter rules are on disk, untracked
    (repo / "pyproject.toml").write_text("[tool.curator]\ntimeout = 0\n", encoding="utf-8")
    assert changed_config(repo) == set()


def test_staged_and_edited_tracked_files_count(repo: Path) -> None:
    """What the next commit holds is the pull request's: staged, or tracked and edited."""
    assert main(["init", "--ref", SHA]) == 0
    starters = sorted(p.name for p in (repo / "rules").iterdir() if p.suffix == ".yaml")
    git(repo, "add", f"rules/{starters[0]}")
    assert changed_config(repo) == {f"rules/{starters[0]}"}
    git(repo, "commit", "-qm", "rules")
    path = repo / "rules" / starters[0]
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert changed_config(repo) == {f"rules/{starters[0]}"}  # the uncommitted edit
    path.write_text(path.read_text(encoding="utf-8").replace("# edited\n", ""), encoding="utf-8")
    assert changed_config(repo) == set()

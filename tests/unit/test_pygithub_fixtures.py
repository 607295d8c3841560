"""tests/fixtures/pygithub holds GitHub's answers as PyGithub recorded them, unaltered."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "pygithub"
#: A PyGithub checkout, when one is at hand (the project keeps one beside its worktrees).
PYGITHUB = Path("/work/.mirror/PyGithub+PyGithub/repo")
#: fixture -> (recording, answer index, item index or None, entries kept of a tree)
SOURCES = {
    "pull": ("PullRequest.setUp", 9, None),
    "pull_file": ("PullRequest.testGetFiles", 0, 0),
    "review": ("PullRequestReview1856.testDelete", 0, None),
    "review_comment": ("PullRequest.testGetReviewComments", 0, 0),
    "git_ref": ("Repository.testGetGitRef", 0, None),
    "git_blob_created": ("Repository.testCreateGitBlob", 0, None),
    "git_tree_recursive": ("Repository.testGetGitTreeWithRecursive", 0, None),
    "git_commit": ("Repository.testCreateGitCommitWithParents", 0, None),
}


def answers(recording: str) -> list[str]:
    """The answer bodies of one ReplayData file (eleven lines per exchange, body tenth)."""
    text = subprocess.run(
        ["git", "-C", str(PYGITHUB), "show", f"HEAD:tests/ReplayData/{recording}.txt"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if re.fullmatch("https?", line)]
    return [lines[i + 9] for i in starts]


def test_every_fixture_has_its_source_and_a_readme_line() -> None:
    names = {p.stem for p in FIXTURES.glob("*.json")}
    assert names == set(SOURCES)
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    assert all(f"`{name}.json`" in readme for name in names)


@pytest.mark.skipif(not PYGITHUB.is_dir(), reason="no PyGithub checkout on this machine")
@pytest.mark.parametrize("name", sorted(SOURCES))
def test_fixture_is_the_recorded_answer(name: str) -> None:
    recording, index, item = SOURCES[name]
    recorded = json.loads(answers(recording)[index])
    if item is not None:
        recorded = recorded[item]
    ours = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    if name == "git_tree_recursive":
        recorded["tree"] = recorded["tree"][:3]
    assert ours == recorded

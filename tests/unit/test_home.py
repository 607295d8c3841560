"""curator's home: one repository for pyproject's URLs, the Action's `uses:` and SARIF; the
commit of the running curator from its install's own records (issue 32)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from curator.config import home
from curator.config.home import DISTRIBUTION, HOME, REPOSITORY, Origin, origin_of_direct_url
from curator.core.model import Report
from curator.report import sarif
from curator.tools.init import ACTION_REPOSITORY

ROOT = Path(__file__).resolve().parents[2]
SHA = "3f1c2b4a5d6e7f8091a2b3c4d5e6f708192a3b4c"


def test_one_home_for_pyproject_the_action_and_sarif() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == DISTRIBUTION != "curator"  # `curator` on PyPI is another package
    assert project["urls"]["Repository"] == project["urls"]["Homepage"] == HOME
    assert f"https://github.com/{REPOSITORY}" == HOME and ACTION_REPOSITORY == REPOSITORY
    driver = json.loads(sarif.render(Report((), ())))["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == HOME != "https://github.com/"


def direct_url(url: str, commit: str = SHA, vcs: str = "git") -> str:
    return json.dumps({"url": url, "vcs_info": {"vcs": vcs, "commit_id": commit}})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (direct_url("https://github.com/curator/curator.git"), Origin(REPOSITORY, SHA)),
        (direct_url("https://github.com/me/fork"), Origin("me/fork", SHA)),
        (direct_url("ssh://git@github.com/me/fork.git"), Origin("me/fork", SHA)),
        (direct_url("https://gitlab.com/me/fork"), None),  # not where a `uses:` can point
        (direct_url("https://github.com/curator/curator", commit="v0.1.0"), None),
        (direct_url("https://github.com/curator/curator", commit=SHA + "\n"), None),
        (direct_url("https://github.com/curator/curator", vcs="hg"), None),
        ('{"url": "file:///src", "dir_info": {"editable": true}}', None),
        ("not json", None),
        ("[]", None),
    ],
)
def test_the_commit_pip_recorded(text: str, expected: Origin | None) -> None:
    assert origin_of_direct_url(text) == expected


def test_the_release_builds_stamp(tmp_path: Path) -> None:
    """The release workflow writes curator/BUILD_COMMIT before it builds."""
    assert home.stamped_commit(tmp_path) is None
    (tmp_path / home.BUILD_COMMIT).write_text(SHA + "\n")
    assert home.stamped_commit(tmp_path) == Origin(REPOSITORY, SHA)
    (tmp_path / home.BUILD_COMMIT).write_text("main\n")
    assert home.stamped_commit(tmp_path) is None

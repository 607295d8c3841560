"""Issue 12, defects 4, 5, 8 and 12: what a pull request's tree may not do.

Files of the checked tree (pyproject.toml, rules/, data/, file names, symlinks) are
attacker-controlled: they cannot weaken the SSRF guard, redirect the token, read outside
the repository, or reach stderr unescaped. Bad input is one line with file and line, exit 2.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from curator.config.links import load_link_rules
from curator.net.guard import address_reason, classify_address
from tests.reliability.conftest import Record
from tests.reliability.world import run_cli

CASES = {
    "rules-allow-metadata-address": "attack",
    "catalogue-symlink-out-of-repository": "attack",
    "file-name-with-workflow-command": "attack",
}

PAPER = (
    'section: A\npapers:\n  - title: "A paper"\n    arxiv: "2305.10250"\n    date: "2023-05-17"\n'
)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository with a one-paper catalogue, as the working folder."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "papers.yaml").write_text(PAPER, encoding="utf-8")
    for key in ("GITHUB_GRAPHQL_URL", "GITHUB_API_URL", "CURATOR_ALLOW_PRIVATE_HOSTS"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(capsys: pytest.CaptureFixture[str], *paths: str) -> tuple[int, str]:
    """`curator check` offline-only (every service skipped): exit status and stderr."""
    run = run_cli(["check", *(paths or ("data",)), "--skip", "arxiv,github,web,scope"], capsys)
    return run.status, run.stderr


def one_error_line(stderr: str) -> str:
    """The single line of an exit-2 run."""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("curator: error: ")
    return lines[0]


# -- defect 4: configuration from the tree cannot weaken security ---------------------------
@pytest.mark.parametrize(
    "setting",
    [
        "allow_private_hosts = true",
        'github_graphql_url = "https://attacker.example/graphql"',
        'github_api_url = "https://attacker.example"',
        'arxiv_api_url = "http://169.254.169.254/latest"',
        'guard_allow = ["169.254.169.254"]',
    ],
)
def test_pyproject_cannot_set_security_settings(
    repo: Path, capsys: pytest.CaptureFixture[str], setting: str
) -> None:
    (repo / "pyproject.toml").write_text(f"[tool.curator]\n{setting}\n", encoding="utf-8")
    status, stderr = check(capsys)
    assert status == 2
    assert "only in the environment" in one_error_line(stderr)


@pytest.mark.parametrize(
    "setting", ['rules_dir = "/etc"', 'records_dir = "../elsewhere"', 'cache_path = "/tmp/x.db"']
)
def test_pyproject_paths_stay_in_the_repository(
    repo: Path, capsys: pytest.CaptureFixture[str], setting: str
) -> None:
    (repo / "pyproject.toml").write_text(f"[tool.curator]\n{setting}\n", encoding="utf-8")
    status, stderr = check(capsys)
    assert status == 2
    assert "leaves the repository" in one_error_line(stderr)


@pytest.mark.parametrize(
    "setting",
    ['cache_path = ".git/config"', 'output = ".git/config"', 'cache_path = "x/../.GIT/index"',
     'paths = [".git"]'],
)  # fmt: skip
def test_pyproject_paths_stay_out_of_git(
    repo: Path, capsys: pytest.CaptureFixture[str], setting: str
) -> None:
    """A maintainer runs curator on a pull request's branch, with its pyproject.toml: a path
    into `.git` would have the cache replace the repository's configuration with a database
    (or the report overwrite it). Refused, one line, and `.git/config` is untouched."""
    config = (repo / ".git" / "config").read_bytes()
    (repo / "pyproject.toml").write_text(f"[tool.curator]\n{setting}\n", encoding="utf-8")
    status, stderr = check(capsys)
    assert status == 2
    assert "is inside .git" in one_error_line(stderr)
    assert (repo / ".git" / "config").read_bytes() == config


def test_the_environment_still_sets_them(
    repo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CURATOR_ALLOW_PRIVATE_HOSTS", "1")
    monkeypatch.setenv("GITHUB_GRAPHQL_URL", "https://ghe.example/api/graphql")
    status, stderr = check(capsys)
    assert status == 0, stderr


def test_rules_file_cannot_open_the_guard(
    repo: Path, capsys: pytest.CaptureFixture[str], record: Record
) -> None:
    (repo / "rules").mkdir()
    links = "bot_walled: []\nallow:\n  - 169.254.169.254\n"
    (repo / "rules" / "links.yaml").write_text(links, encoding="utf-8")
    run = run_cli(["check", "data", "--skip", "arxiv,github,scope"], capsys)
    assert run.status == 2
    line = one_error_line(run.stderr)
    assert "rules/links.yaml:2" in line and "CURATOR_GUARD_ALLOW" in line
    record("rules-allow-metadata-address", "exit 2, one line: allow: must stay empty",
           hostile=1, refused=1)  # fmt: skip


def test_rules_file_cannot_unprotect_github(tmp_path: Path) -> None:
    path = tmp_path / "links.yaml"
    path.write_text("protected: []\n", encoding="utf-8")
    assert "github.com" in load_link_rules(path).protected


def test_azure_wireserver_and_metadata_are_refused_even_when_allowed() -> None:
    assert classify_address("168.63.129.16") is not None
    assert address_reason("168.63.129.16", True, ("168.63.129.0/24",)) is not None
    assert address_reason("169.254.169.254", False, ("169.254.0.0/16",)) is not None
    assert address_reason("10.1.2.3", False, ("10.0.0.0/8",)) is None


# -- defect 5: symlinks out of the repository ------------------------------------------------
def test_catalogue_symlink_out_of_the_repository_is_refused(
    repo: Path,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    record: Record,
) -> None:
    secret = tmp_path_factory.mktemp("outside") / "secret.yaml"
    secret.write_text("SECRET-TOKEN-VALUE: [\n", encoding="utf-8")
    (repo / "data" / "more.yaml").symlink_to(secret)
    status, stderr = check(capsys)
    assert status == 2
    line = one_error_line(stderr)
    assert "symbolic link leading outside the repository" in line
    assert "SECRET" not in stderr
    record("catalogue-symlink-out-of-repository", "exit 2, one line; the target is not read",
           hostile=1, refused=1)  # fmt: skip


def test_document_symlink_out_of_the_repository_is_refused(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path_factory.mktemp("outside") / "notes.md"
    secret.write_text("# SECRET\n", encoding="utf-8")
    (repo / "README.md").symlink_to(secret)
    status, stderr = check(capsys, "README.md")
    assert status == 2
    assert "outside the repository" in one_error_line(stderr)


def test_symlink_inside_the_repository_is_read(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "shared.yaml").write_text(PAPER, encoding="utf-8")
    (repo / "data" / "papers.yaml").unlink()
    (repo / "data" / "papers.yaml").symlink_to(repo / "shared.yaml")
    status, stderr = check(capsys)
    assert status == 0, stderr


# -- defect 8: names and texts escaped before stderr -----------------------------------------
@pytest.mark.skipif(os.name != "posix", reason="POSIX file names")
def test_file_name_cannot_inject_workflow_commands(
    repo: Path, capsys: pytest.CaptureFixture[str], record: Record
) -> None:
    bad = repo / "data" / "x\n::add-mask::secret\n\x1b[2J.yaml"
    bad.write_text("papers: [\n", encoding="utf-8")
    status, stderr = check(capsys)
    assert status == 2
    line = one_error_line(stderr)
    assert "\x1b" not in stderr and "\\x0a:\\x3aadd-mask:\\x3a" in line
    record("file-name-with-workflow-command", "exit 2, one line; newline and ESC escaped",
           hostile=1, refused=1)  # fmt: skip


# -- defect 12: small input faults -----------------------------------------------------------
def test_control_character_in_yaml_is_one_line_with_its_line(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = 'section: A\npapers:\n  - title: "bell\x07"\n    arxiv: "2305.10250"\n'
    (repo / "data" / "papers.yaml").write_text(text, encoding="utf-8")
    status, stderr = check(capsys)
    assert status == 2
    assert "data/papers.yaml:3: invalid YAML" in one_error_line(stderr)


@pytest.mark.parametrize("value", ["nan", "inf", '"nan"'])
def test_nan_and_infinity_settings_are_refused(
    repo: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    (repo / "pyproject.toml").write_text(f"[tool.curator]\nservice_budget = {value}\n", "utf-8")
    status, stderr = check(capsys)
    assert status == 2
    assert "finite" in one_error_line(stderr)

"""Issue 23, hole 2: git reads a pull request's tree, and that tree cannot hide its own diff.

The base commit holds a two-paper catalogue; the pull request's commit adds a third paper
and plants a `.gitattributes` trick. Pull-request mode must select the added paper whatever
the attributes say. Tricks that need the repository's own configuration (`.git/config`: a
textconv, a diff driver marked binary, a clean filter) are not in a pull request's power
(actions/checkout writes that file), but curator ignores them too.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from curator.cli import main
from curator.sources.select import changed_lines
from curator.textio import git
from tests.unit.test_select import BASE  # a three-paper catalogue

ADDED = '  - title: Planted\n    arxiv: "2501.99999"\n    date: "2025-01-30"\n'


def _git(cwd: Path, *args: str) -> str:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t", "-c", "core.autocrlf=false"]
    done = subprocess.run(["git", *ident, *args], cwd=cwd, check=True, capture_output=True)
    return done.stdout.decode().strip()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose base commit holds data/a.yaml; the working folder is its top."""
    _git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.yaml").write_text(BASE, encoding="utf-8")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def pull_request(repo: Path, attributes: str, text: str = BASE + ADDED) -> str:
    """Commit the pull request (the added paper, then `.gitattributes`); the base's name.

    The working tree keeps the bytes written here (a checkout would apply `eol` or
    `working-tree-encoding` to them; the CRLF test does that by hand)."""
    base = _git(repo, "rev-parse", "HEAD")
    (repo / "data" / "a.yaml").write_bytes(text.encode())
    _git(repo, "commit", "-qam", "pull request")
    (repo / ".gitattributes").write_text(attributes, encoding="utf-8")
    _git(repo, "add", ".gitattributes")
    _git(repo, "commit", "-qm", "attributes")
    return base


def selected(capsys: pytest.CaptureFixture[str], base: str) -> list[str]:
    """The subjects pull-request mode checks (every service skipped)."""
    capsys.readouterr()
    status = main(["check", "data", "--skip", "arxiv,github,web,scope", "--format", "json",
                   "--changed-since", base])  # fmt: skip
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return [e["subject"] for e in json.loads(captured.out)["entries"]]


@pytest.mark.parametrize(
    "attributes",
    [
        "*.yaml -diff\n",
        "*.yaml binary\n",
        "* -diff -text\n",
        "data/** binary\n",
        "*.yaml diff=undefined-driver\n",
        "*.yaml text=auto\n",
        "*.yaml filter=undefined-filter\n",
        "*.yaml working-tree-encoding=UTF-16LE\n",
    ],
)
def test_attributes_of_the_pull_request_hide_nothing(
    repo: Path, capsys: pytest.CaptureFixture[str], attributes: str
) -> None:
    base = pull_request(repo, attributes)
    assert selected(capsys, base) == ["arxiv:2501.99999"]


def test_attributes_in_a_subfolder_hide_nothing(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = _git(repo, "rev-parse", "HEAD")
    (repo / "data" / ".gitattributes").write_text("* binary\n", encoding="utf-8")
    (repo / "data" / "a.yaml").write_text(BASE + ADDED, encoding="utf-8")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "pull request")
    assert selected(capsys, base) == ["arxiv:2501.99999"]


def test_crlf_checkout_changes_no_other_entry(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`eol=crlf` makes checkout write CRLF: only the added paper counts as changed."""
    base = pull_request(repo, "*.yaml text eol=crlf\n")
    path = repo / "data" / "a.yaml"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))  # what checkout writes
    assert selected(capsys, base) == ["arxiv:2501.99999"]


@pytest.mark.parametrize(
    "config",
    [
        # A textconv that drops the planted lines (`git diff` applies textconv by default).
        ["diff.evil.textconv", "sed -e /Planted/,+2d"],
        # A driver that declares the files binary.
        ["diff.evil.binary", "true"],
        # An external diff program that prints nothing.
        ["diff.external", "true"],
    ],
)
def test_repository_configuration_changes_no_diff(
    repo: Path, capsys: pytest.CaptureFixture[str], config: list[str]
) -> None:
    """Not a pull request's power (.git/config is the runner's), and still ignored."""
    base = pull_request(repo, "*.yaml diff=evil\n")
    _git(repo, "config", *config)
    assert selected(capsys, base) == ["arxiv:2501.99999"]


def test_a_clean_filter_hides_no_local_change(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A clean filter (repository configuration) rewrites what git compares; curator
    compares the bytes it reads."""
    base = _git(repo, "rev-parse", "HEAD")
    (repo / ".gitattributes").write_text("*.yaml filter=evil\n", encoding="utf-8")
    _git(repo, "config", "filter.evil.clean", "sed -e /Planted/,+2d")
    (repo / "data" / "a.yaml").write_text(BASE + ADDED, encoding="utf-8")
    assert selected(capsys, base) == ["arxiv:2501.99999"]


def test_a_file_name_git_would_quote(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Names with non-ASCII bytes or spaces are matched as written, not as git quotes them."""
    (repo / "data" / "naïve list.yaml").write_text(BASE, encoding="utf-8")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "second file")
    base = _git(repo, "rev-parse", "HEAD")
    (repo / "data" / "naïve list.yaml").write_text(BASE + ADDED, encoding="utf-8")
    _git(repo, "commit", "-qam", "pull request")
    assert selected(capsys, base) == ["arxiv:2501.99999"]


def test_a_changed_file_without_hunks_is_wholly_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Different bytes with no hunk to show mean every line changed, never none."""
    monkeypatch.setattr(git, "run", lambda *a, **k: b"Binary files a and b differ\n")
    assert git.changed_lines(b"one\n", b"two\n") is None
    assert git.changed_lines(b"same\r\n", b"same\n") == set()


def test_every_call_ignores_the_trees_attributes_and_configuration(
    repo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One policy for every call: attributes and system configuration off, no pager."""
    seen: list[tuple[list[str], dict[str, str]]] = []
    real = subprocess.run

    def spy(command: list[str], **kwargs: object) -> object:
        seen.append((command, dict(kwargs["env"])))  # type: ignore[call-overload]
        return real(command, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(subprocess, "run", spy)
    git.changed_lines(b"a\n", b"b\n")
    git.top_level(repo)
    assert seen
    for command, env in seen:
        assert command[:2] == ["git", "--no-pager"]
        assert "core.attributesFile=" + "/dev/null" in command
        assert env["GIT_CONFIG_NOSYSTEM"] == "1" and env["GIT_ATTR_NOSYSTEM"] == "1"
    diff = next(c for c, _ in seen if "--no-index" in c)
    assert {"--text", "--no-ext-diff", "--no-textconv"} <= set(diff)


def test_a_repository_of_sha256_objects(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unchanged files are told apart by their blob names, in the repository's own hash."""
    _git(tmp_path, "init", "-q", "--object-format=sha256", "-b", "main")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "a.yaml").write_text(BASE, encoding="utf-8")
    (tmp_path / "data" / "b.yaml").write_text(BASE.replace("A", "B"), encoding="utf-8")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data" / "a.yaml").write_text(BASE + ADDED, encoding="utf-8")
    changed = changed_lines("HEAD", ["data/a.yaml", "data/b.yaml"], tmp_path)
    assert changed == {"data/a.yaml": {12, 13, 14}}

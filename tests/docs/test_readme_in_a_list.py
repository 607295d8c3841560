"""The README's command lines work as shown in a list's repository after `curator init`.

The README is read by maintainers of other lists, whose list is a `README.md` and whose paths
come from the settings file `init` writes (rules/curator.yaml), not by this repository alone:
each `curator check` and `curator explain` line of its "Command line" block, run as written
(only offline, and with the base branch of a local clone), must read the list, not stop at a
path only this repository has.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest

from curator.cli import main
from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
LIST = (
    "# Awesome memory\n\n## Methods\n\n"
    "- [MemoryBank: Enhancing Large Language Models with Long-Term Memory]"
    "(https://arxiv.org/abs/2305.10250) (2023-05)\n"
)
SHA = "0" * 40


def git(cwd: Path, *args: str) -> None:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    subprocess.run(["git", *ident, *args], cwd=cwd, check=True, capture_output=True)


def command_lines() -> list[list[str]]:
    """The README's `curator check` and `curator explain` lines without placeholders, their
    comments dropped, as argument lists (after `curator`)."""
    block = README.split("## Command line", 1)[1].split("```", 2)[1]
    found = []
    for line in block.splitlines():
        words = shlex.split(line.split("#", 1)[0])
        if words[:2] in (["curator", "check"], ["curator", "explain"]) and "[" not in line:
            found.append(words[1:])
    return found


@pytest.fixture
def adopted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A Markdown list on main, adopted with the README's `curator init` in one commit."""
    root = tmp_path / "list"
    root.mkdir()
    (root / "README.md").write_text(LIST, encoding="utf-8")
    monkeypatch.chdir(root)
    monkeypatch.setenv("CURATOR_CACHE", str(tmp_path / "cache.sqlite"))
    git(root, "init", "-q", "-b", "main")
    assert main(["init", "--ref", SHA, "--scope-preset", "llm-memory"]) == 0
    git(root, "add", "-A")
    git(root, "commit", "-qm", "list and curator")
    return root


def test_the_readme_shows_a_check_of_a_pull_request_and_an_explain() -> None:
    shown = [words[0] for words in command_lines()]
    assert "explain" in shown
    assert any("--changed-since" in words for words in command_lines())


@pytest.mark.parametrize("words", command_lines(), ids=" ".join)
def test_each_command_line_reads_the_list(
    adopted: Path, words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["main" if word == "origin/main" else word for word in words]
    status = main([*args, "--offline"])
    out, err = capsys.readouterr()
    assert status in (0, 1), err  # 2 is bad input: a path the list does not have
    assert "2305.10250" in out or re.search(r"\b1 entr", out + err), out + err

"""Issue 23, hole 4: an entry follows its links through Markdown reference definitions.

A pull request that edits only `[webshop]: https://arxiv.org/abs/…` changes what an
unchanged entry links to. Pull-request mode checks every entry that uses the label, and
does not blame the entry whose line span happens to hold the definition.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from curator.cli import main
from tests.doubles.arxiv import ArxivDouble, Paper
from tests.doubles.server import LoopbackServer

DOCUMENT = """\
# A list

## Agents

- [WebShop][webshop] - shopping agents with memory.
- [MemoryBank][mb] - long-term memory.

## Surveys

- [A survey](https://arxiv.org/abs/2306.07174) - its span runs to the end of the file.

[mb]: https://arxiv.org/abs/2305.10250
[webshop]: https://arxiv.org/abs/2207.01206
"""


def _git(cwd: Path, *args: str) -> str:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    done = subprocess.run(["git", *ident, *args], cwd=cwd, check=True, capture_output=True)
    return done.stdout.decode().strip()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository whose base commit holds README.md; the working folder is its top."""
    _git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "README.md").write_text(DOCUMENT, encoding="utf-8")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def edit(repo: Path, old: str, new: str) -> None:
    """Commit the pull request: one replacement in README.md."""
    text = (repo / "README.md").read_text(encoding="utf-8")
    assert old in text
    (repo / "README.md").write_text(text.replace(old, new), encoding="utf-8")
    _git(repo, "commit", "-qam", "pull request")


def checked(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, object]]:
    """Pull-request mode against the base (HEAD~1): exit status and JSON report."""
    capsys.readouterr()
    status = main(["check", "README.md", "--changed-since", "HEAD~1", "--format", "json",
                   "--skip", "github,web,scope", *extra])  # fmt: skip
    return status, json.loads(capsys.readouterr().out)


def subjects(report: dict[str, object]) -> list[str]:
    return [e["subject"] for e in report["entries"]]  # type: ignore[attr-defined, index]


def test_an_edited_definition_checks_the_entry_that_uses_it(
    repo: Path,
    capsys: pytest.CaptureFixture[str],
    loopback: LoopbackServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    arxiv = ArxivDouble()
    monkeypatch.setenv("CURATOR_ARXIV_API_URL", arxiv.install(loopback))
    for aid, title in [("2306.07174", "A survey"), ("2305.10250", "MemoryBank")]:
        arxiv.papers[aid] = Paper(aid, title)
    edit(repo, "abs/2207.01206", "abs/2501.99999")
    status, report = checked(capsys)
    assert subjects(report) == ["arxiv:2501.99999"]  # not the survey whose span held it
    codes = {(f["code"], f["subject"]) for f in report["findings"]}  # type: ignore[attr-defined]
    assert ("arxiv-not-found", "arxiv:2501.99999") in codes
    assert status == 1


@pytest.mark.parametrize(
    ("use", "definition"),
    [
        ("[WebShop][webshop]", "[WEBSHOP]: https://arxiv.org/abs/2207.01206"),  # case
        ("[WebShop][webshop]", "[webshop]:\n  https://arxiv.org/abs/2207.01206"),  # two lines
        ("[webshop][]", "[webshop]: https://arxiv.org/abs/2207.01206"),  # collapsed
        ("[webshop]", "[webshop]: https://arxiv.org/abs/2207.01206"),  # shortcut
    ],
)
def test_every_form_of_reference_is_followed(
    repo: Path, capsys: pytest.CaptureFixture[str], use: str, definition: str
) -> None:
    text = DOCUMENT.replace("[WebShop][webshop]", use).replace(
        "[webshop]: https://arxiv.org/abs/2207.01206", definition
    )
    (repo / "README.md").write_text(text, encoding="utf-8")
    _git(repo, "commit", "-qam", "another base")
    edit(repo, "abs/2207.01206", "abs/2501.99999")
    assert subjects(checked(capsys, "--skip", "arxiv,github,web,scope")[1]) == ["arxiv:2501.99999"]


def test_one_definition_used_by_two_entries_checks_both(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    twice = "## Surveys\n\n- [MemoryBank, again][mb] - the same paper, listed twice.\n"
    (repo / "README.md").write_text(DOCUMENT.replace("## Surveys\n", twice), encoding="utf-8")
    _git(repo, "commit", "-qam", "another base")
    edit(repo, "[mb]: https://arxiv.org/abs/2305.10250", "[mb]: https://arxiv.org/abs/2305.10251")
    got = subjects(checked(capsys, "--skip", "arxiv,github,web,scope")[1])
    assert got == ["arxiv:2305.10251", "arxiv:2305.10251"]


def test_a_shadowing_definition_added_above_checks_its_users(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first definition of a label wins: one added above the old one redirects it."""
    edit(repo, "## Agents\n", "## Agents\n\n[webshop]: https://arxiv.org/abs/2501.99999\n")
    assert subjects(checked(capsys, "--skip", "arxiv,github,web,scope")[1]) == ["arxiv:2501.99999"]


def test_an_edited_definition_nobody_uses_blames_nobody(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(repo, "[mb]: https", "[unused]: https://arxiv.org/abs/2501.99999\n[mb]: https")
    assert subjects(checked(capsys, "--skip", "arxiv,github,web,scope")[1]) == []


def test_a_bad_id_a_definition_gives_is_reported_at_the_link(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = DOCUMENT.replace(
        "- [MemoryBank][mb] - long-term memory.", "- **MemoryBank**\n  [paper][mb]"
    )
    (repo / "README.md").write_text(text, encoding="utf-8")
    _git(repo, "commit", "-qam", "another base")
    edit(repo, "[mb]: https://arxiv.org/abs/2305.10250", "[mb]: https://arxiv.org/abs/2305.1")
    status, report = checked(capsys, "--skip", "arxiv,github,web,scope")
    found = [(f["code"], f["source"]["line"]) for f in report["findings"]]  # type: ignore[attr-defined, index]
    assert ("arxiv-bad-id", 7) in found
    assert status == 1

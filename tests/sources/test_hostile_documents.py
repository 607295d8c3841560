"""Documents a hostile pull request could send: each case once crashed, hid a link, misplaced a
line, or took super-linear time (found by attacking the reader; see docs/reliability.md)."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import pytest

from curator.cli import main
from curator.core.errors import InputError
from curator.core.normalize import parse_arxiv_id, subject_for_url
from curator.sources.document import DocumentSource
from curator.tools.import_ import import_document

OFFLINE = ["--skip", "arxiv,github,web,scope", "--format", "json"]


def read(tmp_path: Path, text: str) -> list[tuple[int, str, str]]:
    doc = tmp_path / "README.md"
    doc.write_text(text, encoding="utf-8", newline="")
    return [(e.source.line, e.kind.value, e.subject) for e in DocumentSource().load(doc).entries]


@pytest.mark.parametrize("opening", ['<img src="logo.png">', "<details>"])
def test_an_item_that_opens_with_html_is_read_not_a_crash(tmp_path: Path, opening: str) -> None:
    text = f"- {opening}\n\nA paragraph after the list with [a paper](https://arxiv.org/abs/2401.00001).\n"
    assert read(tmp_path, text) == [(3, "link", "arxiv:2401.00001")]


def test_lone_carriage_returns_and_br_keep_the_lines_git_counts(tmp_path: Path) -> None:
    bullet = (
        "- [2024/01] **A Paper With A Long Title** [[paper](https://arxiv.org/abs/2401.{:05d})]"
    )
    text = "# L\n<!--" + "\r" * 30 + "-->\n" + bullet.format(1) + "\n"
    text += "Prose<br>more prose<br>and more.\n\n" + bullet.format(2) + "\n"
    assert [line for line, _, _ in read(tmp_path, text)] == [3, 6]


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.parametrize("noise", ["<!-- \x0c+++ b/nothing -->", "<!--" + "\r" * 30 + "-->"])
def test_a_forged_diff_header_cannot_hide_an_added_entry(
    noise: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["# List", ""] + [
        f"- [2024/01] **Good Paper Number {i} With Title** [[paper](https://arxiv.org/abs/2401.{i:05d})]"
        for i in range(1, 21)
    ]
    _git(tmp_path, "init", "-q", "-b", "main")
    _git(tmp_path, "config", "user.email", "t@example.invalid")
    _git(tmp_path, "config", "user.name", "t")
    (tmp_path / "README.md").write_text("\n".join(lines) + "\n", newline="")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base")
    lines[1] = noise
    lines.append(
        "- [2024/13] **Bad Entry Added By The Pull Request** [[paper](https://arxiv.org/abs/2499.99999)]"
    )
    (tmp_path / "README.md").write_text("\n".join(lines) + "\n", newline="")
    monkeypatch.chdir(tmp_path)
    main(["check", "README.md", *OFFLINE, "--changed-since", "HEAD"])
    report = json.loads(capsys.readouterr().out)
    assert "https://arxiv.org/abs/2499.99999" in [e["subject"] for e in report["entries"]]
    assert {f["code"] for f in report["findings"]} >= {"arxiv-bad-id", "entry-invalid"}


def test_the_first_of_two_hrefs_is_the_link_as_in_a_browser(tmp_path: Path) -> None:
    text = (
        '- **A Paper Whose Link Goes Elsewhere** <a href="https://evil.example/x" '
        'href="https://arxiv.org/abs/2401.10016">paper</a>\n'
    )
    assert [s for _, _, s in read(tmp_path, text)] == ["https://evil.example/x"]
    loaded = DocumentSource().load(tmp_path / "README.md")
    assert [f.code for f in loaded.findings] == ["document-unread"]  # the second is named


def test_links_a_browser_follows_are_read(tmp_path: Path) -> None:
    text = (
        "- **Backslashes** [paper](https:\\\\arxiv.org\\abs\\2401.99999)\n"
        "- **Protocol relative** [code](//github.com/owner/missing-repo)\n"
        "- **An autolink** www.github.com/owner/other-missing\n"
    )
    subjects = [s for _, _, s in read(tmp_path, text)]
    assert subjects == [
        "arxiv:2401.99999",
        "github:owner/missing-repo",
        "github:owner/other-missing",
    ]


def test_full_width_digits_are_no_arxiv_id() -> None:
    assert parse_arxiv_id("２４０１.１００２０") is None
    assert subject_for_url("https://arxiv.org/abs/２４０１.１００２０").startswith("https://")


def test_a_literal_comment_opener_in_prose_hides_nothing(tmp_path: Path) -> None:
    text = (
        "Some prose with a literal <!-- in it.\n\n"
        '- <a href="https://evil.example/x" href="https://arxiv.org/abs/2401.10016">x</a>\n\n'
        "Much later --> closes nothing.\n"
    )
    read(tmp_path, text)
    loaded = DocumentSource().load(tmp_path / "README.md")
    assert [(f.code, f.source.line) for f in loaded.findings] == [("document-unread", 3)]
    unread = loaded.findings[0]  # which link, on which line: what a maintainer looks for
    assert unread.message == "1 linked arXiv ID or repository was not read"
    assert unread.evidence == "line 3: arxiv:2401.10016"


def test_import_never_writes_through_a_symlink(tmp_path: Path) -> None:
    (tmp_path / "outside").mkdir()
    victim = tmp_path / "outside" / "victim.txt"
    victim.write_text("precious")
    data = tmp_path / "repo" / "data"
    data.mkdir(parents=True)
    (data / "links.yaml").symlink_to(victim)
    doc = tmp_path / "repo" / "README.md"
    doc.write_text("# Papers\n\n- [Some website](https://example.org/)\n")
    with pytest.raises(InputError, match="symbolic link"):
        import_document(doc, data)
    assert victim.read_text() == "precious"


@pytest.mark.parametrize(
    "unit",
    [
        "<img src=x ",  # unterminated tags once made the reading check quadratic
        "<!-- x ",  # unterminated comments once made the HTML tokenizer quadratic
        "- see https://example.org/p and https://github.com/a/b\n",  # many bare URLs
        "- [r](https://github.com/o/r) [s](https://github.com/o/s)\n",
    ],
)
def test_a_megabyte_of_hostile_markup_reads_in_linear_time(tmp_path: Path, unit: str) -> None:
    doc = tmp_path / "README.md"
    doc.write_text("# L\n\n<div>\n" + unit * (1_000_000 // len(unit)), encoding="utf-8")
    started = time.process_time()
    DocumentSource().load(doc)
    # Quadratic, these took from half a minute to several minutes; linear, a few seconds.
    assert time.process_time() - started < 12

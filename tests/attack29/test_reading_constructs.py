"""Round 4 attacks (issue 29) on the document reader after the nesting fix (`curator_flat`):
other constructs that might stop or cut the reading, and what a list's hostile link text
makes of the new link findings on a terminal and in workflow commands.

Held: after each construct the next entry is still read, in bounded time. An unclosed HTML
comment hides the rest from GitHub and curator alike (nothing is shown that is not checked);
a pull request that later opens it up gets the uncovered entries checked, though their lines
did not change.
"""

from __future__ import annotations

import json
import subprocess
import time
import unicodedata
from pathlib import Path

import pytest

from curator.cli import main
from curator.sources.document import DocumentSource

AFTER = "- [Made up](https://arxiv.org/abs/2501.99999)\n"
CONSTRUCTS = {
    "quote-list-mixed": "> - " * 60 + "x",
    "list-quote-mixed": "- > " * 60 + "x",
    "ordered-nested": " ".join(["1."] * 60) + " x",
    "html-deep": "<div>" * 3000 + "x" + "</div>" * 3000,
    "html-unclosed-lines": "<div>\n" * 3000 + "x",
    "fence-unclosed": "```\nnot closed",
    "brackets": "[" * 50_000 + "x",
    "emphasis": "*" * 50_000 + "x",
    "details-unclosed": "<details>\n\n" * 500,
    "table-huge": "| a |\n| - |\n" + "| x |\n" * 50_000,
    "indent-staircase": "\n".join(" " * (i * 2) + "- x" for i in range(200)),
    "quote-staircase": "\n".join(">" * i + " - x" for i in range(1, 100)),
    "reference-definitions": "\n".join(f"[r{i}]: http://e{i}.example" for i in range(20_000)),
    "entity-long": "&" + "a" * 100_000 + ";",
    "autolink-unclosed": "<" + "a" * 100_000,
}


@pytest.mark.parametrize("case", list(CONSTRUCTS))
def test_the_entry_after_each_construct_is_read(tmp_path: Path, case: str) -> None:
    path = tmp_path / "README.md"
    first = "- [Real](https://arxiv.org/abs/2305.10250)\n"
    path.write_text(f"# L\n\n{first}\n{CONSTRUCTS[case]}\n\n{AFTER}", encoding="utf-8")
    started = time.monotonic()
    entries = DocumentSource().load(path).entries
    assert time.monotonic() - started < 10
    assert "arxiv:2501.99999" in {e.subject for e in entries}


def _git(root: Path, *args: str) -> None:
    ident = ["-c", "user.email=t@example.invalid", "-c", "user.name=t"]
    subprocess.run(["git", *ident, *args], cwd=root, check=True, capture_output=True)


def _report(out: Path, *args: str) -> dict[str, object]:
    main(["check", "README.md", "--offline", "--no-cache", "--format", "json",
          "--output", str(out), *args])  # fmt: skip
    report: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return report


def test_an_entry_uncovered_from_an_html_comment_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "list"
    root.mkdir()
    _git(root, "init", "-q", "-b", "main")
    real = "- [Real](https://arxiv.org/abs/2305.10250)\n"
    (root / "README.md").write_text(f"# L\n\n{real}\n<!--\n{AFTER}-->\n", encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "base: the made-up paper hidden in a comment")
    monkeypatch.chdir(root)
    hidden = _report(tmp_path / "a.json")
    assert [e["subject"] for e in hidden["entries"]] == ["arxiv:2305.10250"]  # type: ignore[index, union-attr]
    # The pull request deletes only the comment's two lines.
    (root / "README.md").write_text(f"# L\n\n{real}\n{AFTER}", encoding="utf-8")
    _git(root, "commit", "-qam", "pull request")
    shown = _report(tmp_path / "b.json", "--changed-since", "main~1")
    assert "arxiv:2501.99999" in [e["subject"] for e in shown["entries"]]  # type: ignore[index, union-attr]


HOSTILE = (
    "# L\n\n## Intro\n\n"
    "- [a](#intro%1b%5b31mRED%e2%80%ae)\n"
    "- [b](<#intro\x1b[32mGREEN\u202e>)\n"
    "- [c](docs/%1b%5b33mYEL.md)\n"
    "- [d](<docs/\x1b[34mBLUE\u2066.md>)\n"
    "- [e](<docs/x.md%0a::error title=forged::pwned>)\n"
)


@pytest.mark.parametrize("form", ["text", "github"])
def test_hostile_fragments_and_paths_reach_the_output_inert(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    form: str,
) -> None:
    _git(tmp_path, "init", "-q")
    (tmp_path / "README.md").write_text(HOSTILE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    main(["check", "README.md", "--offline", "--no-cache", "--format", form])
    out = capsys.readouterr()
    shown = out.out + out.err
    assert "anchor-missing" in shown and "file-missing" in shown
    bad = [ch for ch in shown if ch != "\n" and unicodedata.category(ch) in {"Cc", "Cf"}]
    assert not bad, repr(bad)
    assert not [line for line in shown.splitlines() if line.startswith("::error title=forged")]


MARKUP = (
    "# L\n\n## Intro\n\n"
    "- [a](#intro%60%3C/details%3E@octo-org/team%3C!--x--%3E%5Bl%5D(http://evil.example)%7C)\n"
    "- [b](docs/%60%3Cimg%20src=x%3E%60@admin%7C%3C!--.md)\n"
)


def test_markup_in_fragments_and_paths_is_inert_in_the_pull_request_comment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The subjects decode to `</details>`, `<!--`, `<img>`, mentions, a link and a `|`."""
    _git(tmp_path, "init", "-q")
    (tmp_path / "README.md").write_text(MARKUP, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    main(["check", "README.md", "--offline", "--no-cache", "--format", "markdown"])
    body = capsys.readouterr().out
    assert "anchor-missing" in body and "file-missing" in body
    rest = body.replace("<!-- curator:report -->", "", 1)
    for raw in ("</details>@", "<!--", "<img", "@octo-org", "@admin", "](http://evil"):
        assert raw not in rest, raw
    rows = [line for line in body.splitlines() if line.startswith("| ❌")]
    assert rows and all(line.count(" | ") == 3 for line in rows)  # no `|` splits a row

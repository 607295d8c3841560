"""Issue 32 item 6: a fix preview a maintainer can read.

`fix --diff` on a terminal marks the changed words inside their line with a little context
(not whole 170-character table rows); piped or written to a file it stays a unified diff
`git apply` takes; `--word-diff` asks for the marked form anywhere. On a terminal, `fix`
lists one line per change by default. The word diff itself is pure (`output.word_diff`).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from curator.core.model import Finding, Severity, Source
from curator.fix import output
from curator.fix.model import Edit, FileFix
from tests.fix.test_cli import LIST, world  # noqa: F401 - the fixture
from tests.fix.world import World
from tests.integration.test_terminal_pty import ESCAPES, environment, in_pty


def test_word_diff_piped_marks_the_words_in_short_lines(world: World) -> None:  # noqa: F811
    ran = world.fix("--word-diff")
    lines = ran.out.splitlines()
    (memgpt,) = [line for line in lines if line.startswith("README.md:5: ")]
    assert "[-System-]{+Systems+}" in memgpt
    assert "[-https://github.com/cpacker/MemGPT-]{+https://github.com/letta-ai/letta+}" in memgpt
    assert "…" in memgpt  # the rest of the row is clipped: context, not the whole row
    assert "README.md:6: | [-2023/05-]{+2023/07+} | MemoryBank: Enhancing Large…" in lines
    assert memgpt.startswith("README.md:5: …PT: Towards LLMs as Operating [-System-]")
    assert all(len(line) < 80 for line in lines if line.startswith(("README.md:6", "README.md:8")))
    assert ran.err.splitlines()[-1].startswith("Would fix 4 findings in 1 file")
    assert world.text() == LIST  # nothing written


def test_diff_piped_is_a_patch_git_applies(world: World) -> None:  # noqa: F811
    ran = world.fix("--diff")
    assert ran.out.startswith("--- a/README.md\n+++ b/README.md\n@@")
    patch = world.root / "fixes.patch"
    patch.write_text(ran.out, encoding="utf-8")
    subprocess.run(["git", "apply", "-p1", str(patch)], cwd=world.root, check=True)
    assert "MemGPT: Towards LLMs as Operating Systems |" in world.text()


@pytest.mark.slow
def test_on_a_terminal_diff_is_the_word_diff_and_fix_lists_each_change(
    world: World,  # noqa: F811
    tmp_path: Path,
) -> None:
    env = environment(tmp_path, NO_COLOR="1")
    shown = in_pty(["fix", "README.md", "--diff", "--no-cache"], world.root, 100, env)
    lines = [ESCAPES.sub("", line).replace("\r", "") for line in shown.out.split("\n")]
    assert any("[-System-]{+Systems+}" in line for line in lines), shown.out
    assert not any(line.startswith(("--- a/", "+| ")) for line in lines)
    assert world.text() == LIST
    env = environment(tmp_path)  # colour: the words styled, no markers
    colored = in_pty(["fix", "README.md", "--diff", "--no-cache"], world.root, 100, env)
    assert "\x1b[" in colored.out and "[-System-]" not in colored.out
    written = in_pty(["fix", "README.md", "--no-cache"], world.root, 100, env)
    plain = ESCAPES.sub("", written.out)
    assert "README.md:6: arxiv-date-mismatch 2023/05 → 2023/07" in plain, plain
    assert "README.md: 2 arxiv-date-mismatch" in plain


def finding() -> Finding:
    return Finding("arxiv-date-mismatch", Severity.WARNING, "arxiv:1", Source("a.md", 2), "m")


def test_word_diff_of_two_touching_edits_is_one_change_and_text_is_inert() -> None:
    text = "# t\n- [Title](https://x.org/a) (2023-01-02) \x1b[31mred\n"
    start = text.index("2023-01-02")
    edits = (
        Edit("a.md", start + 5, start + 7, "01", "03", finding()),
        Edit("a.md", start + 8, start + 10, "02", "04", finding()),
    )
    (line,) = output.word_diff([FileFix("a.md", text, edits)])
    assert (
        line.plain
        == "a.md:2: - [Title](https://x.org/a) ([-2023-01-02-]{+2023-03-04+}) \\x1b[31mred"
    )


@pytest.mark.parametrize("old,new,shown", [("", "s", "{+s+}"), ("s", "", "[-s-]")])
def test_word_diff_shows_only_the_side_that_has_text(old: str, new: str, shown: str) -> None:
    text = f"a {old} c\n"
    edit = Edit("a.md", 2, 2 + len(old), old, new, finding())
    (line,) = output.word_diff([FileFix("a.md", text, (edit,))])
    assert line.plain == f"a.md:1: a {shown} c"

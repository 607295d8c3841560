# ruff: noqa: E501 - Markdown table rows are one line each
"""`curator fix` end to end against the loopback doubles: what it prints, its exit status, the
options it shares with `check`, and every refusal to write."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from curator.sources.document import DocumentSource
from tests.doubles.server import LoopbackServer
from tests.doubles.world import commit, git
from tests.fix.world import World, findings, make_world, published, seed

LIST = """\
# Memory papers

| Date | Title | Paper | Code |
| --- | --- | --- | --- |
| 2023-10 | MemGPT: Towards LLMs as Operating System | [arXiv](https://arxiv.org/abs/2310.08560) | [code](https://github.com/cpacker/MemGPT) |
| 2023/05 | MemoryBank: Enhancing Large Language Models with Long-Term Memory | [arXiv](https://arxiv.org/pdf/2305.10250) | — |
| 2024-01 | Reflexion: Language Agents with Verbal Reinforcement Learning | [arXiv](https://arxiv.org/abs/2303.11366) | — |
| 2024-02 | Cognitive Architectures for Language Agents and Their Memories | [arXiv](https://arxiv.org/abs/2309.02427) | — |
"""
RETITLED = "MemGPT: Towards LLMs as Operating Systems"


@pytest.fixture
def world(loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    """The list above with: MemGPT retitled and its repository moved, MemoryBank's date off,
    Reflexion's ID naming another paper (its own title arXiv's search knows under another
    ID), and CoALA's date off too."""
    w = make_world(loopback, tmp_path / "tree", monkeypatch, LIST)
    seed(w, DocumentSource().load(w.file).entries)
    w.arxiv.papers["2310.08560"].title = RETITLED
    w.arxiv.papers["2305.10250"].published = published("2023-05", "2305", 2)
    w.arxiv.papers["2303.11366"].title = "Quantum Chromodynamics on the Lattice at Finite Density"
    w.paper("2303.99999", "Reflexion: Language Agents with Verbal Reinforcement Learning",
            "2024-01-10T12:00:00Z")  # fmt: skip
    w.arxiv.papers["2309.02427"].published = published("2024-02", "2309", 5)
    w.github.repos.pop("cpacker/memgpt")
    w.github.add("letta-ai/letta", license="MIT", pushed_at="2026-01-01T00:00:00Z")
    w.github.add("cpacker/MemGPT", renamed_to="letta-ai/letta")
    return w


def test_fix_writes_prints_and_exits_on_what_is_left(world: World) -> None:
    ran = world.fix()
    assert ran.status == 1  # the wrong ID (an error) is left
    lines = ran.out.splitlines()
    assert lines[0] == "README.md: 2 arxiv-date-mismatch, 1 arxiv-title-mismatch, 1 repo-moved"
    assert "1 arXiv ID suggestion not applied (rerun with --unsafe to apply)" in lines
    assert re.fullmatch(
        r"Fixed 4 findings in 1 file \(1 left: 1 arxiv-title-mismatch\); "
        r"2 arXiv, 1 GitHub requests in \d+\.\d s",
        lines[-1],
    ), lines[-1]
    text = world.text()
    assert RETITLED in text and "| 2023/07 |" in text and "| 2024-07 |" in text
    assert "https://github.com/letta-ai/letta" in text
    assert "Reflexion: Language Agents with Verbal Reinforcement Learning" in text
    assert {c for c, _ in findings(world.check())} == {"arxiv-title-mismatch"}
    # --unsafe: the ID arXiv's search names; then nothing is left.
    unsafe = world.fix("--unsafe")
    assert unsafe.status == 0 and "arxiv.org/abs/2303.99999" in world.text()
    assert findings(world.check()) == set()
    assert world.fix().out.startswith("Nothing to fix; ")


def test_verbose_lists_each_change_old_to_new(world: World) -> None:
    ran = world.fix("--diff", "--verbose")
    changes = [line for line in ran.err.splitlines() if line.startswith("README.md:")]
    moved = "repo-moved https://github.com/cpacker/MemGPT → https://github.com/letta-ai/letta"
    assert any(line.endswith(moved) for line in changes), changes
    assert "README.md:6: arxiv-date-mismatch 2023/05 → 2023/07" in changes, changes


def test_diff_writes_nothing_and_sends_the_summary_to_stderr(world: World) -> None:
    before = world.file.read_bytes()
    ran = world.fix("--diff")
    assert world.file.read_bytes() == before
    assert ran.out.startswith("--- a/README.md\n+++ b/README.md\n@@")
    assert f"+| 2023-10 | {RETITLED} |" in ran.out
    assert ran.err.splitlines()[-1].startswith("Would fix 4 findings in 1 file (1 left")
    assert ran.status == 1


def test_only_limits_the_fix_and_an_unknown_code_is_bad_usage(world: World) -> None:
    """`--only repo-moved` asks GitHub alone (no other service can give that fix); with
    `--all-checks` every service is asked, and what they find is left."""
    ran = world.fix("--only", "repo-moved")
    assert ran.status == 0
    assert "Fixed 1 finding in 1 file; 1 GitHub request in " in ran.out
    assert "letta-ai/letta" in world.text() and RETITLED not in world.text()
    again = world.fix("--only", "arxiv-title-mismatch", "--all-checks")
    assert again.status == 1
    assert "Fixed 1 finding in 1 file (3 left" in again.out and RETITLED in world.text()
    bad = world.fix("--only", "repo-moved,no-such-code")
    assert bad.status == 2
    assert bad.err.strip() == "curator: error: --only: unknown finding code no-such-code"
    typo = world.fix("--only", "repo-moves")
    assert typo.status == 2
    assert typo.err.strip() == (
        "curator: error: --only: unknown finding code repo-moves (did you mean repo-moved?)"
    )


def test_the_title_search_is_one_request_counted_and_an_outage_is_a_note(
    world: World,
) -> None:
    from dataclasses import replace

    from curator.config.options import from_environment
    from curator.fix.run import prepare

    options = replace(from_environment({}), paths=(world.name,))
    prepared = prepare(options)
    searches = world.arxiv.searches()
    assert len(searches) == 1
    assert searches[0].query["search_query"] == [
        'ti:"reflexion language agents with verbal reinforcement learning"'
    ]
    assert prepared.report.requests.arxiv == len(world.arxiv.requests())
    wrong = next(f for f in prepared.report.findings if f.subject == "arxiv:2303.11366")
    assert wrong.suggestion == "arXiv:2303.99999" and "another paper" in wrong.message
    # Asked again within the TTL: answered from the cache.
    again = prepare(options)
    assert len(world.arxiv.searches()) == 1 and again.report.requests.cache_hits > 0
    # The search refused or down: no suggestion, a note, the rest fixed as before.
    world.arxiv.refuse_search = "the query is too complex"
    out = world.fix("--no-cache", "--diff")
    assert "note: arXiv's title search failed: arXiv refused the query" in out.err
    assert "arXiv ID suggestion" not in out.err
    assert "Would fix 4 findings" in out.err


def test_offline_uses_only_the_cache(world: World) -> None:
    world.check()
    world.fix("--diff")  # the title search's answer is kept too
    sent = len(world.server.requests)
    ran = world.fix("--offline", "--unsafe")
    assert len(world.server.requests) == sent
    assert ran.status == 0 and "Fixed 5 findings" in ran.out


def test_changed_since_fixes_only_the_entries_a_change_touched(world: World) -> None:
    git(world.root, "init", "-q")
    commit(world.root, {}, "list")
    text = world.text().replace("| 2024-02 | Cognitive", "| 2024-02  | Cognitive")
    world.file.write_text(text, encoding="utf-8")
    ran = world.fix("--changed-since", "HEAD")
    assert "Fixed 1 finding in 1 file" in ran.out, ran.out + ran.err
    assert "| 2024-07  | Cognitive" in world.text()
    assert RETITLED not in world.text()


def test_a_symlinked_list_is_refused_and_nothing_is_written(world: World, tmp_path: Path) -> None:
    real = world.root / "real.md"
    world.file.rename(real)
    world.file.symlink_to(real.name)
    before = real.read_bytes()
    ran = world.fix()
    assert ran.status == 2
    assert ran.err.strip() == "curator: error: README.md: refusing to write through a symbolic link"
    assert real.read_bytes() == before and world.file.is_symlink()


def test_a_list_in_a_linked_folder_is_refused(world: World) -> None:
    inner = world.root / "inner"
    inner.mkdir()
    (inner / "README.md").write_bytes(world.file.read_bytes())
    (world.root / "lists").symlink_to("inner", target_is_directory=True)
    before = (inner / "README.md").read_bytes()
    ran = world.run("fix", "lists/README.md")
    assert ran.status == 2 and "refusing to write through a symbolic link" in ran.err
    assert (inner / "README.md").read_bytes() == before


def test_a_list_outside_the_tree_is_refused(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path / "elsewhere.md"
    outside.write_bytes(world.file.read_bytes())
    ran = world.run("fix", str(outside))
    assert ran.status == 2
    assert ran.err.strip() == (
        f"curator: error: {outside}: is outside the checked tree; not written"
    )
    assert outside.read_bytes() == world.file.read_bytes()
    shown = world.run("fix", str(outside), "--diff")  # reading it is the caller's choice
    assert shown.status == 1 and "+++ b/" in shown.out


def test_names_from_the_tree_reach_the_terminal_escaped(world: World) -> None:
    odd = world.root / "evil\x1b[31m\u202e.md"
    odd.write_bytes(world.file.read_bytes())
    ran = world.run("fix", odd.name)
    assert ran.status == 1
    assert "\x1b" not in ran.out and "\u202e" not in ran.out
    assert "evil\\x1b[31m\\u202e.md: 2 arxiv-date-mismatch" in ran.out


def test_the_file_keeps_its_mode_bom_and_line_endings(world: World) -> None:
    crlf = "\ufeff" + world.text().replace("\n", "\r\n")
    world.file.write_bytes(crlf.encode("utf-8"))
    os.chmod(world.file, 0o640)
    world.fix()
    data = world.file.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and data.count(b"\r\n") == crlf.count("\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert RETITLED.encode() in data
    assert os.stat(world.file).st_mode & 0o777 == 0o640
    assert [p.name for p in world.root.iterdir() if p.name.startswith(".README")] == []


PROJECTS = """\
# Memory

## Papers

| Date | Title | Paper |
| --- | --- | --- |
| 2023-05 | MemoryBank: Enhancing Large Language Models with Long-Term Memory | [arXiv](https://arxiv.org/abs/2305.10250) |

## Product & Project

| Date | Name | Title | Paper |
| --- | --- | --- | --- |
| 2026-06 | MemBank App | A memory layer for chat apps built on the MemoryBank paper | [arXiv](https://arxiv.org/abs/2305.10250) |
"""


def test_a_project_row_linking_a_listed_paper_is_neither_reported_nor_fixed(
    loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The project's own description and date are not the paper's: no title or date finding
    on its row (only the cross-listing), and `fix` leaves the file as it is."""
    w = make_world(loopback, tmp_path / "tree", monkeypatch, PROJECTS)
    w.paper("2305.10250", "MemoryBank: Enhancing Large Language Models with Long-Term Memory",
            "2023-05-17T12:00:00Z")  # fmt: skip
    report = w.check()
    assert findings(report) == {("entry-cross-listed", "arxiv:2305.10250")}
    before = w.file.read_bytes()
    assert w.fix().out.startswith("Nothing to fix")
    assert w.file.read_bytes() == before

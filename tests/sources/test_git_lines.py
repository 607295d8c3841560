"""Lines are git's lines (issue 29, defect 2): catalogues, rules files, fixes.

YAML breaks a line at U+2028, U+2029, U+0085 and a lone CR too; git and GitHub at "\\n"
only. Findings, entries, errors and fixes name the line git counts, and a value's bytes
stay exactly as written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from curator.core.errors import InputError
from curator.fix.doc_edits import DocText
from curator.run.config_changes import _diff
from curator.sources.yaml_catalog import load_text
from curator.textio.located_yaml import compose, line_of
from tests.doubles.server import LoopbackServer
from tests.fix.world import make_world, seed

BREAKS = pytest.mark.parametrize(
    "brk", ["\u2028", "\u2029", "\x85", "\r"], ids=["LS", "PS", "NEL", "lone-CR"]
)


def catalogue(brk: str, last_date: str = "2023-05") -> str:
    title = "Memory" + brk * 6 + "Everywhere"
    return (
        "section: S\npapers:\n"
        f'  - title: "{title}"  # a comment{brk}{brk}\n'
        '    arxiv: "2305.10250"\n    date: "2023-05"\n'
        '  - title: "Second Paper"\n    arxiv: "2305.10251"\n'
        f'    date: "{last_date}"\n'
    )


@BREAKS
def test_entries_and_findings_name_the_lines_git_counts(brk: str) -> None:
    loaded = load_text(catalogue(brk, "someday"), "data/papers.yaml")
    assert [(e.subject, e.source.line) for e in loaded.entries] == [
        ("arxiv:2305.10250", 3),
        ("arxiv:2305.10251", 6),
    ]
    (invalid,) = loaded.findings
    assert (invalid.code, invalid.source.line) == ("entry-invalid", 6)
    assert invalid.evidence.startswith("line 8: date")
    # The value is read exactly as written.
    assert loaded.entries[0].title.startswith("Memory")


@BREAKS
def test_a_syntax_error_names_the_line_git_counts(brk: str) -> None:
    text = f'section: "S{brk * 4}"\npapers:\n  - title: "x"\n    arxiv: [unclosed\n'
    with pytest.raises(InputError) as caught:
        compose(text, "data/papers.yaml")
    assert caught.value.line == 5  # the end of the text, where the flow sequence is cut


@BREAKS
def test_every_node_of_a_rules_file_is_on_its_git_line(brk: str) -> None:
    node = compose(f"ignore:\n  patterns:\n    - 'a{brk}b'\n    - 'c'\n", "rules/links.yaml")
    assert node is not None
    assert line_of(node, ["ignore", "patterns", 1]) == 4


def test_a_text_without_such_breaks_keeps_its_marks() -> None:
    node = compose("a: 1\r\nb: 2\r\n", "x.yaml")
    assert node is not None and line_of(node, ["b"]) == 2


@BREAKS
def test_fix_writes_the_right_entrys_value_byte_for_byte(
    brk: str, loopback: LoopbackServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = make_world(loopback, tmp_path, monkeypatch, catalogue(brk), name="data/papers.yaml")
    seed(world, load_text(catalogue(brk), "data/papers.yaml").entries)
    world.paper("2305.10251", "Second Paper", "2023-07-10T12:00:00Z")  # the list says 2023-05
    before = world.text()
    ran = world.fix()
    assert ran.status == 0, ran.err
    assert world.text() == before.replace('date: "2023-05"\n', 'date: "2023-07"\n').replace(
        'date: "2023-07"', 'date: "2023-05"', 1
    )


@BREAKS
def test_a_changed_rules_file_is_reported_at_its_git_line(brk: str) -> None:
    before = f"# links{brk}{brk}{brk}\nignore:\n  patterns:\n    - 'a'\n"
    line, evidence = _diff(before, before.replace("'a'", "'b'"))
    assert (line, evidence) == (4, "-- 'a'\n+- 'b'")  # each line cleaned


def test_fix_tells_markdown_from_html_on_git_lines() -> None:
    """A document's lone CRs end lines for Markdown, not for git: an HTML block read at
    Markdown line 2 to 8 is git's lines 2 and 3, and the entry after it is Markdown (its
    new text is escaped for Markdown, not as HTML)."""
    text = "# L\n<!--" + "\r" * 5 + "-->\n\n- [A *Paper*](https://arxiv.org/abs/2305.10250)\n"
    doc = DocText("README.md", text, [4])
    assert not doc.in_html(text.index("- [A"))
    assert doc.in_html(text.index("<!--") + 2)

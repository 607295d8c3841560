"""The fix values: edits applied exactly, overlaps refused, diffs and whole-line changes."""

from __future__ import annotations

import pytest

from curator.fix import output
from curator.fix.model import Edit, FileFix, OverlapError, apply, lines_of
from curator.model import Finding, Severity, Source

FINDING = Finding(
    "arxiv-date-mismatch", Severity.WARNING, "arxiv:2310.08560", Source("a.md", 1), "m"
)


def edit(text: str, old: str, new: str, nth: int = 0) -> Edit:
    start = -1
    for _ in range(nth + 1):
        start = text.index(old, start + 1)
    return Edit("a.md", start, start + len(old), old, new, FINDING)


def test_apply_changes_only_the_named_characters_and_keeps_crlf() -> None:
    text = "| 2023-09 | Old title |\r\n| 2024-01 | Other |\r\n"
    fixed = apply(text, [edit(text, "2023-09", "2023-10"), edit(text, "Old title", "New")])
    assert fixed == "| 2023-10 | New |\r\n| 2024-01 | Other |\r\n"


def test_overlapping_or_stale_edits_are_refused() -> None:
    text = "abcdef"
    with pytest.raises(OverlapError):
        apply(
            text, [Edit("a.md", 0, 3, "abc", "x", FINDING), Edit("a.md", 2, 4, "cd", "y", FINDING)]
        )
    with pytest.raises(ValueError, match="does not hold"):
        apply(text, [Edit("a.md", 0, 3, "xyz", "x", FINDING)])


def test_line_changes_merge_edits_of_one_line_and_keep_endings() -> None:
    text = "# t\r\n- 2023-09 Old\r\n- keep\r\n- 2020 x\r\n"
    fix = FileFix(
        "a.md",
        text,
        (edit(text, "2023-09", "2023-10"), edit(text, "Old", "New"), edit(text, "2020", "2021")),
    )
    changes = fix.line_changes()
    assert [(c.first, c.last, c.old, c.text) for c in changes] == [
        (2, 2, "- 2023-09 Old\r\n", "- 2023-10 New\r\n"),
        (4, 4, "- 2020 x\r\n", "- 2021 x\r\n"),
    ]
    assert len(changes[0].edits) == 2


def test_diff_names_the_file_and_only_changed_lines() -> None:
    text = "a\nb\nc\nd\ne\nf\ng\nh\ni\n"
    fix = FileFix("x/a.md", text, (edit(text, "h", "H"),))
    diff = fix.diff()
    assert diff.startswith("--- a/x/a.md\n+++ b/x/a.md\n@@ -5,5 +5,5 @@\n")
    assert "-h\n+H\n" in diff


def test_lines_split_at_newline_only() -> None:
    assert lines_of("a\u2028b\x0cc\rd\ne") == ["a\u2028b\x0cc\rd\n", "e"]


def test_the_printed_diff_breaks_lines_where_the_file_does_only() -> None:
    """A form feed (or U+2028, a file separator) in an unchanged line of the list starts no
    line of `curator fix --diff`: the text after it stays on its line, escaped, and cannot
    pass for an added line under a real one."""
    for separator in ("\x0c", "\u2028", "\x1c", "\x85"):
        text = (
            "# L\n\n- [A](https://a.example/x) (2023-01)\n"
            f"  note{separator}+ [Evil](https://evil.example) added by nobody\n"
        )
        at = text.index("2023-01") + 5
        found = Finding("arxiv-date-mismatch", Severity.WARNING, "s", Source("README.md", 3), "m")
        fix = FileFix("README.md", text, (Edit("README.md", at, at + 2, "01", "03", found),))
        shown = output.diff([fix]).split("\n")
        assert len(shown) == len(fix.diff().split("\n"))
        assert not [line for line in shown if line.startswith("+ [Evil]")]
        assert shown[-2].startswith("   note\\x") or shown[-2].startswith("   note\\u")

"""The fix values: edits applied exactly, overlaps refused, diffs and whole-line changes."""

from __future__ import annotations

import difflib
import random
import time

import pytest

from curator.core.model import Entry, Finding, Kind, Severity, Source
from curator.fix import output
from curator.fix.model import Edit, FileFix, OverlapError, apply, lines_of
from tests.fix.world import long_list

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


def _difflib(fix: FileFix) -> str:
    """The unified diff difflib makes of the fix (what `FileFix.diff` gave before)."""
    lines = difflib.unified_diff(
        lines_of(fix.before), lines_of(fix.after), f"a/{fix.file}", f"b/{fix.file}"
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@pytest.mark.parametrize("seed", range(60))
def test_the_diff_is_difflibs_for_any_edits(seed: int) -> None:
    """Edits on random lines (neighbours, gaps of six and seven lines, the first and the
    last line, a file without a final newline, CRLF): the same text as difflib's."""
    rng = random.Random(seed)
    count = rng.randint(1, 40)
    end = rng.choice(["\n", "\r\n"])
    rows = [f"- [Paper {i}](https://a.example/{i}) (2023-0{i % 9 + 1}){end}" for i in range(count)]
    if rng.random() < 0.3:
        rows[-1] = rows[-1].rstrip("\r\n")
    text = "".join(rows)
    chosen = sorted(rng.sample(range(count), rng.randint(1, min(count, 8))))
    edits = []
    for i in chosen:
        at = sum(len(r) for r in rows[:i]) + rows[i].index("Paper")
        edits.append(Edit("a.md", at, at + 5, "Paper", rng.choice(["Study", "Work x"]), FINDING))
    fix = FileFix("a.md", text, tuple(edits))
    assert fix.diff() == _difflib(fix)


def test_the_diff_of_thousands_of_fixes_is_linear() -> None:
    """6,000 date fixes in a 60,000-line list: difflib took 113 s of CPU to find what the
    edits already say; built from them, a fraction of a second."""
    _, fix = long_list("a.md", FINDING)
    began = time.process_time()
    shown = fix.diff()
    assert time.process_time() - began < 5
    assert shown.count("\n-- [Paper") == 6000 and shown.count("\n+- [Paper") == 6000


def test_an_answer_touching_an_earlier_ones_characters_is_dropped_as_before() -> None:
    """The planner's overlap check by bisection picks exactly the answers the plain pairwise
    check picked (earlier answer wins; empty edits count as insertion points)."""
    from curator.fix.plan import _disjoint, _Located
    from curator.fix.values import Change, Want

    def pairwise(answers: list[list[tuple[int, int]]]) -> list[int]:
        taken: list[tuple[int, int]] = []
        kept: list[int] = []
        for k, spans in enumerate(answers):
            if not any(a < y and x < b for a, b in spans for x, y in taken):
                taken.extend(spans)
                kept.append(k)
        return kept

    found = Finding("link-redirect", Severity.INFO, "u", Source("a.md", 1), "m")
    entry = Entry("u", Kind.LINK, Source("a.md", 1))
    rng = random.Random(7)
    for _ in range(3000):
        answers = [
            [(a, a + rng.randint(0, 5)) for a in rng.sample(range(30), rng.randint(1, 3))]
            for _ in range(rng.randint(1, 12))
        ]
        located = [
            _Located(found, entry, Want(Change.URL, str(k)),
                     tuple(Edit("a.md", a, b, "", "", found) for a, b in spans))
            for k, spans in enumerate(answers)
        ]  # fmt: skip
        assert [int(got.want.new) for got in _disjoint(located)] == pairwise(answers)

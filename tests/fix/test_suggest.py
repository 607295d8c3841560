"""Suggestions: a plan's whole-line changes as the JSON report carries them, within limits,
read back strictly; a report without them is byte for byte what it was."""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path

import pytest

from curator.core.errors import InputError
from curator.fix.model import FileFix
from curator.fix.plan import FixPlan
from curator.fix.suggest import (
    MAX_FIXES,
    MAX_LINES,
    Suggestion,
    fits,
    inside_tree,
    suggestions,
)
from curator.report import json as json_report
from curator.report.reader import read_saved
from tests.fix.world import long_list
from tests.publish.world import HEAD, edit, finding, head_fixes
from tests.report.sample import realistic_report


def planned(safe: FileFix, unsafe: FileFix) -> tuple[Suggestion, ...]:
    """The suggestions of a plan with these safe and unsafe fixes, as `check --suggest`
    makes them."""
    plan = FixPlan((safe,), (unsafe,), ())
    return suggestions(plan.fixes(unsafe=True), plan.unsafe)


def test_one_suggestion_per_line_change_unsafe_ones_marked() -> None:
    title, date = head_fixes().edits
    unsafe = FileFix("README.md", HEAD, (title,))
    found = planned(FileFix("README.md", HEAD, (date,)), unsafe)
    assert [(s.first, s.codes, s.safe) for s in found] == [
        (5, ("arxiv-title-mismatch",), False),
        (6, ("arxiv-date-mismatch",), True),
    ]


def test_a_safe_and_an_unsafe_edit_on_one_line_are_one_unsafe_suggestion() -> None:
    text = "- [Title](https://arxiv.org/abs/2305.99999) (2023-01)\n"
    wrong_id = edit(text, "2305.99999", "2305.10250", finding("arxiv-not-found", "arxiv:x", 1))
    date = edit(text, "2023-01", "2023-05", finding("arxiv-date-mismatch", "arxiv:x", 1))
    (one,) = planned(FileFix("a.md", text, (date,)), FileFix("a.md", text, (wrong_id,)))
    assert not one.safe and one.new == "- [Title](https://arxiv.org/abs/2305.10250) (2023-05)\n"
    assert set(one.codes) == {"arxiv-not-found", "arxiv-date-mismatch"}


def test_edits_on_one_line_are_one_suggestion_with_both_codes() -> None:
    text = "- [Old title](https://arxiv.org/abs/2305.10250) (2023-01)\n"
    edits = (
        edit(text, "Old title", "New title", finding("arxiv-title-mismatch", "arxiv:x", 1)),
        edit(text, "2023-01", "2023-05", finding("arxiv-date-mismatch", "arxiv:x", 1)),
    )
    (one,) = suggestions([FileFix("README.md", text, edits)])
    assert one.codes == ("arxiv-title-mismatch", "arxiv-date-mismatch")
    assert one.new == "- [New title](https://arxiv.org/abs/2305.10250) (2023-05)\n"


def test_no_ops_and_oversized_changes_are_not_suggestions() -> None:
    text = "a\n" * (MAX_LINES + 2)
    same = edit(text, "a", "a", finding("link-redirect", "u", 1))
    assert suggestions([FileFix("a.md", text, (same,))]) == ()
    one = suggestions([head_fixes()])[0]
    assert fits(one) and not fits(replace(one, new=one.new + "extra line\n"))
    assert not fits(replace(one, first=1, last=MAX_LINES + 1))


def test_at_most_max_fixes() -> None:
    text = "x\n"
    one = (edit(text, "x", "y", finding("link-redirect", "u", 1)),)
    files = [FileFix(f"f{i}.md", text, one) for i in range(MAX_FIXES + 5)]
    assert len(suggestions(files)) == MAX_FIXES


def test_the_json_report_carries_fixes_only_when_planned(tmp_path: Path) -> None:
    report = realistic_report()
    plain = json_report.render(report)
    assert plain == json_report.render(report, fixes=None) and '"fixes"' not in plain
    found = suggestions([head_fixes()])
    path = tmp_path / "report.json"
    path.write_text(json_report.render(report, fixes=found), encoding="utf-8")
    saved = read_saved(path)
    assert saved.fixes == found and saved.report.findings == report.findings
    path.write_text(json_report.render(report, fixes=()), encoding="utf-8")
    assert read_saved(path).fixes == ()
    path.write_text(plain, encoding="utf-8")
    assert read_saved(path).fixes is None
    assert json.loads(plain).keys() == {
        "schema", "summary", "entries", "findings", "requests", "notes", "elapsed_seconds",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("name", "inside"),
    [
        ("README.md", True),
        ("data/papers/2024.yaml", True),
        ("docs/ünïcode list.md", True),
        ("", False),
        ("../README.md", False),
        ("data/../../x", False),
        ("/etc/passwd", False),
        ("C:/x", False),
        ("a\\b", False),
        ("./README.md", False),
        ("a//b", False),
        (".git/config", False),
        ("sub/.GIT/hooks", False),
        ("a\nb", False),
        ("a\u202eb", False),
    ],
)
def test_inside_tree(name: str, inside: bool) -> None:
    assert inside_tree(name) is inside


def test_a_fix_with_more_lines_than_it_says_is_refused(tmp_path: Path) -> None:
    good = suggestions([head_fixes()])[0]
    bad = Suggestion(good.file, 5, 5, good.old + good.old, good.new + good.new, good.codes, "s")
    path = tmp_path / "report.json"
    path.write_text(json_report.render(realistic_report(), fixes=[bad]), encoding="utf-8")
    with pytest.raises(InputError, match="fixes/0: the lines and the text do not match"):
        read_saved(path)


def test_thousands_of_fixes_in_a_long_list_are_linear() -> None:
    """A pull request that copies a long list with every date changed (its answers cached)
    makes thousands of fixes in one file: each line change found without splitting the
    whole text again (6,000 fixes in 60,000 lines took 103 s of CPU; now a fraction of one),
    and each the same as found alone."""
    found = finding("arxiv-date-mismatch", "arxiv:2305.00000", 1, "2023-03")
    rows, fix = long_list("README.md", found)
    text, edits = fix.before, fix.edits
    began = time.process_time()
    changes = fix.line_changes()
    assert time.process_time() - began < 5
    assert len(changes) == 6000 and changes[-1].first == 59_991
    last = rows[59_990]
    assert changes[-1].old == last and changes[-1].text == last.replace("01)", "03)")
    alone = FileFix("README.md", text, edits[-1:]).line_changes()
    assert alone == [changes[-1]]


def test_every_suggestion_written_is_one_the_comment_job_reads(tmp_path: Path) -> None:
    """A line of the list with a stray control character (a backspace pasted with a title)
    or a file whose name holds a format character: the reader refuses a report holding such
    a fix, whole (the pull request would get no comment at all), so the writer leaves that
    fix out and keeps the others."""
    text = (
        "- [Title\x08](https://arxiv.org/abs/2305.10250) (2023-01)\n"
        "- [Other](https://arxiv.org/abs/2305.10251) (2023-01)\n"
    )
    first = edit(text, "2023-01", "2023-05", finding("arxiv-date-mismatch", "arxiv:x", 1))
    at = text.rindex("2023-01")
    second = replace(first, start=at, end=at + 7)
    odd = FileFix("odd\u200b.md", text, (first,))
    found = suggestions([FileFix("README.md", text, (first, second)), odd])
    assert [(s.file, s.first) for s in found] == [("README.md", 2)]
    path = tmp_path / "report.json"
    path.write_text(json_report.render(realistic_report(), fixes=found), encoding="utf-8")
    assert read_saved(path).fixes == found

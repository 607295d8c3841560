"""Recorded maintainer decisions: the decisions file, inline markers, settling a decision."""

from __future__ import annotations

import pytest

from curator.core.decision import Decision
from curator.core.errors import InputError
from curator.core.model import Verdict
from curator.scope.decided import markers, parse_decisions, settle

NAME = "rules/scope-decisions.yaml"


def test_the_decisions_file_names_papers_in_any_spelling() -> None:
    text = (
        "- id: arxiv:2305.10250\n  decision: include\n  by: '@ada'\n  note: agent memory\n"
        "- id: https://arxiv.org/abs/2401.00001v2\n  decision: exclude\n"
        "- id: https://OpenReview.net/forum?id=abc\n  decision: include\n"
    )
    found = parse_decisions(text, NAME)
    assert set(found) == {
        "arxiv:2305.10250",
        "arxiv:2401.00001",
        "https://openreview.net/forum?id=abc",
    }
    first = found["arxiv:2305.10250"]
    assert first.where == f"{NAME}:1" and first.by == "@ada"
    assert first.describe() == f"include by @ada, recorded at {NAME}:1 (agent memory)"
    assert found["arxiv:2401.00001"].verdict is Verdict.EXCLUDE
    assert parse_decisions(None, NAME) == {} and parse_decisions("", NAME) == {}


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("id: 1\n", "expected a list", 1),
        ("- id: nothing\n  decision: include\n", "`id` must be an arXiv ID", 1),
        ("- id: 2305.10250\n  decision: include\n", "must be text: quote", 1),
        ("- id: '2305.10250'\n  decision: maybe\n", "include or exclude", 2),
        ("- id: '2305.10250'\n  decision: include\n  colour: red\n", "unknown key 'colour'", 1),
        (
            "- id: '2305.10250'\n  decision: include\n"
            "- id: arxiv:2305.10250\n  decision: exclude\n",
            "decided twice",
            3,
        ),
    ],
)
def test_a_malformed_decisions_file_names_file_and_line(text: str, message: str, line: int) -> None:
    with pytest.raises(InputError, match=message) as info:
        parse_decisions(text, NAME)
    assert info.value.line == line


def test_inline_markers_decide_the_papers_linked_on_their_line() -> None:
    text = (
        "- [A](https://arxiv.org/abs/2305.10250) <!-- curator: scope-include -->\n"
        "- [B](https://arxiv.org/abs/2401.00001)\n"
        "  arxiv: '2402.00002'  # curator: scope-exclude\n"
        "<!-- curator: scope-include --> no link here\n"
    )
    found = markers(text, "README.md")
    assert {s: (r.verdict.value, r.where) for s, r in found.items()} == {
        "arxiv:2305.10250": ("include", "README.md:1"),
        "arxiv:2402.00002": ("exclude", "README.md:3"),  # a catalogue's `arxiv:` key
    }
    yaml_line = "  - url: https://arxiv.org/abs/2402.00002  # curator: scope-exclude\n"
    assert markers(yaml_line, "data/p.yaml")["arxiv:2402.00002"].verdict is Verdict.EXCLUDE


def test_settle_names_the_record_and_keeps_the_engines_quotes() -> None:
    engine = Decision(Verdict.REVIEW, ("gate",), (), "abstract", "why", "scope-review", "warning")
    recorded = parse_decisions("- id: '2305.10250'\n  decision: include\n", NAME)[
        "arxiv:2305.10250"
    ]
    settled = settle(engine, recorded)
    assert (settled.verdict, settled.code, settled.decided_by) == (
        Verdict.INCLUDE,
        None,
        f"{NAME}:1",
    )
    assert Decision.from_dict(settled.as_dict()) == settled

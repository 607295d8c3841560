"""The engine's fast phrase search finds exactly what the rule's regex finds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from curator.core.decision import PaperText
from curator.scope import matching
from curator.scope.engine import decide
from curator.scope.matching import Hit, find_hits
from curator.scope.matching import spans as _spans
from curator.scope.rules import Cue, Pattern, load_rules
from curator.scope.signals import cue_hits
from tests.conftest import SCOPE

RULES = load_rules(Path(__file__).resolve().parents[2] / "rules" / "scope.yaml")
PATTERNS = [p for r in (RULES.gate, *RULES.rules) for p in (*r.patterns, *r.exceptions, *r.unless)]
GROUPS = [
    group
    for r in (RULES.gate, *RULES.rules)
    for group in (r.patterns, r.exceptions, r.unless, *r.aspects.values())
    if group
]
WORDS = sorted({w for p in PATTERNS for w in p.source.replace("*", "").replace("-", " ").split()})


@pytest.mark.slow
def test_same_spans_on_every_labelled_abstract() -> None:
    records = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    texts = [r["source_abstract"] for r in records if r.get("source_abstract")][:120]
    for text in texts:
        for pattern in PATTERNS:
            assert _spans(pattern, text) == pattern.finditer(text), pattern.source


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(WORDS), st.sampled_from([" ", "-", "—", ". ", "_", "s", "ing"])),
        max_size=40,
    ),
    st.sampled_from(PATTERNS),
)
def test_same_spans_on_generated_text(parts: list[str], pattern: object) -> None:
    text = " ".join(parts).upper() if len(parts) % 3 == 0 else "".join(parts)
    assert _spans(pattern, text) == pattern.finditer(text)  # type: ignore[attr-defined]


def _every_pattern_everywhere(group: tuple[Pattern, ...], paper: PaperText) -> list[Hit]:
    found = [
        Hit(name, a, b, p.source)
        for name in ("title", "abstract")
        for p in group
        for a, b in p.finditer(paper.field(name))
    ]
    return sorted(found, key=lambda h: (h.field != "title", h.start))


@pytest.mark.slow
def test_rule_hits_are_every_pattern_searched_everywhere() -> None:
    """Skipping a phrase whose words are not all in the text never drops a match."""
    records = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    for r in records[:120]:
        paper = PaperText(r.get("title") or "", r.get("source_abstract") or "")
        for group in GROUPS:
            expected = _every_pattern_everywhere(group, paper)
            assert find_hits(group, paper, ("title", "abstract")) == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(st.sampled_from(WORDS), st.sampled_from([" ", "-", "\u2010", ". "])), max_size=40
    ),
    st.sampled_from(GROUPS),
)
def test_rule_hits_on_generated_text(parts: list[str], group: tuple[Pattern, ...]) -> None:
    text = " ".join(parts).title() if len(parts) % 2 else "".join(parts)
    paper = PaperText(text[:30], text)
    assert find_hits(group, paper, ("title", "abstract")) == _every_pattern_everywhere(group, paper)


def test_a_cue_finds_what_one_group_of_all_its_patterns_finds() -> None:
    records = json.loads((SCOPE / "2026-10-03-review.json").read_text(encoding="utf-8"))
    for r in records[:120]:
        paper = PaperText(r.get("title") or "", r.get("source_abstract") or "")
        for cue in (Cue.CONTRIBUTION, Cue.OPERATION):
            group = [p for rule in RULES.cues(cue) for p in rule.patterns]
            fields = ["title", "abstract"]
            assert cue_hits(RULES, cue, paper, fields) == find_hits(group, paper, fields)


def test_reading_more_papers_plans_no_more_pattern_groups() -> None:
    """A pattern group built per paper would miss the plan cache and stay held in it."""
    matching._PLANS.clear()  # a cache: emptied so that only this test's plans are counted
    papers = [
        PaperText(f"Agent memory {i}", f"We propose a memory {i} that agents write and recall.")
        for i in range(20)
    ]
    decide(papers[0], RULES)
    planned = len(matching._PLANS)
    for paper in papers[1:]:
        decide(paper, RULES)
    assert len(matching._PLANS) == planned

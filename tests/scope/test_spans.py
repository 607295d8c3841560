"""The engine's fast phrase search finds exactly what the rule's regex finds."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from curator.scope.matching import spans as _spans
from curator.scope.rules import load_rules
from tests.conftest import SCOPE

RULES = load_rules(Path(__file__).resolve().parents[2] / "rules" / "scope.yaml")
PATTERNS = [p for r in (RULES.gate, *RULES.rules) for p in (*r.patterns, *r.exceptions, *r.unless)]
WORDS = sorted({w for p in PATTERNS for w in p.source.replace("*", "").replace("-", " ").split()})


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

"""Screening records: loading with lines, and every record-* finding, built from real records."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from curator.core.codes import CODES
from curator.core.errors import InputError
from curator.core.model import Severity, Source
from curator.scope import PaperText, check_records, load_records, load_rules
from curator.scope.records import Record, parse_records
from tests.conftest import SCOPE

RULES = load_rules(Path(__file__).resolve().parents[2] / "rules" / "scope.yaml")
REVIEW = SCOPE / "2026-10-03-review.json"
HISTORY = SCOPE / "2026-09-30-review.json"
CAVE_MEM = "2610.00238"  # a real include with its official abstract


@pytest.fixture(scope="module")
def real() -> dict[str, Mapping[str, Any]]:
    return {str(r["id"]): r for r in json.loads(REVIEW.read_text(encoding="utf-8"))}


def _new_include(real: dict[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The CAVE-Mem record rewritten the way policy 2026-10-09 asks."""
    old = dict(real[CAVE_MEM])
    abstract = old.pop("source_abstract")
    old.update(
        policy_version="2026-10-09",
        abstract=abstract,
        memory_focus_quote="Long-term memory agents increasingly rely on it- erative search",
        memory_focus_reason="the paper studies when stored search experience harms memory QA",
    )
    return old


def _records(*items: Mapping[str, Any]) -> tuple[Record, ...]:
    return parse_records(json.dumps(list(items), ensure_ascii=False, indent=1), "review.json")


def _official(real: dict[str, Mapping[str, Any]], key: str = CAVE_MEM) -> PaperText:
    return PaperText(str(real[key]["title"]), str(real[key]["source_abstract"]))


def _codes(findings: list[Any]) -> list[str]:
    return sorted(f.code for f in findings)


def test_record_codes_are_registered() -> None:
    for code in (
        "record-title-mismatch",
        "record-abstract-mismatch",
        "record-quote-missing",
        "record-fields-missing",
        "record-missing",
        "record-readded",
        "record-bad-reading-scope",
    ):
        assert CODES[code][0] is Severity.ERROR


def test_real_record_files_load_with_lines_and_pass() -> None:
    for path in (HISTORY, REVIEW):
        records = load_records(path)
        assert len(records) in (252, 646)
        assert records[0].source == Source(path.as_posix(), 2)
        lines = [r.source.line for r in records]
        assert lines == sorted(lines) and len(set(lines)) == len(lines)
        # Checked against their own recorded title and abstract, the real records are clean.
        meta = {r.id: PaperText(str(r.data["title"]), r.abstract) for r in records if r.abstract}
        assert check_records(records, {}, metadata=meta, rules=RULES) == []


def test_a_complete_new_include_is_clean(real: dict[str, Mapping[str, Any]]) -> None:
    records = _records(_new_include(real))
    assert check_records(records, {CAVE_MEM: _official(real)}, rules=RULES) == []


def test_title_and_abstract_must_be_the_official_ones(real: dict[str, Mapping[str, Any]]) -> None:
    record = _new_include(real)
    record["title"] = "CAVE-Mem: Boundary-Aware Validation for Memory Search"
    record["abstract"] = record["abstract"].replace("training-free", "trained")
    record["memory_focus_quote"] = record["title"]
    findings = check_records(_records(record), {f"arxiv:{CAVE_MEM}": _official(real)}, rules=RULES)
    assert _codes(findings) == [
        "record-abstract-mismatch",
        "record-quote-missing",
        "record-title-mismatch",
    ]
    title = next(f for f in findings if f.code == "record-title-mismatch")
    assert title.subject == f"arxiv:{CAVE_MEM}" and title.source == Source("review.json", 2)
    assert title.suggestion == real[CAVE_MEM]["title"]
    abstract = next(f for f in findings if f.code == "record-abstract-mismatch")
    assert "trained" in abstract.evidence and "training free" in abstract.evidence


def test_case_spacing_and_tex_differences_are_not_mismatches(
    real: dict[str, Mapping[str, Any]],
) -> None:
    record = _new_include(real)
    record["title"] = "  cave-mem:  boundary-aware experience validation for memory search "
    official = _official(real)
    wrapped = PaperText(official.title, (official.abstract or "").replace(". ", ".\n  "))
    assert check_records(_records(record), {CAVE_MEM: wrapped}, rules=RULES) == []


def test_quote_must_hold_the_memory_word(real: dict[str, Mapping[str, Any]]) -> None:
    record = _new_include(real)
    record["memory_focus_quote"] = "We propose CAVE- Mem, a training-free framework"
    findings = check_records(_records(record), {CAVE_MEM: _official(real)}, rules=RULES)
    assert _codes(findings) == ["record-quote-missing"]
    assert "does not contain the word memory" in findings[0].message


def test_fields_required_by_the_policy_version(real: dict[str, Mapping[str, Any]]) -> None:
    record = _new_include(real)
    del record["memory_focus_reason"]
    record["track"] = "procedural_memory"
    del record["experience_lifecycle"]
    findings = check_records(_records(record), {CAVE_MEM: _official(real)}, rules=RULES)
    assert _codes(findings) == ["record-fields-missing"]
    assert "memory_focus_reason" in findings[0].message
    assert "experience_lifecycle" in findings[0].message
    record["policy_version"] = "2027-01-01"
    findings = check_records(_records(record), {CAVE_MEM: _official(real)}, rules=RULES)
    assert "not one the rules know" in findings[0].message


@pytest.mark.parametrize(
    ("scope", "sections", "ok"),
    [
        ("abstract", None, True),
        ("full_text", None, True),
        ("abstract_and_selected_sections", ["3 Method"], True),
        ("abstract_and_selected_sections", None, False),
        ("pdf_downloaded", None, False),
    ],
)
def test_reading_scope_values(
    real: dict[str, Mapping[str, Any]], scope: str, sections: list[str] | None, ok: bool
) -> None:
    record = _new_include(real)
    record["reading_scope"] = scope
    if sections:
        record["sections_read"] = sections
    findings = check_records(_records(record), {CAVE_MEM: _official(real)}, rules=RULES)
    assert _codes(findings) == ([] if ok else ["record-bad-reading-scope"])


def test_listed_paper_without_include_record(real: dict[str, Mapping[str, Any]]) -> None:
    listed = {CAVE_MEM: _official(real), "arxiv:2609.38639": _official(real, "2609.38639")}
    where = {"2609.38639": Source("data/papers/agents.yaml", 40)}
    findings = check_records(_records(_new_include(real)), listed, sources=where, rules=RULES)
    assert _codes(findings) == ["record-missing"]
    assert findings[0].subject == "arxiv:2609.38639"
    assert findings[0].source == Source("data/papers/agents.yaml", 40)


def test_readding_an_excluded_paper_needs_a_reassessment(
    real: dict[str, Mapping[str, Any]],
) -> None:
    excluded = dict(real["2609.38639"])  # a real exclude record
    again = _new_include(real)
    again.update(
        id="2609.38639",
        title=excluded["title"],
        abstract=excluded["source_abstract"],
        memory_focus_quote="into an attribution memory that later mutations read",
    )
    listed = {"2609.38639": _official(real, "2609.38639")}
    records = _records(excluded, again)
    findings = check_records(records, listed, rules=RULES)
    assert _codes(findings) == ["record-readded"]
    assert findings[0].source == records[1].source and records[1].source.line > 2
    assert "exclude record (review.json:2)" in findings[0].message
    again["reassessment"] = {
        "previous_sha256": excluded["source_sha256"],
        "source_url": "https://arxiv.org/abs/2609.38639v2",
        "source_sha256": "0" * 64,
        "reason": "v2 adds cross-task reuse and validation of the attribution memory",
    }
    assert check_records(_records(excluded, again), listed, rules=RULES) == []
    again["reassessment"]["previous_sha256"] = "f" * 64  # not the excluded record's hash
    assert _codes(check_records(_records(excluded, again), listed, rules=RULES)) == [
        "record-readded"
    ]


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ('{"id": 1}', "expected a JSON array", 1),
        ('[\n {"id": "1"},\n {"id": "2",}\n]', "invalid JSON", 3),
        ('[\n {"id": "1"}\n {"id": "2"}\n]', "expected ',' or ']'", 3),
        ('[\n "text"\n]', "must be a JSON object", 2),
        ('[\n {"id": "1"}\n', "not closed", 3),
        ('[{"id": "1"}] trailing', "not closed, or text follows", 1),
    ],
)
def test_malformed_records_name_the_line(text: str, message: str, line: int) -> None:
    with pytest.raises(InputError) as info:
        parse_records(text, "screening/x-review.json")
    assert message in info.value.message
    assert (info.value.file, info.value.line) == ("screening/x-review.json", line)


def test_empty_array_is_no_records(tmp_path: Path) -> None:
    path = tmp_path / "empty-review.json"
    path.write_text("[ ]\n", encoding="utf-8")
    assert load_records(path) == ()
